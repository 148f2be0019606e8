// The bilinear warp's interior run with AVX-512F: sixteen output pixels per step, the AVX2
// kernel for the rest of a run. The same float operations in the same order as the Swift run
// (and the AVX2 kernel), so all agree bit for bit: no FMA contraction, a true division by 255.
#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include "avx512.h"

#pragma STDC FP_CONTRACT OFF

/// sample × scale + offset, or rounded to a whole level (ties to even) then level / 255 × span + offset.
AVX512_INLINE __m512 map_levels16(const visage_u8_warp_source *s, __m512 value) {
    if (!s->rounded) return _mm512_add_ps(_mm512_mul_ps(value, _mm512_set1_ps(s->scale)), _mm512_set1_ps(s->offset));
    const __m512 magic = _mm512_set1_ps(0x1p23f);
    const __m512 level = _mm512_sub_ps(_mm512_add_ps(value, magic), magic);
    const __m512 scaled = _mm512_mul_ps(_mm512_div_ps(level, _mm512_set1_ps(255.0f)), _mm512_set1_ps(s->span));
    return _mm512_add_ps(scaled, _mm512_set1_ps(s->offset));
}

/// The byte `shift / 8` of each 32-bit lane, as a float (shifts: the byte shuffle needs BW).
AVX512_INLINE __m512 level16(__m512i pixels, __m512i shift) {
    return _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srlv_epi32(pixels, shift), _mm512_set1_epi32(0xFF)));
}

AVX512 void visage_u8_warp_ukernel__avx512_u16(
    const visage_u8_warp_source *s, int64_t fx, int64_t fy, int64_t step_x, int64_t step_y, size_t count,
    float *output) {
    const int32_t bpp = (int32_t)s->bytes_per_pixel, stride = (int32_t)s->stride;
    // A 3-byte pixel's right neighbour is read from one byte earlier, so no read passes the
    // row's last pixel.
    const int32_t right_back = bpp == 3 ? 1 : 0;
    const uint8_t *const base = s->pixels, *const base_right = s->pixels + bpp - right_back;
    const size_t channels[3] = {s->red, s->green, s->blue};
    __m512i shift[3], shift_right[3];
    for (int c = 0; c < 3; c++) {
        shift[c] = _mm512_set1_epi32((int32_t)(8 * channels[c]));
        shift_right[c] = _mm512_set1_epi32((int32_t)(8 * (channels[c] + (size_t)right_back)));
    }
    // Lanes 0–7 and 8–15 of the positions, stepped with wrapping 64-bit adds as in Swift.
    int64_t first_x[8], first_y[8];
    for (int i = 0; i < 8; i++) {
        first_x[i] = (int64_t)((uint64_t)fx + (uint64_t)step_x * (uint64_t)i);
        first_y[i] = (int64_t)((uint64_t)fy + (uint64_t)step_y * (uint64_t)i);
    }
    __m512i xs0 = _mm512_loadu_si512(first_x), ys0 = _mm512_loadu_si512(first_y);
    const __m512i eight_x = _mm512_set1_epi64((int64_t)((uint64_t)step_x * 8));
    const __m512i eight_y = _mm512_set1_epi64((int64_t)((uint64_t)step_y * 8));
    __m512i xs1 = _mm512_add_epi64(xs0, eight_x), ys1 = _mm512_add_epi64(ys0, eight_y);
    const __m512i sixteen_x = _mm512_add_epi64(eight_x, eight_x), sixteen_y = _mm512_add_epi64(eight_y, eight_y);
    // The odd (high, integer) and even (low, fraction) 32-bit halves of both vectors' lanes.
    const __m512i high = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i low = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i vbpp = _mm512_set1_epi32(bpp), vstride = _mm512_set1_epi32(stride);
    // Output float e is pixel e / 3's channel e % 3: R and G come from one two-source permute
    // (G's indices offset by 16), B is then permuted into its lanes.
    __m512i pick[3];
    __mmask16 blue[3];
    for (int v = 0; v < 3; v++) {
        int32_t index[16];
        uint32_t mask = 0;
        for (int i = 0; i < 16; i++) {
            const int e = 16 * v + i, channel = e % 3;
            index[i] = e / 3 + (channel == 1 ? 16 : 0);
            if (channel == 2) mask |= 1u << i;
        }
        pick[v] = _mm512_loadu_si512(index);
        blue[v] = _cvtu32_mask16(mask);
    }
    const __m512 one = _mm512_set1_ps(1.0f), unit = _mm512_set1_ps(0x1p-32f);
    size_t done = 0;
    for (; done + 16 <= count; done += 16) {
        const __m512i x0 = _mm512_permutex2var_epi32(xs0, high, xs1), y0 = _mm512_permutex2var_epi32(ys0, high, ys1);
        const __m512i fraction_x = _mm512_permutex2var_epi32(xs0, low, xs1);
        const __m512i fraction_y = _mm512_permutex2var_epi32(ys0, low, ys1);
        xs0 = _mm512_add_epi64(xs0, sixteen_x);
        xs1 = _mm512_add_epi64(xs1, sixteen_x);
        ys0 = _mm512_add_epi64(ys0, sixteen_y);
        ys1 = _mm512_add_epi64(ys1, sixteen_y);
        const __m512i at = _mm512_add_epi32(_mm512_mullo_epi32(y0, vstride), _mm512_mullo_epi32(x0, vbpp));
        const __m512i below = _mm512_add_epi32(at, vstride);
        const __m512i a = _mm512_i32gather_epi32(at, base, 1);
        const __m512i b = _mm512_i32gather_epi32(at, base_right, 1);
        const __m512i c = _mm512_i32gather_epi32(below, base, 1);
        const __m512i d = _mm512_i32gather_epi32(below, base_right, 1);
        // Unsigned conversion rounds once, as Swift's Float(UInt32) does; × 2⁻³² is exact.
        const __m512 wx = _mm512_mul_ps(_mm512_cvtepu32_ps(fraction_x), unit);
        const __m512 wy = _mm512_mul_ps(_mm512_cvtepu32_ps(fraction_y), unit);
        const __m512 w11 = _mm512_mul_ps(wx, wy), w10 = _mm512_sub_ps(wx, w11), w01 = _mm512_sub_ps(wy, w11);
        const __m512 w00 = _mm512_sub_ps(_mm512_sub_ps(one, wx), w01);
        __m512 rgb[3];
        for (int k = 0; k < 3; k++) {
            const __m512 top = _mm512_add_ps(
                _mm512_mul_ps(w00, level16(a, shift[k])), _mm512_mul_ps(w10, level16(b, shift_right[k])));
            const __m512 sum = _mm512_add_ps(
                _mm512_add_ps(top, _mm512_mul_ps(w01, level16(c, shift[k]))), _mm512_mul_ps(w11, level16(d, shift_right[k])));
            rgb[k] = map_levels16(s, sum);
        }
        for (int v = 0; v < 3; v++) {
            const __m512 red_green = _mm512_permutex2var_ps(rgb[0], pick[v], rgb[1]);
            _mm512_storeu_ps(output + 16 * v, _mm512_mask_permutexvar_ps(red_green, blue[v], pick[v], rgb[2]));
        }
        output += 48;
    }
    visage_u8_warp_ukernel__avx2_u8(
        s, (int64_t)((uint64_t)fx + (uint64_t)step_x * done), (int64_t)((uint64_t)fy + (uint64_t)step_y * done), step_x,
        step_y, count - done, output);
}

#endif
