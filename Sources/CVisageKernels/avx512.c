// The AVX-512 kernel set (x86-64): convolution and elementwise microkernels. Compiled for every
// x86 build through target attributes, chosen at run time only when the CPU reports AVX-512F and
// VL and the OS saves the zmm state (dispatch.c): no global compiler flags.
#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include "avx512.h"

/// Clamp, then PReLU where the value is negative. The value goes second in max and min, which
/// return their second operand when either is NaN: a NaN stays NaN, as in TFLite and the other
/// sets.
AVX512_INLINE __m512 epilogue16(__m512 v, __m512 vmin, __m512 vmax, const float *slopes) {
    v = _mm512_min_ps(vmax, _mm512_max_ps(vmin, v));
    if (slopes != NULL) {
        const __mmask16 negative = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
        v = _mm512_mask_mul_ps(v, negative, v, _mm512_loadu_ps(slopes));
    }
    return v;
}

AVX512_INLINE __m256 epilogue8(__m256 v, __m256 vmin, __m256 vmax, const float *slopes) {
    v = _mm256_min_ps(vmax, _mm256_max_ps(vmin, v));
    if (slopes != NULL) {
        const __mmask8 negative = _mm256_cmp_ps_mask(v, _mm256_setzero_ps(), _CMP_LT_OQ);
        v = _mm256_mask_mul_ps(v, negative, v, _mm256_loadu_ps(slopes));
    }
    return v;
}

/// Twelve independent FMA chains of 16 lanes, `steps` times: this core's AVX-512 peak when timed.
AVX512 size_t visage_f32_fma_peak__avx512_12(size_t steps) {
    __m512 acc[12];
    UNROLL for (size_t i = 0; i < 12; i++) acc[i] = _mm512_set1_ps((float)i);
    const __m512 scale = _mm512_set1_ps(0.999f), shift = _mm512_set1_ps(0.001f);
    for (size_t s = 0; s < steps; s++) {
        UNROLL for (size_t i = 0; i < 12; i++) acc[i] = _mm512_fmadd_ps(acc[i], scale, shift);
    }
    __m512 sum = acc[0];
    UNROLL for (size_t i = 1; i < 12; i++) sum = _mm512_add_ps(sum, acc[i]);
    volatile float sink = _mm512_reduce_add_ps(sum);  // keeps the chains from being optimised away
    (void)sink;
    return steps * 12 * 16;
}

/// The conv tile for a compile-time MR: one zmm accumulator per pixel (16 channels), the
/// input broadcast straight from memory into each FMA. MR = 12 keeps 12 FMAs in flight per
/// weight load, enough to cover the FMA latency on both ports with registers to spare.
AVX512_INLINE void conv_tile16(
    const size_t MR, size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    __m512 acc[VISAGE_CONV_MR_MAX];
    const __m512 bias = _mm512_loadu_ps(w);
    UNROLL for (size_t i = 0; i < MR; i++) acc[i] = bias;
    w += 16;
    for (size_t t = 0; t < ks; t++) {
        const float *ap[VISAGE_CONV_MR_MAX];
        UNROLL for (size_t i = 0; i < MR; i++) ap[i] = a[t * MR + i];
        for (size_t k = 0; k < kc; k++, w += 16) {
            const __m512 wk = _mm512_loadu_ps(w);
            UNROLL for (size_t i = 0; i < MR; i++) acc[i] = _mm512_fmadd_ps(_mm512_set1_ps(ap[i][k]), wk, acc[i]);
        }
    }
    // Rows past mr computed the last valid pixel again; they read and store that row, so every
    // loop keeps its constant trip count and the accumulators stay in registers.
    float *rows[VISAGE_CONV_MR_MAX];
    UNROLL for (size_t i = 0; i < MR; i++) rows[i] = c + (i < mr ? i : mr - 1) * c_stride;
    if (residual != NULL) {
        // Masked loads never touch the residual past its last channel; the rest add zero.
        const __mmask16 m = lanes(r_nc);
        UNROLL for (size_t i = 0; i < MR; i++)
            acc[i] = _mm512_add_ps(acc[i], _mm512_maskz_loadu_ps(m, residual + (i < mr ? i : mr - 1) * r_stride));
    }
    const __m512 vmin = _mm512_set1_ps(min), vmax = _mm512_set1_ps(max);
    UNROLL for (size_t i = 0; i < MR; i++) acc[i] = epilogue16(acc[i], vmin, vmax, slopes);
    if (nc == 16) {
        UNROLL for (size_t i = 0; i < MR; i++) _mm512_storeu_ps(rows[i], acc[i]);
    } else {
        const __mmask16 m = lanes(nc);
        UNROLL for (size_t i = 0; i < MR; i++) _mm512_mask_storeu_ps(rows[i], m, acc[i]);
    }
}

/// The same for panels with at most 8 channels left: ymm accumulators, half the FMA width.
AVX512_INLINE void conv_tile8(
    const size_t MR, size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    __m256 acc[VISAGE_CONV_MR_MAX];
    const __m256 bias = _mm256_loadu_ps(w);
    UNROLL for (size_t i = 0; i < MR; i++) acc[i] = bias;
    w += 16;
    for (size_t t = 0; t < ks; t++) {
        const float *ap[VISAGE_CONV_MR_MAX];
        UNROLL for (size_t i = 0; i < MR; i++) ap[i] = a[t * MR + i];
        for (size_t k = 0; k < kc; k++, w += 16) {
            const __m256 wk = _mm256_loadu_ps(w);
            UNROLL for (size_t i = 0; i < MR; i++) acc[i] = _mm256_fmadd_ps(_mm256_set1_ps(ap[i][k]), wk, acc[i]);
        }
    }
    float *rows[VISAGE_CONV_MR_MAX];
    UNROLL for (size_t i = 0; i < MR; i++) rows[i] = c + (i < mr ? i : mr - 1) * c_stride;
    if (residual != NULL) {
        const __mmask8 m = (__mmask8)lanes(r_nc);
        UNROLL for (size_t i = 0; i < MR; i++)
            acc[i] = _mm256_add_ps(acc[i], _mm256_maskz_loadu_ps(m, residual + (i < mr ? i : mr - 1) * r_stride));
    }
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    const __mmask8 m = (__mmask8)lanes(nc);
    UNROLL for (size_t i = 0; i < MR; i++) _mm256_mask_storeu_ps(rows[i], m, epilogue8(acc[i], vmin, vmax, slopes));
}

AVX512 void visage_f32_conv_ukernel__avx512_12x16(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    conv_tile16(12, mr, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

AVX512 void visage_f32_conv_ukernel__avx512_12x8(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    conv_tile8(12, mr, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

/// One output pixel over every panel (`nc` channels, panels `w_stride` floats apart): a GEMV that
/// streams the weights once. Four panels at a time share each input broadcast and keep four
/// independent FMA chains; the last 1 to 3 panels go together.
AVX512_INLINE void gemv_panels(
    const size_t NP, size_t n, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    size_t w_stride, float *c, const float *residual, size_t r_nc, float min, float max, const float *slopes) {
    __m512 acc[4];
    const float *wp[4];
    UNROLL for (size_t j = 0; j < NP; j++) {
        wp[j] = w + j * w_stride;
        acc[j] = _mm512_loadu_ps(wp[j]);
        wp[j] += 16;
    }
    for (size_t t = 0; t < ks; t++) {
        const float *x = a[t];
        for (size_t k = 0; k < kc; k++) {
            const __m512 xk = _mm512_set1_ps(x[k]);
            UNROLL for (size_t j = 0; j < NP; j++) {
                acc[j] = _mm512_fmadd_ps(xk, _mm512_loadu_ps(wp[j]), acc[j]);
                wp[j] += 16;
            }
        }
    }
    const __m512 vmin = _mm512_set1_ps(min), vmax = _mm512_set1_ps(max);
    UNROLL for (size_t j = 0; j < NP; j++) {
        const size_t first = n + 16 * j;
        if (residual != NULL && r_nc > first)
            acc[j] = _mm512_add_ps(acc[j], _mm512_maskz_loadu_ps(lanes(r_nc - first < 16 ? r_nc - first : 16), residual + first));
        const __m512 v = epilogue16(acc[j], vmin, vmax, slopes == NULL ? NULL : slopes + first);
        _mm512_mask_storeu_ps(c + first, lanes(nc - first < 16 ? nc - first : 16), v);
    }
}

AVX512 void visage_f32_gemv_ukernel__avx512_4x16(
    size_t nc, size_t kc, size_t ks, const float *const *a, const float *w, size_t w_stride,
    float *c, const float *residual, size_t r_nc, float min, float max, const float *slopes) {
    size_t n = 0;
    for (; n + 48 < nc; n += 64, w += 4 * w_stride)
        gemv_panels(4, n, nc, kc, ks, a, w, w_stride, c, residual, r_nc, min, max, slopes);
    // The last 1 to 3 panels together, sharing the broadcasts (one by one, 3 panels of depth 64 took
    // 0.78 µs against 0.52 for 4): each panel's sums run the same either way.
    switch ((nc - n + 15) / 16) {
    case 3: gemv_panels(3, n, nc, kc, ks, a, w, w_stride, c, residual, r_nc, min, max, slopes); break;
    case 2: gemv_panels(2, n, nc, kc, ks, a, w, w_stride, c, residual, r_nc, min, max, slopes); break;
    case 1: gemv_panels(1, n, nc, kc, ks, a, w, w_stride, c, residual, r_nc, min, max, slopes); break;
    default: break;
    }
}

#define AVX512_VBINARY(name, op)                                                               \
    AVX512 void visage_f32_##name##_ukernel__avx512_u32(                                       \
        size_t n, const float *a, const float *b, float *out, float min, float max) {         \
        const __m512 vmin = _mm512_set1_ps(min), vmax = _mm512_set1_ps(max);                   \
        for (; n >= 32; n -= 32, a += 32, b += 32, out += 32) {                                \
            const __m512 v0 = op(_mm512_loadu_ps(a), _mm512_loadu_ps(b));                      \
            const __m512 v1 = op(_mm512_loadu_ps(a + 16), _mm512_loadu_ps(b + 16));            \
            _mm512_storeu_ps(out, _mm512_min_ps(vmax, _mm512_max_ps(vmin, v0)));               \
            _mm512_storeu_ps(out + 16, _mm512_min_ps(vmax, _mm512_max_ps(vmin, v1)));          \
        }                                                                                      \
        for (; n > 0; n -= n < 16 ? n : 16, a += 16, b += 16, out += 16) {                     \
            const __mmask16 m = lanes(n < 16 ? n : 16);                                        \
            const __m512 v = op(_mm512_maskz_loadu_ps(m, a), _mm512_maskz_loadu_ps(m, b));     \
            _mm512_mask_storeu_ps(out, m, _mm512_min_ps(vmax, _mm512_max_ps(vmin, v)));        \
        }                                                                                      \
    }
AVX512_VBINARY(vadd, _mm512_add_ps)
AVX512_VBINARY(vmul, _mm512_mul_ps)
AVX512_VBINARY(vsub, _mm512_sub_ps)

AVX512 void visage_f32_vclamp_ukernel__avx512_u32(size_t n, const float *x, float *out, float min, float max) {
    const __m512 vmin = _mm512_set1_ps(min), vmax = _mm512_set1_ps(max);
    for (; n >= 32; n -= 32, x += 32, out += 32) {
        _mm512_storeu_ps(out, _mm512_min_ps(vmax, _mm512_max_ps(vmin, _mm512_loadu_ps(x))));
        _mm512_storeu_ps(out + 16, _mm512_min_ps(vmax, _mm512_max_ps(vmin, _mm512_loadu_ps(x + 16))));
    }
    for (; n > 0; n -= n < 16 ? n : 16, x += 16, out += 16) {
        const __mmask16 m = lanes(n < 16 ? n : 16);
        _mm512_mask_storeu_ps(out, m, _mm512_min_ps(vmax, _mm512_max_ps(vmin, _mm512_maskz_loadu_ps(m, x))));
    }
}

AVX512 void visage_f32_vprelu_ukernel__avx512_u16(
    size_t rows, size_t channels, const float *x, const float *slopes, float *out) {
    const __m512 zero = _mm512_setzero_ps();
    for (size_t r = 0; r < rows; r++, x += channels, out += channels) {
        for (size_t j = 0; j < channels; j += 16) {
            const __mmask16 m = lanes(channels - j < 16 ? channels - j : 16);
            const __m512 v = _mm512_maskz_loadu_ps(m, x + j);
            const __mmask16 negative = _mm512_cmp_ps_mask(v, zero, _CMP_LT_OQ);
            _mm512_mask_storeu_ps(out + j, m, _mm512_mask_mul_ps(v, negative, v, _mm512_maskz_loadu_ps(m, slopes + j)));
        }
    }
}

#endif
