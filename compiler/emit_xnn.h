/* XNNGraph writer (docs/XNNPACK.md §2-§6): builds an XH00 blob — header, XN01
 * flatbuffer, constant data area — from value and node descriptions. Used
 * by the tests to generate delegate payloads for every node type and
 * datatype, and by the XNNPACK lowering (to_xnnpack.h). Prefix pc_xnn_. */
#ifndef PTERA_COMPILER_EMIT_XNN_H
#define PTERA_COMPILER_EMIT_XNN_H

#include "core/core.h"
#include "format/xnngraph.h"

typedef struct pc_xnn_value_desc {
  uint8_t datatype;       /* PF_XNN_DT_* */
  uint32_t flags;         /* PF_XNN_VALUE_INPUT / _OUTPUT */
  uint32_t external_id;
  uint8_t ndims;
  uint32_t dims[PF_XNN_MAX_DIMS];
  const void *data;       /* constant bytes (NULL = not a constant), nbytes long */
  size_t nbytes;
  /* A constant in the named data instead (data NULL): constant_data entry
   * {offset UINT64_MAX, size nbytes, named_key}, as the upstream writer. */
  const char *named_key;
  uint8_t quant;          /* PF_XNN_Q_*; 0 = plain XNNTensorValue */
  float scale;            /* per tensor */
  int32_t zero_point;
  const float *scales;    /* per channel: written as constant data (scale_buffer_idx) */
  uint32_t nscales;       /* per channel: scales; blockwise: scales_bf16 */
  int32_t channel_dim;
  int32_t num_nonbatch_dims;
  const uint16_t *scales_bf16; /* blockwise (PF_XNN_Q_CHANNEL_GROUP): constant data */
  int32_t group_size;
  uint8_t dq_datatype;    /* legacy dynamic-quantization marker (field 7), 0 = absent */
} pc_xnn_value_desc;

/* Operands are value indices (the writer sets id_out = index); PF_XNN_NONE
 * for an absent bias. Fields as in pf_xnn_node. */
typedef struct pc_xnn_node_desc {
  uint8_t kind;
  uint32_t in[PF_XNN_MAX_NODE_IN];
  uint32_t out[2];
  uint32_t flags;
  bool has_min_max;
  float out_min, out_max;
  uint32_t p[PF_XNN_MAX_NODE_PARAMS];
  float f;
  const uint32_t *v0, *v1;
  uint32_t n0, n1;
} pc_xnn_node_desc;

/* Writes the blob into memory from allocator a (NULL = default); the caller
 * frees *out with pt_free(a, *out). */
PT_FUNC ptera_status pc_xnn_emit(const pc_xnn_value_desc *values, uint32_t nvalues,
                                 const pc_xnn_node_desc *nodes, uint32_t nnodes, uint32_t num_externs,
                                 const ptera_allocator *a, uint8_t **out, size_t *out_size);

#endif
