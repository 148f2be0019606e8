// The kernel sets, CPU detection and the one-time choice between them.
#include "kernels.h"

#include <string.h>

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

// The complete portable set; every other set overrides all of it but the cold sigmoid.
static const visage_kernel_set portable_set = {
    .conv = visage_f32_conv_ukernel__portable_2x16,
    .conv_narrow = visage_f32_conv_ukernel__portable_2x16,
    .conv_mr = 2,
    .dwconv = visage_f32_dwconv_ukernel__portable_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__portable_9p16,
    .maxpool = visage_f32_maxpool_ukernel__portable_u16,
    .vadd = visage_f32_vadd_ukernel__portable_u16,
    .vmul = visage_f32_vmul_ukernel__portable_u16,
    .vsub = visage_f32_vsub_ukernel__portable_u16,
    .vclamp = visage_f32_vclamp_ukernel__portable_u16,
    .vprelu = visage_f32_vprelu_ukernel__portable_u8,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
};

#if defined(__x86_64__) || defined(__i386__)
static const visage_kernel_set avx2_fma_set = {
    .conv = visage_f32_conv_ukernel__avx2_fma_6x16,
    .conv_narrow = visage_f32_conv_ukernel__avx2_fma_6x8,
    .conv_mr = 6,
    .dwconv = visage_f32_dwconv_ukernel__avx2_fma_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__avx2_fma_9p16,
    .maxpool = visage_f32_maxpool_ukernel__avx2_fma_u16,
    .vadd = visage_f32_vadd_ukernel__avx2_fma_u16,
    .vmul = visage_f32_vmul_ukernel__avx2_fma_u16,
    .vsub = visage_f32_vsub_ukernel__avx2_fma_u16,
    .vclamp = visage_f32_vclamp_ukernel__avx2_fma_u16,
    .vprelu = visage_f32_vprelu_ukernel__avx2_fma_u8,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
};
#endif

#if defined(__aarch64__)
static const visage_kernel_set neon_set = {
    .conv = visage_f32_conv_ukernel__neon_6x16,
    .conv_narrow = visage_f32_conv_ukernel__neon_6x16,
    .conv_mr = 6,
    .dwconv = visage_f32_dwconv_ukernel__neon_up16,
    .dwconv_9 = visage_f32_dwconv_ukernel__neon_9p16,
    .maxpool = visage_f32_maxpool_ukernel__neon_u16,
    .vadd = visage_f32_vadd_ukernel__neon_u16,
    .vmul = visage_f32_vmul_ukernel__neon_u16,
    .vsub = visage_f32_vsub_ukernel__neon_u16,
    .vclamp = visage_f32_vclamp_ukernel__neon_u16,
    .vprelu = visage_f32_vprelu_ukernel__neon_u8,
    .vsigmoid = visage_f32_vsigmoid_ukernel__portable_u1,
};
#endif

int visage_isa_is_available(visage_isa isa) {
    switch (isa) {
    case visage_isa_portable:
        return 1;
    case visage_isa_avx2_fma:
        return visage_cpu_has_avx2_fma();
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
    }
    return "unknown";
}

visage_isa visage_isa_select(const char *request) {
    if (request != NULL) {
        for (int i = 0; i < VISAGE_ISA_COUNT; i++) {
            if (strcmp(request, visage_isa_name((visage_isa)i)) == 0 && visage_isa_is_available((visage_isa)i)) {
                return (visage_isa)i;
            }
        }
    }
    if (visage_isa_is_available(visage_isa_avx2_fma)) return visage_isa_avx2_fma;
    if (visage_isa_is_available(visage_isa_neon)) return visage_isa_neon;
    return visage_isa_portable;
}

const visage_kernel_set *visage_kernel_set_get(visage_isa isa) {
    if (!visage_isa_is_available(isa)) return &portable_set;
    switch (isa) {
#if defined(__x86_64__) || defined(__i386__)
    case visage_isa_avx2_fma: return &avx2_fma_set;
#endif
#if defined(__aarch64__)
    case visage_isa_neon: return &neon_set;
#endif
    default: return &portable_set;
    }
}
