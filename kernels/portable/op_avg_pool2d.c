/* aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[],
 * int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True,
 * int? divisor_override=None, *, Tensor(a!) out). self [C,H,W] or [N,C,H,W].
 * Each window's sum (float for half/bfloat16/float, double for double, int64 for
 * integers) is divided by divisor_override, or by the window's size including
 * padding (count_include_pad) or not; integers divide truncating. Contiguous
 * float32 takes the fast path (kernels/cpu/pool2d.h). */
#include "builtin.h"
#include "cpu/pool2d.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

ptera_status pk_avg_pool2d_out(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::avg_pool2d.out";
  ptera_tensor *in, *out;
  bool ceil_mode, include_pad, has_div;
  int64_t k[2], s[2], p[2], div = 0;
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_spatial(ctx, op, args, 1, "kernel_size", 2, 1, false, NULL, k));
  PK_TRY(pk_get_spatial(ctx, op, args, 2, "stride", 2, 1, true, k, s));
  PK_TRY(pk_get_spatial(ctx, op, args, 3, "padding", 2, 0, false, NULL, p));
  PK_TRY(pk_get_bool(ctx, op, args, 4, "ceil_mode", &ceil_mode));
  PK_TRY(pk_get_bool(ctx, op, args, 5, "count_include_pad", &include_pad));
  PK_TRY(pk_get_opt_int(ctx, op, args, 6, "divisor_override", &div, &has_div));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "out", &out));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  if (has_div && div == 0)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: 'divisor_override' must not be 0",
                             op);
  static const int64_t one[2] = {1, 1};
  int32_t sizes[4];
  PK_TRY(pk_pool_out_shape(ctx, op, in, k, s, p, one, ceil_mode, sizes));
  size_t b = in->dim - 3;
  int64_t N = b ? in->sizes[0] : 1, C = in->sizes[b], H = in->sizes[b + 1], W = in->sizes[b + 2];
  int64_t OH = sizes[b + 1], OW = sizes[b + 2];
  PK_TRY(pk_resize(ctx, op, "out", out, in->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  if (in->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(in) && ptera_tensor_is_contiguous(out)) {
    pk_avgpool2d_params ap = {(size_t)H, (size_t)W, (size_t)OH, (size_t)OW, (size_t)k[0], (size_t)k[1],
                              (size_t)s[0], (size_t)s[1], (size_t)p[0], (size_t)p[1], has_div ? div : 0, include_pad};
    pk_avgpool2d_f32(&ap, (size_t)(N * C), in->data, out->data, ctx);
    return PTERA_OK;
  }
  int dt = in->dtype;
  pk_ctype ct = pk_compute_type(dt);
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t ist[4], ost[4];
  pk_nchw_strides(in, es, ist);
  pk_nchw_strides(out, es, ost);
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      const char *plane = (const char *)in->data + n * ist[0] + c * ist[1];
      for (int64_t oy = 0; oy < OH; oy++)
        for (int64_t ox = 0; ox < OW; ox++) {
          int64_t y0 = oy * s[0] - p[0], x0 = ox * s[1] - p[1];
          int64_t y1 = y0 + k[0], x1 = x0 + k[1];
          if (y1 > H + p[0]) y1 = H + p[0];
          if (x1 > W + p[1]) x1 = W + p[1];
          int64_t padded = (y1 - y0) * (x1 - x0);
          if (y0 < 0) y0 = 0;
          if (x0 < 0) x0 = 0;
          if (y1 > H) y1 = H;
          if (x1 > W) x1 = W;
          int64_t divisor = has_div ? div : include_pad ? padded : (y1 - y0) * (x1 - x0);
          char *o = (char *)out->data + n * ost[0] + c * ost[1] + oy * ost[2] + ox * ost[3];
          switch (ct) {
            case PK_CT_F32: {
              float acc = 0.0f;
              for (int64_t y = y0; y < y1; y++)
                for (int64_t x = x0; x < x1; x++) acc += pk_load_f32(plane + y * ist[2] + x * ist[3], dt);
              pk_store_f32(o, dt, divisor ? acc / (float)divisor : NAN);
              break;
            }
            case PK_CT_F64: {
              double acc = 0.0;
              for (int64_t y = y0; y < y1; y++)
                for (int64_t x = x0; x < x1; x++) acc += pk_load_f64(plane + y * ist[2] + x * ist[3], dt);
              pk_store_f64(o, dt, divisor ? acc / (double)divisor : NAN);
              break;
            }
            default: {
              int64_t acc = 0;
              for (int64_t y = y0; y < y1; y++)
                for (int64_t x = x0; x < x1; x++)
                  acc = pk_wadd(acc, pk_load_i64(plane + y * ist[2] + x * ist[3], dt));
              int64_t q = divisor == 0 || (divisor == -1 && acc == INT64_MIN) ? 0 : acc / divisor;
              pk_store_i64(o, dt, q);
              break;
            }
          }
        }
    }
  return PTERA_OK;
}
