/* StaticReshape (new_shape, one 0 entry inferred) and Copy: the bytes are
 * unchanged, only the shape is new. */
#include "xnnpack/xnn.h"

ptera_status px_reshape_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (x->dt != o->dt)
    return px_fail(g, PTERA_INVALID_PROGRAM, "input %s and output %s datatypes differ", pf_xnn_dtype_name(x->dt),
                   pf_xnn_dtype_name(o->dt));
  if (px_elem_bits(x->dt) < 8) return px_fail(g, PTERA_NOT_IMPLEMENTED, "packed 4-bit values cannot be copied");
  if (n->kind == PF_XNN_COPY) return px_same_shape(g, o, x);
  size_t dims[PF_XNN_MAX_DIMS], total = px_numel(x);
  uint64_t known = 1;
  int infer = -1;
  for (unsigned i = 0; i < n->n0; i++) {
    dims[i] = n->v0[i];
    if (dims[i] == 0) {
      if (infer >= 0) return px_fail(g, PTERA_INVALID_PROGRAM, "new_shape has more than one inferred (0) entry");
      infer = (int)i;
    } else if (!pt_mul_u64(known, dims[i], &known) || known > total) {
      return px_fail(g, PTERA_INVALID_ARGUMENT, "new_shape does not match the input's %zu elements", total);
    }
  }
  if (infer >= 0) {
    if (known == 0 || total % known)
      return px_fail(g, PTERA_INVALID_ARGUMENT, "cannot infer new_shape entry %d from %zu elements", infer, total);
    dims[infer] = total / (size_t)known;
  } else if (known != total) {
    return px_fail(g, PTERA_INVALID_ARGUMENT, "new_shape has %zu elements, the input %zu", (size_t)known, total);
  }
  return px_set_shape(g, o, dims, n->n0);
}

/* An internal output aliases the input (values are written once, by their
 * node, and never share buffers otherwise); an external one is copied. */
void px_copy_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  size_t bytes = px_numel(x) * (px_elem_bits(x->dt) / 8);
  if (o->view) return; /* a link of a folded transpose chain (xnn_fold_transpose.c) */
  if (!o->def->flags) {
    o->data = x->data;
    return;
  }
  if (bytes) memmove(o->data, x->data, bytes);
}
