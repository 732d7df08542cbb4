/* The every-second-element micro-kernels (kernels/cpu/ukernels/evens) with
 * every ISA the CPU has forced in turn, against the definition
 * dst[i] = src[2 * i]: n from 0 past two 16-element vectors (every vector
 * and tail edge of the 4-, 8- and 16-lane variants) and a few long rows,
 * from a source allocated to end at src[2n - 2] (reading the odd element
 * after it is an overflow under ASan), with guard values after dst[n - 1]
 * that must stay untouched; the values are NaN payloads and -0, so a
 * variant that converts instead of moving bits fails. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cpu/evens.h"
#include "cpu/isa.h"

#define GUARD 0xdeadbeefu

static size_t one(size_t n) {
  uint32_t *src = malloc((n ? 2 * n - 1 : 1) * sizeof *src), *dst = malloc((n + 17) * sizeof *dst);
  for (size_t k = 0; k < (n ? 2 * n - 1 : 0); k++) src[k] = 0x7fc00000u + (uint32_t)k * 2654435761u % 1000003u;
  if (n) src[0] = 0x80000000u; /* -0.0f */
  for (size_t k = 0; k < n + 17; k++) dst[k] = GUARD;
  pk_x32_evens_kernel()(src, n, dst);
  size_t bad = 0;
  for (size_t k = 0; k < n + 17; k++) {
    uint32_t want = k < n ? src[2 * k] : GUARD;
    if (dst[k] != want && bad++ < 3)
      fprintf(stderr, "  %s: n %zu: dst[%zu] is %08x, want %08x\n", pk_isa_name(pk_isa_selected()), n, k, dst[k],
              want);
  }
  free(src);
  free(dst);
  return bad;
}

int main(void) {
  static const size_t longer[] = {63, 64, 65, 100, 1000, 4097};
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    CHECK(pk_isa_force((pk_isa)isa) == (pk_isa)isa);
    size_t bad = 0, cases = 0;
    for (size_t n = 0; n <= 40; n++, cases++) bad += one(n) != 0;
    for (size_t i = 0; i < sizeof longer / sizeof longer[0]; i++, cases++) bad += one(longer[i]) != 0;
    printf("evens %s: %zu/%zu lengths\n", pk_isa_name((pk_isa)isa), cases - bad, cases);
    CHECK(bad == 0);
  }
  pk_isa_force(PK_ISA_COUNT);
  return check_summary("evens_fast");
}
