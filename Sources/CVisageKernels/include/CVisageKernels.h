// Visage's SIMD microkernels. Internal to Visage: not a stable API (see ../README.md).
//
// Every operation exists for every instruction set in `visage_isa`; the portable set is
// complete and the others override it. Swift picks a set once (`visage_isa_select`) and passes
// it to each call, so tests can run the same shapes through every available set.
#ifndef CVISAGE_KERNELS_H
#define CVISAGE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The instruction sets Visage has kernels for.
typedef enum visage_isa {
    visage_isa_portable = 0,
    visage_isa_avx2_fma = 1,
    visage_isa_neon = 2,
    visage_isa_avx512 = 3,
} visage_isa;

/// Number of `visage_isa` values, for iterating the kernel list.
#define VISAGE_ISA_COUNT 4

/// 1 when this CPU runs AVX2 and FMA code, else 0.
int visage_cpu_has_avx2_fma(void);

/// 1 when this CPU runs AVX-512F and VL code (and AVX2, FMA) and the OS saves the zmm and mask
/// registers, else 0.
int visage_cpu_has_avx512(void);

/// A spin-wait hint (x86 PAUSE, Arm YIELD, nothing elsewhere): a thread polling for work calls it
/// between polls, so the core spends less power and its sibling, if any, more time, without handing
/// the core to another process as `sched_yield` would.
void visage_spin_hint(void);

/// 1 when this machine can run the kernels of `isa`.
int visage_isa_is_available(visage_isa isa);

/// A short lower-case name: "portable", "avx2_fma", "neon", "avx512".
const char *visage_isa_name(visage_isa isa);

/// The set to use: the best available one, unless `request` (the VISAGE_KERNELS environment
/// value, may be NULL) names an available set such as "portable".
visage_isa visage_isa_select(const char *request);

/// Runs `steps` rounds of twelve independent FMA chains on the set's widest vectors (what the
/// tiles keep in flight) and returns the multiply-accumulates done, so `visage kernel-benchmark`
/// can time this core's peak; 0 for a set without such a loop (portable, NEON).
size_t visage_f32_fma_peak(visage_isa isa, size_t steps);

/// Clamp then PReLU, applied in registers before each store.
typedef struct visage_f32_epilogue {
    float min;
    float max;
    /// NULL, or one slope per channel padded with zeros to a multiple of 16.
    const float *slopes;
} visage_f32_epilogue;

/// Convolution geometry, NHWC, batch 1; the C mirror of Swift's `ConvolutionShape`.
typedef struct visage_conv_geometry {
    size_t input_height, input_width, input_channels;
    size_t output_height, output_width, output_channels;
    size_t kernel_height, kernel_width;
    size_t stride_y, stride_x;
    size_t pad_top, pad_left;
} visage_conv_geometry;

/// Output channels are packed in panels of this many (all sets share the layout).
#define VISAGE_CONV_PANEL 16

/// Floats needed by `visage_f32_conv_pack` (zero-padded panels of bias and weights).
size_t visage_f32_conv_packed_count(const visage_conv_geometry *g);

/// Packs OHWI weights and an optional bias (NULL: zeros) into `packed`.
void visage_f32_conv_pack(
    const visage_conv_geometry *g, const float *weights_ohwi, const float *bias, float *packed);

/// Writes output channels [channel_begin, channel_end) of output rows [row_begin, row_end);
/// channel_begin is a multiple of VISAGE_CONV_PANEL (otherwise nothing is written) and
/// channel_end is capped at the output's channels, so threads can share a layer by rows, by
/// panels of channels or both, with the same values as one call for the whole. `zeros` holds `kernel_width × input_channels`
/// zeros (what padding taps read). `residual` (NULL, or shaped like the output but with
/// `residual_channels` ≤ output channels, the missing ones reading as zero; may be the output
/// itself when the channel counts agree) is added after the bias, before the epilogue.
void visage_f32_conv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t row_begin, size_t row_end, size_t channel_begin,
    size_t channel_end);

/// As `visage_f32_conv_run`, for an output whose rows hold runs of equal pixels (a letterbox's
/// constant bands): `uniform` holds two values per output row, lo and hi, and when
/// 0 <= lo, lo + 2 <= hi <= output_width, the caller knows that the pixels lo..<hi of that row come
/// out equal (every tap of their windows reads the same values, in padding or in a uniform run of
/// the input, and the residual is uniform there too). Only pixel lo of the run is computed; it is
/// copied over the others. Every pixel is computed as `visage_f32_conv_run` computes it (a pixel's
/// sum does not depend on the tile it falls in), so the values agree bit for bit when the caller is
/// right.
void visage_f32_conv_run_uniform(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, const float *residual,
    size_t residual_channels, float *output, size_t row_begin, size_t row_end, size_t channel_begin,
    size_t channel_end, const int32_t *uniform);

/// Floats needed by `visage_f32_dwconv_pack`.
size_t visage_f32_dwconv_packed_count(const visage_conv_geometry *g);

/// Packs HWC depthwise weights (multiplier 1) and an optional bias into `packed`.
void visage_f32_dwconv_pack(
    const visage_conv_geometry *g, const float *weights_hwc, const float *bias, float *packed);

/// Depthwise convolution of output rows [row_begin, row_end). `zeros` holds
/// `input_width × channels` zeros (a whole padding row).
void visage_f32_dwconv_run(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end);

/// As `visage_f32_dwconv_run`, given what is known of the input's rows: `input_uniform` holds two
/// values per input row, lo and hi (`visage_f32_conv_run_uniform`'s layout), and lo = 0, hi =
/// input_width says that the row is one pixel repeated. A 3×3 output row that reads only such rows
/// (or padding rows) is computed as a narrow row with the same edges and copied out, with the
/// values `visage_f32_dwconv_run` gives, bit for bit, when the caller is right.
void visage_f32_dwconv_run_uniform(
    visage_isa isa, const visage_conv_geometry *g, const float *packed, const float *zeros,
    const visage_f32_epilogue *epilogue, const float *input, float *output,
    size_t row_begin, size_t row_end, const int32_t *input_uniform);

/// MAX_POOL_2D of output rows [row_begin, row_end) (input and output channels equal): the
/// largest input under each window, taps outside the input and NaN taps ignored (-infinity when
/// none is left), then clamped to [min, max].
void visage_f32_maxpool_run(
    visage_isa isa, const visage_conv_geometry *g, const float *input, float *output,
    size_t row_begin, size_t row_end, float min, float max);

/// out = clamp(a op b, min, max) for n values; `out` may alias `a` or `b`.
void visage_f32_vadd(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max);
void visage_f32_vmul(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max);
void visage_f32_vsub(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max);

/// out = clamp(x, min, max); `out` may alias `x`.
void visage_f32_vclamp(visage_isa isa, const float *x, float *out, size_t n, float min, float max);

/// PReLU of n values in pixels of `channels` values, one slope per channel; `out` may alias `x`.
void visage_f32_vprelu(
    visage_isa isa, const float *x, const float *slopes, size_t channels, float *out, size_t n);

/// out = 1 / (1 + exp(-x)); `out` may alias `x`.
void visage_f32_vsigmoid(visage_isa isa, const float *x, float *out, size_t n);

/// The stored 8-bit pixels and the level mapping of VisageImage's bilinear warp
/// (`Image.warpAffine`), whose interior columns `visage_u8_warp_interior` samples.
typedef struct visage_u8_warp_source {
    const uint8_t *pixels;
    size_t stride;           // bytes per row
    size_t rows;             // image height
    size_t bytes_per_pixel;  // 3 or 4 have kernels
    size_t red, green, blue; // byte offsets inside a pixel
    float scale, offset;     // sample × scale + offset when not rounded
    float span;              // rounded: level / 255 × span + offset
    int rounded;             // round samples to whole levels first (ties to even)
} visage_u8_warp_source;

/// Writes `count` interleaved RGB samples, the bilinear mean of the 2×2 neighbourhood at the
/// 32.32 fixed-point position (fx, fy) stepped by (step_x, step_y), every neighbourhood inside
/// the image; bit for bit the Swift interior run's arithmetic (no FMA contraction). Returns 0,
/// writing nothing, when `isa` has no warp kernel or the source has none (gray, or more than
/// 2³¹ bytes): the caller's own loop then runs.
int visage_u8_warp_interior(
    visage_isa isa, const visage_u8_warp_source *source, int64_t fx, int64_t fy, int64_t step_x,
    int64_t step_y, size_t count, float *output);

/// 1 when the set of `isa` has a warp kernel (the AVX2 and AVX-512 sets), else 0.
int visage_u8_warp_supported(visage_isa isa);

/// The stored 8-bit pixels, borders and level mapping of VisageImage's OpenCV-compatible fixed-point
/// warp (`Image.warpAffineFixedPoint`), which `visage_u8_warp_fixed_row` samples.
typedef struct visage_u8_warp_fixed_source {
    const uint8_t *pixels;
    size_t stride;           // bytes per row
    size_t bytes_per_pixel;
    size_t red, green, blue; // byte offsets inside a pixel
    size_t max_x, max_y;     // width − 1, height − 1
    int replicate;           // 1: BORDER_REPLICATE, 0: BORDER_CONSTANT with zeros
    float scale, offset;     // level n becomes (float)n × scale + offset
} visage_u8_warp_fixed_source;

/// Writes `count` interleaved RGB outputs of one row: column x samples the point
/// (row_x + step_x · x, row_y + step_y · x) given in 1/32 pixel, rounded half to even, with OpenCV's
/// integer bilinear weights and 8-bit level, bit for bit the Swift reference (`Image.warpAffineFixedPoint`
/// with the Swift kernel). The AVX2 run for the AVX2 and AVX-512 sets (3- and 4-byte pixels, images
/// under 2³¹ bytes), else a portable scalar run.
void visage_u8_warp_fixed_row(
    visage_isa isa, const visage_u8_warp_fixed_source *source, double row_x, double row_y, double step_x,
    double step_y, size_t count, float *output);

/// Bytes of scratch memory `visage_u8_warp_fixed_scaled` needs for outputs `width` wide from `source`.
size_t visage_u8_warp_fixed_scaled_scratch_size(const visage_u8_warp_fixed_source *source, size_t width);

/// The whole warp of `visage_u8_warp_fixed_row`'s rows when the transform keeps the axes (b and c zero:
/// a scale, a flip and a translation, a letterbox): output (x, y) samples the point
/// (32·(b·0 + tx) + 32·a · x, 32·(d·y + ty) + 32·c · x) in 1/32 pixel, as the row driver would give it,
/// so the floats are the rows' bit for bit. Along such a warp a column's horizontal taps and a row's
/// vertical ones never change, and the bilinear sum is separable in integers: each output row blends
/// its two stored rows once (Σ over the row's taps), then each output takes its column's two taps of
/// that blend — no gathers. `scratch` holds `visage_u8_warp_fixed_scaled_scratch_size` bytes.
/// Returns 0, writing nothing, when b or c is not zero or the row's bytes exceed 2³¹: the caller then
/// runs the rows.
int visage_u8_warp_fixed_scaled(
    visage_isa isa, const visage_u8_warp_fixed_source *source, double a, double b, double c, double d, double tx,
    double ty, size_t width, size_t height, float *output, void *scratch);

/// "avx2" or "portable": the run `visage_u8_warp_fixed_row` takes for `isa` and `source`.
const char *visage_u8_warp_fixed_kernel_name(visage_isa isa, const visage_u8_warp_fixed_source *source);

#ifdef __cplusplus
}
#endif

#endif
