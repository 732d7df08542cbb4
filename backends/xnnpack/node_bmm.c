/* BatchMatrixMultiply, fp32: out[..., m, n] = sum_k a[..., m, k] b[..., k, n]
 * (flag TRANSPOSE_B: b is [..., n, k]); batch dims must match. */
#include <math.h>

#include "xnnpack/xnn.h"

ptera_status px_bmm_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *b = &g->v[n->in[1]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_dt(g, a, PF_XNN_DT_FP32, "input 1");
  if (st == PTERA_OK) st = px_want_dt(g, b, PF_XNN_DT_FP32, "input 2");
  if (st == PTERA_OK) st = px_want_dt(g, o, PF_XNN_DT_FP32, "output");
  if (st != PTERA_OK) return st;
  unsigned r = a->ndims;
  if (r < 2 || b->ndims != r) return px_fail(g, PTERA_INVALID_ARGUMENT, "inputs must have the same rank >= 2");
  for (unsigned d = 0; d + 2 < r; d++)
    if (a->dims[d] != b->dims[d]) return px_fail(g, PTERA_INVALID_ARGUMENT, "batch dim %u differs", d);
  bool tb = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t K = a->dims[r - 1], kb = tb ? b->dims[r - 1] : b->dims[r - 2], N = tb ? b->dims[r - 2] : b->dims[r - 1];
  if (K != kb) return px_fail(g, PTERA_INVALID_ARGUMENT, "inner dims %zu and %zu differ", K, kb);
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[r - 1] = N;
  return px_set_shape(g, o, dims, r);
}

void px_bmm_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = a->ndims;
  bool tb = n->flags & PF_XNN_FLAG_TRANSPOSE_WEIGHTS;
  size_t M = a->dims[r - 2], K = a->dims[r - 1], N = o->dims[r - 1], batch = 1;
  for (unsigned d = 0; d + 2 < r; d++) batch *= a->dims[d];
  const float *x = a->data, *w = g->v[n->in[1]].data;
  float *y = o->data;
  for (size_t i = 0; i < batch; i++)
    px_gemm_f32(M, N, K, x + i * M * K, w + i * K * N, tb ? K : 1, tb ? 1 : N, NULL, y + i * M * N, -INFINITY,
                INFINITY);
}
