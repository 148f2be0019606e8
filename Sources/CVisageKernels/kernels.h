// The microkernel signatures, every microkernel, and the per-ISA kernel sets. Private to the
// C target: Swift sees only the drivers in include/CVisageKernels.h.
//
// Names follow one grammar: visage_<type>_<operation>_ukernel__<isa>_<unroll>, e.g.
// visage_f32_conv_ukernel__avx2_fma_12x16 computes 12 output pixels × 16 output channels.
#ifndef VISAGE_KERNELS_PRIVATE_H
#define VISAGE_KERNELS_PRIVATE_H

#include "CVisageKernels.h"

/// 1 when this CPU's FMA units are 128 bits wide (AMD family 17h below model 30h, first-generation
/// Zen and Zen+; Hygon family 18h), so a 256-bit FMA or broadcast takes two operations: the AVX2
/// set then computes panels of at most 8 channels in SSE tiles. `VISAGE_AVX2_NARROW=sse` or `avx`
/// in the environment overrides the detection. Else 0.
int visage_cpu_has_split_fma(void);

/// Input floats per row that the AVX-512 3×3 depthwise row kernel sweeps chunk by chunk before
/// moving on (rows of more channels than one vector go in blocks of about this many, so a block's
/// three input rows stay in L1 across its chunks); the AVX2 kernel blocks by VISAGE_DW_BLOCK_PIXELS.
#define VISAGE_DW_BLOCK_FLOATS 512

/// Outputs per block of the AVX2 3×3 depthwise row kernels (÷ the stride), whatever the channels: a
/// block's chunks run one after another, so the lines a chunk's sweep touches are still near when
/// the next chunk reads their other half. Sizing blocks by floats instead cut many-channel rows
/// (6 × 384, 12 × 192) into blocks of 2–3 outputs, each reloading the chunk's 9 weights and 2
/// columns. Since the stride-1 rows go in pairs (four input rows a sweep), longer blocks won: in the
/// C harness (best of 300, load 9–11) 128 outputs against 32 took full range's 96×96×32 layer 197
/// against 209 µs, 48×48×48 75 against 78, mesh-sized 128×128×32 355–360 against 380–393, short
/// range's 64×64×24 66.5 against 69.3 and the stride-2 layers 0–6 % less, with the same output; 64
/// and 96 fell between. Every bundled layer's row is now one block.
#define VISAGE_DW_BLOCK_PIXELS 128

/// Implicit-GEMM convolution tile: `mr` (≤ the kernel's MR) pixels × `nc` (≤ 16) channels.
/// `a` holds `ks × MR` input pointers, tap-major (a[t * MR + i] is pixel i's tap t, `kc`
/// channels); rows i ≥ mr repeat a valid pixel and are computed but not stored. `w` is one
/// packed panel: 16 biases, then ks × kc × 16 weights. `residual` (NULL, or rows `r_stride`
/// apart of which the first `r_nc` ≤ nc channels are added, the rest reading as zero; may equal
/// `c`) is added before the clamp; `slopes` (NULL or 16 values) is the panel's PReLU slopes.
typedef void (*visage_f32_conv_ukernel_fn)(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes);

/// A tile's last two panels when they hold 17 to 24 channels together (`nc`), in one pass: as
/// `visage_f32_conv_ukernel_fn`, with the second panel `w_stride` floats after `w`, `c`, `residual`
/// and `slopes` covering both, and the same values as the two panels' tiles.
typedef void (*visage_f32_conv24_ukernel_fn)(
    size_t mr, size_t nc, size_t kc, size_t ks, const float *const *a, const float *w, size_t w_stride,
    float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes);

/// A pointwise layer's (1×1, stride 1, unpadded) run of `tiles` whole tiles of MR pixels for one
/// panel: pixel p of the run reads its `kc` values at a + p × kc and writes c + p × c_stride; `w`,
/// `residual` (rows `r_stride` apart), `r_nc`, the clamp and `slopes` as for the tile kernel. One
/// call per run of tiles, so the per-tile pointer set-up, the call and the epilogue's constants are
/// paid once per run (with 8 or 16 input channels they cost about a third as much as the tile).
typedef void (*visage_f32_pwconv_ukernel_fn)(
    size_t tiles, size_t nc, size_t kc, const float *a, const float *w, float *c, size_t c_stride,
    const float *residual, size_t r_stride, size_t r_nc, float min, float max, const float *slopes);

/// One output pixel, all `nc` channels: `a` holds the pixel's `ks` tap pointers (`kc` channels
/// each), `w` the first packed panel, the next ones `w_stride` floats apart. `c` receives nc
/// values; `residual` (NULL or the pixel's `r_nc` ≤ nc values, zero past them) is added before
/// the clamp; `slopes` is NULL or the PReLU slopes of all panels. Streams the weights once,
/// where the tile kernel would compute MR copies of the pixel.
typedef void (*visage_f32_gemv_ukernel_fn)(
    size_t nc, size_t kc, size_t ks, const float *const *a, const float *w, size_t w_stride,
    float *c, const float *residual, size_t r_nc, float min, float max, const float *slopes);

/// A 1×1 convolution's last panel when it has at most VISAGE_DOT_NC_MAX channels (a layer of 1,
/// 2 or 97 outputs): each of the `mr` pixels `a[i]` (`kc` values) dotted with each channel's
/// weights, `wt` holding nc rows `wt_stride` (a multiple of 16, zero past kc) floats apart, then
/// `bias[j]`, the residual as for the tile kernel, clamp and PReLU. Vectorised along kc, where a
/// tile would spend a whole panel's FMAs on one or two channels.
typedef void (*visage_f32_dot_ukernel_fn)(
    size_t mr, size_t nc, size_t kc, const float *const *a, const float *wt, size_t wt_stride,
    const float *bias, float *c, size_t c_stride, const float *residual, size_t r_stride, size_t r_nc,
    float min, float max, const float *slopes);

/// The most channels a last panel may have to take the dot kernel, and the deepest layer
/// (input channels) it takes: the transposed weights live on the driver's stack.
#define VISAGE_DOT_NC_MAX 4
#define VISAGE_DOT_KC_MAX 512

/// Depthwise convolution of `pixels` consecutive output pixels of one row. `input` holds the
/// first pixel's `ks` tap pointers (each to `channels` values); each next pixel reads every tap
/// `input_step` floats further on. Weights are packed in groups of 16 channels (16 biases, then
/// ks × 16 weights); `output` receives pixels × channels values.
typedef void (*visage_f32_dwconv_ukernel_fn)(
    size_t pixels, size_t channels, size_t ks, const float *const *input, size_t input_step,
    const float *w, float *output, float min, float max, const float *slopes);

/// 3×3 depthwise convolution of one output row of `pixels` pixels. `rows` holds the three input
/// rows of `input_width` pixels × `channels` values (a zero row stands in for a padding row);
/// pixel p's taps read columns p × stride + kx − pad_left (kx = 0, 1, 2), and columns outside the
/// row read as zero. Weights are packed as for `visage_f32_dwconv_ukernel_fn` (ks = 9).
typedef void (*visage_f32_dwconv3x3_ukernel_fn)(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t stride,
    size_t pad_left, const float *w, float *output, float min, float max, const float *slopes);

/// Two consecutive output rows of a 3×3 depthwise convolution at stride 1: `rows` holds four input
/// rows (0–2 for `output0`, 1–3 for `output1`), the rest as for `visage_f32_dwconv3x3_ukernel_fn`
/// at stride 1; the same values as the row kernel on each row.
typedef void (*visage_f32_dwconv3x3x2_ukernel_fn)(
    size_t pixels, size_t channels, const float *const *rows, size_t input_width, size_t pad_left,
    const float *w, float *output0, float *output1, float min, float max, const float *slopes);

/// Max pooling of one output row of `pixels` pixels: `rows` holds the window's `row_count` (≥ 1)
/// input rows that lie inside the input, each `input_width` pixels × `channels` values; pixel p
/// takes columns p × stride + kx − pad_left (kx < kernel_width) inside the row. The largest tap,
/// NaN passed over (-infinity when none is left), clamped.
typedef void (*visage_f32_maxpool_ukernel_fn)(
    size_t pixels, size_t channels, size_t row_count, const float *const *rows, size_t input_width,
    size_t kernel_width, size_t stride, size_t pad_left, float *output, float min, float max);

typedef void (*visage_f32_vbinary_ukernel_fn)(
    size_t n, const float *a, const float *b, float *out, float min, float max);
typedef void (*visage_f32_vclamp_ukernel_fn)(size_t n, const float *x, float *out, float min, float max);
/// `rows` pixels of `channels` values each.
typedef void (*visage_f32_vprelu_ukernel_fn)(
    size_t rows, size_t channels, const float *x, const float *slopes, float *out);
typedef void (*visage_f32_vunary_ukernel_fn)(size_t n, const float *x, float *out);
/// The warp's interior run for 3- and 4-byte pixels whose image spans under 2³¹ bytes (see
/// `visage_u8_warp_interior`).
typedef void (*visage_u8_warp_ukernel_fn)(
    const visage_u8_warp_source *source, int64_t fx, int64_t fy, int64_t step_x, int64_t step_y,
    size_t count, float *output);

/// Everything one instruction set provides; the drivers call only through this.
typedef struct visage_kernel_set {
    visage_f32_conv_ukernel_fn conv;
    visage_f32_conv_ukernel_fn conv_narrow;  // panels with at most 8 channels left; same MR
    visage_f32_conv24_ukernel_fn conv_24;   // NULL: the last two panels' 17–24 channels as two tiles
    size_t conv_mr;
    visage_f32_pwconv_ukernel_fn pointwise;  // NULL: pointwise layers take the tile kernels per tile
    visage_f32_gemv_ukernel_fn gemv;        // tiles of a single pixel
    visage_f32_dot_ukernel_fn dot;          // NULL: the tile kernels take every panel
    visage_f32_dwconv_ukernel_fn dwconv;    // any number of taps
    visage_f32_dwconv3x3_ukernel_fn dwconv_9;  // 3×3 kernels: a row at a time
    visage_f32_dwconv3x3x2_ukernel_fn dwconv_9x2;  // NULL: 3×3 stride-1 rows one by one too
    visage_f32_maxpool_ukernel_fn maxpool;
    visage_f32_vbinary_ukernel_fn vadd, vmul, vsub;
    visage_f32_vclamp_ukernel_fn vclamp;
    visage_f32_vprelu_ukernel_fn vprelu;
    visage_f32_vunary_ukernel_fn vsigmoid;
    visage_u8_warp_ukernel_fn warp;  // NULL: the caller's Swift run
    size_t (*fma_peak)(size_t steps);  // NULL: no peak loop (see visage_f32_fma_peak)
} visage_kernel_set;

/// The set for `isa`; an unavailable `isa` gets the portable set.
const visage_kernel_set *visage_kernel_set_get(visage_isa isa);

/// The most pixels any conv microkernel computes at once (sizes the drivers' pointer arrays).
#define VISAGE_CONV_MR_MAX 12

// The kernel list, by instruction set.
#define VISAGE_DECLARE_SET(isa, conv_tile)                                                    \
    void visage_f32_conv_ukernel__##isa##_##conv_tile(                                        \
        size_t, size_t, size_t, size_t, const float *const *, const float *, float *, size_t, \
        const float *, size_t, size_t, float, float, const float *);                          \
    void visage_f32_dwconv_ukernel__##isa##_up16(                                             \
        size_t, size_t, size_t, const float *const *, size_t, const float *, float *, float, float, \
        const float *);                                                                       \
    void visage_f32_dwconv_ukernel__##isa##_9p16(                                             \
        size_t, size_t, const float *const *, size_t, size_t, size_t, const float *, float *, float, \
        float, const float *);                                                                \
    void visage_f32_maxpool_ukernel__##isa##_u16(                                             \
        size_t, size_t, size_t, const float *const *, size_t, size_t, size_t, size_t, float *, float, \
        float);                                                                               \
    void visage_f32_vadd_ukernel__##isa##_u16(size_t, const float *, const float *, float *, float, float); \
    void visage_f32_vmul_ukernel__##isa##_u16(size_t, const float *, const float *, float *, float, float); \
    void visage_f32_vsub_ukernel__##isa##_u16(size_t, const float *, const float *, float *, float, float); \
    void visage_f32_vclamp_ukernel__##isa##_u16(size_t, const float *, float *, float, float);  \
    void visage_f32_vprelu_ukernel__##isa##_u8(size_t, size_t, const float *, const float *, float *);

VISAGE_DECLARE_SET(portable, 2x16)
// The NEON set uses this GEMV too.
void visage_f32_gemv_ukernel__portable_1x16(
    size_t, size_t, size_t, const float *const *, const float *, size_t, float *, const float *, size_t, float,
    float, const float *);
// Cold in every bundled model (a few outputs), so portable only.
void visage_f32_vsigmoid_ukernel__portable_u1(size_t, const float *, float *);
#if defined(__x86_64__) || defined(__i386__)
VISAGE_DECLARE_SET(avx2_fma, 12x16)
void visage_f32_gemv_ukernel__avx2_fma_4x16(
    size_t, size_t, size_t, const float *const *, const float *, size_t, float *, const float *, size_t, float,
    float, const float *);
void visage_f32_pwconv_ukernel__avx2_fma_12x16(
    size_t, size_t, size_t, const float *, const float *, float *, size_t, const float *, size_t, size_t, float,
    float, const float *);
void visage_f32_dwconv_ukernel__avx2_fma_9p16x2(
    size_t, size_t, const float *const *, size_t, size_t, const float *, float *, float *, float, float, const float *);
void visage_f32_dot_ukernel__avx2_fma_4x16(
    size_t, size_t, size_t, const float *const *, const float *, size_t, const float *, float *, size_t,
    const float *, size_t, size_t, float, float, const float *);
size_t visage_f32_fma_peak__avx2_fma_12(size_t);
size_t visage_f32_fma_peak__avx512_12(size_t);
void visage_f32_conv_ukernel__avx2_fma_12x8(
    size_t, size_t, size_t, size_t, const float *const *, const float *, float *, size_t, const float *, size_t,
    size_t, float, float, const float *);
void visage_f32_conv_ukernel__avx2_fma_12x24(
    size_t, size_t, size_t, size_t, const float *const *, const float *, size_t, float *, size_t, const float *,
    size_t, size_t, float, float, const float *);
// Cores with 128-bit FMA units (first-generation Zen): the narrow panels through SSE halves.
void visage_f32_conv_ukernel__avx2_fma_12x8_sse(
    size_t, size_t, size_t, size_t, const float *const *, const float *, float *, size_t, const float *, size_t,
    size_t, float, float, const float *);
void visage_f32_pwconv_ukernel__avx2_fma_12x16_sse(
    size_t, size_t, size_t, const float *, const float *, float *, size_t, const float *, size_t, size_t, float,
    float, const float *);
// AVX-512: its own convolution and elementwise kernels; depthwise and pooling come from AVX2.
void visage_f32_conv_ukernel__avx512_12x16(
    size_t, size_t, size_t, size_t, const float *const *, const float *, float *, size_t, const float *, size_t,
    size_t, float, float, const float *);
void visage_f32_conv_ukernel__avx512_12x8(
    size_t, size_t, size_t, size_t, const float *const *, const float *, float *, size_t, const float *, size_t,
    size_t, float, float, const float *);
void visage_f32_gemv_ukernel__avx512_4x16(
    size_t, size_t, size_t, const float *const *, const float *, size_t, float *, const float *, size_t, float,
    float, const float *);
void visage_f32_vadd_ukernel__avx512_u32(size_t, const float *, const float *, float *, float, float);
void visage_f32_vmul_ukernel__avx512_u32(size_t, const float *, const float *, float *, float, float);
void visage_f32_vsub_ukernel__avx512_u32(size_t, const float *, const float *, float *, float, float);
void visage_f32_vclamp_ukernel__avx512_u32(size_t, const float *, float *, float, float);
void visage_f32_vprelu_ukernel__avx512_u16(size_t, size_t, const float *, const float *, float *);
#endif
#if defined(__aarch64__)
VISAGE_DECLARE_SET(neon, 6x16)
#endif

// The bilinear warp's interior run (warp_avx2.c, warp_avx512.c).
#if defined(__x86_64__) || defined(__i386__)
void visage_u8_warp_ukernel__avx2_u8(
    const visage_u8_warp_source *, int64_t, int64_t, int64_t, int64_t, size_t, float *);
void visage_u8_warp_ukernel__avx512_u16(
    const visage_u8_warp_source *, int64_t, int64_t, int64_t, int64_t, size_t, float *);
#endif

// AVX-512 3×3 depthwise (avx512_dwconv.c).
#if defined(__x86_64__) || defined(__i386__)
void visage_f32_dwconv_ukernel__avx512_9p16(
    size_t, size_t, const float *const *, size_t, size_t, size_t, const float *, float *, float, float,
    const float *);
#endif

#endif
