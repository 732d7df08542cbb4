/* StaticTranspose: out.dims[i] = in.dims[perm[i]] (any datatype of 8 or more
 * bits per element). */
#include "portable/util/region.h"
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

/* The portable strided copy (portable/util/region.h) does the work: it
 * merges dims, copies contiguous runs whole and walks a true transpose in
 * square tiles so both sides stay in cache. Elements are moved as bytes, so
 * any integer type of the element's width stands for the datatype. */
void px_transpose_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  if (!px_numel(o) || o->view) return; /* folded: its readers read x (xnn_fold_transpose.c) */
  if (o->nchw) { /* NCHW -> NHWC kept NCHW-resident (xnn_residency.c): the input's bytes */
    o->data = x->data;
    return;
  }
  unsigned bits = px_elem_bits(x->dt);
  int dt = bits == 32 ? PTERA_DTYPE_INT : bits == 16 ? PTERA_DTYPE_SHORT : PTERA_DTYPE_CHAR;
  int64_t istride[PF_XNN_MAX_DIMS], sizes[PF_XNN_MAX_DIMS], dstr[PF_XNN_MAX_DIMS], sstr[PF_XNN_MAX_DIMS], acc = 1;
  for (unsigned i = x->ndims; i-- > 0;) {
    istride[i] = acc;
    acc *= (int64_t)x->dims[i];
  }
  acc = 1;
  for (unsigned i = n->n0; i-- > 0;) {
    sizes[i] = (int64_t)x->dims[n->v0[i]];
    sstr[i] = istride[n->v0[i]];
    dstr[i] = acc;
    acc *= sizes[i];
  }
  pk_copy_region(o->data, dt, dstr, 0, x->data, dt, sstr, 0, n->n0, sizes);
}
