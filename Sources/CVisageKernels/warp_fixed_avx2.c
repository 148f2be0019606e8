// OpenCV's fixed-point bilinear warp (warp_fixed.c) with AVX2: eight output pixels per step. The
// points are computed and rounded in doubles exactly as the scalar run (multiply, then add: no
// FMA; `cvtpd_epi32` rounds half to even under the default rounding mode, as the reference's
// 1.5 · 2⁵² trick does), the four neighbours read by 32-bit gathers, each channel's two taps of a
// row multiplied and added as 16-bit pairs (`madd_epi16`: weights ≤ 1024, levels ≤ 255, exact),
// and the level mapped as `(float)n · scale + offset`. A group of eight with any point whose 2×2
// neighbourhood leaves the image (or whose point is out of 32-bit range, where `cvtpd_epi32`
// gives INT32_MIN) is done by the scalar run, so edges and borders follow the reference.
#include "warp_fixed.h"
#include "warp_avx2.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#pragma STDC FP_CONTRACT OFF

#define AVX2 __attribute__((target("avx2")))
#define AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/// The rounded points in 1/32 pixel of columns x … x + 7: `row + step · x` in doubles, rounded.
AVX2_INLINE __m256i points(double row, double step, __m256d x_low, __m256d x_high) {
    const __m256d vrow = _mm256_set1_pd(row), vstep = _mm256_set1_pd(step);
    const __m128i low = _mm256_cvtpd_epi32(_mm256_add_pd(vrow, _mm256_mul_pd(vstep, x_low)));
    const __m128i high = _mm256_cvtpd_epi32(_mm256_add_pd(vrow, _mm256_mul_pd(vstep, x_high)));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}

/// Each channel's two taps of a row as a pair of 16-bit values per lane: the left pixel's byte in
/// the low half, the right one's in the high half.
AVX2_INLINE __m256i pair(__m256i left, __m256i right, __m256i pick_left, __m256i pick_right) {
    return _mm256_or_si256(_mm256_shuffle_epi8(left, pick_left), _mm256_shuffle_epi8(right, pick_right));
}

AVX2 void visage_u8_warp_fixed_ukernel__avx2_u8(const visage_u8_warp_fixed_source *s, double row_x, double row_y,
                                                double step_x, double step_y, size_t count, float *output) {
    const int32_t bpp = (int32_t)s->bytes_per_pixel, stride = (int32_t)s->stride;
    // A 3-byte pixel's right neighbour is read from one byte earlier, so no read passes the row's
    // last pixel (only 3 and 4 bytes come here).
    const int32_t right_back = bpp == 3 ? 1 : 0;
    const uint8_t *const base = s->pixels, *const base_right = s->pixels + bpp - right_back;
    const size_t channels[3] = {s->red, s->green, s->blue};
    // The byte shuffle indexes the 16 bytes of its 128-bit half: lane j's byte k is 4j + k; an
    // index with the top bit set writes zero. Left bytes land in byte 0 of a lane, right in byte 2.
    __m256i pick_left[3], pick_right[3];
    for (int c = 0; c < 3; c++) {
        const int32_t k = (int32_t)channels[c], kr = k + right_back;
        pick_left[c] = _mm256_add_epi32(_mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12), _mm256_set1_epi32((int32_t)0x80808000u + k));
        pick_right[c] = _mm256_add_epi32(
            _mm256_setr_epi32(0, 4 << 16, 8 << 16, 12 << 16, 0, 4 << 16, 8 << 16, 12 << 16),
            _mm256_set1_epi32((int32_t)0x80008080u + (kr << 16)));
    }
    const __m256i max_x = _mm256_set1_epi32((int32_t)s->max_x), max_y = _mm256_set1_epi32((int32_t)s->max_y);
    const __m256i minus_one = _mm256_set1_epi32(-1), thirty_one = _mm256_set1_epi32(31), thirty_two = _mm256_set1_epi32(32);
    const __m256i vbpp = _mm256_set1_epi32(bpp), vstride = _mm256_set1_epi32(stride);
    const __m256i half = _mm256_set1_epi32(512);
    const __m256 scale = _mm256_set1_ps(s->scale), offset = _mm256_set1_ps(s->offset);
    const __m256d four = _mm256_set1_pd(4.0), eight = _mm256_set1_pd(8.0);
    __m256d x_low = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
    size_t done = 0;
    for (; done + 8 <= count; done += 8, x_low = _mm256_add_pd(x_low, eight)) {
        const __m256d x_high = _mm256_add_pd(x_low, four);
        const __m256i px = points(row_x, step_x, x_low, x_high), py = points(row_y, step_y, x_low, x_high);
        const __m256i x0 = _mm256_srai_epi32(px, 5), y0 = _mm256_srai_epi32(py, 5);
        // Inside: 0 ≤ x0 < max_x and 0 ≤ y0 < max_y in every lane.
        const __m256i inside = _mm256_and_si256(
            _mm256_and_si256(_mm256_cmpgt_epi32(x0, minus_one), _mm256_cmpgt_epi32(max_x, x0)),
            _mm256_and_si256(_mm256_cmpgt_epi32(y0, minus_one), _mm256_cmpgt_epi32(max_y, y0)));
        if (_mm256_movemask_epi8(inside) != -1) {
            for (size_t x = done; x < done + 8; x++) {
                visage_u8_warp_fixed_one(s, row_x, row_y, step_x, step_y, x, output);
                output += 3;
            }
            continue;
        }
        const __m256i fx = _mm256_and_si256(px, thirty_one), fy = _mm256_and_si256(py, thirty_one);
        const __m256i gx = _mm256_sub_epi32(thirty_two, fx), gy = _mm256_sub_epi32(thirty_two, fy);
        // 16-bit products of values ≤ 32 in 32-bit lanes: ≤ 1024, exact in the low halves.
        const __m256i w00 = _mm256_mullo_epi16(gx, gy), w10 = _mm256_mullo_epi16(fx, gy);
        const __m256i w01 = _mm256_mullo_epi16(gx, fy), w11 = _mm256_mullo_epi16(fx, fy);
        const __m256i top_weights = _mm256_or_si256(w00, _mm256_slli_epi32(w10, 16));
        const __m256i bottom_weights = _mm256_or_si256(w01, _mm256_slli_epi32(w11, 16));
        __m256i a, b, c, d;
        visage_gather_neighbours_avx2(base, base_right, y0, x0, vstride, vbpp, &a, &b, &c, &d);
        __m256 rgb[3];
        for (int k = 0; k < 3; k++) {
            const __m256i sum = _mm256_add_epi32(
                _mm256_madd_epi16(pair(a, b, pick_left[k], pick_right[k]), top_weights),
                _mm256_madd_epi16(pair(c, d, pick_left[k], pick_right[k]), bottom_weights));
            const __m256i level = _mm256_srai_epi32(_mm256_add_epi32(sum, half), 10);
            rgb[k] = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(level), scale), offset);
        }
        visage_store_rgb_planes_avx2(output, rgb);
        output += 24;
    }
    for (; done < count; done++) {
        visage_u8_warp_fixed_one(s, row_x, row_y, step_x, step_y, done, output);
        output += 3;
    }
}

/// One row of an axis-aligned warp (warp_fixed.c's `visage_u8_warp_fixed_scaled`): the two stored rows
/// blended 16 bytes a step as 16-bit sums (≤ 32 · 255, exact), then each output's column taps read as
/// four 16-bit entries from each of its two offsets, put in R, G, B order (a byte shuffle unless the
/// pixel already starts R, G, B), paired with `unpacklo_epi16` and summed by `madd_epi16` (≤ 32 · 8160:
/// exact); the fourth lane is the next pixel's byte or a spare entry, computed and then overwritten by
/// the next output (the row's last output is stored as three floats).
AVX2 void visage_u8_warp_fixed_scaled_row__avx2(
    const visage_u8_warp_fixed_source *s, const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
    uint16_t bottom_weight, const int32_t *columns, const uint32_t *weights, size_t low, size_t high, size_t count,
    uint16_t *blend, float *output) {
    const __m256i wt = _mm256_set1_epi16((short)top_weight), wb = _mm256_set1_epi16((short)bottom_weight);
    size_t i = low;
    for (; i + 16 <= high; i += 16) {
        const __m256i t = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(top + i)));
        const __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(bottom + i)));
        _mm256_storeu_si256((__m256i *)(blend + i), _mm256_add_epi16(_mm256_mullo_epi16(t, wt), _mm256_mullo_epi16(b, wb)));
    }
    for (; i < high; i++) blend[i] = (uint16_t)(top_weight * top[i] + bottom_weight * bottom[i]);
    const int in_order = s->red == 0 && s->green == 1 && s->blue == 2;
    const char r = (char)(2 * s->red), g = (char)(2 * s->green), b = (char)(2 * s->blue);
    const __m128i pick = _mm_setr_epi8(r, (char)(r + 1), g, (char)(g + 1), b, (char)(b + 1), -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128 scale = _mm_set1_ps(s->scale), offset = _mm_set1_ps(s->offset);
    const __m128i half = _mm_set1_epi32(512);
    for (size_t x = 0; x < count; x++) {
        __m128i left = _mm_loadl_epi64((const __m128i *)(blend + columns[2 * x]));
        __m128i right = _mm_loadl_epi64((const __m128i *)(blend + columns[2 * x + 1]));
        if (!in_order) {
            left = _mm_shuffle_epi8(left, pick);
            right = _mm_shuffle_epi8(right, pick);
        }
        const __m128i sum = _mm_madd_epi16(_mm_unpacklo_epi16(left, right), _mm_set1_epi32((int)weights[x]));
        const __m128i level = _mm_srai_epi32(_mm_add_epi32(sum, half), 10);
        const __m128 value = _mm_add_ps(_mm_mul_ps(_mm_cvtepi32_ps(level), scale), offset);
        if (x + 1 < count) {
            _mm_storeu_ps(output, value);
        } else {
            float last[4];
            _mm_storeu_ps(last, value);
            output[0] = last[0], output[1] = last[1], output[2] = last[2];
        }
        output += 3;
    }
}

#endif
