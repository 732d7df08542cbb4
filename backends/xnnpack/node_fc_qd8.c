/* FullyConnected with a dynamically quantized qdint8 input (docs/XNNPACK.md
 * §6.4): filter qcint8 (zero point 0) or qcint4 (zero point 8) with one
 * scale per output channel, or qbint4 blockwise (zero point 8, bf16 scales
 * per block of group_size inputs, §6.3); bias fp32 or none; output fp32.
 * Integer accumulation, then fp32 in this order:
 *   per channel: y = (float(acc) * s_row) * w_scale[o] + bias[o]
 *   blockwise:   y = (sum_b float(acc_b) * w_scale[o][b]) * s_row + bias[o]   (blocks in order)
 * with acc = sum_k (q[k] - zp_row)(w[o][k] - w_zp), then clamp to output_min/max.
 * The sums run on the qs8 dot micro-kernels (kernels/cpu/ukernels/gemm_qs8),
 * 256 k at a time, added in int64 (exact for any size). */
#include <math.h>

#include "xnnpack/xnn_quant.h"

ptera_status px_fc_qd8_check(px_graph *g, const pf_xnn_node *n, size_t oc) {
  const px_value *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  if ((w->dt != PF_XNN_DT_QCINT8 && w->dt != PF_XNN_DT_QCINT4 && w->dt != PF_XNN_DT_QBINT4) ||
      o->dt != PF_XNN_DT_FP32 || (b && b->dt != PF_XNN_DT_FP32))
    return px_fail(g, PTERA_NOT_IMPLEMENTED, "FullyConnected qdint8 x %s -> %s (bias %s) is not implemented",
                   pf_xnn_dtype_name(w->dt), pf_xnn_dtype_name(o->dt), b ? pf_xnn_dtype_name(b->dt) : "none");
  size_t rows, rowlen, ic = w->dims[tw ? 0 : 1];
  ptera_status st = px_qd8_input(g, n->in[0], &rows, &rowlen);
  if (st != PTERA_OK) return st;
  if (ic && rowlen % ic)
    return px_fail(g, PTERA_INVALID_PROGRAM, "dynamic quantization rows of %zu elements split the %zu input features",
                   rowlen, ic);
  if (w->dt != PF_XNN_DT_QBINT4) {
    if (w->def->quant != PF_XNN_Q_PER_CHANNEL || w->nscales != oc)
      return px_fail(g, PTERA_INVALID_PROGRAM, "%s filter needs %zu per-channel scales", pf_xnn_dtype_name(w->dt), oc);
    return PTERA_OK;
  }
  size_t bs = w->def->group_size > 0 ? (size_t)w->def->group_size : 0;
  if (tw) return px_fail(g, PTERA_NOT_IMPLEMENTED, "qbint4 filter with TRANSPOSE_WEIGHTS is not implemented");
  if (w->def->quant != PF_XNN_Q_CHANNEL_GROUP || !bs || bs % 32 || ic % bs || w->def->channel_dim != 0)
    return px_fail(g, PTERA_INVALID_PROGRAM,
                   "qbint4 filter needs blockwise parameters on channel dim 0 with a group size that is a multiple "
                   "of 32 and divides the %zu input features (group size %d)", ic, (int)w->def->group_size);
  if (!w->bscales || w->nbscales != oc * (ic / bs))
    return px_fail(g, PTERA_INVALID_PROGRAM, "qbint4 filter has %u block scales, needs %zu x %zu",
                   (unsigned)w->nbscales, oc, ic / bs);
  return PTERA_OK;
}

/* Filter element (o, k) without its zero point. */
static int32_t wload(const px_value *w, bool tw, size_t ic, size_t oc, size_t o, size_t k) {
  if (w->dt == PF_XNN_DT_QCINT8) return ((const int8_t *)w->data)[tw ? k * oc + o : o * ic + k];
  return (tw ? px_u4load(w->data, oc, k, o) : px_u4load(w->data, ic, o, k)) - 8;
}

#define CHUNK 256 /* k per micro-kernel call; filter rows other than plain qcint8 are unpacked this far */

/* The integer sums of row xr (zero point za) with filter channels c0..c0+nc-1
 * (nc <= 4) over k in [k0, k1). */
static void sums(const px_value *w, bool tw, size_t ic, size_t oc, size_t c0, size_t nc, const int8_t *xr,
                 int32_t za, size_t k0, size_t k1, pk_qs8_dot4_fn dot4, int64_t *acc) {
  int8_t buf[4 * CHUNK];
  bool direct = w->dt == PF_XNN_DT_QCINT8 && !tw && nc == 4;
  for (size_t k = k0; k < k1; k += CHUNK) {
    size_t kn = k1 - k < CHUNK ? k1 - k : CHUNK;
    int32_t d[4];
    if (direct) {
      dot4(kn, xr + k, za, (const int8_t *)w->data + c0 * ic + k, ic, d);
    } else {
      for (size_t j = 0; j < 4; j++)
        for (size_t t = 0; t < kn; t++) buf[j * CHUNK + t] = j < nc ? (int8_t)wload(w, tw, ic, oc, c0 + j, k + t) : 0;
      dot4(kn, xr + k, za, buf, CHUNK, d);
    }
    for (size_t j = 0; j < 4; j++) acc[j] += d[j];
  }
}

void px_fc_qd8_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]], *o = &g->v[n->out[0]];
  const float *bias = n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data;
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS, blockwise = w->dt == PF_XNN_DT_QBINT4;
  size_t ic = x->dims[x->ndims - 1], oc = o->dims[o->ndims - 1];
  size_t M = ic ? px_numel(x) / ic : px_numel(o) / (oc ? oc : 1), rows, rowlen;
  if (px_qd8_rows(g, x, &rows, &rowlen) != PTERA_OK) return; /* checked by reshape */
  const px_qd8_param *prm = px_qd8_params(x);
  const int8_t *xq = x->data;
  float *y = o->data;
  size_t bs = blockwise ? (size_t)w->def->group_size : ic, nb = blockwise ? ic / bs : 1;
  pk_qs8_dot4_fn dot4 = px_qs8_dot4();
  for (size_t m = 0; m < M; m++) {
    px_qd8_param p = ic ? prm[m * ic / rowlen] : (px_qd8_param){0, 1.0f};
    const int8_t *xr = xq + m * ic;
    for (size_t c0 = 0; c0 < oc; c0 += 4) {
      size_t nc = oc - c0 < 4 ? oc - c0 : 4;
      float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (size_t blk = 0; blk < nb; blk++) {
        int64_t acc[4] = {0, 0, 0, 0};
        sums(w, tw, ic, oc, c0, nc, xr, p.zero_point, blk * bs, (blk + 1) * bs, dot4, acc);
        for (size_t j = 0; j < nc; j++) { /* one rounding per statement: no fused multiply-add */
          float t = (float)acc[j] * (blockwise ? pt_bf16_to_float(w->bscales[(c0 + j) * nb + blk]) : p.scale);
          if (blockwise) v[j] += t;
          else v[j] = t * w->scales[c0 + j];
        }
      }
      for (size_t j = 0; j < nc; j++) {
        float r = blockwise ? v[j] * p.scale : v[j];
        r += bias ? bias[c0 + j] : 0.0f;
        y[m * oc + c0 + j] = px_clampf(r, n->out_min, n->out_max);
      }
    }
  }
}
