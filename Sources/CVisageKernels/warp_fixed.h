// What warp_fixed.c and warp_fixed_avx2.c share: OpenCV's fixed-point bilinear warp, one output row
// at a time (`visage_u8_warp_fixed_row` in include/CVisageKernels.h). Private to the C target.
#ifndef VISAGE_WARP_FIXED_H
#define VISAGE_WARP_FIXED_H

#include "CVisageKernels.h"

/// A row's `count` outputs, column x's point in 1/32 pixel being (row_x + step_x · x, row_y + step_y · x).
typedef void (*visage_u8_warp_fixed_ukernel_fn)(
    const visage_u8_warp_fixed_source *source, double row_x, double row_y, double step_x, double step_y,
    size_t count, float *output);

/// Column x of the row, scalar: the Swift reference's arithmetic, edges and borders included.
void visage_u8_warp_fixed_one(
    const visage_u8_warp_fixed_source *source, double row_x, double row_y, double step_x, double step_y, size_t x,
    float *output);

void visage_u8_warp_fixed_ukernel__portable(
    const visage_u8_warp_fixed_source *, double, double, double, double, size_t, float *);
#if defined(__x86_64__) || defined(__i386__)
/// 3- and 4-byte pixels whose image spans under 2³¹ bytes; needs AVX2.
void visage_u8_warp_fixed_ukernel__avx2_u8(
    const visage_u8_warp_fixed_source *, double, double, double, double, size_t, float *);
#endif


/// One output row of an axis-aligned warp (`visage_u8_warp_fixed_scaled`): the stored rows `top` and
/// `bottom` blended as `top_weight`·top + `bottom_weight`·bottom into `blend` over the row bytes
/// [`low`, `high`), then each output x taking `blend` at its column's two byte offsets
/// (`columns[2x]`, `columns[2x + 1]`) with the weights of `weights[x]` (first in the low 16 bits).
/// `blend` has 4 spare entries past `high` (zero), which the AVX2 run reads and ignores.
typedef void (*visage_u8_warp_fixed_scaled_row_fn)(
    const visage_u8_warp_fixed_source *source, const uint8_t *top, const uint8_t *bottom, uint16_t top_weight,
    uint16_t bottom_weight, const int32_t *columns, const uint32_t *weights, size_t low, size_t high, size_t count,
    uint16_t *blend, float *output);

void visage_u8_warp_fixed_scaled_row__portable(
    const visage_u8_warp_fixed_source *, const uint8_t *, const uint8_t *, uint16_t, uint16_t, const int32_t *,
    const uint32_t *, size_t, size_t, size_t, uint16_t *, float *);
#if defined(__x86_64__) || defined(__i386__)
/// Needs AVX2.
void visage_u8_warp_fixed_scaled_row__avx2(
    const visage_u8_warp_fixed_source *, const uint8_t *, const uint8_t *, uint16_t, uint16_t, const int32_t *,
    const uint32_t *, size_t, size_t, size_t, uint16_t *, float *);
#endif

#endif
