/* .ptd writer (see emit_ptd.h; docs/PTD.md §1-4). Validates the entries, lays out
 * one segment per distinct blob (deduplicated by content), builds the
 * FlatTensor flatbuffer with fbb and splices the FH01 header in after the
 * file identifier, as the reference writer does. */
#include "emit_ptd.h"

#include "fbb.h"

/* FlatTensor (current): 0 version, 1 segments, 2 named_data. */
enum { FT_VERSION = 0, FT_SEGMENTS = 1, FT_NAMED_DATA = 2 };
enum { SEG_OFFSET = 0, SEG_SIZE = 1 };                   /* DataSegment */
enum { ND_KEY = 0, ND_SEGMENT = 1, ND_LAYOUT = 2 };      /* NamedData */
enum { TL_SCALAR_TYPE = 0, TL_SIZES = 1, TL_DIM_ORDER = 2 }; /* TensorLayout */

#define FH01_LENGTH 40u        /* header bytes counted from the magic */
#define FH01_PADDED_LENGTH 48u /* 40 rounded up to 16: inserted at file offset 8 */

static bool pow2(uint32_t a) { return a != 0 && (a & (a - 1)) == 0; }

static uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

static ptera_status bad_entry(pt_err *err, uint32_t i, const char *key, const char *why) {
  if (key)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "ptd entry %u ('%.200s'): %s", i, key, why);
  return pt_fail(err, PTERA_INVALID_ARGUMENT, "ptd entry %u: %s", i, why);
}

static ptera_status check_entry(const pc_ptd_entry *entries, uint32_t i, pt_err *err) {
  const pc_ptd_entry *t = &entries[i];
  if (!t->key || !t->key[0]) return bad_entry(err, i, NULL, "empty key");
  for (uint32_t k = 0; k < i; k++)
    if (strcmp(entries[k].key, t->key) == 0) return bad_entry(err, i, t->key, "duplicate key");
  size_t es = ptera_dtype_size(t->scalar_type);
  if (es == 0) return bad_entry(err, i, t->key, "bad scalar type");
  if (t->dim > PTERA_MAX_DIM) return bad_entry(err, i, t->key, "too many dims");
  if (t->dim && !t->sizes) return bad_entry(err, i, t->key, "no sizes");
  uint64_t numel, nbytes;
  if (!pt_numel(t->sizes, t->dim, &numel) || !pt_mul_u64(numel, es, &nbytes))
    return bad_entry(err, i, t->key, "negative size or size overflow");
  if (t->dim_order) {
    unsigned seen = 0;
    for (unsigned d = 0; d < t->dim; d++) {
      if (t->dim_order[d] >= t->dim || (seen & (1u << t->dim_order[d])))
        return bad_entry(err, i, t->key, "dim_order is not a permutation");
      seen |= 1u << t->dim_order[d];
    }
  }
  if (t->nbytes != nbytes) return bad_entry(err, i, t->key, "byte size differs from the shape's");
  if (nbytes && !t->data) return bad_entry(err, i, t->key, "no data");
  return PTERA_OK;
}

typedef struct ptd_writer {
  const pc_ptd_entry *entries;
  uint32_t n;
  const ptera_allocator *allocator;
  pt_err *err;
  uint64_t align;      /* segment base and segment offsets */
  uint32_t *seg_of;    /* entry -> segment index */
  uint32_t *seg_first; /* segment -> first entry holding its bytes */
  uint64_t *seg_off;   /* segment -> offset from the segment base */
  uint32_t nsegs;
  uint64_t seg_size;   /* segment_data_size: end of the last segment */
  pc_fbb fbb;
} ptd_writer;

static ptera_status layout_segments(ptd_writer *w) {
  if (w->n == 0) return PTERA_OK;
  w->seg_of = pt_calloc(w->allocator, w->n, sizeof *w->seg_of, _Alignof(uint32_t));
  w->seg_first = pt_calloc(w->allocator, w->n, sizeof *w->seg_first, _Alignof(uint32_t));
  w->seg_off = pt_calloc(w->allocator, w->n, sizeof *w->seg_off, _Alignof(uint64_t));
  if (!w->seg_of || !w->seg_first || !w->seg_off)
    return pt_fail(w->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  uint64_t end = 0;
  for (uint32_t i = 0; i < w->n; i++) {
    const pc_ptd_entry *t = &w->entries[i];
    uint32_t s = 0;
    for (; s < w->nsegs; s++) {
      const pc_ptd_entry *o = &w->entries[w->seg_first[s]];
      if (o->nbytes == t->nbytes && (t->nbytes == 0 || memcmp(o->data, t->data, t->nbytes) == 0))
        break;
    }
    w->seg_of[i] = s;
    if (s < w->nsegs) continue; /* same bytes as an earlier key: share its segment */
    uint64_t off = w->nsegs ? round_up(end, w->align) : 0;
    if (off < end || !pt_add_u64(off, t->nbytes, &end) || end > PC_FBB_MAX_SIZE * 8ull)
      return pt_fail(w->err, PTERA_NOT_SUPPORTED, "ptd: tensor data too large");
    w->seg_first[s] = i;
    w->seg_off[s] = off;
    w->nsegs++;
  }
  w->seg_size = end;
  return PTERA_OK;
}

static ptera_status build_flatbuffer(ptd_writer *w) {
  pc_fbb *b = &w->fbb;
  for (uint32_t i = 0; i < w->n; i++) {
    const pc_ptd_entry *t = &w->entries[i];
    uint8_t order[PTERA_MAX_DIM];
    for (unsigned d = 0; d < t->dim; d++) order[d] = t->dim_order ? t->dim_order[d] : (uint8_t)d;
    pc_fbb_ref key = pc_fbb_cstring(b, t->key);
    pc_fbb_ref sizes = pc_fbb_vec_scalars(b, t->sizes, t->dim, 4, 0);
    pc_fbb_ref dim_order = pc_fbb_vec_scalars(b, order, t->dim, 1, 0);
    pc_fbb_table_start(b);
    pc_fbb_add_u8(b, TL_SCALAR_TYPE, t->scalar_type);
    pc_fbb_add_ref(b, TL_SIZES, sizes);
    pc_fbb_add_ref(b, TL_DIM_ORDER, dim_order);
    pc_fbb_ref layout = pc_fbb_table_end(b);
    pc_fbb_table_start(b);
    pc_fbb_add_ref(b, ND_KEY, key);
    pc_fbb_add_u32(b, ND_SEGMENT, w->seg_of[i]);
    pc_fbb_add_ref(b, ND_LAYOUT, layout);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref named = pc_fbb_vec_stack(b, w->n);
  for (uint32_t s = 0; s < w->nsegs; s++) {
    pc_fbb_table_start(b);
    pc_fbb_add_u64(b, SEG_OFFSET, w->seg_off[s]);
    pc_fbb_add_u64(b, SEG_SIZE, w->entries[w->seg_first[s]].nbytes);
    pc_fbb_push(b, pc_fbb_table_end(b));
  }
  pc_fbb_ref segments = pc_fbb_vec_stack(b, w->nsegs);
  pc_fbb_table_start(b);
  pc_fbb_add_u32(b, FT_VERSION, 0);
  pc_fbb_add_ref(b, FT_SEGMENTS, segments);
  pc_fbb_add_ref(b, FT_NAMED_DATA, named);
  pc_fbb_ref root = pc_fbb_table_end(b);
  ptera_status st = pc_fbb_finish(b, root, "FT01");
  if (st == PTERA_MEMORY_ALLOCATION_FAILED) return pt_fail(w->err, st, "out of memory");
  if (st != PTERA_OK)
    return pt_fail(w->err, st, "ptd: cannot build the flatbuffer (%s)", ptera_status_name(st));
  return PTERA_OK;
}

/* [root offset + 48 | "FT01" | FH01 header (40) | 8 zeros | flatbuffer[8..]]
 * then zeros up to the segment base, then the segments. */
static ptera_status assemble(ptd_writer *w, uint8_t **out, size_t *out_size) {
  size_t fb_size;
  const uint8_t *fb = pc_fbb_data(&w->fbb, &fb_size);
  /* Inserting 48 bytes keeps every alignment up to 16; fbb never uses more
   * here (the widest field is a u64). */
  if (pc_fbb_max_align(&w->fbb) > 16)
    return pt_fail(w->err, PTERA_INTERNAL, "ptd: flatbuffer needs more than 16-byte alignment");
  uint64_t region = FH01_PADDED_LENGTH + (uint64_t)fb_size;
  uint64_t seg_base = round_up(region, w->align);
  uint64_t total = seg_base + w->seg_size;
  if (region > PC_FBB_MAX_SIZE || total > SIZE_MAX)
    return pt_fail(w->err, PTERA_NOT_SUPPORTED, "ptd: file too large");
  uint8_t *f = pt_alloc(w->allocator, (size_t)total, 16);
  if (!f) return pt_fail(w->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  memset(f, 0, (size_t)total);
  pt_put_le32(f, pt_le32(fb) + FH01_PADDED_LENGTH);
  memcpy(f + 4, fb + 4, 4); /* FT01 */
  memcpy(f + 8, "FH01", 4);
  pt_put_le32(f + 12, FH01_LENGTH);
  pt_put_le64(f + 16, FH01_PADDED_LENGTH);
  pt_put_le64(f + 24, fb_size);
  pt_put_le64(f + 32, seg_base);
  pt_put_le64(f + 40, w->seg_size);
  memcpy(f + 8 + FH01_PADDED_LENGTH, fb + 8, fb_size - 8);
  for (uint32_t s = 0; s < w->nsegs; s++) {
    const pc_ptd_entry *t = &w->entries[w->seg_first[s]];
    if (t->nbytes) memcpy(f + seg_base + w->seg_off[s], t->data, t->nbytes);
  }
  *out = f;
  *out_size = (size_t)total;
  return PTERA_OK;
}

ptera_status pc_emit_ptd(const pc_ptd_entry *entries, uint32_t n, const pc_emit_options *options,
                         uint8_t **out, size_t *out_size, pt_err *err) {
  if (out) *out = NULL;
  if (out_size) *out_size = 0;
  if (!out || !out_size || (n && !entries))
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "pc_emit_ptd: NULL argument");
  if (n > INT32_MAX) return pt_fail(err, PTERA_NOT_SUPPORTED, "pc_emit_ptd: too many entries");
  uint32_t salign = options && options->segment_alignment ? options->segment_alignment : 16;
  uint32_t talign = options && options->constant_alignment ? options->constant_alignment : 16;
  if (!pow2(salign) || !pow2(talign))
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "alignments must be powers of two");
  for (uint32_t i = 0; i < n; i++) {
    ptera_status st = check_entry(entries, i, err);
    if (st != PTERA_OK) return st;
  }
  ptd_writer w;
  memset(&w, 0, sizeof w);
  w.entries = entries;
  w.n = n;
  w.allocator = options ? options->allocator : NULL;
  w.err = err;
  /* lcm of two powers of two: the larger. */
  w.align = salign > talign ? salign : talign;
  pc_fbb_init(&w.fbb, w.allocator);
  ptera_status st = layout_segments(&w);
  if (st == PTERA_OK) st = build_flatbuffer(&w);
  if (st == PTERA_OK) st = assemble(&w, out, out_size);
  pc_fbb_release(&w.fbb);
  pt_free(w.allocator, w.seg_of);
  pt_free(w.allocator, w.seg_first);
  pt_free(w.allocator, w.seg_off);
  return st;
}
