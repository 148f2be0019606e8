// Visage's SIMD microkernels. Internal to Visage: not a stable API.
#ifndef CVISAGE_KERNELS_H
#define CVISAGE_KERNELS_H

/// 1 when this CPU runs AVX2 and FMA code, else 0. Asked once, at dispatch time.
int visage_cpu_has_avx2_fma(void);

#endif
