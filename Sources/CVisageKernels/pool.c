// Max pooling: per output row, the window's input rows that lie inside the input (padding rows
// are skipped, as TFLite does) and one microkernel call for the whole row, which skips padding
// columns itself.
#include "kernels.h"

#include <math.h>
#include <stdlib.h>

#define STACK_POINTERS 1024

void visage_f32_maxpool_run(
    visage_isa isa, const visage_conv_geometry *g, const float *input, float *output,
    size_t row_begin, size_t row_end, float min, float max) {
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    const size_t kh = g->kernel_height, channels = g->output_channels, ow = g->output_width;
    const size_t row_length = g->input_width * channels;
    const float **rows = NULL, *stack_pointers[STACK_POINTERS];
    rows = kh <= STACK_POINTERS ? stack_pointers : malloc(kh * sizeof(*rows));
    if (rows == NULL) abort();
    for (size_t oy = row_begin; oy < row_end; oy++) {
        float *out = output + oy * ow * channels;
        size_t count = 0;
        for (size_t ky = 0; ky < kh; ky++) {
            const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
            if (iy < g->input_height) rows[count++] = input + iy * row_length;
        }
        if (count > 0) {
            set->maxpool(ow, channels, count, rows, g->input_width, g->kernel_width, g->stride_x, g->pad_left, out, min, max);
        } else {
            const float floor = -INFINITY < min ? min : -INFINITY;
            for (size_t i = 0; i < ow * channels; i++) out[i] = floor < max ? floor : max;
        }
    }
    if (rows != stack_pointers) free(rows);
}
