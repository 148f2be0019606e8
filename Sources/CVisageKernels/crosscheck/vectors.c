// Every kernel set this machine (or emulator) runs, against the Swift references' outputs: the
// kernel tests' cases as `KernelVectorExport` (Tests/VisageNNTests) writes them, read from the
// file named on the command line and run through the same C drivers Swift calls. Not part of the
// library (the crosscheck folder is excluded in Package.swift): Scripts/check-kernels-cross.sh builds
// it for AArch64 (the NEON set, under qemu-aarch64) and for the host.
//
//   vectors FILE [SET...]   SET: portable, avx2_fma, neon, avx512 (default: every available set)
//
// Each convolution runs in two row bands (the second first, checking the first's rows stay
// untouched), then by channel panels (the last panel, then the rest in two row bands), and in bands
// of one row, and of 2 and 3 as OutputSplit cuts them, each alone and with the last panel apart
// from the rest: every split must give one call's values bit for bit (the engine's rule: 1 and 2
// threads agree to the last bit). Depthwise convolutions and pooling run in two row bands; 3×3 depthwise
// ones again on input with bands of one repeated pixel, told which (`visage_f32_dwconv_run_uniform`), against
// computing every pixel, bit for bit. Tolerances are the
// Swift tests': per value for convolutions and logistic, exact elsewhere (NaN matches NaN).
// Prints one line per failing case and set, then "N passed, M failed"; exits 1 on any failure.
// Built with VECTORS_BARE it has no main: bochs/bare.c calls `vectors_run` on Bochs with no OS.
#include "CVisageKernels.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vectors_run(const uint32_t *data, size_t word_count, unsigned set_mask);

/// Sets (bit n: visage_isa n) whose warp runs are skipped: bochs/bare.c sets AVX-512's, since Bochs 2.7
/// raises #UD on the AVX-512 warp kernel's gathers (see Scripts/check-kernels-cross.sh).
unsigned vectors_skip_warp = 0;

enum { KIND_CONV = 1, KIND_DWCONV, KIND_MAXPOOL, KIND_BINARY, KIND_CLAMP, KIND_PRELU, KIND_LOGISTIC, KIND_WARP };

typedef struct array { size_t count; const float *values; } array;

typedef struct record {
    uint32_t kind;
    char name[256];
    size_t int_count;
    const uint32_t *ints;
    size_t array_count;
    array arrays[16];
} record;

static const uint32_t *words, *end;

static int next_record(record *r) {
    if (words >= end) return 0;
#define NEED(n) do { if ((size_t)(end - words) < (size_t)(n)) { printf("truncated vector file\n"); return -1; } } while (0)
    NEED(2);
    r->kind = *words++;
    const size_t name_bytes = *words++, name_words = (name_bytes + 3) / 4;
    NEED(name_words + 1);
    const size_t kept = name_bytes < sizeof r->name - 1 ? name_bytes : sizeof r->name - 1;
    memcpy(r->name, words, kept);
    r->name[kept] = 0;
    words += name_words;
    r->int_count = *words++;
    NEED(r->int_count + 1);
    r->ints = words;
    words += r->int_count;
    r->array_count = *words++;
    if (r->array_count > 16) { printf("bad vector file\n"); return -1; }
    for (size_t i = 0; i < r->array_count; i++) {
        NEED(1);
        r->arrays[i].count = *words++;
        NEED(r->arrays[i].count);
        r->arrays[i].values = (const float *)(const void *)words;
        words += r->arrays[i].count;
    }
#undef NEED
    return 1;
}

static float *copy(const array a) {
    float *p = malloc((a.count ? a.count : 1) * sizeof(float));
    if (a.count) memcpy(p, a.values, a.count * sizeof(float));
    return p;
}

static float *filled(size_t n, float value) {
    float *p = malloc((n ? n : 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) p[i] = value;
    return p;
}

/// Slopes padded with zeros to whole 16-channel panels, as PackedWeights passes them; NULL for none.
static float *padded_slopes(const array a) {
    if (a.count == 0) return NULL;
    const size_t padded = (a.count + VISAGE_CONV_PANEL - 1) / VISAGE_CONV_PANEL * VISAGE_CONV_PANEL;
    float *p = calloc(padded, sizeof(float));
    memcpy(p, a.values, a.count * sizeof(float));
    return p;
}

static visage_conv_geometry geometry(const record *r) {
    const uint32_t *g = r->ints;
    return (visage_conv_geometry){g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11]};
}

static char problem[512];

/// 0 when `actual` matches `expected` within `tolerance` (NULL: exactly; NaN matches NaN), else 1 with `problem` set.
static int compare(const char *what, const float *actual, const array expected, const array *tolerance) {
    for (size_t i = 0; i < expected.count; i++) {
        const float a = actual[i], e = expected.values[i];
        if (isnan(e) ? isnan(a) : (a == e || (tolerance != NULL && fabsf(a - e) <= tolerance->values[i]))) continue;
        snprintf(problem, sizeof problem, "%s [%zu]: %.9g vs %.9g (tolerance %g)", what, i, a, e,
                 tolerance != NULL ? tolerance->values[i] : 0.0);
        return 1;
    }
    return 0;
}

// After a run of rows split..<height only: 1 with the problem set when a row above `split` (`row`
// floats each) no longer holds `sentinel`, else 0.
static int wrote_above_band(const float *p, size_t split, size_t row, unsigned height, float sentinel) {
    for (size_t i = 0; i < split * row; i++) {
        if (p[i] != sentinel) {
            snprintf(problem, sizeof problem, "rows %zu..<%u wrote outside them", split, height);
            return 1;
        }
    }
    return 0;
}

static int check_conv(visage_isa isa, const record *r) {
    const visage_conv_geometry g = geometry(r);
    const size_t residual_channels = r->ints[12], in_output = r->ints[13];
    const array *a = r->arrays;  // input, weights, bias, slopes, residual, clamp, expected, tolerance
    float *packed = malloc(visage_f32_conv_packed_count(&g) * sizeof(float));
    visage_f32_conv_pack(&g, a[1].values, a[2].values, packed);
    float *zeros = calloc(g.kernel_width * g.input_channels + 1, sizeof(float));
    float *slopes = padded_slopes(a[3]);
    const visage_f32_epilogue ep = {a[5].values[0], a[5].values[1], slopes};
    const size_t n = a[6].count, row = g.output_width * g.output_channels, split = g.output_height / 2;
    const float sentinel = 1234.5f;
    // The residual run beside the output (not in it): its tensor, or none and the output's channel count.
    const float *residual = residual_channels ? a[4].values : NULL;
    const size_t rc = residual_channels ? residual_channels : g.output_channels;
    int failed = 0;
    float *whole;
    if (in_output) {
        whole = copy(a[4]);
        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, whole, residual_channels, whole, 0, g.output_height, 0, g.output_channels);
    } else {
        whole = filled(n, sentinel);
        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, whole, split, g.output_height, 0, g.output_channels);
        failed = wrote_above_band(whole, split, row, (unsigned)g.output_height, sentinel);
        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, whole, 0, split, 0, g.output_channels);
    }
    if (!failed) failed = compare("conv", whole, a[6], &a[7]);
    if (!failed && !in_output) {
        float *single = filled(n, sentinel), *parts = filled(n, sentinel);
        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, single, 0, g.output_height, 0, g.output_channels);
        const size_t last = (g.output_channels - 1) / VISAGE_CONV_PANEL * VISAGE_CONV_PANEL;
        if (g.output_channels > VISAGE_CONV_PANEL) {
            // By channel panels, as threads may share a layer: the last panel, then the rest in two row bands,
            // against one call for the whole layer (as ConvolutionKernelTests.channelRangesGiveTheWholeRunsValues).
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, 0, g.output_height, last, g.output_channels);
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, 0, split, 0, last);
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, split, g.output_height, 0, last);
            if (memcmp(parts, single, n * sizeof(float)) != 0) {
                snprintf(problem, sizeof problem, "channel panels differ from the whole run");
                failed = 1;
            }
        }
        // By row bands, and by bands × channel ranges (as ConvolutionSplitTests): one row per band, and 2
        // and 3 bands as OutputSplit cuts them, each band with all channels, then with the last panel
        // apart from the rest. A band's pixels fall into other tiles than one call's (a band may end in a
        // lone pixel), and every output must still be the whole run's bit for bit.
        for (size_t parts_count = 0; parts_count <= 3 && !failed; parts_count++) {
            if (parts_count == 1 || (parts_count > 1 && parts_count >= g.output_height)) continue;
            const size_t bands = parts_count == 0 ? g.output_height : parts_count;  // 0: one row per band
            for (int by_channels = 0; by_channels <= (last > 0) && !failed; by_channels++) {
                for (size_t i = 0; i < n; i++) parts[i] = sentinel;
                for (size_t b = 0; b < bands; b++) {
                    const size_t r0 = g.output_height * b / bands, r1 = g.output_height * (b + 1) / bands;
                    if (by_channels) {
                        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, r0, r1, last, g.output_channels);
                        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, r0, r1, 0, last);
                    } else {
                        visage_f32_conv_run(isa, &g, packed, zeros, &ep, a[0].values, residual, rc, parts, r0, r1, 0, g.output_channels);
                    }
                }
                for (size_t i = 0; i < n && !failed; i++) {
                    if (memcmp(&parts[i], &single[i], sizeof(float)) == 0) continue;
                    snprintf(problem, sizeof problem, "%zu row bands%s differ from the whole run at pixel %zu channel %zu: %.9g vs %.9g",
                             bands, by_channels ? " x channel ranges (the last panel, the rest)" : "", i / g.output_channels,
                             i % g.output_channels, parts[i], single[i]);
                    failed = 1;
                }
            }
        }
        free(single);
        free(parts);
    }
    free(packed); free(zeros); free(slopes); free(whole);
    return failed;
}

/// A 3×3 case's input with rows of one pixel repeated (`visage_f32_dwconv_run_uniform`): rows 0 and 1
/// whole, then two rows in three repeat their column 1 over [1, width − 1) (a letterbox's band after a
/// padded convolution), the third left as it is. Told which, the run in two row bands must give the
/// values of computing every pixel, bit for bit.
static int check_dwconv_uniform(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros, const visage_f32_epilogue *ep,
    const array input) {
    const size_t h = g->input_height, w = g->input_width, c = g->input_channels, n = g->output_height * g->output_width * c;
    float *banded = malloc(input.count * sizeof(float)), *whole = filled(n, 1234.5f), *skipped = filled(n, 1234.5f);
    int32_t *uniform = calloc(2 * h, sizeof(int32_t));
    memcpy(banded, input.values, input.count * sizeof(float));
    for (size_t y = 0; y < h && w >= 3; y++) {
        const size_t lo = y < 2 ? 0 : 1, hi = y < 2 ? w : w - 1;
        if (y >= 2 && y % 3 == 1) continue;
        for (size_t x = lo; x < hi; x++) memcpy(banded + (y * w + x) * c, banded + (y * w + 1) * c, c * sizeof(float));
        uniform[2 * y] = (int32_t)lo;
        uniform[2 * y + 1] = (int32_t)hi;
    }
    const size_t split = g->output_height / 2;
    visage_f32_dwconv_run(isa, g, packed, zeros, ep, banded, whole, 0, g->output_height);
    visage_f32_dwconv_run_uniform(isa, g, packed, zeros, ep, banded, skipped, split, g->output_height, uniform);
    visage_f32_dwconv_run_uniform(isa, g, packed, zeros, ep, banded, skipped, 0, split, uniform);
    int failed = 0;
    for (size_t i = 0; i < n && !failed; i++) {
        uint32_t a, b;
        memcpy(&a, whole + i, 4);
        memcpy(&b, skipped + i, 4);
        if (a != b) {
            snprintf(problem, sizeof problem, "dwconv with uniform rows: value %zu is %.9g, computing every pixel gives %.9g", i,
                     skipped[i], whole[i]);
            failed = 1;
        }
    }
    free(banded); free(whole); free(skipped); free(uniform);
    return failed;
}

static int check_dwconv(visage_isa isa, const record *r) {
    const visage_conv_geometry g = geometry(r);
    const array *a = r->arrays;  // input, weights, bias, slopes, clamp, expected, tolerance
    float *packed = malloc(visage_f32_dwconv_packed_count(&g) * sizeof(float));
    visage_f32_dwconv_pack(&g, a[1].values, a[2].values, packed);
    float *zeros = calloc(g.input_width * g.output_channels + 1, sizeof(float));
    float *slopes = padded_slopes(a[3]);
    const visage_f32_epilogue ep = {a[4].values[0], a[4].values[1], slopes};
    const size_t n = a[5].count, row = g.output_width * g.output_channels, split = g.output_height / 2;
    const float sentinel = 1234.5f;
    float *out = filled(n, sentinel);
    int failed = 0;
    visage_f32_dwconv_run(isa, &g, packed, zeros, &ep, a[0].values, out, split, g.output_height);
    failed = wrote_above_band(out, split, row, (unsigned)g.output_height, sentinel);
    visage_f32_dwconv_run(isa, &g, packed, zeros, &ep, a[0].values, out, 0, split);
    if (!failed) failed = compare("dwconv", out, a[5], &a[6]);
    if (!failed && g.kernel_height == 3 && g.kernel_width == 3) failed = check_dwconv_uniform(isa, &g, packed, zeros, &ep, a[0]);
    free(packed); free(zeros); free(slopes); free(out);
    return failed;
}

static int check_maxpool(visage_isa isa, const record *r) {
    const visage_conv_geometry g = geometry(r);
    const array *a = r->arrays;  // input, clamp, expected
    float *out = filled(a[2].count, 1234.5f);
    const size_t split = g.output_height / 2;
    visage_f32_maxpool_run(isa, &g, a[0].values, out, 0, split, a[1].values[0], a[1].values[1]);
    visage_f32_maxpool_run(isa, &g, a[0].values, out, split, g.output_height, a[1].values[0], a[1].values[1]);
    const int failed = compare("maxpool", out, a[2], NULL);
    free(out);
    return failed;
}

static int check_binary(visage_isa isa, const record *r) {
    const uint32_t op = r->ints[0], aliasing = r->ints[1];
    const array *a = r->arrays;  // a, b, clamp, expected
    const size_t n = a[3].count;
    float *x = copy(a[0]), *y = copy(a[1]), *out = aliasing == 1 ? x : aliasing == 2 ? y : filled(n, 1234.5f);
    void (*kernel)(visage_isa, const float *, const float *, float *, size_t, float, float) =
        op == 0 ? visage_f32_vadd : op == 1 ? visage_f32_vsub : visage_f32_vmul;
    kernel(isa, x, y, out, n, a[2].values[0], a[2].values[1]);
    const int failed = compare("binary", out, a[3], NULL);
    if (out != x && out != y) free(out);
    free(x); free(y);
    return failed;
}

static int check_clamp(visage_isa isa, const record *r) {
    const array *a = r->arrays;  // x, clamp, expected
    float *x = copy(a[0]);
    visage_f32_vclamp(isa, x, x, a[2].count, a[1].values[0], a[1].values[1]);
    const int failed = compare("clamp", x, a[2], NULL);
    free(x);
    return failed;
}

static int check_prelu(visage_isa isa, const record *r) {
    const array *a = r->arrays;  // x, slopes, expected
    const size_t n = a[2].count;
    float *out = filled(n, 1234.5f), *x = copy(a[0]);
    visage_f32_vprelu(isa, a[0].values, a[1].values, r->ints[0], out, n);
    int failed = compare("prelu", out, a[2], NULL);
    visage_f32_vprelu(isa, x, a[1].values, r->ints[0], x, n);
    if (!failed) failed = compare("prelu in place", x, a[2], NULL);
    free(out); free(x);
    return failed;
}

static int check_logistic(visage_isa isa, const record *r) {
    const array *a = r->arrays;  // x, expected, tolerance
    float *x = copy(a[0]);
    visage_f32_vsigmoid(isa, x, x, a[1].count);
    const int failed = compare("logistic", x, a[1], &a[2]);
    free(x);
    return failed;
}

static int64_t int64_at(const uint32_t *p) { return (int64_t)((uint64_t)p[0] | (uint64_t)p[1] << 32); }

/// The warp's interior run, row by row, which must equal the Swift run bit for bit; 2 (not applicable)
/// for a set without a warp kernel.
static int check_warp(visage_isa isa, const record *r) {
    if (!visage_u8_warp_supported(isa) || (vectors_skip_warp & (1u << isa))) return 2;
    const uint32_t *n = r->ints;  // bytes per pixel, R, G, B offsets, image width, height, stride, rounded, width, height, steps, rows' positions
    const array *a = r->arrays;   // pixels (as floats), [scale, offset, span], expected
    uint8_t *pixels = malloc(a[0].count);
    for (size_t i = 0; i < a[0].count; i++) pixels[i] = (uint8_t)a[0].values[i];
    const visage_u8_warp_source source = {
        pixels, n[6], n[5], n[0], n[1], n[2], n[3], a[1].values[0], a[1].values[1], a[1].values[2], (int)n[7]};
    const size_t width = n[8], height = n[9];
    const int64_t step_x = int64_at(n + 10), step_y = int64_at(n + 12);
    float *out = filled(width * height * 3, 1234.5f);
    int failed = 0;
    for (size_t y = 0; y < height && !failed; y++) {
        if (!visage_u8_warp_interior(isa, &source, int64_at(n + 14 + 4 * y), int64_at(n + 16 + 4 * y), step_x, step_y, width, out + y * width * 3)) {
            snprintf(problem, sizeof problem, "the warp kernel declined the run");
            failed = 1;
        }
    }
    if (!failed) failed = compare("warp", out, a[2], NULL);
    free(pixels); free(out);
    return failed;
}

static int check(visage_isa isa, const record *r) {
    switch (r->kind) {
    case KIND_CONV: return check_conv(isa, r);
    case KIND_DWCONV: return check_dwconv(isa, r);
    case KIND_MAXPOOL: return check_maxpool(isa, r);
    case KIND_BINARY: return check_binary(isa, r);
    case KIND_CLAMP: return check_clamp(isa, r);
    case KIND_PRELU: return check_prelu(isa, r);
    case KIND_LOGISTIC: return check_logistic(isa, r);
    case KIND_WARP: return check_warp(isa, r);
    default: snprintf(problem, sizeof problem, "unknown record kind %u", (unsigned)r->kind); return 1;
    }
}

/// Runs every record on each set of `set_mask` (bit n: visage_isa n; 0: every available set) and
/// prints the tallies; returns the failures (-1 when a set cannot run or the file is malformed).
int vectors_run(const uint32_t *data, size_t word_count, unsigned set_mask) {
    if (word_count < 1 || data[0] != 0x31564B56u) { printf("not a kernel vector file\n"); return -1; }
    visage_isa sets[VISAGE_ISA_COUNT];
    size_t set_count = 0;
    for (int i = 0; i < VISAGE_ISA_COUNT; i++) {
        const visage_isa isa = (visage_isa)i;
        if (set_mask == 0 ? !visage_isa_is_available(isa) : !(set_mask & (1u << i))) continue;
        if (!visage_isa_is_available(isa)) { printf("the %s set cannot run on this machine\n", visage_isa_name(isa)); return -1; }
        sets[set_count++] = isa;
    }
    int passed = 0, failed = 0, skipped = 0;
    for (size_t s = 0; s < set_count; s++) {
        int set_passed = 0, set_failed = 0, set_skipped = 0;
        int kinds[9] = {0};
        words = data + 1;
        end = data + word_count;
        record r;
        int status;
        while ((status = next_record(&r)) > 0) {
            const int result = check(sets[s], &r);
            if (result == 2) {
                set_skipped++;
                continue;
            }
            if (result) {
                set_failed++;
                if (set_failed <= 20) printf("FAIL %s: %s: %s\n", visage_isa_name(sets[s]), r.name, problem);
            } else {
                set_passed++;
            }
            if (r.kind < 9) kinds[r.kind]++;
        }
        if (status < 0) return -1;
        printf("%s: %d cases (%d convolutions, %d depthwise, %d max pools, %d binary, %d clamps, %d PReLU, %d logistic, "
               "%d warp runs): %d passed, %d failed, %d skipped (no such kernel in the set, or not run here)\n",
               visage_isa_name(sets[s]), set_passed + set_failed, kinds[1], kinds[2], kinds[3], kinds[4], kinds[5], kinds[6],
               kinds[7], kinds[8], set_passed, set_failed, set_skipped);
        passed += set_passed;
        failed += set_failed;
        skipped += set_skipped;
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed;
}

#ifndef VECTORS_BARE
int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s VECTORS [portable|avx2_fma|neon|avx512 ...]\n", argv[0]);
        return 2;
    }
    unsigned mask = 0;
    for (int j = 2; j < argc; j++) {
        int known = 0;
        for (int i = 0; i < VISAGE_ISA_COUNT; i++) {
            if (strcmp(argv[j], visage_isa_name((visage_isa)i)) == 0) { mask |= 1u << i; known = 1; }
        }
        if (!known) { fprintf(stderr, "unknown kernel set %s\n", argv[j]); return 2; }
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) { perror(argv[1]); return 2; }
    fseek(f, 0, SEEK_END);
    const long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *data = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (bytes < 4 || bytes % 4 != 0 || fread(data, 1, (size_t)bytes, f) != (size_t)bytes) {
        fprintf(stderr, "%s: not a kernel vector file\n", argv[1]);
        return 2;
    }
    fclose(f);
    const int failed = vectors_run(data, (size_t)bytes / 4, mask);
    free(data);
    return failed < 0 ? 2 : failed != 0;
}
#endif
