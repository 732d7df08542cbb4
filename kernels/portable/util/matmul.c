#include "portable/util/matmul.h"

void pk_matmul(const ptera_tensor *a, const ptera_tensor *b, ptera_tensor *out,
               const ptera_tensor *bias, double alpha, double beta) {
  size_t n = (size_t)a->sizes[0], k = (size_t)a->sizes[1], m = (size_t)b->sizes[1];
  int dt = out->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t as0 = a->strides[0] * es, as1 = a->strides[1] * es;
  ptrdiff_t bs0 = b->strides[0] * es, bs1 = b->strides[1] * es;
  ptrdiff_t os0 = out->strides[0] * es, os1 = out->strides[1] * es;
  ptrdiff_t cs0 = 0, cs1 = 0;
  if (bias) {
    /* broadcast bias to [n, m] */
    if (bias->dim == 2) {
      cs0 = bias->sizes[0] == 1 ? 0 : bias->strides[0] * es;
      cs1 = bias->sizes[1] == 1 ? 0 : bias->strides[1] * es;
    } else if (bias->dim == 1) {
      cs1 = bias->sizes[0] == 1 ? 0 : bias->strides[0] * es;
    }
  }
  const char *A = (const char *)a->data, *B = (const char *)b->data;
  const char *C = bias ? (const char *)bias->data : NULL;
  char *O = (char *)out->data;
  pk_ctype ct = pk_compute_type(dt);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < m; j++) {
      const char *ap = A + (ptrdiff_t)i * as0, *bp = B + (ptrdiff_t)j * bs1;
      char *op = O + (ptrdiff_t)i * os0 + (ptrdiff_t)j * os1;
      const char *cp = C ? C + (ptrdiff_t)i * cs0 + (ptrdiff_t)j * cs1 : NULL;
      if (ct == PK_CT_F32) {
        float acc = 0.0f;
        for (size_t q = 0; q < k; q++) {
          float p = pk_load_f32(ap + (ptrdiff_t)q * as1, dt) * pk_load_f32(bp + (ptrdiff_t)q * bs0, dt);
          acc += p;
        }
        if (cp) {
          float r = (float)alpha * acc;
          if (beta != 0.0) {
            float bb = (float)beta * pk_load_f32(cp, dt);
            r = r + bb;
          }
          acc = r;
        }
        pk_store_f32(op, dt, acc);
      } else if (ct == PK_CT_F64) {
        double acc = 0.0;
        for (size_t q = 0; q < k; q++) {
          double p = pk_load_f64(ap + (ptrdiff_t)q * as1, dt) * pk_load_f64(bp + (ptrdiff_t)q * bs0, dt);
          acc += p;
        }
        if (cp) acc = alpha * acc + (beta != 0.0 ? beta * pk_load_f64(cp, dt) : 0.0);
        pk_store_f64(op, dt, acc);
      } else {
        int64_t acc = 0;
        for (size_t q = 0; q < k; q++)
          acc = pk_wadd(acc, pk_wmul(pk_load_i64(ap + (ptrdiff_t)q * as1, dt),
                                     pk_load_i64(bp + (ptrdiff_t)q * bs0, dt)));
        if (cp) {
          acc = pk_wmul(pk_f64_to_i64(alpha), acc);
          if (beta != 0.0) acc = pk_wadd(acc, pk_wmul(pk_f64_to_i64(beta), pk_load_i64(cp, dt)));
        }
        pk_store_i64(op, dt, acc);
      }
    }
  }
}

ptera_status pk_matmul_check_dtypes(ptera_kernel_ctx *ctx, const char *op, const char *an,
                                    const ptera_tensor *a, const char *bn, const ptera_tensor *b,
                                    const ptera_tensor *out) {
  PK_TRY(pk_check_real(ctx, op, an, a));
  PK_TRY(pk_check_same_dtype(ctx, op, an, a, bn, b));
  return pk_check_same_dtype(ctx, op, an, a, "out", out);
}

ptera_status pk_matmul_get_args(ptera_kernel_ctx *ctx, const char *op, ptera_value **args,
                                size_t nargs, ptera_tensor **a, ptera_tensor **b,
                                ptera_tensor **out) {
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", a));
  PK_TRY(pk_get_tensor(ctx, op, args, 1, "mat2", b));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", out));
  return pk_matmul_check_dtypes(ctx, op, "self", *a, "mat2", *b, *out);
}
