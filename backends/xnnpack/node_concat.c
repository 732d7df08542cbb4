/* Concatenate2..5 along axis (XNNPACK dim order). */
#include "xnnpack/xnn.h"

ptera_status px_concat_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *a = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  size_t axis = n->p[0];
  if (px_elem_bits(a->dt) < 8 || a->dt != o->dt)
    return px_fail(g, PTERA_INVALID_PROGRAM, "datatypes differ or are packed");
  if (axis >= a->ndims) return px_fail(g, PTERA_INVALID_ARGUMENT, "axis %zu of a rank-%u input", axis, (unsigned)a->ndims);
  size_t dims[PF_XNN_MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  for (unsigned i = 1; i < n->nin; i++) {
    const px_value *b = &g->v[n->in[i]];
    if (b->dt != a->dt || b->ndims != a->ndims)
      return px_fail(g, PTERA_INVALID_ARGUMENT, "input %u differs in datatype or rank", i + 1);
    for (unsigned d = 0; d < a->ndims; d++)
      if (d != axis && b->dims[d] != a->dims[d])
        return px_fail(g, PTERA_INVALID_ARGUMENT, "input %u dim %u is %zu, input 1 has %zu", i + 1, d, b->dims[d],
                       a->dims[d]);
    dims[axis] += b->dims[axis];
  }
  return px_set_shape(g, o, dims, a->ndims);
}

void px_concat_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *o = &g->v[n->out[0]];
  size_t axis = n->p[0], es = px_elem_bits(o->dt) / 8, outer = 1, inner = es;
  for (size_t d = 0; d < axis; d++) outer *= o->dims[d];
  for (size_t d = axis + 1; d < o->ndims; d++) inner *= o->dims[d];
  uint8_t *dst = o->data;
  size_t row = o->dims[axis] * inner, col = 0;
  for (unsigned i = 0; i < n->nin; i++) {
    const px_value *b = &g->v[n->in[i]];
    size_t part = b->dims[axis] * inner;
    const uint8_t *src = b->data;
    for (size_t k = 0; k < outer && part; k++) memcpy(dst + k * row + col, src + k * part, part);
    col += part;
  }
}
