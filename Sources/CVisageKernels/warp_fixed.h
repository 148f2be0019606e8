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

#endif
