/* .ptd reader tests: the corpus files against their flatc json dumps and
 * MANIFEST facts, targeted corruptions, and seeded truncation/mutation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/flatbuf.h"
#include "format/ptd.h"

static const char *corpus;

#define XOR "pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.ptd"
#define LINEAR "pytorch+executorch__extension_module_test_resources_linear.ptd"
#define DATAMAP "barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd"
#define TAEMIN "taemin6697+Executorch-Tutorials__Model_Export_and_Lowering_model.ptd"

static uint8_t *load_pte(const char *name, size_t *size) {
  char rel[512];
  snprintf(rel, sizeof rel, "pte/%s", name);
  uint8_t *b = check_read_file(check_corpus_path(corpus, rel), size);
  CHECK(b != NULL);
  return b;
}

static char *load_json(const char *name) {
  char rel[512];
  size_t size;
  snprintf(rel, sizeof rel, "json/%s.json", name);
  uint8_t *b = check_read_file(check_corpus_path(corpus, rel), &size);
  CHECK(b != NULL);
  if (!b) return NULL;
  char *s = malloc(size + 1);
  if (s) {
    memcpy(s, b, size);
    s[size] = '\0';
  }
  free(b);
  return s;
}

/* Successive string values of "<name>": "..." in a json dump. */
static int json_strings(const char *json, const char *name, char out[][80], int max) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": \"", name);
  int n = 0;
  for (const char *p = json; (p = strstr(p, pat)) != NULL && n < max;) {
    p += strlen(pat);
    const char *q = strchr(p, '"');
    if (!q) break;
    size_t len = (size_t)(q - p) < 79 ? (size_t)(q - p) : 79;
    memcpy(out[n], p, len);
    out[n][len] = '\0';
    n++;
    p = q;
  }
  return n;
}

/* Successive integer values of "<name>": N. */
static int json_ints(const char *json, const char *name, long long *out, int max) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\": ", name);
  int n = 0;
  for (const char *p = json; (p = strstr(p, pat)) != NULL && n < max;) {
    p += strlen(pat);
    out[n++] = strtoll(p, NULL, 10);
  }
  return n;
}

static ptera_status parse(const uint8_t *b, size_t size, pt_arena *arena, pf_ptd *d, pt_err *err) {
  pt_err_clear(err);
  return pf_ptd_parse(b, size, arena, d, err);
}

static const pf_ptd_entry *find(const pf_ptd *d, const char *key) {
  return pf_ptd_find(d, key, strlen(key));
}

static float f32_at(const uint8_t *p) {
  uint32_t u = pt_le32(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Entries must equal the json's key list and lie inside the file. */
static void check_against_json(const char *name, const pf_ptd *d, const uint8_t *file,
                               size_t size) {
  char *json = load_json(name);
  if (!json) return;
  static char keys[64][80];
  int nk = json_strings(json, d->legacy ? "fully_qualified_name" : "key", keys, 64);
  CHECK(nk == (int)d->nentries);
  for (int i = 0; i < nk && i < (int)d->nentries; i++) {
    CHECK(d->entries[i].key.len == strlen(keys[i]));
    CHECK(strcmp(d->entries[i].key.ptr, keys[i]) == 0);
    CHECK(find(d, keys[i]) == &d->entries[i]);
  }
  for (uint32_t i = 0; i < d->nentries; i++) {
    const pf_ptd_entry *e = &d->entries[i];
    CHECK(e->data.ptr >= file + d->segment_base);
    CHECK(e->data.ptr + e->data.len <= file + d->segment_base + d->segment_data_size);
    CHECK(d->segment_base + d->segment_data_size <= size);
    if (e->layout.present) CHECK(e->data.len >= e->layout.nbytes);
  }
  free(json);
}

static void test_xor(void) {
  size_t size;
  uint8_t *b = load_pte(XOR, &size);
  if (!b) return;
  CHECK(pf_ptd_identify(b, size) == 1);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  pt_err err;
  CHECK(parse(b, size, &arena, &d, &err) == PTERA_OK);
  CHECK(!d.legacy);
  CHECK(d.file == b && d.file_size == 760);
  CHECK(d.flatbuffer_size == 0x1f0 && d.segment_base == 0x220 && d.segment_data_size == 0xd8);
  CHECK(d.nentries == 4);
  /* json: segments (0,80) (80,40) (128,80) (208,8). */
  static const struct {
    const char *key;
    int dim, s0, s1;
    uint64_t off, len;
  } want[] = {{"net.linear.weight", 2, 10, 2, 0, 80},
              {"net.linear.bias", 1, 10, 0, 80, 40},
              {"net.linear2.weight", 2, 2, 10, 128, 80},
              {"net.linear2.bias", 1, 2, 0, 208, 8}};
  for (int i = 0; i < 4; i++) {
    const pf_ptd_entry *e = find(&d, want[i].key);
    CHECK(e != NULL);
    if (!e) continue;
    CHECK(e == &d.entries[i]);
    CHECK(e->layout.present && e->layout.scalar_type == PTERA_DTYPE_FLOAT);
    CHECK(e->layout.dim == want[i].dim && e->layout.sizes[0] == want[i].s0);
    if (want[i].dim == 2) CHECK(e->layout.sizes[1] == want[i].s1);
    for (int k = 0; k < want[i].dim; k++) CHECK(e->layout.dim_order[k] == k);
    CHECK(e->layout.nbytes == want[i].len);
    CHECK(e->data.ptr == b + 0x220 + want[i].off && e->data.len == want[i].len);
  }
  CHECK(find(&d, "net.linear") == NULL);
  CHECK(find(&d, "net.linear.weightx") == NULL);
  CHECK(pf_ptd_find(&d, "net.linear.weight", 17) == &d.entries[0]);
  check_against_json(XOR, &d, b, size);
  pt_arena_release(&arena);
  free(b);
}

static void test_linear_legacy(void) {
  size_t size;
  uint8_t *b = load_pte(LINEAR, &size);
  if (!b) return;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  pt_err err;
  CHECK(parse(b, size, &arena, &d, &err) == PTERA_OK);
  CHECK(d.legacy);
  CHECK(d.segment_base == 0x110 && d.segment_data_size == 64 && size == 336);
  CHECK(d.nentries == 2);
  const pf_ptd_entry *w = find(&d, "linear.weight");
  const pf_ptd_entry *bias = find(&d, "linear.bias");
  CHECK(w != NULL && bias != NULL);
  if (w && bias) {
    CHECK(w->layout.present && w->layout.scalar_type == PTERA_DTYPE_FLOAT);
    CHECK(w->layout.dim == 2 && w->layout.sizes[0] == 3 && w->layout.sizes[1] == 3);
    CHECK(w->layout.dim_order[0] == 0 && w->layout.dim_order[1] == 1);
    CHECK(w->layout.nbytes == 36 && w->data.len == 36 && w->data.ptr == b + 0x110);
    CHECK(bias->layout.present && bias->layout.dim == 1 && bias->layout.sizes[0] == 3);
    /* json: offset 48 inside the one 64-byte segment. */
    CHECK(bias->layout.nbytes == 12 && bias->data.len == 12 && bias->data.ptr == b + 0x110 + 48);
    float w0 = f32_at(w->data.ptr);
    CHECK(w0 > 0.25f && w0 < 0.26f); /* 0x3e815197 */
  }
  check_against_json(LINEAR, &d, b, size);
  pt_arena_release(&arena);

  /* Legacy bounds: linear.bias (tensors[1]) is 12 bytes at offset 48 of a
   * 64-byte segment; 52 still fits, 53 does not. */
  pf_fb fb;
  pf_fb_table root, t;
  pf_fb_vec tensors;
  uint32_t off_pos = 0;
  CHECK(pf_fb_init(&fb, b, 0x30 + pt_le64(b + 24)) && pf_fb_root(&fb, &root) &&
        pf_fb_vec_field(&fb, &root, 2, 4, &tensors) && pf_fb_vec_table(&fb, &tensors, 1, &t) &&
        pf_fb_field_pos(&fb, &t, 5, 8, &off_pos) && off_pos != 0);
  if (off_pos) {
    CHECK(pt_le64(b + off_pos) == 48);
    pt_put_le64(b + off_pos, 52);
    pt_arena_init(&arena, NULL);
    CHECK(parse(b, size, &arena, &d, &err) == PTERA_OK);
    CHECK(find(&d, "linear.bias") && find(&d, "linear.bias")->data.ptr == b + 0x110 + 52);
    pt_arena_release(&arena);
    pt_put_le64(b + off_pos, 53);
    CHECK(parse(b, size, &arena, &d, &err) == PTERA_INVALID_EXTERNAL_DATA);
    CHECK(strstr(err.msg, "linear.bias") != NULL);
    pt_arena_release(&arena);
    pt_put_le64(b + off_pos, UINT64_MAX - 4);
    CHECK(parse(b, size, &arena, &d, &err) == PTERA_INVALID_EXTERNAL_DATA);
    pt_arena_release(&arena);
  }
  free(b);
}

static void test_datamap(void) {
  size_t size;
  uint8_t *b = load_pte(DATAMAP, &size);
  if (!b) return;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  pt_err err;
  CHECK(parse(b, size, &arena, &d, &err) == PTERA_OK);
  CHECK(!d.legacy && d.nentries == 2);
  const pf_ptd_entry *a = find(&d, "a"), *bb = find(&d, "b");
  CHECK(a != NULL && bb != NULL);
  if (a && bb) {
    CHECK(a->layout.present && a->layout.dim == 2 && a->layout.sizes[0] == 2 &&
          a->layout.sizes[1] == 2 && a->layout.nbytes == 16 && a->data.len == 16);
    CHECK(bb->data.ptr == a->data.ptr + 16 && bb->data.len == 16);
    for (int i = 0; i < 4; i++) {
      CHECK(f32_at(a->data.ptr + 4 * i) == 3.0f);
      CHECK(f32_at(bb->data.ptr + 4 * i) == 2.0f);
    }
  }
  check_against_json(DATAMAP, &d, b, size);
  pt_arena_release(&arena);
  free(b);
}

static void test_taemin(void) {
  size_t size;
  uint8_t *b = load_pte(TAEMIN, &size);
  if (!b) return;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  pt_err err;
  CHECK(parse(b, size, &arena, &d, &err) == PTERA_OK);
  CHECK(!d.legacy && d.nentries == 6);
  static const uint64_t sizes[6] = {288, 32, 4608, 64, 640, 40};
  char *json = load_json(TAEMIN);
  long long jsz[16];
  int njs = json ? json_ints(json, "size", jsz, 16) : 0;
  CHECK(njs == 6);
  for (uint32_t i = 0; i < d.nentries && i < 6; i++) {
    const pf_ptd_entry *e = &d.entries[i];
    CHECK(!e->layout.present);
    CHECK(e->key.len == 64);
    for (uint32_t k = 0; k < e->key.len; k++)
      CHECK((e->key.ptr[k] >= '0' && e->key.ptr[k] <= '9') ||
            (e->key.ptr[k] >= 'a' && e->key.ptr[k] <= 'f'));
    CHECK(e->data.len == sizes[i]);
    if (i < (uint32_t)njs) CHECK(e->data.len == (uint64_t)jsz[i]);
  }
  CHECK(find(&d, "cd3fb5a0cfd14a35f119252f47c8eb82834b1473b5b1acccf1b14954f8e58680") ==
        &d.entries[0]);
  free(json);
  check_against_json(TAEMIN, &d, b, size);
  pt_arena_release(&arena);
  free(b);
}

/* ---- targeted corruptions ------------------------------------------------------ */

static ptera_status parse_copy(const uint8_t *b, size_t size, pt_err *err) {
  uint8_t *c = malloc(size ? size : 1);
  if (!c) return PTERA_MEMORY_ALLOCATION_FAILED;
  memcpy(c, b, size);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  ptera_status st = parse(c, size, &arena, &d, err);
  if (st == PTERA_OK) {
    for (uint32_t i = 0; i < d.nentries; i++) {
      const pf_ptd_entry *e = &d.entries[i];
      CHECK(e->data.ptr >= c && e->data.len <= size && e->data.ptr - c <= (ptrdiff_t)(size - e->data.len));
      if (e->data.len) (void)e->data.ptr[e->data.len - 1];
      CHECK(e->key.ptr[e->key.len] == '\0');
    }
  } else {
    CHECK(err->msg[0] != '\0');
  }
  pt_arena_release(&arena);
  free(c);
  return st;
}

/* Positions of things inside xor.ptd, found with the flatbuffer reader. */
typedef struct {
  uint32_t named_vec;     /* position of named_data vector */
  uint32_t seg0_size;     /* position of segments[0].size (u64) */
  uint32_t nd1_seg;       /* position of named_data[1].segment_index */
  uint32_t key1;          /* position of named_data[1].key string bytes */
  uint32_t lay0_type;     /* layout[0].scalar_type */
  uint32_t lay0_sizes;    /* layout[0].sizes data */
  uint32_t lay0_order;    /* layout[0].dim_order data */
} xor_pos;

static bool locate(const uint8_t *b, uint64_t fb_len, xor_pos *p) {
  pf_fb fb;
  pf_fb_table root, seg, nd, lay;
  pf_fb_vec segs, named, sizes, order;
  pf_fb_str key;
  if (!pf_fb_init(&fb, b, fb_len) || !pf_fb_root(&fb, &root)) return false;
  if (!pf_fb_vec_field(&fb, &root, 1, 4, &segs) || !pf_fb_vec_field(&fb, &root, 2, 4, &named))
    return false;
  p->named_vec = named.pos;
  if (!pf_fb_vec_table(&fb, &segs, 0, &seg) || !pf_fb_field_pos(&fb, &seg, 1, 8, &p->seg0_size))
    return false;
  if (!pf_fb_vec_table(&fb, &named, 1, &nd) || !pf_fb_field_pos(&fb, &nd, 1, 4, &p->nd1_seg) ||
      !pf_fb_str_field(&fb, &nd, 0, &key))
    return false;
  p->key1 = (uint32_t)((const uint8_t *)key.ptr - b);
  if (!pf_fb_vec_table(&fb, &named, 0, &nd) || !pf_fb_table_field(&fb, &nd, 2, &lay) ||
      !pf_fb_field_pos(&fb, &lay, 0, 1, &p->lay0_type) ||
      !pf_fb_vec_field(&fb, &lay, 1, 4, &sizes) || !pf_fb_vec_field(&fb, &lay, 2, 1, &order))
    return false;
  p->lay0_sizes = sizes.data;
  p->lay0_order = order.data;
  return p->seg0_size && p->nd1_seg && p->lay0_type;
}

static void expect_fail(const uint8_t *b, size_t size, const char *what) {
  pt_err err;
  ptera_status st = parse_copy(b, size, &err);
  CHECK(st == PTERA_INVALID_EXTERNAL_DATA);
  if (st != PTERA_INVALID_EXTERNAL_DATA) fprintf(stderr, "accepted corruption: %s\n", what);
}

static void test_corruptions(void) {
  size_t size;
  uint8_t *orig = load_pte(XOR, &size);
  if (!orig) return;
  uint8_t *b = malloc(size);
  pt_err err;
  CHECK(parse_copy(orig, size, &err) == PTERA_OK);
  xor_pos p;
  CHECK(locate(orig, 0x30 + 0x1f0, &p));

#define MUTATE(stmt, what)        \
  do {                            \
    memcpy(b, orig, size);        \
    stmt;                         \
    expect_fail(b, size, what);   \
  } while (0)

  MUTATE(b[4] = 'X', "identifier");
  MUTATE(b[11] = '2', "FH01 magic");
  MUTATE(pt_put_le32(b + 12, 39), "header length 39");
  MUTATE(pt_put_le64(b + 24, size), "flatbuffer size past the end");
  MUTATE(pt_put_le64(b + 16, UINT64_MAX), "flatbuffer offset overflow");
  MUTATE(pt_put_le64(b + 40, 0xd9), "segment data past the end");
  MUTATE(pt_put_le64(b + 32, UINT64_MAX - 4), "segment base overflow");
  MUTATE(pt_put_le64(b + 40, 0xd0), "last segment past segment_data_size");
  MUTATE(pt_put_le64(b + p.seg0_size, 0xd9), "segment 0 size");
  MUTATE(pt_put_le64(b + p.seg0_size, UINT64_MAX), "segment 0 size overflow");
  MUTATE(pt_put_le32(b + p.nd1_seg, 4), "segment index out of range");
  MUTATE(pt_put_le32(b + p.nd1_seg, 0xffffffffu), "segment index -1");
  /* named_data[3] -> the table of named_data[1]: a duplicate key. */
  MUTATE(pt_put_le32(b + p.named_vec + 16, pt_le32(orig + p.named_vec + 8) - 8), "duplicate key");
  memcpy(b, orig, size);
  pt_put_le32(b + p.named_vec + 16, pt_le32(orig + p.named_vec + 8) - 8);
  CHECK(parse_copy(b, size, &err) == PTERA_INVALID_EXTERNAL_DATA);
  CHECK(strstr(err.msg, "duplicate key 'net.linear.bias'") != NULL);
  MUTATE(b[p.lay0_type] = 30, "scalar type 30");
  MUTATE(b[p.lay0_type] = 0xff, "scalar type 255");
  MUTATE(b[p.lay0_type] = PTERA_DTYPE_DOUBLE, "layout larger than its blob");
  MUTATE(pt_put_le32(b + p.lay0_sizes, 11), "layout larger than its blob (sizes)");
  MUTATE(pt_put_le32(b + p.lay0_sizes, (uint32_t)-10), "negative size");
  MUTATE(b[p.lay0_order] = 1, "dim_order [1,1]");
  MUTATE(b[p.lay0_order] = 2, "dim_order [2,1]");
  MUTATE(pt_put_le32(b + p.lay0_sizes - 4, 3), "rank 3 with dim_order of 2");
  MUTATE(pt_put_le32(b + p.named_vec, 1000), "named_data count past the end");
  MUTATE(pt_put_le32(b, 0), "root offset 0");
  MUTATE(pt_put_le32(b, 0x31), "unaligned root");

  /* A smaller segment size with a matching layout still parses. */
  memcpy(b, orig, size);
  b[p.lay0_type] = PTERA_DTYPE_HALF; /* 40 bytes needed, 80 present */
  CHECK(parse_copy(b, size, &err) == PTERA_OK);

  /* Every truncation fails cleanly. */
  for (size_t n = 0; n < size; n++) {
    ptera_status st = parse_copy(orig, n, &err);
    CHECK(st == PTERA_INVALID_EXTERNAL_DATA);
  }
  CHECK(pf_ptd_parse(NULL, 0, NULL, NULL, NULL) != PTERA_OK);
  CHECK(pf_ptd_identify(orig, 7) == 0);
  CHECK(pf_ptd_identify(NULL, 0) == 0);
  free(b);
  free(orig);
}

static void test_duplicate_datamap(void) {
  size_t size;
  uint8_t *orig = load_pte(DATAMAP, &size);
  if (!orig) return;
  /* Rename key "b" to "a": the key strings are length-1 strings "a\0" and
   * "b\0"; find "\x01\0\0\0b\0". */
  int hits = 0;
  for (size_t i = 0; i + 6 <= size; i++) {
    if (memcmp(orig + i, "\x01\0\0\0b\0", 6) == 0) {
      uint8_t *b = malloc(size);
      memcpy(b, orig, size);
      b[i + 4] = 'a';
      pt_err err;
      CHECK(parse_copy(b, size, &err) == PTERA_INVALID_EXTERNAL_DATA);
      CHECK(strstr(err.msg, "duplicate") != NULL);
      free(b);
      hits++;
    }
  }
  CHECK(hits == 1);
  free(orig);
}

/* ---- seeded random mutation -------------------------------------------------- */

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 13);
}

static void test_fuzz(void) {
  const char *files[] = {XOR, LINEAR, DATAMAP, TAEMIN};
  int accepted = 0, total = 0;
  for (size_t f = 0; f < 4; f++) {
    size_t size;
    uint8_t *orig = load_pte(files[f], &size);
    if (!orig) continue;
    uint8_t *b = malloc(size);
    /* Mutations hit the flatbuffer region mostly. */
    size_t hot = pt_le64(orig + 16) + pt_le64(orig + 24);
    if (hot > size) hot = size;
    for (int it = 0; it < 1000; it++) {
      memcpy(b, orig, size);
      int flips = 1 + (int)(rnd() % 6);
      for (int k = 0; k < flips; k++) {
        size_t at = rnd() % hot;
        switch (rnd() % 4) {
          case 0: b[at] = (uint8_t)rnd(); break;
          case 1: b[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
          case 2: b[at] = 0; break;
          default: b[at] = 0xff; break;
        }
      }
      size_t len = (rnd() % 8 == 0) ? rnd() % (size + 1) : size;
      pt_err err;
      ptera_status st = parse_copy(b, len, &err);
      CHECK(st == PTERA_OK || st == PTERA_INVALID_EXTERNAL_DATA ||
            st == PTERA_MEMORY_ALLOCATION_FAILED);
      if (st == PTERA_OK) accepted++;
      total++;
    }
    free(b);
    free(orig);
  }
  printf("ptd fuzz: %d of %d mutants accepted (all bounds-checked)\n", accepted, total);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_xor();
  test_linear_legacy();
  test_datamap();
  test_taemin();
  test_corruptions();
  test_duplicate_datamap();
  test_fuzz();
  return check_summary("ptd_reader");
}
