// The bilinear warp's interior run with AVX2: eight output pixels per step, their 32 neighbour
// reads as four gathers. Every value is computed with the same float operations in the same
// order as VisageImage's Swift run (its reference), so the two agree bit for bit: no FMA (the
// pragma stops clang contracting a multiply and an add), a true division by 255.
#include "kernels.h"
#include "warp_avx2.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#pragma STDC FP_CONTRACT OFF

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/// sample × scale + offset, or the sample rounded to a whole level (ties to even: adding and
/// removing 2²³) then level / 255 × span + offset.
AVX2_INLINE float map_level(const visage_u8_warp_source *s, float value) {
    if (!s->rounded) return value * s->scale + s->offset;
    const float level = (value + 0x1p23f) - 0x1p23f;
    return level / 255.0f * s->span + s->offset;
}

AVX2_INLINE __m256 map_levels(const visage_u8_warp_source *s, __m256 value) {
    if (!s->rounded) return _mm256_add_ps(_mm256_mul_ps(value, _mm256_set1_ps(s->scale)), _mm256_set1_ps(s->offset));
    const __m256 magic = _mm256_set1_ps(0x1p23f);
    const __m256 level = _mm256_sub_ps(_mm256_add_ps(value, magic), magic);
    const __m256 scaled = _mm256_mul_ps(_mm256_div_ps(level, _mm256_set1_ps(255.0f)), _mm256_set1_ps(s->span));
    return _mm256_add_ps(scaled, _mm256_set1_ps(s->offset));
}

/// One pixel, as the Swift run's scalar loop computes it.
AVX2_INLINE void warp_one(const visage_u8_warp_source *s, int64_t fx, int64_t fy, float *output) {
    const float wx = (float)(uint32_t)fx * 0x1p-32f, wy = (float)(uint32_t)fy * 0x1p-32f;
    const float w11 = wx * wy, w10 = wx - w11, w01 = wy - w11, w00 = 1.0f - wx - w01;
    const uint8_t *p = s->pixels + (fy >> 32) * (int64_t)s->stride + (fx >> 32) * (int64_t)s->bytes_per_pixel;
    const uint8_t *q = p + s->stride, *pr = p + s->bytes_per_pixel, *qr = q + s->bytes_per_pixel;
    const size_t channels[3] = {s->red, s->green, s->blue};
    for (int c = 0; c < 3; c++) {
        const size_t k = channels[c];
        const float top = w00 * (float)p[k] + w10 * (float)pr[k];
        output[c] = map_level(s, top + w01 * (float)q[k] + w11 * (float)qr[k]);
    }
}

/// The high (integer) and low (fraction) 32-bit halves of eight 64-bit lanes held in two vectors.
AVX2_INLINE void split(__m256i first, __m256i second, __m256i *integer, __m256i *fraction) {
    const __m256i odd_even = _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6);
    const __m256i a = _mm256_permutevar8x32_epi32(first, odd_even), b = _mm256_permutevar8x32_epi32(second, odd_even);
    *integer = _mm256_permute2x128_si256(a, b, 0x20);
    *fraction = _mm256_permute2x128_si256(a, b, 0x31);
}

/// An unsigned 32-bit fraction as a float times 2⁻³²: its 16-bit halves convert exactly and their
/// sum rounds once, as the scalar conversion does.
AVX2_INLINE __m256 weight(__m256i fraction) {
    const __m256 high = _mm256_cvtepi32_ps(_mm256_srli_epi32(fraction, 16));
    const __m256 low = _mm256_cvtepi32_ps(_mm256_and_si256(fraction, _mm256_set1_epi32(0xFFFF)));
    const __m256 value = _mm256_add_ps(_mm256_mul_ps(high, _mm256_set1_ps(65536.0f)), low);
    return _mm256_mul_ps(value, _mm256_set1_ps(0x1p-32f));
}

/// One byte of each 32-bit lane (chosen by `pick`), as a float.
AVX2_INLINE __m256 level(__m256i pixels, __m256i pick) {
    return _mm256_cvtepi32_ps(_mm256_shuffle_epi8(pixels, pick));
}

AVX2 void visage_u8_warp_ukernel__avx2_u8(
    const visage_u8_warp_source *s, int64_t fx, int64_t fy, int64_t step_x, int64_t step_y, size_t count,
    float *output) {
    const int32_t bpp = (int32_t)s->bytes_per_pixel, stride = (int32_t)s->stride;
    // A 3-byte pixel's right neighbour is read from one byte earlier, so no read passes the
    // row's last pixel (the driver admits 3 and 4 bytes only).
    const int32_t right_back = bpp == 3 ? 1 : 0;
    const uint8_t *const base = s->pixels, *const base_right = s->pixels + bpp - right_back;
    const size_t channels[3] = {s->red, s->green, s->blue};
    // The byte shuffle indexes the 16 bytes of its 128-bit half: lane j's byte k is 4j + k, and
    // an index with the top bit set writes zero.
    const __m256i lane_bytes = _mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12);
    const __m256i zeros_above = _mm256_set1_epi32((int32_t)0x80808000u);
    __m256i pick[3], pick_right[3];
    for (int c = 0; c < 3; c++) {
        const __m256i byte = _mm256_or_si256(zeros_above, lane_bytes);
        pick[c] = _mm256_add_epi32(byte, _mm256_set1_epi32((int32_t)channels[c]));
        pick_right[c] = _mm256_add_epi32(byte, _mm256_set1_epi32((int32_t)(channels[c] + right_back)));
    }
    // Lanes 0–3 and 4–7 of the positions, stepped with wrapping 64-bit adds as in Swift.
    __m256i xs0 = _mm256_add_epi64(_mm256_set1_epi64x(fx), _mm256_setr_epi64x(0, step_x, 2 * step_x, 3 * step_x));
    __m256i ys0 = _mm256_add_epi64(_mm256_set1_epi64x(fy), _mm256_setr_epi64x(0, step_y, 2 * step_y, 3 * step_y));
    const __m256i four_x = _mm256_set1_epi64x((int64_t)((uint64_t)step_x * 4));
    const __m256i four_y = _mm256_set1_epi64x((int64_t)((uint64_t)step_y * 4));
    __m256i xs1 = _mm256_add_epi64(xs0, four_x), ys1 = _mm256_add_epi64(ys0, four_y);
    const __m256i eight_x = _mm256_add_epi64(four_x, four_x), eight_y = _mm256_add_epi64(four_y, four_y);
    const __m256i vbpp = _mm256_set1_epi32(bpp), vstride = _mm256_set1_epi32(stride);
    const __m256 one = _mm256_set1_ps(1.0f);
    size_t done = 0;
    for (; done + 8 <= count; done += 8) {
        __m256i x0, y0, fraction_x, fraction_y;
        split(xs0, xs1, &x0, &fraction_x);
        split(ys0, ys1, &y0, &fraction_y);
        xs0 = _mm256_add_epi64(xs0, eight_x);
        xs1 = _mm256_add_epi64(xs1, eight_x);
        ys0 = _mm256_add_epi64(ys0, eight_y);
        ys1 = _mm256_add_epi64(ys1, eight_y);
        __m256i a, b, c, d;
        visage_gather_neighbours_avx2(base, base_right, y0, x0, vstride, vbpp, &a, &b, &c, &d);
        const __m256 wx = weight(fraction_x), wy = weight(fraction_y);
        const __m256 w11 = _mm256_mul_ps(wx, wy), w10 = _mm256_sub_ps(wx, w11), w01 = _mm256_sub_ps(wy, w11);
        const __m256 w00 = _mm256_sub_ps(_mm256_sub_ps(one, wx), w01);
        __m256 rgb[3];
        for (int k = 0; k < 3; k++) {
            const __m256 top = _mm256_add_ps(_mm256_mul_ps(w00, level(a, pick[k])), _mm256_mul_ps(w10, level(b, pick_right[k])));
            const __m256 sum = _mm256_add_ps(
                _mm256_add_ps(top, _mm256_mul_ps(w01, level(c, pick[k]))), _mm256_mul_ps(w11, level(d, pick_right[k])));
            rgb[k] = map_levels(s, sum);
        }
        visage_store_rgb_planes_avx2(output, rgb);
        output += 24;
    }
    fx = (int64_t)((uint64_t)fx + (uint64_t)step_x * done);
    fy = (int64_t)((uint64_t)fy + (uint64_t)step_y * done);
    for (; done < count; done++) {
        warp_one(s, fx, fy, output);
        output += 3;
        fx = (int64_t)((uint64_t)fx + (uint64_t)step_x);
        fy = (int64_t)((uint64_t)fy + (uint64_t)step_y);
    }
}

#endif
