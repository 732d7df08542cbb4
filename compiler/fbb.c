/* FlatBuffers builder, back to front (see fbb.h). */
#include "fbb.h"

#define FBB_MIN_CAP 256u

void pc_fbb_init(pc_fbb *b, const ptera_allocator *allocator) {
  memset(b, 0, sizeof *b);
  b->allocator = allocator;
  b->max_align = 1;
  b->status = PTERA_OK;
}

void pc_fbb_release(pc_fbb *b) {
  pt_free(b->allocator, b->buf);
  pt_free(b->allocator, b->fields);
  pt_free(b->allocator, b->stack);
  const ptera_allocator *a = b->allocator;
  pc_fbb_init(b, a);
}

ptera_status pc_fbb_status(const pc_fbb *b) { return b->status; }

static bool fail(pc_fbb *b, ptera_status st) {
  if (b->status == PTERA_OK) b->status = st;
  return false;
}

/* Usable for building: no earlier error, not finished. */
static bool ok(pc_fbb *b) {
  if (b->status != PTERA_OK) return false;
  if (b->finished) return fail(b, PTERA_INVALID_STATE);
  return true;
}

/* Room for n more bytes in front of the data (a buffer even when n is 0:
 * push forms a pointer into it). */
static bool reserve(pc_fbb *b, size_t n) {
  if (b->buf && b->cap - b->size >= n) return true;
  if (n > PC_FBB_MAX_SIZE || b->size + n > PC_FBB_MAX_SIZE) return fail(b, PTERA_NOT_SUPPORTED);
  size_t cap = b->cap ? b->cap : FBB_MIN_CAP;
  while (cap - b->size < n) cap *= 2; /* cap <= 2^32 since size + n < 2^31 */
  uint8_t *nb = pt_alloc(b->allocator, cap, 16);
  if (!nb) return fail(b, PTERA_MEMORY_ALLOCATION_FAILED);
  if (b->size) memcpy(nb + cap - b->size, b->buf + b->cap - b->size, b->size);
  pt_free(b->allocator, b->buf);
  b->buf = nb;
  b->cap = cap;
  return true;
}

/* Pushes n bytes (zeros when src is NULL) in front; returns the new front. */
static uint8_t *push(pc_fbb *b, const void *src, size_t n) {
  if (!reserve(b, n)) return NULL;
  b->size += n;
  uint8_t *p = b->buf + b->cap - b->size;
  if (src) memcpy(p, src, n); else memset(p, 0, n);
  return p;
}

/* Pads so that after `extra` more bytes the size is a multiple of align. */
static bool prep(pc_fbb *b, size_t align, size_t extra) {
  if (align > b->max_align) b->max_align = align;
  size_t pad = (align - ((b->size + extra) & (align - 1))) & (align - 1);
  return pad == 0 || push(b, NULL, pad) != NULL;
}

static void put_le(uint8_t *p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Pushes a u32 uoffset referring to ref (which must already exist). */
static bool push_uoffset(pc_fbb *b, pc_fbb_ref ref) {
  if (!prep(b, 4, 0)) return false;
  if (ref == 0 || ref > b->size) return fail(b, PTERA_INVALID_ARGUMENT);
  uint8_t *p = push(b, NULL, 4);
  if (!p) return false;
  pt_put_le32(p, (uint32_t)(b->size - ref));
  return true;
}

static bool not_in_table(pc_fbb *b) {
  if (!ok(b)) return false;
  if (b->in_table) return fail(b, PTERA_INVALID_STATE);
  return true;
}

pc_fbb_ref pc_fbb_string(pc_fbb *b, const char *s, size_t len) {
  if (!not_in_table(b)) return 0;
  if (len > PC_FBB_MAX_SIZE) return fail(b, PTERA_NOT_SUPPORTED), 0;
  if (!prep(b, 4, len + 1) || !push(b, NULL, 1)) return 0;
  if (len && !push(b, s, len)) return 0;
  uint8_t *p = push(b, NULL, 4);
  if (!p) return 0;
  pt_put_le32(p, (uint32_t)len);
  return (pc_fbb_ref)b->size;
}

pc_fbb_ref pc_fbb_cstring(pc_fbb *b, const char *s) { return pc_fbb_string(b, s, s ? strlen(s) : 0); }

static bool pow2(size_t a) { return a != 0 && (a & (a - 1)) == 0; }

pc_fbb_ref pc_fbb_vec_scalars(pc_fbb *b, const void *data, size_t count, size_t elem_size,
                              size_t force_align) {
  if (!not_in_table(b)) return 0;
  if (!(elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8) ||
      (force_align && !pow2(force_align)) || (count && !data))
    return fail(b, PTERA_INVALID_ARGUMENT), 0;
  if (count > PC_FBB_MAX_SIZE / elem_size) return fail(b, PTERA_NOT_SUPPORTED), 0;
  size_t n = count * elem_size;
  size_t align = force_align > elem_size ? force_align : elem_size;
  if (!prep(b, 4, n) || !prep(b, align, n)) return 0;
  uint8_t *p = push(b, NULL, n);
  if (!p) return 0;
  const uint8_t *src = data;
  for (size_t i = 0; i < count; i++) {
    uint64_t v = 0;
    switch (elem_size) {
      case 1: v = src[i]; break;
      case 2: { uint16_t x; memcpy(&x, src + 2 * i, 2); v = x; break; }
      case 4: { uint32_t x; memcpy(&x, src + 4 * i, 4); v = x; break; }
      default: memcpy(&v, src + 8 * i, 8); break;
    }
    put_le(p + i * elem_size, v, elem_size);
  }
  /* The data was pre-aligned so that the count lands 4-aligned. */
  uint8_t *c = push(b, NULL, 4);
  if (!c) return 0;
  pt_put_le32(c, (uint32_t)count);
  return (pc_fbb_ref)b->size;
}

pc_fbb_ref pc_fbb_vec_refs(pc_fbb *b, const pc_fbb_ref *refs, size_t count) {
  if (!not_in_table(b)) return 0;
  if (count && !refs) return fail(b, PTERA_INVALID_ARGUMENT), 0;
  if (count > PC_FBB_MAX_SIZE / 4) return fail(b, PTERA_NOT_SUPPORTED), 0;
  if (!prep(b, 4, 4 * count) || !reserve(b, 4 * count + 4)) return 0;
  for (size_t i = count; i-- > 0;)
    if (!push_uoffset(b, refs[i])) return 0;
  uint8_t *c = push(b, NULL, 4);
  if (!c) return 0;
  pt_put_le32(c, (uint32_t)count);
  return (pc_fbb_ref)b->size;
}

void pc_fbb_push(pc_fbb *b, pc_fbb_ref ref) {
  if (!ok(b)) return;
  if (b->nstack == b->stack_cap) {
    size_t cap = b->stack_cap ? 2 * b->stack_cap : 64;
    pc_fbb_ref *ns = pt_calloc(b->allocator, cap, sizeof *ns, _Alignof(pc_fbb_ref));
    if (!ns) {
      fail(b, PTERA_MEMORY_ALLOCATION_FAILED);
      return;
    }
    if (b->nstack) memcpy(ns, b->stack, b->nstack * sizeof *ns);
    pt_free(b->allocator, b->stack);
    b->stack = ns;
    b->stack_cap = cap;
  }
  b->stack[b->nstack++] = ref;
}

pc_fbb_ref pc_fbb_vec_stack(pc_fbb *b, size_t count) {
  if (!ok(b)) return 0;
  if (count > b->nstack) return fail(b, PTERA_INVALID_STATE), 0;
  b->nstack -= count;
  return pc_fbb_vec_refs(b, count ? b->stack + b->nstack : NULL, count);
}

void pc_fbb_table_start(pc_fbb *b) {
  if (!not_in_table(b)) return;
  b->in_table = true;
  b->nfields = 0;
  b->table_start = b->size;
}

static bool add_field(pc_fbb *b, unsigned id) {
  if (!ok(b)) return false;
  if (!b->in_table) return fail(b, PTERA_INVALID_STATE);
  if (id > 0x7ff0u) return fail(b, PTERA_INVALID_ARGUMENT);
  for (size_t i = 0; i < b->nfields; i++)
    if (b->fields[i].id == id) return fail(b, PTERA_INVALID_ARGUMENT);
  if (b->nfields == b->fields_cap) {
    size_t cap = b->fields_cap ? 2 * b->fields_cap : 16;
    pc_fbb_field *nf = pt_calloc(b->allocator, cap, sizeof *nf, _Alignof(pc_fbb_field));
    if (!nf) return fail(b, PTERA_MEMORY_ALLOCATION_FAILED);
    if (b->nfields) memcpy(nf, b->fields, b->nfields * sizeof *nf);
    pt_free(b->allocator, b->fields);
    b->fields = nf;
    b->fields_cap = cap;
  }
  return true;
}

static void add_scalar(pc_fbb *b, unsigned id, uint64_t v, size_t n) {
  if (!add_field(b, id) || !prep(b, n, 0)) return;
  uint8_t *p = push(b, NULL, n);
  if (!p) return;
  put_le(p, v, n);
  b->fields[b->nfields].id = id;
  b->fields[b->nfields].off = (uint32_t)b->size;
  b->nfields++;
}

void pc_fbb_add_u8(pc_fbb *b, unsigned id, uint8_t v) { add_scalar(b, id, v, 1); }
void pc_fbb_add_i8(pc_fbb *b, unsigned id, int8_t v) { add_scalar(b, id, (uint8_t)v, 1); }
void pc_fbb_add_bool(pc_fbb *b, unsigned id, bool v) { add_scalar(b, id, v ? 1 : 0, 1); }
void pc_fbb_add_u16(pc_fbb *b, unsigned id, uint16_t v) { add_scalar(b, id, v, 2); }
void pc_fbb_add_i16(pc_fbb *b, unsigned id, int16_t v) { add_scalar(b, id, (uint16_t)v, 2); }
void pc_fbb_add_u32(pc_fbb *b, unsigned id, uint32_t v) { add_scalar(b, id, v, 4); }
void pc_fbb_add_i32(pc_fbb *b, unsigned id, int32_t v) { add_scalar(b, id, (uint32_t)v, 4); }
void pc_fbb_add_u64(pc_fbb *b, unsigned id, uint64_t v) { add_scalar(b, id, v, 8); }
void pc_fbb_add_i64(pc_fbb *b, unsigned id, int64_t v) { add_scalar(b, id, (uint64_t)v, 8); }
void pc_fbb_add_f32(pc_fbb *b, unsigned id, float v) {
  uint32_t x;
  memcpy(&x, &v, 4);
  add_scalar(b, id, x, 4);
}
void pc_fbb_add_f64(pc_fbb *b, unsigned id, double v) {
  uint64_t x;
  memcpy(&x, &v, 8);
  add_scalar(b, id, x, 8);
}

void pc_fbb_add_ref(pc_fbb *b, unsigned id, pc_fbb_ref ref) {
  if (ref == 0) return;
  if (!add_field(b, id) || !push_uoffset(b, ref)) return;
  b->fields[b->nfields].id = id;
  b->fields[b->nfields].off = (uint32_t)b->size;
  b->nfields++;
}

void pc_fbb_add_union(pc_fbb *b, unsigned type_id, uint8_t code, pc_fbb_ref ref) {
  pc_fbb_add_u8(b, type_id, code);
  pc_fbb_add_ref(b, type_id + 1, ref);
}

pc_fbb_ref pc_fbb_table_end(pc_fbb *b) {
  if (!ok(b)) return 0;
  if (!b->in_table) return fail(b, PTERA_INVALID_STATE), 0;
  /* The table's leading soffset, patched once the vtable exists. */
  if (!prep(b, 4, 0) || !push(b, NULL, 4)) return 0;
  size_t t = b->size;
  size_t inline_size = t - b->table_start;
  unsigned nslots = 0;
  for (size_t i = 0; i < b->nfields; i++)
    if (b->fields[i].id + 1 > nslots) nslots = b->fields[i].id + 1;
  size_t vt_size = 4 + 2 * (size_t)nslots;
  if (inline_size > 0xffffu || vt_size > 0xffffu) return fail(b, PTERA_NOT_SUPPORTED), 0;
  uint8_t *v = push(b, NULL, vt_size);
  if (!v) return 0;
  v[0] = (uint8_t)vt_size;
  v[1] = (uint8_t)(vt_size >> 8);
  v[2] = (uint8_t)inline_size;
  v[3] = (uint8_t)(inline_size >> 8);
  for (size_t i = 0; i < b->nfields; i++) {
    size_t fo = t - b->fields[i].off; /* field position - table position */
    v[4 + 2 * b->fields[i].id] = (uint8_t)fo;
    v[5 + 2 * b->fields[i].id] = (uint8_t)(fo >> 8);
  }
  /* soffset at T: T - V, i.e. (end - t) - (end - size) = size - t. */
  pt_put_le32(b->buf + b->cap - t, (uint32_t)(int32_t)(b->size - t));
  b->in_table = false;
  b->nfields = 0;
  return (pc_fbb_ref)t;
}

ptera_status pc_fbb_finish(pc_fbb *b, pc_fbb_ref root, const char *ident) {
  if (!not_in_table(b)) return b->status;
  size_t head = ident ? 8 : 4;
  size_t align = b->max_align > 4 ? b->max_align : 4;
  if (!prep(b, align, head)) return b->status;
  if (ident && !push(b, ident, 4)) return b->status;
  if (!push_uoffset(b, root)) return b->status;
  b->finished = true;
  return PTERA_OK;
}

const uint8_t *pc_fbb_data(const pc_fbb *b, size_t *size) {
  if (!b->finished || b->status != PTERA_OK) {
    if (size) *size = 0;
    return NULL;
  }
  if (size) *size = b->size;
  return b->buf + b->cap - b->size;
}

size_t pc_fbb_max_align(const pc_fbb *b) { return b->max_align; }
