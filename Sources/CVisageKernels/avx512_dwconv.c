// The AVX-512 3×3 depthwise row kernel (x86-64): 16 channels per zmm, and for 8-channel layers
// two neighbouring pixels per zmm, so every lane works. Compiled through target attributes and
// chosen at run time with the rest of the AVX-512 set (dispatch.c).
#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <math.h>
#include "avx512.h"

/// 8 floats repeated in both halves of a zmm (vbroadcastf64x4 is AVX-512F; the f32x8 form
/// would need DQ, which dispatch does not check).
AVX512_INLINE __m512 repeat8(const float *p) {
    return _mm512_castpd_ps(_mm512_broadcast_f64x4(_mm256_castps_pd(_mm256_loadu_ps(p))));
}

/// The clamp only when the layer has one, then PReLU where the value is negative; the value goes
/// second in max and min, so a NaN stays NaN as in the other sets.
AVX512_INLINE __m512 dw_epilogue(__m512 v, int clamp, __m512 vmin, __m512 vmax, __m512 slopes, int prelu) {
    if (clamp) v = _mm512_min_ps(vmax, _mm512_max_ps(vmin, v));
    if (prelu) v = _mm512_mask_mul_ps(v, _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ), v, slopes);
    return v;
}

/// What every part of one row shares.
typedef struct {
    size_t channels;
    int clamp, prelu;
    __m512 vmin, vmax;
} dw_row;

/// `count` interior outputs of one 16-lane chunk along the row, columns and outputs `col` floats
/// apart: the last columns of each input row stay in registers, so an output loads S new
/// columns per row. The sum runs bias, then taps in order, as the reference.
AVX512_INLINE void dw3x3_sweep(
    const size_t S, size_t count, const float *const *rows, size_t col, float *out,
    const __m512 *k, __m512 bias, __m512 slopes, __mmask16 mask, const dw_row *r) {
    const float *m0 = rows[0] + col, *m1 = rows[1] + col, *m2 = rows[2] + col;
    const float *n0 = m0 + col, *n1 = m1 + col, *n2 = m2 + col;
    __m512 a0 = _mm512_maskz_loadu_ps(mask, rows[0]), a1 = _mm512_maskz_loadu_ps(mask, rows[1]);
    __m512 a2 = _mm512_maskz_loadu_ps(mask, rows[2]);
    __m512 b0 = a0, b1 = a1, b2 = a2;
    if (S == 1) {
        b0 = _mm512_maskz_loadu_ps(mask, m0);
        b1 = _mm512_maskz_loadu_ps(mask, m1);
        b2 = _mm512_maskz_loadu_ps(mask, m2);
    }
    for (size_t i = 0, in = 0; i < count; i++, in += S * col, out += col) {
        if (S == 2) {
            b0 = _mm512_maskz_loadu_ps(mask, m0 + in);
            b1 = _mm512_maskz_loadu_ps(mask, m1 + in);
            b2 = _mm512_maskz_loadu_ps(mask, m2 + in);
        }
        const __m512 c0 = _mm512_maskz_loadu_ps(mask, n0 + in), c1 = _mm512_maskz_loadu_ps(mask, n1 + in);
        const __m512 c2 = _mm512_maskz_loadu_ps(mask, n2 + in);
        __m512 acc = _mm512_fmadd_ps(a0, k[0], bias);
        acc = _mm512_fmadd_ps(b0, k[1], acc);
        acc = _mm512_fmadd_ps(c0, k[2], acc);
        acc = _mm512_fmadd_ps(a1, k[3], acc);
        acc = _mm512_fmadd_ps(b1, k[4], acc);
        acc = _mm512_fmadd_ps(c1, k[5], acc);
        acc = _mm512_fmadd_ps(a2, k[6], acc);
        acc = _mm512_fmadd_ps(b2, k[7], acc);
        acc = _mm512_fmadd_ps(c2, k[8], acc);
        _mm512_mask_storeu_ps(out, mask, dw_epilogue(acc, r->clamp, r->vmin, r->vmax, slopes, r->prelu));
        if (S == 1) {
            a0 = b0, a1 = b1, a2 = b2;
            b0 = c0, b1 = c1, b2 = c2;
        } else {
            a0 = c0, a1 = c1, a2 = c2;
        }
    }
}

/// 8 channels at stride 1: `count` pairs of neighbouring output pixels, one zmm each, the tap
/// weights repeated in both halves. Pair i reads input pixel pairs 2i, 2i + 1 and 2i + 2; the
/// even ones are whole 64-byte loads, the odd one is spliced from its neighbours (one shuffle
/// instead of a load across a cache line).
AVX512_INLINE void dw3x3_pairs8(
    size_t count, const float *const *rows, float *out, const __m512 *k, __m512 bias, __m512 slopes, const dw_row *r) {
    __m512 a0 = _mm512_loadu_ps(rows[0]), a1 = _mm512_loadu_ps(rows[1]), a2 = _mm512_loadu_ps(rows[2]);
    for (size_t i = 0, in = 16; i < count; i++, in += 16, out += 16) {
        const __m512 c0 = _mm512_loadu_ps(rows[0] + in), c1 = _mm512_loadu_ps(rows[1] + in);
        const __m512 c2 = _mm512_loadu_ps(rows[2] + in);
        const __m512 b0 = _mm512_shuffle_f32x4(a0, c0, _MM_SHUFFLE(1, 0, 3, 2));
        const __m512 b1 = _mm512_shuffle_f32x4(a1, c1, _MM_SHUFFLE(1, 0, 3, 2));
        const __m512 b2 = _mm512_shuffle_f32x4(a2, c2, _MM_SHUFFLE(1, 0, 3, 2));
        __m512 acc = _mm512_fmadd_ps(a0, k[0], bias);
        acc = _mm512_fmadd_ps(b0, k[1], acc);
        acc = _mm512_fmadd_ps(c0, k[2], acc);
        acc = _mm512_fmadd_ps(a1, k[3], acc);
        acc = _mm512_fmadd_ps(b1, k[4], acc);
        acc = _mm512_fmadd_ps(c1, k[5], acc);
        acc = _mm512_fmadd_ps(a2, k[6], acc);
        acc = _mm512_fmadd_ps(b2, k[7], acc);
        acc = _mm512_fmadd_ps(c2, k[8], acc);
        _mm512_storeu_ps(out, dw_epilogue(acc, r->clamp, r->vmin, r->vmax, slopes, r->prelu));
        a0 = c0, a1 = c1, a2 = c2;
    }
}

/// One output pixel whose window leaves the row: taps on columns outside it are skipped.
static AVX512 void dw3x3_edge_pixel(
    size_t p, const float *const *rows, size_t input_width, size_t stride, size_t pad_left, const float *w,
    const float *slopes, float *out, const dw_row *r) {
    const size_t channels = r->channels;
    size_t columns[3];
    for (size_t kx = 0; kx < 3; kx++) columns[kx] = p * stride + kx - pad_left;  // wraps left of the row
    for (size_t c = 0; c < channels; c += 16) {
        const __mmask16 mask = lanes(channels - c < 16 ? channels - c : 16);
        const float *wc = w + c / 16 * (16 + 9 * 16);
        __m512 acc = _mm512_loadu_ps(wc);
        for (size_t t = 0; t < 9; t++) {
            const size_t ix = columns[t % 3];
            if (ix < input_width)
                acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mask, rows[t / 3] + ix * channels + c), _mm512_loadu_ps(wc + 16 + 16 * t), acc);
        }
        const __m512 s = r->prelu ? _mm512_loadu_ps(slopes + c) : _mm512_setzero_ps();  // padded to 16
        _mm512_mask_storeu_ps(out + c, mask, dw_epilogue(acc, r->clamp, r->vmin, r->vmax, s, r->prelu));
    }
}

/// 3×3 depthwise row: pixels whose window leaves the row one by one; the rest swept 16 channels
/// at a time with the chunk's weights in registers, or for 8 channels at stride 1 two pixels per
/// zmm.
AVX512 void visage_f32_dwconv_ukernel__avx512_9p16(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t stride,
    size_t pad_left, const float *w, float *output, float min, float max, const float *slopes) {
    const dw_row r = {channels, min > -INFINITY || max < INFINITY, slopes != NULL, _mm512_set1_ps(min), _mm512_set1_ps(max)};
    // Interior pixels [first, last): all three columns inside the row.
    size_t last = input_width + pad_left >= 3 ? (input_width + pad_left - 3) / stride + 1 : 0;
    if (last > pixels) last = pixels;
    size_t first = (pad_left + stride - 1) / stride;
    if (first > last) first = last;
    for (size_t p = 0; p < first; p++)
        dw3x3_edge_pixel(p, rows, input_width, stride, pad_left, w, slopes, output + p * channels, &r);
    for (size_t p = last; p < pixels; p++)
        dw3x3_edge_pixel(p, rows, input_width, stride, pad_left, w, slopes, output + p * channels, &r);
    if (first == last) return;
    const size_t count = last - first, x = first * stride - pad_left;
    const float *start[3] = {rows[0] + x * channels, rows[1] + x * channels, rows[2] + x * channels};
    __m512 k[9];
    if (channels == 8 && stride == 1) {
        // Two neighbouring pixels per zmm; an odd pixel left over takes the 16-channel path below.
        for (size_t t = 0; t < 9; t++) k[t] = repeat8(w + 16 + 16 * t);
        const __m512 bias = repeat8(w);
        const __m512 s = slopes != NULL ? repeat8(slopes) : _mm512_setzero_ps();
        dw3x3_pairs8(count / 2, start, output + first * 8, k, bias, s, &r);
        if (count % 2 == 0) return;
        for (size_t ky = 0; ky < 3; ky++) start[ky] += (count - 1) * 8;
        first = last - 1;
    }
    // Rows of more than one chunk go in blocks of outputs, each block's chunks one after another,
    // so the block's input stays in L1 from the first chunk to the last (as in the AVX2 set).
    const size_t block = channels <= 16 ? last - first : VISAGE_DW_BLOCK_FLOATS / (channels * stride) + 1;
    for (size_t b = first; b < last; b += block) {
        const size_t count = last - b < block ? last - b : block;
        for (size_t c = 0; c < channels; c += 16) {
            const float *wc = w + c / 16 * (16 + 9 * 16);
            for (size_t t = 0; t < 9; t++) k[t] = _mm512_loadu_ps(wc + 16 + 16 * t);
            const __m512 s = slopes != NULL ? _mm512_loadu_ps(slopes + c) : _mm512_setzero_ps();  // padded to 16
            const size_t in = (b - first) * stride * channels + c;
            const float *rc[3] = {start[0] + in, start[1] + in, start[2] + in};
            const __mmask16 mask = lanes(channels - c < 16 ? channels - c : 16);
            float *out = output + b * channels + c;
            if (stride == 1) dw3x3_sweep(1, count, rc, channels, out, k, _mm512_loadu_ps(wc), s, mask, &r);
            else if (stride == 2) dw3x3_sweep(2, count, rc, channels, out, k, _mm512_loadu_ps(wc), s, mask, &r);
            else {
                for (size_t p = 0; p < count; p++, out += channels) {
                    const float *rp[3] = {rc[0] + p * stride * channels, rc[1] + p * stride * channels,
                                          rc[2] + p * stride * channels};
                    dw3x3_sweep(1, 1, rp, channels, out, k, _mm512_loadu_ps(wc), s, mask, &r);
                }
            }
        }
    }
}

#endif
