/* Verifying .pte reader (docs/PTE.md). Every byte read goes through flatbuf.h;
 * the decoded structure lives in the caller's arena. */
#include "format/pte.h"

#include <stdarg.h>
#include <stdio.h>

#include "format/flatbuf.h"

#define PTE_HEAD_MIN 24u /* extended header: smallest accepted length */

/* Element size of ScalarType codes 0..29 (docs/PTE.md §4.1). */
static const uint8_t k_elem_size[30] = {1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 1, 1, 4,
                                        2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 4, 8};

typedef struct rd {
  pf_fb fb;
  pt_arena *arena;
  pt_err *err;
  pf_pte *pte;
  char where[200]; /* "method 'forward' value 12" */
} rd;

/* Fails with the flatbuffer reader's reason: "<where>: <what>: <why>". */
static ptera_status fbe(rd *r, const char *what) {
  return pf_fb_error(&r->fb, r->err, PTERA_INVALID_PROGRAM, "%s%s%s", r->where,
                     r->where[0] ? ": " : "", what);
}

/* Fails with a semantic problem, prefixed with r->where. */
#if PTERA_STRIP_MESSAGES
#define bad(r, ...) pt_fail((r)->err, PTERA_INVALID_PROGRAM, __VA_ARGS__)
#else
static ptera_status bad(rd *r, const char *fmt, ...) PT_PRINTF(2, 3);
static ptera_status bad(rd *r, const char *fmt, ...) {
  char msg[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return pt_fail(r->err, PTERA_INVALID_PROGRAM, "%s%s%s", r->where, r->where[0] ? ": " : "", msg);
}
#endif

static ptera_status oom(rd *r) {
  return pt_fail(r->err, PTERA_MEMORY_ALLOCATION_FAILED, "%s%sout of memory decoding the program",
                 r->where, r->where[0] ? ": " : "");
}

/* Arena array; never NULL for n == 0 (returns a 1-element block). */
static void *arr(rd *r, uint32_t n, size_t size, size_t align) {
  return pt_arena_array(r->arena, n ? n : 1, size, align);
}

static pf_str mkstr(pf_fb_str s) {
  pf_str out;
  out.ptr = s.ptr;
  out.len = s.len;
  return out;
}

/* Prints at most 64 bytes of a name, for messages. */
#define NAMEFMT "%.*s"
#define NAMEARG(s) (int)((s).len > 64 ? 64 : (s).len), ((s).ptr ? (s).ptr : "")

/* ------------------------------------------------------------------ */
/* Tensors and values                                                  */

static ptera_status read_tensor(rd *r, const pf_fb_table *t, pf_tensor *out) {
  int8_t st;
  pf_fb_vec sizes, order;
  if (!pf_fb_i8(&r->fb, t, 0, 0, &st)) return fbe(r, "tensor scalar_type");
  if (st < 0 || st > 29) return bad(r, "tensor has invalid scalar_type %d (valid: 0..29)", st);
  out->scalar_type = (uint8_t)st;
  if (!pf_fb_i32(&r->fb, t, 1, 0, &out->storage_offset)) return fbe(r, "tensor storage_offset");
  if (!pf_fb_vec_field(&r->fb, t, 2, 4, &sizes)) return fbe(r, "tensor sizes");
  if (!sizes.present) return bad(r, "tensor has no sizes");
  if (sizes.count > PTERA_MAX_DIM)
    return bad(r, "tensor has rank %u (at most %d supported)", (unsigned)sizes.count, PTERA_MAX_DIM);
  out->dim = (uint8_t)sizes.count;
  if (!pf_fb_vec_field(&r->fb, t, 3, 1, &order)) return fbe(r, "tensor dim_order");
  if (!order.present) return bad(r, "tensor has no dim_order");
  if (order.count != sizes.count)
    return bad(r, "tensor dim_order has %u entries but the tensor has rank %u",
               (unsigned)order.count, (unsigned)sizes.count);
  unsigned seen = 0;
  for (uint32_t i = 0; i < sizes.count; i++) {
    int32_t s = pf_fb_vec_i32(&r->fb, &sizes, i);
    if (s < 0) return bad(r, "tensor size %d in dimension %u is negative", s, (unsigned)i);
    out->sizes[i] = s;
    uint8_t d = pf_fb_vec_u8(&r->fb, &order, i);
    if (d >= sizes.count || (seen & (1u << d)))
      return bad(r, "tensor dim_order is not a permutation of 0..%u", (unsigned)sizes.count - 1);
    seen |= 1u << d;
    out->dim_order[i] = d;
  }
  if (!pf_fb_u32(&r->fb, t, 5, 0, &out->data_buffer_idx)) return fbe(r, "tensor data_buffer_idx");
  pf_fb_table alloc;
  if (!pf_fb_table_field(&r->fb, t, 6, &alloc)) return fbe(r, "tensor allocation_info");
  if (alloc.present) {
    uint32_t lo, hi;
    if (!pf_fb_u32(&r->fb, &alloc, 0, 0, &out->memory_id) || !pf_fb_u32(&r->fb, &alloc, 1, 0, &lo) ||
        !pf_fb_u32(&r->fb, &alloc, 2, 0, &hi))
      return fbe(r, "tensor allocation_info");
    out->has_allocation = true;
    out->memory_offset = ((uint64_t)hi << 32) | lo;
  }
  int8_t dyn;
  if (!pf_fb_i8(&r->fb, t, 8, 0, &dyn)) return fbe(r, "tensor shape_dynamism");
  if (dyn < 0 || dyn > 2) return bad(r, "tensor has invalid shape_dynamism %d (valid: 0..2)", dyn);
  out->dynamism = (uint8_t)dyn;
  pf_fb_table extra;
  if (!pf_fb_table_field(&r->fb, t, 9, &extra)) return fbe(r, "tensor extra_tensor_info");
  if (extra.present) {
    pf_fb_str fqn;
    int8_t loc;
    if (!pf_fb_str_field(&r->fb, &extra, 1, &fqn))
      return fbe(r, "tensor extra_tensor_info.fully_qualified_name");
    if (!pf_fb_i8(&r->fb, &extra, 2, 0, &loc)) return fbe(r, "tensor extra_tensor_info.location");
    if (loc < 0 || loc > 1)
      return bad(r, "tensor has invalid data location %d (valid: 0 SEGMENT, 1 EXTERNAL)", loc);
    out->has_extra = true;
    out->external = loc == 1;
    out->fqn = mkstr(fqn);
  }
  uint64_t n = k_elem_size[st];
  bool overflow = false;
  for (uint32_t i = 0; i < out->dim; i++)
    if (!pt_mul_u64(n, (uint64_t)out->sizes[i], &n)) {
      overflow = true;
      break;
    }
  if (overflow) {
    if (out->dynamism == 0) return bad(r, "tensor byte size overflows");
    n = UINT64_MAX; /* dynamic upper bound too large to plan: saturate */
  }
  out->nbytes = n;
  return PTERA_OK;
}

/* Copies an [int] or [long] list of value indices (range checked later). */
static ptera_status read_index_list(rd *r, const pf_fb_table *t, uint32_t elem, pf_value *v) {
  pf_fb_vec items;
  if (!pf_fb_vec_field(&r->fb, t, 0, elem, &items)) return fbe(r, "list items");
  int32_t *dst = arr(r, items.count, sizeof *dst, 4);
  if (!dst) return oom(r);
  for (uint32_t i = 0; i < items.count; i++) {
    int64_t x = elem == 8 ? pf_fb_vec_i64(&r->fb, &items, i) : pf_fb_vec_i32(&r->fb, &items, i);
    if (x < -1 || x > INT32_MAX)
      return bad(r, "list item %u is %lld, not a value index", (unsigned)i, (long long)x);
    dst[i] = (int32_t)x;
  }
  v->u.idx.items = dst;
  v->u.idx.len = items.count;
  return PTERA_OK;
}

static ptera_status read_value(rd *r, const pf_fb_table *ev, pf_value *v) {
  uint8_t type;
  pf_fb_table val;
  if (!pf_fb_union_field(&r->fb, ev, 0, PF_VAL_OPT_TENSOR_LIST, &type, &val))
    return fbe(r, "value type");
  if (type == 0) return bad(r, "value has no type (NONE)");
  v->type = type;
  if (type == PF_VAL_NULL) return PTERA_OK;
  if (!val.present) return bad(r, "value of type %u has no payload", (unsigned)type);
  switch (type) {
    case PF_VAL_INT:
      if (!pf_fb_i64(&r->fb, &val, 0, 0, &v->u.i)) return fbe(r, "Int value");
      return PTERA_OK;
    case PF_VAL_BOOL:
      if (!pf_fb_bool(&r->fb, &val, 0, false, &v->u.b)) return fbe(r, "Bool value");
      return PTERA_OK;
    case PF_VAL_DOUBLE:
      if (!pf_fb_f64(&r->fb, &val, 0, 0.0, &v->u.d)) return fbe(r, "Double value");
      return PTERA_OK;
    case PF_VAL_STRING: {
      pf_fb_str s;
      if (!pf_fb_str_field(&r->fb, &val, 0, &s)) return fbe(r, "String value");
      if (!s.ptr) return bad(r, "String value has no string_val");
      v->u.str = mkstr(s);
      return PTERA_OK;
    }
    case PF_VAL_TENSOR: {
      pf_tensor *t = pt_arena_alloc(r->arena, sizeof *t, 8);
      if (!t) return oom(r);
      v->u.tensor = t;
      return read_tensor(r, &val, t);
    }
    case PF_VAL_INT_LIST:
      return read_index_list(r, &val, 8, v);
    case PF_VAL_TENSOR_LIST:
    case PF_VAL_OPT_TENSOR_LIST:
      return read_index_list(r, &val, 4, v);
    case PF_VAL_DOUBLE_LIST: {
      pf_fb_vec items;
      if (!pf_fb_vec_field(&r->fb, &val, 0, 8, &items)) return fbe(r, "DoubleList items");
      double *d = arr(r, items.count, sizeof *d, 8);
      if (!d) return oom(r);
      for (uint32_t i = 0; i < items.count; i++) d[i] = pf_fb_vec_f64(&r->fb, &items, i);
      v->u.doubles.items = d;
      v->u.doubles.len = items.count;
      return PTERA_OK;
    }
    case PF_VAL_BOOL_LIST: {
      pf_fb_vec items;
      if (!pf_fb_vec_field(&r->fb, &val, 0, 1, &items)) return fbe(r, "BoolList items");
      uint8_t *b = arr(r, items.count, 1, 1);
      if (!b) return oom(r);
      for (uint32_t i = 0; i < items.count; i++) b[i] = pf_fb_vec_u8(&r->fb, &items, i) != 0;
      v->u.bools.items = b;
      v->u.bools.len = items.count;
      return PTERA_OK;
    }
    default:
      return bad(r, "value has unknown type %u", (unsigned)type);
  }
}

/* Second pass: list items must name values of the right type. */
static ptera_status check_lists(rd *r, const pf_plan *p, uint32_t vi) {
  const pf_value *v = &p->values[vi];
  if (v->type != PF_VAL_INT_LIST && v->type != PF_VAL_TENSOR_LIST && v->type != PF_VAL_OPT_TENSOR_LIST)
    return PTERA_OK;
  for (uint32_t i = 0; i < v->u.idx.len; i++) {
    int32_t x = v->u.idx.items[i];
    if (x == -1 && v->type == PF_VAL_OPT_TENSOR_LIST) continue;
    if (x < 0 || (uint32_t)x >= p->nvalues)
      return bad(r, "list item %u refers to value %d (the method has %u values)", (unsigned)i, x,
                 (unsigned)p->nvalues);
    uint8_t t = p->values[x].type;
    if (v->type == PF_VAL_TENSOR_LIST && t != PF_VAL_TENSOR)
      return bad(r, "tensor list item %u refers to value %d, which is not a tensor", (unsigned)i, x);
    if (v->type == PF_VAL_OPT_TENSOR_LIST && t != PF_VAL_TENSOR && t != PF_VAL_NULL)
      return bad(r, "optional tensor list item %u refers to value %d, which is not a tensor or None",
                 (unsigned)i, x);
  }
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */
/* Execution plans                                                     */

static ptera_status check_index(rd *r, int64_t x, uint32_t n, const char *what) {
  if (x < 0 || x >= (int64_t)n)
    return bad(r, "%s %lld is out of range (the method has %u)", what, (long long)x, (unsigned)n);
  return PTERA_OK;
}

/* [int] vector of value indices, required. */
static ptera_status read_value_indices(rd *r, const pf_fb_table *t, unsigned id, const char *what,
                                       uint32_t nvalues, int32_t **items, uint32_t *n) {
  pf_fb_vec v;
  if (!pf_fb_vec_field(&r->fb, t, id, 4, &v)) return fbe(r, what);
  if (!v.present) return bad(r, "missing %s", what);
  int32_t *dst = arr(r, v.count, sizeof *dst, 4);
  if (!dst) return oom(r);
  for (uint32_t i = 0; i < v.count; i++) {
    dst[i] = pf_fb_vec_i32(&r->fb, &v, i);
    if (dst[i] < 0 || (uint32_t)dst[i] >= nvalues)
      return bad(r, "%s[%u] refers to value %d (the method has %u values)", what, (unsigned)i,
                 dst[i], (unsigned)nvalues);
  }
  *items = dst;
  *n = v.count;
  return PTERA_OK;
}

static ptera_status read_instr(rd *r, const pf_fb_table *it, const pf_plan *p, uint32_t ninstrs,
                               pf_instr *out) {
  uint8_t type;
  pf_fb_table a;
  ptera_status s;
  if (!pf_fb_union_field(&r->fb, it, 0, PF_INSTR_FREE, &type, &a)) return fbe(r, "instruction type");
  if (type == 0) return bad(r, "instruction has no type (NONE)");
  if (!a.present) return bad(r, "instruction has no arguments table");
  out->type = type;
  switch (type) {
    case PF_INSTR_KERNEL:
    case PF_INSTR_DELEGATE: {
      bool k = type == PF_INSTR_KERNEL;
      if (!pf_fb_i32(&r->fb, &a, 0, 0, &out->a)) return fbe(r, k ? "op_index" : "delegate_index");
      s = k ? check_index(r, out->a, p->nops, "operator index")
            : check_index(r, out->a, p->ndelegates, "delegate index");
      if (s) return s;
      return read_value_indices(r, &a, 1, k ? "kernel call args" : "delegate call args", p->nvalues,
                                &out->args, &out->nargs);
    }
    case PF_INSTR_MOVE:
      if (!pf_fb_i32(&r->fb, &a, 0, 0, &out->a) || !pf_fb_i32(&r->fb, &a, 1, 0, &out->b))
        return fbe(r, "move call");
      if ((s = check_index(r, out->a, p->nvalues, "move source value"))) return s;
      return check_index(r, out->b, p->nvalues, "move destination value");
    case PF_INSTR_JUMP_FALSE:
      if (!pf_fb_i32(&r->fb, &a, 0, 0, &out->a) || !pf_fb_i32(&r->fb, &a, 1, 0, &out->b))
        return fbe(r, "jump_false call");
      if ((s = check_index(r, out->a, p->nvalues, "jump condition value"))) return s;
      if (out->b < 0 || (uint32_t)out->b > ninstrs)
        return bad(r, "jump destination %d is outside the chain (0..%u)", out->b, (unsigned)ninstrs);
      return PTERA_OK;
    case PF_INSTR_FREE:
      if (!pf_fb_i32(&r->fb, &a, 0, 0, &out->a)) return fbe(r, "free call");
      return check_index(r, out->a, p->nvalues, "freed value");
    default:
      return bad(r, "instruction has unknown type %u", (unsigned)type);
  }
}

static ptera_status read_chain(rd *r, const pf_fb_table *ct, const pf_plan *p, pf_chain *out) {
  pf_fb_vec iv;
  size_t base = strlen(r->where);
  if (!pf_fb_vec_field(&r->fb, ct, 2, 4, &iv)) return fbe(r, "chain instructions");
  if (!iv.present) return bad(r, "chain has no instructions vector");
  out->instrs = arr(r, iv.count, sizeof *out->instrs, 8);
  if (!out->instrs) return oom(r);
  out->ninstrs = iv.count;
  for (uint32_t i = 0; i < iv.count; i++) {
    pf_fb_table it;
    pt_snprintf(r->where + base, sizeof r->where - base, " instruction %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &iv, i, &it)) return fbe(r, "instruction");
    ptera_status s = read_instr(r, &it, p, iv.count, &out->instrs[i]);
    if (s) return s;
  }
  r->where[base] = '\0';
  return PTERA_OK;
}

static ptera_status read_delegate(rd *r, const pf_fb_table *dt, pf_delegate *d) {
  pf_fb_str id;
  pf_fb_table proc;
  pf_fb_vec specs;
  if (!pf_fb_str_field(&r->fb, dt, 0, &id)) return fbe(r, "delegate id");
  if (!id.ptr) return bad(r, "delegate has no backend id");
  d->id = mkstr(id);
  if (!pf_fb_table_field(&r->fb, dt, 1, &proc)) return fbe(r, "delegate processed");
  if (!proc.present) return bad(r, "delegate '" NAMEFMT "' has no processed data", NAMEARG(d->id));
  int8_t loc;
  if (!pf_fb_i8(&r->fb, &proc, 0, 0, &loc) || !pf_fb_u32(&r->fb, &proc, 1, 0, &d->index))
    return fbe(r, "delegate processed");
  if (loc < 0 || loc > 1)
    return bad(r, "delegate '" NAMEFMT "' has invalid data location %d", NAMEARG(d->id), loc);
  d->location = (uint8_t)loc;
  if (!pf_fb_vec_field(&r->fb, dt, 2, 4, &specs)) return fbe(r, "delegate compile_specs");
  d->specs = arr(r, specs.count, sizeof *d->specs, 8);
  if (!d->specs) return oom(r);
  d->nspecs = specs.count;
  for (uint32_t i = 0; i < specs.count; i++) {
    pf_fb_table cs;
    pf_fb_str key;
    pf_fb_vec val;
    if (!pf_fb_vec_table(&r->fb, &specs, i, &cs) || !pf_fb_str_field(&r->fb, &cs, 0, &key) ||
        !pf_fb_vec_field(&r->fb, &cs, 1, 1, &val))
      return fbe(r, "delegate compile spec");
    d->specs[i].key = mkstr(key);
    d->specs[i].value.ptr = pf_fb_vec_data(&r->fb, &val);
    d->specs[i].value.len = val.count;
  }
  return PTERA_OK;
}

static ptera_status read_plan(rd *r, uint32_t pi, const pf_fb_table *pt, pf_plan *p) {
  ptera_status s;
  pf_fb_str name;
  pf_fb_vec vals, chains, ops, dels, sizes;
  pt_snprintf(r->where, sizeof r->where, "method %u", (unsigned)pi);
  if (!pf_fb_str_field(&r->fb, pt, 0, &name)) return fbe(r, "name");
  if (!name.ptr) return bad(r, "method has no name");
  p->name = mkstr(name);
  pt_snprintf(r->where, sizeof r->where, "method '" NAMEFMT "'", NAMEARG(p->name));

  /* Operators and delegates first: instructions index them. */
  if (!pf_fb_vec_field(&r->fb, pt, 6, 4, &ops)) return fbe(r, "operators");
  p->ops = arr(r, ops.count, sizeof *p->ops, 8);
  if (!p->ops) return oom(r);
  p->nops = ops.count;
  for (uint32_t i = 0; i < ops.count; i++) {
    pf_fb_table ot;
    pf_fb_str on, ov;
    if (!pf_fb_vec_table(&r->fb, &ops, i, &ot) || !pf_fb_str_field(&r->fb, &ot, 0, &on) ||
        !pf_fb_str_field(&r->fb, &ot, 1, &ov))
      return fbe(r, "operator");
    if (!on.ptr) return bad(r, "operator %u has no name", (unsigned)i);
    p->ops[i].name = mkstr(on);
    p->ops[i].overload = mkstr(ov);
    if (!ov.ptr) p->ops[i].overload.ptr = "";
  }
  if (!pf_fb_vec_field(&r->fb, pt, 7, 4, &dels)) return fbe(r, "delegates");
  p->delegates = arr(r, dels.count, sizeof *p->delegates, 8);
  if (!p->delegates) return oom(r);
  p->ndelegates = dels.count;
  for (uint32_t i = 0; i < dels.count; i++) {
    pf_fb_table dt;
    if (!pf_fb_vec_table(&r->fb, &dels, i, &dt)) return fbe(r, "delegate");
    if ((s = read_delegate(r, &dt, &p->delegates[i]))) return s;
  }

  if (!pf_fb_vec_field(&r->fb, pt, 8, 8, &sizes)) return fbe(r, "non_const_buffer_sizes");
  if (!sizes.present) return bad(r, "missing non_const_buffer_sizes");
  p->buffer_sizes = arr(r, sizes.count, sizeof *p->buffer_sizes, 8);
  if (!p->buffer_sizes) return oom(r);
  p->nbuffer_sizes = sizes.count;
  for (uint32_t i = 0; i < sizes.count; i++) {
    p->buffer_sizes[i] = pf_fb_vec_i64(&r->fb, &sizes, i);
    if (p->buffer_sizes[i] < 0)
      return bad(r, "non_const_buffer_sizes[%u] is negative (%lld)", (unsigned)i,
                 (long long)p->buffer_sizes[i]);
  }

  if (!pf_fb_vec_field(&r->fb, pt, 2, 4, &vals)) return fbe(r, "values");
  if (!vals.present) return bad(r, "missing values");
  p->values = arr(r, vals.count, sizeof *p->values, 8);
  if (!p->values) return oom(r);
  p->nvalues = vals.count;
  size_t base = strlen(r->where);
  for (uint32_t i = 0; i < vals.count; i++) {
    pf_fb_table ev;
    pt_snprintf(r->where + base, sizeof r->where - base, " value %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &vals, i, &ev)) return fbe(r, "value");
    if ((s = read_value(r, &ev, &p->values[i]))) return s;
  }
  for (uint32_t i = 0; i < vals.count; i++) {
    pt_snprintf(r->where + base, sizeof r->where - base, " value %u", (unsigned)i);
    if ((s = check_lists(r, p, i))) return s;
  }
  r->where[base] = '\0';

  if ((s = read_value_indices(r, pt, 3, "inputs", p->nvalues, &p->inputs, &p->ninputs))) return s;
  if ((s = read_value_indices(r, pt, 4, "outputs", p->nvalues, &p->outputs, &p->noutputs)))
    return s;

  if (!pf_fb_vec_field(&r->fb, pt, 5, 4, &chains)) return fbe(r, "chains");
  if (chains.count == 0) return bad(r, "method has no chains");
  p->chains = arr(r, chains.count, sizeof *p->chains, 8);
  if (!p->chains) return oom(r);
  p->nchains = chains.count;
  for (uint32_t i = 0; i < chains.count; i++) {
    pf_fb_table ct;
    pt_snprintf(r->where + base, sizeof r->where - base, " chain %u", (unsigned)i);
    if (!pf_fb_vec_table(&r->fb, &chains, i, &ct)) return fbe(r, "chain");
    if ((s = read_chain(r, &ct, p, &p->chains[i]))) return s;
  }
  r->where[0] = '\0';
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */
/* Program                                                             */

static ptera_status read_subsegments(rd *r, const pf_fb_table *t, pf_subsegments *out) {
  pf_fb_vec offs;
  if (!pf_fb_u32(&r->fb, t, 0, 0, &out->segment_index)) return fbe(r, "segment_index");
  if (!pf_fb_vec_field(&r->fb, t, 1, 8, &offs)) return fbe(r, "offsets");
  out->present = true;
  out->offsets = arr(r, offs.count, sizeof *out->offsets, 8);
  if (!out->offsets) return oom(r);
  out->noffsets = offs.count;
  for (uint32_t i = 0; i < offs.count; i++) out->offsets[i] = pf_fb_vec_u64(&r->fb, &offs, i);
  return PTERA_OK;
}

/* Vector of tables holding one [ubyte] at field 0 (Buffer, inline data). */
static ptera_status read_blobs(rd *r, const pf_fb_table *root, unsigned id, const char *what,
                               pf_bytes **out, uint32_t *n) {
  pf_fb_vec v;
  if (!pf_fb_vec_field(&r->fb, root, id, 4, &v)) return fbe(r, what);
  *out = arr(r, v.count, sizeof **out, 8);
  if (!*out) return oom(r);
  *n = v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    pf_fb_table t;
    pf_fb_vec data;
    if (!pf_fb_vec_table(&r->fb, &v, i, &t) || !pf_fb_vec_field(&r->fb, &t, 0, 1, &data))
      return fbe(r, what);
    (*out)[i].ptr = data.present ? pf_fb_vec_data(&r->fb, &data) : NULL;
    (*out)[i].len = data.count;
  }
  return PTERA_OK;
}

static ptera_status read_header(rd *r, const uint8_t *data, uint64_t size, pf_pte *out) {
  out->program_size = size;
  if (size < 12 || memcmp(data + 8, "eh00", 4) != 0) return PTERA_OK;
  if (size < 8 + PTE_HEAD_MIN)
    return bad(r, "extended header is truncated (file is %llu bytes)", (unsigned long long)size);
  out->has_header = true;
  out->header_length = pt_le32(data + 12);
  out->program_size = pt_le64(data + 16);
  out->segment_base = pt_le64(data + 24);
  out->segment_data_size = 0;
  if (out->header_length < PTE_HEAD_MIN)
    return bad(r, "extended header length %u is below the minimum of 24",
               (unsigned)out->header_length);
  if (out->header_length >= 32) {
    if (size < 40) return bad(r, "extended header is truncated (file is %llu bytes)",
                              (unsigned long long)size);
    out->segment_data_size = pt_le64(data + 32);
  }
  /* docs/PTE.md §3 rule 4. */
  if ((out->segment_data_size == 0 && out->segment_base == 0) || out->segment_data_size > 0) {
    uint64_t expected = out->program_size;
    if (out->segment_base != 0 &&
        !pt_add_u64(out->segment_base, out->segment_data_size, &expected))
      return bad(r, "extended header segment_base_offset + segment_data_size overflows");
    if (size < expected)
      return bad(r, "file is truncated: %llu bytes, but the extended header says %llu",
                 (unsigned long long)size, (unsigned long long)expected);
  }
  if (out->program_size > size)
    return bad(r, "extended header program_size %llu exceeds the file size %llu",
               (unsigned long long)out->program_size, (unsigned long long)size);
  if (out->program_size < 8ull + out->header_length)
    return bad(r, "extended header program_size %llu is smaller than the header",
               (unsigned long long)out->program_size);
  return PTERA_OK;
}

int pf_pte_identify(const uint8_t *data, size_t size) {
  return pf_fb_has_ident(data, size, "ET12") ? 1 : 0;
}

static ptera_status check_ident(rd *r, const uint8_t *data, uint64_t size) {
  if (!data || size < 8)
    return bad(r, "not an ExecuTorch program (file is only %llu bytes)", (unsigned long long)size);
  if (memcmp(data + 4, "ET12", 4) == 0) return PTERA_OK;
  if (data[4] == 'E' && data[5] == 'T') {
    char id[20] = {0};
    int n = 0;
    for (int i = 4; i < 8; i++) {
      unsigned c = data[i];
      if (c >= 0x20 && c < 0x7f && c != '\'')
        id[n++] = (char)c;
      else
        n += pt_snprintf(id + n, sizeof id - (size_t)n, "\\x%02x", c);
    }
    return bad(r, "unsupported program version: identifier '%s' (this runtime reads ET12)", id);
  }
  return bad(r, "not an ExecuTorch program (no ET12 identifier at bytes 4..8)");
}

ptera_status pf_pte_parse(const uint8_t *data, uint64_t size, pt_arena *arena, pf_pte *out,
                          pt_err *err) {
  rd r;
  ptera_status s;
  memset(&r, 0, sizeof r);
  memset(out, 0, sizeof *out);
  r.arena = arena;
  r.err = err;
  r.pte = out;
  if ((s = check_ident(&r, data, size))) return s;
  out->file = data;
  out->file_size = size;
  if ((s = read_header(&r, data, size, out))) return s;
  if (!pf_fb_init(&r.fb, data, out->program_size)) return fbe(&r, "program");

  pf_fb_table root;
  pf_fb_vec plans, segs, named, muts;
  if (!pf_fb_root(&r.fb, &root)) return fbe(&r, "program root");
  if (!pf_fb_u32(&r.fb, &root, 0, 0, &out->version)) return fbe(&r, "program version");

  /* Segments. */
  if (!pf_fb_vec_field(&r.fb, &root, 4, 4, &segs)) return fbe(&r, "segments");
  out->segments = arr(&r, segs.count, sizeof *out->segments, 8);
  if (!out->segments) return oom(&r);
  out->nsegments = segs.count;
  for (uint32_t i = 0; i < segs.count; i++) {
    pf_fb_table t;
    if (!pf_fb_vec_table(&r.fb, &segs, i, &t) || !pf_fb_u64(&r.fb, &t, 0, 0, &out->segments[i].offset) ||
        !pf_fb_u64(&r.fb, &t, 1, 0, &out->segments[i].size)) {
      pt_snprintf(r.where, sizeof r.where, "segment %u", (unsigned)i);
      return fbe(&r, "data segment");
    }
  }

  /* Constants. */
  pf_fb_table cs;
  if (!pf_fb_table_field(&r.fb, &root, 5, &cs)) return fbe(&r, "constant_segment");
  if (cs.present) {
    strcpy(r.where, "constant_segment");
    if ((s = read_subsegments(&r, &cs, &out->constant_segment))) return s;
    r.where[0] = '\0';
  }
  if ((s = read_blobs(&r, &root, 2, "constant_buffer", &out->constant_buffer, &out->nconstant_buffer)))
    return s;
  if (out->nconstant_buffer > 0 && out->constant_segment.noffsets > 1)
    return bad(&r, "program has both a legacy constant_buffer (%u entries) and a constant_segment "
                   "(%u offsets)",
               (unsigned)out->nconstant_buffer, (unsigned)out->constant_segment.noffsets);
  if ((s = read_blobs(&r, &root, 3, "backend_delegate_data", &out->delegate_data,
                      &out->ndelegate_data)))
    return s;

  /* Mutable data: only entry 0 is used (docs/PTE.md §8), but all must verify. */
  if (!pf_fb_vec_field(&r.fb, &root, 6, 4, &muts)) return fbe(&r, "mutable_data_segments");
  out->nmutable_data = muts.count;
  for (uint32_t i = 0; i < muts.count; i++) {
    pf_fb_table t;
    pf_subsegments tmp;
    memset(&tmp, 0, sizeof tmp);
    pt_snprintf(r.where, sizeof r.where, "mutable_data_segments[%u]", (unsigned)i);
    if (!pf_fb_vec_table(&r.fb, &muts, i, &t)) return fbe(&r, "entry");
    if ((s = read_subsegments(&r, &t, i == 0 ? &out->mutable_data : &tmp))) return s;
  }
  r.where[0] = '\0';

  /* Named data. */
  if (!pf_fb_vec_field(&r.fb, &root, 7, 4, &named)) return fbe(&r, "named_data");
  out->named = arr(&r, named.count, sizeof *out->named, 8);
  if (!out->named) return oom(&r);
  out->nnamed = named.count;
  for (uint32_t i = 0; i < named.count; i++) {
    pf_fb_table t;
    pf_fb_str key;
    pt_snprintf(r.where, sizeof r.where, "named_data[%u]", (unsigned)i);
    if (!pf_fb_vec_table(&r.fb, &named, i, &t) || !pf_fb_str_field(&r.fb, &t, 0, &key) ||
        !pf_fb_u32(&r.fb, &t, 1, 0, &out->named[i].segment_index))
      return fbe(&r, "entry");
    if (!key.ptr) return bad(&r, "named data entry has no key");
    out->named[i].key = mkstr(key);
  }
  r.where[0] = '\0';

  /* Methods. */
  if (!pf_fb_vec_field(&r.fb, &root, 1, 4, &plans)) return fbe(&r, "execution_plan");
  if (!plans.present) return bad(&r, "program has no execution_plan");
  out->plans = arr(&r, plans.count, sizeof *out->plans, 8);
  if (!out->plans) return oom(&r);
  out->nplans = plans.count;
  for (uint32_t i = 0; i < plans.count; i++) {
    pf_fb_table pt;
    pt_snprintf(r.where, sizeof r.where, "method %u", (unsigned)i);
    if (!pf_fb_vec_table(&r.fb, &plans, i, &pt)) return fbe(&r, "execution plan");
    if ((s = read_plan(&r, i, &pt, &out->plans[i]))) return s;
  }
  return PTERA_OK;
}

/* ------------------------------------------------------------------ */
/* Data access                                                         */

ptera_status pf_pte_segment(const pf_pte *p, uint32_t index, pf_bytes *out, pt_err *err) {
  out->ptr = NULL;
  out->len = 0;
  if (index >= p->nsegments)
    return pt_fail(err, PTERA_NOT_FOUND, "segment %u does not exist (the program has %u)",
                   (unsigned)index, (unsigned)p->nsegments);
  const pf_segment *s = &p->segments[index];
  if (s->size == 0) {
    out->ptr = p->file;
    return PTERA_OK; /* empty segments are never read */
  }
  if (!p->has_header || p->segment_base == 0)
    return pt_fail(err, PTERA_NOT_FOUND,
                   "segment %u (%llu bytes) is referenced but the file has no segment data "
                   "(no extended header)",
                   (unsigned)index, (unsigned long long)s->size);
  uint64_t start, end;
  if (!pt_add_u64(p->segment_base, s->offset, &start) || !pt_add_u64(start, s->size, &end) ||
      end > p->file_size)
    return pt_fail(err, PTERA_INVALID_PROGRAM,
                   "segment %u (offset %llu, %llu bytes) runs past the end of the file (%llu "
                   "bytes; truncated?)",
                   (unsigned)index, (unsigned long long)s->offset, (unsigned long long)s->size,
                   (unsigned long long)p->file_size);
  out->ptr = p->file + start;
  out->len = s->size;
  return PTERA_OK;
}

/* offsets[idx] + nbytes within segment sub->segment_index. */
static ptera_status subsegment(const pf_pte *p, const pf_subsegments *sub, const char *what,
                               ptera_status missing, uint32_t idx, uint64_t nbytes,
                               const uint8_t **out, pt_err *err) {
  pf_bytes seg;
  uint64_t end;
  if (idx >= sub->noffsets)
    return pt_fail(err, missing, "%s index %u is out of range (the program has %u)", what,
                   (unsigned)idx, (unsigned)sub->noffsets);
  if (sub->segment_index >= p->nsegments)
    return pt_fail(err, missing, "%s segment %u does not exist (the program has %u segments)", what,
                   (unsigned)sub->segment_index, (unsigned)p->nsegments);
  ptera_status s = pf_pte_segment(p, sub->segment_index, &seg, err);
  if (s) {
    pt_err_prefix(err, "%s %u", what, (unsigned)idx);
    return s;
  }
  uint64_t off = sub->offsets[idx];
  if (!pt_add_u64(off, nbytes, &end) || end > seg.len)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "%s %u: %llu bytes at offset %llu run past the end of its segment (%llu bytes)",
                   what, (unsigned)idx, (unsigned long long)nbytes, (unsigned long long)off,
                   (unsigned long long)seg.len);
  *out = seg.ptr + off;
  return PTERA_OK;
}

ptera_status pf_pte_constant(const pf_pte *p, uint32_t idx, uint64_t nbytes, const uint8_t **out,
                             pt_err *err) {
  *out = NULL;
  if (p->constant_segment.present && p->constant_segment.noffsets > 0)
    return subsegment(p, &p->constant_segment, "constant", PTERA_INVALID_ARGUMENT, idx, nbytes, out,
                      err);
  if (idx >= p->nconstant_buffer)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "constant %u is out of range (the program has %u constant buffers)",
                   (unsigned)idx, (unsigned)p->nconstant_buffer);
  const pf_bytes *b = &p->constant_buffer[idx];
  if (nbytes > b->len)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "constant %u: tensor needs %llu bytes but the constant buffer holds %llu", (unsigned)idx,
                   (unsigned long long)nbytes, (unsigned long long)b->len);
  *out = b->ptr ? b->ptr : p->file;
  return PTERA_OK;
}

ptera_status pf_pte_mutable(const pf_pte *p, uint32_t idx, uint64_t nbytes, const uint8_t **out,
                            pt_err *err) {
  *out = NULL;
  if (p->nmutable_data == 0 || !p->mutable_data.present)
    return pt_fail(err, PTERA_NOT_FOUND,
                   "mutable tensor data %u requested but the program has no mutable_data_segments",
                   (unsigned)idx);
  return subsegment(p, &p->mutable_data, "mutable data", PTERA_NOT_FOUND, idx, nbytes, out, err);
}

ptera_status pf_pte_delegate_blob(const pf_pte *p, const pf_delegate *d, pf_bytes *out,
                                  pt_err *err) {
  out->ptr = NULL;
  out->len = 0;
  if (d->location == 0) {
    if (d->index >= p->ndelegate_data)
      return pt_fail(err, PTERA_INVALID_PROGRAM,
                     "delegate '" NAMEFMT "': inline data index %u is out of range (the program has %u)",
                     NAMEARG(d->id), (unsigned)d->index, (unsigned)p->ndelegate_data);
    *out = p->delegate_data[d->index];
    if (!out->ptr) out->ptr = p->file;
    return PTERA_OK;
  }
  if (d->location != 1)
    return pt_fail(err, PTERA_INVALID_PROGRAM, "delegate '" NAMEFMT "': invalid data location %u",
                   NAMEARG(d->id), (unsigned)d->location);
  ptera_status s = pf_pte_segment(p, d->index, out, err);
  if (s) pt_err_prefix(err, "delegate '" NAMEFMT "'", NAMEARG(d->id));
  return s;
}

ptera_status pf_pte_named(const pf_pte *p, const char *key, size_t key_len, pf_bytes *out,
                          pt_err *err) {
  out->ptr = NULL;
  out->len = 0;
  for (uint32_t i = 0; i < p->nnamed; i++) {
    const pf_named *n = &p->named[i];
    if (n->key.len != key_len || (key_len && memcmp(n->key.ptr, key, key_len) != 0)) continue;
    if (n->segment_index >= p->nsegments)
      return pt_fail(err, PTERA_INVALID_ARGUMENT,
                     "named data '" NAMEFMT "' refers to segment %u (the program has %u)",
                     NAMEARG(n->key), (unsigned)n->segment_index, (unsigned)p->nsegments);
    ptera_status s = pf_pte_segment(p, n->segment_index, out, err);
    if (s) pt_err_prefix(err, "named data '" NAMEFMT "'", NAMEARG(n->key));
    return s;
  }
  return pt_fail(err, PTERA_NOT_FOUND, "no named data with key '%.*s'",
                 (int)(key_len > 64 ? 64 : key_len), key ? key : "");
}
