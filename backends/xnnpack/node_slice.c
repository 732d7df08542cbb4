/* StaticSlice: out = in[offsets[d] : offsets[d] + sizes[d]] per dim; size 0
 * means "to the end of the dim" (docs/XNNPACK.md §8.1). */
#include "xnnpack/xnn.h"

ptera_status px_slice_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (x->dt != o->dt || px_elem_bits(x->dt) < 8)
    return px_fail(g, PTERA_INVALID_PROGRAM, "input and output datatypes differ or are packed");
  if (n->n0 != x->ndims)
    return px_fail(g, PTERA_INVALID_ARGUMENT, "offsets have %u entries for a rank-%u input", (unsigned)n->n0,
                   (unsigned)x->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  for (unsigned d = 0; d < n->n0; d++) {
    size_t off = n->v0[d], sz = n->v1[d];
    if (off > x->dims[d]) return px_fail(g, PTERA_INVALID_ARGUMENT, "offset %zu past dim %u (%zu)", off, d, x->dims[d]);
    if (sz == 0) sz = x->dims[d] - off;
    if (sz > x->dims[d] - off)
      return px_fail(g, PTERA_INVALID_ARGUMENT, "slice %zu+%zu past dim %u (%zu)", off, sz, d, x->dims[d]);
    dims[d] = sz;
  }
  return px_set_shape(g, o, dims, n->n0);
}

void px_slice_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]], *o = &g->v[n->out[0]];
  unsigned r = o->ndims;
  size_t es = px_elem_bits(x->dt) / 8, total = px_numel(o);
  if (total == 0) return;
  size_t stride[PF_XNN_MAX_DIMS], acc = 1, base = 0, idx[PF_XNN_MAX_DIMS] = {0};
  for (unsigned i = r; i-- > 0;) {
    stride[i] = acc;
    base += n->v0[i] * acc;
    acc *= x->dims[i];
  }
  size_t inner = r ? o->dims[r - 1] * es : es;
  const uint8_t *src = x->data;
  uint8_t *dst = o->data;
  size_t off = base;
  for (size_t k = 0; k < total; k += r ? o->dims[r - 1] : 1) {
    memcpy(dst, src + off * es, inner);
    dst += inner;
    for (unsigned d = r ? r - 1 : 0; d-- > 0;) {
      off += stride[d];
      if (++idx[d] < o->dims[d]) break;
      off -= stride[d] * o->dims[d];
      idx[d] = 0;
    }
  }
}
