// Elementwise drivers: look up the set once per call and hand over the whole buffer.
#include "kernels.h"

void visage_f32_vadd(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max) {
    visage_kernel_set_get(isa)->vadd(n, a, b, out, min, max);
}

void visage_f32_vmul(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max) {
    visage_kernel_set_get(isa)->vmul(n, a, b, out, min, max);
}

void visage_f32_vsub(visage_isa isa, const float *a, const float *b, float *out, size_t n, float min, float max) {
    visage_kernel_set_get(isa)->vsub(n, a, b, out, min, max);
}

void visage_f32_vclamp(visage_isa isa, const float *x, float *out, size_t n, float min, float max) {
    visage_kernel_set_get(isa)->vclamp(n, x, out, min, max);
}

void visage_f32_vprelu(visage_isa isa, const float *x, const float *slopes, size_t channels, float *out, size_t n) {
    if (channels == 0) return;
    visage_kernel_set_get(isa)->vprelu(n / channels, channels, x, slopes, out);
}

void visage_f32_vsigmoid(visage_isa isa, const float *x, float *out, size_t n) {
    visage_kernel_set_get(isa)->vsigmoid(n, x, out);
}
