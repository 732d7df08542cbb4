/* Verifying FlatBuffers reader; see flatbuf.h for the checks performed. */
#include "format/flatbuf.h"

#include <stdarg.h>
#include <stdio.h>

bool pf_fb_bad(pf_fb *fb, uint32_t where, const char *why) {
  fb->why = why;
  fb->where = where;
  return false;
}

static bool spend(pf_fb *fb, uint64_t units, uint32_t where) {
  if (fb->budget < units) {
    fb->budget = 0;
    return pf_fb_bad(fb, where, "too many objects (work limit exceeded)");
  }
  fb->budget -= units;
  return true;
}

bool pf_fb_init(pf_fb *fb, const uint8_t *buf, uint64_t len) {
  memset(fb, 0, sizeof *fb);
  fb->buf = buf;
  fb->max_depth = PF_FB_DEFAULT_DEPTH;
  if (!buf || len < 8) return pf_fb_bad(fb, 0, "buffer too small for a flatbuffer (< 8 bytes)");
  if (len > PF_FB_MAX_LEN) return pf_fb_bad(fb, 0, "buffer too large (>= 2 GiB)");
  fb->len = (uint32_t)len;
  fb->budget = (uint64_t)PF_FB_DEFAULT_TABLES + 8u * (uint64_t)len;
  return true;
}

bool pf_fb_has_ident(const uint8_t *buf, size_t size, const char *ident) {
  return buf && size >= 8 && memcmp(buf + 4, ident, 4) == 0;
}

bool pf_fb_table_at(pf_fb *fb, uint64_t pos, pf_fb_table *out) {
  memset(out, 0, sizeof *out);
  uint32_t where = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
  if (pos % 4 != 0) return pf_fb_bad(fb, where, "table is not 4-byte aligned");
  if (pos > fb->len || fb->len - pos < 4)
    return pf_fb_bad(fb, where, "table lies past the end of the buffer");
  if (!spend(fb, 1, where)) return false;
  int32_t soff = (int32_t)pt_le32(fb->buf + pos);
  int64_t vt = (int64_t)pos - (int64_t)soff;
  if (vt < 0 || vt + 4 > (int64_t)fb->len)
    return pf_fb_bad(fb, where, "table's vtable lies outside the buffer");
  if (vt % 2 != 0) return pf_fb_bad(fb, where, "table's vtable is not 2-byte aligned");
  uint16_t vt_size = pt_le16(fb->buf + vt);
  uint16_t inl = pt_le16(fb->buf + vt + 2);
  if (vt_size < 4 || vt_size % 2 != 0) return pf_fb_bad(fb, where, "table's vtable has a bad size");
  if (vt + vt_size > (int64_t)fb->len)
    return pf_fb_bad(fb, where, "table's vtable runs past the end of the buffer");
  if (inl < 4) return pf_fb_bad(fb, where, "table's inline size is below 4");
  if (pos + inl > fb->len) return pf_fb_bad(fb, where, "table runs past the end of the buffer");
  out->present = true;
  out->pos = (uint32_t)pos;
  out->vt = (uint32_t)vt;
  out->vt_size = vt_size;
  out->inline_size = inl;
  return true;
}

bool pf_fb_root(pf_fb *fb, pf_fb_table *out) {
  memset(out, 0, sizeof *out);
  if (fb->len < 8) return pf_fb_bad(fb, 0, "buffer too small for a flatbuffer (< 8 bytes)");
  uint32_t root = pt_le32(fb->buf);
  if (root < 8 || (uint64_t)root + 4 > fb->len)
    return pf_fb_bad(fb, 0, "root table offset is out of range");
  return pf_fb_table_at(fb, root, out);
}

bool pf_fb_vec_at(pf_fb *fb, uint64_t pos, uint32_t elem_size, pf_fb_vec *out) {
  memset(out, 0, sizeof *out);
  uint32_t where = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
  if (elem_size == 0 || elem_size > 65536) return pf_fb_bad(fb, where, "bad vector element size");
  if (pos % 4 != 0) return pf_fb_bad(fb, where, "vector is not 4-byte aligned");
  if (pos > fb->len || fb->len - pos < 4)
    return pf_fb_bad(fb, where, "vector lies past the end of the buffer");
  uint32_t count = pt_le32(fb->buf + pos);
  uint64_t bytes, end;
  if (!pt_mul_u64(count, elem_size, &bytes) || !pt_add_u64(pos + 4, bytes, &end) || end > fb->len)
    return pf_fb_bad(fb, where, "vector runs past the end of the buffer");
  if (!spend(fb, 1 + (uint64_t)count, where)) return false;
  out->present = true;
  out->pos = (uint32_t)pos;
  out->data = (uint32_t)pos + 4;
  out->count = count;
  out->elem_size = elem_size;
  return true;
}

bool pf_fb_str_at(pf_fb *fb, uint64_t pos, pf_fb_str *out) {
  out->ptr = NULL;
  out->len = 0;
  uint32_t where = pos > UINT32_MAX ? UINT32_MAX : (uint32_t)pos;
  if (pos % 4 != 0) return pf_fb_bad(fb, where, "string is not 4-byte aligned");
  if (pos > fb->len || fb->len - pos < 4)
    return pf_fb_bad(fb, where, "string lies past the end of the buffer");
  uint32_t n = pt_le32(fb->buf + pos);
  if ((uint64_t)pos + 4 + (uint64_t)n + 1 > fb->len)
    return pf_fb_bad(fb, where, "string runs past the end of the buffer");
  if (fb->buf[pos + 4 + n] != 0) return pf_fb_bad(fb, where, "string is not NUL-terminated");
  if (!spend(fb, 1, where)) return false;
  out->ptr = (const char *)(fb->buf + pos + 4);
  out->len = n;
  return true;
}

/* Field offset (0 when absent); t must be a verified present table. */
static uint16_t field_off(const pf_fb *fb, const pf_fb_table *t, unsigned id) {
  if (!t->present || id > 32765u) return 0;
  uint32_t slot = 4u + 2u * id;
  if (slot + 2 > t->vt_size) return 0;
  return pt_le16(fb->buf + t->vt + slot);
}

bool pf_fb_has_field(const pf_fb *fb, const pf_fb_table *t, unsigned id) {
  return field_off(fb, t, id) != 0;
}

bool pf_fb_field_pos(pf_fb *fb, const pf_fb_table *t, unsigned id, uint32_t size, uint32_t *pos) {
  *pos = 0;
  uint16_t off = field_off(fb, t, id);
  if (off == 0) return true;
  /* Real exporter output has 8-byte fields that end up to 4 bytes past the
   * vtable's inline size (e.g. DataSegment.size at offset 4 of an 8-byte
   * table), so require the field to start inside the table and end inside
   * the buffer, as the FlatBuffers verifier does. */
  if (off >= t->inline_size || (uint64_t)t->pos + off + size > fb->len)
    return pf_fb_bad(fb, t->pos, "field lies outside its table");
  *pos = t->pos + off;
  return true;
}

#define PF_FB_SCALAR(name, type, size, load)                                                    \
  bool name(pf_fb *fb, const pf_fb_table *t, unsigned id, type def, type *out) {               \
    uint32_t p;                                                                                 \
    *out = def;                                                                                 \
    if (!pf_fb_field_pos(fb, t, id, size, &p)) return false;                                    \
    if (p) *out = load;                                                                         \
    return true;                                                                                \
  }

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static double f64_of(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

PF_FB_SCALAR(pf_fb_u8, uint8_t, 1, fb->buf[p])
PF_FB_SCALAR(pf_fb_i8, int8_t, 1, (int8_t)fb->buf[p])
PF_FB_SCALAR(pf_fb_bool, bool, 1, fb->buf[p] != 0)
PF_FB_SCALAR(pf_fb_u16, uint16_t, 2, pt_le16(fb->buf + p))
PF_FB_SCALAR(pf_fb_i16, int16_t, 2, (int16_t)pt_le16(fb->buf + p))
PF_FB_SCALAR(pf_fb_u32, uint32_t, 4, pt_le32(fb->buf + p))
PF_FB_SCALAR(pf_fb_i32, int32_t, 4, (int32_t)pt_le32(fb->buf + p))
PF_FB_SCALAR(pf_fb_u64, uint64_t, 8, pt_le64(fb->buf + p))
PF_FB_SCALAR(pf_fb_i64, int64_t, 8, (int64_t)pt_le64(fb->buf + p))
PF_FB_SCALAR(pf_fb_f32, float, 4, f32_of(pt_le32(fb->buf + p)))
PF_FB_SCALAR(pf_fb_f64, double, 8, f64_of(pt_le64(fb->buf + p)))

/* Target position of a reference field; 0 when absent. */
static bool ref_target(pf_fb *fb, const pf_fb_table *t, unsigned id, uint64_t *target) {
  uint32_t p;
  *target = 0;
  if (!pf_fb_field_pos(fb, t, id, 4, &p)) return false;
  if (!p) return true;
  uint32_t rel = pt_le32(fb->buf + p);
  if (rel == 0) return pf_fb_bad(fb, p, "reference points to itself");
  *target = (uint64_t)p + rel;
  if (*target >= fb->len) return pf_fb_bad(fb, p, "reference points past the end of the buffer");
  return true;
}

bool pf_fb_table_field(pf_fb *fb, const pf_fb_table *t, unsigned id, pf_fb_table *out) {
  uint64_t target;
  memset(out, 0, sizeof *out);
  if (!ref_target(fb, t, id, &target)) return false;
  if (!target) return true;
  return pf_fb_table_at(fb, target, out);
}

bool pf_fb_vec_field(pf_fb *fb, const pf_fb_table *t, unsigned id, uint32_t elem_size,
                     pf_fb_vec *out) {
  uint64_t target;
  memset(out, 0, sizeof *out);
  if (!ref_target(fb, t, id, &target)) return false;
  if (!target) return true;
  return pf_fb_vec_at(fb, target, elem_size, out);
}

bool pf_fb_str_field(pf_fb *fb, const pf_fb_table *t, unsigned id, pf_fb_str *out) {
  uint64_t target;
  out->ptr = NULL;
  out->len = 0;
  if (!ref_target(fb, t, id, &target)) return false;
  if (!target) return true;
  return pf_fb_str_at(fb, target, out);
}

bool pf_fb_union_field(pf_fb *fb, const pf_fb_table *t, unsigned type_id, uint8_t max_code,
                       uint8_t *type, pf_fb_table *value) {
  memset(value, 0, sizeof *value);
  if (!pf_fb_u8(fb, t, type_id, 0, type)) return false;
  if (*type == 0) return true;
  if (*type > max_code) {
    uint32_t p = 0;
    (void)pf_fb_field_pos(fb, t, type_id, 1, &p);
    return pf_fb_bad(fb, p, "unknown union type code");
  }
  return pf_fb_table_field(fb, t, type_id + 1, value);
}

static const uint8_t *elem(const pf_fb *fb, const pf_fb_vec *v, uint32_t i, uint32_t size) {
  if (!v->present || i >= v->count || v->elem_size != size) return NULL;
  uint64_t p = (uint64_t)v->data + (uint64_t)i * size;
  if (p + size > fb->len) return NULL; /* cannot happen for a verified vector */
  return fb->buf + p;
}

uint8_t pf_fb_vec_u8(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  const uint8_t *p = elem(fb, v, i, 1);
  return p ? p[0] : 0;
}
uint16_t pf_fb_vec_u16(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  const uint8_t *p = elem(fb, v, i, 2);
  return p ? pt_le16(p) : 0;
}
uint32_t pf_fb_vec_u32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  const uint8_t *p = elem(fb, v, i, 4);
  return p ? pt_le32(p) : 0;
}
int32_t pf_fb_vec_i32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  return (int32_t)pf_fb_vec_u32(fb, v, i);
}
uint64_t pf_fb_vec_u64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  const uint8_t *p = elem(fb, v, i, 8);
  return p ? pt_le64(p) : 0;
}
int64_t pf_fb_vec_i64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  return (int64_t)pf_fb_vec_u64(fb, v, i);
}
float pf_fb_vec_f32(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  return f32_of(pf_fb_vec_u32(fb, v, i));
}
double pf_fb_vec_f64(const pf_fb *fb, const pf_fb_vec *v, uint32_t i) {
  return f64_of(pf_fb_vec_u64(fb, v, i));
}

const uint8_t *pf_fb_vec_data(const pf_fb *fb, const pf_fb_vec *v) {
  if (!v->present || v->data > fb->len) return NULL;
  return fb->buf + v->data;
}

static bool vec_ref(pf_fb *fb, const pf_fb_vec *v, uint32_t i, uint64_t *target) {
  const uint8_t *p = elem(fb, v, i, 4);
  if (!p) return pf_fb_bad(fb, v->pos, "vector element index out of range");
  uint32_t rel = pt_le32(p);
  uint32_t e = v->data + 4u * i;
  if (rel == 0) return pf_fb_bad(fb, e, "vector element is a null reference");
  *target = (uint64_t)e + rel;
  if (*target >= fb->len) return pf_fb_bad(fb, e, "vector element points past the end of the buffer");
  return true;
}

bool pf_fb_vec_table(pf_fb *fb, const pf_fb_vec *v, uint32_t i, pf_fb_table *out) {
  uint64_t target;
  memset(out, 0, sizeof *out);
  if (!vec_ref(fb, v, i, &target)) return false;
  return pf_fb_table_at(fb, target, out);
}

bool pf_fb_vec_str(pf_fb *fb, const pf_fb_vec *v, uint32_t i, pf_fb_str *out) {
  uint64_t target;
  out->ptr = NULL;
  out->len = 0;
  if (!vec_ref(fb, v, i, &target)) return false;
  return pf_fb_str_at(fb, target, out);
}

bool pf_fb_enter(pf_fb *fb) {
  if (fb->depth >= fb->max_depth) return pf_fb_bad(fb, 0, "objects nested too deeply");
  fb->depth++;
  return true;
}

void pf_fb_leave(pf_fb *fb) {
  if (fb->depth) fb->depth--;
}

#if !PTERA_STRIP_MESSAGES
ptera_status pf_fb_error(const pf_fb *fb, pt_err *err, ptera_status status, const char *fmt, ...) {
  char ctx[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof ctx, fmt, ap);
  va_end(ap);
  return pt_fail(err, status, "%.300s: %s (at byte %u)", ctx,
                 fb->why ? fb->why : "malformed flatbuffer", (unsigned)fb->where);
}
#endif
