/* FullyConnected with a dynamically quantized qdint8 input (docs/XNNPACK.md
 * §6.4): filter qcint8 (zero point 0) or qcint4 (zero point 8) with one
 * scale per output channel, or qbint4 blockwise (zero point 8, bf16 scales
 * per block of group_size inputs, §6.3); bias fp32 or none; output fp32.
 * Integer accumulation, then fp32 in this order:
 *   per channel: y = (float(acc) * s_row) * w_scale[o] + bias[o]
 *   blockwise:   y = (sum_b float(acc_b) * w_scale[o][b]) * s_row + bias[o]   (blocks in order)
 * with acc = sum_k (q[k] - zp_row)(w[o][k] - w_zp), then clamp to output_min/max.
 *
 * At init the filter (4-bit ones widened to int8, zero point removed) is
 * packed into qs8 GEMM panels (kernels/cpu/ukernels/gemm_qs8/qs8.h) of 16
 * channels over segments of the inputs: one block each (blockwise), at most
 * PK_QS8_GEMM_MAX_KC inputs. The run splits the 16-channel tiles over the
 * threads; per tile, 4 rows at a time, each segment's int32 sums come from
 * the micro-kernel of the selected ISA, the zero point is taken off with
 * the panel's filter sums (sum (q - zp) w = sum q w - zp sum w), segments
 * add up in int64 (exact for any size), then the fp32 epilogue above. */
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
typedef struct wsrc {
  const px_value *w;
  bool tw;
  size_t ic, oc, c0, k0;
} wsrc;

static int8_t wget(const void *ctx, size_t j, size_t k) {
  const wsrc *s = ctx;
  size_t o = s->c0 + j, kk = s->k0 + k;
  if (s->w->dt == PF_XNN_DT_QCINT8) return ((const int8_t *)s->w->data)[s->tw ? kk * s->oc + o : o * s->ic + kk];
  const uint8_t *p = s->w->data;
  return (int8_t)((s->tw ? px_u4load(p, s->oc, kk, o) : px_u4load(p, s->ic, o, kk)) - 8);
}

typedef struct seg {
  size_t k0, kn, kc, off; /* inputs [k0, k0 + kn) in a kc-wide panel at off within a tile */
  size_t blk;             /* the block it belongs to (0 per channel) */
} seg;

typedef struct qd8_state {
  const uint8_t *packed; /* tiles of PK_QS8_NR channels, tile_bytes each */
  size_t tile_bytes;
  seg *segs;
  size_t nseg, nb, bs;
  float *bscale; /* blockwise: [tile][nb][NR] fp32 of the bf16 scales (0 past oc) */
} qd8_state;

static size_t round4(size_t k) { return (k + 3) & ~(size_t)3; }

ptera_status px_fc_qd8_prepare(px_graph *g, const pf_xnn_node *n) {
  const px_value *w = &g->v[n->in[1]];
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS, blockwise = w->dt == PF_XNN_DT_QBINT4;
  size_t ic = w->dims[tw ? 0 : 1], oc = w->dims[tw ? 1 : 0];
  size_t bs = blockwise ? (size_t)w->def->group_size : (ic ? ic : 1), nb = ic / bs;
  size_t per_blk = (bs + PK_QS8_GEMM_MAX_KC - 1) / PK_QS8_GEMM_MAX_KC, nseg = nb * per_blk;
  qd8_state *s = px_packed_alloc(g, sizeof *s);
  if (!s || !(s->segs = px_packed_alloc(g, (nseg ? nseg : 1) * sizeof *s->segs))) return PTERA_MEMORY_ALLOCATION_FAILED;
  size_t off = 0;
  for (size_t b = 0, i = 0; b < nb; b++)
    for (size_t k = 0; k < bs; k += PK_QS8_GEMM_MAX_KC, i++) {
      size_t kn = bs - k < PK_QS8_GEMM_MAX_KC ? bs - k : PK_QS8_GEMM_MAX_KC;
      s->segs[i] = (seg){b * bs + k, kn, round4(kn), off, b};
      off += pk_qs8_panel_bytes(round4(kn));
    }
  size_t tiles = (oc + PK_QS8_NR - 1) / PK_QS8_NR;
  s->tile_bytes = off;
  s->nseg = nseg;
  s->nb = nb;
  s->bs = bs;
  s->bscale = NULL;
  uint8_t *p = tiles && off ? px_packed_alloc(g, tiles * off) : NULL;
  if (tiles && off && !p) return PTERA_MEMORY_ALLOCATION_FAILED;
  for (size_t t = 0; t < tiles; t++)
    for (size_t i = 0; i < nseg; i++) {
      wsrc src = {w, tw, ic, oc, t * PK_QS8_NR, s->segs[i].k0};
      size_t nc = oc - t * PK_QS8_NR < PK_QS8_NR ? oc - t * PK_QS8_NR : PK_QS8_NR;
      pk_qs8_pack_panel(nc, s->segs[i].kn, s->segs[i].kc, wget, &src, p + t * off + s->segs[i].off);
    }
  s->packed = p;
  if (blockwise) {
    size_t cnt = tiles * nb * PK_QS8_NR;
    if (!(s->bscale = px_packed_alloc(g, (cnt ? cnt : 1) * sizeof(float)))) return PTERA_MEMORY_ALLOCATION_FAILED;
    for (size_t o = 0; o < oc; o++)
      for (size_t b = 0; b < nb; b++)
        s->bscale[((o / PK_QS8_NR) * nb + b) * PK_QS8_NR + o % PK_QS8_NR] = pt_bf16_to_float(w->bscales[o * nb + b]);
  }
  g->state[g->cur] = s;
  return PTERA_OK;
}

/* Bytes of scratch the run takes: zero-padded copies of the input rows when
 * their length is not a multiple of 4 (the micro-kernels read 4 at a time). */
size_t px_fc_qd8_workspace(const px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  size_t ic = x->ndims ? x->dims[x->ndims - 1] : 0, M = ic ? px_numel(x) / ic : 0;
  if (ic % 4 == 0) return 0;
  return M > SIZE_MAX / round4(ic) ? SIZE_MAX : M * round4(ic);
}

typedef struct qd8_job {
  const pf_xnn_node *n;
  const qd8_state *s;
  const px_value *w;
  const int8_t *xq;
  size_t lda;
  const px_qd8_param *prm;
  size_t M, ic, oc, rowlen;
  const float *bias;
  float *y;
  pk_qs8_gemm_fn gemm;
} qd8_job;

/* Blockwise filters whose blocks are one segment each (group sizes up to
 * PK_QS8_GEMM_MAX_KC): the block's sum is exact in int32 (|sum q w| and
 * |zp sum w| are at most 2^14 kc each), then the same fp32 steps as
 * tile_rows, 16 channels at a time. */
static void tile_rows_blocks(const qd8_job *j, size_t t, size_t m0, size_t mr, const px_qd8_param *p) {
  const qd8_state *s = j->s;
  const uint8_t *tp = s->packed + t * s->tile_bytes;
  size_t c0 = t * PK_QS8_NR, nc = j->oc - c0 < PK_QS8_NR ? j->oc - c0 : PK_QS8_NR;
  float v[PK_QS8_MR][PK_QS8_NR] = {{0}};
  for (size_t i = 0; i < s->nseg; i++) {
    const seg *sg = &s->segs[i];
    const uint8_t *panel = tp + sg->off;
    const float *bsc = s->bscale + (t * s->nb + i) * PK_QS8_NR;
    int32_t ks[PK_QS8_NR], c[PK_QS8_MR][PK_QS8_NR];
    memcpy(ks, panel + sg->kc * PK_QS8_NR, sizeof ks);
    j->gemm(mr, sg->kc, j->xq + m0 * j->lda + sg->k0, j->lda, panel, &c[0][0], PK_QS8_NR);
    for (size_t m = 0; m < mr; m++) {
      int32_t zp = p[m].zero_point;
      for (size_t q = 0; q < PK_QS8_NR; q++) { /* one rounding per statement: no fused multiply-add */
        float tb = (float)(c[m][q] - zp * ks[q]) * bsc[q];
        v[m][q] += tb;
      }
    }
  }
  for (size_t m = 0; m < mr; m++)
    for (size_t q = 0; q < nc; q++) {
      float r = v[m][q] * p[m].scale;
      r += j->bias ? j->bias[c0 + q] : 0.0f;
      j->y[(m0 + m) * j->oc + c0 + q] = px_clampf(r, j->n->out_min, j->n->out_max);
    }
}

/* Rows [m0, m0 + mr) x channel tile t. */
static void tile_rows(const qd8_job *j, size_t t, size_t m0, size_t mr) {
  const qd8_state *s = j->s;
  const uint8_t *tp = s->packed + t * s->tile_bytes;
  bool blockwise = s->bscale != NULL;
  size_t c0 = t * PK_QS8_NR, nc = j->oc - c0 < PK_QS8_NR ? j->oc - c0 : PK_QS8_NR;
  px_qd8_param p[PK_QS8_MR];
  for (size_t m = 0; m < mr; m++) p[m] = j->ic ? j->prm[(m0 + m) * j->ic / j->rowlen] : (px_qd8_param){0, 1.0f};
  if (blockwise && s->nseg == s->nb) {
    tile_rows_blocks(j, t, m0, mr, p);
    return;
  }
  int64_t acc[PK_QS8_MR][PK_QS8_NR] = {{0}};
  float v[PK_QS8_MR][PK_QS8_NR] = {{0}};
  for (size_t i = 0; i < s->nseg; i++) {
    const seg *sg = &s->segs[i];
    const uint8_t *panel = tp + sg->off;
    int32_t ks[PK_QS8_NR], c[PK_QS8_MR][PK_QS8_NR];
    memcpy(ks, panel + sg->kc * PK_QS8_NR, sizeof ks);
    j->gemm(mr, sg->kc, j->xq + m0 * j->lda + sg->k0, j->lda, panel, &c[0][0], PK_QS8_NR);
    for (size_t m = 0; m < mr; m++)
      for (size_t q = 0; q < nc; q++) acc[m][q] += (int64_t)c[m][q] - (int64_t)p[m].zero_point * ks[q];
    if (!blockwise || i + 1 == s->nseg || s->segs[i + 1].blk != sg->blk) { /* the block (or all of K) is summed */
      for (size_t m = 0; m < mr; m++)
        for (size_t q = 0; q < nc; q++) {
          if (blockwise) { /* one rounding per statement: no fused multiply-add */
            float tb = (float)acc[m][q] * s->bscale[(t * s->nb + sg->blk) * PK_QS8_NR + q];
            v[m][q] += tb;
          } else {
            float tr = (float)acc[m][q] * p[m].scale;
            v[m][q] = tr * j->w->scales[c0 + q];
          }
          acc[m][q] = 0;
        }
    }
  }
  for (size_t m = 0; m < mr; m++)
    for (size_t q = 0; q < nc; q++) {
      float r = blockwise ? v[m][q] * p[m].scale : v[m][q];
      r += j->bias ? j->bias[c0 + q] : 0.0f;
      j->y[(m0 + m) * j->oc + c0 + q] = px_clampf(r, j->n->out_min, j->n->out_max);
    }
}

static void qd8_task(void *arg, size_t begin, size_t end) {
  const qd8_job *j = arg;
  for (size_t t = begin; t < end; t++)
    for (size_t m0 = 0; m0 < j->M; m0 += PK_QS8_MR) tile_rows(j, t, m0, j->M - m0 < PK_QS8_MR ? j->M - m0 : PK_QS8_MR);
}

void px_fc_qd8_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t ic = x->dims[x->ndims - 1], oc = o->dims[o->ndims - 1];
  size_t M = ic ? px_numel(x) / ic : px_numel(o) / (oc ? oc : 1), rows, rowlen;
  if (px_qd8_rows(g, x, &rows, &rowlen) != PTERA_OK) return; /* checked by reshape */
  const qd8_state *s = g->state[g->cur];
  qd8_job j = {n, s, &g->v[n->in[1]], x->data, ic, px_qd8_params(x), M, ic, oc, rowlen,
               n->in[2] == PF_XNN_NONE ? NULL : g->v[n->in[2]].data, o->data, px_qs8_gemm()};
  if (!M || !oc) return;
  if (!ic) { /* no inputs: the sums are 0 */
    for (size_t m = 0; m < M; m++)
      for (size_t q = 0; q < oc; q++)
        j.y[m * oc + q] = px_clampf(j.bias ? j.bias[q] : 0.0f, n->out_min, n->out_max);
    return;
  }
  if (ic % 4) { /* rows padded to a multiple of 4 in the scratch */
    int8_t *pad = px_ws(g);
    j.lda = round4(ic);
    for (size_t m = 0; m < M; m++) {
      memcpy(pad + m * j.lda, j.xq + m * ic, ic);
      memset(pad + m * j.lda + ic, 0, j.lda - ic);
    }
    j.xq = pad;
  }
  size_t tiles = (oc + PK_QS8_NR - 1) / PK_QS8_NR, nthreads = px_threads(g);
  size_t work = M * ic * PK_QS8_NR; /* multiply-adds per tile */
  size_t grain = work >= (1u << 16) ? 1 : ((1u << 16) + work - 1) / work;
  if (nthreads > 1 && grain > (tiles + nthreads - 1) / nthreads) grain = (tiles + nthreads - 1) / nthreads;
  ptera_kernel_parallel_for(px_kctx(g), tiles, grain ? grain : 1, qd8_task, &j);
}
