// Convolution as implicit GEMM: weights packed once into panels of 16 output channels, then
// each tile of MR output pixels gathers one input pointer per pixel and tap (padding taps
// point at zeros) and runs the set's microkernel over every panel. A kernel row's taps are
// consecutive memory and become one tap of kernel_width × input_channels; a short kernel row
// that crosses a padding column is first copied with its zeros into a scratch row. A 1×1
// convolution is the same with one tap: a plain register-blocked GEMM. A tile of one pixel
// (a 1×1 output, a row range's last pixel) is a GEMV.
#include "kernels.h"

#include <stdlib.h>
#include <string.h>

static size_t round_up_panel(size_t n) {
    return (n + VISAGE_CONV_PANEL - 1) / VISAGE_CONV_PANEL * VISAGE_CONV_PANEL;
}

static size_t panel_stride(const visage_conv_geometry *g) {
    return VISAGE_CONV_PANEL * (1 + g->kernel_height * g->kernel_width * g->input_channels);
}

size_t visage_f32_conv_packed_count(const visage_conv_geometry *g) {
    return round_up_panel(g->output_channels) / VISAGE_CONV_PANEL * panel_stride(g);
}

// Panel p: 16 biases, then for each tap t and input channel k the 16 weights of output
// channels 16p…16p+15, zero past the last channel.
void visage_f32_conv_pack(
    const visage_conv_geometry *g, const float *weights_ohwi, const float *bias, float *packed) {
    const size_t ks = g->kernel_height * g->kernel_width, kc = g->input_channels;
    memset(packed, 0, visage_f32_conv_packed_count(g) * sizeof(float));
    for (size_t o = 0; o < g->output_channels; o++) {
        float *panel = packed + o / VISAGE_CONV_PANEL * panel_stride(g);
        const size_t j = o % VISAGE_CONV_PANEL;
        panel[j] = bias != NULL ? bias[o] : 0.0f;
        for (size_t t = 0; t < ks; t++)
            for (size_t k = 0; k < kc; k++)
                panel[VISAGE_CONV_PANEL * (1 + t * kc + k) + j] = weights_ohwi[(o * ks + t) * kc + k];
    }
}

// A pointwise run's input bytes: its tiles' input stays in L2 while each panel sweeps it. Runs of
// 32–128 KiB ran alike and 16 KiB (within L1) about 1 % slower in the C harness; 64 KiB took full
// range's single thread 2.4 % and mesh's 1.8 % less CPU time than 16 KiB (the same tiles, sums
// and output: only fewer, longer calls per panel).
#define POINTWISE_RUN_BYTES 65536

// Pointer arrays up to this many entries live on the stack; larger kernels allocate.
#define STACK_POINTERS 1536

// Kernel rows of at most EDGE_ROW_MAX floats (kernel_width × input_channels), in kernels of at most
// EDGE_ROWS rows, that cross a padding column are copied with zeros into a scratch row, so the
// tile keeps one tap per kernel row instead of one per pixel of the window.
#define EDGE_ROW_MAX 64
#define EDGE_ROWS 5

/// How many of the nc channels of the panel starting at channel n add a residual of rc channels.
static inline size_t residual_width(size_t rc, size_t n, size_t nc) {
    return rc > n ? (rc - n < nc ? rc - n : nc) : 0;
}

/// The tiles of output rows [row_begin, row_end), for a compile-time `mr_max` (the set's MR) so
/// the per-tile pointer set-up unrolls: with short windows it costs as much as the tile's FMAs.
static inline __attribute__((always_inline)) void conv_tiles(
    const size_t mr_max, const visage_kernel_set *set, const visage_conv_geometry *g, const float *packed,
    const float *zeros, const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t pixel_begin, size_t pixel_end, size_t channel_begin,
    size_t channel_end, const float **a, const float *dot_weights, size_t dot_panel, size_t dot_stride) {
    const size_t kh = g->kernel_height, kw = g->kernel_width, ks = kh * kw;
    const size_t ic = g->input_channels, oc = g->output_channels, ow = g->output_width;
    const size_t ih = g->input_height, iw = g->input_width, sy = g->stride_y, sx = g->stride_x;
    const size_t stride = panel_stride(g), row_stride = iw * ic, pad_top = g->pad_top, pad_left = g->pad_left;
    // A 1×1, stride 1, unpadded convolution over the same extent reads pixel p for output p.
    const int pointwise = ks == 1 && sy == 1 && sx == 1 && g->pad_top == 0 && g->pad_left == 0
        && ih == g->output_height && iw == ow;
    float edge[VISAGE_CONV_MR_MAX * EDGE_ROWS * EDGE_ROW_MAX];

    const size_t end = pixel_end;
    size_t first = pixel_begin;  // the first pixel the tile loop below takes
    // The panels before a dot panel (all of them without one) take the pointwise run; a range of
    // the dot panel alone keeps the tile loop.
    const int has_dot = dot_weights != NULL && channel_end > dot_panel;
    const size_t pointwise_end = has_dot ? dot_panel : channel_end;
    if (pointwise && set->pointwise != NULL && pointwise_end > channel_begin) {
        // Whole tiles in runs whose input (about POINTWISE_RUN_BYTES) stays in L1 across the
        // panels: one call per run and panel, then the run's tiles of the dot panel one by one with
        // the pointers and call the loop below would make. The last pixels (under one tile) go to
        // the loop below.
        const size_t tiles = (end - first) / mr_max;
        // With a dot panel, a quarter: the run's input is swept once more, a tile at a time, and stays in L1 for it.
        size_t run = (has_dot ? POINTWISE_RUN_BYTES / 4 : POINTWISE_RUN_BYTES) / (mr_max * ic * sizeof(float));
        if (run == 0) run = 1;
        const size_t rc = residual_channels;
        for (size_t t = 0; t < tiles; t += run) {
            const size_t count = tiles - t < run ? tiles - t : run, p = first + t * mr_max;
            for (size_t n = channel_begin; n < pointwise_end; n += VISAGE_CONV_PANEL) {
                const size_t nc = pointwise_end - n < VISAGE_CONV_PANEL ? pointwise_end - n : VISAGE_CONV_PANEL;
                const size_t r_nc = residual_width(rc, n, nc);
                set->pointwise(count, nc, ic, input + p * ic, packed + n / VISAGE_CONV_PANEL * stride, output + p * oc + n, oc,
                               residual != NULL && r_nc > 0 ? residual + p * rc + n : NULL, rc, r_nc, epilogue->min,
                               epilogue->max, epilogue->slopes != NULL ? epilogue->slopes + n : NULL);
            }
            if (has_dot) {
                const size_t nc = channel_end - dot_panel, r_nc = residual_width(rc, dot_panel, nc);
                for (size_t q = p; q < p + count * mr_max; q += mr_max) {
                    for (size_t i = 0; i < mr_max; i++) a[i] = input + (q + i) * ic;
                    set->dot(mr_max, nc, ic, a, dot_weights, dot_stride, packed + dot_panel / VISAGE_CONV_PANEL * stride,
                             output + q * oc + dot_panel, oc, residual != NULL && r_nc > 0 ? residual + q * rc + dot_panel : NULL,
                             rc, r_nc, epilogue->min, epilogue->max, epilogue->slopes != NULL ? epilogue->slopes + dot_panel : NULL);
                }
            }
        }
        first += tiles * mr_max;
    }
    size_t tile_y = pixel_begin / ow, tile_x = pixel_begin % ow;  // the tile's first pixel, advanced without division
    // A full tile inside one output row whose windows lie wholly inside the input is "interior":
    // after an interior tile of the same row, its pointers are that tile's moved mr_max pixels
    // on, which saves recomputing them (with short windows, as costly as the tile's FMAs).
    const size_t step = mr_max * sx * ic;
    int previous_interior = 0;
    for (size_t p = first; p < end; p += mr_max) {
        const size_t mr = end - p < mr_max ? end - p : mr_max;
        size_t taps = 1, depth = ic;  // the microkernel's ks and kc for this tile
        const size_t y0 = tile_y * sy - pad_top, x0 = tile_x * sx - pad_left;
        const int interior = !pointwise && mr == mr_max && tile_x + mr_max <= ow && y0 < ih && y0 + kh <= ih
            && x0 < iw && x0 + (mr_max - 1) * sx + kw <= iw;
        if (pointwise) {
            for (size_t i = 0; i < mr_max; i++) a[i] = input + (p + (i < mr ? i : mr - 1)) * ic;
        } else if (interior && previous_interior && tile_x > 0) {
            taps = kh;
            depth = kw * ic;
            for (size_t j = 0; j < kh * mr_max; j++) a[j] += step;
            tile_x += mr_max;
        } else {
            // Pixels past mr repeat the last one. Unsigned arithmetic: a column or row before
            // the input wraps to a huge value and fails the bounds tests.
            size_t ys[VISAGE_CONV_MR_MAX], xs[VISAGE_CONV_MR_MAX];
            int rows_inside = 1;  // every pixel's kernel rows lie wholly inside the input row
            const int edge_copies = kw * ic <= EDGE_ROW_MAX && kh <= EDGE_ROWS;
            int all_rows = 1;     // and every kernel row lies inside the input
            size_t oy = tile_y, ox = tile_x;
            for (size_t i = 0; i < mr_max; i++) {
                ys[i] = oy * sy - pad_top;
                xs[i] = ox * sx - pad_left;
                rows_inside &= xs[i] < iw && xs[i] + kw <= iw;
                all_rows &= ys[i] < ih && ys[i] + kh <= ih;
                if (i + 1 < mr && ++ox == ow) {
                    ox = 0;
                    oy++;
                }
            }
            if (rows_inside || edge_copies) {
                // The kw taps of a kernel row are kw × ic consecutive floats, in the packed
                // order: one tap per kernel row. Rows outside the input read `zeros`; rows that
                // cross a padding column are copied into `edge` with zeros in the padding.
                taps = kh;
                depth = kw * ic;
                for (size_t i = 0; i < mr_max; i++) {
                    if (!(xs[i] < iw && xs[i] + kw <= iw)) {
                        // The row's taps inside the input are kx in [lo, hi): zeros, a copy, zeros.
                        const size_t before = xs[i] < iw ? 0 : 0 - xs[i];  // padding columns before the input
                        const size_t lo = before < kw ? before : kw;
                        size_t hi = lo;
                        if (lo < kw) hi = iw - (xs[i] + lo) < kw - lo ? lo + iw - (xs[i] + lo) : kw;
                        for (size_t ky = 0; ky < kh; ky++) {
                            const size_t iy = ys[i] + ky;
                            if (iy >= ih || hi == lo) {
                                a[ky * mr_max + i] = zeros;
                                continue;
                            }
                            float *copy = edge + (i * EDGE_ROWS + ky) * EDGE_ROW_MAX;
                            memset(copy, 0, lo * ic * sizeof(float));
                            memcpy(copy + lo * ic, input + (iy * iw + xs[i] + lo) * ic, (hi - lo) * ic * sizeof(float));
                            memset(copy + hi * ic, 0, (kw - hi) * ic * sizeof(float));
                            a[ky * mr_max + i] = copy;
                        }
                    } else if (all_rows) {
                        // Formed only here, where the window lies inside the input: a pointer to a
                        // padding position (xs or ys wrapped) would lie outside the array, which C
                        // leaves undefined even unread (UBSan's pointer-overflow, FUZZING.md finding 9).
                        const float *row = input + (ys[i] * iw + xs[i]) * ic;
                        for (size_t ky = 0; ky < kh; ky++, row += row_stride) a[ky * mr_max + i] = row;
                    } else {
                        for (size_t ky = 0; ky < kh; ky++) {
                            const size_t iy = ys[i] + ky;
                            a[ky * mr_max + i] = iy < ih ? input + (iy * iw + xs[i]) * ic : zeros;
                        }
                    }
                }
            } else {
                taps = ks;
                for (size_t i = 0; i < mr_max; i++)
                    for (size_t ky = 0; ky < kh; ky++) {
                        const size_t iy = ys[i] + ky;
                        for (size_t kx = 0; kx < kw; kx++) {
                            const size_t ix = xs[i] + kx;
                            a[(ky * kw + kx) * mr_max + i] = iy < ih && ix < iw ? input + (iy * iw + ix) * ic : zeros;
                        }
                    }
            }
            tile_x += mr_max;
        }
        while (tile_x >= ow) {
            tile_x -= ow;
            tile_y++;
        }
        previous_interior = interior;
        float *c = output + p * oc;
        if (mr == 1) {
            // One pixel: its taps to the front of `a` (entry t moves from t × MR), then a GEMV
            // over the channel range's panels that reads each weight once instead of a tile
            // computing MR copies (a channel's sum runs in the same order whatever the range).
            for (size_t t = 1; t < taps; t++) a[t] = a[t * mr_max];
            // A dot panel goes to the dot kernel as it does in a tile: its sums run in another order
            // than the GEMV's, and a pixel falls alone at a band's end for some splits but not others.
            const int dot = dot_weights != NULL && channel_end > dot_panel;
            const size_t rc = residual_channels, gemv_end = dot ? dot_panel : channel_end;
            if (gemv_end > channel_begin) {
                const size_t width = gemv_end - channel_begin;
                const size_t r_nc = residual_width(rc, channel_begin, width);
                const float *r = residual != NULL && r_nc > 0 ? residual + p * rc + channel_begin : NULL;
                set->gemv(width, depth, taps, a, packed + channel_begin / VISAGE_CONV_PANEL * stride,
                          stride, c + channel_begin, r, r_nc, epilogue->min, epilogue->max,
                          epilogue->slopes != NULL ? epilogue->slopes + channel_begin : NULL);
            }
            if (dot) {
                const size_t nc = channel_end - dot_panel, r_nc = residual_width(rc, dot_panel, nc);
                set->dot(1, nc, depth, a, dot_weights, dot_stride, packed + dot_panel / VISAGE_CONV_PANEL * stride, c + dot_panel, oc,
                         residual != NULL && r_nc > 0 ? residual + p * rc + dot_panel : NULL, rc, r_nc, epilogue->min,
                         epilogue->max, epilogue->slopes != NULL ? epilogue->slopes + dot_panel : NULL);
            }
            continue;
        }
        for (size_t n = channel_begin; n < channel_end; n += VISAGE_CONV_PANEL) {
            const size_t nc = channel_end - n < VISAGE_CONV_PANEL ? channel_end - n : VISAGE_CONV_PANEL;
            const float *slopes = epilogue->slopes != NULL ? epilogue->slopes + n : NULL;
            const size_t rc = residual_channels;
            // The last two panels' 17–24 channels in one pass (not when the second is a dot panel:
            // its sums run in another order).
            const size_t left = channel_end - n;
            if (set->conv_24 != NULL && left > VISAGE_CONV_PANEL && left <= 24
                && !(dot_weights != NULL && dot_panel == n + VISAGE_CONV_PANEL)) {
                const size_t r_nc24 = residual_width(rc, n, left);
                set->conv_24(mr, left, depth, taps, a, packed + n / VISAGE_CONV_PANEL * stride, stride, c + n, oc,
                             residual != NULL && r_nc24 > 0 ? residual + p * rc + n : NULL, rc, r_nc24, epilogue->min,
                             epilogue->max, slopes);
                break;
            }
            const visage_f32_conv_ukernel_fn ukernel = nc <= 8 ? set->conv_narrow : set->conv;
            const size_t r_nc = residual_width(rc, n, nc);
            const float *r = residual != NULL && r_nc > 0 ? residual + p * rc + n : NULL;
            if (dot_weights != NULL && n == dot_panel) {
                set->dot(mr, nc, depth, a, dot_weights, dot_stride, packed + n / VISAGE_CONV_PANEL * stride, c + n, oc,
                         r, rc, r_nc, epilogue->min, epilogue->max, slopes);
                continue;
            }
            ukernel(mr, nc, depth, taps, a, packed + n / VISAGE_CONV_PANEL * stride, c + n, oc,
                    r, rc, r_nc, epilogue->min, epilogue->max, slopes);
        }
    }
}

/// Copies output pixel `from`'s channels [channel_begin, channel_end) to the `count` pixels after it.
static void replicate_pixel(float *output, size_t oc, size_t from, size_t count, size_t channel_begin, size_t channel_end) {
    float *source = output + from * oc;
    if (channel_begin == 0 && channel_end == oc) {
        // Whole pixels are contiguous: double the copied run each time.
        size_t done = 1, total = count + 1;
        while (done < total) {
            const size_t n = done < total - done ? done : total - done;
            memcpy(source + done * oc, source, n * oc * sizeof(float));
            done += n;
        }
        return;
    }
    for (size_t i = 1; i <= count; i++)
        memcpy(source + i * oc + channel_begin, source + channel_begin, (channel_end - channel_begin) * sizeof(float));
}

static void conv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t row_begin, size_t row_end, size_t channel_begin,
    size_t channel_end, const int32_t *uniform) {
    if (channel_end > g->output_channels) channel_end = g->output_channels;
    if (channel_begin % VISAGE_CONV_PANEL != 0 || channel_begin >= channel_end || row_begin >= row_end) return;
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    const size_t mr_max = set->conv_mr, ks = g->kernel_height * g->kernel_width;
    const float *stack_pointers[STACK_POINTERS];
    const float **a = stack_pointers;
    if (ks * mr_max > STACK_POINTERS) {
        a = malloc(ks * mr_max * sizeof(*a));
        if (a == NULL) abort();
    }

    // A 1×1 layer whose last panel has only a few channels: that panel's weights transposed (one
    // zero-padded row of kc per channel) for the set's dot kernel.
    const size_t kc = g->input_channels, last_panel = (g->output_channels - 1) / VISAGE_CONV_PANEL * VISAGE_CONV_PANEL;
    const size_t dot_stride = (kc + 15) / 16 * 16;
    float dot_storage[VISAGE_DOT_NC_MAX * VISAGE_DOT_KC_MAX];
    const float *dot_weights = NULL;
    if (set->dot != NULL && ks == 1 && g->output_channels - last_panel <= VISAGE_DOT_NC_MAX && kc <= VISAGE_DOT_KC_MAX
        && channel_end > last_panel) {
        const float *panel = packed + last_panel / VISAGE_CONV_PANEL * panel_stride(g);
        for (size_t j = 0; j < g->output_channels - last_panel; j++)
            for (size_t k = 0; k < dot_stride; k++)
                dot_storage[j * dot_stride + k] = k < kc ? panel[VISAGE_CONV_PANEL * (1 + k) + j] : 0.0f;
        dot_weights = dot_storage;
    }

#define CONV_TILES(begin, end)                                                                                      \
    do {                                                                                                             \
        if ((begin) < (end)) switch (mr_max) {                                                                       \
            case 12:                                                                                                 \
                conv_tiles(12, set, g, packed, zeros, epilogue, input, residual, residual_channels, output, (begin),  \
                           (end), channel_begin, channel_end, a, dot_weights, last_panel, dot_stride);               \
                break;                                                                                               \
            case 6:                                                                                                  \
                conv_tiles(6, set, g, packed, zeros, epilogue, input, residual, residual_channels, output, (begin),   \
                           (end), channel_begin, channel_end, a, dot_weights, last_panel, dot_stride);               \
                break;                                                                                               \
            default:                                                                                                 \
                conv_tiles(mr_max, set, g, packed, zeros, epilogue, input, residual, residual_channels, output,      \
                           (begin), (end), channel_begin, channel_end, a, dot_weights, last_panel, dot_stride);      \
                break;                                                                                               \
            }                                                                                                        \
    } while (0)

    const size_t ow = g->output_width;
    // Pixels [begin, y × ow + lo + 1) still to compute: a row with a uniform run [lo, hi) ends the
    // pending range at its first run pixel and starts the next at hi, so a band's rows go to
    // conv_tiles as one range per row (its right edge, the next row's left edge and run pixel).
    size_t begin = row_begin * ow;
    if (uniform != NULL) {
        for (size_t y = row_begin; y < row_end; y++) {
            const int32_t lo = uniform[2 * y], hi = uniform[2 * y + 1];
            if (lo < 0 || hi > (int32_t)ow || hi - lo < 2) continue;
            CONV_TILES(begin, y * ow + (size_t)lo + 1);
            begin = y * ow + (size_t)hi;
        }
    }
    CONV_TILES(begin, row_end * ow);
#undef CONV_TILES
    if (uniform != NULL) {
        for (size_t y = row_begin; y < row_end; y++) {
            const int32_t lo = uniform[2 * y], hi = uniform[2 * y + 1];
            if (lo < 0 || hi > (int32_t)ow || hi - lo < 2) continue;
            replicate_pixel(output, g->output_channels, y * ow + (size_t)lo, (size_t)(hi - lo - 1), channel_begin, channel_end);
        }
    }
    if (a != stack_pointers) free(a);
}

void visage_f32_conv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t row_begin, size_t row_end, size_t channel_begin,
    size_t channel_end) {
    conv_run(isa, g, packed, zeros, epilogue, input, residual, residual_channels, output, row_begin, row_end,
             channel_begin, channel_end, NULL);
}

void visage_f32_conv_run_uniform(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t row_begin, size_t row_end, size_t channel_begin,
    size_t channel_end, const int32_t *uniform) {
    conv_run(isa, g, packed, zeros, epilogue, input, residual, residual_channels, output, row_begin, row_end,
             channel_begin, channel_end, uniform);
}
