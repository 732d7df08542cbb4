/* The every-second-element kernel for the selected ISA (see evens.h). */
#include "cpu/evens.h"

#include "cpu/isa.h"
#include "cpu/ukernels/evens/evens.h"

pk_x32_evens_fn pk_x32_evens_kernel(void) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return pk_x32_evens_avx512;
    case PK_ISA_AVX2: return pk_x32_evens_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return pk_x32_evens_neon;
#endif
    default: return pk_x32_evens_scalar;
  }
}
