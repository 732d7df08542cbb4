/* The 32-bit transpose micro-kernels (kernels/cpu/ukernels/transpose) with
 * every ISA the CPU has forced in turn, against the element-by-element
 * definition: rows and columns from 1 past two 16-element tiles (every tile
 * edge of the 4x4, 8x8 and 16x16 variants), strides wider than the region,
 * and guard values around it that must stay untouched; the values are NaN
 * payloads and -0, so a variant that converts instead of moving bits fails. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cpu/isa.h"
#include "cpu/transpose.h"

#define MAXD 40
#define GUARD 0xdeadbeefu

static uint32_t src[MAXD * (MAXD + 5)], dst[(MAXD + 3) * (MAXD + 7) + 64];

static void one(size_t rows, size_t cols, size_t ss, size_t ds, size_t *bad) {
  for (size_t k = 0; k < sizeof src / 4; k++) src[k] = 0x7fc00000u + (uint32_t)k * 2654435761u % 1000003u;
  src[0] = 0x80000000u; /* -0.0f */
  for (size_t k = 0; k < sizeof dst / 4; k++) dst[k] = GUARD;
  pk_x32_transpose(src, ss, dst, ds, rows, cols);
  for (size_t j = 0; j < cols + 2 && j * ds < sizeof dst / 4; j++)
    for (size_t i = 0; i < ds && j * ds + i < sizeof dst / 4; i++) {
      uint32_t want = i < rows && j < cols ? src[i * ss + j] : GUARD;
      if (dst[j * ds + i] != want && (*bad)++ < 5)
        fprintf(stderr, "  %s: %zux%zu ss %zu ds %zu: (%zu, %zu) is %08x, want %08x\n", pk_isa_name(pk_isa_selected()),
                rows, cols, ss, ds, i, j, dst[j * ds + i], want);
    }
}

int main(void) {
  size_t cases = 0;
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    size_t bad = 0;
    for (size_t rows = 1; rows <= MAXD; rows++)
      for (size_t cols = 1; cols <= MAXD; cols++) {
        size_t ss = cols + (rows + cols) % 5, ds = rows + (rows * cols) % 3;
        one(rows, cols, ss, ds, &bad);
        cases++;
      }
    CHECK(bad == 0);
  }
  pk_isa_force(PK_ISA_COUNT);
  CHECK(cases >= MAXD * MAXD);
  return check_summary("transpose_fast");
}
