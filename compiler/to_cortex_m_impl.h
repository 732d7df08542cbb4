/* Internals of the Cortex-M lowering (to_cortex_m.h), shared by
 * to_cortex_m.c (driver, tensors, layouts, parameters) and
 * to_cortex_m_ops.c (one rule per fp32 operator). */
#ifndef PTERA_COMPILER_TO_CORTEX_M_IMPL_H
#define PTERA_COMPILER_TO_CORTEX_M_IMPL_H

#include "to_cortex_m.h"

typedef struct pc_cm_ctx {
  pc_graph *g;
  const pc_range *ranges;
  uint32_t nvalues0;  /* values at calibration: ranges and the maps below */
  uint32_t nnodes0;   /* nodes before the lowering (new calls are appended) */
  int32_t *q;         /* fp32 activation -> its int8 tensor, or -1 */
  pc_qparams *qp;     /* the int8 tensor's parameters, by fp32 id */
  uint32_t *readers;  /* live calls reading each value */
  int32_t *reader;    /* the last of them */
  uint8_t *is_output;
  uint8_t *fused;     /* nodes folded into an earlier call */
  pc_cm_stats stats;
} pc_cm_ctx;

/* Fails naming node k and its operator. */
PT_FUNC ptera_status pc_cm_fail(pc_cm_ctx *c, uint32_t k, const char *why);
PT_FUNC ptera_status pc_cm_oom(pc_cm_ctx *c);

/* Literals; -1 on OOM. */
PT_FUNC int32_t pc_cm_int(pc_cm_ctx *c, int64_t v);
PT_FUNC int32_t pc_cm_ints(pc_cm_ctx *c, const int64_t *v, uint32_t n);
/* An int32 / int8 constant tensor of the given shape. */
PT_FUNC int32_t pc_cm_const(pc_cm_ctx *c, int dtype, uint32_t dim, const int32_t *sizes,
                            const void *data, size_t nbytes);
/* A planned BYTE scratch tensor of n bytes. */
PT_FUNC int32_t pc_cm_scratch(pc_cm_ctx *c, size_t n);

/* The int8 activation standing for fp32 tensor fv (same sizes, the layout
 * rule of to_cortex_m.h), recorded with its parameters. */
PT_FUNC int32_t pc_cm_new_act(pc_cm_ctx *c, int32_t fv, pc_qparams qp);
/* The int8 tensor of fp32 value fv in the wanted layout (channels_last, or
 * contiguous), converting with _clone_dim_order when needed; -1 with
 * a message when fv has no int8 tensor. */
PT_FUNC int32_t pc_cm_input(pc_cm_ctx *c, uint32_t k, int32_t fv, bool channels_last);
/* The calibrated parameters of fp32 value fv (fails for node k when fv was
 * never measured). */
PT_FUNC ptera_status pc_cm_measured(pc_cm_ctx *c, uint32_t k, int32_t fv, pc_qparams *qp);

/* Appends call op(args...), the last argument written. */
PT_FUNC ptera_status pc_cm_emit(pc_cm_ctx *c, const char *op, const int32_t *args, uint32_t n);

/* The exporter's quantize_multiplier (CORTEX_M.md 2): scale ~ mult * 2^shift / 2^31;
 * fails for node k when the shift leaves CMSIS-NN's [-31, 30]. */
PT_FUNC ptera_status pc_cm_multiplier(pc_cm_ctx *c, uint32_t k, double scale, int32_t *mult,
                                      int32_t *shift);

/* When fp32 value out is read only by a live aten::relu.out (and is no
 * method output), returns that node (marked fused) and sets *final to the
 * relu's output; else returns -1 and *final = out. */
PT_FUNC int32_t pc_cm_fuse_relu(pc_cm_ctx *c, int32_t out, int32_t *final);

/* Lowers live call k (to_cortex_m_ops.c). */
PT_FUNC ptera_status pc_cm_lower_call(pc_cm_ctx *c, uint32_t k);

#endif
