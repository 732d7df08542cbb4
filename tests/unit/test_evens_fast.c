/* The every-second-element micro-kernels (kernels/cpu/ukernels/evens) with
 * every ISA the CPU has forced in turn, against the definition
 * dst[r * ds + i] = src[r + 2 * i]: n from 0 past two 16-element vectors
 * (every vector and tail edge of the 4-, 8- and 16-lane variants) and a few
 * long rows, 1 to 7 rows, from a source allocated to end at the last
 * element read (reading the odd element after it is an overflow under
 * ASan), with guard values around each row of dst that must stay
 * untouched; the values are NaN payloads and -0, so a variant that
 * converts instead of moving bits fails. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "cpu/evens.h"
#include "cpu/isa.h"

#define GUARD 0xdeadbeefu

static size_t one(size_t n, size_t rows) {
  size_t ns = n ? rows - 1 + 2 * n - 1 : 1, ds = n + 3; /* elements read; dst row stride */
  uint32_t *src = malloc(ns * sizeof *src), *dst = malloc((rows * ds + 17) * sizeof *dst);
  for (size_t k = 0; k < (n ? ns : 0); k++) src[k] = 0x7fc00000u + (uint32_t)k * 2654435761u % 1000003u;
  if (n) src[0] = 0x80000000u; /* -0.0f */
  for (size_t k = 0; k < rows * ds + 17; k++) dst[k] = GUARD;
  pk_x32_evens_kernel()(src, n, rows, dst, ds);
  size_t bad = 0;
  for (size_t k = 0; k < rows * ds + 17; k++) {
    size_t r = k / ds, i = k % ds;
    uint32_t want = r < rows && i < n ? src[r + 2 * i] : GUARD;
    if (dst[k] != want && bad++ < 3)
      fprintf(stderr, "  %s: n %zu rows %zu: dst[%zu] is %08x, want %08x\n", pk_isa_name(pk_isa_selected()), n, rows,
              k, dst[k], want);
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
    for (size_t n = 0; n <= 40; n++)
      for (size_t rows = 1; rows <= 7; rows += 3, cases++) bad += one(n, rows) != 0;
    for (size_t i = 0; i < sizeof longer / sizeof longer[0]; i++, cases++) bad += one(longer[i], 1 + i % 3) != 0;
    printf("evens %s: %zu/%zu shapes\n", pk_isa_name((pk_isa)isa), cases - bad, cases);
    CHECK(bad == 0);
  }
  pk_isa_force(PK_ISA_COUNT);
  return check_summary("evens_fast");
}
