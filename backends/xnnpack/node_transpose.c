/* StaticTranspose: out.dims[i] = in.dims[perm[i]] (any datatype of 8 or more
 * bits per element). */
#include "xnnpack/xnn.h"

ptera_status px_transpose_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (x->dt != o->dt || px_elem_bits(x->dt) < 8)
    return px_fail(g, PTERA_INVALID_PROGRAM, "input %s and output %s datatypes differ or are packed",
                   pf_xnn_dtype_name(x->dt), pf_xnn_dtype_name(o->dt));
  if (n->n0 != x->ndims)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "perm has %u entries for a rank-%u input", (unsigned)n->n0,
                   (unsigned)x->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  unsigned seen = 0;
  for (unsigned i = 0; i < n->n0; i++) {
    uint32_t p = n->v0[i];
    if (p >= n->n0 || (seen & (1u << p)))
      return px_fail(g, PTERA_INVALID_PROGRAM, "perm is not a permutation of 0..%u", (unsigned)n->n0 - 1);
    seen |= 1u << p;
    dims[i] = x->dims[p];
  }
  return px_set_shape(g, o, dims, n->n0);
}

/* The transpose with size-1 dimensions dropped and output dimensions that
 * are adjacent in the input too merged: r dims d[] of the output, each
 * reading the input with stride st[] (elements); the input's innermost
 * dimension last in the output becomes a contiguous run (*run elements). */
static unsigned simplify(const px_value *x, const pf_xnn_node *n, size_t *d, size_t *st, size_t *run) {
  size_t istride[PF_XNN_MAX_DIMS], acc = 1;
  for (unsigned i = x->ndims; i-- > 0;) {
    istride[i] = acc;
    acc *= x->dims[i];
  }
  unsigned r = 0;
  for (unsigned i = 0; i < n->n0; i++) {
    uint32_t p = n->v0[i];
    if (x->dims[p] == 1) continue;
    if (r && st[r - 1] == istride[p] * x->dims[p]) { /* continues the previous one */
      d[r - 1] *= x->dims[p];
      st[r - 1] = istride[p];
    } else {
      d[r] = x->dims[p];
      st[r++] = istride[p];
    }
  }
  *run = 1;
  if (r && st[r - 1] == 1) *run = d[--r];
  return r;
}

void px_transpose_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  size_t es = px_elem_bits(x->dt) / 8, total = px_numel(o);
  if (!total) return;
  size_t d[PF_XNN_MAX_DIMS], s[PF_XNN_MAX_DIMS], idx[PF_XNN_MAX_DIMS] = {0}, run;
  unsigned r = simplify(x, n, d, s, &run);
  /* each step writes m consecutive output elements: a contiguous run, or the
   * innermost dimension read at stride sd; the outer dims count the steps */
  size_t m = run, sd = 1;
  if (run == 1 && r) {
    m = d[--r];
    sd = s[r];
  }
  const uint8_t *src = x->data;
  uint8_t *dst = o->data;
  size_t off = 0;
  for (size_t k = 0; k < total; k += m) {
    if (sd == 1)
      memcpy(dst + k * es, src + off * es, m * es);
    else if (es == 4)
      for (size_t j = 0; j < m; j++) memcpy(dst + (k + j) * 4, src + (off + j * sd) * 4, 4);
    else
      for (size_t j = 0; j < m; j++) memcpy(dst + (k + j) * es, src + (off + j * sd) * es, es);
    for (unsigned q = r; q-- > 0;) {
      off += s[q];
      if (++idx[q] < d[q]) break;
      off -= s[q] * d[q];
      idx[q] = 0;
    }
  }
}
