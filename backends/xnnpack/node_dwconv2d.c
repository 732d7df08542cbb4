/* DepthwiseConv2d on NHWC float (XNNPACK.md §8): output channel c*m + j
 * reads input channel c; filter [1, kh, kw, C*m]. Shape checks, geometry
 * and run are Conv2d's (node_conv2d.c: the shared channels-last
 * convolution with groups = C); at init the filter is rearranged to the
 * kernel's [C*m, kh, kw, 1] and packed. */
#include "xnnpack/xnn.h"

ptera_status px_dwconv2d_prepare(px_graph *g, const pf_xnn_node *n) {
  const px_value *w = &g->v[n->in[1]];
  size_t taps = w->dims[1] * w->dims[2], OC = w->dims[3];
  const ptera_allocator *a = g->arena.allocator ? g->arena.allocator : ptera_allocator_default();
  float *r = a->alloc(a->user_data, OC * taps * sizeof(float), 64); /* reshape checked the size */
  const float *wf = r ? px_const_f32(g, w) : NULL;
  if (!wf) {
    if (r) a->free(a->user_data, r);
    return r ? PTERA_MEMORY_ALLOCATION_FAILED
             : px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory rearranging a %zu-element filter",
                       OC * taps);
  }
  for (size_t t = 0; t < taps; t++)
    for (size_t oc = 0; oc < OC; oc++) r[oc * taps + t] = wf[t * OC + oc];
  px_f32_release(g, w, wf);
  ptera_status st = px_conv2d_pack(g, n, r);
  a->free(a->user_data, r);
  return st;
}
