/* aten::embedding.out(Tensor weight, Tensor indices, int padding_idx=-1,
 * bool scale_grad_by_freq=False, bool sparse=False, *, Tensor(a!) out):
 * out[..., :] = weight[indices[...], :]. weight is 2-D; indices Long or Int of any
 * shape; out has indices' shape plus weight's row length. padding_idx and the
 * gradient flags only matter for the backward pass. */
#include "builtin.h"
#include "portable/util/index_ext.h"
#include "portable/util/pk.h"

ptera_status pk_embedding_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::embedding.out";
  ptera_tensor *w, *ix, *out;
  int64_t pad;
  bool sgf, sparse;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 7));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "weight", &w));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "indices", &ix));
  PK_TRY(pk_get_int(ctx, op, args, 2, "padding_idx", &pad));
  PK_TRY(pk_get_bool(ctx, op, args, 3, "scale_grad_by_freq", &sgf));
  PK_TRY(pk_get_bool(ctx, op, args, 4, "sparse", &sparse));
  PK_TRY(pk_get_tensor(ctx, op, args, 5, "out", &out));
  if (w->dim != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'weight' must be 2-D, got rank %u",
                             op, (unsigned)w->dim);
  if (ix->dtype != PTERA_DTYPE_LONG && ix->dtype != PTERA_DTYPE_INT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'indices' must be Long or Int, got %s", op,
                             ptera_dtype_name(ix->dtype));
  PK_TRY(pk_check_same_dtype(ctx, op, "weight", w, "out", out));
  if (ix->dim + 1 > PTERA_MAX_DIM)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'indices' rank %u is too large", op,
                             (unsigned)ix->dim);
  int32_t sizes[PTERA_MAX_DIM];
  for (size_t k = 0; k < ix->dim; k++) sizes[k] = ix->sizes[k];
  sizes[ix->dim] = w->sizes[1];
  /* check every index before resizing or writing */
  for (size_t n = 0; n < ix->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)ix->data + pk_flat_off(ix, n),
                             ix->dtype, w->sizes[0], false, &v));
  }
  PK_TRY(pk_resize(ctx, op, "out", out, ix->dim + 1u, sizes));
  if (out->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(w->dtype);
  int64_t ocol = out->strides[ix->dim], wcol = w->strides[1];
  ptrdiff_t wrow = (ptrdiff_t)w->strides[0] * (ptrdiff_t)es;
  int64_t D = w->sizes[1];
  for (size_t n = 0; n < ix->numel; n++) {
    int64_t v;
    PK_TRY(pk_read_index_any(ctx, op, "indices", (const char *)ix->data + pk_flat_off(ix, n),
                             ix->dtype, w->sizes[0], false, &v));
    /* out's logical position (n, 0): offset of row n over the leading dims */
    ptrdiff_t o = 0;
    size_t f = n;
    for (size_t k = ix->dim; k-- > 0;) {
      o += (ptrdiff_t)(f % (size_t)ix->sizes[k]) * (ptrdiff_t)out->strides[k];
      f /= (size_t)ix->sizes[k];
    }
    char *dst = (char *)out->data + o * (ptrdiff_t)es;
    const char *src = (const char *)w->data + v * wrow;
    pk_copy_run(dst, ocol, src, wcol, D, es); /* one memcpy for contiguous rows */
  }
  return PTERA_OK;
}
