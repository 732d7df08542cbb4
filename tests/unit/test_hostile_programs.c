/* One regression test per class of upstream ExecuTorch advisory, through
 * the public API: hand-built programs (a small FlatBuffer builder below) and
 * byte-patched corpus files. Each case asserts the specific status and that
 * a message is set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/core.h"
#include "format/pte.h"
#include "ptera/ptera.h"

static const char *g_corpus;

/* ---- a tiny FlatBuffer builder (front to back, offsets patched in) ---- */

typedef struct fb {
  uint8_t b[8192];
  uint32_t n;
} fb;

static uint32_t fb_align(fb *f, uint32_t align, uint32_t extra) {
  while ((f->n + extra) % align) f->b[f->n++] = 0;
  return f->n;
}
static void fb_ref(fb *f, uint32_t slot, uint32_t target) { pt_put_le32(f->b + slot, target - slot); }

/* A table whose field i has size sz[i] (0: absent); returns field slots in
 * pos[] and the table position. */
static uint32_t fb_table(fb *f, int nf, const uint8_t *sz, uint32_t *pos) {
  uint16_t off[16] = {0};
  uint32_t o = 4;
  for (int i = 0; i < nf; i++) {
    if (!sz[i]) continue;
    while (o % sz[i]) o++;
    off[i] = (uint16_t)o;
    o += sz[i];
  }
  while (o % 4) o++;
  uint32_t vt = fb_align(f, 2, 0);
  f->b[vt] = (uint8_t)(4 + 2 * nf);
  f->b[vt + 1] = 0;
  f->b[vt + 2] = (uint8_t)o;
  f->b[vt + 3] = (uint8_t)(o >> 8);
  for (int i = 0; i < nf; i++) {
    f->b[vt + 4 + 2 * i] = (uint8_t)off[i];
    f->b[vt + 5 + 2 * i] = (uint8_t)(off[i] >> 8);
  }
  f->n = vt + 4 + 2 * (uint32_t)nf;
  uint32_t t = fb_align(f, 8, 0);
  memset(f->b + t, 0, o);
  pt_put_le32(f->b + t, t - vt);
  f->n = t + o;
  for (int i = 0; i < nf; i++) pos[i] = off[i] ? t + off[i] : 0;
  return t;
}
/* A vector of count elements of esize bytes (zeroed); returns its position. */
static uint32_t fb_vec(fb *f, uint32_t count, uint32_t esize) {
  uint32_t p = fb_align(f, esize > 4 ? esize : 4, 4);
  pt_put_le32(f->b + p, count);
  memset(f->b + p + 4, 0, (size_t)count * esize);
  f->n = p + 4 + count * esize;
  return p;
}
static uint32_t fb_str(fb *f, const char *s) {
  uint32_t len = (uint32_t)strlen(s);
  uint32_t p = fb_vec(f, len + 1, 1);
  pt_put_le32(f->b + p, len);
  memcpy(f->b + p + 4, s, len + 1);
  return p;
}

/* forward(x): values [0 Tensor float [2,3] (unplanned), 1 Int 5,
 * 2 TensorList [0], 3 IntList [1]]; inputs [0]; outputs [0]; one chain with
 * KernelCall(op 0, args [0, 1, 0]); operators [aten::x]. */
typedef struct prog {
  fb f;
  uint32_t name_str;     /* "forward" string */
  uint32_t sizes_vec;
  uint32_t scalar_type;  /* value 0's dtype byte */
  uint32_t values_vec;
  uint32_t val_type[4];  /* EValue type bytes */
  uint32_t int_payload;  /* value 1's i64 */
  uint32_t tlist_item;   /* value 2's item 0 (i32) */
  uint32_t ilist_item;   /* value 3's item 0 (i64) */
  uint32_t instr_type;
  uint32_t op_index;     /* KernelCall field 0 (JumpFalse: cond value) */
  uint32_t args_slot;    /* KernelCall field 1 (JumpFalse: destination) */
  uint32_t args_vec;
} prog;

static void build(prog *p) {
  memset(p, 0, sizeof *p);
  fb *f = &p->f;
  uint32_t s[16];
  f->n = 8;
  memcpy(f->b + 4, "ET12", 4);
  static const uint8_t prog_f[] = {4, 4};
  uint32_t root = fb_table(f, 2, prog_f, s);
  pt_put_le32(f->b, root);
  uint32_t plans = fb_vec(f, 1, 4);
  fb_ref(f, s[1], plans);
  static const uint8_t plan_f[] = {4, 0, 4, 4, 4, 4, 4, 0, 4};
  uint32_t ps[16];
  fb_ref(f, plans + 4, fb_table(f, 9, plan_f, ps));
  p->name_str = fb_str(f, "forward");
  fb_ref(f, ps[0], p->name_str);
  p->values_vec = fb_vec(f, 4, 4);
  fb_ref(f, ps[2], p->values_vec);
  uint32_t v = fb_vec(f, 1, 4);
  fb_ref(f, ps[3], v);
  v = fb_vec(f, 1, 4);
  fb_ref(f, ps[4], v);
  v = fb_vec(f, 1, 8);
  fb_ref(f, ps[8], v);
  uint32_t ops = fb_vec(f, 1, 4);
  fb_ref(f, ps[6], ops);
  static const uint8_t op_f[] = {4};
  fb_ref(f, ops + 4, fb_table(f, 1, op_f, s));
  fb_ref(f, s[0], fb_str(f, "aten::x"));
  static const uint8_t ev_f[] = {1, 4};
  /* value 0: tensor */
  uint32_t es[2];
  fb_ref(f, p->values_vec + 4, fb_table(f, 2, ev_f, es));
  f->b[es[0]] = PF_VAL_TENSOR;
  p->val_type[0] = es[0];
  static const uint8_t t_f[] = {1, 0, 4, 4};
  uint32_t ts[4];
  fb_ref(f, es[1], fb_table(f, 4, t_f, ts));
  f->b[ts[0]] = PTERA_DTYPE_FLOAT;
  p->scalar_type = ts[0];
  p->sizes_vec = fb_vec(f, 2, 4);
  pt_put_le32(f->b + p->sizes_vec + 4, 2);
  pt_put_le32(f->b + p->sizes_vec + 8, 3);
  fb_ref(f, ts[2], p->sizes_vec);
  uint32_t order = fb_vec(f, 2, 1);
  f->b[order + 5] = 1;
  fb_ref(f, ts[3], order);
  /* value 1: Int 5 */
  fb_ref(f, p->values_vec + 8, fb_table(f, 2, ev_f, es));
  f->b[es[0]] = PF_VAL_INT;
  p->val_type[1] = es[0];
  static const uint8_t i_f[] = {8};
  fb_ref(f, es[1], fb_table(f, 1, i_f, s));
  p->int_payload = s[0];
  pt_put_le64(f->b + s[0], 5);
  /* value 2: TensorList [0] */
  static const uint8_t l_f[] = {4};
  fb_ref(f, p->values_vec + 12, fb_table(f, 2, ev_f, es));
  f->b[es[0]] = PF_VAL_TENSOR_LIST;
  p->val_type[2] = es[0];
  fb_ref(f, es[1], fb_table(f, 1, l_f, s));
  v = fb_vec(f, 1, 4);
  p->tlist_item = v + 4;
  fb_ref(f, s[0], v);
  /* value 3: IntList [1] */
  fb_ref(f, p->values_vec + 16, fb_table(f, 2, ev_f, es));
  f->b[es[0]] = PF_VAL_INT_LIST;
  p->val_type[3] = es[0];
  fb_ref(f, es[1], fb_table(f, 1, l_f, s));
  v = fb_vec(f, 1, 8);
  p->ilist_item = v + 4;
  pt_put_le64(f->b + p->ilist_item, 1);
  fb_ref(f, s[0], v);
  /* chain */
  uint32_t chains = fb_vec(f, 1, 4);
  fb_ref(f, ps[5], chains);
  static const uint8_t c_f[] = {0, 0, 4};
  fb_ref(f, chains + 4, fb_table(f, 3, c_f, s));
  uint32_t instrs = fb_vec(f, 1, 4);
  fb_ref(f, s[2], instrs);
  fb_ref(f, instrs + 4, fb_table(f, 2, ev_f, es));
  f->b[es[0]] = PF_INSTR_KERNEL;
  p->instr_type = es[0];
  static const uint8_t k_f[] = {4, 4};
  fb_ref(f, es[1], fb_table(f, 2, k_f, s));
  p->op_index = s[0];
  p->args_slot = s[1];
  p->args_vec = fb_vec(f, 3, 4);
  pt_put_le32(f->b + p->args_vec + 8, 1);
  fb_ref(f, s[1], p->args_vec);
  fb_align(f, 16, 0);
}

/* ---- running a program ------------------------------------------------ */

typedef struct outcome {
  ptera_status load, create, execute; /* PTERA_INTERNAL+0x80: step not reached */
  char msg[1024];
} outcome;

#define NOT_RUN ((ptera_status)0xFF)

static outcome run_bytes(const uint8_t *data, size_t size, const ptera_load_options *o) {
  outcome r = {NOT_RUN, NOT_RUN, NOT_RUN, ""};
  uint8_t *copy = NULL;
  if (posix_memalign((void **)&copy, 16, size ? size : 1) != 0) return r;
  memcpy(copy, data, size);
  ptera_program *p = NULL;
  r.load = ptera_program_load_buffer(copy, size, o, &p);
  snprintf(r.msg, sizeof r.msg, "%s", ptera_program_errmsg(p));
  if (r.load == PTERA_OK) {
    ptera_method *m = NULL;
    r.create = ptera_method_create(p, ptera_program_method_name(p, 0), NULL, &m);
    snprintf(r.msg, sizeof r.msg, "%s", ptera_method_errmsg(m));
    if (r.create == PTERA_OK) {
      static float x[64];
      for (size_t i = 0; i < ptera_method_input_count(m); i++) {
        const ptera_value *v = ptera_method_input(m, i);
        if (v->tag == PTERA_TAG_TENSOR && ptera_tensor_nbytes(v->u.tensor) <= sizeof x)
          ptera_method_set_input_tensor(m, i, (ptera_dtype)v->u.tensor->dtype, v->u.tensor->dim,
                                        v->u.tensor->sizes, x, ptera_tensor_nbytes(v->u.tensor));
      }
      r.execute = ptera_method_execute(m);
      snprintf(r.msg, sizeof r.msg, "%s", ptera_method_errmsg(m));
    }
    ptera_method_destroy(m);
  }
  ptera_program_destroy(p);
  free(copy);
  return r;
}

static int expect_at(const char *what, const outcome *r, int step, ptera_status want,
                     const char *needle) {
  ptera_status got = step == 0 ? r->load : step == 1 ? r->create : r->execute;
  bool ok = got == want && r->msg[0] != '\0' && (!needle || strstr(r->msg, needle));
  for (int i = 0; i < step; i++)
    if ((i == 0 ? r->load : r->create) != PTERA_OK) ok = false;
  if (!ok)
    fprintf(stderr, "%s: want %s at step %d%s%s%s, got load=%s create=%s execute=%s: '%s'\n", what,
            ptera_status_name(want), step, needle ? " with '" : "", needle ? needle : "",
            needle ? "'" : "", ptera_status_name(r->load), ptera_status_name(r->create),
            ptera_status_name(r->execute), r->msg);
  CHECK(ok);
  return ok;
}

#define LOAD 0
#define CREATE 1
#define EXECUTE 2

static void expect_prog(const char *what, const prog *p, int step, ptera_status want,
                        const char *needle) {
  outcome r = run_bytes(p->f.b, p->f.n, NULL);
  expect_at(what, &r, step, want, needle);
}

/* ---- the cases ------------------------------------------------------- */

static void test_baseline(void) {
  prog p;
  build(&p);
  /* The mini program loads; aten::x has no kernel. */
  expect_prog("baseline", &p, CREATE, PTERA_OPERATOR_MISSING, "aten::x");
}

static void test_count_size_overflow(void) {
  prog p;
  build(&p);
  pt_put_le32(p.f.b + p.sizes_vec, 0x40000001u); /* 4 * count wraps 32 bits */
  expect_prog("sizes count*4 wraps", &p, LOAD, PTERA_INVALID_PROGRAM, "runs past the end");
  build(&p);
  pt_put_le32(p.f.b + p.values_vec, 0xffffffffu);
  expect_prog("values count 2^32-1", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
  /* numel * element size past 2^64: a [2^31-1, 2^31-1] Double tensor. */
  build(&p);
  pt_put_le32(p.f.b + p.sizes_vec + 4, 0x7fffffffu);
  pt_put_le32(p.f.b + p.sizes_vec + 8, 0x7fffffffu);
  p.f.b[p.scalar_type] = PTERA_DTYPE_DOUBLE;
  expect_prog("numel * 8 past 2^64", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
  /* The same shape as Float fits 64 bits but not the 2^31-1 element limit
   * (strides are 32-bit). */
  p.f.b[p.scalar_type] = PTERA_DTYPE_FLOAT;
  expect_prog("2^62 floats", &p, CREATE, PTERA_NOT_SUPPORTED, "2^31-1 elements");
}

static void test_offsets_past_end(void) {
  prog p;
  build(&p);
  pt_put_le32(p.f.b, 0xfffffff0u);
  expect_prog("root offset", &p, LOAD, PTERA_INVALID_PROGRAM, "root");
  build(&p);
  pt_put_le32(p.f.b + p.args_slot, 0x7ffffff0u);
  expect_prog("args offset", &p, LOAD, PTERA_INVALID_PROGRAM, "past the end");
}

static void test_bad_indices(void) {
  prog p;
  build(&p);
  pt_put_le32(p.f.b + p.args_vec + 4, 0xffffffffu); /* -1 */
  expect_prog("negative arg index", &p, LOAD, PTERA_INVALID_PROGRAM, "args[0]");
  build(&p);
  pt_put_le32(p.f.b + p.args_vec + 8, 4);
  expect_prog("arg index == nvalues", &p, LOAD, PTERA_INVALID_PROGRAM, "refers to value 4");
  build(&p);
  pt_put_le32(p.f.b + p.args_vec + 8, 0x7fffffffu);
  expect_prog("huge arg index", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
  build(&p);
  pt_put_le32(p.f.b + p.op_index, 1);
  expect_prog("operator index", &p, LOAD, PTERA_INVALID_PROGRAM, "operator index 1");
  build(&p);
  pt_put_le32(p.f.b + p.op_index, 0x80000000u);
  expect_prog("negative operator index", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
  build(&p);
  pt_put_le32(p.f.b + p.sizes_vec + 8, 0xfffffffeu);
  expect_prog("negative size", &p, LOAD, PTERA_INVALID_PROGRAM, "negative");
  build(&p);
  pt_put_le64(p.f.b + p.ilist_item, 0xffffffffffull);
  expect_prog("int list item past 2^32", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
}

static void test_union_tag_mismatch(void) {
  prog p;
  build(&p);
  p.f.b[p.val_type[0]] = 12; /* past the last KernelTypes code */
  expect_prog("unknown value type", &p, LOAD, PTERA_INVALID_PROGRAM, "unknown union type");
  build(&p);
  p.f.b[p.val_type[0]] = PF_VAL_STRING; /* payload is a Tensor table */
  expect_prog("tensor read as string", &p, LOAD, PTERA_INVALID_PROGRAM, "value 0");
  build(&p);
  p.f.b[p.instr_type] = 6;
  expect_prog("unknown instruction type", &p, LOAD, PTERA_INVALID_PROGRAM, "instruction 0");
  build(&p);
  p.f.b[p.val_type[1]] = PF_VAL_TENSOR; /* payload is an Int table */
  expect_prog("int read as tensor", &p, LOAD, PTERA_INVALID_PROGRAM, "value 1");
}

static void test_value_references(void) {
  prog p;
  build(&p);
  pt_put_le32(p.f.b + p.tlist_item, 2); /* TensorList [itself] */
  expect_prog("cyclic tensor list", &p, LOAD, PTERA_INVALID_PROGRAM, "not a tensor");
  build(&p);
  pt_put_le32(p.f.b + p.tlist_item, 3); /* forward reference to the IntList */
  expect_prog("tensor list -> int list", &p, LOAD, PTERA_INVALID_PROGRAM, "not a tensor");
  build(&p);
  pt_put_le64(p.f.b + p.ilist_item, 3); /* IntList [itself] */
  expect_prog("cyclic int list", &p, CREATE, PTERA_INVALID_PROGRAM, "value 3");
  build(&p);
  pt_put_le64(p.f.b + p.ilist_item, 0); /* an Int list item that is a Tensor */
  expect_prog("int list -> tensor", &p, CREATE, PTERA_INVALID_PROGRAM, "Tensor");
  build(&p);
  pt_put_le32(p.f.b + p.tlist_item, 1); /* a Tensor list item that is an Int */
  expect_prog("tensor list -> int", &p, LOAD, PTERA_INVALID_PROGRAM, "not a tensor");
  /* A jump to itself on a false condition: an endless loop at run time. */
  build(&p);
  p.f.b[p.val_type[1]] = PF_VAL_BOOL;
  pt_put_le64(p.f.b + p.int_payload, 0); /* Bool false (first byte) */
  pt_put_le32(p.f.b + p.ilist_item - 4, 0); /* the IntList would refer to it */
  p.f.b[p.instr_type] = PF_INSTR_JUMP_FALSE;
  pt_put_le32(p.f.b + p.op_index, 1); /* condition: value 1 */
  pt_put_le32(p.f.b + p.args_slot, 0); /* destination: instruction 0 */
  expect_prog("endless jump loop", &p, EXECUTE, PTERA_INVALID_PROGRAM, "endless loop");
}

static void test_strings(void) {
  prog p;
  build(&p);
  p.f.b[p.name_str + 4 + 7] = 'x'; /* "forward" loses its NUL */
  expect_prog("unterminated method name", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
  build(&p);
  pt_put_le32(p.f.b + p.name_str, 0x7fffffffu);
  expect_prog("string length past the end", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
}

static void test_huge_vectors(void) {
  prog p;
  build(&p);
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_values = 3; /* the program has 4 */
  outcome r = run_bytes(p.f.b, p.f.n, &o);
  expect_at("values over max_values", &r, LOAD, PTERA_OUT_OF_RESOURCES, "max_values");
  /* A vector whose count fits the file only as a count: 2^29 values. */
  build(&p);
  pt_put_le32(p.f.b + p.values_vec, 1u << 29);
  expect_prog("2^29 values", &p, LOAD, PTERA_INVALID_PROGRAM, "past the end");
  /* A rank over PTERA_MAX_DIM. */
  build(&p);
  pt_put_le32(p.f.b + p.sizes_vec, 17);
  expect_prog("rank 17", &p, LOAD, PTERA_INVALID_PROGRAM, NULL);
}

static uint8_t *read_corpus(const char *name, size_t *size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/pte/%s", g_corpus, name);
  uint8_t *d = check_read_file(path, size);
  if (!d) fprintf(stderr, "missing corpus file %s\n", path);
  CHECK(d != NULL);
  return d;
}

static void test_planned_budget(void) {
  size_t size;
  uint8_t *d = read_corpus("corey-cole+djl-executorch-engine__native_spike_med_output.pte", &size);
  if (!d) return;
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_planned_bytes = 256u << 20; /* the program asks for 512 MiB */
  outcome r = run_bytes(d, size, &o);
  expect_at("512 MiB planned under a 256 MiB budget", &r, CREATE, PTERA_MEMORY_ALLOCATION_FAILED,
            "max_planned_bytes");
  free(d);
}

/* Finds the constant_segment offsets table in the file bytes. */
static uint8_t *find_u64s(uint8_t *d, size_t size, const uint64_t *v, uint32_t n) {
  for (size_t at = 0; at + 8 * (size_t)n <= size; at += 4) {
    uint32_t k = 0;
    while (k < n && pt_le64(d + at + 8 * k) == v[k]) k++;
    if (k == n) return d + at;
  }
  return NULL;
}

static void test_misaligned(void) {
  /* Constant offsets [0, 0, 192, 336, 384]; constant 2 is a Float tensor. */
  size_t size;
  uint8_t *d = read_corpus("corey-cole+djl-executorch-engine__src_test_resources_lstm_lstm.pte", &size);
  if (!d) return;
  outcome r = run_bytes(d, size, NULL);
  CHECK(r.load == PTERA_OK);
  pt_arena a;
  pt_arena_init(&a, NULL);
  pf_pte x;
  pt_err e;
  CHECK(pf_pte_parse(d, size, &a, &x, &e) == PTERA_OK);
  uint32_t n = x.constant_segment.noffsets;
  CHECK(n == 5);
  uint8_t *at = n == 5 ? find_u64s(d, size, x.constant_segment.offsets, n) : NULL;
  CHECK(at != NULL);
  if (at) {
    uint8_t *bad = malloc(size);
    memcpy(bad, d, size);
    size_t off = (size_t)(at - d) + 2 * 8;
    pt_put_le64(bad + off, pt_le64(bad + off) + 1); /* 193: not 4-aligned */
    r = run_bytes(bad, size, NULL);
    expect_at("misaligned constant", &r, CREATE, PTERA_INVALID_PROGRAM, "not aligned");
    pt_put_le64(bad + off, 1ull << 40);
    r = run_bytes(bad, size, NULL);
    expect_at("constant offset past its segment", &r, CREATE, PTERA_INVALID_ARGUMENT, "past the end");
    pt_put_le64(bad + off, UINT64_MAX - 8);
    r = run_bytes(bad, size, NULL);
    expect_at("constant offset + size wraps", &r, CREATE, PTERA_INVALID_ARGUMENT, "past the end");
    free(bad);
  }
  pt_arena_release(&a);
  free(d);
}

/* AddModel's add.out has args [self 1, other 0 (the constant), alpha 3, out 2,
 * ret 2]; pointing out and ret at the constant must fail at load, not write
 * into the read-only file mapping. */
static void test_writes_constant(void) {
  size_t size;
  uint8_t *d = read_corpus("pytorch+executorch__examples_arduino_examples_AddModel_model.pte", &size);
  if (!d) return;
  static const uint32_t args[6] = {5, 1, 0, 3, 2, 2};
  uint8_t *at = NULL;
  for (size_t off = 0; off + sizeof args <= size && !at; off += 4) {
    uint32_t k = 0;
    while (k < 6 && pt_le32(d + off + 4 * k) == args[k]) k++;
    if (k == 6) at = d + off;
  }
  CHECK(at != NULL);
  if (at) {
    pt_put_le32(at + 16, 0);
    pt_put_le32(at + 20, 0);
    outcome r = run_bytes(d, size, NULL);
    expect_at("kernel output is a constant", &r, CREATE, PTERA_INVALID_PROGRAM, "constant program data");
  }
  free(d);
}

static void test_truncated(void) {
  const char *name = "berndporr+dnf_executorch__test_dnf_executorch1.pte";
  size_t size;
  uint8_t *d = read_corpus(name, &size);
  if (!d) return;
  outcome r = run_bytes(d, size, NULL);
  CHECK(r.load == PTERA_OK && r.create == PTERA_OK);
  pt_arena a;
  pt_arena_init(&a, NULL);
  pf_pte x;
  pt_err e;
  CHECK(pf_pte_parse(d, size, &a, &x, &e) == PTERA_OK);
  /* Cut inside the segment data, one byte short, inside the flatbuffer. */
  CHECK(x.has_header && x.segment_base > 0 && x.segment_base < size);
  r = run_bytes(d, (size_t)x.segment_base + 8, NULL);
  expect_at("truncated segments", &r, LOAD, PTERA_INVALID_PROGRAM, NULL);
  r = run_bytes(d, size - 1, NULL);
  expect_at("one byte short", &r, LOAD, PTERA_INVALID_PROGRAM, NULL);
  r = run_bytes(d, 200, NULL);
  expect_at("truncated flatbuffer", &r, LOAD, PTERA_INVALID_PROGRAM, NULL);
  pt_arena_release(&a);
  free(d);
}

int main(int argc, char **argv) {
  g_corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_baseline();
  test_count_size_overflow();
  test_offsets_past_end();
  test_bad_indices();
  test_union_tag_mismatch();
  test_value_references();
  test_strings();
  test_huge_vectors();
  test_planned_budget();
  test_misaligned();
  test_truncated();
  test_writes_constant();
  return check_summary("hostile_programs");
}
