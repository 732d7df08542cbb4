/* The compiler driver (prefix pc_): a parsed .ptg module through the
 * passes, the lowering and the emitters.
 *
 * First, every entry of the quantization scope must cover a call
 * (pc_qscope_check). Per method, in order: pc_fold_batch_norm, pc_fuse_linear, pc_constprop, pc_dedup_constants,
 * pc_dce, pc_elide_views (each can be turned off; with a backend, view
 * elision runs after the lowering to it, on the calls left on the CPU);
 * with weight-only quantization (int8-weight, int4-weight), pc_quantize_weights
 * after dce; with a backend, pc_to_xnnpack (or, for Cortex-M, pc_calibrate on
 * the samples and pc_to_cortex_m) between dce and view elision; then every
 * call left on the CPU must be in the target op set (opset.h), else
 * compiling fails naming the operator, the node and the set; then all
 * methods are lowered together
 * (lower.h), the .pte
 * is emitted and, with external weights, the .ptd (even when no constant
 * qualified, so the caller always gets the file it asked for). The module's
 * graphs are rewritten in place by the passes. */
#ifndef PTERA_COMPILER_COMPILE_H
#define PTERA_COMPILER_COMPILE_H

#include "diag.h"
#include "lower.h"
#include "passes.h"
#include "ptg.h"
#include "quant_scope.h"
#include "to_cortex_m.h"
#include "to_xnnpack.h"

typedef enum pc_backend {
  PC_BACKEND_NONE = 0,   /* every call on the CPU (portable kernels) */
  PC_BACKEND_XNNPACK = 1, /* partitions lowered to XnnpackBackend (to_xnnpack.h) */
  PC_BACKEND_CORTEX_M = 2 /* static int8 cortex_m:: calls (to_cortex_m.h); needs calibration */
} pc_backend;

typedef struct pc_compile_options {
  const ptera_allocator *allocator; /* NULL: default; also frees the result */
  bool no_fold_bn, no_fuse, no_constprop, no_dedup, no_dce, no_views;
  bool external_weights;            /* constants into a .ptd (lower.h) */
  pc_weight_keys weight_keys;
  pc_opset opset;                   /* default (0): executorch-portable */
  pc_backend backend;               /* default (0): none */
  pc_xnn_quant quantize;            /* default (0): none; 8da8w / 8da4w / int8-static need the XNNPACK backend */
  uint32_t group_size;              /* 8da4w / int4-weight: inputs per scale; 0: 32 */
  const pc_calibration *calibration; /* Cortex-M, XNNPACK int8-static: the samples */
  /* Which calls --quantize touches (quant_scope.h); default: all. Needs a
   * quantization other than the Cortex-M lowering's; every entry must
   * name a module some call of the module as read was made from. */
  pc_qscope scope;
} pc_compile_options;

typedef struct pc_method_stats {
  char *name;
  uint32_t nodes_before, nodes_after; /* live CALL nodes */
  pc_pass_stats passes;               /* bn-folded, fused, folded, merged (+bytes), removed, views */
  pt_memplan_summary plan;            /* peak_bytes vs no_reuse_bytes */
  pc_xnn_stats xnn;                   /* with the XNNPACK backend */
  pc_cm_stats cm;                     /* with the Cortex-M backend */
} pc_method_stats;

typedef struct pc_compile_result {
  uint8_t *pte;
  size_t pte_size;
  uint8_t *ptd; /* NULL unless external weights */
  size_t ptd_size;
  uint32_t nexternal; /* entries in the .ptd */
  pc_method_stats *methods;
  uint32_t nmethods;
  /* Warnings of the passes (diag.h), one per line ending in '\n', e.g. a
   * bfloat16 weight a quantizer left alone; NULL when none. The text names
   * methods and tensors as the .ptg does (not escaped). */
  char *warnings;
  uint32_t nwarnings;
  const ptera_allocator *allocator;
} pc_compile_result;

/* Compiles m. options may be NULL (all passes, weights inside the .pte).
 * On failure out is empty and e says why (the failing method is named). */
PT_FUNC ptera_status pc_compile(pc_module *m, const pc_compile_options *options,
                                pc_compile_result *out, pt_err *e);

PT_FUNC void pc_compile_result_free(pc_compile_result *r);

#endif
