/* CPU detection and forcing (kernels/cpu/isa.h): forcing never selects a
 * variant the CPU lacks, scalar is always there, and PK_ISA_COUNT restores
 * detection; extensions only with their base variant. */
#include "check.h"
#include <string.h>

#include "cpu/isa.h"

int main(void) {
  CHECK(pk_isa_available(PK_ISA_SCALAR));
  pk_isa detected = pk_isa_force(PK_ISA_COUNT);
  CHECK(pk_isa_available(detected));
  for (int i = 0; i < PK_ISA_COUNT; i++) {
    pk_isa got = pk_isa_force((pk_isa)i);
    CHECK(pk_isa_available(got));
    CHECK(pk_isa_selected() == got);
    if (pk_isa_available((pk_isa)i)) CHECK(got == (pk_isa)i);
    /* Nothing available ranks above the detected best. */
    if (pk_isa_available((pk_isa)i) && i != PK_ISA_SCALAR) CHECK(detected != PK_ISA_SCALAR);
  }
  CHECK(pk_isa_force(PK_ISA_SCALAR) == PK_ISA_SCALAR);
  CHECK(pk_isa_force(PK_ISA_COUNT) == detected);
#if defined(__x86_64__)
  CHECK(!pk_isa_available(PK_ISA_NEON));
  if (pk_isa_available(PK_ISA_AVX512)) CHECK(pk_isa_available(PK_ISA_AVX2));
  CHECK(!pk_isa_ext_available(PK_EXT_DOTPROD));
  if (pk_isa_ext_available(PK_EXT_AVX512VNNI)) CHECK(pk_isa_available(PK_ISA_AVX512));
  if (pk_isa_ext_available(PK_EXT_AVXVNNI)) CHECK(pk_isa_available(PK_ISA_AVX2));
#else
  CHECK(!pk_isa_ext_available(PK_EXT_AVX512VNNI) && !pk_isa_ext_available(PK_EXT_AVXVNNI));
#endif
  CHECK(!pk_isa_ext_available(PK_EXT_COUNT));
  CHECK(strcmp(pk_isa_name(PK_ISA_AVX512), "avx512") == 0);
  return check_summary("isa");
}
