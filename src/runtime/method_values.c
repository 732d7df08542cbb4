/* Method load, step 1: materialise every value (EXECUTION.md §3, docs/PTE.md §6). */
#include <stdarg.h>
#include <stdio.h>

#include "runtime/runtime.h"

/* Fails with a message prefixed by the method and value index. */
#if PTERA_STRIP_MESSAGES
#define failv(m, idx, code, ...) ((void)(idx), pt_fail(&(m)->err, (code), __VA_ARGS__))
#else
static ptera_status PT_PRINTF(4, 5)
    failv(ptera_method *m, uint32_t idx, ptera_status code, const char *fmt, ...) {
  char msg[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pt_fail(&m->err, code, "%s", msg);
  pt_err_prefix(&m->err, "method '%s' value %u", m->plan->name.ptr, idx);
  return code;
}
#endif

static bool layout_matches(const pf_tensor *t, const pf_layout *l) {
  if (l->scalar_type != t->scalar_type || l->dim != t->dim) return false;
  for (uint8_t d = 0; d < t->dim; d++)
    if (l->sizes[d] != t->sizes[d] || l->dim_order[d] != t->dim_order[d]) return false;
  return true;
}

/* Finds the .ptd blob for an EXTERNAL tensor and checks it fits. */
static ptera_status external_data(ptera_method *m, uint32_t idx, const pf_tensor *t,
                                  const uint8_t **out) {
  const ptera_program *p = m->program;
  if (!t->fqn.ptr)
    return failv(m, idx, PTERA_INVALID_EXTERNAL_DATA,
                 "tensor is stored outside the program but has no fully qualified name");
  if (!p->files)
    return failv(m, idx, PTERA_INVALID_EXTERNAL_DATA,
                 "tensor '%s' is stored in an external .ptd data file and none is attached; "
                 "attach the .ptd exported with this program (ptera run --data FILE.ptd)",
                 t->fqn.ptr);
  const pr_datafile *f = NULL;
  const pf_ptd_entry *e = pr_find_external(p, t->fqn.ptr, t->fqn.len, &f);
  if (!e)
    return failv(m, idx, PTERA_NOT_FOUND,
                 "key '%s' is not in the attached data file%s (first: '%s'); the .ptd likely "
                 "comes from another export of the model",
                 t->fqn.ptr, p->nfiles > 1 ? "s" : "", p->files->name);
  if (e->layout.present && !layout_matches(t, &e->layout))
    return failv(m, idx, PTERA_INVALID_EXTERNAL_DATA,
                 "key '%s' in '%s' holds a %s tensor of rank %u whose shape or dim order differs "
                 "from the program's %s tensor of rank %u; the .ptd likely comes from another "
                 "export of the model",
                 t->fqn.ptr, f->name, ptera_dtype_name(e->layout.scalar_type), e->layout.dim,
                 ptera_dtype_name(t->scalar_type), t->dim);
  if (e->data.len < t->nbytes)
    return failv(m, idx, PTERA_INVALID_EXTERNAL_DATA,
                 "key '%s' in '%s' has %llu bytes, the tensor needs %llu; the .ptd likely comes "
                 "from another export of the model",
                 t->fqn.ptr, f->name, (unsigned long long)e->data.len,
                 (unsigned long long)t->nbytes);
  *out = e->data.ptr;
  return PTERA_OK;
}

/* The alignment an element of dtype needs (its size, at most 8). */
static size_t elem_align(int dtype) {
  size_t n = ptera_dtype_size(dtype);
  return n == 0 ? 1 : n > 8 ? 8 : n;
}

static ptera_status planned_address(ptera_method *m, uint32_t idx, const pf_tensor *t,
                                    uint8_t **out) {
  if (t->memory_id == 0 || t->memory_id >= m->nbuffers)
    return failv(m, idx, PTERA_INVALID_ARGUMENT,
                 "tensor is planned in buffer %u, but the method has %u planned buffers",
                 t->memory_id, m->nbuffers ? m->nbuffers - 1 : 0);
  uint64_t end;
  if (!pt_add_u64(t->memory_offset, t->nbytes, &end) || end > m->buffer_sizes[t->memory_id])
    return failv(m, idx, PTERA_MEMORY_ALLOCATION_FAILED,
                 "tensor of %llu bytes at offset %llu does not fit planned buffer %u (%llu bytes)",
                 (unsigned long long)t->nbytes, (unsigned long long)t->memory_offset,
                 t->memory_id - 1, (unsigned long long)m->buffer_sizes[t->memory_id]);
  if (t->nbytes && ((uintptr_t)(m->buffers[t->memory_id] + t->memory_offset) &
                    (elem_align(t->scalar_type) - 1)))
    return failv(m, idx, PTERA_INVALID_PROGRAM,
                 "%s tensor at offset %llu of planned buffer %u is not aligned to %zu bytes",
                 ptera_dtype_name(t->scalar_type), (unsigned long long)t->memory_offset,
                 t->memory_id - 1, elem_align(t->scalar_type));
  *out = m->buffers[t->memory_id] + t->memory_offset;
  return PTERA_OK;
}

static ptera_status load_tensor(ptera_method *m, uint32_t idx, const pf_tensor *t,
                                ptera_tensor **out) {
  if (t->dynamism == PTERA_SHAPE_DYNAMIC_UNBOUND)
    return failv(m, idx, PTERA_NOT_SUPPORTED, "tensor has unbounded dynamic shape");
  if (t->storage_offset != 0)
    return failv(m, idx, PTERA_NOT_SUPPORTED, "tensor has storage offset %d (only 0 is supported)",
                 t->storage_offset);
  uint64_t numel = 1;
  for (uint8_t d = 0; d < t->dim; d++) numel *= (uint64_t)t->sizes[d]; /* nbytes did not overflow */
  if (t->nbytes > SIZE_MAX || numel > INT32_MAX)
    return failv(m, idx, PTERA_NOT_SUPPORTED,
                 "tensor has %llu elements (%llu bytes); the limit is 2^31-1 elements",
                 (unsigned long long)numel, (unsigned long long)t->nbytes);
  ptera_tensor *rt = pt_arena_alloc(&m->arena, sizeof *rt, 16);
  if (!rt) return failv(m, idx, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  rt->dim = t->dim;
  rt->dtype = t->scalar_type;
  rt->dynamism = t->dynamism;
  memcpy(rt->sizes, t->sizes, sizeof rt->sizes);
  memcpy(rt->dim_order, t->dim_order, sizeof rt->dim_order);
  rt->numel = (size_t)numel;
  rt->capacity = (size_t)t->nbytes;
  ptera_tensor_update_strides(rt);
  *out = rt;

  ptera_status st = PTERA_OK;
  uint8_t *planned = NULL;
  const uint8_t *src = NULL;
  if (t->has_allocation) {
    st = planned_address(m, idx, t, &planned);
    if (st != PTERA_OK) return st;
    rt->data = planned;
    rt->flags = PTERA_TENSOR_PLANNED;
  }
  if (t->external) {
    st = external_data(m, idx, t, &src);
    if (st != PTERA_OK) return st;
  } else if (t->data_buffer_idx != 0) {
    pt_err e;
    st = planned ? pf_pte_mutable(&m->program->pte, t->data_buffer_idx, t->nbytes, &src, &e)
                 : pf_pte_constant(&m->program->pte, t->data_buffer_idx, t->nbytes, &src, &e);
    if (st != PTERA_OK) return failv(m, idx, st, "%s", e.msg);
  }
  if (src && planned) {
    if (t->nbytes) memcpy(planned, src, (size_t)t->nbytes);
  } else if (src) {
    /* Used in place, so it must be aligned for its element type: kernels
     * load elements directly. A shifted constant offset would otherwise be
     * undefined behaviour (and a fault on strict-alignment targets). */
    if (t->nbytes && ((uintptr_t)src & (elem_align(t->scalar_type) - 1)))
      return failv(m, idx, t->external ? PTERA_INVALID_EXTERNAL_DATA : PTERA_INVALID_PROGRAM,
                   "%s tensor data at file offset %llu is not aligned to %zu bytes",
                   ptera_dtype_name(t->scalar_type),
                   (unsigned long long)(t->external ? 0 : (uint64_t)(src - m->program->pte.file)),
                   elem_align(t->scalar_type));
    rt->data = (void *)(uintptr_t)src; /* read-only program or .ptd data */
    rt->flags = PTERA_TENSOR_CONST;
  }
  /* Kernels load elements in place: data must be aligned to its element size. */
  size_t align = ptera_dtype_size(t->scalar_type);
  if (rt->data && align > 1 && ((uintptr_t)rt->data & (align - 1)))
    return failv(m, idx, PTERA_INVALID_PROGRAM,
                 "%s tensor data at %s is not aligned to its %zu-byte elements",
                 ptera_dtype_name(t->scalar_type), planned ? "a planned offset" : "its file offset",
                 align);
  return PTERA_OK;
}

/* Builds a list of value pointers from value indices (-1 = None). */
static ptera_status load_list(ptera_method *m, uint32_t idx, const pf_value *v, ptera_value *out) {
  ptera_value **items = pt_arena_array(&m->arena, v->u.idx.len ? v->u.idx.len : 1, sizeof *items, 8);
  if (!items) return failv(m, idx, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  for (uint32_t k = 0; k < v->u.idx.len; k++) {
    int32_t j = v->u.idx.items[k];
    items[k] = j < 0 ? NULL : &m->values[j];
  }
  out->u.list.items = items;
  out->u.list.len = v->u.idx.len;
  return PTERA_OK;
}

/* Second pass: list items must reference values of the right kind. */
static ptera_status check_lists(ptera_method *m) {
  for (uint32_t i = 0; i < m->nvalues; i++) {
    const ptera_value *v = &m->values[i];
    if (v->tag != PTERA_TAG_LIST_TENSOR && v->tag != PTERA_TAG_LIST_OPTIONAL_TENSOR &&
        v->tag != PTERA_TAG_LIST_INT)
      continue;
    for (size_t k = 0; k < v->u.list.len; k++) {
      const ptera_value *item = v->u.list.items[k];
      bool ok;
      if (v->tag == PTERA_TAG_LIST_INT) ok = item && item->tag == PTERA_TAG_INT;
      else if (v->tag == PTERA_TAG_LIST_TENSOR) ok = item && item->tag == PTERA_TAG_TENSOR;
      else ok = !item || item->tag == PTERA_TAG_TENSOR || item->tag == PTERA_TAG_NONE;
      if (!ok)
        return failv(m, i, PTERA_INVALID_PROGRAM, "%s item %zu refers to a %s value",
                     ptera_tag_name(v->tag), k, item ? ptera_tag_name(item->tag) : "missing");
    }
  }
  return PTERA_OK;
}

ptera_status pr_method_load_values(ptera_method *m) {
  const pf_plan *plan = m->plan;
  m->nvalues = plan->nvalues;
  m->values = pt_arena_array(&m->arena, plan->nvalues ? plan->nvalues : 1, sizeof *m->values, 16);
  if (!m->values)
    return pt_fail(&m->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for %u values",
                   plan->nvalues);
  for (uint32_t i = 0; i < plan->nvalues; i++) {
    const pf_value *v = &plan->values[i];
    ptera_value *out = &m->values[i];
    ptera_status st = PTERA_OK;
    switch (v->type) {
      case PF_VAL_NULL: out->tag = PTERA_TAG_NONE; break;
      case PF_VAL_INT: out->tag = PTERA_TAG_INT; out->u.i = v->u.i; break;
      case PF_VAL_BOOL: out->tag = PTERA_TAG_BOOL; out->u.b = v->u.b; break;
      case PF_VAL_DOUBLE: out->tag = PTERA_TAG_DOUBLE; out->u.d = v->u.d; break;
      case PF_VAL_STRING:
        out->tag = PTERA_TAG_STRING;
        out->u.str.ptr = v->u.str.ptr;
        out->u.str.len = v->u.str.len;
        break;
      case PF_VAL_TENSOR:
        out->tag = PTERA_TAG_TENSOR;
        st = load_tensor(m, i, v->u.tensor, &out->u.tensor);
        break;
      case PF_VAL_INT_LIST: out->tag = PTERA_TAG_LIST_INT; st = load_list(m, i, v, out); break;
      case PF_VAL_TENSOR_LIST: out->tag = PTERA_TAG_LIST_TENSOR; st = load_list(m, i, v, out); break;
      case PF_VAL_OPT_TENSOR_LIST:
        out->tag = PTERA_TAG_LIST_OPTIONAL_TENSOR;
        st = load_list(m, i, v, out);
        break;
      case PF_VAL_DOUBLE_LIST:
        out->tag = PTERA_TAG_LIST_DOUBLE;
        out->u.doubles.items = v->u.doubles.items;
        out->u.doubles.len = v->u.doubles.len;
        break;
      case PF_VAL_BOOL_LIST:
        out->tag = PTERA_TAG_LIST_BOOL;
        out->u.bools.items = v->u.bools.items;
        out->u.bools.len = v->u.bools.len;
        break;
      default:
        st = failv(m, i, PTERA_INVALID_PROGRAM, "unknown value type %u", v->type);
    }
    if (st != PTERA_OK) return st;
  }
  return check_lists(m);
}
