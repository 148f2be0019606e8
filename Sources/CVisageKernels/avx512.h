// What every AVX-512 source file shares: the target attributes that compile one function for
// AVX-512 without global flags, and lane masks. Private to the C target; include only inside
// an x86 guard.
#ifndef VISAGE_AVX512_H
#define VISAGE_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#define AVX512 __attribute__((target("avx512f,avx512vl,avx2,fma")))
#define AVX512_INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx2,fma")))
#define UNROLL _Pragma("clang loop unroll(full)")

/// The first n (0 ≤ n ≤ 16) lanes.
AVX512_INLINE __mmask16 lanes(size_t n) {
    return _cvtu32_mask16((uint32_t)((1u << n) - 1));
}

#endif
