#include "cpu/vmath.h"

#include "cpu/isa.h"

const pk_vmath_f32_table *pk_vmath_f32(void) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__) && defined(__GNUC__)
    case PK_ISA_AVX512: return &pk_vmath_f32_avx512;
    case PK_ISA_AVX2: return &pk_vmath_f32_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return &pk_vmath_f32_neon;
#endif
    default: return &pk_vmath_f32_scalar;
  }
}
