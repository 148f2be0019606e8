// The NEON kernel set (AArch64, where Advanced SIMD is always present). Same algorithms and
// packed layouts as the AVX2 set, in 4-lane registers.
#include "kernels.h"

#if defined(__aarch64__)

#include <arm_neon.h>
#include <math.h>

#define NEON_INLINE static inline __attribute__((always_inline))

/// Clamp, then PReLU where the value is negative.
NEON_INLINE float32x4_t epilogue(float32x4_t v, float32x4_t vmin, float32x4_t vmax, const float *slopes) {
    v = vminq_f32(vmaxq_f32(v, vmin), vmax);
    if (slopes != NULL) v = vbslq_f32(vcltq_f32(v, vdupq_n_f32(0.0f)), vmulq_f32(v, vld1q_f32(slopes)), v);
    return v;
}

/// Stores the first n (0 ≤ n ≤ 4) lanes.
NEON_INLINE void store_n(float *p, float32x4_t v, size_t n) {
    if (n >= 4) {
        vst1q_f32(p, v);
        return;
    }
    if (n >= 2) {
        vst1_f32(p, vget_low_f32(v));
        p += 2;
        n -= 2;
        v = vcombine_f32(vget_high_f32(v), vget_high_f32(v));
    }
    if (n == 1) vst1q_lane_f32(p, v, 0);
}

/// Loads the first n (0 ≤ n ≤ 4) values, zero in the other lanes, never reading past them.
NEON_INLINE float32x4_t load_n(const float *p, size_t n) {
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t i = 0; i < n && i < 4; i++) lanes[i] = p[i];
    return vld1q_f32(lanes);
}

void visage_f32_conv_ukernel__neon_6x16(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    enum { MR = 6 };
    float32x4_t acc[MR][4];
    const float32x4_t bias[4] = {vld1q_f32(w), vld1q_f32(w + 4), vld1q_f32(w + 8), vld1q_f32(w + 12)};
    for (size_t i = 0; i < MR; i++)
        for (size_t j = 0; j < 4; j++) acc[i][j] = bias[j];
    w += 16;
    for (size_t t = 0; t < ks; t++) {
        const float *ap[MR];
        for (size_t i = 0; i < MR; i++) ap[i] = a[t * MR + i];
        for (size_t k = 0; k < kc; k++) {
            const float32x4_t w0 = vld1q_f32(w), w1 = vld1q_f32(w + 4), w2 = vld1q_f32(w + 8), w3 = vld1q_f32(w + 12);
            w += 16;
            for (size_t i = 0; i < MR; i++) {
                const float32x4_t x = vld1q_dup_f32(ap[i] + k);
                acc[i][0] = vfmaq_f32(acc[i][0], x, w0);
                acc[i][1] = vfmaq_f32(acc[i][1], x, w1);
                acc[i][2] = vfmaq_f32(acc[i][2], x, w2);
                acc[i][3] = vfmaq_f32(acc[i][3], x, w3);
            }
        }
    }
    const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);
    // A constant trip count (MR) keeps every accumulator index constant, hence in a register.
    for (size_t i = 0; i < MR; i++) {
        if (i >= mr) break;
        float *ci = c + i * c_stride;
        for (size_t j = 0; j < 4; j++) {
            const size_t start = 4 * j;
            if (start >= nc) break;
            float32x4_t sum = acc[i][j];
            if (residual != NULL && start < r_nc) {
                const float *ri = residual + i * r_stride + start;
                sum = vaddq_f32(sum, r_nc - start >= 4 ? vld1q_f32(ri) : load_n(ri, r_nc - start));
            }
            const float32x4_t v = epilogue(sum, vmin, vmax, slopes == NULL ? NULL : slopes + start);
            store_n(ci + start, v, nc - start);
        }
    }
}

NEON_INLINE void dwconv_row(
    size_t pixels, size_t channels, const size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes) {
    const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);
    for (size_t p = 0; p < pixels; p++, output += channels) {
        const size_t offset = p * input_step;
        const float *wg = w;
        for (size_t c = 0; c < channels; c += 16, wg += 16 + ks * 16) {
            const size_t n = channels - c < 16 ? channels - c : 16;
            float32x4_t acc[4] = {vld1q_f32(wg), vld1q_f32(wg + 4), vld1q_f32(wg + 8), vld1q_f32(wg + 12)};
            for (size_t t = 0; t < ks; t++) {
                const float *x = input[t] + offset + c;
                const float *wt = wg + 16 + t * 16;
                for (size_t j = 0; j < 4; j++) {
                    const float32x4_t xv = n == 16 ? vld1q_f32(x + 4 * j) : load_n(x + 4 * j, n > 4 * j ? n - 4 * j : 0);
                    acc[j] = vfmaq_f32(acc[j], xv, vld1q_f32(wt + 4 * j));
                }
            }
            for (size_t j = 0; j < 4 && 4 * j < n; j++)
                store_n(output + c + 4 * j, epilogue(acc[j], vmin, vmax, slopes == NULL ? NULL : slopes + c + 4 * j), n - 4 * j);
        }
    }
}

void visage_f32_dwconv_ukernel__neon_up16(
    size_t pixels, size_t channels, size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes) {
    dwconv_row(pixels, channels, ks, input, input_step, w, output, min, max, slopes);
}

/// 3×3 depthwise row: 8 channels at a time across the whole row, so the 9 tap weights and the
/// bias stay in registers (20 of the 32); taps on columns outside the row are skipped.
void visage_f32_dwconv_ukernel__neon_9p16(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t stride,
    size_t pad_left, const float *w, float *output, float min, float max, const float *slopes) {
    const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);
    for (size_t c = 0; c < channels; c += 8) {
        const size_t n = channels - c < 8 ? channels - c : 8;
        const float *wc = w + c / 16 * (16 + 9 * 16) + c % 16;  // this half of its 16-channel group
        float32x4_t k[9][2];
        for (size_t t = 0; t < 9; t++) {
            k[t][0] = vld1q_f32(wc + 16 + 16 * t);
            k[t][1] = vld1q_f32(wc + 20 + 16 * t);
        }
        const float32x4_t bias0 = vld1q_f32(wc), bias1 = vld1q_f32(wc + 4);
        const float *sc = slopes == NULL ? NULL : slopes + c;
        float *out = output + c;
        for (size_t p = 0; p < pixels; p++, out += channels) {
            float32x4_t acc0 = bias0, acc1 = bias1;
            for (size_t t = 0; t < 9; t++) {
                const size_t ix = p * stride + t % 3 - pad_left;  // wraps left of the row
                if (ix >= input_width) continue;
                const float *x = rows[t / 3] + ix * channels + c;
                const float32x4_t x0 = n == 8 ? vld1q_f32(x) : load_n(x, n);
                const float32x4_t x1 = n == 8 ? vld1q_f32(x + 4) : load_n(x + 4, n > 4 ? n - 4 : 0);
                acc0 = vfmaq_f32(acc0, x0, k[t][0]);
                acc1 = vfmaq_f32(acc1, x1, k[t][1]);
            }
            store_n(out, epilogue(acc0, vmin, vmax, sc), n < 4 ? n : 4);
            if (n > 4) store_n(out + 4, epilogue(acc1, vmin, vmax, sc == NULL ? NULL : sc + 4), n - 4);
        }
    }
}

void visage_f32_maxpool_ukernel__neon_u16(
    size_t pixels, size_t channels, size_t row_count, const float *const *rows, size_t input_width,
    size_t kernel_width, size_t stride, size_t pad_left, float *output, float min, float max) {
    const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);
    for (size_t p = 0; p < pixels; p++, output += channels) {
        const size_t left = p * stride, right = left + kernel_width;  // columns + pad_left
        const size_t begin = left > pad_left ? left - pad_left : 0;
        const size_t end = right > pad_left + input_width ? input_width : right > pad_left ? right - pad_left : 0;
        for (size_t c = 0; c < channels; c += 4) {
            const size_t n = channels - c < 4 ? channels - c : 4;
            // vmaxnm returns the number when one operand is NaN: NaN taps are passed over.
            float32x4_t m = vdupq_n_f32(-INFINITY);
            for (size_t r = 0; r < row_count; r++) {
                for (size_t ix = begin; ix < end; ix++) {
                    const float *x = rows[r] + ix * channels + c;
                    m = vmaxnmq_f32(m, n == 4 ? vld1q_f32(x) : load_n(x, n));
                }
            }
            store_n(output + c, vminq_f32(vmaxq_f32(m, vmin), vmax), n);
        }
    }
}

#define NEON_VBINARY(name, op)                                                                    \
    void visage_f32_##name##_ukernel__neon_u16(                                                   \
        size_t n, const float *a, const float *b, float *out, float min, float max) {            \
        const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);                       \
        for (; n >= 4; n -= 4, a += 4, b += 4, out += 4)                                          \
            vst1q_f32(out, vminq_f32(vmaxq_f32(op(vld1q_f32(a), vld1q_f32(b)), vmin), vmax));     \
        if (n > 0)                                                                                \
            store_n(out, vminq_f32(vmaxq_f32(op(load_n(a, n), load_n(b, n)), vmin), vmax), n);    \
    }
NEON_VBINARY(vadd, vaddq_f32)
NEON_VBINARY(vmul, vmulq_f32)
NEON_VBINARY(vsub, vsubq_f32)

void visage_f32_vclamp_ukernel__neon_u16(size_t n, const float *x, float *out, float min, float max) {
    const float32x4_t vmin = vdupq_n_f32(min), vmax = vdupq_n_f32(max);
    for (; n >= 4; n -= 4, x += 4, out += 4) vst1q_f32(out, vminq_f32(vmaxq_f32(vld1q_f32(x), vmin), vmax));
    if (n > 0) store_n(out, vminq_f32(vmaxq_f32(load_n(x, n), vmin), vmax), n);
}

void visage_f32_vprelu_ukernel__neon_u8(
    size_t rows, size_t channels, const float *x, const float *slopes, float *out) {
    const float32x4_t zero = vdupq_n_f32(0.0f);
    for (size_t r = 0; r < rows; r++, x += channels, out += channels) {
        for (size_t j = 0; j < channels; j += 4) {
            const size_t m = channels - j < 4 ? channels - j : 4;
            const float32x4_t v = load_n(x + j, m), s = load_n(slopes + j, m);
            store_n(out + j, vbslq_f32(vcltq_f32(v, zero), vmulq_f32(v, s), v), m);
        }
    }
}

#endif
