/* FullyConnected, float: input [..., ic] -> output [..., oc], y = x W^T + b
 * (W [oc, ic]; flag TRANSPOSE_WEIGHTS: W [ic, oc]), then clamp; on the
 * shared GEMM (kernels/cpu/gemm.h) with W packed once at init. fp16/bf16
 * values are computed in fp32 (docs/XNNPACK.md §8: bf16 in fp32, bias fp32). */
#include <math.h>

#include "cpu/gemm.h"
#include "xnnpack/xnn_quant.h"

typedef struct fc_state {
  const void *packed; /* W^T as the GEMM's B (K x N); NULL when K or N is 0 */
  float *bias;        /* fp32, or NULL */
} fc_state;

static bool is_float(uint8_t dt) { return dt == PF_XNN_DT_FP32 || px_is_half(dt); }

/* The product of the current shapes; the prepared B when st is given. */
static pk_gemm_f32_args fc_args(const px_graph *g, const pf_xnn_node *n, const fc_state *st) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  pk_gemm_f32_args a;
  memset(&a, 0, sizeof a);
  a.K = x->dims[x->ndims - 1];
  a.N = o->dims[o->ndims - 1];
  a.M = a.K ? px_numel(x) / a.K : px_numel(o) / (a.N ? a.N : 1);
  a.a = (pk_f32_operand){x->data, a.K, 1, NULL};
  a.b = (pk_f32_operand){NULL, a.N, 1, st ? st->packed : NULL};
  a.bias_n = st ? st->bias : NULL;
  a.c = o->data;
  a.ldc = a.N;
  a.min = n->out_min;
  a.max = n->out_max;
  return a;
}

ptera_status px_fc_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  px_value *o = &g->v[n->out[0]];
  if (w->ndims != 2) return px_fail(g, PTERA_INVALID_PROGRAM, "filter has rank %u, not 2", (unsigned)w->ndims);
  if (x->ndims == 0) return px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank 0");
  if (!w->is_const || (b && !b->is_const)) return px_fail(g, PTERA_NOT_IMPLEMENTED, "filter and bias must be constants");
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t ic = tw ? w->dims[0] : w->dims[1], oc = tw ? w->dims[1] : w->dims[0];
  ptera_status st = PTERA_OK;
  if (!is_float(x->dt)) {
    st = px_fc_quant_check(g, n, oc);
  } else {
    st = px_want_float(g, w, "filter");
    if (st == PTERA_OK && b) st = px_want_float(g, b, "bias");
    if (st == PTERA_OK) st = px_want_float(g, o, "output");
  }
  if (st != PTERA_OK) return st;
  if (x->dims[x->ndims - 1] != ic)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "input has %zu features, the filter %zu", x->dims[x->ndims - 1], ic);
  if (b && px_numel(b) != oc)
    return px_fail(g, PTERA_INVALID_PROGRAM, "bias has %zu elements for %zu outputs", px_numel(b), oc);
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, x->dims, sizeof dims);
  dims[x->ndims - 1] = oc;
  st = px_set_shape(g, o, dims, x->ndims);
  if (st == PTERA_OK && x->dt == PF_XNN_DT_QDINT8) return px_need_ws(g, px_fc_qd8_workspace(g, n));
  if (st != PTERA_OK || !is_float(x->dt)) return st;
  pk_gemm_f32_args a = fc_args(g, n, g->state[g->cur]); /* sizing (unpacked B) bounds the packed run */
  return px_need_ws(g, pk_gemm_f32_workspace(&a, px_threads(g)));
}

ptera_status px_fc_prepare(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *w = &g->v[n->in[1]];
  const px_value *b = n->in[2] == PF_XNN_NONE ? NULL : &g->v[n->in[2]];
  if (!is_float(x->dt)) return x->dt == PF_XNN_DT_QDINT8 ? px_fc_qd8_prepare(g, n) : PTERA_OK;
  bool tw = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t K = tw ? w->dims[0] : w->dims[1], N = tw ? w->dims[1] : w->dims[0];
  fc_state *s = px_packed_alloc(g, sizeof *s);
  if (!s) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (K && N) {
    void *p = px_packed_alloc(g, pk_gemm_f32_pack_b_size(K, N));
    const float *wf = p ? px_const_f32(g, w) : NULL;
    if (!wf) return PTERA_MEMORY_ALLOCATION_FAILED;
    /* B(k, n) = W[n, k], or W[k, n] when transposed */
    pk_gemm_f32_pack_b(K, N, wf, tw ? N : 1, tw ? 1 : K, p);
    px_f32_release(g, w, wf);
    s->packed = p;
  }
  if (b && !(s->bias = px_const_f32_copy(g, b, N))) return PTERA_MEMORY_ALLOCATION_FAILED;
  g->state[g->cur] = s;
  return PTERA_OK;
}

void px_fc_run(px_graph *g, const pf_xnn_node *n) {
  if (!is_float(g->v[n->in[0]].dt)) {
    px_fc_quant_run(g, n);
    return;
  }
  pk_gemm_f32_args a = fc_args(g, n, g->state[g->cur]);
  pk_gemm_f32_run(&a, px_ws(g), px_kctx(g));
}
