/* The program inspection queries (ptera/inspect.h), answered from the
 * parsed program alone (no method load). */
#include "runtime/runtime.h"
#include "ptera/inspect.h"

static const pf_pte *loaded(const ptera_program *p) { return p && p->loaded ? &p->pte : NULL; }

ptera_status ptera_program_get_info(const ptera_program *p, ptera_program_info *out) {
  const pf_pte *pte = loaded(p);
  if (!pte || !out) return PTERA_INVALID_ARGUMENT;
  ptera_program_info info = PTERA_PROGRAM_INFO_INIT;
  info.file_size = pte->file_size;
  info.has_extended_header = pte->has_header;
  info.extended_header_length = pte->header_length;
  info.program_size = pte->program_size;
  info.segment_base_offset = pte->segment_base;
  info.segment_data_size = pte->segment_data_size;
  info.num_methods = pte->nplans;
  info.num_segments = pte->nsegments;
  info.num_named_data = pte->nnamed;
  info.has_constant_segment = pte->constant_segment.present;
  info.constant_segment = pte->constant_segment.segment_index;
  info.num_constant_entries = pte->constant_segment.noffsets;
  info.num_legacy_constants = pte->nconstant_buffer;
  info.has_mutable_data = pte->mutable_data.present;
  info.mutable_data_segment = pte->mutable_data.segment_index;
  info.num_mutable_entries = pte->mutable_data.noffsets;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

ptera_status ptera_program_segment(const ptera_program *p, size_t index, ptera_segment_info *out) {
  const pf_pte *pte = loaded(p);
  if (!pte || !out || index >= pte->nsegments) return PTERA_INVALID_ARGUMENT;
  ptera_segment_info info = PTERA_SEGMENT_INFO_INIT;
  info.offset = pte->segments[index].offset;
  info.size = pte->segments[index].size;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

ptera_status ptera_program_named_data_entry(const ptera_program *p, size_t index, ptera_named_data_info *out) {
  const pf_pte *pte = loaded(p);
  if (!pte || !out || index >= pte->nnamed) return PTERA_INVALID_ARGUMENT;
  const pf_named *n = &pte->named[index];
  ptera_named_data_info info = PTERA_NAMED_DATA_INFO_INIT;
  info.key = n->key.ptr;
  info.key_len = n->key.len;
  info.segment = n->segment_index;
  info.has_segment = n->segment_index < pte->nsegments;
  info.nbytes = info.has_segment ? pte->segments[n->segment_index].size : 0;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

static bool listed(const int32_t *idx, uint32_t n, size_t value) {
  for (uint32_t i = 0; i < n; i++)
    if ((size_t)idx[i] == value) return true;
  return false;
}

static void tensor_info(const pf_tensor *t, ptera_value_info *info) {
  info->dtype = (ptera_dtype)t->scalar_type;
  info->dim = t->dim;
  memcpy(info->sizes, t->sizes, sizeof info->sizes);
  memcpy(info->dim_order, t->dim_order, sizeof info->dim_order);
  info->dynamism = (ptera_dynamism)t->dynamism;
  info->nbytes = t->nbytes;
  info->planned = t->has_allocation;
  info->memory_id = t->has_allocation ? t->memory_id : 0;
  info->memory_offset = t->has_allocation ? t->memory_offset : 0;
  if (t->external) info->data = PTERA_DATA_EXTERNAL;
  else if (t->data_buffer_idx) info->data = t->has_allocation ? PTERA_DATA_MUTABLE : PTERA_DATA_CONSTANT;
  info->data_index = t->data_buffer_idx;
  info->key = t->fqn.ptr;
  info->key_len = t->fqn.ptr ? t->fqn.len : 0;
}

ptera_status ptera_program_method_value(const ptera_program *p, const char *method, size_t index,
                                        ptera_value_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out || index >= plan->nvalues) return PTERA_INVALID_ARGUMENT;
  const pf_value *v = &plan->values[index];
  ptera_value_info info = PTERA_VALUE_INFO_INIT;
  info.tag = pr_tag_of(v->type);
  info.is_input = listed(plan->inputs, plan->ninputs, index);
  info.is_output = listed(plan->outputs, plan->noutputs, index);
  switch (v->type) {
    case PF_VAL_INT: info.int_value = v->u.i; break;
    case PF_VAL_DOUBLE: info.double_value = v->u.d; break;
    case PF_VAL_BOOL: info.bool_value = v->u.b; break;
    case PF_VAL_STRING:
      info.string = v->u.str.ptr;
      info.string_len = v->u.str.len;
      break;
    case PF_VAL_INT_LIST: case PF_VAL_TENSOR_LIST: case PF_VAL_OPT_TENSOR_LIST:
      info.list_len = v->u.idx.len;
      break;
    case PF_VAL_DOUBLE_LIST: info.list_len = v->u.doubles.len; break;
    case PF_VAL_BOOL_LIST: info.list_len = v->u.bools.len; break;
    case PF_VAL_TENSOR: tensor_info(v->u.tensor, &info); break;
    default: break;
  }
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

ptera_status ptera_program_method_operator_info(const ptera_program *p, const char *method, size_t index,
                                                ptera_operator_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out || index >= plan->nops) return PTERA_INVALID_ARGUMENT;
  const pf_operator *op = &plan->ops[index];
  ptera_operator_info info = PTERA_OPERATOR_INFO_INIT;
  info.name = op->name.ptr;
  info.name_len = op->name.len;
  info.overload = op->overload.len ? op->overload.ptr : "";
  info.overload_len = op->overload.len;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

ptera_status ptera_program_method_instruction(const ptera_program *p, const char *method, size_t index,
                                              ptera_instruction_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out) return PTERA_INVALID_ARGUMENT;
  size_t first = 0;
  for (uint32_t c = 0; c < plan->nchains; c++) {
    if (index - first < plan->chains[c].ninstrs) {
      const pf_instr *in = &plan->chains[c].instrs[index - first];
      ptera_instruction_info info = PTERA_INSTRUCTION_INFO_INIT;
      info.kind = (ptera_instruction_kind)in->type;
      info.chain = c;
      if (in->type == PF_INSTR_KERNEL) info.operator_index = (size_t)in->a;
      if (in->type == PF_INSTR_DELEGATE) info.delegate_index = (size_t)in->a;
      if (in->type == PF_INSTR_KERNEL || in->type == PF_INSTR_DELEGATE) info.num_args = in->nargs;
      return pt_struct_out(out, &info, sizeof info, sizeof info);
    }
    first += plan->chains[c].ninstrs;
  }
  return PTERA_INVALID_ARGUMENT;
}

ptera_status ptera_program_method_delegate_info(const ptera_program *p, const char *method, size_t index,
                                                ptera_delegate_info *out) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out || index >= plan->ndelegates) return PTERA_INVALID_ARGUMENT;
  const pf_delegate *d = &plan->delegates[index];
  ptera_delegate_info info = PTERA_DELEGATE_INFO_INIT;
  info.id = d->id.ptr;
  info.id_len = d->id.len;
  info.location = d->location ? PTERA_DELEGATE_SEGMENT : PTERA_DELEGATE_INLINE;
  info.index = d->index;
  info.num_compile_specs = d->nspecs;
  pf_bytes blob;
  info.has_blob = pf_pte_delegate_blob(&p->pte, d, &blob, NULL) == PTERA_OK;
  info.blob_size = info.has_blob ? blob.len : 0;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

ptera_status ptera_program_method_delegate_blob(const ptera_program *p, const char *method, size_t index,
                                                const void **out_data, size_t *out_size) {
  const pf_plan *plan = pr_plan_or_fail(p, method);
  if (!plan) return PTERA_NOT_FOUND;
  if (!out_data || !out_size || index >= plan->ndelegates) return PTERA_INVALID_ARGUMENT;
  pf_bytes blob;
  ptera_status st = pf_pte_delegate_blob(&p->pte, &plan->delegates[index], &blob, &((ptera_program *)p)->err);
  if (st != PTERA_OK) return st;
  if (blob.len > SIZE_MAX)
    return pt_fail(&((ptera_program *)p)->err, PTERA_NOT_SUPPORTED, "delegate %zu's blob does not fit in memory",
                   index);
  *out_data = blob.ptr;
  *out_size = (size_t)blob.len;
  return PTERA_OK;
}
