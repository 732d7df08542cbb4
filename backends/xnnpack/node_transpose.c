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

void px_transpose_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = o->ndims;
  size_t es = px_elem_bits(x->dt) / 8, total = px_numel(o);
  size_t istride[PF_XNN_MAX_DIMS], s[PF_XNN_MAX_DIMS], idx[PF_XNN_MAX_DIMS] = {0};
  size_t acc = 1;
  for (unsigned i = r; i-- > 0;) {
    istride[i] = acc;
    acc *= x->dims[i];
  }
  for (unsigned i = 0; i < r; i++) s[i] = istride[n->v0[i]];
  const uint8_t *src = x->data;
  uint8_t *dst = o->data;
  size_t off = 0;
  for (size_t k = 0; k < total; k++) {
    memcpy(dst + k * es, src + off * es, es);
    for (unsigned d = r; d-- > 0;) {
      off += s[d];
      if (++idx[d] < o->dims[d]) break;
      off -= s[d] * o->dims[d];
      idx[d] = 0;
    }
  }
}
