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

// ---- Axis-aligned warps (visage_u8_warp_fixed_scaled) ----
//
// With b = c = 0 the rows' points are (32·(b·0 + tx) + 32·a·x, 32·(d·y + ty) + 32·c·x): the driver's
// row_x is 32·(b·y + tx), the same double for every y but for the sign of a zero (b·y is ±0), and
// 32·c·x is ±0, so point x's abscissa depends on x alone and its ordinate on y alone (a zero's sign
// never survives the rounding). Each output's sum Σ wx·wy·p over its 2×2 neighbourhood, a neighbour
// outside being clamped (replicate) or weighing 0 (zero border) along each axis on its own, is then
// Σ over the column's two taps of wx · (Σ over the row's two taps of wy · p): the same integer, the
// inner sum (≤ 32 · 255) made once per row for every byte the columns read.

/// A point's two taps along one axis: their indices times `unit` (bytes), and weights 32 − f and f. A tap
/// outside 0…`max` is clamped (replicate) or weighs 0 at index 0 (zero border).
typedef struct {
    int64_t first, second;
    int32_t first_weight, second_weight;
} visage_fixed_taps;

static visage_fixed_taps visage_fixed_taps_of(int64_t point, int64_t max, int64_t unit, int replicate) {
    int64_t first = point >> 5, second = first + 1;
    const int32_t fraction = (int32_t)(point & 31);
    visage_fixed_taps taps = {0, 0, 32 - fraction, fraction};
    if (replicate) {
        first = first < 0 ? 0 : (first > max ? max : first);
        second = second < 0 ? 0 : (second > max ? max : second);
    } else {
        if (first < 0 || first > max) first = 0, taps.first_weight = 0;
        if (second < 0 || second > max) second = 0, taps.second_weight = 0;
    }
    taps.first = first * unit;
    taps.second = second * unit;
    return taps;
}

/// The scratch: the columns' offsets and weights, then the blended row (4 spare entries), 32-byte aligned.
size_t visage_u8_warp_fixed_scaled_scratch_size(const visage_u8_warp_fixed_source *s, size_t width) {
    return width * (2 * sizeof(int32_t) + sizeof(uint32_t)) + ((s->max_x + 1) * s->bytes_per_pixel + 4) * sizeof(uint16_t) + 64;
}

void visage_u8_warp_fixed_scaled_row__portable(
    const visage_u8_warp_fixed_source *s, const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
    uint16_t bottom_weight, const int32_t *columns, const uint32_t *weights, size_t low, size_t high, size_t count,
    uint16_t *blend, float *output) {
    for (size_t i = low; i < high; i++) blend[i] = (uint16_t)(top_weight * top[i] + bottom_weight * bottom[i]);
    const size_t channels[3] = {s->red, s->green, s->blue};
    for (size_t x = 0; x < count; x++) {
        const uint16_t *left = blend + columns[2 * x], *right = blend + columns[2 * x + 1];
        const int32_t left_weight = (int32_t)(weights[x] & 0xFFFF), right_weight = (int32_t)(weights[x] >> 16);
        for (int c = 0; c < 3; c++) {
            const int32_t sum = left_weight * left[channels[c]] + right_weight * right[channels[c]];
            output[c] = (float)((sum + 512) >> 10) * s->scale + s->offset;
        }
        output += 3;
    }
}

int visage_u8_warp_fixed_scaled(visage_isa isa, const visage_u8_warp_fixed_source *s, double a, double b, double c,
                                double d, double tx, double ty, size_t width, size_t height, float *output,
                                void *scratch) {
    // NaN compares unequal: such a transform runs the rows.
    if (b != 0 || c != 0) return 0;
    const size_t row_bytes = (s->max_x + 1) * s->bytes_per_pixel;
    if (row_bytes > INT32_MAX - 64) return 0;
    visage_u8_warp_fixed_scaled_row_fn row = visage_u8_warp_fixed_scaled_row__portable;
#if defined(__x86_64__) || defined(__i386__)
    if ((isa == visage_isa_avx2_fma || isa == visage_isa_avx512) && visage_isa_is_available(isa)) {
        row = visage_u8_warp_fixed_scaled_row__avx2;
    }
#endif
    (void)isa;
    int32_t *columns = (int32_t *)scratch;
    uint32_t *weights = (uint32_t *)(columns + 2 * width);
    uint16_t *blend = (uint16_t *)(((uintptr_t)(weights + width) + 31) & ~(uintptr_t)31);
    // The driver's first row: 32 · (b · 0 + tx), and its step.
    const double row_x = 32 * (b * 0.0 + tx), step_x = 32 * a, step_y = 32 * c;
    size_t low = row_bytes, high = 0;
    for (size_t x = 0; x < width; x++) {
        const visage_fixed_taps taps = visage_fixed_taps_of(
            visage_fixed_rounded(row_x + step_x * (double)x), (int64_t)s->max_x, (int64_t)s->bytes_per_pixel, s->replicate);
        columns[2 * x] = (int32_t)taps.first;
        columns[2 * x + 1] = (int32_t)taps.second;
        weights[x] = (uint32_t)taps.first_weight | (uint32_t)taps.second_weight << 16;
        // A tap outside (zero border) sits at 0, either one: both bound the bytes read.
        const size_t first = (size_t)taps.first, second = (size_t)taps.second;
        const size_t least = first < second ? first : second, most = first < second ? second : first;
        if (least < low) low = least;
        if (most + s->bytes_per_pixel > high) high = most + s->bytes_per_pixel;
    }
    for (size_t i = 0; i < 4; i++) blend[high + i] = 0;
    const float outside = (float)0 * s->scale + s->offset;
    for (size_t y = 0; y < height; y++, output += 3 * width) {
        const double row_y = 32 * (d * (double)y + ty);
        const visage_fixed_taps taps = visage_fixed_taps_of(
            visage_fixed_rounded(row_y + step_y * 0.0), (int64_t)s->max_y, (int64_t)s->stride, s->replicate);
        if (taps.first_weight == 0 && taps.second_weight == 0) {
            // Neither stored row exists (zero border): every sample is level 0.
            for (size_t i = 0; i < 3 * width; i++) output[i] = outside;
            continue;
        }
        row(s, s->pixels + taps.first, s->pixels + taps.second, (uint16_t)taps.first_weight, (uint16_t)taps.second_weight,
            columns, weights, low, high, width, blend, output);
    }
    return 1;
}
