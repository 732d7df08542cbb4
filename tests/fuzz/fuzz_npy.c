/* Fuzzes the .npy reader: pf_npy_parse, then the data it points at, and a
 * header round trip (pf_npy_header of what was read parses back the same). */
#include "format/npy.h"
#include "fuzz.h"

int ptera_fuzz_npy(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pf_npy n;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_npy_parse(buf, size, &n, &err);
  if (st != PTERA_OK) {
    FZ_REQUIRE(err.msg[0] != '\0');
    free(buf);
    return 0;
  }
  FZ_REQUIRE(n.dim <= PTERA_MAX_DIM);
  FZ_REQUIRE(memchr(n.descr, '\0', sizeof n.descr) != NULL);
  uint64_t numel = 1;
  for (unsigned d = 0; d < n.dim; d++) {
    FZ_REQUIRE(n.sizes[d] >= 0);
    FZ_REQUIRE(pt_mul_u64(numel, (uint64_t)n.sizes[d], &numel));
  }
  FZ_REQUIRE(numel == n.numel);
  uint64_t nbytes;
  FZ_REQUIRE(pt_mul_u64(numel, n.item_size, &nbytes) && nbytes == n.nbytes);
  FZ_REQUIRE(n.nbytes <= size);
  if (n.nbytes) {
    FZ_REQUIRE(n.data >= buf && (uint64_t)(n.data - buf) <= size - n.nbytes);
    fz_touch(n.data, n.nbytes);
  }
  /* Round trip: a C-order header for what was read must parse to the same. */
  if (!n.fortran_order) {
    uint8_t hdr[4096];
    size_t h = pf_npy_header(n.descr, n.dim, n.sizes, hdr, sizeof hdr);
    if (h && h <= sizeof hdr) {
      uint8_t *copy = malloc(h + (size_t)n.nbytes);
      if (copy) {
        memcpy(copy, hdr, h);
        if (n.nbytes) memcpy(copy + h, n.data, (size_t)n.nbytes);
        pf_npy m;
        st = pf_npy_parse(copy, h + (size_t)n.nbytes, &m, &err);
        FZ_REQUIRE(st == PTERA_OK);
        FZ_REQUIRE(m.dim == n.dim && m.numel == n.numel && m.nbytes == n.nbytes);
        FZ_REQUIRE(strcmp(m.descr, n.descr) == 0 && m.dtype == n.dtype);
        FZ_REQUIRE(memcmp(m.sizes, n.sizes, n.dim * sizeof n.sizes[0]) == 0);
        free(copy);
      }
    }
  }
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(npy)
