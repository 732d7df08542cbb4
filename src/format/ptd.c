/* .ptd (FlatTensor, FT01) reader, both schema revisions (docs/PTD.md).
 *
 * Everything is verified up front: the FH01 header, the flatbuffer (through
 * the verifying pf_fb_* accessors), every segment against
 * segment_data_size (the strict form of docs/PTD.md §6.1), every entry's blob,
 * every tensor layout, and key uniqueness. After a successful parse the
 * entries can be used without further checks. */
#include "format/ptd.h"

#include <stdlib.h>

#include "format/flatbuf.h"

#define PTD_HEADER_MIN_LEN 40u /* FH01 length field, counted from the magic */
#define PTD_HEAD_BYTES 48u     /* bytes 0..48: root offset, FT01, FH01 header */

/* FlatTensor (current): 0 version, 1 segments, 2 named_data. */
enum { FT_SEGMENTS = 1, FT_NAMED_DATA = 2, FT_CURRENT_FIELDS = 3 };
/* FlatTensor (pre-June-2025): 0 version, 1 tensor_alignment, 2 tensors,
 * 3 segments, 4 named_data. */
enum { FTL_TENSORS = 2, FTL_SEGMENTS = 3, FTL_NAMED_DATA = 4 };
/* DataSegment: 0 offset, 1 size. */
enum { SEG_OFFSET = 0, SEG_SIZE = 1 };
/* NamedData: 0 key, 1 segment_index, 2 tensor_layout (current only). */
enum { ND_KEY = 0, ND_SEGMENT = 1, ND_LAYOUT = 2 };
/* TensorLayout: 0 scalar_type, 1 sizes, 2 dim_order. */
enum { TL_SCALAR_TYPE = 0, TL_SIZES = 1, TL_DIM_ORDER = 2 };
/* TensorMetadata (legacy): 0 fqn, 1 scalar_type, 2 sizes, 3 dim_order,
 * 4 segment_index, 5 offset. */
enum { TM_FQN = 0, TM_SCALAR_TYPE = 1, TM_SIZES = 2, TM_DIM_ORDER = 3, TM_SEGMENT = 4,
       TM_OFFSET = 5 };

typedef struct ptd_ctx {
  pf_fb fb;
  const uint8_t *data;
  uint64_t size;
  pf_ptd *out;
  pt_err *err;
  uint64_t *seg_off; /* verified segments (relative offset, size) */
  uint64_t *seg_size;
  uint32_t nsegs;
} ptd_ctx;

static ptera_status ptd_fb_fail(ptd_ctx *c, const char *what) {
  return pf_fb_error(&c->fb, c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: %s", what);
}

static ptera_status ptd_fb_fail_key(ptd_ctx *c, const char *what, const pf_fb_str *key,
                                    uint32_t index) {
  if (key && key->ptr)
    return pf_fb_error(&c->fb, c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: %s of entry '%.200s'",
                       what, key->ptr);
  return pf_fb_error(&c->fb, c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: %s of entry %u", what,
                     (unsigned)index);
}

/* ---- header ---------------------------------------------------------------- */

int pf_ptd_identify(const uint8_t *data, size_t size) {
  return pf_fb_has_ident(data, size, "FT01") ? 1 : 0;
}

static ptera_status ptd_header(ptd_ctx *c, uint64_t *fb_len) {
  const uint8_t *d = c->data;
  pf_ptd *out = c->out;
  if (!d || c->size < 8 || !pf_ptd_identify(d, (size_t)c->size)) {
    if (d && c->size >= 8)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: file identifier is not FT01 (found bytes %02x %02x %02x %02x)", d[4],
                     d[5], d[6], d[7]);
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: file too small (%llu bytes)",
                   (unsigned long long)c->size);
  }
  if (c->size < PTD_HEAD_BYTES)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: file too small for the FH01 header (%llu bytes)",
                   (unsigned long long)c->size);
  if (memcmp(d + 8, "FH01", 4) != 0)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: no FH01 header at byte 8");
  uint32_t hlen = pt_le32(d + 12);
  if (hlen < PTD_HEADER_MIN_LEN)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: FH01 header length %u is below %u", (unsigned)hlen,
                   (unsigned)PTD_HEADER_MIN_LEN);
  uint64_t fb_off = pt_le64(d + 16), fb_size = pt_le64(d + 24);
  out->flatbuffer_size = fb_size;
  out->segment_base = pt_le64(d + 32);
  out->segment_data_size = pt_le64(d + 40);
  uint64_t end;
  if (!pt_add_u64(fb_off, fb_size, &end) || end > c->size)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: flatbuffer region (offset %llu + size %llu) runs past the end of the "
                   "file (%llu bytes)",
                   (unsigned long long)fb_off, (unsigned long long)fb_size,
                   (unsigned long long)c->size);
  if (end < PTD_HEAD_BYTES)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: flatbuffer region (%llu bytes) is smaller than its header",
                   (unsigned long long)end);
  uint64_t seg_end;
  if (!pt_add_u64(out->segment_base, out->segment_data_size, &seg_end) || seg_end > c->size)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: segment data (base %llu + size %llu) runs past the end of the file "
                   "(%llu bytes)",
                   (unsigned long long)out->segment_base,
                   (unsigned long long)out->segment_data_size, (unsigned long long)c->size);
  *fb_len = end;
  return PTERA_OK;
}

/* ---- segments ---------------------------------------------------------------- */

static ptera_status ptd_segments(ptd_ctx *c, const pf_fb_table *root, unsigned field,
                                 pt_arena *arena) {
  pf_fb_vec v;
  if (!pf_fb_vec_field(&c->fb, root, field, 4, &v)) return ptd_fb_fail(c, "segments");
  if (!v.present)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: the 'segments' list is missing");
  c->nsegs = v.count;
  c->seg_off = pt_arena_array(arena, v.count ? v.count : 1, sizeof(uint64_t), 8);
  c->seg_size = pt_arena_array(arena, v.count ? v.count : 1, sizeof(uint64_t), 8);
  if (!c->seg_off || !c->seg_size)
    return pt_fail(c->err, PTERA_MEMORY_ALLOCATION_FAILED, "ptd: out of memory for %u segments",
                   (unsigned)v.count);
  for (uint32_t i = 0; i < v.count; i++) {
    pf_fb_table s;
    uint64_t off, size, end;
    if (!pf_fb_vec_table(&c->fb, &v, i, &s) || !pf_fb_u64(&c->fb, &s, SEG_OFFSET, 0, &off) ||
        !pf_fb_u64(&c->fb, &s, SEG_SIZE, 0, &size))
      return pf_fb_error(&c->fb, c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: segment %u",
                         (unsigned)i);
    if (!pt_add_u64(off, size, &end) || end > c->out->segment_data_size)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: segment %u (offset %llu, size %llu) runs past the segment data "
                     "(%llu bytes)",
                     (unsigned)i, (unsigned long long)off, (unsigned long long)size,
                     (unsigned long long)c->out->segment_data_size);
    c->seg_off[i] = off;
    c->seg_size[i] = size;
  }
  return PTERA_OK;
}

/* ---- layouts ----------------------------------------------------------------- */

/* Reads and validates a layout from table t with the given field ids. */
static ptera_status ptd_layout(ptd_ctx *c, const pf_fb_table *t, unsigned f_type, unsigned f_sizes,
                               unsigned f_order, const pf_fb_str *key, uint32_t index,
                               pf_layout *lay) {
  uint8_t st;
  pf_fb_vec sizes, order;
  memset(lay, 0, sizeof *lay);
  if (!pf_fb_u8(&c->fb, t, f_type, 0, &st)) return ptd_fb_fail_key(c, "scalar_type", key, index);
  if (!pf_fb_vec_field(&c->fb, t, f_sizes, 4, &sizes))
    return ptd_fb_fail_key(c, "sizes", key, index);
  if (!pf_fb_vec_field(&c->fb, t, f_order, 1, &order))
    return ptd_fb_fail_key(c, "dim_order", key, index);
  const char *k = key && key->ptr ? key->ptr : "?";
  if (st >= PTERA_DTYPE_COUNT)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': invalid scalar type %u", k, (unsigned)st);
  if (!sizes.present)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: entry '%.200s': layout has no sizes",
                   k);
  if (sizes.count > PTERA_MAX_DIM)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': rank %u exceeds %d", k, (unsigned)sizes.count,
                   PTERA_MAX_DIM);
  if (order.count != sizes.count)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': dim_order has %u entries for rank %u", k,
                   (unsigned)order.count, (unsigned)sizes.count);
  lay->present = true;
  lay->scalar_type = st;
  lay->dim = (uint8_t)sizes.count;
  uint64_t numel = 1;
  bool overflow = false;
  unsigned seen = 0;
  for (uint32_t i = 0; i < sizes.count; i++) {
    int32_t s = pf_fb_vec_i32(&c->fb, &sizes, i);
    if (s < 0)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: entry '%.200s': size %u is negative (%d)", k, (unsigned)i, (int)s);
    lay->sizes[i] = s;
    if (!pt_mul_u64(numel, (uint64_t)s, &numel)) overflow = true;
    uint8_t d = pf_fb_vec_u8(&c->fb, &order, i);
    if (d >= sizes.count || (seen & (1u << d)))
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: entry '%.200s': dim_order is not a permutation of 0..%u", k,
                     (unsigned)(sizes.count ? sizes.count - 1 : 0));
    seen |= 1u << d;
    lay->dim_order[i] = d;
  }
  if (overflow || !pt_mul_u64(numel, ptera_dtype_size(st), &lay->nbytes))
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': tensor byte size overflows", k);
  return PTERA_OK;
}

/* ---- entries ------------------------------------------------------------------ */

/* The bytes of segment seg, [rel, rel + len) inside it. */
static ptera_status ptd_blob(ptd_ctx *c, int64_t seg, uint64_t rel, uint64_t len, const char *key,
                             pf_bytes *out) {
  if (seg < 0 || (uint64_t)seg >= c->nsegs)
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': segment index %lld is out of range (%u segments)", key,
                   (long long)seg, (unsigned)c->nsegs);
  uint64_t end;
  if (!pt_add_u64(rel, len, &end) || end > c->seg_size[seg])
    return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                   "ptd: entry '%.200s': data (offset %llu, %llu bytes) runs past segment %lld "
                   "(%llu bytes)",
                   key, (unsigned long long)rel, (unsigned long long)len, (long long)seg,
                   (unsigned long long)c->seg_size[seg]);
  /* segment_base + segment_data_size <= file size and seg_off + seg_size <=
   * segment_data_size were checked, so this cannot overflow or overrun. */
  out->ptr = c->data + c->out->segment_base + c->seg_off[seg] + rel;
  out->len = len;
  return PTERA_OK;
}

static void ptd_set_key(pf_ptd_entry *e, const pf_fb_str *s) {
  e->key.ptr = s->ptr;
  e->key.len = s->len;
}

/* NamedData entries (current and legacy; legacy has no layout). */
static ptera_status ptd_named(ptd_ctx *c, const pf_fb_vec *v, bool with_layout, pf_ptd_entry *dst) {
  for (uint32_t i = 0; i < v->count; i++) {
    pf_fb_table t;
    pf_fb_str key;
    uint32_t seg;
    pf_ptd_entry *e = &dst[i];
    if (!pf_fb_vec_table(&c->fb, v, i, &t)) return ptd_fb_fail_key(c, "named data", NULL, i);
    if (!pf_fb_str_field(&c->fb, &t, ND_KEY, &key)) return ptd_fb_fail_key(c, "key", NULL, i);
    if (!key.ptr)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: named data entry %u has no key",
                     (unsigned)i);
    if (!pf_fb_u32(&c->fb, &t, ND_SEGMENT, 0, &seg))
      return ptd_fb_fail_key(c, "segment_index", &key, i);
    ptd_set_key(e, &key);
    ptera_status st = ptd_blob(c, seg, 0, seg < c->nsegs ? c->seg_size[seg] : 0, key.ptr, &e->data);
    if (st != PTERA_OK) return st;
    if (!with_layout) continue;
    pf_fb_table lt;
    if (!pf_fb_table_field(&c->fb, &t, ND_LAYOUT, &lt))
      return ptd_fb_fail_key(c, "tensor_layout", &key, i);
    if (!lt.present) continue;
    st = ptd_layout(c, &lt, TL_SCALAR_TYPE, TL_SIZES, TL_DIM_ORDER, &key, i, &e->layout);
    if (st != PTERA_OK) return st;
    if (e->data.len < e->layout.nbytes)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: entry '%.200s': segment %u has %llu bytes but the tensor needs %llu",
                     key.ptr, (unsigned)seg, (unsigned long long)e->data.len,
                     (unsigned long long)e->layout.nbytes);
  }
  return PTERA_OK;
}

/* Legacy TensorMetadata entries: layout always present, data at segment +
 * offset, nbytes long. */
static ptera_status ptd_tensors(ptd_ctx *c, const pf_fb_vec *v, pf_ptd_entry *dst) {
  for (uint32_t i = 0; i < v->count; i++) {
    pf_fb_table t;
    pf_fb_str key;
    int32_t seg;
    uint64_t off;
    pf_ptd_entry *e = &dst[i];
    if (!pf_fb_vec_table(&c->fb, v, i, &t)) return ptd_fb_fail_key(c, "tensor", NULL, i);
    if (!pf_fb_str_field(&c->fb, &t, TM_FQN, &key))
      return ptd_fb_fail_key(c, "fully_qualified_name", NULL, i);
    if (!key.ptr)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA,
                     "ptd: tensor entry %u has no fully_qualified_name", (unsigned)i);
    if (!pf_fb_i32(&c->fb, &t, TM_SEGMENT, 0, &seg) || !pf_fb_u64(&c->fb, &t, TM_OFFSET, 0, &off))
      return ptd_fb_fail_key(c, "segment_index/offset", &key, i);
    ptd_set_key(e, &key);
    ptera_status st =
        ptd_layout(c, &t, TM_SCALAR_TYPE, TM_SIZES, TM_DIM_ORDER, &key, i, &e->layout);
    if (st != PTERA_OK) return st;
    st = ptd_blob(c, seg, off, e->layout.nbytes, key.ptr, &e->data);
    if (st != PTERA_OK) return st;
  }
  return PTERA_OK;
}

/* ---- duplicate keys -------------------------------------------------------------- */

static int ptd_key_cmp(const void *a, const void *b) {
  const pf_ptd_entry *x = *(const pf_ptd_entry *const *)a;
  const pf_ptd_entry *y = *(const pf_ptd_entry *const *)b;
  if (x->key.len != y->key.len) return x->key.len < y->key.len ? -1 : 1;
  return x->key.len ? memcmp(x->key.ptr, y->key.ptr, x->key.len) : 0;
}

static ptera_status ptd_check_unique(ptd_ctx *c, pt_arena *arena) {
  pf_ptd *d = c->out;
  if (d->nentries < 2) return PTERA_OK;
  const pf_ptd_entry **idx = pt_arena_array(arena, d->nentries, sizeof *idx, sizeof(void *));
  if (!idx)
    return pt_fail(c->err, PTERA_MEMORY_ALLOCATION_FAILED, "ptd: out of memory for %u keys",
                   (unsigned)d->nentries);
  for (uint32_t i = 0; i < d->nentries; i++) idx[i] = &d->entries[i];
  qsort(idx, d->nentries, sizeof *idx, ptd_key_cmp);
  for (uint32_t i = 1; i < d->nentries; i++)
    if (ptd_key_cmp(&idx[i - 1], &idx[i]) == 0)
      return pt_fail(c->err, PTERA_INVALID_EXTERNAL_DATA, "ptd: duplicate key '%.200s'",
                     idx[i]->key.ptr);
  return PTERA_OK;
}

/* ---- parse ------------------------------------------------------------------------ */

ptera_status pf_ptd_parse(const uint8_t *data, uint64_t size, pt_arena *arena, pf_ptd *out,
                          pt_err *err) {
  if (!out || !arena)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "ptd: missing arena or output");
  memset(out, 0, sizeof *out);
  ptd_ctx c;
  memset(&c, 0, sizeof c);
  c.data = data;
  c.size = size;
  c.out = out;
  c.err = err;
  uint64_t fb_len = 0;
  ptera_status st = ptd_header(&c, &fb_len);
  if (st != PTERA_OK) return st;
  out->file = data;
  out->file_size = size;

  pf_fb_table root;
  if (!pf_fb_init(&c.fb, data, fb_len) || !pf_fb_root(&c.fb, &root))
    return ptd_fb_fail(&c, "FlatTensor root");
  unsigned nfields = (root.vt_size - 4u) / 2u;
  out->legacy = nfields > FT_CURRENT_FIELDS;

  pf_fb_vec named, tensors;
  memset(&tensors, 0, sizeof tensors);
  if (out->legacy) {
    st = ptd_segments(&c, &root, FTL_SEGMENTS, arena);
    if (st != PTERA_OK) return st;
    if (!pf_fb_vec_field(&c.fb, &root, FTL_TENSORS, 4, &tensors))
      return ptd_fb_fail(&c, "tensors");
    if (!pf_fb_vec_field(&c.fb, &root, FTL_NAMED_DATA, 4, &named))
      return ptd_fb_fail(&c, "named_data");
  } else {
    st = ptd_segments(&c, &root, FT_SEGMENTS, arena);
    if (st != PTERA_OK) return st;
    if (!pf_fb_vec_field(&c.fb, &root, FT_NAMED_DATA, 4, &named))
      return ptd_fb_fail(&c, "named_data");
    if (!named.present)
      return pt_fail(err, PTERA_INVALID_EXTERNAL_DATA, "ptd: the 'named_data' list is missing");
  }
  uint64_t total = (uint64_t)tensors.count + named.count;
  if (total > UINT32_MAX)
    return pt_fail(err, PTERA_INVALID_EXTERNAL_DATA, "ptd: too many entries");
  out->entries = pt_arena_array(arena, total ? (size_t)total : 1, sizeof(pf_ptd_entry), 8);
  if (!out->entries)
    return pt_fail(err, PTERA_MEMORY_ALLOCATION_FAILED, "ptd: out of memory for %llu entries",
                   (unsigned long long)total);
  st = ptd_tensors(&c, &tensors, out->entries);
  if (st != PTERA_OK) return st;
  st = ptd_named(&c, &named, !out->legacy, out->entries + tensors.count);
  if (st != PTERA_OK) return st;
  out->nentries = (uint32_t)total;
  return ptd_check_unique(&c, arena);
}

const pf_ptd_entry *pf_ptd_find(const pf_ptd *d, const char *key, size_t key_len) {
  if (!d || (!key && key_len)) return NULL;
  for (uint32_t i = 0; i < d->nentries; i++) {
    const pf_ptd_entry *e = &d->entries[i];
    if (e->key.len == key_len && (key_len == 0 || memcmp(e->key.ptr, key, key_len) == 0)) return e;
  }
  return NULL;
}
