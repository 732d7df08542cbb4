/* One rule per fp32 operator of the Cortex-M lowering (to_cortex_m.h); the
 * argument lists are those of CORTEX_M.md 3, the out tensor last. */
#include <math.h>
#include <string.h>

#include "to_cortex_m_impl.h"

#define ALLOC(n) pt_alloc(c->g->allocator, (n), 16)
#define FREE(p) pt_free(c->g->allocator, (p))

typedef struct lctx {
  pc_cm_ctx *c;
  uint32_t k;
  const int32_t *a; /* the node's arguments (copied: the node list grows) */
  uint32_t n;
} lctx;

static const pc_gvalue *V(const lctx *l, uint32_t i) { return &l->c->g->values[l->a[i]]; }

static bool get_int(const lctx *l, uint32_t i, int64_t *v) {
  if (i >= l->n || V(l, i)->kind != PC_G_INT) return false;
  *v = V(l, i)->u.i;
  return true;
}

/* A list of 2 ints (a single one repeated; none -> dflt). */
static bool get_pair(const lctx *l, uint32_t i, int64_t out[2], const int64_t *dflt) {
  if (i >= l->n) return false;
  const pc_gvalue *x = V(l, i);
  if (x->kind != PC_G_INTS || x->u.ints.len > 2) return false;
  if (x->u.ints.len == 0) {
    if (!dflt) return false;
    out[0] = dflt[0], out[1] = dflt[1];
    return true;
  }
  out[0] = x->u.ints.items[0];
  out[1] = x->u.ints.items[x->u.ints.len - 1];
  return true;
}

/* An int or double argument equal to 1. */
static bool is_one(const lctx *l, uint32_t i) {
  const pc_gvalue *x = V(l, i);
  return (x->kind == PC_G_INT && x->u.i == 1) || (x->kind == PC_G_DOUBLE && x->u.d == 1.0);
}

static bool is_none(const lctx *l, uint32_t i) { return i < l->n && V(l, i)->kind == PC_G_NONE; }

static const pc_gtensor *const_float(const lctx *l, uint32_t i) {
  if (i >= l->n) return NULL;
  const pc_gvalue *x = V(l, i);
  if (x->kind != PC_G_TENSOR || x->u.t.store != PC_T_CONST || x->u.t.dtype != PTERA_DTYPE_FLOAT)
    return NULL;
  return &x->u.t;
}

static bool float_act(const lctx *l, uint32_t i) {
  return i < l->n && V(l, i)->kind == PC_G_TENSOR && V(l, i)->u.t.dtype == PTERA_DTYPE_FLOAT;
}

/* Output params: the calibrated range of the final value (after a fused
 * ReLU, whose lower clamp is the zero point). */
typedef struct outq {
  int32_t final, relu;
  pc_qparams qp;
  int64_t lo, hi;
} outq;

static ptera_status out_params(lctx *l, int32_t out, bool fuse, outq *o) {
  o->relu = fuse ? pc_cm_fuse_relu(l->c, out, &o->final) : -1;
  if (!fuse) o->final = out;
  ptera_status st = pc_cm_measured(l->c, l->k, o->final, &o->qp);
  o->lo = o->relu >= 0 && o->qp.zero_point > -128 ? o->qp.zero_point : -128;
  o->hi = 127;
  return st;
}

/* ---- weights ---- */

static float channel_scale(const float *w, size_t n) {
  float lo = 0, hi = 0;
  for (size_t i = 0; i < n; i++) lo = w[i] < lo ? w[i] : lo, hi = w[i] > hi ? w[i] : hi;
  return pc_qscale_symmetric_i8(lo, hi);
}

/* Requantization and bias of each output channel: mult/shift from
 * s_in * s_w[oc] / s_out (in double, as the exporter's Python), bias in
 * int32 at s_in * s_w[oc] (float32, as PT2E's derived bias spec). */
static ptera_status channel_params(lctx *l, uint32_t nc, const float *sw, float s_in,
                                   float s_out, const pc_gtensor *bias, int32_t *mult,
                                   int32_t *shift, int32_t *qb) {
  const float *b = bias ? (const float *)bias->data : NULL;
  for (uint32_t oc = 0; oc < nc; oc++) {
    ptera_status st = pc_cm_multiplier(l->c, l->k, (double)s_in * (double)sw[oc] / (double)s_out,
                                       &mult[oc], &shift[oc]);
    if (st != PTERA_OK) return st;
    if (qb) qb[oc] = b ? (int32_t)pc_quantize_value(b[oc], s_in * sw[oc], 0, INT32_MIN, INT32_MAX) : 0;
  }
  return PTERA_OK;
}

/* ---- convolution ---- */

static ptera_status lower_conv(lctx *l) {
  pc_cm_ctx *c = l->c;
  int64_t stride[2], pad[2], dil[2], groups;
  const pc_gtensor *w = const_float(l, 1), *bias = is_none(l, 2) ? NULL : const_float(l, 2);
  if (l->n != 10 || !float_act(l, 0) || !w || w->dim != 4 || (!bias && !is_none(l, 2)))
    return pc_cm_fail(c, l->k, "it needs a float input, a constant 4-D weight and a constant or "
                               "no bias");
  if (V(l, 6)->kind != PC_G_BOOL || V(l, 6)->u.b) return pc_cm_fail(c, l->k, "it is transposed");
  if (!get_pair(l, 3, stride, NULL) || !get_pair(l, 4, pad, NULL) || !get_pair(l, 5, dil, NULL) ||
      !get_int(l, 8, &groups) || V(l, 0)->u.t.dim != 4)
    return pc_cm_fail(c, l->k, "it is not a 2-D convolution with constant geometry");
  const pc_gtensor in = V(l, 0)->u.t;
  uint32_t oc_n = (uint32_t)w->sizes[0], icg = (uint32_t)w->sizes[1];
  uint32_t kh = (uint32_t)w->sizes[2], kw = (uint32_t)w->sizes[3], ic = (uint32_t)in.sizes[1];
  bool depthwise = groups == ic && groups > 1 && icg == 1 && oc_n % ic == 0 && in.sizes[0] == 1;
  outq o;
  ptera_status st = out_params(l, l->a[9], true, &o);
  if (st != PTERA_OK) return st;
  pc_qparams qin = c->qp[l->a[0]];
  int32_t x = pc_cm_input(c, l->k, l->a[0], true);
  if (x < 0) return c->g->err.status;

  size_t per = (size_t)icg * kh * kw, nw = per * oc_n;
  float *sw = ALLOC(oc_n * sizeof *sw);
  int8_t *qw = ALLOC(nw ? nw : 1);
  int32_t *mult = ALLOC(3 * (size_t)oc_n * sizeof *mult);
  if (!sw || !qw || !mult) {
    FREE(sw), FREE(qw), FREE(mult);
    return pc_cm_oom(c);
  }
  int32_t *shift = mult + oc_n, *qb = shift + oc_n;
  const float *wf = (const float *)w->data;
  for (uint32_t oc = 0; oc < oc_n; oc++) sw[oc] = channel_scale(wf + oc * per, per);
  /* OIHW -> OHWI ([OC, KH, KW, IC/g]); depthwise [OC, 1, KH, KW] -> [1, KH, KW, OC]. */
  for (uint32_t oc = 0; oc < oc_n; oc++)
    for (uint32_t i = 0; i < icg; i++)
      for (uint32_t y = 0; y < kh; y++)
        for (uint32_t xx = 0; xx < kw; xx++) {
          float v = wf[((oc * icg + i) * kh + y) * kw + xx];
          size_t at = depthwise ? ((size_t)y * kw + xx) * oc_n + oc
                                : (((size_t)oc * kh + y) * kw + xx) * icg + i;
          qw[at] = (int8_t)pc_quantize_value(v, sw[oc], 0, -127, 127);
        }
  st = channel_params(l, oc_n, sw, qin.scale, o.qp.scale, bias, mult, shift, qb);
  int32_t wsz[4] = {(int32_t)oc_n, (int32_t)kh, (int32_t)kw, (int32_t)icg};
  if (depthwise) wsz[0] = 1, wsz[3] = (int32_t)oc_n;
  int32_t nsz = (int32_t)oc_n;
  int32_t wv = pc_cm_const(c, PTERA_DTYPE_CHAR, 4, wsz, qw, nw);
  /* The exporter passes no bias only for an ungrouped convolution. */
  int32_t bv = bias || groups > 1 ? pc_cm_const(c, PTERA_DTYPE_INT, 1, &nsz, qb, 4 * (size_t)oc_n)
                                  : pc_graph_none(c->g);
  int32_t mv = pc_cm_const(c, PTERA_DTYPE_INT, 1, &nsz, mult, 4 * (size_t)oc_n);
  int32_t sv = pc_cm_const(c, PTERA_DTYPE_INT, 1, &nsz, shift, 4 * (size_t)oc_n);
  FREE(sw), FREE(qw), FREE(mult);
  if (st != PTERA_OK) return st;
  /* Scratch: 4 bytes per element of one im2col column (CMSIS-NN's largest,
   * the MVE path, is below this); depthwise per channel block of the window. */
  size_t cols = (per + 15) / 16 * 16;
  size_t scratch = depthwise ? 4 * (size_t)kh * kw * (oc_n > 124 ? oc_n : 124) : 4 * cols;
  int32_t y = pc_cm_new_act(c, o.final, o.qp);
  int32_t common[3] = {pc_cm_ints(c, stride, 2), pc_cm_ints(c, pad, 2), pc_cm_ints(c, dil, 2)};
  int32_t io = pc_cm_int(c, -qin.zero_point), oo = pc_cm_int(c, o.qp.zero_point);
  int32_t lo = pc_cm_int(c, o.lo), hi = pc_cm_int(c, o.hi), sc = pc_cm_scratch(c, scratch);
  if (depthwise) {
    int32_t args[15] = {x,  wv, bv, common[0], common[1], common[2], pc_cm_int(c, oc_n / ic),
                        io, oo, mv, sv,        lo,        hi,        sc,  y};
    return pc_cm_emit(c, "cortex_m::quantized_depthwise_conv2d.out", args, 15);
  }
  int32_t args[14] = {x, wv, bv, common[0], common[1], common[2], io, oo, mv, sv, lo, hi, sc, y};
  return pc_cm_emit(c, "cortex_m::quantized_conv2d.out", args, 14);
}

/* ---- linear ---- */

static ptera_status lower_linear(lctx *l, const char *name) {
  pc_cm_ctx *c = l->c;
  uint32_t xi, wi, bi = UINT32_MAX, oi = l->n - 1;
  bool transposed; /* weight stored [K, N] (mm/addmm) rather than [N, K] (linear) */
  if (strcmp(name, "linear") == 0 && l->n == 4) xi = 0, wi = 1, bi = 2, transposed = false;
  else if (strcmp(name, "mm") == 0 && l->n == 3) xi = 0, wi = 1, transposed = true;
  else if (l->n == 6) {
    if (!is_one(l, 3) || !is_one(l, 4)) return pc_cm_fail(c, l->k, "beta and alpha must be 1");
    xi = 1, wi = 2, bi = 0, transposed = true;
  } else {
    return pc_cm_fail(c, l->k, "unexpected arguments");
  }
  const pc_gtensor *w = const_float(l, wi);
  const pc_gtensor *bias = bi == UINT32_MAX || is_none(l, bi) ? NULL : const_float(l, bi);
  if (!float_act(l, xi) || !w || w->dim != 2 || (bi != UINT32_MAX && !is_none(l, bi) && !bias))
    return pc_cm_fail(c, l->k, "it needs a float input, a constant 2-D weight and a constant or "
                               "no bias");
  uint32_t nout = (uint32_t)w->sizes[transposed ? 1 : 0], kin = (uint32_t)w->sizes[transposed ? 0 : 1];
  if (bias && (bias->dim != 1 || (uint32_t)bias->sizes[0] != nout))
    return pc_cm_fail(c, l->k, "the bias must be 1-D with one entry per output feature");
  outq o;
  ptera_status st = out_params(l, l->a[oi], true, &o);
  if (st != PTERA_OK) return st;
  pc_qparams qin = c->qp[l->a[xi]];
  int32_t x = pc_cm_input(c, l->k, l->a[xi], false);
  if (x < 0) return c->g->err.status;
  size_t nw = (size_t)nout * kin;
  int8_t *qw = ALLOC(nw ? nw : 1);
  int32_t *qb = ALLOC(((size_t)nout + 2) * sizeof *qb);
  if (!qw || !qb) {
    FREE(qw), FREE(qb);
    return pc_cm_oom(c);
  }
  const float *wf = (const float *)w->data;
  /* quantized_linear reads one multiplier: the weight is per tensor. */
  float sw = channel_scale(wf, nw);
  for (uint32_t o2 = 0; o2 < nout; o2++)
    for (uint32_t i = 0; i < kin; i++)
      qw[(size_t)o2 * kin + i] =
          (int8_t)pc_quantize_value(wf[transposed ? (size_t)i * nout + o2 : (size_t)o2 * kin + i],
                                    sw, 0, -127, 127);
  const float *bf = bias ? (const float *)bias->data : NULL;
  for (uint32_t o2 = 0; bf && o2 < nout; o2++)
    qb[o2] = (int32_t)pc_quantize_value(bf[o2], qin.scale * sw, 0, INT32_MIN, INT32_MAX);
  int32_t mult, shift;
  st = pc_cm_multiplier(c, l->k, (double)qin.scale * (double)sw / (double)o.qp.scale, &mult,
                        &shift);
  int32_t wsz[2] = {(int32_t)nout, (int32_t)kin}, bsz = (int32_t)nout;
  int32_t wv = pc_cm_const(c, PTERA_DTYPE_CHAR, 2, wsz, qw, nw);
  int32_t bv = bias ? pc_cm_const(c, PTERA_DTYPE_INT, 1, &bsz, qb, 4 * (size_t)nout)
                    : pc_graph_none(c->g);
  FREE(qw), FREE(qb);
  if (st != PTERA_OK) return st;
  int64_t m64 = mult, s64 = shift;
  int32_t y = pc_cm_new_act(c, o.final, o.qp);
  int32_t args[12] = {x,
                      wv,
                      bv,
                      pc_graph_none(c->g), /* kernel_sum: non-MVE convention */
                      pc_cm_int(c, -qin.zero_point),
                      pc_cm_int(c, 0),
                      pc_cm_int(c, o.qp.zero_point),
                      pc_cm_ints(c, &m64, 1),
                      pc_cm_ints(c, &s64, 1),
                      pc_cm_int(c, o.hi), /* activation_max before activation_min */
                      pc_cm_int(c, o.lo),
                      y};
  return pc_cm_emit(c, "cortex_m::quantized_linear.out", args, 12);
}

/* ---- elementwise add ---- */

static ptera_status lower_add(lctx *l) {
  pc_cm_ctx *c = l->c;
  int64_t alpha;
  if (l->n != 4 || !float_act(l, 0) || !float_act(l, 1) || !get_int(l, 2, &alpha) || alpha != 1)
    return pc_cm_fail(c, l->k, "it needs two float tensors and alpha 1");
  const pc_gtensor *ta = &V(l, 0)->u.t, *tb = &V(l, 1)->u.t;
  if (ta->dim != tb->dim || memcmp(ta->sizes, tb->sizes, ta->dim * sizeof *ta->sizes) != 0)
    return pc_cm_fail(c, l->k, "the operands must have equal shapes (no broadcasting)");
  outq o;
  ptera_status st = out_params(l, l->a[3], true, &o);
  if (st != PTERA_OK) return st;
  pc_qparams qa = c->qp[l->a[0]], qb = c->qp[l->a[1]];
  int32_t a = pc_cm_input(c, l->k, l->a[0], true), b = a < 0 ? -1 : pc_cm_input(c, l->k, l->a[1], true);
  if (a < 0 || b < 0) return c->g->err.status;
  /* CORTEX_M.md 3.3: inputs rescaled to twice the larger scale, 20 bits up. */
  double big = 2.0 * (qa.scale > qb.scale ? qa.scale : qb.scale);
  int32_t m1, s1, m2, s2, mo, so;
  if ((st = pc_cm_multiplier(c, l->k, qa.scale / big, &m1, &s1)) != PTERA_OK ||
      (st = pc_cm_multiplier(c, l->k, qb.scale / big, &m2, &s2)) != PTERA_OK ||
      (st = pc_cm_multiplier(c, l->k, big / ((double)o.qp.scale * 1048576.0), &mo, &so)) != PTERA_OK)
    return st;
  int32_t y = pc_cm_new_act(c, o.final, o.qp);
  int32_t args[14] = {a, pc_cm_int(c, qa.zero_point), pc_cm_int(c, m1), pc_cm_int(c, s1),
                      b, pc_cm_int(c, qb.zero_point), pc_cm_int(c, m2), pc_cm_int(c, s2),
                      pc_cm_int(c, o.qp.zero_point), pc_cm_int(c, mo), pc_cm_int(c, so),
                      pc_cm_int(c, o.lo), pc_cm_int(c, o.hi), y};
  return pc_cm_emit(c, "cortex_m::quantized_add.out", args, 14);
}

/* ---- pooling ---- */

static ptera_status lower_avg_pool(lctx *l) {
  pc_cm_ctx *c = l->c;
  int64_t kernel[2], stride[2], pad[2];
  if (l->n != 8 || !float_act(l, 0) || V(l, 0)->u.t.dim != 4 || !get_pair(l, 1, kernel, NULL) ||
      !get_pair(l, 2, stride, kernel) || !get_pair(l, 3, pad, NULL) || V(l, 4)->kind != PC_G_BOOL ||
      V(l, 5)->kind != PC_G_BOOL)
    return pc_cm_fail(c, l->k, "it is not a 2-D average pool with constant geometry");
  if ((pad[0] || pad[1]) && V(l, 5)->u.b)
    return pc_cm_fail(c, l->k, "padding counted in the average (count_include_pad) is not lowered");
  if (!is_none(l, 6)) return pc_cm_fail(c, l->k, "divisor_override is not supported");
  pc_qparams q = c->qp[l->a[0]];
  int32_t x = pc_cm_input(c, l->k, l->a[0], true);
  if (x < 0) return c->g->err.status;
  int32_t y = pc_cm_new_act(c, l->a[7], q); /* the input's quantization */
  int32_t m, s;
  ptera_status st = pc_cm_multiplier(c, l->k, 1.0, &m, &s); /* unused by the kernel */
  if (st != PTERA_OK) return st;
  int32_t args[10] = {x, pc_cm_ints(c, kernel, 2), pc_cm_ints(c, stride, 2),
                      pc_cm_ints(c, pad, 2), pc_graph_bool(c->g, V(l, 4)->u.b),
                      pc_cm_int(c, q.zero_point), pc_cm_int(c, m), pc_cm_int(c, s),
                      pc_cm_scratch(c, 4 * (size_t)V(l, 0)->u.t.sizes[1]), y};
  return pc_cm_emit(c, "cortex_m::quantized_avg_pool2d.out", args, 10);
}

static ptera_status lower_max_pool(lctx *l) {
  pc_cm_ctx *c = l->c;
  int64_t kernel[2], stride[2], pad[2], dil[2];
  if (l->n != 8 || !float_act(l, 0) || V(l, 0)->u.t.dim != 4 || !get_pair(l, 1, kernel, NULL) ||
      !get_pair(l, 2, stride, kernel) || !get_pair(l, 3, pad, NULL) ||
      !get_pair(l, 4, dil, NULL) || V(l, 5)->kind != PC_G_BOOL)
    return pc_cm_fail(c, l->k, "it is not a 2-D max pool with constant geometry");
  if (dil[0] != 1 || dil[1] != 1 || V(l, 5)->u.b)
    return pc_cm_fail(c, l->k, "dilation must be 1 and ceil_mode false");
  int32_t ind = l->a[7];
  if (c->readers[ind] || c->is_output[ind])
    return pc_cm_fail(c, l->k, "its indices are used");
  pc_qparams q = c->qp[l->a[0]];
  int32_t x = pc_cm_input(c, l->k, l->a[0], true);
  if (x < 0) return c->g->err.status;
  int32_t y = pc_cm_new_act(c, l->a[6], q);
  int32_t zp = pc_cm_int(c, q.zero_point);
  int32_t args[11] = {x, pc_cm_ints(c, kernel, 2), pc_cm_ints(c, stride, 2),
                      pc_cm_ints(c, pad, 2), pc_cm_ints(c, dil, 2), pc_graph_bool(c->g, false),
                      zp, zp, pc_cm_int(c, -128), pc_cm_int(c, 127), y};
  return pc_cm_emit(c, "cortex_m::quantized_max_pool2d.out", args, 11);
}

/* ---- softmax, views ---- */

static ptera_status lower_softmax(lctx *l) {
  pc_cm_ctx *c = l->c;
  int64_t dim;
  if (l->n != 4 || !float_act(l, 0) || !get_int(l, 1, &dim))
    return pc_cm_fail(c, l->k, "unexpected arguments");
  int64_t rank = V(l, 0)->u.t.dim;
  if (dim != -1 && dim != rank - 1) return pc_cm_fail(c, l->k, "it must run over the last dim");
  pc_qparams qin = c->qp[l->a[0]];
  int32_t x = pc_cm_input(c, l->k, l->a[0], false);
  if (x < 0) return c->g->err.status;
  /* CORTEX_M.md 3.9 (5 integer bits): the input rescaled to Q5.26. */
  double real = (double)qin.scale * 67108864.0;
  int32_t m, s;
  ptera_status st = pc_cm_multiplier(c, l->k, real < 2147483647.0 ? real : 2147483647.0, &m, &s);
  if (st != PTERA_OK) return st;
  int64_t diff_min = -(int64_t)floor(31.0 * 67108864.0 / ldexp(1.0, s));
  pc_qparams out = {1.0f / 256.0f, -128};
  int32_t y = pc_cm_new_act(c, l->a[3], out);
  int32_t args[8] = {x, pc_cm_int(c, -1), pc_cm_int(c, qin.zero_point), pc_cm_int(c, -128),
                     pc_cm_int(c, m), pc_cm_int(c, s), pc_cm_int(c, diff_min), y};
  return pc_cm_emit(c, "cortex_m::softmax.out", args, 8);
}

static ptera_status lower_view(lctx *l) {
  pc_cm_ctx *c = l->c;
  if (l->n != 3 || !float_act(l, 0)) return pc_cm_fail(c, l->k, "unexpected arguments");
  int32_t x = pc_cm_input(c, l->k, l->a[0], false); /* views read logical order */
  if (x < 0) return c->g->err.status;
  const pc_gtensor *t = &c->g->values[l->a[2]].u.t;
  if (t->dim == 4 && t->sizes[1] != 1 && !(t->sizes[2] == 1 && t->sizes[3] == 1))
    return pc_cm_fail(c, l->k, "a view to a 4-D channels-last shape is not lowered");
  int32_t y = pc_cm_new_act(c, l->a[2], c->qp[l->a[0]]);
  int32_t args[3] = {x, l->a[1], y};
  return pc_cm_emit(c, "aten::view_copy.out", args, 3);
}

ptera_status pc_cm_lower_call(pc_cm_ctx *c, uint32_t k) {
  const pc_gnode *n = &c->g->nodes[k];
  int32_t args[16];
  if (n->nargs > 16) return pc_cm_fail(c, k, "too many arguments");
  memcpy(args, n->args, n->nargs * sizeof *args);
  lctx l = {c, k, args, n->nargs};
  const char *op = n->op;
  if (strcmp(op, "aten::convolution.out") == 0) return lower_conv(&l);
  if (strcmp(op, "aten::linear.out") == 0) return lower_linear(&l, "linear");
  if (strcmp(op, "aten::mm.out") == 0) return lower_linear(&l, "mm");
  if (strcmp(op, "aten::addmm.out") == 0) return lower_linear(&l, "addmm");
  if (strcmp(op, "aten::add.out") == 0) return lower_add(&l);
  if (strcmp(op, "aten::avg_pool2d.out") == 0) return lower_avg_pool(&l);
  if (strcmp(op, "aten::max_pool2d_with_indices.out") == 0) return lower_max_pool(&l);
  if (strcmp(op, "aten::_softmax.out") == 0) return lower_softmax(&l);
  if (strcmp(op, "aten::view_copy.out") == 0) return lower_view(&l);
  if (strcmp(op, "aten::relu.out") == 0)
    return pc_cm_fail(c, k, "a ReLU is lowered only fused into the convolution, linear or add "
                            "whose result it alone reads");
  return pc_cm_fail(c, k, "the operator is not lowered to cortex_m");
}
