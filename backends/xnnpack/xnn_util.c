/* Shared helpers of the XnnpackBackend: messages, sizes, shapes. */
#include <stdarg.h>
#include <stdio.h>

#include "xnnpack/xnn.h"

#if PTERA_STRIP_MESSAGES
ptera_status px_fail_status(px_graph *g, ptera_status st) {
  pt_err e;
  pt_fail_status(&e, st);
  pt_err_copy(&e, g->msg, g->msg_size);
  return st;
}
#else
ptera_status px_fail(px_graph *g, ptera_status st, const char *fmt, ...) {
  char msg[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (g->msg && g->msg_size) {
    if (g->cur < g->g.nnodes)
      snprintf(g->msg, g->msg_size, "XNNPACK node %u (%s): %s", (unsigned)g->cur,
               pf_xnn_node_name(g->g.nodes[g->cur].kind), msg);
    else
      snprintf(g->msg, g->msg_size, "XNNPACK: %s", msg);
  }
  return st;
}
#endif

unsigned px_elem_bits(uint8_t dt) {
  switch (dt) {
    case PF_XNN_DT_FP32: case PF_XNN_DT_QINT32: case PF_XNN_DT_QCINT32: case PF_XNN_DT_INT32:
    case PF_XNN_DT_PFP32:
      return 32;
    case PF_XNN_DT_FP16: case PF_XNN_DT_BF16: return 16;
    case PF_XNN_DT_QCINT4: case PF_XNN_DT_QBINT4: return 4;
    default: return 8;
  }
}

bool px_nbytes(uint8_t dt, const size_t *dims, unsigned ndims, size_t *out) {
  uint64_t n = 1;
  unsigned bits = px_elem_bits(dt);
  for (unsigned i = 0; i < ndims; i++) {
    uint64_t d = dims[i];
    if (bits == 4 && i + 1 == ndims) d = (d + 1) / 2; /* packed rows */
    if (!pt_mul_u64(n, d, &n)) return false;
  }
  if (bits != 4 && !pt_mul_u64(n, bits / 8, &n)) return false;
  if (bits == 4 && ndims == 0) n = 1;
  if (n > SIZE_MAX / 2) return false;
  *out = (size_t)n;
  return true;
}

size_t px_numel(const px_value *v) {
  size_t n = 1;
  for (unsigned i = 0; i < v->ndims; i++) n *= v->dims[i];
  return n;
}

ptera_status px_want_dt(px_graph *g, const px_value *v, uint8_t dt, const char *what) {
  if (v->dt == dt) return PTERA_OK;
  return px_fail(g, PTERA_NOT_IMPLEMENTED, "%s has datatype %s; this node supports %s here", what,
                 pf_xnn_dtype_name(v->dt), pf_xnn_dtype_name(dt));
}

ptera_status px_set_shape(px_graph *g, px_value *out, const size_t *dims, unsigned ndims) {
  size_t bytes;
  if (ndims > PF_XNN_MAX_DIMS) return px_fail(g, PTERA_INVALID_ARGUMENT, "output rank %u > %d", ndims, PF_XNN_MAX_DIMS);
  if (!px_nbytes(out->dt, dims, ndims, &bytes))
    return px_fail(g, PTERA_INVALID_ARGUMENT, "output size overflows");
  if (!out->def->flags) {
    if (!out->data) { /* sizing pass at init: grow the buffer to fit */
      if (bytes > out->cap) out->cap = bytes;
    } else if (bytes > out->cap) {
      return px_fail(g, PTERA_INVALID_ARGUMENT,
                     "output needs %zu bytes, more than the %zu-byte bound its stored shape allows",
                     bytes, out->cap);
    }
  }
  out->ndims = (uint8_t)ndims;
  for (unsigned i = 0; i < ndims; i++) out->dims[i] = dims[i];
  return PTERA_OK;
}

ptera_status px_same_shape(px_graph *g, px_value *out, const px_value *in) {
  return px_set_shape(g, out, in->dims, in->ndims);
}

ptera_status px_want_float(px_graph *g, const px_value *v, const char *what) {
  if (v->dt == PF_XNN_DT_FP32 || px_is_half(v->dt)) return PTERA_OK;
  return px_fail(g, PTERA_NOT_IMPLEMENTED, "%s has datatype %s; this node supports fp32, fp16 and bf16 here", what,
                 pf_xnn_dtype_name(v->dt));
}

ptera_status px_need_ws(px_graph *g, size_t bytes) {
  if (bytes > SIZE_MAX / 2) return px_fail(g, PTERA_INVALID_ARGUMENT, "scratch size overflows");
  g->ws[g->cur] = bytes;
  return PTERA_OK;
}

void *px_packed_alloc(px_graph *g, size_t bytes) {
  void *p = pt_arena_alloc(&g->arena, bytes ? bytes : 1, 64);
  if (!p) {
    px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory packing %zu bytes of weights", bytes);
    return NULL;
  }
  g->packed_bytes += bytes;
  return p;
}

float *px_const_f32_copy(px_graph *g, const px_value *v, size_t n) {
  const float *f = px_const_f32(g, v);
  float *copy = f ? px_packed_alloc(g, n * sizeof(float)) : NULL;
  if (copy) memcpy(copy, f, n * sizeof(float));
  px_f32_release(g, v, f);
  return copy;
}

const float *px_const_f32(px_graph *g, const px_value *v) {
  if (v->dt == PF_XNN_DT_FP32) return v->data;
  const ptera_allocator *a = g->arena.allocator ? g->arena.allocator : ptera_allocator_default();
  size_t n = px_numel(v);
  float *p = n <= SIZE_MAX / 4 ? a->alloc(a->user_data, n ? n * 4 : 4, 64) : NULL;
  if (!p) {
    px_fail(g, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory widening a %zu-element %s constant", n,
            pf_xnn_dtype_name(v->dt));
    return NULL;
  }
  const uint16_t *s = v->data;
  for (size_t i = 0; i < n; i++) p[i] = v->dt == PF_XNN_DT_FP16 ? pt_half_to_float(s[i]) : pt_bf16_to_float(s[i]);
  return p;
}

void px_f32_release(px_graph *g, const px_value *v, const float *p) {
  if (v->dt == PF_XNN_DT_FP32 || !p) return;
  const ptera_allocator *a = g->arena.allocator ? g->arena.allocator : ptera_allocator_default();
  a->free(a->user_data, (void *)(uintptr_t)p);
}
