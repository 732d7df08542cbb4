/* See compile_util.h. */
#include "compile_util.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

int32_t cu_fconst(pc_graph *g, uint32_t dim, const int32_t *sizes, const float *data, size_t n) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, dim, sizes, PC_T_CONST, data, n * sizeof(float), NULL);
}

int32_t cu_fact(pc_graph *g, uint32_t dim, const int32_t *sizes) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, dim, sizes, PC_T_ACTIVATION, NULL, 0, NULL);
}

pc_compile_options cu_options(pc_backend backend) {
  pc_compile_options o;
  memset(&o, 0, sizeof o);
  o.backend = backend;
  return o;
}

bool cu_compile(pc_graph *g, const pc_compile_options *o, pc_compile_result *r) {
  pc_module mod = {&g, 1, NULL};
  pt_err e;
  ptera_status st = pc_compile(&mod, o, r, &e);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "compile: %s\n", e.msg);
  return st == PTERA_OK;
}

const ptera_tensor *cu_run_forward(const pc_compile_result *r, const float *x, uint8_t dim,
                                   const int32_t *sizes, size_t numel, ptera_program **prog,
                                   ptera_method **m) {
  *prog = NULL;
  *m = NULL;
  size_t bytes = sizeof(float);
  for (uint8_t d = 0; d < dim; d++) bytes *= (size_t)sizes[d];
  ptera_status st = ptera_program_load_buffer(r->pte, r->pte_size, NULL, prog);
  if (st == PTERA_OK) st = ptera_method_create(*prog, "forward", NULL, m);
  if (st == PTERA_OK) st = ptera_method_set_input_tensor(*m, 0, PTERA_DTYPE_FLOAT, dim, sizes, x, bytes);
  if (st == PTERA_OK) st = ptera_method_execute(*m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK)
    fprintf(stderr, "forward: %s: %s\n", ptera_status_name(st),
            *m ? ptera_method_errmsg(*m) : ptera_program_errmsg(*prog));
  const ptera_value *v = st == PTERA_OK ? ptera_method_output(*m, 0) : NULL;
  bool ok = v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == numel;
  CHECK(ok);
  return ok ? v->u.tensor : NULL;
}
