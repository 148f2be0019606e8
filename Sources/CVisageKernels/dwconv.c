// Depthwise convolution (multiplier 1). 3×3 kernels: one microkernel call per output row with
// its three input rows (padding rows read the zero row); the microkernel handles padding
// columns and reuses each loaded input column across neighbouring outputs. Other sizes: per
// output pixel, one input pointer per tap (padding taps point at a zero pixel) and the set's
// general microkernel over all channels.
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

// A uniform row's few distinct outputs are computed in a scratch row of at most this many floats.
#define UNIFORM_SCRATCH 4096

/// Whether output row oy of a 3×3 layer reads only padding rows and input rows that are one pixel
/// repeated (`uniform`: lo, hi per input row, as `visage_f32_conv_run_uniform`'s).
static int dw_row_uniform(const visage_conv_geometry *g, const int32_t *uniform, size_t oy) {
    if (uniform == NULL) return 0;
    for (size_t ky = 0; ky < 3; ky++) {
        const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
        if (iy < g->input_height && !(uniform[2 * iy] == 0 && (size_t)uniform[2 * iy + 1] == g->input_width)) return 0;
    }
    return 1;
}

/// A 3×3 output row whose input rows are each one pixel repeated (or padding): its outputs differ only
/// where the window meets a padding column, so the row kernel computes a narrow row with the same
/// edges (`left` outputs that meet the left padding, one interior output, `right` outputs that meet
/// the right padding) from the first columns of the same input rows, and each output is copied from
/// its counterpart. Each narrow output's window reads the values the full row's does, and the row
/// kernel sums an output in an order that depends only on which of its columns lie in the input, so
/// the values are the full row's bit for bit. Returns 0 (nothing written) when nothing would be saved.
static int dw_uniform_row(
    const visage_kernel_set *set, const visage_conv_geometry *g, const float *packed, const visage_f32_epilogue *epilogue,
    const float *const *rows, float *out) {
    const size_t channels = g->output_channels, ow = g->output_width, iw = g->input_width;
    const size_t sx = g->stride_x, pl = g->pad_left;
    // Outputs x < left start before column 0; outputs x >= ow - right end past column iw - 1.
    const size_t left = (pl + sx - 1) / sx;
    const size_t reach = (ow - 1) * sx + 3;  // one past the last output's last column, counted from -pl
    const size_t pad_right = reach > pl + iw ? reach - pl - iw : 0;
    size_t right = 0;
    while (right < ow && (ow - 1 - right) * sx + 3 > pl + iw) right++;
    const size_t narrow = left + 1 + right;
    if (narrow + 1 >= ow || narrow * channels > UNIFORM_SCRATCH || (ow - 1) * sx + 3 < pl + iw) return 0;
    // The narrow row's input width keeps the last output's padding columns: (narrow - 1) × sx + 3 = pl + width + pad_right.
    const size_t width = (narrow - 1) * sx + 3 - pl - pad_right;
    float scratch[UNIFORM_SCRATCH];
    set->dwconv_9(narrow, channels, rows, width, sx, pl, packed, scratch, epilogue->min, epilogue->max, epilogue->slopes);
    const size_t bytes = channels * sizeof(float);
    memcpy(out, scratch, (left + 1) * bytes);
    memcpy(out + (ow - right) * channels, scratch + (left + 1) * channels, right * bytes);
    // The interior outputs left…ow - right - 1: the first one doubled, so a few long copies.
    for (size_t done = 1, run = ow - right - left; done < run;) {
        const size_t n = done < run - done ? done : run - done;
        memcpy(out + (left + done) * channels, out + left * channels, n * bytes);
        done += n;
    }
    return 1;
}

/// The columns [lo, hi) where each of output row oy's three input rows holds one pixel repeated (padding
/// rows count as one run over the whole row); lo >= hi when nothing is known.
static void dw_row_run(const visage_conv_geometry *g, const int32_t *uniform, size_t oy, size_t *lo, size_t *hi) {
    size_t l = 0, h = g->input_width;
    for (size_t ky = 0; ky < 3; ky++) {
        const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
        if (iy >= g->input_height) continue;
        const int32_t a = uniform[2 * iy], b = uniform[2 * iy + 1];
        if (a < 0 || b > (int32_t)g->input_width || a >= b) {
            l = h = 0;
            break;
        }
        if ((size_t)a > l) l = (size_t)a;
        if ((size_t)b < h) h = (size_t)b;
    }
    *lo = l;
    *hi = h;
}

/// Columns a stride-1 output row cuts from the middle of its input rows' common run when computed narrow
/// (`dw_cut_row`); rows that would cut fewer take the row kernel whole.
#define DW_CUT_MIN 8

/// The cut of stride-1 output row oy: D = hi − lo − 4 columns [lo + 2, hi − 2) of its common run [lo, hi)
/// (`dw_row_run`); 0 when under DW_CUT_MIN or nothing is known.
static size_t dw_row_cut(const visage_conv_geometry *g, const int32_t *uniform, size_t oy) {
    if (uniform == NULL || g->stride_x != 1) return 0;
    size_t lo, hi;
    dw_row_run(g, uniform, oy, &lo, &hi);
    return hi >= lo + 4 + DW_CUT_MIN ? hi - lo - 4 : 0;
}

/// A stride-1 3×3 output row whose three input rows each hold one pixel repeated over the columns
/// [lo, hi) (each row its own pixel; padding rows are zeros throughout), with D = hi − lo − 4 ≥ 1: the
/// row kernel computes a narrow row from input rows with the columns [K, K + D) cut out, K = lo + 2,
/// into a scratch row. Narrow output x < X0 = K + pad_left is full output x; narrow output x >= X0 is full
/// output x + D. Why the values are the full row's, bit for bit: a narrow output x < X0 reads narrow
/// columns at most K + 1, and narrow columns K and K + 1 hold full columns hi − 2 and hi − 1, equal to
/// full columns K and K + 1 (all four lie in the run: K + 1 = lo + 3 < hi); no such window reaches the
/// narrow row's right padding (narrow width iw − D ≥ lo + 4). A narrow output x >= X0 reads narrow
/// columns from K on, which are full columns D further on, so exactly full output x + D's window. The
/// outputs X0 … X0 + D − 1 are not computed: their windows lie in [K, hi), inside the run, as does
/// output X0 − 1's ([lo + 1, lo + 3]), so they equal it and are copied from it. And the row kernels sum
/// an output in an order that depends only on which of its columns lie in the input, so each computed
/// output is the full row's. Returns 0 (nothing written) when the scratch is too small.
static int dw_cut_row(
    const visage_kernel_set *set, const visage_conv_geometry *g, const float *packed, const visage_f32_epilogue *epilogue,
    const float *const *rows, const float *zeros, size_t lo, size_t cut, float *out) {
    const size_t channels = g->output_channels, ow = g->output_width, iw = g->input_width, pl = g->pad_left;
    const size_t k = lo + 2, x0 = k + pl, width = iw - cut;
    if (ow <= cut || x0 == 0 || x0 > ow - cut || (3 * width + ow - cut) * channels > UNIFORM_SCRATCH) return 0;
    float scratch[UNIFORM_SCRATCH];
    const float *narrow[3];
    const size_t bytes = channels * sizeof(float);
    for (size_t ky = 0; ky < 3; ky++) {
        if (rows[ky] == zeros) {
            narrow[ky] = zeros;
            continue;
        }
        float *row = scratch + ky * width * channels;
        memcpy(row, rows[ky], k * bytes);
        memcpy(row + k * channels, rows[ky] + (k + cut) * channels, (iw - k - cut) * bytes);
        narrow[ky] = row;
    }
    float *result = scratch + 3 * width * channels;
    set->dwconv_9(ow - cut, channels, narrow, width, 1, pl, packed, result, epilogue->min, epilogue->max, epilogue->slopes);
    memcpy(out, result, x0 * bytes);
    memcpy(out + (x0 + cut) * channels, result + x0 * channels, (ow - cut - x0) * bytes);
    // The outputs x0 … x0 + cut − 1: output x0 − 1 doubled, so a few long copies.
    for (size_t done = 0; done < cut;) {
        const size_t n = done + 1 < cut - done ? done + 1 : cut - done;
        memcpy(out + (x0 + done) * channels, out + (x0 - 1) * channels, n * bytes);
        done += n;
    }
    return 1;
}

static void dwconv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end, const int32_t *uniform) {
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    const size_t kh = g->kernel_height, kw = g->kernel_width, ks = kh * kw;
    const size_t channels = g->output_channels, ow = g->output_width, iw = g->input_width;
    const size_t sx = g->stride_x, pl = g->pad_left;
    if (kh == 3 && kw == 3) {
        // At stride 1, rows in pairs through the set's two-row kernel when it has one (four input rows).
        const int pairs = set->dwconv_9x2 != NULL && g->stride_y == 1 && sx == 1;
        for (size_t oy = row_begin; oy < row_end;) {
            const size_t cut = dw_row_cut(g, uniform, oy);
            const int skip = cut == 0 && dw_row_uniform(g, uniform, oy);
            const size_t count = cut == 0 && !skip && pairs && oy + 1 < row_end && dw_row_cut(g, uniform, oy + 1) == 0
                                         && !dw_row_uniform(g, uniform, oy + 1)
                                     ? 2
                                     : 1;
            const float *rows[4];
            for (size_t ky = 0; ky < 2 + count; ky++) {
                const size_t iy = oy * g->stride_y + ky - g->pad_top;  // wraps when above the input
                rows[ky] = iy < g->input_height ? input + iy * iw * channels : zeros;
            }
            float *out = output + oy * ow * channels;
            if (cut > 0) {
                size_t lo, hi;
                dw_row_run(g, uniform, oy, &lo, &hi);
                if (!dw_cut_row(set, g, packed, epilogue, rows, zeros, lo, cut, out))
                    set->dwconv_9(ow, channels, rows, iw, sx, pl, packed, out, epilogue->min, epilogue->max, epilogue->slopes);
            } else if (skip && dw_uniform_row(set, g, packed, epilogue, rows, out))
                ;
            else if (count == 2)
                set->dwconv_9x2(ow, channels, rows, iw, pl, packed, out, out + ow * channels,
                                epilogue->min, epilogue->max, epilogue->slopes);
            else
                set->dwconv_9(ow, channels, rows, iw, sx, pl, packed, out, epilogue->min, epilogue->max, epilogue->slopes);
            oy += count;
        }
        return;
    }
    const visage_f32_dwconv_ukernel_fn ukernel = set->dwconv;

    // Interior columns [inner_begin, inner_end): every tap inside the row, so one microkernel
    // call walks them with a fixed step. Rows outside the input read the zero row instead.
    size_t inner_begin = (pl + sx - 1) / sx;
    size_t inner_end = iw + pl >= kw ? (iw + pl - kw) / sx + 1 : 0;
    if (inner_end > ow) inner_end = ow;
    if (inner_begin > inner_end) inner_begin = inner_end;

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
            rows[ky] = iy < g->input_height ? input + iy * iw * channels : zeros;
        }
        float *out = output + oy * ow * channels;
        for (size_t ox = 0; ox < ow;) {
            const int inner = ox == inner_begin && inner_begin < inner_end;
            for (size_t kx = 0; kx < kw; kx++) {
                const size_t ix = ox * sx + kx - pl;
                for (size_t ky = 0; ky < kh; ky++) taps[ky * kw + kx] = ix < iw ? rows[ky] + ix * channels : zeros;
            }
            const size_t pixels = inner ? inner_end - inner_begin : 1;
            ukernel(pixels, channels, ks, taps, sx * channels, packed, out + ox * channels,
                    epilogue->min, epilogue->max, epilogue->slopes);
            ox += pixels;
        }
    }
    if (rows != stack_pointers) free(rows);
}

void visage_f32_dwconv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end) {
    dwconv_run(isa, g, packed, zeros, epilogue, input, output, row_begin, row_end, NULL);
}

void visage_f32_dwconv_run_uniform(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end, const int32_t *input_uniform) {
    dwconv_run(isa, g, packed, zeros, epilogue, input, output, row_begin, row_end, input_uniform);
}
