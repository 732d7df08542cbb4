/* Fused convolution -> [batch norm] -> [clamp] (fused.h): the filters are
 * packed once (pk_conv2d_f32_pack) and the batch norm's constant statistics
 * fold into the packed filters (pk_conv2d_f32_pack_scale) and the bias at
 * prepare; a path that packs nothing (depthwise) reads a folded copy
 * instead. The activation is the convolution's clamp epilogue. f32, NCHW
 * contiguous, static shapes, not transposed; anything else declines and
 * runs as written. */
#include <math.h>
#include <string.h>

#include "cpu/conv2d.h"
#include "fused/fused.h"
#include "fused/fused_util.h"
#include "portable/util/pk.h"
#include "portable/util/pool_util.h"

typedef struct fc_state {
  pk_conv2d_geom g;
  const float *w;      /* what a path that packs nothing reads: folded, or the program's */
  const void *packed;  /* w packed, or NULL when the path reads w */
  const float *bias;   /* folded bias, the program's, or NULL */
  float min, max;
  size_t ws;           /* workspace bytes */
} fc_state;

/* A constant f32 vector of n values, or None (*t = NULL) when optional. */
static bool const_vec(ptera_value **args, size_t i, int64_t n, bool optional, const float **out) {
  *out = NULL;
  if (args[i]->tag == PTERA_TAG_NONE) return optional;
  const ptera_tensor *t = pk_fused_tensor(args, i);
  if (!pk_fused_f32(t) || !(t->flags & PTERA_TENSOR_CONST) || !t->data || t->dim != 1 ||
      (int64_t)t->numel != n)
    return false;
  *out = t->data;
  return true;
}

static bool shaped(const ptera_tensor *t, const pk_conv2d_geom *g) {
  return pk_fused_f32(t) && t->dim == 4 && t->sizes[0] == g->n && t->sizes[1] == g->c_out &&
         t->sizes[2] == g->oh && t->sizes[3] == g->ow;
}

/* The geometry from convolution's arguments; false when the fast path does
 * not take it. */
static bool geometry(ptera_value **args, pk_conv2d_geom *g) {
  static const char op[] = "aten::convolution.out";
  const ptera_tensor *in = pk_fused_tensor(args, PK_FC_IN), *w = pk_fused_tensor(args, PK_FC_W);
  if (!pk_fused_f32(in) || !pk_fused_f32(w) || in->dim != 4 || w->dim != 4 || !w->data ||
      !(w->flags & PTERA_TENSOR_CONST) || args[PK_FC_TRANSPOSED]->tag != PTERA_TAG_BOOL ||
      args[PK_FC_TRANSPOSED]->u.b || args[PK_FC_GROUPS]->tag != PTERA_TAG_INT)
    return false;
  int64_t st[2], pd[2], dl[2];
  if (pk_get_spatial(NULL, op, args, PK_FC_STRIDE, "stride", 2, 1, false, NULL, st) != PTERA_OK ||
      pk_get_spatial(NULL, op, args, PK_FC_PAD, "padding", 2, 0, false, NULL, pd) != PTERA_OK ||
      pk_get_spatial(NULL, op, args, PK_FC_DIL, "dilation", 2, 1, false, NULL, dl) != PTERA_OK)
    return false;
  memset(g, 0, sizeof *g);
  g->n = in->sizes[0];
  g->c_in = in->sizes[1];
  g->h = in->sizes[2];
  g->w = in->sizes[3];
  g->c_out = w->sizes[0];
  g->groups = args[PK_FC_GROUPS]->u.i;
  g->kh = w->sizes[2];
  g->kw = w->sizes[3];
  for (int i = 0; i < 2; i++) {
    g->stride[i] = st[i];
    g->pad[i] = pd[i];
    g->dil[i] = dl[i];
  }
  g->layout = PK_CONV_NCHW;
  char why[160];
  if (g->groups < 1 || g->c_in % g->groups || g->c_out % g->groups ||
      (int64_t)w->sizes[1] * g->groups != g->c_in || pk_conv2d_geom_init(g, why, sizeof why) != PTERA_OK)
    return false;
  return pk_conv2d_f32_supported(g);
}

/* The batch norm's constant statistics. */
typedef struct bn_consts {
  const float *w, *b, *mean, *var; /* w, b may be NULL */
  double eps;
} bn_consts;

/* false when the statistics are not constants that fold. */
static bool bn_get(ptera_value **args, int64_t c_out, bn_consts *bn) {
  memset(bn, 0, sizeof *bn);
  if (!const_vec(args, PK_FC_BN_W, c_out, true, &bn->w) || !const_vec(args, PK_FC_BN_B, c_out, true, &bn->b) ||
      !const_vec(args, PK_FC_BN_MEAN, c_out, false, &bn->mean) ||
      !const_vec(args, PK_FC_BN_VAR, c_out, false, &bn->var) || args[PK_FC_BN_EPS]->tag != PTERA_TAG_DOUBLE)
    return false;
  bn->eps = args[PK_FC_BN_EPS]->u.d;
  return true;
}

#define FC_SCALE_CHUNK 256 /* output channels scaled per call (2 KiB of stack) */

/* Folds y = (x + b - mean) * w / sqrt(var + eps) + beta (double
 * arithmetic, as the portable batch norm) into the bias, and into the
 * filters: into their packed form when the path packs them (no folded copy
 * is kept beside it), else into a folded copy the path reads. */
static ptera_status fold(ptera_kernel_prepare_ctx *ctx, ptera_value **args, fc_state *s, const bn_consts *bn,
                         const float *b, void *packed) {
  const pk_conv2d_geom *g = &s->g;
  const ptera_tensor *w = pk_fused_tensor(args, PK_FC_W);
  size_t per = w->numel / (size_t)g->c_out, C = (size_t)g->c_out;
  float *bf = ptera_kernel_prepare_alloc(ctx, C * sizeof(float), 64), *wf = NULL;
  if (bf && !packed) wf = ptera_kernel_prepare_alloc(ctx, w->numel * sizeof(float), 64);
  if (!bf || (!packed && !wf))
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "%s: out of memory for the folded filters", ptera_kernel_prepare_op_name(ctx));
  const float *w0 = w->data;
  double sc[FC_SCALE_CHUNK];
  for (size_t oc0 = 0; oc0 < C; oc0 += FC_SCALE_CHUNK) {
    size_t n = C - oc0 < FC_SCALE_CHUNK ? C - oc0 : FC_SCALE_CHUNK;
    for (size_t i = 0; i < n; i++) {
      size_t oc = oc0 + i;
      sc[i] = 1.0 / sqrt((double)bn->var[oc] + bn->eps) * (bn->w ? (double)bn->w[oc] : 1.0);
      bf[oc] = (float)(((b ? (double)b[oc] : 0.0) - (double)bn->mean[oc]) * sc[i] + (bn->b ? (double)bn->b[oc] : 0.0));
      for (size_t k = 0; wf && k < per; k++) wf[oc * per + k] = (float)((double)w0[oc * per + k] * sc[i]);
    }
    if (packed) pk_conv2d_f32_pack_scale(g, packed, oc0, n, sc);
  }
  if (wf) s->w = wf;
  s->bias = bf;
  return PTERA_OK;
}

ptera_status pk_fused_conv_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != PK_FC_NARGS) return PTERA_OK;
  fc_state s;
  memset(&s, 0, sizeof s);
  const float *b;
  const ptera_tensor *co = pk_fused_tensor(args, PK_FC_CONV_OUT), *out = pk_fused_tensor(args, PK_FC_OUT);
  if (!geometry(args, &s.g) || !const_vec(args, PK_FC_B, s.g.c_out, true, &b) || !shaped(co, &s.g) ||
      !shaped(out, &s.g) || !(co->flags & PTERA_TENSOR_PLANNED) || !co->data ||
      args[PK_FC_MIN]->tag != PTERA_TAG_DOUBLE || args[PK_FC_MAX]->tag != PTERA_TAG_DOUBLE)
    return PTERA_OK;
  bn_consts bn;
  bool has_bn = args[PK_FC_BN_MEAN]->tag != PTERA_TAG_NONE;
  if (has_bn && !bn_get(args, s.g.c_out, &bn)) return PTERA_OK; /* runs as written */
  s.w = pk_fused_tensor(args, PK_FC_W)->data;
  s.bias = b;
  s.min = (float)args[PK_FC_MIN]->u.d;
  s.max = (float)args[PK_FC_MAX]->u.d;
  size_t pack = pk_conv2d_f32_pack_size(&s.g);
  s.ws = pk_conv2d_f32_workspace(&s.g, ptera_kernel_prepare_thread_count(ctx));
  if (pack == SIZE_MAX || s.ws == SIZE_MAX) return PTERA_OK;
  fc_state *st = ptera_kernel_prepare_alloc(ctx, sizeof *st, 16);
  void *packed = pack ? ptera_kernel_prepare_alloc(ctx, pack, 64) : NULL;
  if (!st || (pack && !packed))
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                                     "%s: out of memory for the packed filters", ptera_kernel_prepare_op_name(ctx));
  if (pack) pk_conv2d_f32_pack(&s.g, s.w, packed);
  if (has_bn) {
    ptera_status rc = fold(ctx, args, &s, &bn, b, packed);
    if (rc != PTERA_OK) return rc;
  }
  s.packed = packed;
  *st = s;
  ptera_kernel_prepare_workspace(ctx, s.ws);
  ptera_kernel_prepare_set_state(ctx, st);
  return PTERA_OK;
}

ptera_status pk_fused_conv_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  const fc_state *s = ptera_kernel_state(ctx);
  if (!s || nargs != PK_FC_NARGS)
    return ptera_kernel_fail(ctx, PTERA_INTERNAL, "%s: not prepared", ptera_kernel_op_name(ctx));
  const ptera_tensor *in = args[PK_FC_IN]->u.tensor;
  ptera_tensor *out = args[PK_FC_OUT]->u.tensor, *co = args[PK_FC_CONV_OUT]->u.tensor;
  void *ws = s->ws ? ptera_kernel_temp(ctx, s->ws, 64) : NULL;
  if (s->ws && !ws)
    return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED,
                             "%s: needs %zu bytes of kernel scratch (raise ptera_method_options.temp_size)",
                             ptera_kernel_op_name(ctx), s->ws);
  size_t nin = in->numel * sizeof(float), nout = out->numel * sizeof(float);
  /* The planner may give out the input's memory (the input dies at the
   * convolution): then compute into the convolution's own output first. */
  bool stage = pk_fused_overlap(in->data, nin, out->data, nout);
  float *dst = stage ? co->data : out->data;
  pk_conv2d_f32(&s->g, in->data, s->w, s->packed, s->bias, dst, s->min, s->max, ws, ctx);
  if (stage) memmove(out->data, dst, nout);
  return PTERA_OK;
}
