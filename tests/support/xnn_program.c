/* See xnn_program.h. */
#include "xnn_program.h"

#include <math.h>
#include <string.h>

pc_xnn_value_desc xp_f32_value(uint32_t flags, uint32_t ext, uint8_t ndims, const uint32_t *dims,
                               const float *data, size_t n) {
  pc_xnn_value_desc v;
  memset(&v, 0, sizeof v);
  v.datatype = PF_XNN_DT_FP32;
  v.flags = flags;
  v.external_id = ext;
  v.ndims = ndims;
  memcpy(v.dims, dims, ndims * sizeof *dims);
  v.data = data;
  v.nbytes = data ? n * sizeof(float) : 0;
  return v;
}

pc_xnn_node_desc xp_node(uint8_t kind) {
  pc_xnn_node_desc n;
  memset(&n, 0, sizeof n);
  n.kind = kind;
  n.in[0] = 0;
  n.in[1] = 1;
  n.in[2] = 2;
  n.out[0] = 3;
  n.out_min = -INFINITY;
  n.out_max = INFINITY;
  return n;
}

/* A Float tensor of sizes[dim] planned in arena 1 at offset. */
static pc_value planned(const int32_t *sizes, uint8_t dim, uint64_t offset) {
  pc_value v;
  memset(&v, 0, sizeof v);
  v.kind = PC_VAL_TENSOR;
  v.u.tensor.scalar_type = PTERA_DTYPE_FLOAT;
  v.u.tensor.dim = dim;
  memcpy(v.u.tensor.sizes, sizes, dim * sizeof *sizes);
  v.u.tensor.storage = PC_STORAGE_PLANNED;
  v.u.tensor.memory_id = 1;
  v.u.tensor.memory_offset = offset;
  return v;
}

ptera_status xp_delegated_pte(const uint8_t *blob, size_t bsize, uint8_t dim, const int32_t *xs,
                              const int32_t *ys, uint8_t **file, size_t *size, pt_err *err) {
  uint64_t xb = 4, yb = 4;
  for (unsigned d = 0; d < dim; d++) {
    xb *= (uint64_t)xs[d];
    yb *= (uint64_t)ys[d];
  }
  uint64_t y_at = (xb + 63) & ~(uint64_t)63;
  pc_value vals[2] = {planned(xs, dim, 0), planned(ys, dim, y_at)};
  static const int32_t in0[1] = {0}, out1[1] = {1}, args[2] = {0, 1};
  int64_t arena = (int64_t)(y_at + yb);
  pc_instr call = {0, args, 2, true};
  pc_delegate d = {"XnnpackBackend", blob, bsize};
  pc_method m = {"forward", vals, 2, in0, 1, out1, 1, &call, 1, NULL, 0, &arena, 1, &d, 1};
  pc_program p = {&m, 1, NULL, 0};
  pt_err_clear(err);
  return pc_emit_pte(&p, NULL, file, size, err);
}
