/* aten::roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out):
 * out[(i + shift) mod size] = self[i] along each listed dim (repeated dims add up);
 * with no dims, self is rolled as a flat row-major sequence by shifts[0]. */
#include "builtin.h"
#include "portable/util/pk.h"

/* (a mod m) in [0, m) for m > 0. */
static int64_t pmod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

ptera_status pk_roll_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::roll.out";
  ptera_tensor *self, *out;
  int64_t shifts[PTERA_MAX_DIM], dims[PTERA_MAX_DIM];
  size_t ns, nd;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 5));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &self));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "shifts", shifts, PTERA_MAX_DIM, &ns));
  PK_TRY(pk_get_int_list(ctx, op, args, 2, "dims", dims, PTERA_MAX_DIM, &nd));
  PK_TRY(pk_get_tensor(ctx, op, args, 3, "out", &out));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", self, "out", out));
  if (nd == 0 ? ns != 1 : ns != nd)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                             "%s: 'shifts' has %zu entries but 'dims' has %zu", op, ns, nd);
  int64_t shift[PTERA_MAX_DIM] = {0};
  for (size_t i = 0; i < nd; i++) {
    size_t d;
    PK_TRY(pk_norm_dim(ctx, op, "dims", dims[i], self->dim, &d));
    if (self->dim > 0 && self->sizes[d] > 0)
      shift[d] = pmod(shift[d] + pmod(shifts[i], self->sizes[d]), self->sizes[d]);
  }
  PK_TRY(pk_resize_like(ctx, op, "out", out, self));
  if (out->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(self->dtype), n = self->dim;
  char *dst = (char *)out->data;
  const char *src = (const char *)self->data;
  size_t oi[PTERA_MAX_DIM] = {0}, si[PTERA_MAX_DIM] = {0};
  if (nd == 0) {
    /* flat: out logical k <- self logical (k - shift) mod numel */
    size_t start = (size_t)pmod(-pmod(shifts[0], (int64_t)self->numel), (int64_t)self->numel);
    for (size_t d = n; d-- > 0;) {
      si[d] = start % (size_t)self->sizes[d];
      start /= (size_t)self->sizes[d];
    }
  }
  for (size_t k = 0; k < out->numel; k++) {
    int64_t doff = 0, soff = 0;
    for (size_t d = 0; d < n; d++) {
      doff += (int64_t)oi[d] * out->strides[d];
      size_t s = nd == 0 ? si[d] : (size_t)pmod((int64_t)oi[d] - shift[d], self->sizes[d]);
      soff += (int64_t)s * self->strides[d];
    }
    memcpy(dst + doff * (int64_t)es, src + soff * (int64_t)es, es);
    for (size_t d = n; d-- > 0;) {
      if (++oi[d] < (size_t)out->sizes[d]) break;
      oi[d] = 0;
    }
    if (nd == 0) {
      for (size_t d = n; d-- > 0;) {
        if (++si[d] < (size_t)self->sizes[d]) break;
        si[d] = 0;
      }
    }
  }
  return PTERA_OK;
}
