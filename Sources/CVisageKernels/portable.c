// The portable kernel set: plain C that any compiler vectorises as it can. Complete, so every
// operation works on every CPU, and the baseline the SIMD sets are tested against.
#include "kernels.h"

#include <math.h>

static inline float clampf(float x, float lo, float hi) {
    x = x < lo ? lo : x;
    return x > hi ? hi : x;
}

#define PORTABLE_MR 2

void visage_f32_conv_ukernel__portable_2x16(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    float acc[PORTABLE_MR][16];
    for (size_t i = 0; i < PORTABLE_MR; i++)
        for (size_t j = 0; j < 16; j++) acc[i][j] = w[j];
    w += 16;
    for (size_t t = 0; t < ks; t++) {
        const float *a0 = a[t * PORTABLE_MR + 0];
        const float *a1 = a[t * PORTABLE_MR + 1];
        for (size_t k = 0; k < kc; k++) {
            const float x0 = a0[k], x1 = a1[k];
            for (size_t j = 0; j < 16; j++) {
                acc[0][j] += x0 * w[j];
                acc[1][j] += x1 * w[j];
            }
            w += 16;
        }
    }
    for (size_t i = 0; i < PORTABLE_MR; i++) {
        if (i >= mr) break;
        float *ci = c + i * c_stride;
        const float *ri = residual != NULL ? residual + i * r_stride : NULL;
        for (size_t j = 0; j < nc; j++) {
            float v = clampf(ri != NULL && j < r_nc ? acc[i][j] + ri[j] : acc[i][j], min, max);
            if (slopes != NULL && v < 0) v *= slopes[j];
            ci[j] = v;
        }
    }
}

void visage_f32_gemv_ukernel__portable_1x16(
    size_t nc, size_t kc, size_t ks, const float *const *a, const float *w, size_t w_stride,
    float *c, const float *residual, size_t r_nc, float min, float max, const float *slopes) {
    for (size_t n = 0; n < nc; n += 16, w += w_stride) {
        float acc[16];
        for (size_t j = 0; j < 16; j++) acc[j] = w[j];
        const float *wk = w + 16;
        for (size_t t = 0; t < ks; t++) {
            const float *x = a[t];
            for (size_t k = 0; k < kc; k++, wk += 16)
                for (size_t j = 0; j < 16; j++) acc[j] += x[k] * wk[j];
        }
        for (size_t j = 0; j < 16 && n + j < nc; j++) {
            float v = clampf(residual != NULL && n + j < r_nc ? acc[j] + residual[n + j] : acc[j], min, max);
            if (slopes != NULL && v < 0) v *= slopes[n + j];
            c[n + j] = v;
        }
    }
}

void visage_f32_dwconv_ukernel__portable_up16(
    size_t pixels, size_t channels, size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes) {
    for (size_t p = 0; p < pixels; p++, output += channels) {
        const float *wg = w;
        for (size_t c0 = 0; c0 < channels; c0 += 16, wg += 16 + ks * 16) {
            const size_t n = channels - c0 < 16 ? channels - c0 : 16;
            float acc[16];
            for (size_t j = 0; j < 16; j++) acc[j] = wg[j];
            for (size_t t = 0; t < ks; t++) {
                const float *x = input[t] + p * input_step + c0;
                const float *wt = wg + 16 + t * 16;
                for (size_t j = 0; j < n; j++) acc[j] += x[j] * wt[j];
            }
            for (size_t j = 0; j < n; j++) {
                float v = clampf(acc[j], min, max);
                if (slopes != NULL && v < 0) v *= slopes[c0 + j];
                output[c0 + j] = v;
            }
        }
    }
}

void visage_f32_dwconv_ukernel__portable_9p16(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t stride,
    size_t pad_left, const float *w, float *output, float min, float max, const float *slopes) {
    for (size_t p = 0; p < pixels; p++, output += channels) {
        const float *wg = w;
        for (size_t c0 = 0; c0 < channels; c0 += 16, wg += 16 + 9 * 16) {
            const size_t n = channels - c0 < 16 ? channels - c0 : 16;
            float acc[16];
            for (size_t j = 0; j < 16; j++) acc[j] = wg[j];
            for (size_t ky = 0; ky < 3; ky++) {
                for (size_t kx = 0; kx < 3; kx++) {
                    const size_t ix = p * stride + kx - pad_left;  // wraps left of the row
                    if (ix >= input_width) continue;
                    const float *x = rows[ky] + ix * channels + c0;
                    const float *wt = wg + 16 + (ky * 3 + kx) * 16;
                    for (size_t j = 0; j < n; j++) acc[j] += x[j] * wt[j];
                }
            }
            for (size_t j = 0; j < n; j++) {
                float v = clampf(acc[j], min, max);
                if (slopes != NULL && v < 0) v *= slopes[c0 + j];
                output[c0 + j] = v;
            }
        }
    }
}

void visage_f32_maxpool_ukernel__portable_u16(
    size_t pixels, size_t channels, size_t row_count, const float *const *rows, size_t input_width,
    size_t kernel_width, size_t stride, size_t pad_left, float *output, float min, float max) {
    for (size_t p = 0; p < pixels; p++, output += channels) {
        // Tap by tap over all channels (the inner loop vectorises); a NaN tap fails the
        // comparison and is passed over.
        for (size_t c = 0; c < channels; c++) output[c] = -INFINITY;
        for (size_t r = 0; r < row_count; r++) {
            for (size_t kx = 0; kx < kernel_width; kx++) {
                const size_t ix = p * stride + kx - pad_left;  // wraps left of the row
                if (ix >= input_width) continue;
                const float *x = rows[r] + ix * channels;
                for (size_t c = 0; c < channels; c++) output[c] = x[c] >= output[c] ? x[c] : output[c];
            }
        }
        for (size_t c = 0; c < channels; c++) output[c] = clampf(output[c], min, max);
    }
}

#define PORTABLE_VBINARY(name, op)                                                     \
    void visage_f32_##name##_ukernel__portable_u16(                                    \
        size_t n, const float *a, const float *b, float *out, float min, float max) { \
        for (size_t i = 0; i < n; i++) out[i] = clampf(a[i] op b[i], min, max);         \
    }
PORTABLE_VBINARY(vadd, +)
PORTABLE_VBINARY(vmul, *)
PORTABLE_VBINARY(vsub, -)

void visage_f32_vclamp_ukernel__portable_u16(size_t n, const float *x, float *out, float min, float max) {
    for (size_t i = 0; i < n; i++) out[i] = clampf(x[i], min, max);
}

void visage_f32_vprelu_ukernel__portable_u8(
    size_t rows, size_t channels, const float *x, const float *slopes, float *out) {
    for (size_t r = 0; r < rows; r++, x += channels, out += channels) {
        for (size_t j = 0; j < channels; j++) {
            const float v = x[j];
            out[j] = v < 0 ? v * slopes[j] : v;
        }
    }
}

void visage_f32_vsigmoid_ukernel__portable_u1(size_t n, const float *x, float *out) {
    for (size_t i = 0; i < n; i++) out[i] = 1.0f / (1.0f + expf(-x[i]));
}
