/* Internals shared by lower.c and lower_plan.c (see lower.h). */
#ifndef PTERA_COMPILER_LOWER_IMPL_H
#define PTERA_COMPILER_LOWER_IMPL_H

#include "lower.h"

/* Where a reachable tensor's data lives after lowering. */
typedef enum lw_role {
  LW_UNPLANNED = 0, /* et_view output: no data at load */
  LW_CONSTANT,      /* constant data (in the .pte or external) */
  LW_PLANNED        /* memory-planned; initial value when CONST/BUFFER */
} lw_role;

typedef struct lw_method {
  const pc_graph *g;
  pt_arena scratch; /* released when the method is done */
  pt_err *e;
  size_t alignment;
  uint32_t ninstrs;  /* live CALL nodes */
  uint8_t *reach;    /* per value: emitted */
  uint8_t *is_view;  /* per value: written as an et_view output */
  uint8_t *written;  /* per value: some live call writes it */
  uint8_t *role;     /* per value: lw_role (tensors only) */
  int32_t *buf;      /* per value: membuf index of its class, or -1 */
  int32_t *ret;      /* per node: program index of its return slot, or -1 */
  pt_memplan plan;   /* one buffer per planned alias class */
} lw_method;

/* Checks ids, marks reach / is_view / written and counts instructions. */
PT_FUNC ptera_status lw_analyze(lw_method *m);
/* Lifetimes, alias classes and the memory plan: fills role, buf, plan. */
PT_FUNC ptera_status lw_plan(lw_method *m, const ptera_allocator *allocator);

#endif
