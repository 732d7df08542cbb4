/* ptera — .npy arrays (numpy format 1.0, 2.0 and 3.0, little-endian), the
 * files bundled-program tools and `ptera run` exchange tensors in. The
 * reader verifies the whole header and that the data fits. */
#ifndef PTERA_NPY_H
#define PTERA_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An .npy held in memory. Initialise with PTERA_NPY_INFO_INIT. */
typedef struct ptera_npy_info {
  size_t struct_size; /* sizeof(ptera_npy_info) */
  char descr[16];     /* as in the header: "<f4", "|b1", "|S5" */
  int dtype;          /* the ptera_dtype descr stands for ("<u2": UInt16, also how BFloat16
                         travels); -1 for byte strings */
  size_t item_size;   /* bytes per element */
  size_t dim;
  int32_t sizes[PTERA_MAX_DIM];
  bool fortran_order; /* data in column-major order */
  uint64_t numel;
  const void *data;   /* into the bytes parsed: valid while they are */
  uint64_t nbytes;
  /* version 1 ends here */
} ptera_npy_info;

#define PTERA_NPY_INFO_INIT PTERA_STRUCT_INIT(ptera_npy_info)

/* Parses bytes[0..size). InvalidArgument for a malformed header, a descr
 * with no dtype, big-endian data or data shorter than the shape; the reason
 * goes into message (message_size bytes, NUL-terminated; may be NULL). */
PTERA_API ptera_status ptera_npy_parse(const void *bytes, size_t size, ptera_npy_info *out, char *message,
                                       size_t message_size);

/* The numpy descr of a dtype ("<f4"; BFloat16 as "<u2", its raw bits);
 * NULL for a dtype numpy cannot hold. */
PTERA_API const char *ptera_dtype_npy_descr(int dtype);

/* Writes a version 1.0, C-order header for descr and shape into out (cap
 * bytes); the array's bytes follow it. Returns its length (a multiple of
 * 64), or 0 when cap is too small, a size is negative, or descr is empty,
 * 16 bytes or longer, or holds a quote, a backslash or a control byte. */
PTERA_API size_t ptera_npy_write_header(const char *descr, size_t dim, const int32_t *sizes, void *out,
                                        size_t cap);

#ifdef __cplusplus
}
#endif
#endif
