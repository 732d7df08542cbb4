/* .npy (format 1.0/2.0/3.0) reading and writing, little-endian C order
 * (and Fortran order on read), for every dtype the formats use
 * (expected/README.md table). */
#ifndef PTERA_FORMAT_NPY_H
#define PTERA_FORMAT_NPY_H

#include "core/core.h"

typedef struct pf_npy {
  char descr[16];   /* as in the header, e.g. "<f4", "|b1", "|S5" */
  int dtype;        /* ptera_dtype guess from descr (-1 for strings/unknown) */
  size_t item_size; /* bytes per element */
  uint8_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  bool fortran_order;
  uint64_t numel;
  const uint8_t *data; /* points into the buffer given to pf_npy_parse */
  uint64_t nbytes;
} pf_npy;

/* Parses an .npy held in memory. InvalidArgument with a message on any
 * malformed header, unsupported descr, big-endian data, or short data. */
PT_FUNC ptera_status pf_npy_parse(const uint8_t *data, size_t size, pf_npy *out, pt_err *err);

/* numpy descr for a dtype ("<f4"); NULL when the dtype has none. BFloat16 is
 * "<u2" (raw bits), Bool "|b1". */
PT_FUNC const char *pf_npy_descr(int dtype);

/* Serialises a header (version 1.0, C order) for descr and shape into out
 * (cap bytes); returns the header length (a multiple of 64), 0 if cap is
 * too small. */
PT_FUNC size_t pf_npy_header(const char *descr, size_t dim, const int32_t *sizes, uint8_t *out,
                             size_t cap);

#endif
