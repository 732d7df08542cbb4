/* Softmax over the innermost dimension (fp32), max-subtracted: rows on the
 * vector math of the selected ISA (cpu/vmath.h), split over the threads. */
#include "cpu/vmath.h"
#include "xnnpack/xnn.h"

ptera_status px_softmax_reshape(px_graph *g, const pf_xnn_node *n) {
  const px_value *x = &g->v[n->in[0]];
  px_value *o = &g->v[n->out[0]];
  ptera_status st = px_want_float(g, x, "input");
  if (st == PTERA_OK) st = px_want_float(g, o, "output");
  if (st == PTERA_OK && x->ndims == 0) st = px_fail(g, PTERA_INVALID_ARGUMENT, "input has rank 0");
  return st == PTERA_OK ? px_same_shape(g, o, x) : st;
}

typedef struct softmax_job {
  const float *x;
  float *y;
  size_t c;
} softmax_job;

static void softmax_task(void *arg, size_t begin, size_t end) {
  const softmax_job *j = arg;
  const pk_vmath_f32_table *vm = pk_vmath_f32();
  for (size_t r = begin; r < end; r++) vm->softmax(j->c, j->x + r * j->c, j->y + r * j->c);
}

void px_softmax_run(px_graph *g, const pf_xnn_node *n) {
  const px_value *xv = &g->v[n->in[0]];
  size_t c = xv->dims[xv->ndims - 1], total = px_numel(xv);
  if (c == 0) return;
  softmax_job j = {xv->data, g->v[n->out[0]].data, c};
  ptera_kernel_parallel_for(px_kctx(g), total / c, c < PX_ELEM_GRAIN ? PX_ELEM_GRAIN / c : 1, softmax_task, &j);
}
