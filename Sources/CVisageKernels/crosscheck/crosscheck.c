// Cross-check of the selected kernel set against the portable one on 300 random shapes, through
// the C drivers. Not part of the library (excluded in Package.swift): Scripts/check-kernels-aarch64.sh
// builds it for AArch64 and runs it under qemu, so the NEON set is tested on an x86 machine.
#include "CVisageKernels.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 88172645463325252ULL;
static float rnd(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return (float)((state >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f; }
static float *rarr(size_t n) { float *p = malloc((n ? n : 1) * sizeof(float)); for (size_t i = 0; i < n; i++) p[i] = rnd(); return p; }

static int compare(const char *what, const float *a, const float *b, size_t n, float tol) {
    for (size_t i = 0; i < n; i++) if (a[i] != b[i] && !(fabsf(a[i] - b[i]) <= tol * (1 + fabsf(b[i])))) { printf("FAIL %s at %zu: %g vs %g\n", what, i, a[i], b[i]); return 1; }
    return 0;
}

int main(void) {
    visage_isa isa = visage_isa_select(getenv("VISAGE_KERNELS"));
    printf("selected %s\n", visage_isa_name(isa));
    int failures = 0, checks = 0;
    for (int trial = 0; trial < 300; trial++) {
        visage_conv_geometry g;
        size_t k = (size_t)((rnd() + 1) * 2.5f); if (k < 1) k = 1; if (k > 5) k = 5;
        if (trial % 3 == 0) k = 1;
        g.kernel_height = g.kernel_width = k;
        g.stride_y = g.stride_x = trial % 2 ? 2 : 1;
        g.pad_top = (size_t)((rnd() + 1) * 0.5f * (k)); g.pad_left = (size_t)((rnd() + 1) * 0.5f * k);
        g.input_height = 1 + (size_t)((rnd() + 1) * 6); g.input_width = 1 + (size_t)((rnd() + 1) * 10);
        g.input_channels = 1 + (size_t)((rnd() + 1) * 20);
        g.output_channels = 1 + (size_t)((rnd() + 1) * 20);
        g.output_height = 1 + (size_t)((rnd() + 1) * 4); g.output_width = 1 + (size_t)((rnd() + 1) * 8);
        float *in = rarr(g.input_height * g.input_width * g.input_channels);
        float *w = rarr(g.output_channels * k * k * g.input_channels), *b = rarr(g.output_channels);
        float *slopes = calloc(g.output_channels + 16 + g.input_channels + 16, sizeof(float));
        for (size_t i = 0; i < g.output_channels; i++) slopes[i] = rnd();
        visage_f32_epilogue ep = { -0.5f, 2.0f, trial % 4 == 0 ? NULL : slopes };
        size_t outn = g.output_height * g.output_width * g.output_channels;
        float *packed = malloc(visage_f32_conv_packed_count(&g) * sizeof(float));
        visage_f32_conv_pack(&g, w, b, packed);
        float *zeros = calloc(k * g.input_channels * 64, sizeof(float));
        float *o1 = rarr(outn), *o2 = rarr(outn);
        // A fused residual ADD on some trials, with all or only the first channels.
        const size_t rc = trial % 6 == 1 ? g.output_channels : 1 + trial % g.output_channels;
        float *res = trial % 3 == 1 ? rarr(outn) : NULL;
        visage_f32_conv_run(visage_isa_portable, &g, packed, zeros, &ep, in, res, rc, o1, 0, g.output_height, 0, g.output_channels);
        if (trial % 2 && g.output_channels > VISAGE_CONV_PANEL) {
            // By channel panels, as threads may share a layer: the first panel, then the rest.
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, in, res, rc, o2, 0, g.output_height, 0, VISAGE_CONV_PANEL);
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, in, res, rc, o2, 0, g.output_height, VISAGE_CONV_PANEL, g.output_channels);
        } else {
            visage_f32_conv_run(isa, &g, packed, zeros, &ep, in, res, rc, o2, 0, g.output_height, 0, g.output_channels);
        }
        free(res);
        failures += compare("conv", o2, o1, outn, 1e-4f); checks++;
        // depthwise with channels = input channels
        visage_conv_geometry d = g; d.output_channels = d.input_channels;
        if (trial % 2 == 0) { d.kernel_height = d.kernel_width = 3; }
        size_t dn = d.output_height * d.output_width * d.output_channels;
        float *dw = rarr(d.kernel_height * d.kernel_width * d.output_channels), *db = rarr(d.output_channels);
        float *dpacked = malloc(visage_f32_dwconv_packed_count(&d) * sizeof(float));
        visage_f32_dwconv_pack(&d, dw, db, dpacked);
        float *dz = calloc(d.input_width * d.output_channels + 64, sizeof(float));
        float *d1 = rarr(dn), *d2 = rarr(dn);
        for (size_t i = 0; i < d.output_channels; i++) slopes[i] = rnd();
        visage_f32_dwconv_run(visage_isa_portable, &d, dpacked, dz, &ep, in, d1, 0, d.output_height);
        visage_f32_dwconv_run(isa, &d, dpacked, dz, &ep, in, d2, 0, d.output_height);
        failures += compare("dwconv", d2, d1, dn, 1e-5f); checks++;
        // max pooling over the depthwise geometry, clamped on some trials
        const float lo = trial % 2 ? -0.25f : -INFINITY, hi = trial % 2 ? 0.75f : INFINITY;
        visage_f32_maxpool_run(visage_isa_portable, &d, in, d1, 0, d.output_height, lo, hi);
        visage_f32_maxpool_run(isa, &d, in, d2, 0, d.output_height, lo, hi);
        failures += compare("maxpool", d2, d1, dn, 0); checks++;
        // elementwise
        size_t n = (size_t)((rnd() + 1) * 40);
        float *x = rarr(n), *y = rarr(n), *e1 = rarr(n), *e2 = rarr(n);
        visage_f32_vadd(visage_isa_portable, x, y, e1, n, -0.5f, 1.0f); visage_f32_vadd(isa, x, y, e2, n, -0.5f, 1.0f);
        failures += compare("vadd", e2, e1, n, 0); checks++;
        visage_f32_vmul(visage_isa_portable, x, y, e1, n, -0.5f, 1.0f); visage_f32_vmul(isa, x, y, e2, n, -0.5f, 1.0f);
        failures += compare("vmul", e2, e1, n, 0); checks++;
        visage_f32_vsub(visage_isa_portable, x, y, e1, n, -INFINITY, INFINITY); visage_f32_vsub(isa, x, y, e2, n, -INFINITY, INFINITY);
        failures += compare("vsub", e2, e1, n, 0); checks++;
        visage_f32_vclamp(visage_isa_portable, x, e1, n, 0, 0.5f); visage_f32_vclamp(isa, x, e2, n, 0, 0.5f);
        failures += compare("vclamp", e2, e1, n, 0); checks++;
        size_t ch = 1 + trial % 13, px = n / ch;
        visage_f32_vprelu(visage_isa_portable, x, slopes, ch, e1, px * ch); visage_f32_vprelu(isa, x, slopes, ch, e2, px * ch);
        failures += compare("vprelu", e2, e1, px * ch, 0); checks++;
        free(in); free(w); free(b); free(slopes); free(packed); free(zeros); free(o1); free(o2);
        free(dw); free(db); free(dpacked); free(dz); free(d1); free(d2); free(x); free(y); free(e1); free(e2);
    }
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}
