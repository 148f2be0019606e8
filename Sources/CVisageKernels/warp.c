// The bilinear warp's driver: a kernel only where the set has one and the gathers' 32-bit byte
// offsets reach the whole image; otherwise the caller's Swift run does the work.
#include "kernels.h"

int visage_u8_warp_interior(
    visage_isa isa, const visage_u8_warp_source *source, int64_t fx, int64_t fy, int64_t step_x,
    int64_t step_y, size_t count, float *output) {
    const visage_u8_warp_ukernel_fn warp = visage_kernel_set_get(isa)->warp;
    const size_t bpp = source->bytes_per_pixel;
    if (warp == NULL || (bpp != 3 && bpp != 4) || source->rows > INT32_MAX / (source->stride + 1)) return 0;
    warp(source, fx, fy, step_x, step_y, count, output);
    return 1;
}

int visage_u8_warp_supported(visage_isa isa) {
    return visage_isa_is_available(isa) && visage_kernel_set_get(isa)->warp != NULL;
}
