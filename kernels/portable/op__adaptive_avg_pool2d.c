/* aten::_adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *,
 * Tensor(a!) out). self [C,H,W] or [N,C,H,W] (floating); output cell (i, j)
 * averages rows floor(i*H/OH) .. ceil((i+1)*H/OH) and likewise for columns,
 * summed in float (double for double). */
#include "builtin.h"
#include "cpu/pool2d.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

ptera_status pk_adaptive_avg_pool2d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::_adaptive_avg_pool2d.out";
  ptera_tensor *in, *out;
  int64_t os[2];
  size_t n_os;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 4));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_int_list(ctx, op, args, 1, "output_size", os, 2, &n_os));
  PK_TRY(pk_get_tensor(ctx, op, args, 2, "out", &out));
  PK_TRY(pk_check_float(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  if (n_os != 2)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_size' must have 2 entries",
                             op);
  if (in->dim != 3 && in->dim != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'self' must have rank 3 or 4, got %u",
                             op, (unsigned)in->dim);
  size_t b = in->dim - 3;
  for (size_t i = b + 1; i < in->dim; i++)
    if (in->sizes[i] == 0)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: 'self' has an empty spatial dim %zu", op, i);
  if (os[0] < 0 || os[1] < 0 || os[0] > INT32_MAX || os[1] > INT32_MAX)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'output_size' [%lld, %lld] is invalid",
                             op, (long long)os[0], (long long)os[1]);
  int64_t N = b ? in->sizes[0] : 1, C = in->sizes[b], H = in->sizes[b + 1], W = in->sizes[b + 2];
  int64_t OH = os[0], OW = os[1];
  int32_t sizes[4];
  pk_pool_shape(in, OH, OW, sizes);
  PK_TRY(pk_resize(ctx, op, "out", out, in->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  if (OH == 1 && OW == 1 && in->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(in) &&
      ptera_tensor_is_contiguous(out)) { /* global average pool, the f32 fast path */
    pk_gavgpool_f32(in->data, out->data, (size_t)(N * C), (size_t)(H * W), ctx);
    return PTERA_OK;
  }
  int dt = in->dtype;
  bool f64 = pk_compute_type(dt) == PK_CT_F64;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t ist[4], ost[4];
  pk_nchw_strides(in, es, ist);
  pk_nchw_strides(out, es, ost);
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      const char *plane = (const char *)in->data + n * ist[0] + c * ist[1];
      for (int64_t oy = 0; oy < OH; oy++) {
        int64_t y0 = oy * H / OH, y1 = ((oy + 1) * H + OH - 1) / OH;
        for (int64_t ox = 0; ox < OW; ox++) {
          int64_t x0 = ox * W / OW, x1 = ((ox + 1) * W + OW - 1) / OW;
          int64_t cnt = (y1 - y0) * (x1 - x0);
          char *o = (char *)out->data + n * ost[0] + c * ost[1] + oy * ost[2] + ox * ost[3];
          if (f64) {
            double acc = 0.0;
            for (int64_t y = y0; y < y1; y++)
              for (int64_t x = x0; x < x1; x++) acc += pk_load_f64(plane + y * ist[2] + x * ist[3], dt);
            pk_store_f64(o, dt, acc / (double)cnt);
          } else {
            float acc = 0.0f;
            for (int64_t y = y0; y < y1; y++)
              for (int64_t x = x0; x < x1; x++) acc += pk_load_f32(plane + y * ist[2] + x * ist[3], dt);
            pk_store_f32(o, dt, acc / (float)cnt);
          }
        }
      }
    }
  return PTERA_OK;
}
