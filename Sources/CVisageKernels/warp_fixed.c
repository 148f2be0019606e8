// OpenCV's 8-bit fixed-point bilinear warp (VisageImage's `Image.warpAffineFixedPoint`, MediaPipe's
// ImageToTensorCalculator input) one output row at a time: the portable scalar run, and the dispatch
// to the AVX2 run (warp_fixed_avx2.c). Both compute what the Swift reference computes, step for step:
// the point in 1/32 pixel as `row + step · x` in doubles (no FMA: the pragma stops contraction),
// rounded half to even after clamping to 32-bit integers (NaN to the largest), integer weights, the
// 8-bit level `(Σ w·p + 512) >> 10`, and the level as `(float)n · scale + offset`.
#include "warp_fixed.h"

#pragma STDC FP_CONTRACT OFF

/// OpenCV's `saturate_cast<int>` of a point in 1/32 pixel, as the Swift reference's `rounded`.
static inline int64_t visage_fixed_rounded(double value) {
    double v = value;
    if (v != v) v = 0x1p31 - 1;
    if (v < -0x1p31) v = -0x1p31;
    if (v > 0x1p31 - 1) v = 0x1p31 - 1;
    // Adding and removing 1.5 · 2⁵² rounds |v| < 2⁵¹ half to even (C does not reassociate them).
    return (int64_t)((v + 0x1.8p52) - 0x1.8p52);
}

void visage_u8_warp_fixed_one(const visage_u8_warp_fixed_source *s, double row_x, double row_y, double step_x,
                              double step_y, size_t x, float *output) {
    const int64_t px = visage_fixed_rounded(row_x + step_x * (double)x);
    const int64_t py = visage_fixed_rounded(row_y + step_y * (double)x);
    const int64_t x0 = px >> 5, y0 = py >> 5;
    const int64_t fx = px & 31, fy = py & 31;
    const int64_t w00 = (32 - fx) * (32 - fy), w10 = fx * (32 - fy), w01 = (32 - fx) * fy, w11 = fx * fy;
    const int64_t max_x = (int64_t)s->max_x, max_y = (int64_t)s->max_y, step = (int64_t)s->bytes_per_pixel;
    const int64_t stride = (int64_t)s->stride;
    const size_t channels[3] = {s->red, s->green, s->blue};
    int64_t sums[3] = {0, 0, 0};
    if (x0 >= 0 && y0 >= 0 && x0 < max_x && y0 < max_y) {
        const uint8_t *p = s->pixels + y0 * stride + x0 * step, *q = p + stride;
        for (int c = 0; c < 3; c++) {
            const size_t k = channels[c];
            sums[c] = w00 * p[k] + w10 * p[k + step] + w01 * q[k] + w11 * q[k + step];
        }
    } else {
        // At the edge: each neighbour clamped (replicate) or, outside, contributing 0 (zero border).
        const int64_t dxs[4] = {0, 1, 0, 1}, dys[4] = {0, 0, 1, 1}, ws[4] = {w00, w10, w01, w11};
        for (int n = 0; n < 4; n++) {
            int64_t nx = x0 + dxs[n], ny = y0 + dys[n];
            if (s->replicate) {
                nx = nx < 0 ? 0 : (nx > max_x ? max_x : nx);
                ny = ny < 0 ? 0 : (ny > max_y ? max_y : ny);
            } else if (nx < 0 || ny < 0 || nx > max_x || ny > max_y) {
                continue;
            }
            const uint8_t *p = s->pixels + ny * stride + nx * step;
            for (int c = 0; c < 3; c++) sums[c] += ws[n] * p[channels[c]];
        }
    }
    for (int c = 0; c < 3; c++) output[c] = (float)((sums[c] + 512) >> 10) * s->scale + s->offset;
}

void visage_u8_warp_fixed_ukernel__portable(const visage_u8_warp_fixed_source *s, double row_x, double row_y,
                                            double step_x, double step_y, size_t count, float *output) {
    for (size_t x = 0; x < count; x++) {
        visage_u8_warp_fixed_one(s, row_x, row_y, step_x, step_y, x, output);
        output += 3;
    }
}

/// The run for `isa`: AVX2 for the AVX2 and AVX-512 sets when the image's byte offsets fit the
/// gathers' 32 bits, the portable run otherwise.
static visage_u8_warp_fixed_ukernel_fn visage_warp_fixed_kernel(visage_isa isa, const visage_u8_warp_fixed_source *s) {
#if defined(__x86_64__) || defined(__i386__)
    if ((isa == visage_isa_avx2_fma || isa == visage_isa_avx512) && visage_isa_is_available(isa) &&
        (s->bytes_per_pixel == 3 || s->bytes_per_pixel == 4) && s->max_y + 1 <= INT32_MAX / (s->stride + 1)) {
        return visage_u8_warp_fixed_ukernel__avx2_u8;
    }
#endif
    (void)isa;
    (void)s;
    return visage_u8_warp_fixed_ukernel__portable;
}

void visage_u8_warp_fixed_row(visage_isa isa, const visage_u8_warp_fixed_source *source, double row_x, double row_y,
                              double step_x, double step_y, size_t count, float *output) {
    visage_warp_fixed_kernel(isa, source)(source, row_x, row_y, step_x, step_y, count, output);
}

const char *visage_u8_warp_fixed_kernel_name(visage_isa isa, const visage_u8_warp_fixed_source *source) {
#if defined(__x86_64__) || defined(__i386__)
    if (visage_warp_fixed_kernel(isa, source) == visage_u8_warp_fixed_ukernel__avx2_u8) return "avx2";
#endif
    return "portable";
}
