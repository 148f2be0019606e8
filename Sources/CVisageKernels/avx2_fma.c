// The AVX2 + FMA kernel set (x86-64). Compiled for every x86 build through target attributes,
// chosen at run time only when the CPU reports both features: no global compiler flags.
#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#define AVX2 __attribute__((target("avx2,fma")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2,fma")))
#define UNROLL _Pragma("clang loop unroll(full)")

// Loading 8 lanes from mask_table + 8 - n enables the first n lanes (0 ≤ n ≤ 8).
static const int32_t mask_table[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

AVX2_INLINE __m256i lane_mask(size_t n) {
    return _mm256_loadu_si256((const __m256i *)(mask_table + 8 - n));
}

/// Clamp, then PReLU where the value is negative (blendv keys on the sign bit). Every clamp in this
/// file puts the value second: `_mm256_max_ps`/`_mm256_min_ps` return their second operand when either
/// is NaN, so a NaN stays NaN, as in TFLite and the portable set.
AVX2_INLINE __m256 epilogue(__m256 v, __m256 vmin, __m256 vmax, const float *slopes) {
    v = _mm256_min_ps(vmax, _mm256_max_ps(vmin, v));
    if (slopes != NULL) v = _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(slopes)), v);
    return v;
}

/// Stores the first n (0 ≤ n ≤ 8) lanes in 4-, 2- and 1-lane pieces (masked stores are slow
/// on some AMD cores).
AVX2_INLINE void store_n(float *p, __m256 v, size_t n) {
    if (n >= 8) {
        _mm256_storeu_ps(p, v);
        return;
    }
    __m128 half = _mm256_castps256_ps128(v);
    if (n & 4) {
        _mm_storeu_ps(p, half);
        half = _mm256_extractf128_ps(v, 1);
        p += 4;
    }
    if (n & 2) {
        _mm_storel_pi((__m64 *)p, half);
        half = _mm_movehl_ps(half, half);
        p += 2;
    }
    if (n & 1) _mm_store_ss(p, half);
}

/// The first n (0 ≤ n ≤ 4) floats at p, zeros after them: plain loads of 4, 2 and 1 lanes, never past
/// p + n. What `_mm_maskload_ps` gives, without it: on first-generation Zen a masked load took about 9
/// (128-bit) and 12 (256-bit) cycles where a plain one takes 1 (a loop of independent loads).
AVX2_INLINE __m128 load4_n(const float *p, size_t n) {
    if (n >= 4) return _mm_loadu_ps(p);
    if (n == 3) return _mm_movelh_ps(_mm_castpd_ps(_mm_load_sd((const double *)p)), _mm_load_ss(p + 2));
    if (n == 2) return _mm_castpd_ps(_mm_load_sd((const double *)p));
    if (n == 1) return _mm_load_ss(p);
    return _mm_setzero_ps();
}

/// The first n (0 ≤ n ≤ 8) floats at p, zeros after them (see load4_n).
AVX2_INLINE __m256 load_n(const float *p, size_t n) {
    if (n >= 8) return _mm256_loadu_ps(p);
    if (n >= 4) return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), load4_n(p + 4, n - 4), 1);
    return _mm256_insertf128_ps(_mm256_setzero_ps(), load4_n(p, n), 0);
}

/// The conv tile for a compile-time MR and NR (8 or 16): 6 × 16 or 12 × 8, twelve accumulators
/// either way, enough to cover the FMA latency on two ports with the weights, a broadcast and
/// the pointers in the rest of the 16 YMM registers. Pixel i's tap t is `a[t * AS + i]` (AS: the
/// driver's MR). KC, when not 0, is the compile-time kc of a 1×1 convolution whose pixels lie
/// KC floats apart from a[0]: the loads then take one base register and constant offsets and
/// the k loop unrolls, instead of MR pointers competing for the general registers (the
/// models' 8- and 16-channel layers at 128×128 and 96×96 spend as long on loop overhead as on
/// FMAs otherwise). The clamp is skipped when it is infinite.
AVX2_INLINE void conv_tile(
    const size_t MR, const size_t NR, const size_t AS, const size_t KC, size_t mr, size_t nc, size_t kc, size_t ks,
    const float *const *a, const float *w, float *c, size_t c_stride, const float *residual, size_t r_stride,
    size_t r_nc, float min, float max, const float *slopes) {
    __m256 acc0[VISAGE_CONV_MR_MAX], acc1[VISAGE_CONV_MR_MAX];
    const __m256 bias0 = _mm256_loadu_ps(w), bias1 = NR == 16 ? _mm256_loadu_ps(w + 8) : bias0;
    UNROLL for (size_t i = 0; i < MR; i++) {
        acc0[i] = bias0;
        acc1[i] = bias1;
    }
    w += 16;
    if (KC != 0) {
        const float *a0 = a[0];
        UNROLL for (size_t k = 0; k < KC; k++) {
            const __m256 w0 = _mm256_loadu_ps(w + 16 * k), w1 = NR == 16 ? _mm256_loadu_ps(w + 16 * k + 8) : w0;
            UNROLL for (size_t i = 0; i < MR; i++) {
                const __m256 x = _mm256_broadcast_ss(a0 + i * KC + k);
                acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                if (NR == 16) acc1[i] = _mm256_fmadd_ps(x, w1, acc1[i]);
            }
        }
    } else {
        for (size_t t = 0; t < ks; t++) {
            const float *ap[VISAGE_CONV_MR_MAX];
            UNROLL for (size_t i = 0; i < MR; i++) ap[i] = a[t * AS + i];
            for (size_t k = 0; k < kc; k++) {
                const __m256 w0 = _mm256_loadu_ps(w), w1 = NR == 16 ? _mm256_loadu_ps(w + 8) : w0;
                w += 16;
                UNROLL for (size_t i = 0; i < MR; i++) {
                    const __m256 x = _mm256_broadcast_ss(ap[i] + k);
                    acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                    if (NR == 16) acc1[i] = _mm256_fmadd_ps(x, w1, acc1[i]);
                }
            }
        }
    }
    // Rows past mr read and store the last valid row: they computed that same pixel, so the
    // values agree, and every loop keeps its constant trip count (fully unrolled, accumulators
    // stay in registers).
    size_t offsets[VISAGE_CONV_MR_MAX];
    UNROLL for (size_t i = 0; i < MR; i++) offsets[i] = (i < mr ? i : mr - 1) * c_stride;
    if (residual != NULL) {
        if (r_nc == NR) {
            UNROLL for (size_t i = 0; i < MR; i++) {
                const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
                acc0[i] = _mm256_add_ps(acc0[i], _mm256_loadu_ps(ri));
                if (NR == 16) acc1[i] = _mm256_add_ps(acc1[i], _mm256_loadu_ps(ri + 8));
            }
        } else {
            // Masked loads never read past the residual row's last channel; the rest add zero.
            const __m256i m0 = lane_mask(r_nc < 8 ? r_nc : 8), m1 = lane_mask(r_nc > 8 ? r_nc - 8 : 0);
            UNROLL for (size_t i = 0; i < MR; i++) {
                const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
                acc0[i] = _mm256_add_ps(acc0[i], _mm256_maskload_ps(ri, m0));
                if (NR == 16) acc1[i] = _mm256_add_ps(acc1[i], _mm256_maskload_ps(ri + 8, m1));
            }
        }
    }
    // Each bound only when it is finite: a RELU layer (the detectors' every convolution) skips the
    // min with +infinity, which returns its operand, NaN included.
    if (min > -INFINITY) {
        const __m256 vmin = _mm256_set1_ps(min);
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm256_max_ps(vmin, acc0[i]);
            if (NR == 16) acc1[i] = _mm256_max_ps(vmin, acc1[i]);
        }
    }
    if (max < INFINITY) {
        const __m256 vmax = _mm256_set1_ps(max);
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm256_min_ps(vmax, acc0[i]);
            if (NR == 16) acc1[i] = _mm256_min_ps(vmax, acc1[i]);
        }
    }
    if (slopes != NULL) {
        const __m256 s0 = _mm256_loadu_ps(slopes), s1 = NR == 16 ? _mm256_loadu_ps(slopes + 8) : s0;
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm256_blendv_ps(acc0[i], _mm256_mul_ps(acc0[i], s0), acc0[i]);
            if (NR == 16) acc1[i] = _mm256_blendv_ps(acc1[i], _mm256_mul_ps(acc1[i], s1), acc1[i]);
        }
    }
    float *rows[VISAGE_CONV_MR_MAX];
    UNROLL for (size_t i = 0; i < MR; i++) rows[i] = c + offsets[i];
    if (nc == NR) {
        UNROLL for (size_t i = 0; i < MR; i++) {
            _mm256_storeu_ps(rows[i], acc0[i]);
            if (NR == 16) _mm256_storeu_ps(rows[i] + 8, acc1[i]);
        }
    } else {
        UNROLL for (size_t i = 0; i < MR; i++) {
            store_n(rows[i], acc0[i], nc < 8 ? nc : 8);
            if (NR == 16) store_n(rows[i] + 8, acc1[i], nc > 8 ? nc - 8 : 0);
        }
    }
}

/// Stores the first n (0 ≤ n ≤ 4) lanes of an SSE vector.
AVX2_INLINE void store4_n(float *p, __m128 v, size_t n) {
    if (n >= 4) {
        _mm_storeu_ps(p, v);
        return;
    }
    if (n & 2) {
        _mm_storel_pi((__m64 *)p, v);
        v = _mm_movehl_ps(v, v);
        p += 2;
    }
    if (n & 1) _mm_store_ss(p, v);
}

/// The narrow tile on cores whose FMA units are 128 bits wide (first-generation Zen: a 256-bit
/// FMA or broadcast is two operations): 6 pixels × 8 channels in twelve SSE accumulators, each
/// k step six SSE broadcasts (one load each) for twelve SSE FMAs, where the 12 × 8 AVX tile spent
/// a 256-bit broadcast per 256-bit FMA and ran at half the wide tiles' rate. Same sums, same
/// order (bias, then taps and channels in turn, one FMA each), as the AVX tile. KC as there.
AVX2_INLINE void conv_tile_sse(
    const size_t MR, const size_t AS, const size_t KC, size_t mr, size_t nc, size_t kc, size_t ks,
    const float *const *a, const float *w, float *c, size_t c_stride, const float *residual, size_t r_stride,
    size_t r_nc, float min, float max, const float *slopes) {
    __m128 acc0[6], acc1[6];
    const __m128 bias0 = _mm_loadu_ps(w), bias1 = _mm_loadu_ps(w + 4);
    UNROLL for (size_t i = 0; i < MR; i++) {
        acc0[i] = bias0;
        acc1[i] = bias1;
    }
    w += 16;
    if (KC != 0) {
        const float *a0 = a[0];
        UNROLL for (size_t k = 0; k < KC; k++) {
            const __m128 w0 = _mm_loadu_ps(w + 16 * k), w1 = _mm_loadu_ps(w + 16 * k + 4);
            UNROLL for (size_t i = 0; i < MR; i++) {
                const __m128 x = _mm_broadcast_ss(a0 + i * KC + k);
                acc0[i] = _mm_fmadd_ps(x, w0, acc0[i]);
                acc1[i] = _mm_fmadd_ps(x, w1, acc1[i]);
            }
        }
    } else {
        for (size_t t = 0; t < ks; t++) {
            const float *ap[6];
            UNROLL for (size_t i = 0; i < MR; i++) ap[i] = a[t * AS + i];
            for (size_t k = 0; k < kc; k++) {
                const __m128 w0 = _mm_loadu_ps(w), w1 = _mm_loadu_ps(w + 4);
                w += 16;
                UNROLL for (size_t i = 0; i < MR; i++) {
                    const __m128 x = _mm_broadcast_ss(ap[i] + k);
                    acc0[i] = _mm_fmadd_ps(x, w0, acc0[i]);
                    acc1[i] = _mm_fmadd_ps(x, w1, acc1[i]);
                }
            }
        }
    }
    if (residual != NULL && r_nc == 8) {
        UNROLL for (size_t i = 0; i < MR; i++) {
            const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
            acc0[i] = _mm_add_ps(acc0[i], _mm_loadu_ps(ri));
            acc1[i] = _mm_add_ps(acc1[i], _mm_loadu_ps(ri + 4));
        }
    } else if (residual != NULL) {
        // Masked loads never read past the residual row's last channel; the rest add zero.
        const __m128i m0 = _mm256_castsi256_si128(lane_mask(r_nc < 4 ? r_nc : 4));
        const __m128i m1 = _mm256_castsi256_si128(lane_mask(r_nc > 4 ? (r_nc - 4 < 4 ? r_nc - 4 : 4) : 0));
        UNROLL for (size_t i = 0; i < MR; i++) {
            const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
            acc0[i] = _mm_add_ps(acc0[i], _mm_maskload_ps(ri, m0));
            acc1[i] = _mm_add_ps(acc1[i], _mm_maskload_ps(ri + 4, m1));
        }
    }
    if (min > -INFINITY) {
        const __m128 vmin = _mm_set1_ps(min);
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm_max_ps(vmin, acc0[i]);
            acc1[i] = _mm_max_ps(vmin, acc1[i]);
        }
    }
    if (max < INFINITY) {
        const __m128 vmax = _mm_set1_ps(max);
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm_min_ps(vmax, acc0[i]);
            acc1[i] = _mm_min_ps(vmax, acc1[i]);
        }
    }
    if (slopes != NULL) {
        const __m128 s0 = _mm_loadu_ps(slopes), s1 = _mm_loadu_ps(slopes + 4);
        UNROLL for (size_t i = 0; i < MR; i++) {
            acc0[i] = _mm_blendv_ps(acc0[i], _mm_mul_ps(acc0[i], s0), acc0[i]);
            acc1[i] = _mm_blendv_ps(acc1[i], _mm_mul_ps(acc1[i], s1), acc1[i]);
        }
    }
    UNROLL for (size_t i = 0; i < MR; i++) {
        float *row = c + (i < mr ? i : mr - 1) * c_stride;
        if (nc >= 8) {
            _mm_storeu_ps(row, acc0[i]);
            _mm_storeu_ps(row + 4, acc1[i]);
        } else {
            store4_n(row, acc0[i], nc < 4 ? nc : 4);
            store4_n(row + 4, acc1[i], nc > 4 ? nc - 4 : 0);
        }
    }
}

/// A 6 × 12 tile for panels of 9 to 12 channels on cores with 128-bit FMA units: each pixel's first
/// 8 channels in an AVX register, the last 4 in an SSE one (one operation per FMA there, where a
/// 256-bit FMA on 4 live channels took two). Same sums, same order, as the 6 × 16 tile.
AVX2_INLINE void conv_tile_12(
    const size_t AS, const size_t KC, size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a,
    const float *w, float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc, float min,
    float max, const float *slopes) {
    __m256 acc0[6];
    __m128 acc1[6];
    const __m256 bias0 = _mm256_loadu_ps(w);
    const __m128 bias1 = _mm_loadu_ps(w + 8);
    UNROLL for (size_t i = 0; i < 6; i++) {
        acc0[i] = bias0;
        acc1[i] = bias1;
    }
    w += 16;
    if (KC != 0) {
        const float *a0 = a[0];
        UNROLL for (size_t k = 0; k < KC; k++) {
            const __m256 w0 = _mm256_loadu_ps(w + 16 * k);
            const __m128 w1 = _mm_loadu_ps(w + 16 * k + 8);
            UNROLL for (size_t i = 0; i < 6; i++) {
                const __m256 x = _mm256_broadcast_ss(a0 + i * KC + k);
                acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                acc1[i] = _mm_fmadd_ps(_mm256_castps256_ps128(x), w1, acc1[i]);
            }
        }
    } else {
        for (size_t t = 0; t < ks; t++) {
            const float *ap[6];
            UNROLL for (size_t i = 0; i < 6; i++) ap[i] = a[t * AS + i];
            for (size_t k = 0; k < kc; k++) {
                const __m256 w0 = _mm256_loadu_ps(w);
                const __m128 w1 = _mm_loadu_ps(w + 8);
                w += 16;
                UNROLL for (size_t i = 0; i < 6; i++) {
                    const __m256 x = _mm256_broadcast_ss(ap[i] + k);
                    acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                    acc1[i] = _mm_fmadd_ps(_mm256_castps256_ps128(x), w1, acc1[i]);
                }
            }
        }
    }
    if (residual != NULL) {
        // Masked loads never read past the residual row's last channel; the rest add zero.
        const __m256i m0 = lane_mask(r_nc < 8 ? r_nc : 8);
        const __m128i m1 = _mm256_castsi256_si128(lane_mask(r_nc > 8 ? (r_nc - 8 < 4 ? r_nc - 8 : 4) : 0));
        UNROLL for (size_t i = 0; i < 6; i++) {
            const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
            acc0[i] = _mm256_add_ps(acc0[i], r_nc >= 8 ? _mm256_loadu_ps(ri) : _mm256_maskload_ps(ri, m0));
            acc1[i] = _mm_add_ps(acc1[i], r_nc >= 12 ? _mm_loadu_ps(ri + 8) : _mm_maskload_ps(ri + 8, m1));
        }
    }
    if (min > -INFINITY) {
        UNROLL for (size_t i = 0; i < 6; i++) {
            acc0[i] = _mm256_max_ps(_mm256_set1_ps(min), acc0[i]);
            acc1[i] = _mm_max_ps(_mm_set1_ps(min), acc1[i]);
        }
    }
    if (max < INFINITY) {
        UNROLL for (size_t i = 0; i < 6; i++) {
            acc0[i] = _mm256_min_ps(_mm256_set1_ps(max), acc0[i]);
            acc1[i] = _mm_min_ps(_mm_set1_ps(max), acc1[i]);
        }
    }
    if (slopes != NULL) {
        const __m256 s0 = _mm256_loadu_ps(slopes);
        const __m128 s1 = _mm_loadu_ps(slopes + 8);
        UNROLL for (size_t i = 0; i < 6; i++) {
            acc0[i] = _mm256_blendv_ps(acc0[i], _mm256_mul_ps(acc0[i], s0), acc0[i]);
            acc1[i] = _mm_blendv_ps(acc1[i], _mm_mul_ps(acc1[i], s1), acc1[i]);
        }
    }
    UNROLL for (size_t i = 0; i < 6; i++) {
        float *row = c + (i < mr ? i : mr - 1) * c_stride;
        _mm256_storeu_ps(row, acc0[i]);
        store4_n(row + 8, acc1[i], nc - 8);
    }
}

/// 1 when the tile is a whole 1×1 tile whose pixels lie kc floats apart (a pointwise layer), the
/// case the KC-specialised tiles take.
AVX2_INLINE int contiguous_tile(size_t mr, size_t kc, size_t ks, const float *const *a) {
    if (ks != 1 || mr != 12) return 0;
    int same = 1;
    UNROLL for (size_t i = 1; i < 12; i++) same &= a[i] == a[0] + i * kc;
    return same;
}

/// 12 pixels × 16 channels as two 6 × 16 halves (twelve accumulators each); the second half is
/// skipped when the tile has at most 6 pixels.
AVX2 void visage_f32_conv_ukernel__avx2_fma_12x16(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    const size_t m1 = mr < 6 ? mr : 6, m2 = mr > 6 ? mr - 6 : 0;
    const float *r2 = residual != NULL ? residual + 6 * r_stride : NULL;
    if (contiguous_tile(mr, kc, ks, a)) {
        const float *b[1] = {a[6]};
        if (kc == 8) {
            conv_tile(6, 16, 12, 8, 6, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            conv_tile(6, 16, 12, 8, 6, nc, kc, ks, b, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
            return;
        }
        if (kc == 16) {
            conv_tile(6, 16, 12, 16, 6, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            conv_tile(6, 16, 12, 16, 6, nc, kc, ks, b, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
            return;
        }
    }
    conv_tile(6, 16, 12, 0, m1, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    if (m2 > 0)
        conv_tile(6, 16, 12, 0, m2, nc, kc, ks, a + 6, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
}

/// 3 pixels × 17 to 24 channels, the last two panels of a layer in one pass (`w` the first, the
/// second `w_stride` floats on): three AVX accumulators a pixel, so each broadcast feeds three FMAs
/// and the input is swept once, where a 16-channel and an 8-channel tile swept it twice (the narrow
/// one at about three quarters of the wide one's rate on cores with 128-bit FMA units). Same sums,
/// same order (bias, then taps and channels in turn, one FMA each), as those tiles. Pixel i's tap t
/// is `a[t * AS + i]`; rows past mr are computed from a valid pixel's pointers and not stored. KC,
/// when not 0, is the compile-time kc, the k loop unrolled with constant weight offsets (short range's
/// 5×5/2 3→24 layer, a kernel row of 15 floats a tap: 3 % faster in the C harness, the same sums).
AVX2_INLINE void conv_tile_24(
    const size_t AS, const size_t KC, size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    size_t w_stride, float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc, float min,
    float max, const float *slopes) {
    __m256 acc0[3], acc1[3], acc2[3];
    const float *v = w + w_stride;
    const __m256 bias0 = _mm256_loadu_ps(w), bias1 = _mm256_loadu_ps(w + 8), bias2 = _mm256_loadu_ps(v);
    UNROLL for (size_t i = 0; i < 3; i++) {
        acc0[i] = bias0;
        acc1[i] = bias1;
        acc2[i] = bias2;
    }
    w += 16;
    v += 16;
    for (size_t t = 0; t < ks; t++) {
        const float *ap[3];
        UNROLL for (size_t i = 0; i < 3; i++) ap[i] = a[t * AS + i];
        if (KC != 0) {
            UNROLL for (size_t k = 0; k < KC; k++) {
                const __m256 w0 = _mm256_loadu_ps(w + 16 * k), w1 = _mm256_loadu_ps(w + 16 * k + 8), w2 = _mm256_loadu_ps(v + 16 * k);
                UNROLL for (size_t i = 0; i < 3; i++) {
                    const __m256 x = _mm256_broadcast_ss(ap[i] + k);
                    acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                    acc1[i] = _mm256_fmadd_ps(x, w1, acc1[i]);
                    acc2[i] = _mm256_fmadd_ps(x, w2, acc2[i]);
                }
            }
            w += 16 * KC;
            v += 16 * KC;
            continue;
        }
        for (size_t k = 0; k < kc; k++) {
            const __m256 w0 = _mm256_loadu_ps(w), w1 = _mm256_loadu_ps(w + 8), w2 = _mm256_loadu_ps(v);
            w += 16;
            v += 16;
            UNROLL for (size_t i = 0; i < 3; i++) {
                const __m256 x = _mm256_broadcast_ss(ap[i] + k);
                acc0[i] = _mm256_fmadd_ps(x, w0, acc0[i]);
                acc1[i] = _mm256_fmadd_ps(x, w1, acc1[i]);
                acc2[i] = _mm256_fmadd_ps(x, w2, acc2[i]);
            }
        }
    }
    if (residual != NULL) {
        // Masked loads never read past the residual row's last channel; the rest add zero.
        const __m256i m0 = lane_mask(r_nc < 8 ? r_nc : 8), m1 = lane_mask(r_nc > 8 ? (r_nc - 8 < 8 ? r_nc - 8 : 8) : 0);
        const __m256i m2 = lane_mask(r_nc > 16 ? r_nc - 16 : 0);
        UNROLL for (size_t i = 0; i < 3; i++) {
            const float *ri = residual + (i < mr ? i : mr - 1) * r_stride;
            acc0[i] = _mm256_add_ps(acc0[i], r_nc >= 8 ? _mm256_loadu_ps(ri) : _mm256_maskload_ps(ri, m0));
            acc1[i] = _mm256_add_ps(acc1[i], r_nc >= 16 ? _mm256_loadu_ps(ri + 8) : _mm256_maskload_ps(ri + 8, m1));
            acc2[i] = _mm256_add_ps(acc2[i], r_nc >= 24 ? _mm256_loadu_ps(ri + 16) : _mm256_maskload_ps(ri + 16, m2));
        }
    }
    if (min > -INFINITY) {
        const __m256 vmin = _mm256_set1_ps(min);
        UNROLL for (size_t i = 0; i < 3; i++) {
            acc0[i] = _mm256_max_ps(vmin, acc0[i]);
            acc1[i] = _mm256_max_ps(vmin, acc1[i]);
            acc2[i] = _mm256_max_ps(vmin, acc2[i]);
        }
    }
    if (max < INFINITY) {
        const __m256 vmax = _mm256_set1_ps(max);
        UNROLL for (size_t i = 0; i < 3; i++) {
            acc0[i] = _mm256_min_ps(vmax, acc0[i]);
            acc1[i] = _mm256_min_ps(vmax, acc1[i]);
            acc2[i] = _mm256_min_ps(vmax, acc2[i]);
        }
    }
    if (slopes != NULL) {
        const __m256 s0 = _mm256_loadu_ps(slopes), s1 = _mm256_loadu_ps(slopes + 8), s2 = _mm256_loadu_ps(slopes + 16);
        UNROLL for (size_t i = 0; i < 3; i++) {
            acc0[i] = _mm256_blendv_ps(acc0[i], _mm256_mul_ps(acc0[i], s0), acc0[i]);
            acc1[i] = _mm256_blendv_ps(acc1[i], _mm256_mul_ps(acc1[i], s1), acc1[i]);
            acc2[i] = _mm256_blendv_ps(acc2[i], _mm256_mul_ps(acc2[i], s2), acc2[i]);
        }
    }
    UNROLL for (size_t i = 0; i < 3; i++) {
        if (i >= mr) break;
        float *row = c + i * c_stride;
        _mm256_storeu_ps(row, acc0[i]);
        _mm256_storeu_ps(row + 8, acc1[i]);
        store_n(row + 16, acc2[i], nc - 16);
    }
}

/// 12 pixels × 17 to 24 channels (a layer's last two panels, the second `w_stride` floats after
/// `w`) as four 3 × 24 tiles; those past mr are skipped. A depth of 15 takes the unrolled copy.
AVX2 void visage_f32_conv_ukernel__avx2_fma_12x24(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w, size_t w_stride,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    if (kc == 15) {
        for (size_t s = 0; s < 12 && s < mr; s += 3) {
            const float *r = residual != NULL ? residual + s * r_stride : NULL;
            conv_tile_24(12, 15, mr - s, nc, kc, ks, a + s, w, w_stride, c + s * c_stride, c_stride, r, r_stride, r_nc, min, max, slopes);
        }
        return;
    }
    for (size_t s = 0; s < 12 && s < mr; s += 3) {
        const float *r = residual != NULL ? residual + s * r_stride : NULL;
        conv_tile_24(12, 0, mr - s, nc, kc, ks, a + s, w, w_stride, c + s * c_stride, c_stride, r, r_stride, r_nc, min, max, slopes);
    }
}

/// 12 pixels × at most 8 channels: twelve accumulators in one pass (a 6 × 8 tile would leave
/// the FMA ports waiting on latency).
AVX2 void visage_f32_conv_ukernel__avx2_fma_12x8(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    if (contiguous_tile(mr, kc, ks, a)) {
        if (kc == 8) {
            conv_tile(12, 8, 12, 8, 12, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            return;
        }
        if (kc == 16) {
            conv_tile(12, 8, 12, 16, 12, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            return;
        }
    }
    conv_tile(12, 8, 12, 0, mr, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

/// The narrow tile for cores with 128-bit FMA units (`visage_cpu_has_split_fma`): 12 pixels as two
/// 6 × 8 SSE halves. Same sums as the 12 × 8 AVX tile.
AVX2 void visage_f32_conv_ukernel__avx2_fma_12x8_sse(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    const size_t m1 = mr < 6 ? mr : 6, m2 = mr > 6 ? mr - 6 : 0;
    const float *r2 = residual != NULL ? residual + 6 * r_stride : NULL;
    if (contiguous_tile(mr, kc, ks, a)) {
        const float *b[1] = {a[6]};
        if (kc == 8) {
            conv_tile_sse(6, 12, 8, 6, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            conv_tile_sse(6, 12, 8, 6, nc, kc, ks, b, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
            return;
        }
        if (kc == 16) {
            conv_tile_sse(6, 12, 16, 6, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
            conv_tile_sse(6, 12, 16, 6, nc, kc, ks, b, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
            return;
        }
    }
    conv_tile_sse(6, 12, 0, m1, nc, kc, ks, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    if (m2 > 0) conv_tile_sse(6, 12, 0, m2, nc, kc, ks, a + 6, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
}

/// `tiles` whole 12-pixel tiles of a pointwise layer, one panel, with the tile kernels' copies (12 × 8
/// in one pass for at most 8 channels, else two 6 × 16 halves; kc of 8 or 16 unrolled from one base
/// pointer), the run's pointers advanced in place.
AVX2_INLINE void pw_run(
    const int SSE_NARROW, const size_t KC, size_t tiles, size_t nc, size_t kc, const float *a, const float *w, float *c, size_t c_stride,
    const float *residual, size_t r_stride, size_t r_nc, float min, float max, const float *slopes) {
    for (size_t t = 0; t < tiles; t++, a += 12 * kc, c += 12 * c_stride) {
        const float *r = residual != NULL ? residual + t * 12 * r_stride : NULL;
        const float *ap[12];
        UNROLL for (size_t i = 0; i < 12; i++) ap[i] = a + i * kc;
        if (nc <= 8 && SSE_NARROW) {
            const float *r2 = r != NULL ? r + 6 * r_stride : NULL;
            conv_tile_sse(6, 12, KC, 6, nc, kc, 1, ap, w, c, c_stride, r, r_stride, r_nc, min, max, slopes);
            conv_tile_sse(6, 12, KC, 6, nc, kc, 1, ap + 6, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
        } else if (nc <= 8) {
            conv_tile(12, 8, 12, KC, 12, nc, kc, 1, ap, w, c, c_stride, r, r_stride, r_nc, min, max, slopes);
        } else if (nc <= 12 && SSE_NARROW) {
            const float *r2 = r != NULL ? r + 6 * r_stride : NULL;
            conv_tile_12(12, KC, 6, nc, kc, 1, ap, w, c, c_stride, r, r_stride, r_nc, min, max, slopes);
            conv_tile_12(12, KC, 6, nc, kc, 1, ap + 6, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
        } else {
            const float *r2 = r != NULL ? r + 6 * r_stride : NULL;
            conv_tile(6, 16, 12, KC, 6, nc, kc, 1, ap, w, c, c_stride, r, r_stride, r_nc, min, max, slopes);
            conv_tile(6, 16, 12, KC, 6, nc, kc, 1, ap + 6, w, c + 6 * c_stride, c_stride, r2, r_stride, r_nc, min, max, slopes);
        }
    }
}

AVX2 void visage_f32_pwconv_ukernel__avx2_fma_12x16(
    size_t tiles, size_t nc, size_t kc, const float *a, const float *w, float *c, size_t c_stride,
    const float *residual, size_t r_stride, size_t r_nc, float min, float max, const float *slopes) {
    if (kc == 8) pw_run(0, 8, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    else if (kc == 16) pw_run(0, 16, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    else pw_run(0, 0, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

/// The pointwise run for cores with 128-bit FMA units: panels of at most 8 channels through the
/// 6 × 8 SSE halves (`visage_f32_conv_ukernel__avx2_fma_12x8_sse`), wider ones as above.
AVX2 void visage_f32_pwconv_ukernel__avx2_fma_12x16_sse(
    size_t tiles, size_t nc, size_t kc, const float *a, const float *w, float *c, size_t c_stride,
    const float *residual, size_t r_stride, size_t r_nc, float min, float max, const float *slopes) {
    if (nc > 12) {
        visage_f32_pwconv_ukernel__avx2_fma_12x16(tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
        return;
    }
    if (kc == 8) pw_run(1, 8, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    else if (kc == 16) pw_run(1, 16, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
    else pw_run(1, 0, tiles, nc, kc, a, w, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

AVX2_INLINE float sum_lanes(__m256 v);

/// Twelve independent FMA chains, `steps` times: this core's AVX2 peak when timed.
AVX2 size_t visage_f32_fma_peak__avx2_fma_12(size_t steps) {
    __m256 acc[12];
    UNROLL for (size_t i = 0; i < 12; i++) acc[i] = _mm256_set1_ps((float)i);
    const __m256 scale = _mm256_set1_ps(0.999f), shift = _mm256_set1_ps(0.001f);
    for (size_t s = 0; s < steps; s++) {
        UNROLL for (size_t i = 0; i < 12; i++) acc[i] = _mm256_fmadd_ps(acc[i], scale, shift);
    }
    __m256 sum = acc[0];
    UNROLL for (size_t i = 1; i < 12; i++) sum = _mm256_add_ps(sum, acc[i]);
    volatile float sink = sum_lanes(sum);  // keeps the chains from being optimised away
    (void)sink;
    return steps * 12 * 8;
}

/// One output pixel over every panel (`nc` channels, panels `w_stride` floats apart): a GEMV that
/// streams the weights once. Four panels at a time share each input broadcast and keep eight
/// independent FMA chains; the last 1 to 3 panels go together.
AVX2_INLINE void gemv_panels(
    const size_t NP, size_t n, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    size_t w_stride, float *c, const float *residual, size_t r_nc, float min, float max, const float *slopes) {
    __m256 acc[8];
    const float *wp[4];
    UNROLL for (size_t j = 0; j < NP; j++) {
        wp[j] = w + j * w_stride;
        acc[2 * j] = _mm256_loadu_ps(wp[j]);
        acc[2 * j + 1] = _mm256_loadu_ps(wp[j] + 8);
        wp[j] += 16;
    }
    for (size_t t = 0; t < ks; t++) {
        const float *x = a[t];
        for (size_t k = 0; k < kc; k++) {
            const __m256 xk = _mm256_broadcast_ss(x + k);
            UNROLL for (size_t j = 0; j < NP; j++) {
                acc[2 * j] = _mm256_fmadd_ps(xk, _mm256_loadu_ps(wp[j]), acc[2 * j]);
                acc[2 * j + 1] = _mm256_fmadd_ps(xk, _mm256_loadu_ps(wp[j] + 8), acc[2 * j + 1]);
                wp[j] += 16;
            }
        }
    }
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    UNROLL for (size_t h = 0; h < 2 * NP; h++) {
        const size_t first = n + 8 * h;
        if (first >= nc) break;
        const size_t valid = nc - first < 8 ? nc - first : 8;
        __m256 v = acc[h];
        if (residual != NULL && r_nc > first)
            v = _mm256_add_ps(v, _mm256_maskload_ps(residual + first, lane_mask(r_nc - first < 8 ? r_nc - first : 8)));
        store_n(c + first, epilogue(v, vmin, vmax, slopes == NULL ? NULL : slopes + first), valid);
    }
}

AVX2 void visage_f32_gemv_ukernel__avx2_fma_4x16(
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

/// The sum of v's lanes.
AVX2_INLINE float sum_lanes(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}

/// The sums of four vectors' lanes, in order, in one SSE vector.
AVX2_INLINE __m128 sum_lanes4(__m256 v0, __m256 v1, __m256 v2, __m256 v3) {
    // [v0 low half, v1 low, v2 low, v3 low | the same of the high halves]
    const __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(v0, v1), _mm256_hadd_ps(v2, v3));
    return _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
}

/// One pixel (a lone pixel at a band's end): its nc ≤ 4 channels side by side, each channel's sum
/// in the order a four of pixels gives it (16-float steps in two chains, then 8-float steps, the
/// chains added, the lanes reduced by sum_lanes4, then bias, residual, clamp and PReLU), so its
/// values are the ones it has in a four, from a quarter of the FMAs. Channels past nc repeat the last.
static __attribute__((noinline, target("avx2,fma"))) void dot_pixel(
    size_t nc, size_t kc, const float *x, const float *wt, size_t wt_stride, const float *bias, float *c,
    const float *residual, size_t r_nc, __m128 vmin, __m128 vmax, const float *slopes) {
    const float *w[4];
    float b[4], r[4], m[4];
    UNROLL for (size_t j = 0; j < 4; j++) {
        const size_t jj = j < nc ? j : nc - 1;
        w[j] = wt + jj * wt_stride;
        b[j] = bias[jj];
        r[j] = residual != NULL && j < r_nc ? residual[j] : 0.0f;
        m[j] = residual != NULL && j < r_nc ? -1.0f : 0.0f;  // the sign bit selects the lanes that add one
    }
    __m256 s[4], t[4];
    UNROLL for (size_t j = 0; j < 4; j++) s[j] = t[j] = _mm256_setzero_ps();
    size_t k = 0;
    for (; k + 16 <= kc; k += 16) {
        const __m256 x0 = _mm256_loadu_ps(x + k), x1 = _mm256_loadu_ps(x + k + 8);
        UNROLL for (size_t j = 0; j < 4; j++) {
            s[j] = _mm256_fmadd_ps(x0, _mm256_loadu_ps(w[j] + k), s[j]);
            t[j] = _mm256_fmadd_ps(x1, _mm256_loadu_ps(w[j] + k + 8), t[j]);
        }
    }
    for (; k < kc; k += 8) {
        const __m256 xv = kc - k >= 8 ? _mm256_loadu_ps(x + k) : _mm256_maskload_ps(x + k, lane_mask(kc - k));
        UNROLL for (size_t j = 0; j < 4; j++) s[j] = _mm256_fmadd_ps(xv, _mm256_loadu_ps(w[j] + k), s[j]);
    }
    UNROLL for (size_t j = 0; j < 4; j++) s[j] = _mm256_add_ps(s[j], t[j]);
    __m128 v = _mm_add_ps(sum_lanes4(s[0], s[1], s[2], s[3]), _mm_loadu_ps(b));
    // Only the residual's channels add (x + 0 would turn -0 into +0).
    if (residual != NULL) v = _mm_blendv_ps(v, _mm_add_ps(v, _mm_loadu_ps(r)), _mm_loadu_ps(m));
    v = _mm_min_ps(vmax, _mm_max_ps(vmin, v));
    if (slopes != NULL) {
        float sl[4];
        UNROLL for (size_t j = 0; j < 4; j++) sl[j] = slopes[j < nc ? j : nc - 1];
        v = _mm_blendv_ps(v, _mm_mul_ps(v, _mm_loadu_ps(sl)), v);
    }
    float out[4];
    _mm_storeu_ps(out, v);
    for (size_t j = 0; j < nc; j++) c[j] = out[j];
}

/// Pixels in fours, each channel's weights swept once per four, 16 floats per step in eight chains
/// (two per pixel), the rest of kc 8 at a time (the last step's input through a mask, against
/// zero-padded weights); the four pixels' sums are reduced together and their bias, residual, clamp
/// (the value second in max and min, so NaN stays NaN) and PReLU (on the sign bit, as the tile's
/// epilogue) applied in one SSE vector. Reducing each pixel on its own, two at a time, cost as much
/// as its FMAs: full range's 48 × 48 × 48 → 1 took 27 µs for 0.11 MMAC. A pixel's sum runs in the
/// same order in any of the four slots whatever its companions (a partial four repeats its last
/// pixel), so a pixel's value does not depend on where a row band starts.
static __attribute__((noinline, target("avx2,fma"))) void dot_fours(
    size_t mr, size_t nc, size_t kc, const float *const *a, const float *wt, size_t wt_stride,
    const float *bias, float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    const __m128 vmin = _mm_set1_ps(min), vmax = _mm_set1_ps(max);
    for (size_t i = 0; i < mr; i += 4) {
        const size_t n = mr - i < 4 ? mr - i : 4;
        const float *x[4];
        UNROLL for (size_t p = 0; p < 4; p++) x[p] = a[i + (p < n ? p : n - 1)];
        for (size_t j = 0; j < nc; j++) {
            const float *w = wt + j * wt_stride;
            __m256 s[4], t[4];
            UNROLL for (size_t p = 0; p < 4; p++) s[p] = t[p] = _mm256_setzero_ps();
            size_t k = 0;
            for (; k + 16 <= kc; k += 16) {
                const __m256 w0 = _mm256_loadu_ps(w + k), w1 = _mm256_loadu_ps(w + k + 8);
                UNROLL for (size_t p = 0; p < 4; p++) {
                    s[p] = _mm256_fmadd_ps(_mm256_loadu_ps(x[p] + k), w0, s[p]);
                    t[p] = _mm256_fmadd_ps(_mm256_loadu_ps(x[p] + k + 8), w1, t[p]);
                }
            }
            // wt_stride is a multiple of 16, so w + k … w + k + 7 lies inside the row (zeros past kc).
            for (; k < kc; k += 8) {
                const __m256 w0 = _mm256_loadu_ps(w + k);
                const __m256i mask = lane_mask(kc - k < 8 ? kc - k : 8);
                UNROLL for (size_t p = 0; p < 4; p++) {
                    const __m256 xv = kc - k >= 8 ? _mm256_loadu_ps(x[p] + k) : _mm256_maskload_ps(x[p] + k, mask);
                    s[p] = _mm256_fmadd_ps(xv, w0, s[p]);
                }
            }
            UNROLL for (size_t p = 0; p < 4; p++) s[p] = _mm256_add_ps(s[p], t[p]);
            __m128 v = _mm_add_ps(sum_lanes4(s[0], s[1], s[2], s[3]), _mm_set1_ps(bias[j]));
            if (residual != NULL && j < r_nc) {
                float r[4];
                UNROLL for (size_t p = 0; p < 4; p++) r[p] = residual[(i + (p < n ? p : n - 1)) * r_stride + j];
                v = _mm_add_ps(v, _mm_loadu_ps(r));
            }
            v = _mm_min_ps(vmax, _mm_max_ps(vmin, v));
            if (slopes != NULL) v = _mm_blendv_ps(v, _mm_mul_ps(v, _mm_set1_ps(slopes[j])), v);
            if (c_stride == 1 && nc == 1 && n == 4) {
                _mm_storeu_ps(c + i, v);
            } else {
                float out[4];
                _mm_storeu_ps(out, v);
                for (size_t p = 0; p < n; p++) c[(i + p) * c_stride + j] = out[p];
            }
        }
    }
}

/// The dot kernel: pixels in fours, a lone pixel (a band's last, which the driver sends here too, not
/// to the GEMV, whose order differs) by `dot_pixel`, with the same values. Two functions, so the four
/// path compiles as it did alone (inlined beside `dot_pixel`, it ran 1-3 % slower in the C harness).
AVX2 void visage_f32_dot_ukernel__avx2_fma_4x16(
    size_t mr, size_t nc, size_t kc, const float *const *a, const float *wt, size_t wt_stride,
    const float *bias, float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes) {
    if (mr == 1)
        dot_pixel(nc, kc, a[0], wt, wt_stride, bias, c, residual, r_nc, _mm_set1_ps(min), _mm_set1_ps(max), slopes);
    else
        dot_fours(mr, nc, kc, a, wt, wt_stride, bias, c, c_stride, residual, r_stride, r_nc, min, max, slopes);
}

/// Output pixels of one row, 16 channels per step; the tail of fewer than 16 channels reads
/// the input through masks (never past the pixel) and the zero-padded weights in full.
AVX2_INLINE void dwconv_row(
    size_t pixels, size_t channels, const size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes) {
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    const size_t tail = channels % 16;
    const size_t n0 = tail < 8 ? tail : 8, n1 = tail > 8 ? tail - 8 : 0;
    const __m256i m0 = lane_mask(n0), m1 = lane_mask(n1);
    for (size_t p = 0; p < pixels; p++, output += channels) {
        const size_t offset = p * input_step;
        const float *wg = w;
        size_t c = 0;
        for (; c + 16 <= channels; c += 16, wg += 16 + ks * 16) {
            __m256 acc0 = _mm256_loadu_ps(wg), acc1 = _mm256_loadu_ps(wg + 8);
            for (size_t t = 0; t < ks; t++) {
                const float *x = input[t] + offset + c;
                acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(wg + 16 + t * 16), acc0);
                acc1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + 8), _mm256_loadu_ps(wg + 24 + t * 16), acc1);
            }
            _mm256_storeu_ps(output + c, epilogue(acc0, vmin, vmax, slopes == NULL ? NULL : slopes + c));
            _mm256_storeu_ps(output + c + 8, epilogue(acc1, vmin, vmax, slopes == NULL ? NULL : slopes + c + 8));
        }
        if (tail > 8) {
            __m256 acc0 = _mm256_loadu_ps(wg), acc1 = _mm256_loadu_ps(wg + 8);
            for (size_t t = 0; t < ks; t++) {
                const float *x = input[t] + offset + c;
                acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(x), _mm256_loadu_ps(wg + 16 + t * 16), acc0);
                acc1 = _mm256_fmadd_ps(_mm256_maskload_ps(x + 8, m1), _mm256_loadu_ps(wg + 24 + t * 16), acc1);
            }
            _mm256_storeu_ps(output + c, epilogue(acc0, vmin, vmax, slopes == NULL ? NULL : slopes + c));
            store_n(output + c + 8, epilogue(acc1, vmin, vmax, slopes == NULL ? NULL : slopes + c + 8), n1);
        } else if (tail > 0) {
            __m256 acc0 = _mm256_loadu_ps(wg);
            for (size_t t = 0; t < ks; t++) {
                const float *x = input[t] + offset + c;
                const __m256 xv = tail == 8 ? _mm256_loadu_ps(x) : _mm256_maskload_ps(x, m0);
                acc0 = _mm256_fmadd_ps(xv, _mm256_loadu_ps(wg + 16 + t * 16), acc0);
            }
            store_n(output + c, epilogue(acc0, vmin, vmax, slopes == NULL ? NULL : slopes + c), n0);
        }
    }
}

AVX2 void visage_f32_dwconv_ukernel__avx2_fma_up16(
    size_t pixels, size_t channels, size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes) {
    dwconv_row(pixels, channels, ks, input, input_step, w, output, min, max, slopes);
}

/// Depthwise epilogue: the clamp only when the layer has one (the common linear layers skip two
/// instructions per vector), then PReLU as in `epilogue`.
AVX2_INLINE __m256 dw_epilogue(__m256 v, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    if (clamp) v = _mm256_min_ps(vmax, _mm256_max_ps(vmin, v));
    if (slopes != NULL) v = _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(slopes)), v);
    return v;
}

/// `count` interior outputs of one 8-channel chunk along the row (MASKED: its first n channels),
/// columns and outputs `col` floats apart: the chunk's weights stay in registers (or L1, where
/// the compiler spills them) and the last columns of each input row in a window, so an output
/// loads S new columns per row. The sum runs bias, then taps in order, as the reference.
AVX2_INLINE void dw3x3_sweep(
    const size_t S, const int MASKED, size_t count, const float *const *rows, size_t col, float *out,
    const float *wc, size_t n, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    __m256 k[9];
    UNROLL for (size_t t = 0; t < 9; t++) k[t] = _mm256_loadu_ps(wc + 16 + 16 * t);
    const __m256 bias = _mm256_loadu_ps(wc);
    const float *m0 = rows[0] + col, *m1 = rows[1] + col, *m2 = rows[2] + col;
    const float *n0 = m0 + col, *n1 = m1 + col, *n2 = m2 + col;
#define LOAD(p) (MASKED ? load_n((p), n) : _mm256_loadu_ps(p))
    __m256 a0 = LOAD(rows[0]), a1 = LOAD(rows[1]), a2 = LOAD(rows[2]);
    __m256 b0 = a0, b1 = a1, b2 = a2;
    if (S == 1) b0 = LOAD(m0), b1 = LOAD(m1), b2 = LOAD(m2);
    for (size_t i = 0, in = 0; i < count; i++, in += S * col, out += col) {
        if (S == 2) b0 = LOAD(m0 + in), b1 = LOAD(m1 + in), b2 = LOAD(m2 + in);
        const __m256 c0 = LOAD(n0 + in), c1 = LOAD(n1 + in), c2 = LOAD(n2 + in);
        __m256 acc = _mm256_fmadd_ps(a0, k[0], bias);
        acc = _mm256_fmadd_ps(b0, k[1], acc);
        acc = _mm256_fmadd_ps(c0, k[2], acc);
        acc = _mm256_fmadd_ps(a1, k[3], acc);
        acc = _mm256_fmadd_ps(b1, k[4], acc);
        acc = _mm256_fmadd_ps(c1, k[5], acc);
        acc = _mm256_fmadd_ps(a2, k[6], acc);
        acc = _mm256_fmadd_ps(b2, k[7], acc);
        acc = _mm256_fmadd_ps(c2, k[8], acc);
        acc = dw_epilogue(acc, clamp, vmin, vmax, slopes);
        if (MASKED) store_n(out, acc, n);
        else _mm256_storeu_ps(out, acc);
        if (S == 1) a0 = b0, a1 = b1, a2 = b2, b0 = c0, b1 = c1, b2 = c2;
        else a0 = c0, a1 = c1, a2 = c2;
    }
#undef LOAD
}

/// Stride 1: `count` outputs of one chunk, streamed by input column. Each column (its three rows
/// loaded once) is the right column of the oldest open output, the middle one of the next and the
/// left one of the newest, so three accumulators stay open and the nine weights stay in registers:
/// fifteen of the sixteen YMM registers, where keeping the last columns of each row as a window
/// (nine registers) left the weights to be reloaded at every output (with one YMM load per cycle, as
/// on AMD's first EPYC cores, the loads and not the FMAs bounded the sweep). An output's sum runs
/// bias, then its left, middle and right columns, each top to bottom. LEFT: the first output's left
/// column is padding (`rows` then start at its middle column); RIGHT: the last output's right column
/// is; a padding column adds nothing, so a row's edge outputs take the same sweep.
AVX2_INLINE void dw3x3_columns(
    const int MASKED, const int LEFT, const int RIGHT, size_t count, const float *const *rows, size_t col, float *out,
    const float *wc, size_t n, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    __m256 k[9];
    UNROLL for (size_t t = 0; t < 9; t++) k[t] = _mm256_loadu_ps(wc + 16 + 16 * t);
#define LOAD(p) (MASKED ? load_n((p), n) : _mm256_loadu_ps(p))
    const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];
    // The first column opens output 0 (unless it is padding); the next adds to it and opens output 1.
    __m256 x0, x1, x2, older = _mm256_loadu_ps(wc);
    size_t in = 0;
    if (!LEFT) {
        x0 = LOAD(r0), x1 = LOAD(r1), x2 = LOAD(r2);
        older = _mm256_fmadd_ps(x0, k[0], older);
        older = _mm256_fmadd_ps(x1, k[3], older);
        older = _mm256_fmadd_ps(x2, k[6], older);
        in = col;
    }
    x0 = LOAD(r0 + in), x1 = LOAD(r1 + in), x2 = LOAD(r2 + in);
    older = _mm256_fmadd_ps(x0, k[1], older);
    older = _mm256_fmadd_ps(x1, k[4], older);
    older = _mm256_fmadd_ps(x2, k[7], older);
    __m256 newer = _mm256_loadu_ps(wc);
    newer = _mm256_fmadd_ps(x0, k[0], newer);
    newer = _mm256_fmadd_ps(x1, k[3], newer);
    newer = _mm256_fmadd_ps(x2, k[6], newer);
    in += col;
    for (size_t i = 0; i + RIGHT < count; i++, in += col, out += col) {
        x0 = LOAD(r0 + in), x1 = LOAD(r1 + in), x2 = LOAD(r2 + in);
        __m256 acc = _mm256_fmadd_ps(x0, k[2], older);
        acc = _mm256_fmadd_ps(x1, k[5], acc);
        acc = _mm256_fmadd_ps(x2, k[8], acc);
        older = _mm256_fmadd_ps(x0, k[1], newer);
        older = _mm256_fmadd_ps(x1, k[4], older);
        older = _mm256_fmadd_ps(x2, k[7], older);
        newer = _mm256_fmadd_ps(x0, k[0], _mm256_loadu_ps(wc));
        newer = _mm256_fmadd_ps(x1, k[3], newer);
        newer = _mm256_fmadd_ps(x2, k[6], newer);
        acc = dw_epilogue(acc, clamp, vmin, vmax, slopes);
        if (MASKED) store_n(out, acc, n);
        else _mm256_storeu_ps(out, acc);
    }
    if (RIGHT) {
        // The last output's right column is padding: its sum is complete.
        older = dw_epilogue(older, clamp, vmin, vmax, slopes);
        if (MASKED) store_n(out, older, n);
        else _mm256_storeu_ps(out, older);
    }
#undef LOAD
}

/// `dw3x3_columns` for a last chunk of at most 4 channels (full range's 48 × 48 × 12 and 12 × 12 × 36
/// rows): SSE registers and loads (partial ones only below 4 channels), where a masked 256-bit chunk
/// spent a whole vector's FMAs and masked loads on 4 channels. Same sums, same order.
AVX2_INLINE void dw3x3_columns4(
    const int MASKED, const int LEFT, const int RIGHT, size_t count, const float *const *rows, size_t col, float *out,
    const float *wc, size_t n, int clamp, __m128 vmin, __m128 vmax, const float *slopes) {
    __m128 k[9];
    UNROLL for (size_t t = 0; t < 9; t++) k[t] = _mm_loadu_ps(wc + 16 + 16 * t);
#define LOAD(p) (MASKED ? load4_n((p), n) : _mm_loadu_ps(p))
#define EPILOGUE(v) (clamp ? _mm_min_ps(vmax, _mm_max_ps(vmin, (v))) : (v))
    const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];
    const __m128 bias = _mm_loadu_ps(wc);
    const __m128 s = slopes != NULL ? _mm_loadu_ps(slopes) : bias;
    __m128 x0, x1, x2, older = bias;
    size_t in = 0;
    if (!LEFT) {
        x0 = LOAD(r0), x1 = LOAD(r1), x2 = LOAD(r2);
        older = _mm_fmadd_ps(x0, k[0], older);
        older = _mm_fmadd_ps(x1, k[3], older);
        older = _mm_fmadd_ps(x2, k[6], older);
        in = col;
    }
    x0 = LOAD(r0 + in), x1 = LOAD(r1 + in), x2 = LOAD(r2 + in);
    older = _mm_fmadd_ps(x0, k[1], older);
    older = _mm_fmadd_ps(x1, k[4], older);
    older = _mm_fmadd_ps(x2, k[7], older);
    __m128 newer = bias;
    newer = _mm_fmadd_ps(x0, k[0], newer);
    newer = _mm_fmadd_ps(x1, k[3], newer);
    newer = _mm_fmadd_ps(x2, k[6], newer);
    in += col;
    for (size_t i = 0; i + RIGHT < count; i++, in += col, out += col) {
        x0 = LOAD(r0 + in), x1 = LOAD(r1 + in), x2 = LOAD(r2 + in);
        __m128 acc = _mm_fmadd_ps(x0, k[2], older);
        acc = _mm_fmadd_ps(x1, k[5], acc);
        acc = _mm_fmadd_ps(x2, k[8], acc);
        older = _mm_fmadd_ps(x0, k[1], newer);
        older = _mm_fmadd_ps(x1, k[4], older);
        older = _mm_fmadd_ps(x2, k[7], older);
        newer = _mm_fmadd_ps(x0, k[0], bias);
        newer = _mm_fmadd_ps(x1, k[3], newer);
        newer = _mm_fmadd_ps(x2, k[6], newer);
        acc = EPILOGUE(acc);
        if (slopes != NULL) acc = _mm_blendv_ps(acc, _mm_mul_ps(acc, s), acc);
        store4_n(out, acc, n);
    }
    if (RIGHT) {
        older = EPILOGUE(older);
        if (slopes != NULL) older = _mm_blendv_ps(older, _mm_mul_ps(older, s), older);
        store4_n(out, older, n);
    }
#undef EPILOGUE
#undef LOAD
}

/// Every interior output of one 8-channel chunk: swept with stride 1 or 2, other strides one
/// output per sweep.
AVX2_INLINE void dw3x3_chunk(
    const int MASKED, size_t count, size_t stride, const float *const *rows, size_t channels, float *out,
    const float *wc, size_t n, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    if (stride == 1) {
        dw3x3_columns(MASKED, 0, 0, count, rows, channels, out, wc, n, clamp, vmin, vmax, slopes);
    } else if (stride == 2) {
        dw3x3_sweep(2, MASKED, count, rows, channels, out, wc, n, clamp, vmin, vmax, slopes);
    } else {
        for (size_t i = 0; i < count; i++, out += channels) {
            const size_t in = i * stride * channels;
            const float *r[3] = {rows[0] + in, rows[1] + in, rows[2] + in};
            dw3x3_sweep(1, MASKED, 1, r, channels, out, wc, n, clamp, vmin, vmax, slopes);
        }
    }
}

/// A row's last chunk of fewer than 8 channels, out of line so that its partial loads leave the whole
/// chunks' code as it was.
static __attribute__((noinline, target("avx2,fma"))) void dw3x3_chunk_partial(
    size_t count, size_t stride, const float *const *rows, size_t channels, float *out, const float *wc, size_t n,
    int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    dw3x3_chunk(1, count, stride, rows, channels, out, wc, n, clamp, vmin, vmax, slopes);
}

/// One output pixel whose window leaves the row: taps on columns outside it are skipped.
static AVX2 void dw3x3_edge_pixel(
    size_t p, size_t channels, const float *const *rows, size_t input_width, size_t stride, size_t pad_left,
    const float *w, float *out, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    size_t columns[3];
    for (size_t kx = 0; kx < 3; kx++) columns[kx] = p * stride + kx - pad_left;  // wraps left of the row
    for (size_t c = 0; c < channels; c += 8) {
        const size_t n = channels - c < 8 ? channels - c : 8;
        const float *wc = w + c / 16 * (16 + 9 * 16) + c % 16;
        __m256 acc = _mm256_loadu_ps(wc);
        for (size_t t = 0; t < 9; t++) {
            const size_t ix = columns[t % 3];
            if (ix < input_width) {
                // Plain loads, partial ones for a last chunk (load_n): masked loads are slow on some AMD cores.
                const float *x = rows[t / 3] + ix * channels + c;
                acc = _mm256_fmadd_ps(load_n(x, n), _mm256_loadu_ps(wc + 16 + 16 * t), acc);
            }
        }
        store_n(out + c, dw_epilogue(acc, clamp, vmin, vmax, slopes == NULL ? NULL : slopes + c), n);
    }
}

/// One chunk (its first n ≤ 8 channels) of a block of `count` outputs of a SAME-padded stride-1 row
/// (`rc`: its three input rows from the block's first column, or from its middle one when LEFT):
/// the column sweep, in SSE registers for a last chunk of at most 4 channels.
static AVX2 void dw3x3_same_chunk(
    size_t count, const float *const *rc, size_t channels, float *out, const float *wc, const float *sc, size_t n,
    int left, int right, int clamp, __m256 vmin, __m256 vmax) {
#define DW_COLUMNS(MASKED, LEFT, RIGHT) dw3x3_columns(MASKED, LEFT, RIGHT, count, rc, channels, out, wc, n, clamp, vmin, vmax, sc)
    if (n == 8) {
        if (left && right) DW_COLUMNS(0, 1, 1);
        else if (left) DW_COLUMNS(0, 1, 0);
        else if (right) DW_COLUMNS(0, 0, 1);
        else DW_COLUMNS(0, 0, 0);
    } else if (n <= 4) {
        const __m128 lo = _mm256_castps256_ps128(vmin), hi = _mm256_castps256_ps128(vmax);
#define DW_COLUMNS4(MASKED, LEFT, RIGHT) dw3x3_columns4(MASKED, LEFT, RIGHT, count, rc, channels, out, wc, n, clamp, lo, hi, sc)
        if (n == 4) {
            if (left && right) DW_COLUMNS4(0, 1, 1);
            else if (left) DW_COLUMNS4(0, 1, 0);
            else if (right) DW_COLUMNS4(0, 0, 1);
            else DW_COLUMNS4(0, 0, 0);
        } else {
            if (left && right) DW_COLUMNS4(1, 1, 1);
            else if (left) DW_COLUMNS4(1, 1, 0);
            else if (right) DW_COLUMNS4(1, 0, 1);
            else DW_COLUMNS4(1, 0, 0);
        }
#undef DW_COLUMNS4
    } else {
        if (left && right) DW_COLUMNS(1, 1, 1);
        else if (left) DW_COLUMNS(1, 1, 0);
        else if (right) DW_COLUMNS(1, 0, 1);
        else DW_COLUMNS(1, 0, 0);
    }
#undef DW_COLUMNS
}

/// Two outputs rows of one 8-channel chunk at stride 1: `dw3x3_columns` for input rows 0–2 and 1–3
/// at once. Each column's four rows are loaded once and each is added to the open outputs of both
/// output rows that use it, so six accumulators stay open (with the nine weights and the column's
/// row, all sixteen YMM registers) and each step has six independent FMAs: one row's three left the
/// FMA units waiting on the previous step (five cycles each on a first-generation EPYC) unless the
/// next column's work was already in the scheduler, which with 18 operations a column it was not
/// (the row sweep ran at 60 % of the FMA peak). Each output's sum runs in the one-row order.
AVX2_INLINE void dw3x3_columns2(
    const int LEFT, const int RIGHT, size_t count, const float *const *rows, size_t col, float *out0, float *out1,
    const float *wc, int clamp, __m256 vmin, __m256 vmax, const float *slopes) {
    __m256 k[9];
    UNROLL for (size_t t = 0; t < 9; t++) k[t] = _mm256_loadu_ps(wc + 16 + 16 * t);
    const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    __m256 x, older0 = _mm256_loadu_ps(wc), older1 = older0;
    size_t in = 0;
    if (!LEFT) {
        x = _mm256_loadu_ps(r0);
        older0 = _mm256_fmadd_ps(x, k[0], older0);
        x = _mm256_loadu_ps(r1);
        older0 = _mm256_fmadd_ps(x, k[3], older0);
        older1 = _mm256_fmadd_ps(x, k[0], older1);
        x = _mm256_loadu_ps(r2);
        older0 = _mm256_fmadd_ps(x, k[6], older0);
        older1 = _mm256_fmadd_ps(x, k[3], older1);
        x = _mm256_loadu_ps(r3);
        older1 = _mm256_fmadd_ps(x, k[6], older1);
        in = col;
    }
    __m256 newer0 = _mm256_loadu_ps(wc), newer1 = newer0;
    x = _mm256_loadu_ps(r0 + in);
    older0 = _mm256_fmadd_ps(x, k[1], older0);
    newer0 = _mm256_fmadd_ps(x, k[0], newer0);
    x = _mm256_loadu_ps(r1 + in);
    older0 = _mm256_fmadd_ps(x, k[4], older0);
    newer0 = _mm256_fmadd_ps(x, k[3], newer0);
    older1 = _mm256_fmadd_ps(x, k[1], older1);
    newer1 = _mm256_fmadd_ps(x, k[0], newer1);
    x = _mm256_loadu_ps(r2 + in);
    older0 = _mm256_fmadd_ps(x, k[7], older0);
    newer0 = _mm256_fmadd_ps(x, k[6], newer0);
    older1 = _mm256_fmadd_ps(x, k[4], older1);
    newer1 = _mm256_fmadd_ps(x, k[3], newer1);
    x = _mm256_loadu_ps(r3 + in);
    older1 = _mm256_fmadd_ps(x, k[7], older1);
    newer1 = _mm256_fmadd_ps(x, k[6], newer1);
    in += col;
    for (size_t i = 0; i + RIGHT < count; i++, in += col, out0 += col, out1 += col) {
        x = _mm256_loadu_ps(r0 + in);
        __m256 acc0 = _mm256_fmadd_ps(x, k[2], older0);
        older0 = _mm256_fmadd_ps(x, k[1], newer0);
        newer0 = _mm256_fmadd_ps(x, k[0], _mm256_loadu_ps(wc));
        x = _mm256_loadu_ps(r1 + in);
        acc0 = _mm256_fmadd_ps(x, k[5], acc0);
        older0 = _mm256_fmadd_ps(x, k[4], older0);
        newer0 = _mm256_fmadd_ps(x, k[3], newer0);
        __m256 acc1 = _mm256_fmadd_ps(x, k[2], older1);
        older1 = _mm256_fmadd_ps(x, k[1], newer1);
        newer1 = _mm256_fmadd_ps(x, k[0], _mm256_loadu_ps(wc));
        x = _mm256_loadu_ps(r2 + in);
        acc0 = _mm256_fmadd_ps(x, k[8], acc0);
        older0 = _mm256_fmadd_ps(x, k[7], older0);
        newer0 = _mm256_fmadd_ps(x, k[6], newer0);
        acc1 = _mm256_fmadd_ps(x, k[5], acc1);
        older1 = _mm256_fmadd_ps(x, k[4], older1);
        newer1 = _mm256_fmadd_ps(x, k[3], newer1);
        x = _mm256_loadu_ps(r3 + in);
        acc1 = _mm256_fmadd_ps(x, k[8], acc1);
        older1 = _mm256_fmadd_ps(x, k[7], older1);
        newer1 = _mm256_fmadd_ps(x, k[6], newer1);
        _mm256_storeu_ps(out0, dw_epilogue(acc0, clamp, vmin, vmax, slopes));
        _mm256_storeu_ps(out1, dw_epilogue(acc1, clamp, vmin, vmax, slopes));
    }
    if (RIGHT) {
        // The last outputs' right column is padding: their sums are complete.
        _mm256_storeu_ps(out0, dw_epilogue(older0, clamp, vmin, vmax, slopes));
        _mm256_storeu_ps(out1, dw_epilogue(older1, clamp, vmin, vmax, slopes));
    }
}

/// 3×3 depthwise row: the pixels whose window leaves the row one by one, the rest swept 8
/// channels at a time.
AVX2 void visage_f32_dwconv_ukernel__avx2_fma_9p16(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t stride,
    size_t pad_left, const float *w, float *output, float min, float max, const float *slopes) {
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    const int clamp = min > -INFINITY || max < INFINITY;
    if (stride == 1 && pad_left == 1 && pixels == input_width && input_width >= 2) {
        // SAME padding at stride 1: the edge outputs' padding columns add nothing, so every output
        // of the row takes the column sweep, in blocks as below.
        const size_t block = channels <= 8 ? pixels : VISAGE_DW_BLOCK_PIXELS;
        for (size_t b = 0; b < pixels; b += block) {
            const size_t count = pixels - b < block ? pixels - b : block, x = b > 0 ? b - 1 : 0;
            const int left = b == 0, right = b + count == pixels;
            for (size_t c = 0; c < channels; c += 8) {
                const float *rc[3] = {rows[0] + x * channels + c, rows[1] + x * channels + c, rows[2] + x * channels + c};
                const float *wc = w + c / 16 * (16 + 9 * 16) + c % 16;
                const float *sc = slopes == NULL ? NULL : slopes + c;
                const size_t n = channels - c < 8 ? channels - c : 8;
                dw3x3_same_chunk(count, rc, channels, output + b * channels + c, wc, sc, n, left, right, clamp, vmin, vmax);
            }
        }
        return;
    }
    // Interior pixels [first, last): all three columns inside the row.
    size_t last = input_width + pad_left >= 3 ? (input_width + pad_left - 3) / stride + 1 : 0;
    if (last > pixels) last = pixels;
    size_t first = (pad_left + stride - 1) / stride;
    if (first > last) first = last;
    for (size_t p = 0; p < first; p++)
        dw3x3_edge_pixel(p, channels, rows, input_width, stride, pad_left, w, output + p * channels, clamp, vmin, vmax, slopes);
    for (size_t p = last; p < pixels; p++)
        dw3x3_edge_pixel(p, channels, rows, input_width, stride, pad_left, w, output + p * channels, clamp, vmin, vmax, slopes);
    // Rows of more than one chunk go in blocks of VISAGE_DW_BLOCK_PIXELS outputs, each block's
    // chunks one after another, so the cache lines a chunk's sweep touches (three input rows and the
    // output, a line per pixel) are still near when the next chunk reads their other half (kernels.h).
    const size_t block = channels <= 8 ? last - first : VISAGE_DW_BLOCK_PIXELS / stride;
    for (size_t b = first; b < last; b += block) {
        const size_t count = last - b < block ? last - b : block, x = b * stride - pad_left;
        for (size_t c = 0; c < channels; c += 8) {
            const float *rc[3] = {rows[0] + x * channels + c, rows[1] + x * channels + c, rows[2] + x * channels + c};
            const float *wc = w + c / 16 * (16 + 9 * 16) + c % 16;  // this half of its 16-channel group
            const float *sc = slopes == NULL ? NULL : slopes + c;
            float *out = output + b * channels + c;
            if (c + 8 <= channels) dw3x3_chunk(0, count, stride, rc, channels, out, wc, 8, clamp, vmin, vmax, sc);
            else dw3x3_chunk_partial(count, stride, rc, channels, out, wc, channels - c, clamp, vmin, vmax, sc);
        }
    }
}

/// Two consecutive output rows at stride 1 (`rows`: four input rows): a SAME-padded row pair's whole
/// 8-channel chunks through `dw3x3_columns2`, its other chunks and other paddings row by row.
AVX2 void visage_f32_dwconv_ukernel__avx2_fma_9p16x2(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t pad_left,
    const float *w, float *output0, float *output1, float min, float max, const float *slopes) {
    if (!(pad_left == 1 && pixels == input_width && input_width >= 2)) {
        visage_f32_dwconv_ukernel__avx2_fma_9p16(pixels, channels, rows, input_width, 1, pad_left, w, output0, min, max, slopes);
        visage_f32_dwconv_ukernel__avx2_fma_9p16(pixels, channels, rows + 1, input_width, 1, pad_left, w, output1, min, max, slopes);
        return;
    }
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    const int clamp = min > -INFINITY || max < INFINITY;
    const size_t block = channels <= 8 ? pixels : VISAGE_DW_BLOCK_PIXELS;
    for (size_t b = 0; b < pixels; b += block) {
        const size_t count = pixels - b < block ? pixels - b : block, x = b > 0 ? b - 1 : 0;
        const int left = b == 0, right = b + count == pixels;
        for (size_t c = 0; c < channels; c += 8) {
            const size_t offset = x * channels + c;
            const float *rc[4] = {rows[0] + offset, rows[1] + offset, rows[2] + offset, rows[3] + offset};
            const float *wc = w + c / 16 * (16 + 9 * 16) + c % 16;
            const float *sc = slopes == NULL ? NULL : slopes + c;
            float *out0 = output0 + b * channels + c, *out1 = output1 + b * channels + c;
            const size_t n = channels - c < 8 ? channels - c : 8;
            if (n < 8) {
                dw3x3_same_chunk(count, rc, channels, out0, wc, sc, n, left, right, clamp, vmin, vmax);
                dw3x3_same_chunk(count, rc + 1, channels, out1, wc, sc, n, left, right, clamp, vmin, vmax);
                continue;
            }
#define DW_COLUMNS2(LEFT, RIGHT) dw3x3_columns2(LEFT, RIGHT, count, rc, channels, out0, out1, wc, clamp, vmin, vmax, sc)
            if (left && right) DW_COLUMNS2(1, 1);
            else if (left) DW_COLUMNS2(1, 0);
            else if (right) DW_COLUMNS2(0, 1);
            else DW_COLUMNS2(0, 0);
#undef DW_COLUMNS2
        }
    }
}

/// The largest input of rows [0, row_count) × columns [begin, end) in the 8 channels from c
/// (MASKED: the first n), from -infinity: each tap goes first in the max, so a NaN tap returns
/// the running maximum and is passed over. Clamped only when the layer has a clamp.
AVX2_INLINE __m256 max_window(
    const int MASKED, size_t row_count, const float *const *rows, size_t begin, size_t end, size_t channels,
    size_t c, __m256i mask, int clamp, __m256 vmin, __m256 vmax) {
    __m256 m = _mm256_set1_ps(-INFINITY);
    for (size_t r = 0; r < row_count; r++) {
        for (size_t ix = begin; ix < end; ix++) {
            const float *x = rows[r] + ix * channels + c;
            m = _mm256_max_ps(MASKED ? _mm256_maskload_ps(x, mask) : _mm256_loadu_ps(x), m);
        }
    }
    return clamp ? _mm256_min_ps(vmax, _mm256_max_ps(vmin, m)) : m;
}

/// One output pixel over rows × columns [begin, end) of the input, all channels.
AVX2_INLINE void maxpool_pixel(
    size_t row_count, const float *const *rows, size_t begin, size_t end, size_t channels, float *out, int clamp,
    __m256 vmin, __m256 vmax) {
    size_t c = 0;
    for (; c + 8 <= channels; c += 8)
        _mm256_storeu_ps(out + c, max_window(0, row_count, rows, begin, end, channels, c, lane_mask(8), clamp, vmin, vmax));
    if (c < channels) {
        const __m256i mask = lane_mask(channels - c);
        store_n(out + c, max_window(1, row_count, rows, begin, end, channels, c, mask, clamp, vmin, vmax), channels - c);
    }
}

/// `count` 2×2 windows at stride 2 inside the input, one 8-channel chunk (MASKED: its first n)
/// along the row: the models' pools, without per-pixel window arithmetic.
AVX2_INLINE void maxpool2x2_chunk(
    const int MASKED, size_t count, const float *r0, const float *r1, size_t channels, float *out, size_t n, int clamp,
    __m256 vmin, __m256 vmax) {
#define LOAD(p) (MASKED ? load_n((p), n) : _mm256_loadu_ps(p))
    for (size_t i = 0, in = 0; i < count; i++, in += 2 * channels, out += channels) {
        __m256 m = _mm256_max_ps(LOAD(r0 + in), _mm256_set1_ps(-INFINITY));  // each tap first: NaN passed over
        m = _mm256_max_ps(LOAD(r0 + in + channels), m);
        m = _mm256_max_ps(LOAD(r1 + in), m);
        m = _mm256_max_ps(LOAD(r1 + in + channels), m);
        if (clamp) m = _mm256_min_ps(vmax, _mm256_max_ps(vmin, m));
        if (MASKED) store_n(out, m, n);
        else _mm256_storeu_ps(out, m);
    }
#undef LOAD
}

/// A row's last chunk of fewer than 8 channels, out of line (see dw3x3_chunk_partial).
static __attribute__((noinline, target("avx2,fma"))) void maxpool2x2_chunk_partial(
    size_t count, const float *r0, const float *r1, size_t channels, float *out, size_t n, int clamp, __m256 vmin,
    __m256 vmax) {
    maxpool2x2_chunk(1, count, r0, r1, channels, out, n, clamp, vmin, vmax);
}

/// Max pooling of one output row: per pixel, the window's columns inside the row; 2×2 windows at
/// stride 2 inside the input chunk by chunk along the row.
AVX2 void visage_f32_maxpool_ukernel__avx2_fma_u16(
    size_t pixels, size_t channels, size_t row_count, const float *const *rows, size_t input_width,
    size_t kernel_width, size_t stride, size_t pad_left, float *output, float min, float max) {
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    const int clamp = min > -INFINITY || max < INFINITY;
    size_t first = 0, last = 0;  // pixels taken by maxpool2x2_chunk
    if (row_count == 2 && kernel_width == 2 && stride == 2 && input_width + pad_left >= 2) {
        first = (pad_left + 1) / 2;
        last = (input_width + pad_left - 2) / 2 + 1;
        if (last > pixels) last = pixels;
        if (first > last) first = last;
        const size_t x = 2 * first - pad_left;
        for (size_t c = 0; c < channels && first < last; c += 8) {
            const float *r0 = rows[0] + x * channels + c, *r1 = rows[1] + x * channels + c;
            float *out = output + first * channels + c;
            if (c + 8 <= channels)
                maxpool2x2_chunk(0, last - first, r0, r1, channels, out, 8, clamp, vmin, vmax);
            else
                maxpool2x2_chunk_partial(last - first, r0, r1, channels, out, channels - c, clamp, vmin, vmax);
        }
    }
    for (size_t p = 0; p < pixels; p++) {
        if (p == first && first < last) p = last;
        if (p == pixels) break;
        const size_t left = p * stride, right = left + kernel_width;  // columns + pad_left
        const size_t begin = left > pad_left ? left - pad_left : 0;
        const size_t end = right > pad_left + input_width ? input_width : right > pad_left ? right - pad_left : 0;
        maxpool_pixel(row_count, rows, begin, end, channels, output + p * channels, clamp, vmin, vmax);
    }
}

#define AVX2_VBINARY(name, op)                                                                   \
    AVX2 void visage_f32_##name##_ukernel__avx2_fma_u16(                                         \
        size_t n, const float *a, const float *b, float *out, float min, float max) {           \
        const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);                     \
        for (; n >= 16; n -= 16, a += 16, b += 16, out += 16) {                                  \
            const __m256 v0 = op(_mm256_loadu_ps(a), _mm256_loadu_ps(b));                        \
            const __m256 v1 = op(_mm256_loadu_ps(a + 8), _mm256_loadu_ps(b + 8));                \
            _mm256_storeu_ps(out, _mm256_min_ps(vmax, _mm256_max_ps(vmin, v0)));                 \
            _mm256_storeu_ps(out + 8, _mm256_min_ps(vmax, _mm256_max_ps(vmin, v1)));             \
        }                                                                                        \
        for (; n > 0; n -= n < 8 ? n : 8, a += 8, b += 8, out += 8) {                            \
            const size_t m = n < 8 ? n : 8;                                                      \
            const __m256i mask = lane_mask(m);                                                   \
            const __m256 v = op(_mm256_maskload_ps(a, mask), _mm256_maskload_ps(b, mask));       \
            store_n(out, _mm256_min_ps(vmax, _mm256_max_ps(vmin, v)), m);                        \
        }                                                                                        \
    }
AVX2_VBINARY(vadd, _mm256_add_ps)
AVX2_VBINARY(vmul, _mm256_mul_ps)
AVX2_VBINARY(vsub, _mm256_sub_ps)

AVX2 void visage_f32_vclamp_ukernel__avx2_fma_u16(size_t n, const float *x, float *out, float min, float max) {
    const __m256 vmin = _mm256_set1_ps(min), vmax = _mm256_set1_ps(max);
    for (; n >= 16; n -= 16, x += 16, out += 16) {
        _mm256_storeu_ps(out, _mm256_min_ps(vmax, _mm256_max_ps(vmin, _mm256_loadu_ps(x))));
        _mm256_storeu_ps(out + 8, _mm256_min_ps(vmax, _mm256_max_ps(vmin, _mm256_loadu_ps(x + 8))));
    }
    for (; n > 0; n -= n < 8 ? n : 8, x += 8, out += 8) {
        const size_t m = n < 8 ? n : 8;
        const __m256 v = _mm256_maskload_ps(x, lane_mask(m));
        store_n(out, _mm256_min_ps(vmax, _mm256_max_ps(vmin, v)), m);
    }
}

AVX2 void visage_f32_vprelu_ukernel__avx2_fma_u8(
    size_t rows, size_t channels, const float *x, const float *slopes, float *out) {
    for (size_t r = 0; r < rows; r++, x += channels, out += channels) {
        size_t j = 0;
        for (; j + 8 <= channels; j += 8) {
            const __m256 v = _mm256_loadu_ps(x + j);
            _mm256_storeu_ps(out + j, _mm256_blendv_ps(v, _mm256_mul_ps(v, _mm256_loadu_ps(slopes + j)), v));
        }
        if (j < channels) {
            const __m256i mask = lane_mask(channels - j);
            const __m256 v = _mm256_maskload_ps(x + j, mask);
            const __m256 s = _mm256_maskload_ps(slopes + j, mask);
            store_n(out + j, _mm256_blendv_ps(v, _mm256_mul_ps(v, s), v), channels - j);
        }
    }
}

#endif
