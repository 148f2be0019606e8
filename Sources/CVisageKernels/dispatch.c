// The kernel sets, CPU detection and the one-time choice between them.
#include "kernels.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int visage_cpu_has_avx2_fma(void) {
#if defined(__x86_64__) || defined(__i386__)
    // Asked once; every thread that races here computes and stores the same answer.
    static int cached = -1;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

void visage_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

int visage_cpu_has_avx512(void) {
#if defined(__x86_64__) || defined(__i386__)
    static int cached = -1;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        known = 0;
        unsigned eax, ebx, ecx, edx;
        // OSXSAVE (leaf 1, ECX bit 27) makes XGETBV usable; XCR0 must then enable the SSE, AVX,
        // opmask and both zmm halves' state (bits 1, 2, 5, 6, 7), or the OS would not preserve
        // the registers across context switches even though the CPU has them.
        if (visage_cpu_has_avx2_fma() && __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 27))) {
            unsigned xcr0_low, xcr0_high;
            __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
            const unsigned saved = 0xE6;
            if ((xcr0_low & saved) == saved && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
                const unsigned f = 1u << 16, vl = 1u << 31;  // AVX512F, AVX512VL
                known = (ebx & (f | vl)) == (f | vl);
            }
        }
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

int visage_cpu_has_split_fma(void) {
#if defined(__x86_64__) || defined(__i386__)
    static int cached = -1;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        known = 0;
        unsigned eax, ebx, ecx, edx;
        // Vendor "AuthenticAMD" or "HygonGenuine", then leaf 1's family (base + extended) and model.
        if (visage_cpu_has_avx2_fma() && __get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
            const int amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;
            const int hygon = ebx == 0x6f677948 && edx == 0x6e65476e && ecx == 0x656e6975;
            if ((amd || hygon) && __get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
                const unsigned family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
                const unsigned model = ((eax >> 4) & 0xF) | (((eax >> 16) & 0xF) << 4);
                known = (amd && family == 0x17 && model < 0x30) || (hygon && family == 0x18);
            }
        }
        // VISAGE_AVX2_NARROW=sse or avx overrides the detection (to time or test either tile).
        const char *request = getenv("VISAGE_AVX2_NARROW");
        if (request != NULL && strcmp(request, "sse") == 0) known = 1;
        if (request != NULL && strcmp(request, "avx") == 0) known = 0;
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

// The complete portable set; every other set overrides all of it but the cold sigmoid.
static const visage_kernel_set portable_set = {
    .conv = visage_f32_conv_ukernel__portable_2x16,
    .conv_narrow = visage_f32_conv_ukernel__portable_2x16,
    .conv_mr = 2,
    .gemv = visage_f32_gemv_ukernel__portable_1x16,
    .dwconv = visage_f32_dwconv_ukernel__portable_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__portable_9p16,
    .maxpool = visage_f32_maxpool_ukernel__portable_u16,
    .vadd = visage_f32_vadd_ukernel__portable_u16,
    .vmul = visage_f32_vmul_ukernel__portable_u16,
    .vsub = visage_f32_vsub_ukernel__portable_u16,
    .vclamp = visage_f32_vclamp_ukernel__portable_u16,
    .vprelu = visage_f32_vprelu_ukernel__portable_u8,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
    .warp = NULL,
};

#if defined(__x86_64__) || defined(__i386__)
// What the two AVX2 sets share: all but the tiles for panels of at most 8 channels.
#define VISAGE_AVX2_FMA_SHARED \
    .conv = visage_f32_conv_ukernel__avx2_fma_12x16, \
    .conv_24 = visage_f32_conv_ukernel__avx2_fma_12x24, \
    .conv_mr = 12, \
    .gemv = visage_f32_gemv_ukernel__avx2_fma_4x16, \
    .dot = visage_f32_dot_ukernel__avx2_fma_4x16, \
    .dwconv = visage_f32_dwconv_ukernel__avx2_fma_up16, \
    .dwconv_9 = visage_f32_dwconv_ukernel__avx2_fma_9p16, \
    .dwconv_9x2 = visage_f32_dwconv_ukernel__avx2_fma_9p16x2, \
    .maxpool = visage_f32_maxpool_ukernel__avx2_fma_u16, \
    .vadd = visage_f32_vadd_ukernel__avx2_fma_u16, \
    .vmul = visage_f32_vmul_ukernel__avx2_fma_u16, \
    .vsub = visage_f32_vsub_ukernel__avx2_fma_u16, \
    .vclamp = visage_f32_vclamp_ukernel__avx2_fma_u16, \
    .vprelu = visage_f32_vprelu_ukernel__avx2_fma_u8, \
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1, \
    .warp = visage_u8_warp_ukernel__avx2_u8, \
    .fma_peak = visage_f32_fma_peak__avx2_fma_12

static const visage_kernel_set avx2_fma_set = {
    VISAGE_AVX2_FMA_SHARED,
    .conv_narrow = visage_f32_conv_ukernel__avx2_fma_12x8,
    .pointwise = visage_f32_pwconv_ukernel__avx2_fma_12x16,
};

// The AVX2 set for cores whose FMA units are 128 bits wide: panels of at most 8 channels through
// SSE tiles (a 256-bit broadcast per 256-bit FMA halved the narrow tile's rate there).
static const visage_kernel_set avx2_fma_split_set = {
    VISAGE_AVX2_FMA_SHARED,
    .conv_narrow = visage_f32_conv_ukernel__avx2_fma_12x8_sse,
    .pointwise = visage_f32_pwconv_ukernel__avx2_fma_12x16_sse,
};

// The general depthwise kernel, max pooling and the few-channel dot kernel are the AVX2 kernels.
static const visage_kernel_set avx512_set = {
    .conv = visage_f32_conv_ukernel__avx512_12x16,
    .conv_narrow = visage_f32_conv_ukernel__avx512_12x8,
    .conv_mr = 12,
    .gemv = visage_f32_gemv_ukernel__avx512_4x16,
    .dot = visage_f32_dot_ukernel__avx2_fma_4x16,
    .dwconv = visage_f32_dwconv_ukernel__avx2_fma_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__avx512_9p16,
    .maxpool = visage_f32_maxpool_ukernel__avx2_fma_u16,
    .vadd = visage_f32_vadd_ukernel__avx512_u32,
    .vmul = visage_f32_vmul_ukernel__avx512_u32,
    .vsub = visage_f32_vsub_ukernel__avx512_u32,
    .vclamp = visage_f32_vclamp_ukernel__avx512_u32,
    .vprelu = visage_f32_vprelu_ukernel__avx512_u16,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
    .warp = visage_u8_warp_ukernel__avx512_u16,
    .fma_peak = visage_f32_fma_peak__avx512_12,
};
#endif

#if defined(__aarch64__)
static const visage_kernel_set neon_set = {
    .conv = visage_f32_conv_ukernel__neon_6x16,
    .conv_narrow = visage_f32_conv_ukernel__neon_6x16,
    .conv_mr = 6,
    .gemv = visage_f32_gemv_ukernel__portable_1x16,
    .dwconv = visage_f32_dwconv_ukernel__neon_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__neon_9p16,
    .maxpool = visage_f32_maxpool_ukernel__neon_u16,
    .vadd = visage_f32_vadd_ukernel__neon_u16,
    .vmul = visage_f32_vmul_ukernel__neon_u16,
    .vsub = visage_f32_vsub_ukernel__neon_u16,
    .vclamp = visage_f32_vclamp_ukernel__neon_u16,
    .vprelu = visage_f32_vprelu_ukernel__neon_u8,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
    .warp = NULL,
};
#endif

int visage_isa_is_available(visage_isa isa) {
    switch (isa) {
    case visage_isa_portable:
        return 1;
    case visage_isa_avx2_fma:
        return visage_cpu_has_avx2_fma();
    case visage_isa_avx512:
        return visage_cpu_has_avx512();
    case visage_isa_neon:
#if defined(__aarch64__)
        return 1;  // Advanced SIMD is mandatory on AArch64.
#else
        return 0;
#endif
    }
    return 0;
}

const char *visage_isa_name(visage_isa isa) {
    switch (isa) {
    case visage_isa_portable: return "portable";
    case visage_isa_avx2_fma: return "avx2_fma";
    case visage_isa_neon: return "neon";
    case visage_isa_avx512: return "avx512";
    }
    return "unknown";
}

size_t visage_f32_fma_peak(visage_isa isa, size_t steps) {
    const visage_kernel_set *set = visage_kernel_set_get(isa);
    return set->fma_peak != NULL ? set->fma_peak(steps) : 0;
}

visage_isa visage_isa_select(const char *request) {
    if (request != NULL) {
        for (int i = 0; i < VISAGE_ISA_COUNT; i++) {
            if (strcmp(request, visage_isa_name((visage_isa)i)) == 0 && visage_isa_is_available((visage_isa)i)) {
                return (visage_isa)i;
            }
        }
    }
    if (visage_isa_is_available(visage_isa_avx512)) return visage_isa_avx512;
    if (visage_isa_is_available(visage_isa_avx2_fma)) return visage_isa_avx2_fma;
    if (visage_isa_is_available(visage_isa_neon)) return visage_isa_neon;
    return visage_isa_portable;
}

const visage_kernel_set *visage_kernel_set_get(visage_isa isa) {
    if (!visage_isa_is_available(isa)) return &portable_set;
    switch (isa) {
#if defined(__x86_64__) || defined(__i386__)
    case visage_isa_avx2_fma: return visage_cpu_has_split_fma() ? &avx2_fma_split_set : &avx2_fma_set;
    case visage_isa_avx512: return &avx512_set;
#endif
#if defined(__aarch64__)
    case visage_isa_neon: return &neon_set;
#endif
    default: return &portable_set;
    }
}
