/* Method instances: create, destroy, bind inputs and outputs. */
#include <math.h>
#include <stdio.h>

#include "runtime/runtime.h"

/* The kernel scratch arena (ptera_method_options.temp_size overrides it) is
 * the larger of the largest workspace a prepare step declared and what the
 * portable kernels take without declaring (from their arguments): a pointer per item of a tensor
 * list (cat, stack, index), two doubles per statistics group of a norm
 * (groups <= the input's elements), an index per element along topk's dim,
 * rank indices per true element of an index mask, a length per split. All
 * are at most 8 bytes x max(rank, 2) per element of one of the method's
 * tensors, or 8 bytes per item of one of its lists; the default covers that
 * for the method's largest value plus PTERA_TEMP_SLACK (alignment, a second
 * request), within [PTERA_TEMP_MIN, PTERA_TEMP_PORTABLE_MAX]. */

static ptera_status setup_buffers(ptera_method *m, const ptera_method_options *o) {
  const pf_plan *plan = m->plan;
  m->nbuffers = plan->nbuffer_sizes ? plan->nbuffer_sizes : 1;
  m->buffers = pt_arena_array(&m->arena, m->nbuffers, sizeof *m->buffers, 8);
  m->buffer_sizes = pt_arena_array(&m->arena, m->nbuffers, sizeof *m->buffer_sizes, 8);
  if (!m->buffers || !m->buffer_sizes)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  uint64_t total = 0;
  for (uint32_t j = 1; j < m->nbuffers; j++) {
    if (plan->buffer_sizes[j] < 0)
      return pt_fail(&m->err, PTERA_INVALID_PROGRAM, "method '%s' planned buffer %u has size %lld",
                     plan->name.ptr, j - 1, (long long)plan->buffer_sizes[j]);
    m->buffer_sizes[j] = (uint64_t)plan->buffer_sizes[j];
    if (!pt_add_u64(total, m->buffer_sizes[j], &total)) total = UINT64_MAX;
  }
  size_t needed = m->nbuffers - 1;
  if (o && o->planned_buffers) {
    if (o->num_planned_buffers != needed)
      return pt_fail(&m->err, PTERA_INVALID_ARGUMENT,
                     "method '%s' needs %zu planned buffers, %zu were given", plan->name.ptr,
                     needed, o->num_planned_buffers);
    for (size_t j = 0; j < needed; j++) {
      if (!o->planned_buffers[j] && m->buffer_sizes[j + 1])
        return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "planned buffer %zu is NULL", j);
      m->buffers[j + 1] = o->planned_buffers[j];
    }
    return PTERA_OK;
  }
  uint64_t limit = m->program->options.max_planned_bytes;
  if (total > limit)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "method '%s' needs %llu bytes of planned memory, over the limit of %llu bytes "
                   "(ptera_load_options.max_planned_bytes)",
                   plan->name.ptr, (unsigned long long)total, (unsigned long long)limit);
  m->owns_buffers = true;
  for (uint32_t j = 1; j < m->nbuffers; j++) {
    if (m->buffer_sizes[j] > SIZE_MAX)
      return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "planned buffer too large");
    m->buffers[j] = pt_calloc(m->allocator, 1, (size_t)m->buffer_sizes[j], 64);
    if (!m->buffers[j])
      return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED,
                     "cannot allocate planned buffer %u of method '%s' (%llu bytes)", j - 1,
                     plan->name.ptr, (unsigned long long)m->buffer_sizes[j]);
  }
  return PTERA_OK;
}

/* The bound of one value (above): 8 bytes x max(rank, 2) per element of a
 * tensor, 8 per item of a list (and its tensors' own bounds). */
static size_t value_temp(const ptera_value *v) {
  size_t items;
  if (v->tag == PTERA_TAG_TENSOR) {
    const ptera_tensor *t = v->u.tensor;
    items = t->dim > 2 ? t->dim : 2;
    items = t->numel > PTERA_TEMP_PORTABLE_MAX / items ? PTERA_TEMP_PORTABLE_MAX : items * t->numel;
  } else if (v->tag == PTERA_TAG_LIST_TENSOR || v->tag == PTERA_TAG_LIST_OPTIONAL_TENSOR ||
             v->tag == PTERA_TAG_LIST_INT) {
    items = v->u.list.len;
    if (v->tag != PTERA_TAG_LIST_INT)
      for (size_t k = 0; k < v->u.list.len; k++) {
        const ptera_value *item = v->u.list.items[k];
        size_t b = item && item->tag == PTERA_TAG_TENSOR ? value_temp(item) : 0;
        if (b / 8 > items) items = b / 8;
      }
  } else {
    return 0;
  }
  return items > PTERA_TEMP_PORTABLE_MAX / 8 ? PTERA_TEMP_PORTABLE_MAX : 8 * items;
}

/* What the portable kernels may take from the temp arena (above): the
 * bound over the arguments of the method's kernel calls. The cortex_m::
 * kernels take nothing from it, so their arguments do not count (a Cortex-M
 * program's scratch tensors would otherwise reserve 16 bytes per byte). */
static size_t portable_temp_bound(const ptera_method *m) {
  const pf_plan *plan = m->plan;
  size_t need = 0;
  for (uint32_t c = 0; c < plan->nchains; c++)
    for (uint32_t k = 0; k < plan->chains[c].ninstrs; k++) {
      const pf_instr *in = &plan->chains[c].instrs[k];
      if (in->type != PF_INSTR_KERNEL || !strncmp(m->op_names[in->a], "cortex_m::", 10)) continue;
      for (uint32_t j = 0; j < in->nargs; j++) {
        size_t b = value_temp(&m->values[in->args[j]]);
        if (b > need) need = b;
      }
    }
  need += PTERA_TEMP_SLACK;
  if (need > PTERA_TEMP_PORTABLE_MAX) need = PTERA_TEMP_PORTABLE_MAX;
  return need < PTERA_TEMP_MIN ? PTERA_TEMP_MIN : need;
}

static ptera_status setup_temp(ptera_method *m, const ptera_method_options *o) {
  if (o && o->temp_size) {
    m->temp_size = o->temp_size;
    if (m->delegate_temp > m->temp_size)
      return pt_fail(&m->err, PTERA_OUT_OF_RESOURCES,
                     "method '%s': a delegate needs %zu bytes of scratch, more than the %zu-byte temp "
                     "arena (raise ptera_method_options.temp_size)",
                     m->plan->name.ptr, m->delegate_temp, m->temp_size);
  } else {
    m->temp_size = portable_temp_bound(m);
    if (m->max_workspace > m->temp_size) m->temp_size = m->max_workspace;
    if (m->delegate_temp > m->temp_size) m->temp_size = m->delegate_temp;
  }
  m->temp = pt_alloc(m->allocator, m->temp_size, 64);
  if (!m->temp)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "cannot allocate the %zu-byte kernel scratch arena of method '%s'",
                   m->temp_size, m->plan->name.ptr);
  return PTERA_OK;
}

static ptera_status method_init(ptera_method *m, const ptera_method_options *o) {
  m->pool = o ? o->threadpool : NULL;
  ptera_status st = setup_buffers(m, o);
  if (st != PTERA_OK) return st;
  m->input_set = pt_arena_array(&m->arena, m->plan->ninputs ? m->plan->ninputs : 1, 1, 1);
  if (!m->input_set) return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  st = pr_method_load_values(m);
  if (st == PTERA_OK) st = pr_method_load_delegates(m);
  if (st == PTERA_OK) st = pr_method_load_instructions(m);
  if (st == PTERA_OK) st = pr_method_index_instructions(m);
#if PTERA_FUSION
  if (st == PTERA_OK && !(o && (o->flags & PTERA_METHOD_NO_FUSION))) st = pr_method_fuse(m);
#endif
  if (st == PTERA_OK) st = pr_method_prepare(m);
  if (st == PTERA_OK) st = setup_temp(m, o);
  if (st == PTERA_OK) {
    /* Non-tensor inputs can only take their exported value, which they hold. */
    for (uint32_t i = 0; i < m->plan->ninputs; i++)
      if (m->values[m->plan->inputs[i]].tag != PTERA_TAG_TENSOR) m->input_set[i] = true;
    m->initialized = true;
  }
  return st;
}

ptera_status ptera_method_create(ptera_program *p, const char *name,
                                 const ptera_method_options *options, ptera_method **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = NULL;
  if (!p) return PTERA_INVALID_ARGUMENT;
  ptera_method_options opts = PTERA_METHOD_OPTIONS_INIT;
  pt_err err = {PTERA_OK, ""};
  ptera_status st = options ? pt_struct_in(&opts, sizeof opts, options, PR_METHOD_OPTIONS_V1_SIZE,
                                           "ptera_method_options", &err)
                            : PTERA_OK;
  const ptera_method_options *o = &opts;
  const ptera_allocator *a = o->allocator ? o->allocator : p->allocator;
  ptera_method *m = pt_calloc(a, 1, sizeof *m, 16);
  if (!m) return PTERA_MEMORY_ALLOCATION_FAILED;
  m->program = p;
  m->allocator = a;
  m->err = err;
  pt_arena_init(&m->arena, a);
  *out = m;
  if (st != PTERA_OK) return st;
  if (!p->loaded)
    return pt_fail(&m->err, PTERA_INVALID_STATE, "the program did not load: %s", p->err.msg);
  m->plan = pr_find_plan(p, name);
  if (!m->plan) {
    char names[256] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < p->pte.nplans && used < sizeof names; i++) {
      int w = pt_snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                       p->pte.plans[i].name.ptr);
      if (w > 0) used += (size_t)w;
    }
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "the program has no method '%s' (methods: %s)",
                   name ? name : "(null)", names);
  }
  return method_init(m, o);
}

void ptera_method_destroy(ptera_method *m) {
  if (!m) return;
  if (m->plan && m->delegates)
    for (uint32_t i = 0; i < m->plan->ndelegates; i++)
      if (m->delegates[i].initialized && m->delegates[i].backend->destroy)
        m->delegates[i].backend->destroy(m->delegates[i].handle);
  if (m->owns_buffers)
    for (uint32_t j = 1; j < m->nbuffers; j++) pt_free(m->allocator, m->buffers[j]);
  pr_method_release_prepared(m);
  pt_free(m->allocator, m->temp);
  pt_arena_release(&m->arena);
  pt_free(m->allocator, m);
}

const char *ptera_method_errmsg(const ptera_method *m) { return m ? m->err.msg : "out of memory"; }

size_t ptera_method_input_count(const ptera_method *m) {
  return m && m->initialized ? m->plan->ninputs : 0;
}

size_t ptera_method_output_count(const ptera_method *m) {
  return m && m->initialized ? m->plan->noutputs : 0;
}

static ptera_value *input_value(ptera_method *m, size_t index, ptera_tag tag, ptera_status *st) {
  if (!m) {
    *st = PTERA_INVALID_ARGUMENT;
    return NULL;
  }
  if (!m->initialized) {
    *st = pt_fail(&m->err, PTERA_INVALID_STATE, "the method did not load");
    return NULL;
  }
  if (index >= m->plan->ninputs) {
    *st = pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu does not exist; method '%s' has %u",
                  index, m->plan->name.ptr, m->plan->ninputs);
    return NULL;
  }
  ptera_value *v = &m->values[m->plan->inputs[index]];
  if (v->tag != tag) {
    *st = pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu of method '%s' is a %s, not a %s",
                  index, m->plan->name.ptr, ptera_tag_name(v->tag), ptera_tag_name(tag));
    return NULL;
  }
  *st = PTERA_OK;
  return v;
}

ptera_status ptera_method_set_input_tensor(ptera_method *m, size_t index, ptera_dtype dtype,
                                           size_t dim, const int32_t *sizes, const void *data,
                                           size_t nbytes) {
  ptera_status st;
  ptera_value *v = input_value(m, index, PTERA_TAG_TENSOR, &st);
  if (!v) return st;
  ptera_tensor *t = v->u.tensor;
  if ((int)dtype != t->dtype)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu of method '%s' is %s, not %s", index,
                   m->plan->name.ptr, ptera_dtype_name(t->dtype), ptera_dtype_name(dtype));
  if (dim > PTERA_MAX_DIM || (dim && !sizes))
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu: bad rank %zu", index, dim);
  st = ptera_tensor_resize(t, dim, sizes);
  if (st != PTERA_OK)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT,
                   "input %zu of method '%s': the given shape does not fit the program's %s "
                   "tensor of rank %u",
                   index, m->plan->name.ptr,
                   t->dynamism == PTERA_SHAPE_STATIC ? "static" : "dynamic", t->dim);
  size_t need = ptera_tensor_nbytes(t);
  if (nbytes != need)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu of method '%s': %zu bytes given, %zu expected",
                   index, m->plan->name.ptr, nbytes, need);
  if (need && !data)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "input %zu: no data", index);
  if (t->flags & PTERA_TENSOR_CONST)
    return pt_fail(&m->err, PTERA_NOT_SUPPORTED, "input %zu of method '%s' is constant program data",
                   index, m->plan->name.ptr);
  if (t->flags & PTERA_TENSOR_PLANNED) {
    if (need) memcpy(t->data, data, need);
  } else {
    size_t align = ptera_dtype_size(t->dtype);
    if (align > 1 && ((uintptr_t)data & (align - 1)))
      return pt_fail(&m->err, PTERA_INVALID_ARGUMENT,
                     "input %zu of method '%s': data must be aligned to %zu bytes", index,
                     m->plan->name.ptr, align);
    t->data = (void *)(uintptr_t)data;
  }
  m->input_set[index] = true;
  return PTERA_OK;
}

static ptera_status scalar_mismatch(ptera_method *m, size_t index) {
  return pt_fail(&m->err, PTERA_INVALID_ARGUMENT,
                 "input %zu of method '%s' was fixed to another value when the program was "
                 "exported",
                 index, m->plan->name.ptr);
}

ptera_status ptera_method_set_input_int(ptera_method *m, size_t index, int64_t value) {
  ptera_status st;
  ptera_value *v = input_value(m, index, PTERA_TAG_INT, &st);
  if (!v) return st;
  if (v->u.i != value) return scalar_mismatch(m, index);
  m->input_set[index] = true;
  return PTERA_OK;
}

ptera_status ptera_method_set_input_bool(ptera_method *m, size_t index, bool value) {
  ptera_status st;
  ptera_value *v = input_value(m, index, PTERA_TAG_BOOL, &st);
  if (!v) return st;
  if (v->u.b != value) return scalar_mismatch(m, index);
  m->input_set[index] = true;
  return PTERA_OK;
}

ptera_status ptera_method_set_input_double(ptera_method *m, size_t index, double value) {
  ptera_status st;
  ptera_value *v = input_value(m, index, PTERA_TAG_DOUBLE, &st);
  if (!v) return st;
  double b = v->u.d;
  bool equal;
  if (isnan(value) || isnan(b)) equal = isnan(value) && isnan(b);
  else if (isinf(value) || isinf(b)) equal = value == b;
  else equal = fabs(value - b) <= 1e-4 + 1e-5 * fabs(b);
  if (!equal) return scalar_mismatch(m, index);
  m->input_set[index] = true;
  return PTERA_OK;
}

ptera_status ptera_method_set_input_none(ptera_method *m, size_t index) {
  ptera_status st;
  ptera_value *v = input_value(m, index, PTERA_TAG_NONE, &st);
  if (!v) return st;
  m->input_set[index] = true;
  return PTERA_OK;
}

ptera_status ptera_method_set_output_buffer(ptera_method *m, size_t index, void *data, size_t size) {
  if (!m) return PTERA_INVALID_ARGUMENT;
  if (!m->initialized) return pt_fail(&m->err, PTERA_INVALID_STATE, "the method did not load");
  if (index >= m->plan->noutputs)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "output %zu does not exist", index);
  ptera_value *v = &m->values[m->plan->outputs[index]];
  if (v->tag != PTERA_TAG_TENSOR)
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "output %zu is not a tensor", index);
  ptera_tensor *t = v->u.tensor;
  if (t->flags & (PTERA_TENSOR_PLANNED | PTERA_TENSOR_CONST))
    return pt_fail(&m->err, PTERA_INVALID_STATE,
                   "output %zu already has memory (planned or constant)", index);
  size_t align = ptera_dtype_size(t->dtype);
  if (align > 1 && ((uintptr_t)data & (align - 1)))
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "output %zu: data must be aligned to %zu bytes",
                   index, align);
  if (size < t->capacity || (!data && t->capacity))
    return pt_fail(&m->err, PTERA_INVALID_ARGUMENT, "output %zu needs %zu bytes, %zu given", index,
                   t->capacity, size);
  t->data = data;
  return PTERA_OK;
}

const ptera_value *ptera_method_output(const ptera_method *m, size_t index) {
  if (!m || !m->initialized || index >= m->plan->noutputs) return NULL;
  return &m->values[m->plan->outputs[index]];
}

const ptera_value *ptera_method_input(const ptera_method *m, size_t index) {
  if (!m || !m->initialized || index >= m->plan->ninputs) return NULL;
  return &m->values[m->plan->inputs[index]];
}
