// Depthwise convolution (multiplier 1): per output pixel, one input pointer per tap (padding
// taps point at a zero pixel) and the set's microkernel over all channels; 3×3 kernels take
// the unrolled 9-tap microkernel.
#include "kernels.h"

#include <stdlib.h>
#include <string.h>

static size_t group_stride(const visage_conv_geometry *g) {
    return VISAGE_CONV_PANEL * (1 + g->kernel_height * g->kernel_width);
}

size_t visage_f32_dwconv_packed_count(const visage_conv_geometry *g) {
    const size_t groups = (g->output_channels + VISAGE_CONV_PANEL - 1) / VISAGE_CONV_PANEL;
    return groups * group_stride(g);
}

// Group q: 16 biases, then for each tap the weights of channels 16q…16q+15, zero past the last.
void visage_f32_dwconv_pack(
    const visage_conv_geometry *g, const float *weights_hwc, const float *bias, float *packed) {
    const size_t ks = g->kernel_height * g->kernel_width, channels = g->output_channels;
    memset(packed, 0, visage_f32_dwconv_packed_count(g) * sizeof(float));
    for (size_t c = 0; c < channels; c++) {
        float *group = packed + c / VISAGE_CONV_PANEL * group_stride(g);
        const size_t j = c % VISAGE_CONV_PANEL;
        group[j] = bias != NULL ? bias[c] : 0.0f;
        for (size_t t = 0; t < ks; t++) group[VISAGE_CONV_PANEL * (1 + t) + j] = weights_hwc[t * channels + c];
    }
}

#define STACK_POINTERS 1024

void visage_f32_dwconv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end) {
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    const size_t kh = g->kernel_height, kw = g->kernel_width, ks = kh * kw;
    const size_t channels = g->output_channels, ow = g->output_width, iw = g->input_width;
    const visage_f32_dwconv_ukernel_fn ukernel = ks == 9 ? set->dwconv_9 : set->dwconv;

    // Row pointers (NULL outside the input) for each kernel row, then tap pointers per pixel.
    const float *stack_pointers[STACK_POINTERS];
    const float **rows = stack_pointers;
    if (kh + ks > STACK_POINTERS) {
        rows = malloc((kh + ks) * sizeof(*rows));
        if (rows == NULL) abort();
    }
    const float **taps = rows + kh;

    for (size_t oy = row_begin; oy < row_end; oy++) {
        for (size_t ky = 0; ky < kh; ky++) {
            const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
            rows[ky] = iy < g->input_height ? input + iy * iw * channels : NULL;
        }
        float *out = output + oy * ow * channels;
        for (size_t ox = 0; ox < ow; ox++, out += channels) {
            for (size_t kx = 0; kx < kw; kx++) {
                const size_t ix = ox * g->stride_x + kx - g->pad_left;
                const int column_inside = ix < iw;
                for (size_t ky = 0; ky < kh; ky++)
                    taps[ky * kw + kx] = column_inside && rows[ky] != NULL ? rows[ky] + ix * channels : zeros;
            }
            ukernel(channels, ks, taps, packed, out, epilogue->min, epilogue->max, epilogue->slopes);
        }
    }
    if (rows != stack_pointers) free(rows);
}
