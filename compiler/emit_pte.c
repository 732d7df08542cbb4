/* .pte emitter (see emit_pte.h). Two passes: validate the description and
 * lay out the constant segment, then build the flatbuffer back to front with
 * fbb and splice header + segment around it. */
#include "emit_pte.h"

#include "fbb.h"

/* Field ids (docs/PTE.md §5). */
enum {
  PROGRAM_VERSION = 0, PROGRAM_PLANS = 1, PROGRAM_SEGMENTS = 4, PROGRAM_CONST_SEG = 5,
  PROGRAM_MUTABLE_SEGS = 6, PROGRAM_NAMED_DATA = 7
};
enum { NAMED_KEY = 0, NAMED_SEGMENT = 1 };
enum {
  PLAN_NAME = 0, PLAN_VALUES = 2, PLAN_INPUTS = 3, PLAN_OUTPUTS = 4, PLAN_CHAINS = 5,
  PLAN_OPERATORS = 6, PLAN_DELEGATES = 7, PLAN_BUFFER_SIZES = 8
};
enum {
  TENSOR_SCALAR_TYPE = 0, TENSOR_SIZES = 2, TENSOR_DIM_ORDER = 3, TENSOR_DATA_IDX = 5,
  TENSOR_ALLOCATION = 6, TENSOR_DYNAMISM = 8, TENSOR_EXTRA = 9
};
enum { EXTRA_FQN = 1, EXTRA_LOCATION = 2 };
enum { LOCATION_EXTERNAL = 1 }; /* TensorDataLocation */
enum { INSTR_KERNEL_CALL = 1, INSTR_DELEGATE_CALL = 2 };
enum { DELEGATE_ID = 0, DELEGATE_PROCESSED = 1, DELEGATE_SPECS = 2 };
enum { LOCATION_SEGMENT = 1 }; /* DataLocation */

#define HEADER_LENGTH 32u

typedef struct pc_const {
  const uint8_t *data;
  size_t nbytes;
  uint64_t offset; /* within the constant segment */
} pc_const;

/* A planned tensor's initial value; index k is data_buffer_idx k + 1 into
 * mutable_data_segments[0]. */
typedef struct pc_mutable {
  const pc_tensor *tensor; /* identifies the value */
  uint64_t offset;         /* within the mutable segment */
} pc_mutable;

/* One entry of Program.segments: offset from the segment base, size, and
 * for named-data segments the bytes to copy (constants and initial values
 * are copied from their own tables). */
typedef struct pc_segment {
  uint64_t offset;
  uint64_t size;
  const uint8_t *data; /* named blobs only */
} pc_segment;

typedef struct emitter {
  const pc_program *p;
  const ptera_allocator *allocator;
  pt_err *err;
  uint32_t calign, salign;
  pc_const *consts; /* unique constants; index k is data_buffer_idx k + 1 */
  size_t nconsts;
  uint64_t const_size; /* constant segment bytes */
  pc_mutable *muts;    /* initial values of planned tensors, in value order */
  size_t nmuts;
  uint64_t mut_size;   /* mutable segment bytes */
  pc_segment *segs;    /* Program.segments: constants, [mutable], named blobs */
  uint32_t nsegs;
  uint32_t *named_seg; /* per p->named[k]: its segment index */
  uint32_t *deleg_seg; /* per delegate of every method, in order: its segment index */
  uint64_t seg_size;   /* bytes from the segment base to the end of the last segment */
  ptera_status status; /* MemoryAllocationFailed once scratch() failed */
  void *tmp;           /* scratch for converted vectors */
  size_t tmp_cap;
  pc_fbb fbb;
} emitter;

static bool pow2(uint32_t a) { return a != 0 && (a & (a - 1)) == 0; }

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* ---- validation ---- */

static ptera_status bad_value(emitter *e, const pc_method *m, uint32_t i, const char *why) {
  return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s' value %u: %s", m->name, i, why);
}

static ptera_status check_tensor(emitter *e, const pc_method *m, uint32_t i, const pc_tensor *t) {
  size_t es = ptera_dtype_size(t->scalar_type);
  if (es == 0) return bad_value(e, m, i, "bad scalar type");
  if (t->dim > PTERA_MAX_DIM) return bad_value(e, m, i, "too many dims");
  if (t->dynamism > PTERA_SHAPE_DYNAMIC_BOUND) return bad_value(e, m, i, "bad shape dynamism");
  uint64_t numel, nbytes;
  if (!pt_numel(t->sizes, t->dim, &numel) || !pt_mul_u64(numel, es, &nbytes))
    return bad_value(e, m, i, "negative size or size overflow");
  if (t->has_dim_order) {
    unsigned seen = 0;
    for (unsigned d = 0; d < t->dim; d++) {
      if (t->dim_order[d] >= t->dim || (seen & (1u << t->dim_order[d])))
        return bad_value(e, m, i, "dim_order is not a permutation");
      seen |= 1u << t->dim_order[d];
    }
  }
  if (t->fqn && !t->fqn[0]) return bad_value(e, m, i, "empty fully qualified name");
  if (t->external && t->storage != PC_STORAGE_CONST)
    return bad_value(e, m, i, "only constant tensors can be external");
  if (t->external && !t->fqn)
    return bad_value(e, m, i, "external tensor without a fully qualified name (its .ptd key)");
  if (t->initial && t->storage != PC_STORAGE_PLANNED)
    return bad_value(e, m, i, "only planned tensors can have an initial value");
  if (t->initial && t->initial_nbytes != nbytes)
    return bad_value(e, m, i, "initial value size differs from the shape's");
  switch (t->storage) {
    case PC_STORAGE_NONE: return PTERA_OK;
    case PC_STORAGE_CONST:
      if (t->external) /* data lives in the .ptd; nbytes, when given, must agree */
        return t->nbytes == 0 || t->nbytes == nbytes
                   ? PTERA_OK
                   : bad_value(e, m, i, "constant size differs from the shape's");
      if (t->nbytes != nbytes) return bad_value(e, m, i, "constant size differs from the shape's");
      if (nbytes && !t->data) return bad_value(e, m, i, "constant without data");
      return PTERA_OK;
    case PC_STORAGE_PLANNED: {
      if (t->memory_id == 0 || t->memory_id > m->nbuffers)
        return bad_value(e, m, i, "memory_id out of range");
      uint64_t end;
      int64_t size = m->buffer_sizes[t->memory_id - 1];
      if (!pt_add_u64(t->memory_offset, nbytes, &end) || end > (uint64_t)size)
        return bad_value(e, m, i, "planned tensor runs past its arena");
      return PTERA_OK;
    }
  }
  return bad_value(e, m, i, "bad storage kind");
}

static bool index_ok(const pc_method *m, int32_t v) { return v >= 0 && (uint32_t)v < m->nvalues; }

static ptera_status check_value(emitter *e, const pc_method *m, uint32_t i) {
  const pc_value *v = &m->values[i];
  switch (v->kind) {
    case PC_VAL_NULL: case PC_VAL_INT: case PC_VAL_BOOL: case PC_VAL_DOUBLE: return PTERA_OK;
    case PC_VAL_TENSOR: return check_tensor(e, m, i, &v->u.tensor);
    case PC_VAL_STRING: return v->u.str ? PTERA_OK : bad_value(e, m, i, "NULL string");
    case PC_VAL_INT_LIST: case PC_VAL_TENSOR_LIST: {
      if (v->u.list.len && !v->u.list.items) return bad_value(e, m, i, "list without items");
      pc_value_kind want = v->kind == PC_VAL_INT_LIST ? PC_VAL_INT : PC_VAL_TENSOR;
      for (uint32_t k = 0; k < v->u.list.len; k++)
        if (!index_ok(m, v->u.list.items[k]) || m->values[v->u.list.items[k]].kind != want)
          return bad_value(e, m, i, "list item is not an in-range index of the right kind");
      return PTERA_OK;
    }
    case PC_VAL_OPT_TENSOR_LIST:
      if (v->u.list.len && !v->u.list.items) return bad_value(e, m, i, "list without items");
      for (uint32_t k = 0; k < v->u.list.len; k++) {
        int32_t x = v->u.list.items[k];
        if (x == -1) continue; /* None */
        if (!index_ok(m, x) ||
            (m->values[x].kind != PC_VAL_TENSOR && m->values[x].kind != PC_VAL_NULL))
          return bad_value(e, m, i, "optional tensor list item is neither -1 nor a tensor index");
      }
      return PTERA_OK;
    case PC_VAL_DOUBLE_LIST:
      return v->u.doubles.len && !v->u.doubles.items ? bad_value(e, m, i, "list without items")
                                                     : PTERA_OK;
    case PC_VAL_BOOL_LIST:
      return v->u.bools.len && !v->u.bools.items ? bad_value(e, m, i, "list without items")
                                                 : PTERA_OK;
  }
  return bad_value(e, m, i, "bad value kind");
}

static ptera_status check_method(emitter *e, uint32_t mi) {
  const pc_method *m = &e->p->methods[mi];
  if (!m->name || !m->name[0]) return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method %u: no name", mi);
  if ((m->nvalues && !m->values) || (m->ninputs && !m->inputs) || (m->noutputs && !m->outputs) ||
      (m->ninstrs && !m->instrs) || (m->nops && !m->ops) || (m->nbuffers && !m->buffer_sizes) ||
      (m->ndelegates && !m->delegates))
    return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': NULL array with a count", m->name);
  if (m->nvalues > INT32_MAX)
    return pt_fail(e->err, PTERA_NOT_SUPPORTED, "method '%s': too many values", m->name);
  for (uint32_t k = 0; k < mi; k++)
    if (e->p->methods[k].name && strcmp(e->p->methods[k].name, m->name) == 0)
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s' appears twice", m->name);
  for (uint32_t k = 0; k < m->nbuffers; k++)
    if (m->buffer_sizes[k] < 0)
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': negative arena size", m->name);
  for (uint32_t k = 0; k < m->nvalues; k++) {
    ptera_status st = check_value(e, m, k);
    if (st != PTERA_OK) return st;
  }
  for (uint32_t k = 0; k < m->ninputs; k++)
    if (!index_ok(m, m->inputs[k]))
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': input %u out of range", m->name, k);
  for (uint32_t k = 0; k < m->noutputs; k++)
    if (!index_ok(m, m->outputs[k]))
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': output %u out of range", m->name, k);
  for (uint32_t k = 0; k < m->nops; k++)
    if (!m->ops[k].name || !m->ops[k].name[0])
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': operator %u has no name", m->name, k);
  for (uint32_t k = 0; k < m->ndelegates; k++) {
    const pc_delegate *d = &m->delegates[k];
    if (!d->id || !d->id[0] || (d->nbytes && !d->blob))
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s': delegate %u has no %s", m->name,
                     k, !d->id || !d->id[0] ? "backend name" : "data");
  }
  for (uint32_t k = 0; k < m->ninstrs; k++) {
    const pc_instr *in = &m->instrs[k];
    if (in->op_index >= (in->delegate ? m->ndelegates : m->nops) || in->op_index > INT32_MAX)
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s' instruction %u: bad %s index",
                     m->name, k, in->delegate ? "delegate" : "op");
    if (in->nargs && !in->args)
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "method '%s' instruction %u: no args", m->name, k);
    for (uint32_t a = 0; a < in->nargs; a++)
      if (!index_ok(m, in->args[a]))
        return pt_fail(e->err, PTERA_INVALID_ARGUMENT,
                       "method '%s' instruction %u: arg %u out of range", m->name, k, a);
  }
  return PTERA_OK;
}

static ptera_status check_named(emitter *e) {
  const pc_program *p = e->p;
  if (p->nnamed && !p->named)
    return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "named data: NULL array with a count");
  for (uint32_t k = 0; k < p->nnamed; k++) {
    const pc_named_blob *n = &p->named[k];
    if (!n->key || !n->key[0])
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "named data %u: no key", k);
    if (n->nbytes && !n->data)
      return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "named data '%s': no data", n->key);
    for (uint32_t j = 0; j < k; j++)
      if (strcmp(p->named[j].key, n->key) == 0)
        return pt_fail(e->err, PTERA_INVALID_ARGUMENT, "named data '%s' appears twice", n->key);
  }
  return PTERA_OK;
}

/* ---- constants ---- */

/* 1-based data_buffer_idx of the constant equal to (data, n), 0 if none. */
static uint32_t find_const(const emitter *e, const void *data, size_t n) {
  for (size_t k = 0; k < e->nconsts; k++)
    if (e->consts[k].nbytes == n && (n == 0 || memcmp(e->consts[k].data, data, n) == 0))
      return (uint32_t)(k + 1);
  return 0;
}

static ptera_status layout_constants(emitter *e) {
  size_t total = 0;
  for (uint32_t mi = 0; mi < e->p->nmethods; mi++) {
    const pc_method *m = &e->p->methods[mi];
    for (uint32_t k = 0; k < m->nvalues; k++)
      if (m->values[k].kind == PC_VAL_TENSOR && m->values[k].u.tensor.storage == PC_STORAGE_CONST &&
          !m->values[k].u.tensor.external)
        total++;
  }
  if (total == 0) return PTERA_OK;
  if (total >= UINT32_MAX) return pt_fail(e->err, PTERA_NOT_SUPPORTED, "too many constants");
  e->consts = pt_calloc(e->allocator, total, sizeof *e->consts, _Alignof(pc_const));
  if (!e->consts) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  uint64_t end = 0;
  for (uint32_t mi = 0; mi < e->p->nmethods; mi++) {
    const pc_method *m = &e->p->methods[mi];
    for (uint32_t k = 0; k < m->nvalues; k++) {
      const pc_tensor *t = &m->values[k].u.tensor;
      if (m->values[k].kind != PC_VAL_TENSOR || t->storage != PC_STORAGE_CONST || t->external)
        continue;
      if (find_const(e, t->data, t->nbytes)) continue;
      uint64_t off = round_up(end, e->calign);
      if (off < end || !pt_add_u64(off, t->nbytes, &end) || end > PC_FBB_MAX_SIZE * 8ull)
        return pt_fail(e->err, PTERA_NOT_SUPPORTED, "constants too large");
      e->consts[e->nconsts].data = t->data;
      e->consts[e->nconsts].nbytes = t->nbytes;
      e->consts[e->nconsts].offset = off;
      e->nconsts++;
    }
  }
  e->const_size = end;
  return PTERA_OK;
}

/* Initial values of planned tensors: concatenated without padding (they are
 * copied into the arena at load, never used in place; docs/PTE.md §8). */
static ptera_status layout_mutables(emitter *e) {
  size_t total = 0;
  for (uint32_t mi = 0; mi < e->p->nmethods; mi++) {
    const pc_method *m = &e->p->methods[mi];
    for (uint32_t k = 0; k < m->nvalues; k++)
      if (m->values[k].kind == PC_VAL_TENSOR && m->values[k].u.tensor.initial) total++;
  }
  if (total == 0) return PTERA_OK;
  if (total >= UINT32_MAX) return pt_fail(e->err, PTERA_NOT_SUPPORTED, "too many mutable tensors");
  e->muts = pt_calloc(e->allocator, total, sizeof *e->muts, _Alignof(pc_mutable));
  if (!e->muts) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  uint64_t end = 0;
  for (uint32_t mi = 0; mi < e->p->nmethods; mi++) {
    const pc_method *m = &e->p->methods[mi];
    for (uint32_t k = 0; k < m->nvalues; k++) {
      const pc_tensor *t = &m->values[k].u.tensor;
      if (m->values[k].kind != PC_VAL_TENSOR || !t->initial) continue;
      e->muts[e->nmuts].tensor = t;
      e->muts[e->nmuts].offset = end;
      e->nmuts++;
      if (!pt_add_u64(end, t->initial_nbytes, &end) || end > PC_FBB_MAX_SIZE * 8ull)
        return pt_fail(e->err, PTERA_NOT_SUPPORTED, "initial values too large");
    }
  }
  e->mut_size = end;
  return PTERA_OK;
}

/* 1-based mutable data_buffer_idx of t (which has an initial value). */
static uint32_t find_mutable(const emitter *e, const pc_tensor *t) {
  for (size_t k = 0; k < e->nmuts; k++)
    if (e->muts[k].tensor == t) return (uint32_t)(k + 1);
  return 0;
}

/* The segment after `first` holding exactly (data, n), or places a new one
 * at the next multiple of segment_alignment after *end; 0 when too large. */
static uint32_t blob_segment(emitter *e, uint32_t first, const void *data, size_t n,
                             uint64_t *end) {
  for (uint32_t s = first; s < e->nsegs; s++)
    if (e->segs[s].size == n && (n == 0 || memcmp(e->segs[s].data, data, n) == 0)) return s;
  uint64_t off = round_up(*end, e->salign);
  if (off < *end || !pt_add_u64(off, n, end)) return 0;
  e->segs[e->nsegs].offset = off;
  e->segs[e->nsegs].size = n;
  e->segs[e->nsegs].data = data;
  return e->nsegs++;
}

/* Program.segments (docs/PTE.md §11): the constant segment (always, like
 * upstream), the mutable segment when there are initial values, then one
 * segment per distinct delegate blob and per distinct named blob (identical
 * bytes share one), each at the next multiple of segment_alignment after the
 * previous one's end. */
static ptera_status layout_segments(emitter *e) {
  const pc_program *p = e->p;
  uint64_t ndeleg = 0;
  for (uint32_t mi = 0; mi < p->nmethods; mi++) ndeleg += p->methods[mi].ndelegates;
  uint64_t max = (uint64_t)(e->nmuts ? 2 : 1) + p->nnamed + ndeleg;
  if (max > UINT32_MAX) return pt_fail(e->err, PTERA_NOT_SUPPORTED, "too many segments");
  e->segs = pt_calloc(e->allocator, (size_t)max, sizeof *e->segs, _Alignof(pc_segment));
  if (!e->segs) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  if (p->nnamed) {
    e->named_seg = pt_calloc(e->allocator, p->nnamed, sizeof *e->named_seg, _Alignof(uint32_t));
    if (!e->named_seg) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  }
  if (ndeleg) {
    e->deleg_seg = pt_calloc(e->allocator, (size_t)ndeleg, sizeof *e->deleg_seg, _Alignof(uint32_t));
    if (!e->deleg_seg) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  }
  e->segs[0].offset = 0;
  e->segs[0].size = e->const_size;
  e->nsegs = 1;
  uint64_t end = e->const_size;
  if (e->nmuts) {
    uint64_t off = round_up(end, e->salign);
    if (off < end || !pt_add_u64(off, e->mut_size, &end))
      return pt_fail(e->err, PTERA_NOT_SUPPORTED, "segments too large");
    e->segs[1].offset = off;
    e->segs[1].size = e->mut_size;
    e->nsegs = 2;
  }
  uint32_t first = e->nsegs, d = 0;
  for (uint32_t mi = 0; mi < p->nmethods; mi++)
    for (uint32_t k = 0; k < p->methods[mi].ndelegates; k++, d++) {
      const pc_delegate *dl = &p->methods[mi].delegates[k];
      if (!(e->deleg_seg[d] = blob_segment(e, first, dl->blob, dl->nbytes, &end)))
        return pt_fail(e->err, PTERA_NOT_SUPPORTED, "segments too large");
    }
  first = e->nsegs;
  for (uint32_t k = 0; k < p->nnamed; k++)
    if (!(e->named_seg[k] = blob_segment(e, first, p->named[k].data, p->named[k].nbytes, &end)))
      return pt_fail(e->err, PTERA_NOT_SUPPORTED, "segments too large");
  if (end > PC_FBB_MAX_SIZE * 16ull) return pt_fail(e->err, PTERA_NOT_SUPPORTED, "segments too large");
  e->seg_size = end;
  return PTERA_OK;
}

/* ---- flatbuffer ---- */

static void *scratch(emitter *e, size_t n) {
  if (n <= e->tmp_cap) return e->tmp;
  void *p = pt_alloc(e->allocator, n, 16);
  if (!p) {
    e->status = PTERA_MEMORY_ALLOCATION_FAILED;
    return NULL;
  }
  pt_free(e->allocator, e->tmp);
  e->tmp = p;
  e->tmp_cap = n;
  return p;
}

static pc_fbb_ref emit_tensor(emitter *e, const pc_tensor *t) {
  pc_fbb *b = &e->fbb;
  uint8_t order[PTERA_MAX_DIM];
  for (unsigned d = 0; d < t->dim; d++) order[d] = t->has_dim_order ? t->dim_order[d] : (uint8_t)d;
  pc_fbb_ref sizes = pc_fbb_vec_scalars(b, t->sizes, t->dim, 4, 0);
  pc_fbb_ref dim_order = pc_fbb_vec_scalars(b, order, t->dim, 1, 0);
  pc_fbb_ref alloc = 0;
  if (t->storage == PC_STORAGE_PLANNED) {
    pc_fbb_table_start(b);
    pc_fbb_add_u32(b, 0, t->memory_id);
    pc_fbb_add_u32(b, 1, (uint32_t)t->memory_offset);
    pc_fbb_add_u32(b, 2, (uint32_t)(t->memory_offset >> 32));
    alloc = pc_fbb_table_end(b);
  }
  pc_fbb_ref extra = 0;
  if (t->fqn || t->external) {
    pc_fbb_ref fqn = t->fqn ? pc_fbb_cstring(b, t->fqn) : 0;
    pc_fbb_table_start(b);
    pc_fbb_add_ref(b, EXTRA_FQN, fqn);
    if (t->external) pc_fbb_add_u8(b, EXTRA_LOCATION, LOCATION_EXTERNAL);
    extra = pc_fbb_table_end(b);
  }
  pc_fbb_table_start(b);
  pc_fbb_add_u8(b, TENSOR_SCALAR_TYPE, t->scalar_type);
  pc_fbb_add_ref(b, TENSOR_SIZES, sizes);
  pc_fbb_add_ref(b, TENSOR_DIM_ORDER, dim_order);
  /* External constants keep data_buffer_idx 0 (the key is the fqn). */
  if (t->storage == PC_STORAGE_CONST && !t->external)
    pc_fbb_add_u32(b, TENSOR_DATA_IDX, find_const(e, t->data, t->nbytes));
  if (t->storage == PC_STORAGE_PLANNED && t->initial)
    pc_fbb_add_u32(b, TENSOR_DATA_IDX, find_mutable(e, t));
  pc_fbb_add_ref(b, TENSOR_ALLOCATION, alloc);
  if (t->dynamism) pc_fbb_add_u8(b, TENSOR_DYNAMISM, t->dynamism);
  pc_fbb_add_ref(b, TENSOR_EXTRA, extra);
  return pc_fbb_table_end(b);
}

/* The member table of a value, then its EValue table. */
static pc_fbb_ref emit_value(emitter *e, const pc_value *v) {
  pc_fbb *b = &e->fbb;
  pc_fbb_ref child = 0, member;
  switch (v->kind) {
    case PC_VAL_TENSOR: member = emit_tensor(e, &v->u.tensor); goto evalue;
    case PC_VAL_STRING: child = pc_fbb_cstring(b, v->u.str); break;
    case PC_VAL_TENSOR_LIST:
    case PC_VAL_OPT_TENSOR_LIST:
      child = pc_fbb_vec_scalars(b, v->u.list.items, v->u.list.len, 4, 0);
      break;
    case PC_VAL_DOUBLE_LIST:
      child = pc_fbb_vec_scalars(b, v->u.doubles.items, v->u.doubles.len, 8, 0);
      break;
    case PC_VAL_INT_LIST: {
      int64_t *items = scratch(e, (size_t)v->u.list.len * 8 + 1);
      if (!items) return 0;
      for (uint32_t k = 0; k < v->u.list.len; k++) items[k] = v->u.list.items[k];
      child = pc_fbb_vec_scalars(b, items, v->u.list.len, 8, 0);
      break;
    }
    case PC_VAL_BOOL_LIST: {
      uint8_t *items = scratch(e, (size_t)v->u.bools.len + 1);
      if (!items) return 0;
      for (uint32_t k = 0; k < v->u.bools.len; k++) items[k] = v->u.bools.items[k] ? 1 : 0;
      child = pc_fbb_vec_scalars(b, items, v->u.bools.len, 1, 0);
      break;
    }
    default: break;
  }
  pc_fbb_table_start(b);
  switch (v->kind) {
    case PC_VAL_INT: pc_fbb_add_i64(b, 0, v->u.i); break;
    case PC_VAL_BOOL: pc_fbb_add_bool(b, 0, v->u.b); break;
    case PC_VAL_DOUBLE: pc_fbb_add_f64(b, 0, v->u.d); break;
    default: pc_fbb_add_ref(b, 0, child); break; /* Null: child 0, empty table */
  }
  member = pc_fbb_table_end(b);
evalue:
  pc_fbb_table_start(b);
  pc_fbb_add_union(b, 0, (uint8_t)v->kind, member);
  return pc_fbb_table_end(b);
}

/* deleg_seg holds m's delegates' segments from index first. */
static pc_fbb_ref emit_method(emitter *e, const pc_method *m, uint32_t first) {
  pc_fbb *b = &e->fbb;
  for (uint32_t k = 0; k < m->nvalues; k++) pc_fbb_push(b, emit_value(e, &m->values[k]));
  pc_fbb_ref values = pc_fbb_vec_stack(b, m->nvalues);
  pc_fbb_ref inputs = pc_fbb_vec_scalars(b, m->inputs, m->ninputs, 4, 0);
  pc_fbb_ref outputs = pc_fbb_vec_scalars(b, m->outputs, m->noutputs, 4, 0);

  for (uint32_t k = 0; k < m->ninstrs; k++) {
    pc_fbb_ref args = pc_fbb_vec_scalars(b, m->instrs[k].args, m->instrs[k].nargs, 4, 0);
    pc_fbb_table_start(b);
    pc_fbb_add_i32(b, 0, (int32_t)m->instrs[k].op_index);
    pc_fbb_add_ref(b, 1, args);
    pc_fbb_ref call = pc_fbb_table_end(b);
    pc_fbb_table_start(b);
    pc_fbb_add_union(b, 0, m->instrs[k].delegate ? INSTR_DELEGATE_CALL : INSTR_KERNEL_CALL, call);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref instrs = pc_fbb_vec_stack(b, m->ninstrs);
  pc_fbb_ref chain_in = pc_fbb_vec_scalars(b, NULL, 0, 4, 0);
  pc_fbb_ref chain_out = pc_fbb_vec_scalars(b, NULL, 0, 4, 0);
  pc_fbb_table_start(b);
  pc_fbb_add_ref(b, 0, chain_in);
  pc_fbb_add_ref(b, 1, chain_out);
  pc_fbb_add_ref(b, 2, instrs);
  pc_fbb_push(b, pc_fbb_table_end(b));
  pc_fbb_ref chains = pc_fbb_vec_stack(b, 1);

  for (uint32_t k = 0; k < m->nops; k++) {
    pc_fbb_ref name = pc_fbb_cstring(b, m->ops[k].name);
    const char *ov = m->ops[k].overload;
    pc_fbb_ref overload = ov && ov[0] ? pc_fbb_cstring(b, ov) : 0;
    pc_fbb_table_start(b);
    pc_fbb_add_ref(b, 0, name);
    pc_fbb_add_ref(b, 1, overload);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref ops = pc_fbb_vec_stack(b, m->nops);
  for (uint32_t k = 0; k < m->ndelegates; k++) {
    pc_fbb_ref id = pc_fbb_cstring(b, m->delegates[k].id);
    pc_fbb_ref specs = pc_fbb_vec_refs(b, NULL, 0);
    pc_fbb_table_start(b);
    pc_fbb_add_u8(b, 0, LOCATION_SEGMENT);
    pc_fbb_add_u32(b, 1, e->deleg_seg[first + k]);
    pc_fbb_ref processed = pc_fbb_table_end(b);
    pc_fbb_table_start(b);
    pc_fbb_add_ref(b, DELEGATE_ID, id);
    pc_fbb_add_ref(b, DELEGATE_PROCESSED, processed);
    pc_fbb_add_ref(b, DELEGATE_SPECS, specs);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref delegates = pc_fbb_vec_stack(b, m->ndelegates);

  int64_t *sizes = scratch(e, ((size_t)m->nbuffers + 1) * 8);
  if (!sizes) return 0;
  sizes[0] = 0;
  for (uint32_t k = 0; k < m->nbuffers; k++) sizes[k + 1] = m->buffer_sizes[k];
  pc_fbb_ref buffer_sizes = pc_fbb_vec_scalars(b, sizes, (size_t)m->nbuffers + 1, 8, 0);
  pc_fbb_ref name = pc_fbb_cstring(b, m->name);

  pc_fbb_table_start(b);
  pc_fbb_add_ref(b, PLAN_NAME, name);
  pc_fbb_add_ref(b, PLAN_VALUES, values);
  pc_fbb_add_ref(b, PLAN_INPUTS, inputs);
  pc_fbb_add_ref(b, PLAN_OUTPUTS, outputs);
  pc_fbb_add_ref(b, PLAN_CHAINS, chains);
  pc_fbb_add_ref(b, PLAN_OPERATORS, ops);
  pc_fbb_add_ref(b, PLAN_DELEGATES, delegates);
  pc_fbb_add_ref(b, PLAN_BUFFER_SIZES, buffer_sizes);
  return pc_fbb_table_end(b);
}

static ptera_status emit_flatbuffer(emitter *e) {
  pc_fbb *b = &e->fbb;
  for (uint32_t mi = 0, first = 0; mi < e->p->nmethods; mi++) {
    pc_fbb_ref r = emit_method(e, &e->p->methods[mi], first);
    first += e->p->methods[mi].ndelegates;
    if (e->status != PTERA_OK) return pt_fail(e->err, e->status, "out of memory");
    pc_fbb_push(b, r);
  }
  pc_fbb_ref plans = pc_fbb_vec_stack(b, e->p->nmethods);

  for (uint32_t s = 0; s < e->nsegs; s++) {
    pc_fbb_table_start(b);
    pc_fbb_add_u64(b, 0, e->segs[s].offset);
    pc_fbb_add_u64(b, 1, e->segs[s].size);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref segments = pc_fbb_vec_stack(b, e->nsegs);

  pc_fbb_ref named = 0;
  if (e->p->nnamed) {
    for (uint32_t k = 0; k < e->p->nnamed; k++) {
      pc_fbb_ref key = pc_fbb_cstring(b, e->p->named[k].key);
      pc_fbb_table_start(b);
      pc_fbb_add_ref(b, NAMED_KEY, key);
      pc_fbb_add_u32(b, NAMED_SEGMENT, e->named_seg[k]);
      pc_fbb_push(b, pc_fbb_table_end(b));
    }
    named = pc_fbb_vec_stack(b, e->p->nnamed);
  }

  pc_fbb_ref mutable_segs = 0;
  if (e->nmuts) {
    uint64_t *moffs = scratch(e, (e->nmuts + 1) * 8);
    if (!moffs) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
    moffs[0] = 0;
    for (size_t k = 0; k < e->nmuts; k++) moffs[k + 1] = e->muts[k].offset;
    pc_fbb_ref mo = pc_fbb_vec_scalars(b, moffs, e->nmuts + 1, 8, 0);
    pc_fbb_table_start(b);
    pc_fbb_add_u32(b, 0, 1);
    pc_fbb_add_ref(b, 1, mo);
    pc_fbb_push(b, pc_fbb_table_end(b));
    mutable_segs = pc_fbb_vec_stack(b, 1);
  }

  uint64_t *offsets = scratch(e, (e->nconsts + 1) * 8);
  if (!offsets) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  offsets[0] = 0;
  for (size_t k = 0; k < e->nconsts; k++) offsets[k + 1] = e->consts[k].offset;
  pc_fbb_ref offs = pc_fbb_vec_scalars(b, offsets, e->nconsts + 1, 8, 0);
  pc_fbb_table_start(b);
  pc_fbb_add_u32(b, 0, 0);
  pc_fbb_add_ref(b, 1, offs);
  pc_fbb_ref const_seg = pc_fbb_table_end(b);

  pc_fbb_table_start(b);
  pc_fbb_add_u32(b, PROGRAM_VERSION, 0);
  pc_fbb_add_ref(b, PROGRAM_PLANS, plans);
  pc_fbb_add_ref(b, PROGRAM_SEGMENTS, segments);
  pc_fbb_add_ref(b, PROGRAM_CONST_SEG, const_seg);
  pc_fbb_add_ref(b, PROGRAM_MUTABLE_SEGS, mutable_segs);
  pc_fbb_add_ref(b, PROGRAM_NAMED_DATA, named);
  pc_fbb_ref root = pc_fbb_table_end(b);
  ptera_status st = pc_fbb_finish(b, root, "ET12");
  if (st == PTERA_MEMORY_ALLOCATION_FAILED) return pt_fail(e->err, st, "out of memory");
  if (st != PTERA_OK) return pt_fail(e->err, st, "cannot build the flatbuffer (%s)", ptera_status_name(st));
  return PTERA_OK;
}

/* ---- file ---- */

static ptera_status assemble(emitter *e, uint8_t **out, size_t *out_size) {
  size_t fb_size;
  const uint8_t *fb = pc_fbb_data(&e->fbb, &fb_size);
  bool header = e->seg_size > 0; /* like upstream: only when there is segment data */
  uint64_t pad_len = 0, program_size = fb_size, seg_base = 0, seg_size = 0, total = fb_size;
  if (header) {
    uint64_t align = pc_fbb_max_align(&e->fbb);
    if (align < 16) align = 16;
    pad_len = round_up(HEADER_LENGTH, align);
    program_size = fb_size + pad_len;
    seg_base = round_up(program_size, e->salign);
    seg_size = e->seg_size;
    if (!pt_add_u64(seg_base, seg_size, &total)) total = UINT64_MAX;
    if (program_size > PC_FBB_MAX_SIZE || total > SIZE_MAX)
      return pt_fail(e->err, PTERA_NOT_SUPPORTED, "program too large");
  }
  uint8_t *f = pt_alloc(e->allocator, (size_t)total, 16);
  if (!f) return pt_fail(e->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  if (!header) {
    memcpy(f, fb, fb_size);
  } else {
    memset(f, 0, (size_t)total);
    memcpy(f, fb, 8);
    pt_put_le32(f, pt_le32(fb) + (uint32_t)pad_len);
    memcpy(f + 8, "eh00", 4);
    pt_put_le32(f + 12, HEADER_LENGTH);
    pt_put_le64(f + 16, program_size);
    pt_put_le64(f + 24, seg_base);
    pt_put_le64(f + 32, seg_size);
    memcpy(f + 8 + pad_len, fb + 8, fb_size - 8);
    for (size_t k = 0; k < e->nconsts; k++)
      if (e->consts[k].nbytes)
        memcpy(f + seg_base + e->consts[k].offset, e->consts[k].data, e->consts[k].nbytes);
    uint64_t mut_base = e->nmuts ? seg_base + e->segs[1].offset : 0;
    for (size_t k = 0; k < e->nmuts; k++)
      if (e->muts[k].tensor->initial_nbytes)
        memcpy(f + mut_base + e->muts[k].offset, e->muts[k].tensor->initial,
               e->muts[k].tensor->initial_nbytes);
    for (uint32_t s = e->nmuts ? 2 : 1; s < e->nsegs; s++)
      if (e->segs[s].size) memcpy(f + seg_base + e->segs[s].offset, e->segs[s].data, e->segs[s].size);
  }
  *out = f;
  *out_size = (size_t)total;
  return PTERA_OK;
}

ptera_status pc_emit_pte(const pc_program *p, const pc_emit_options *options, uint8_t **out,
                         size_t *out_size, pt_err *err) {
  if (out) *out = NULL;
  if (out_size) *out_size = 0;
  if (!p || !out || !out_size || (p->nmethods && !p->methods))
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "pc_emit_pte: NULL argument");
  emitter e;
  memset(&e, 0, sizeof e);
  e.p = p;
  e.allocator = options ? options->allocator : NULL;
  e.err = err;
  e.calign = options && options->constant_alignment ? options->constant_alignment : 16;
  e.salign = options && options->segment_alignment ? options->segment_alignment : 128;
  if (!pow2(e.calign) || !pow2(e.salign))
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "alignments must be powers of two");
  for (uint32_t mi = 0; mi < p->nmethods; mi++) {
    ptera_status st = check_method(&e, mi);
    if (st != PTERA_OK) return st;
  }
  ptera_status cst = check_named(&e);
  if (cst != PTERA_OK) return cst;
  pc_fbb_init(&e.fbb, e.allocator);
  ptera_status st = layout_constants(&e);
  if (st == PTERA_OK) st = layout_mutables(&e);
  if (st == PTERA_OK) st = layout_segments(&e);
  if (st == PTERA_OK) st = emit_flatbuffer(&e);
  if (st == PTERA_OK) st = assemble(&e, out, out_size);
  pc_fbb_release(&e.fbb);
  pt_free(e.allocator, e.consts);
  pt_free(e.allocator, e.muts);
  pt_free(e.allocator, e.segs);
  pt_free(e.allocator, e.named_seg);
  pt_free(e.allocator, e.deleg_seg);
  pt_free(e.allocator, e.tmp);
  return st;
}
