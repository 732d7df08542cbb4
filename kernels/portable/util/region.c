#include <string.h>

#include "portable/util/region.h"

void pk_copy_region(void *dst, int ddt, const int64_t *dstr, int64_t doff, const void *src,
                    int sdt, const int64_t *sstr, int64_t soff, size_t ndim,
                    const int64_t *sizes) {
  size_t n = 0;
  int64_t sz[PK_REGION_MAX_DIM], ds[PK_REGION_MAX_DIM], ss[PK_REGION_MAX_DIM];
  int64_t idx[PK_REGION_MAX_DIM];
  for (size_t d = 0; d < ndim; d++) {
    if (sizes[d] == 0) return;
    if (sizes[d] == 1) continue;
    sz[n] = sizes[d];
    ds[n] = dstr[d];
    ss[n] = sstr[d];
    idx[n] = 0;
    n++;
  }
  size_t de = ptera_dtype_size(ddt), se = ptera_dtype_size(sdt);
  bool same = ddt == sdt;
  char *dp = (char *)dst;
  const char *sp = (const char *)src;
  int64_t o_d = doff, o_s = soff;
  for (;;) {
    if (same)
      memcpy(dp + o_d * (int64_t)de, sp + o_s * (int64_t)se, de);
    else
      pk_convert_elem(dp + o_d * (int64_t)de, ddt, sp + o_s * (int64_t)se, sdt);
    size_t d = n;
    for (;;) {
      if (d == 0) return;
      d--;
      if (++idx[d] < sz[d]) {
        o_d += ds[d];
        o_s += ss[d];
        break;
      }
      o_d -= ds[d] * (sz[d] - 1);
      o_s -= ss[d] * (sz[d] - 1);
      idx[d] = 0;
    }
  }
}

void pk_copy_view(ptera_tensor *out, const ptera_tensor *self, const int64_t *vstr, int64_t off) {
  if (out->numel == 0) return;
  int64_t sizes[PTERA_MAX_DIM], dstr[PTERA_MAX_DIM], sstr[PTERA_MAX_DIM];
  /* iterate in out's memory order so out is written sequentially */
  for (size_t i = 0; i < out->dim; i++) {
    size_t d = out->dim_order[i];
    sizes[i] = out->sizes[d];
    dstr[i] = out->strides[d];
    sstr[i] = vstr[d];
  }
  pk_copy_region(out->data, out->dtype, dstr, 0, self->data, self->dtype, sstr, off, out->dim,
                 sizes);
}

ptera_status pk_get_tensor_list(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t i, const char *name, ptera_tensor ***out, size_t *len) {
  const ptera_value *v = args[i];
  if (!v || v->tag != PTERA_TAG_LIST_TENSOR)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "%s: '%s' must be a TensorList, got %s", op,
                             name, v ? ptera_tag_name(v->tag) : "a missing value");
  size_t n = v->u.list.len;
  ptera_tensor **buf = (ptera_tensor **)ptera_kernel_temp(ctx, (n ? n : 1) * sizeof *buf,
                                                          _Alignof(ptera_tensor *));
  if (!buf)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: no temp memory for the %zu tensors of '%s'", op, n, name);
  for (size_t k = 0; k < v->u.list.len; k++) {
    ptera_value *item = v->u.list.items[k];
    ptera_value *one[1] = {item};
    PK_TRY(pk_get_tensor(ctx, op, one, 0, name, &buf[k]));
  }
  *out = buf;
  *len = n;
  return PTERA_OK;
}
