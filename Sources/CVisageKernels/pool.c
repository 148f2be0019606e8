// Max pooling: per output pixel, one pointer per window tap inside the input (padding taps are
// skipped, as TFLite does), then the set's microkernel over all channels.
#include "kernels.h"

#include <math.h>
#include <stdlib.h>

#define STACK_POINTERS 1024

void visage_f32_maxpool_run(
    visage_isa isa, const visage_conv_geometry *g, const float *input, float *output,
    size_t row_begin, size_t row_end, float min, float max) {
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    const size_t kh = g->kernel_height, kw = g->kernel_width, channels = g->output_channels;
    const size_t ow = g->output_width;
    const float **taps = NULL, *stack_pointers[STACK_POINTERS];
    taps = kh * kw <= STACK_POINTERS ? stack_pointers : malloc(kh * kw * sizeof(*taps));
    if (taps == NULL) abort();
    for (size_t oy = row_begin; oy < row_end; oy++) {
        float *out = output + oy * ow * channels;
        for (size_t ox = 0; ox < ow; ox++, out += channels) {
            size_t count = 0;
            for (size_t ky = 0; ky < kh; ky++) {
                const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
                if (iy >= g->input_height) continue;
                for (size_t kx = 0; kx < kw; kx++) {
                    const size_t ix = ox * g->stride_x + kx - g->pad_left;
                    if (ix < g->input_width) taps[count++] = input + (iy * g->input_width + ix) * channels;
                }
            }
            if (count > 0) {
                set->maxpool(channels, count, taps, out, min, max);
            } else {
                const float floor = -INFINITY < min ? min : -INFINITY;
                for (size_t c = 0; c < channels; c++) out[c] = floor < max ? floor : max;
            }
        }
    }
    if (taps != stack_pointers) free(taps);
}
