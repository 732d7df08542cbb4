/* The public .npy API (ptera/npy.h) over the format layer's reader and
 * header writer. */
#include "format/npy.h"
#include "ptera/npy.h"

static ptera_status parse(const void *bytes, size_t size, ptera_npy_info *out, pt_err *err) {
  if (!out) return pt_fail(err, PTERA_INVALID_ARGUMENT, "no ptera_npy_info to fill");
  if (!bytes) return pt_fail(err, PTERA_INVALID_ARGUMENT, "no bytes given");
  pf_npy npy;
  ptera_status st = pf_npy_parse(bytes, size, &npy, err);
  if (st != PTERA_OK) return st;
  ptera_npy_info info = PTERA_NPY_INFO_INIT;
  memcpy(info.descr, npy.descr, sizeof info.descr);
  info.dtype = npy.dtype;
  info.item_size = npy.item_size;
  info.dim = npy.dim;
  memcpy(info.sizes, npy.sizes, sizeof info.sizes);
  info.fortran_order = npy.fortran_order;
  info.numel = npy.numel;
  info.data = npy.data;
  info.nbytes = npy.nbytes;
  if (pt_struct_out(out, &info, sizeof info, sizeof info) != PTERA_OK)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "ptera_npy_info.struct_size is %zu; initialise it with PTERA_NPY_INFO_INIT",
                   out->struct_size);
  return PTERA_OK;
}

ptera_status ptera_npy_parse(const void *bytes, size_t size, ptera_npy_info *out, char *message,
                             size_t message_size) {
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = parse(bytes, size, out, &err);
  pt_err_copy(&err, message, message_size);
  return st;
}

const char *ptera_dtype_npy_descr(int dtype) { return pf_npy_descr(dtype); }

size_t ptera_npy_write_header(const char *descr, size_t dim, const int32_t *sizes, void *out, size_t cap) {
  return out ? pf_npy_header(descr, dim, sizes, out, cap) : 0;
}
