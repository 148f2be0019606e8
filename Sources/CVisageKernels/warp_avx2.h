// A step both AVX2 warps share (warp_avx2.c, warp_fixed_avx2.c): eight RGB pixels held as three planes.
#ifndef VISAGE_WARP_AVX2_H
#define VISAGE_WARP_AVX2_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <stdint.h>

/// The 2×2 neighbourhoods of eight points whose top-left pixels are at rows `y` and columns `x` (a pixel
/// `bpp` bytes, a row `stride`), 4 bytes a pixel: `a` and `c` from `base` on the row and the row below,
/// `b` and `d` from `base_right` (placed so that its 4 bytes hold the right-hand pixel's channels).
static inline __attribute__((always_inline, target("avx2"))) void visage_gather_neighbours_avx2(
    const uint8_t *base, const uint8_t *base_right, __m256i y, __m256i x, __m256i stride, __m256i bpp,
    __m256i *a, __m256i *b, __m256i *c, __m256i *d) {
    const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(y, stride), _mm256_mullo_epi32(x, bpp));
    const __m256i below = _mm256_add_epi32(at, stride);
    *a = _mm256_i32gather_epi32((const int *)base, at, 1);
    *b = _mm256_i32gather_epi32((const int *)base_right, at, 1);
    *c = _mm256_i32gather_epi32((const int *)base, below, 1);
    *d = _mm256_i32gather_epi32((const int *)base_right, below, 1);
}

/// Stores eight pixels' R, G and B planes (`rgb[0]`, `rgb[1]`, `rgb[2]`) as 24 interleaved floats.
static inline __attribute__((always_inline, target("avx2"))) void visage_store_rgb_planes_avx2(float *output, const __m256 rgb[3]) {
    // Each output vector takes lane i from R, G or B by i's place in the pixel.
    const __m256i spread0 = _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2);
    const __m256i spread1 = _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5);
    const __m256i spread2 = _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7);
    const __m256 r0 = _mm256_permutevar8x32_ps(rgb[0], spread0), g0 = _mm256_permutevar8x32_ps(rgb[1], spread0);
    const __m256 b0 = _mm256_permutevar8x32_ps(rgb[2], spread0);
    const __m256 r1 = _mm256_permutevar8x32_ps(rgb[0], spread1), g1 = _mm256_permutevar8x32_ps(rgb[1], spread1);
    const __m256 b1 = _mm256_permutevar8x32_ps(rgb[2], spread1);
    const __m256 r2 = _mm256_permutevar8x32_ps(rgb[0], spread2), g2 = _mm256_permutevar8x32_ps(rgb[1], spread2);
    const __m256 b2 = _mm256_permutevar8x32_ps(rgb[2], spread2);
    _mm256_storeu_ps(output, _mm256_blend_ps(_mm256_blend_ps(r0, g0, 0x92), b0, 0x24));
    _mm256_storeu_ps(output + 8, _mm256_blend_ps(_mm256_blend_ps(r1, g1, 0x24), b1, 0x49));
    _mm256_storeu_ps(output + 16, _mm256_blend_ps(_mm256_blend_ps(r2, g2, 0x49), b2, 0x92));
}
#endif

#endif
