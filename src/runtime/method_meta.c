/* Method metadata, answered from the program alone (no method load). */
#include "runtime/runtime.h"

size_t ptera_program_method_count(const ptera_program *p) {
  return p && p->loaded ? p->pte.nplans : 0;
}

const char *ptera_program_method_name(const ptera_program *p, size_t index) {
  if (!p || !p->loaded || index >= p->pte.nplans) return NULL;
  return p->pte.plans[index].name.ptr;
}

const pf_plan *pr_find_plan(const ptera_program *p, const char *name) {
  if (!p || !p->loaded || !name) return NULL;
  for (uint32_t i = 0; i < p->pte.nplans; i++)
    if (strcmp(p->pte.plans[i].name.ptr, name) == 0) return &p->pte.plans[i];
  return NULL;
}

const pf_plan *pr_plan_or_fail(const ptera_program *p, const char *method) {
  const pf_plan *plan = pr_find_plan(p, method);
  if (!plan && p) {
    ptera_program *mp = (ptera_program *)p;
    pt_fail(&mp->err, PTERA_NOT_FOUND, "the program has no method '%s'", method ? method : "(null)");
  }
  return plan;
}

ptera_status ptera_program_method_info(const ptera_program *p, const char *method,
                                       ptera_method_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out) return PTERA_INVALID_ARGUMENT;
  ptera_method_info info = PTERA_METHOD_INFO_INIT;
  info.name = plan->name.ptr;
  info.name_len = plan->name.len;
  info.num_inputs = plan->ninputs;
  info.num_outputs = plan->noutputs;
  info.num_planned_buffers = plan->nbuffer_sizes ? plan->nbuffer_sizes - 1 : 0;
  for (uint32_t c = 0; c < plan->nchains; c++) info.num_instructions += plan->chains[c].ninstrs;
  info.num_operators = plan->nops;
  info.num_delegates = plan->ndelegates;
  info.num_values = plan->nvalues;
  return pt_struct_out(out, &info, sizeof info, PR_METHOD_INFO_V1_SIZE);
}

ptera_tag pr_tag_of(uint8_t type) {
  switch (type) {
    case PF_VAL_INT: return PTERA_TAG_INT;
    case PF_VAL_BOOL: return PTERA_TAG_BOOL;
    case PF_VAL_DOUBLE: return PTERA_TAG_DOUBLE;
    case PF_VAL_TENSOR: return PTERA_TAG_TENSOR;
    case PF_VAL_STRING: return PTERA_TAG_STRING;
    case PF_VAL_INT_LIST: return PTERA_TAG_LIST_INT;
    case PF_VAL_DOUBLE_LIST: return PTERA_TAG_LIST_DOUBLE;
    case PF_VAL_BOOL_LIST: return PTERA_TAG_LIST_BOOL;
    case PF_VAL_TENSOR_LIST: return PTERA_TAG_LIST_TENSOR;
    case PF_VAL_OPT_TENSOR_LIST: return PTERA_TAG_LIST_OPTIONAL_TENSOR;
    default: return PTERA_TAG_NONE;
  }
}

static ptera_status io_info(const ptera_program *p, const char *method, size_t index, bool output,
                            ptera_io_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  size_t n = output ? plan->noutputs : plan->ninputs;
  if (!out || index >= n) return PTERA_INVALID_ARGUMENT;
  int32_t value = output ? plan->outputs[index] : plan->inputs[index];
  const pf_value *v = &plan->values[value];
  ptera_io_info io = PTERA_IO_INFO_INIT;
  io.value_index = (size_t)value;
  io.tag = pr_tag_of(v->type);
  if (v->type == PF_VAL_TENSOR) {
    const pf_tensor *t = v->u.tensor;
    io.dtype = (ptera_dtype)t->scalar_type;
    io.dim = t->dim;
    memcpy(io.sizes, t->sizes, sizeof io.sizes);
    memcpy(io.dim_order, t->dim_order, sizeof io.dim_order);
    io.dynamism = (ptera_dynamism)t->dynamism;
    io.memory_planned = t->has_allocation || t->data_buffer_idx != 0;
    io.nbytes = t->nbytes;
  }
  return pt_struct_out(out, &io, sizeof io, PR_IO_INFO_V1_SIZE);
}

ptera_status ptera_program_method_input(const ptera_program *p, const char *method, size_t index,
                                        ptera_io_info *out) {
  return io_info(p, method, index, false, out);
}

ptera_status ptera_program_method_output(const ptera_program *p, const char *method, size_t index,
                                         ptera_io_info *out) {
  return io_info(p, method, index, true, out);
}

ptera_status ptera_program_method_buffer_size(const ptera_program *p, const char *method,
                                              size_t index, uint64_t *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out || index + 1 >= plan->nbuffer_sizes) return PTERA_INVALID_ARGUMENT;
  *out = (uint64_t)plan->buffer_sizes[index + 1];
  return PTERA_OK;
}

ptera_status ptera_program_method_operator(const ptera_program *p, const char *method,
                                           size_t index, const char **out_name,
                                           const char **out_overload) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out_name || !out_overload || index >= plan->nops) return PTERA_INVALID_ARGUMENT;
  *out_name = plan->ops[index].name.ptr;
  *out_overload = plan->ops[index].overload.len ? plan->ops[index].overload.ptr : "";
  return PTERA_OK;
}

ptera_status ptera_program_method_delegate(const ptera_program *p, const char *method,
                                           size_t index, const char **out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out || index >= plan->ndelegates) return PTERA_INVALID_ARGUMENT;
  *out = plan->delegates[index].id.ptr;
  return PTERA_OK;
}
