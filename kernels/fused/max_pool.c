/* Fused max pool (fused.h): max_pool2d_with_indices when nothing reads the
 * indices runs the pool micro-kernels without them (kernels/cpu/pool2d.h:
 * the same values, no index computed or stored). f32, contiguous, static;
 * anything else declines and runs as written. */
#include "cpu/pool2d.h"
#include "fused/fused.h"
#include "fused/fused_util.h"
#include "portable/util/pool_util.h"

typedef struct fm_state {
  pk_maxpool2d_params p;
  size_t planes;
} fm_state;

ptera_status pk_fused_maxpool_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  static const char op[] = "aten::max_pool2d_with_indices.out";
  if (nargs != PK_FM_NARGS) return PTERA_OK;
  const ptera_tensor *in = pk_fused_tensor(args, PK_FM_IN), *out = pk_fused_tensor(args, PK_FM_OUT);
  if (!pk_fused_f32(in) || !pk_fused_f32(out) || (in->dim != 3 && in->dim != 4) || out->dim != in->dim ||
      args[PK_FM_CEIL]->tag != PTERA_TAG_BOOL)
    return PTERA_OK;
  int64_t k[2], s[2], p[2], d[2];
  if (pk_get_spatial(NULL, op, args, PK_FM_K, "kernel_size", 2, 1, false, NULL, k) != PTERA_OK ||
      pk_get_spatial(NULL, op, args, PK_FM_S, "stride", 2, 1, true, k, s) != PTERA_OK ||
      pk_get_spatial(NULL, op, args, PK_FM_P, "padding", 2, 0, false, NULL, p) != PTERA_OK ||
      pk_get_spatial(NULL, op, args, PK_FM_D, "dilation", 2, 1, false, NULL, d) != PTERA_OK)
    return PTERA_OK;
  size_t b = in->dim - 3;
  int64_t H = in->sizes[b + 1], W = in->sizes[b + 2];
  bool ceil = args[PK_FM_CEIL]->u.b;
  int64_t OH = pk_pool_out_size(H, k[0], s[0], p[0], d[0], ceil), OW = pk_pool_out_size(W, k[1], s[1], p[1], d[1], ceil);
  for (size_t i = 0; i <= b; i++)
    if (out->sizes[i] != in->sizes[i]) return PTERA_OK;
  if (p[0] > k[0] / 2 || p[1] > k[1] / 2 || OH <= 0 || OW <= 0 || out->sizes[b + 1] != OH ||
      out->sizes[b + 2] != OW || H * W > INT32_MAX)
    return PTERA_OK; /* the op says what is wrong */
  fm_state *st = ptera_kernel_prepare_alloc(ctx, sizeof *st, 16);
  if (!st)
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "%s: out of memory",
                                     ptera_kernel_prepare_op_name(ctx));
  st->p = (pk_maxpool2d_params){(size_t)H, (size_t)W, (size_t)OH, (size_t)OW, (size_t)k[0], (size_t)k[1],
                                (size_t)s[0], (size_t)s[1], (size_t)d[0], (size_t)d[1], (size_t)p[0], (size_t)p[1]};
  st->planes = (size_t)((b ? in->sizes[0] : 1) * in->sizes[b]);
  ptera_kernel_prepare_set_state(ctx, st);
  return PTERA_OK;
}

ptera_status pk_fused_maxpool_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fm_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FM_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  if (s->planes && s->p.oh && s->p.ow)
    pk_maxpool2d_f32(&s->p, s->planes, args[PK_FM_IN]->u.tensor->data, args[PK_FM_OUT]->u.tensor->data, NULL, ctx);
  return PTERA_OK;
}
