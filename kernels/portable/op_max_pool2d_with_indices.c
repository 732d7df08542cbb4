/* aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[],
 * int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out,
 * Tensor(b!) indices) -> (Tensor(a!), Tensor(b!)). self [C,H,W] or [N,C,H,W]; indices
 * (Long) are flat h*W+w offsets in each plane; NaN wins. */
#include "builtin.h"
#include "cpu/pool2d.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

ptera_status pk_max_pool2d_with_indices_out(ptera_kernel_ctx *ctx, ptera_value **args,
                                            size_t nargs) {
  static const char op[] = "aten::max_pool2d_with_indices.out";
  ptera_tensor *in, *out, *idx;
  bool ceil_mode;
  int64_t k[2], s[2], p[2], d[2];
  PK_TRY(pk_check_nargs(ctx, op, nargs, 9));
  PK_TRY(pk_get_tensor(ctx, op, args, 0, "self", &in));
  PK_TRY(pk_get_spatial(ctx, op, args, 1, "kernel_size", 2, 1, false, NULL, k));
  PK_TRY(pk_get_spatial(ctx, op, args, 2, "stride", 2, 1, true, k, s));
  PK_TRY(pk_get_spatial(ctx, op, args, 3, "padding", 2, 0, false, NULL, p));
  PK_TRY(pk_get_spatial(ctx, op, args, 4, "dilation", 2, 1, false, NULL, d));
  PK_TRY(pk_get_bool(ctx, op, args, 5, "ceil_mode", &ceil_mode));
  PK_TRY(pk_get_tensor(ctx, op, args, 6, "out", &out));
  PK_TRY(pk_get_tensor(ctx, op, args, 7, "indices", &idx));
  PK_TRY(pk_check_real(ctx, op, "self", in));
  PK_TRY(pk_check_same_dtype(ctx, op, "self", in, "out", out));
  PK_TRY(pk_check_dtype(ctx, op, "indices", idx, PTERA_DTYPE_LONG));
  int32_t sizes[4];
  PK_TRY(pk_pool_out_shape(ctx, op, in, k, s, p, d, ceil_mode, sizes));
  size_t b = in->dim - 3;
  int64_t N = b ? in->sizes[0] : 1, C = in->sizes[b], H = in->sizes[b + 1], W = in->sizes[b + 2];
  int64_t OH = sizes[b + 1], OW = sizes[b + 2];
  PK_TRY(pk_resize(ctx, op, "out", out, in->dim, sizes));
  PK_TRY(pk_resize(ctx, op, "indices", idx, in->dim, sizes));
  if (out->numel == 0) return PTERA_OK;
  if (in->dtype == PTERA_DTYPE_FLOAT && ptera_tensor_is_contiguous(in) && ptera_tensor_is_contiguous(out) &&
      ptera_tensor_is_contiguous(idx) && H * W <= INT32_MAX) { /* the f32 fast path */
    pk_maxpool2d_params mp = {(size_t)H, (size_t)W, (size_t)OH, (size_t)OW, (size_t)k[0], (size_t)k[1],
                              (size_t)s[0], (size_t)s[1], (size_t)d[0], (size_t)d[1], (size_t)p[0], (size_t)p[1]};
    pk_maxpool2d_f32(&mp, (size_t)(N * C), in->data, out->data, idx->data, ctx);
    return PTERA_OK;
  }
  int dt = in->dtype;
  ptrdiff_t es = (ptrdiff_t)ptera_dtype_size(dt);
  ptrdiff_t ist[4], ost[4];
  pk_nchw_strides(in, es, ist);
  pk_nchw_strides(out, es, ost);
  ptrdiff_t xs_n = b ? idx->strides[0] * 8 : 0, xs_c = idx->strides[b] * 8,
            xs_h = idx->strides[b + 1] * 8, xs_w = idx->strides[b + 2] * 8;
  bool fl = pk_is_float(dt);
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      const char *plane = (const char *)in->data + n * ist[0] + c * ist[1];
      for (int64_t oy = 0; oy < OH; oy++)
        for (int64_t ox = 0; ox < OW; ox++) {
          int64_t y0 = oy * s[0] - p[0], x0 = ox * s[1] - p[1];
          int64_t y1 = y0 + (k[0] - 1) * d[0] + 1, x1 = x0 + (k[1] - 1) * d[1] + 1;
          if (y1 > H) y1 = H;
          if (x1 > W) x1 = W;
          while (y0 < 0) y0 += d[0];
          while (x0 < 0) x0 += d[1];
          int64_t best = y0 * W + x0;
          double bf = -INFINITY;
          int64_t bi = INT64_MIN;
          bool first = true;
          for (int64_t y = y0; y < y1; y += d[0])
            for (int64_t x = x0; x < x1; x += d[1]) {
              const char *e = plane + y * ist[2] + x * ist[3];
              if (fl) {
                double v = pk_load_f64(e, dt);
                if ((v > bf || v != v) && bf == bf) {
                  bf = v;
                  best = y * W + x;
                }
              } else {
                int64_t v = pk_load_i64(e, dt);
                if (first || v > bi) {
                  bi = v;
                  best = y * W + x;
                }
              }
              first = false;
            }
          char *o = (char *)out->data + n * ost[0] + c * ost[1] + oy * ost[2] + ox * ost[3];
          if (fl)
            pk_store_f64(o, dt, bf);
          else
            pk_store_i64(o, dt, bi);
          *(int64_t *)((char *)idx->data + n * xs_n + c * xs_c + oy * xs_h + ox * xs_w) = best;
        }
    }
  return PTERA_OK;
}
