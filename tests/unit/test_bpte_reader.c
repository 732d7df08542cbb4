/* Bundled program reader tests: the corpus .bpte against its json dump and
 * the input_K.npy / expected_K.npy files ExecuTorch copied out of it, plus
 * corruptions and seeded mutation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/bpte.h"
#include "format/flatbuf.h"
#include "format/npy.h"

static const char *corpus;

#define BPTE "pytorch+executorch__extension_module_test_resources_bundled_program.bpte"
#define EXPECTED "expected/pytorch+executorch__extension_module_test_resources_bundled_program/forward"

static uint8_t *load(const char *rel, size_t *size) {
  uint8_t *b = check_read_file(check_corpus_path(corpus, rel), size);
  CHECK(b != NULL);
  return b;
}

/* The "program": [ ... ] byte list of the json dump. */
static uint8_t *json_program(size_t *n) {
  size_t size;
  uint8_t *j = load("json/" BPTE ".json", &size);
  *n = 0;
  if (!j) return NULL;
  char *s = malloc(size + 1);
  memcpy(s, j, size);
  s[size] = '\0';
  free(j);
  char *p = strstr(s, "\"program\": [");
  uint8_t *out = malloc(size);
  if (p && out) {
    p += strlen("\"program\": [");
    for (;;) {
      while (*p == ' ' || *p == '\n' || *p == ',') p++;
      if (*p == ']' || *p == '\0') break;
      char *e;
      long v = strtol(p, &e, 10);
      if (e == p) break;
      out[(*n)++] = (uint8_t)v;
      p = e;
    }
  }
  free(s);
  return out;
}

/* A tensor value equals an .npy file's contents. */
static void check_npy(const pf_bvalue *v, const char *rel) {
  size_t size;
  uint8_t *b = load(rel, &size);
  if (!b) return;
  pf_npy n;
  CHECK(pf_npy_parse(b, size, &n, NULL) == PTERA_OK);
  CHECK(v->type == PF_BVAL_TENSOR);
  CHECK(n.dtype == v->scalar_type);
  CHECK(n.dim == v->dim);
  for (unsigned i = 0; i < n.dim && i < v->dim; i++) CHECK(n.sizes[i] == v->sizes[i]);
  CHECK(n.nbytes == v->nbytes);
  CHECK(v->data.len >= v->nbytes);
  CHECK(n.nbytes == v->nbytes && memcmp(n.data, v->data.ptr, n.nbytes) == 0);
  free(b);
}

static void test_corpus(void) {
  size_t size;
  uint8_t *b = load("pte/" BPTE, &size);
  if (!b) return;
  CHECK(pf_bpte_identify(b, size) == 1);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_bpte d;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_bpte_parse(b, size, &arena, &d, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "%s\n", err.msg);
  CHECK(d.version == 2);
  /* The embedded program: bytes equal to the json dump's, an ET12 file. */
  size_t plen;
  uint8_t *prog = json_program(&plen);
  CHECK(plen == 1696);
  CHECK(d.program.len == plen);
  CHECK(prog && d.program.len == plen && memcmp(prog, d.program.ptr, plen) == 0);
  CHECK(d.program.len >= 8 && memcmp(d.program.ptr + 4, "ET12", 4) == 0);
  CHECK(((uintptr_t)d.program.ptr - (uintptr_t)b) % 32 == 0); /* force_align: 32 */
  free(prog);

  CHECK(d.nsuites == 1);
  if (d.nsuites == 1) {
    const pf_bsuite *s = &d.suites[0];
    CHECK(s->method.len == 7 && strcmp(s->method.ptr, "forward") == 0);
    CHECK(s->ncases == 10);
    for (uint32_t k = 0; k < s->ncases; k++) {
      const pf_bcase *c = &s->cases[k];
      CHECK(c->ninputs == 2 && c->noutputs == 1);
      for (uint32_t i = 0; i < c->ninputs; i++) {
        const pf_bvalue *v = &c->inputs[i];
        CHECK(v->type == PF_BVAL_TENSOR && v->scalar_type == PTERA_DTYPE_INT);
        CHECK(v->dim == 2 && v->sizes[0] == 2 && v->sizes[1] == 2 && v->nbytes == 16);
        CHECK(v->dim_order[0] == 0 && v->dim_order[1] == 1);
        char rel[512];
        snprintf(rel, sizeof rel, "%s/case%u/input_%u.npy", EXPECTED, (unsigned)k, (unsigned)i);
        check_npy(v, rel);
      }
      for (uint32_t i = 0; i < c->noutputs; i++) {
        const pf_bvalue *v = &c->outputs[i];
        CHECK(v->type == PF_BVAL_TENSOR && v->scalar_type == PTERA_DTYPE_INT && v->dim == 2);
        char rel[512];
        snprintf(rel, sizeof rel, "%s/case%u/expected_%u.npy", EXPECTED, (unsigned)k,
                 (unsigned)i);
        check_npy(v, rel);
      }
    }
    /* json: case 0 has zero inputs and expected output 2 everywhere. */
    if (s->ncases > 0) {
      const pf_bvalue *o = &s->cases[0].outputs[0];
      for (int i = 0; i < 4; i++) CHECK(pt_le32(o->data.ptr + 4 * i) == 2);
    }
  }
  pt_arena_release(&arena);
  free(b);
}

/* ---- corruption ------------------------------------------------------------------ */

static ptera_status parse_copy(const uint8_t *b, size_t size, pt_err *err) {
  uint8_t *c = malloc(size ? size : 1);
  if (!c) return PTERA_MEMORY_ALLOCATION_FAILED;
  memcpy(c, b, size);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_bpte d;
  pt_err_clear(err);
  ptera_status st = pf_bpte_parse(c, size, &arena, &d, err);
  if (st == PTERA_OK) {
    CHECK(d.program.ptr >= c && d.program.len <= size &&
          d.program.ptr - c <= (ptrdiff_t)(size - d.program.len));
    for (uint32_t s = 0; s < d.nsuites; s++) {
      CHECK(d.suites[s].method.ptr[d.suites[s].method.len] == '\0');
      for (uint32_t k = 0; k < d.suites[s].ncases; k++) {
        const pf_bcase *bc = &d.suites[s].cases[k];
        for (uint32_t i = 0; i < bc->ninputs + bc->noutputs; i++) {
          const pf_bvalue *v = i < bc->ninputs ? &bc->inputs[i] : &bc->outputs[i - bc->ninputs];
          CHECK(v->type >= PF_BVAL_TENSOR && v->type <= PF_BVAL_DOUBLE);
          if (v->type != PF_BVAL_TENSOR) continue;
          CHECK(v->scalar_type < PTERA_DTYPE_COUNT && v->dim <= PTERA_MAX_DIM);
          CHECK(v->data.len >= v->nbytes);
          if (v->nbytes) {
            CHECK(v->data.ptr >= c && v->data.ptr - c <= (ptrdiff_t)(size - v->data.len));
            (void)v->data.ptr[v->nbytes - 1];
          }
        }
      }
    }
  } else {
    CHECK(err->msg[0] != '\0');
  }
  pt_arena_release(&arena);
  free(c);
  return st;
}

typedef struct {
  uint32_t prog_vec;    /* program vector position */
  uint32_t t0_type;     /* case 0 input 0 tensor scalar_type */
  uint32_t t0_sizes;    /* ... sizes vector position */
  uint32_t t0_data;     /* ... data vector position */
  uint32_t t0_order;    /* ... dim_order vector data */
  uint32_t v0_type;     /* case 0 input 0 Value.val_type */
  uint32_t name;        /* method_name string position */
} bp_pos;

static bool locate(const uint8_t *b, size_t size, bp_pos *p) {
  pf_fb fb;
  pf_fb_table root, suite, tc, val, ten;
  pf_fb_vec suites, cases, inputs, prog, sizes, data, order;
  uint8_t type;
  if (!pf_fb_init(&fb, b, size) || !pf_fb_root(&fb, &root)) return false;
  if (!pf_fb_vec_field(&fb, &root, 2, 1, &prog) || !pf_fb_vec_field(&fb, &root, 1, 4, &suites) ||
      !pf_fb_vec_table(&fb, &suites, 0, &suite) || !pf_fb_vec_field(&fb, &suite, 1, 4, &cases) ||
      !pf_fb_vec_table(&fb, &cases, 0, &tc) || !pf_fb_vec_field(&fb, &tc, 0, 4, &inputs) ||
      !pf_fb_vec_table(&fb, &inputs, 0, &val) ||
      !pf_fb_union_field(&fb, &val, 0, 4, &type, &ten) || !pf_fb_field_pos(&fb, &val, 0, 1, &p->v0_type) ||
      !pf_fb_field_pos(&fb, &ten, 0, 1, &p->t0_type) ||
      !pf_fb_vec_field(&fb, &ten, 1, 4, &sizes) || !pf_fb_vec_field(&fb, &ten, 2, 1, &data) ||
      !pf_fb_vec_field(&fb, &ten, 3, 1, &order))
    return false;
  uint32_t np;
  if (!pf_fb_field_pos(&fb, &suite, 0, 4, &np) || !np) return false;
  p->name = np + pt_le32(b + np);
  p->prog_vec = prog.pos;
  p->t0_sizes = sizes.pos;
  p->t0_data = data.pos;
  p->t0_order = order.data;
  return type == 1 && p->t0_type && p->v0_type;
}

static void expect_fail(const uint8_t *b, size_t size, const char *what) {
  pt_err err;
  ptera_status st = parse_copy(b, size, &err);
  CHECK(st == PTERA_INVALID_PROGRAM);
  if (st != PTERA_INVALID_PROGRAM) fprintf(stderr, "accepted corruption: %s\n", what);
}

static void test_corruptions(void) {
  size_t size;
  uint8_t *orig = load("pte/" BPTE, &size);
  if (!orig) return;
  uint8_t *b = malloc(size);
  bp_pos p;
  CHECK(locate(orig, size, &p));
#define MUTATE(stmt, what)      \
  do {                          \
    memcpy(b, orig, size);      \
    stmt;                       \
    expect_fail(b, size, what); \
  } while (0)
  MUTATE(b[7] = '4', "identifier BP04");
  MUTATE(pt_put_le32(b, 2), "root offset 2");
  MUTATE(pt_put_le32(b + p.prog_vec, (uint32_t)size), "program length past the end");
  MUTATE(pt_put_le32(b + p.prog_vec, 0), "empty program");
  MUTATE(b[p.t0_type] = 30, "scalar type 30");
  MUTATE(b[p.t0_type] = PTERA_DTYPE_LONG, "data shorter than numel*8");
  MUTATE(pt_put_le32(b + p.t0_data, 15), "data 15 bytes");
  MUTATE(pt_put_le32(b + p.t0_sizes + 4, 3), "sizes [3,2] with 16 bytes");
  MUTATE(pt_put_le32(b + p.t0_sizes + 4, (uint32_t)-2), "negative size");
  MUTATE(pt_put_le32(b + p.t0_sizes, 17), "rank 17");
  MUTATE(pt_put_le32(b + p.t0_sizes, 1), "rank 1 with dim_order of 2");
  MUTATE(b[p.t0_order] = 1, "dim_order [1,1]");
  MUTATE(b[p.v0_type] = 5, "union code 5");
  MUTATE(b[p.v0_type] = 0, "union NONE");
  MUTATE(b[p.name + 4 + 7] = 'x', "method name without NUL");
  /* A smaller element type still fits: accepted. */
  memcpy(b, orig, size);
  b[p.t0_type] = PTERA_DTYPE_SHORT;
  pt_err err;
  CHECK(parse_copy(b, size, &err) == PTERA_OK);
  /* Every truncation fails cleanly. */
  for (size_t n = 0; n < size; n++) {
    ptera_status st = parse_copy(orig, n, &err);
    CHECK(st == PTERA_INVALID_PROGRAM);
  }
  CHECK(pf_bpte_identify(orig, 7) == 0);
  CHECK(pf_bpte_parse(NULL, 0, NULL, NULL, NULL) != PTERA_OK);
  free(b);
  free(orig);
}

static uint64_t rng = 0x13198a2e03707344ull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 13);
}

static void test_fuzz(void) {
  size_t size;
  uint8_t *orig = load("pte/" BPTE, &size);
  if (!orig) return;
  bp_pos p;
  CHECK(locate(orig, size, &p));
  uint8_t *b = malloc(size);
  int accepted = 0;
  for (int it = 0; it < 4000; it++) {
    memcpy(b, orig, size);
    int flips = 1 + (int)(rnd() % 6);
    for (int k = 0; k < flips; k++) {
      /* Outside the embedded program's bytes most of the time. */
      size_t at = rnd() % size;
      if (at > p.prog_vec + 4 && at < p.prog_vec + 4 + 1696 && rnd() % 8) at = rnd() % (p.prog_vec + 4);
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
    CHECK(st == PTERA_OK || st == PTERA_INVALID_PROGRAM || st == PTERA_MEMORY_ALLOCATION_FAILED);
    if (st == PTERA_OK) accepted++;
  }
  printf("bpte fuzz: %d of 4000 mutants accepted (all bounds-checked)\n", accepted);
  free(b);
  free(orig);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_corpus();
  test_corruptions();
  test_fuzz();
  return check_summary("bpte_reader");
}
