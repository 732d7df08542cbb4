/* The .ptd writer (compiler/emit_ptd.c) and the emitter's external constants,
 * initial values of planned tensors and optional tensor lists, checked by
 * parsing with our readers and by running the programs through the public
 * API. Every expected output is computed by hand in the comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "emit_ptd.h"
#include "emit_pte.h"
#include "emit_util.h"
#include "format/ptd.h"
#include "format/pte.h"
#include "ptera/ptera.h"
#include "sha256.h"

static const int32_t S3[1] = {3};

static pc_ptd_entry entry_f(const char *key, const float *data, uint8_t dim, const int32_t *sizes,
                            size_t numel) {
  pc_ptd_entry e = {key, data, numel * 4, PTERA_DTYPE_FLOAT, dim, sizes, NULL};
  return e;
}

/* Writes bytes to a fresh file under /tmp; returns its path (static). */
static const char *write_tmp(const char *tag, const uint8_t *data, size_t size) {
  static char paths[4][128];
  static int next;
  char *path = paths[next++ & 3];
  snprintf(path, 128, "/tmp/ptera_test_emit_ptd_%ld_%s.ptd", (long)getpid(), tag);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) {
    CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
  }
  return path;
}

/* ---- (a) the .ptd file itself ---- */

static void test_ptd_parse(void) {
  static const float w[6] = {1, 2, 3, 4, 5, 6};
  static const float w_copy[6] = {1, 2, 3, 4, 5, 6};
  static const int64_t ids[3] = {7, -8, 9};
  static const int32_t s23[2] = {2, 3}, s32[2] = {3, 2}, s3[1] = {3};
  static const uint8_t order10[2] = {1, 0};
  pc_ptd_entry es[4];
  es[0] = entry_f("layer.w", w, 2, s23, 6);                   /* contiguous */
  es[1] = (pc_ptd_entry){"ids", ids, 24, PTERA_DTYPE_LONG, 1, s3, NULL};
  es[2] = entry_f("layer.wt", w_copy, 2, s32, 6);             /* same bytes, own key */
  es[2].dim_order = order10;
  es[3] = (pc_ptd_entry){"scalar", w + 5, 4, PTERA_DTYPE_FLOAT, 0, NULL, NULL};
  uint8_t *file = NULL;
  size_t size = 0;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pc_emit_ptd(es, 4, NULL, &file, &size, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "emit_ptd: %s\n", err.msg);
    return;
  }
  /* Header (PTD.md §2). */
  CHECK(size >= 64 && memcmp(file + 4, "FT01", 4) == 0 && memcmp(file + 8, "FH01", 4) == 0);
  CHECK(pt_le32(file + 12) == 40 && pt_le64(file + 16) == 48);
  uint64_t fb_size = pt_le64(file + 24), base = pt_le64(file + 32), seg = pt_le64(file + 40);
  CHECK(base == ((48 + fb_size + 15) & ~15ull) && base % 16 == 0);
  /* Three distinct blobs: 24 bytes at 0, 24 at 32, 4 at 64. */
  CHECK(seg == 68 && size == base + seg);
  CHECK(pt_le64(file + 48) == 0); /* header padding */

  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  st = pf_ptd_parse(file, size, &arena, &d, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "parse: %s\n", err.msg);
  if (st == PTERA_OK) {
    CHECK(!d.legacy && d.nentries == 4 && d.segment_base == base && d.segment_data_size == 68);
    const pf_ptd_entry *e = pf_ptd_find(&d, "layer.w", 7);
    CHECK(e && e->layout.present && e->layout.scalar_type == PTERA_DTYPE_FLOAT &&
          e->layout.dim == 2 && e->layout.sizes[0] == 2 && e->layout.sizes[1] == 3 &&
          e->layout.dim_order[0] == 0 && e->layout.dim_order[1] == 1 && e->layout.nbytes == 24);
    CHECK(e && e->data.len == 24 && memcmp(e->data.ptr, w, 24) == 0 &&
          e->data.ptr == file + base);
    const pf_ptd_entry *t = pf_ptd_find(&d, "layer.wt", 8);
    CHECK(t && t->layout.present && t->layout.sizes[0] == 3 && t->layout.sizes[1] == 2 &&
          t->layout.dim_order[0] == 1 && t->layout.dim_order[1] == 0);
    CHECK(t && e && t->data.ptr == e->data.ptr); /* deduplicated: one segment */
    const pf_ptd_entry *i = pf_ptd_find(&d, "ids", 3);
    CHECK(i && i->layout.scalar_type == PTERA_DTYPE_LONG && i->layout.dim == 1 &&
          i->data.len == 24 && memcmp(i->data.ptr, ids, 24) == 0 &&
          i->data.ptr == file + base + 32);
    const pf_ptd_entry *s = pf_ptd_find(&d, "scalar", 6);
    CHECK(s && s->layout.present && s->layout.dim == 0 && s->data.len == 4 &&
          memcmp(s->data.ptr, w + 5, 4) == 0 && s->data.ptr == file + base + 64);
    CHECK(pf_ptd_find(&d, "layer", 5) == NULL);
  }
  pt_arena_release(&arena);
  pt_free(NULL, file);

  /* A larger segment alignment moves the base and the offsets. */
  pc_emit_options opt = {NULL, 0, 128};
  CHECK(pc_emit_ptd(es, 2, &opt, &file, &size, &err) == PTERA_OK);
  if (file) {
    base = pt_le64(file + 32);
    CHECK(base % 128 == 0 && pt_le64(file + 40) == 128 + 24 && size == base + 152);
    CHECK(memcmp(file + base + 128, ids, 24) == 0);
    pt_free(NULL, file);
  }

  /* No entries: a valid, empty file. */
  CHECK(pc_emit_ptd(NULL, 0, NULL, &file, &size, &err) == PTERA_OK);
  if (file) {
    pt_arena_init(&arena, NULL);
    CHECK(pf_ptd_parse(file, size, &arena, &d, &err) == PTERA_OK && d.nentries == 0);
    pt_arena_release(&arena);
    pt_free(NULL, file);
  }

  /* Bad descriptions. */
  pc_ptd_entry bad[2];
  bad[0] = entry_f("k", w, 1, s3, 3);
  bad[1] = entry_f("k", w + 3, 1, s3, 3);
  file = (uint8_t *)1;
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT && !file &&
        size == 0 && strstr(err.msg, "duplicate") && strstr(err.msg, "'k'"));
  bad[1].key = "";
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "empty key"));
  bad[1].key = NULL;
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT);
  bad[1].key = "k2";
  bad[1].nbytes = 8;
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "k2") && strstr(err.msg, "size"));
  bad[1].nbytes = 12;
  bad[1].dim_order = order10; /* rank 1 */
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "dim_order"));
  bad[1].dim_order = NULL;
  bad[1].scalar_type = 200;
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT);
  bad[1].scalar_type = PTERA_DTYPE_FLOAT;
  CHECK(pc_emit_ptd(bad, 2, NULL, &file, &size, &err) == PTERA_OK);
  pt_free(NULL, file);
}

/* ---- (b) external constants: y = x * W + b ---- */

/* Values: 0 x (planned 1@0), 1 W (external "fc.weight"), 2 b (external
 * "fc.bias"), 3 t = x*W (planned 1@16), 4 alpha 1, 5 y (planned 1@32). */
static pc_value fc_values[6];
static const int32_t fc_mul_args[4] = {0, 1, 3, 3}, fc_add_args[5] = {3, 2, 4, 5, 5};
static const pc_instr fc_instrs[2] = {{0, fc_mul_args, 4, false}, {1, fc_add_args, 5, false}};
static const pc_operator fc_ops[2] = {{"aten::mul", "out"}, {"aten::add", "out"}};
static const int32_t fc_in[1] = {0}, fc_out[1] = {5};
static const int64_t fc_bufs[1] = {48};
static pc_method fc_method;
static pc_program fc_program;

static void make_fc_program(void) {
  fc_values[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  fc_values[1] = eu_tensor_f(PC_STORAGE_CONST, 1, S3);
  fc_values[1].u.tensor.external = true;
  fc_values[1].u.tensor.fqn = "fc.weight";
  fc_values[2] = eu_tensor_f(PC_STORAGE_CONST, 1, S3);
  fc_values[2].u.tensor.external = true;
  fc_values[2].u.tensor.fqn = "fc.bias";
  fc_values[3] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  fc_values[4] = eu_int(1);
  fc_values[5] = eu_f3(PC_STORAGE_PLANNED, NULL, 32);
  fc_method = (pc_method){"forward", fc_values, 6, fc_in, 1, fc_out, 1, fc_instrs, 2, fc_ops, 2,
                          fc_bufs, 1, NULL, 0};
  fc_program = (pc_program){&fc_method, 1, NULL, 0};
}

/* Loads the program, attaches ptd_path (NULL: none), creates "forward".
 * Returns the method (or NULL) and its create status. */
static ptera_method *open_method(ptera_program **prog, const uint8_t *pte, size_t pte_size,
                                 const char *ptd_path, ptera_status *st) {
  *prog = NULL;
  ptera_method *m = NULL;
  *st = ptera_program_load_buffer(pte, pte_size, NULL, prog);
  CHECK(*st == PTERA_OK);
  if (*st != PTERA_OK) return NULL;
  if (ptd_path) {
    ptera_status a = ptera_program_attach_data_file(*prog, ptd_path);
    CHECK(a == PTERA_OK);
    if (a != PTERA_OK) fprintf(stderr, "attach: %s\n", ptera_program_errmsg(*prog));
  }
  *st = ptera_method_create(*prog, "forward", NULL, &m);
  return m;
}

static void run_fc(const uint8_t *pte, size_t pte_size, const char *ptd_path, const float *x,
                   const float *want) {
  ptera_program *prog;
  ptera_status st;
  ptera_method *m = open_method(&prog, pte, pte_size, ptd_path, &st);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK && m) fprintf(stderr, "method: %s\n", ptera_method_errmsg(m));
  if (st == PTERA_OK) eu_exec_x(m, x, want[0], want[1], want[2]);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
}

/* Method create must fail with code and a message holding every needle. */
static void expect_load_error(const uint8_t *pte, size_t pte_size, const char *ptd_path,
                              ptera_status code, const char *n1, const char *n2, const char *n3) {
  ptera_program *prog;
  ptera_status st;
  ptera_method *m = open_method(&prog, pte, pte_size, ptd_path, &st);
  CHECK(st == code);
  const char *msg = m ? ptera_method_errmsg(m) : "";
  CHECK(m != NULL && strstr(msg, n1) != NULL);
  if (n2) CHECK(strstr(msg, n2) != NULL);
  if (n3) CHECK(strstr(msg, n3) != NULL);
  if (st != code || !strstr(msg, n1) || (n2 && !strstr(msg, n2)) || (n3 && !strstr(msg, n3)))
    fprintf(stderr, "got %s: %s\n", ptera_status_name(st), msg);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
}

static void test_external_constants(void) {
  make_fc_program();
  size_t pte_size = 0;
  uint8_t *pte = eu_emit(&fc_program, NULL, &pte_size);
  if (!pte) return;
  pt_err err;
  pt_err_clear(&err);
  /* The .pte: no data for W and b, only their keys. */
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte p;
  if (eu_parse(pte, pte_size, &arena, &p) && p.nplans == 1) {
    CHECK(p.constant_segment.noffsets == 1); /* just the placeholder */
    CHECK(!p.has_header);                     /* nothing in segments */
    const pf_tensor *wt = p.plans[0].values[1].u.tensor;
    CHECK(wt->external && wt->data_buffer_idx == 0 && !wt->has_allocation && wt->fqn.ptr &&
          !strcmp(wt->fqn.ptr, "fc.weight"));
    const pf_tensor *bt = p.plans[0].values[2].u.tensor;
    CHECK(bt->external && bt->fqn.ptr && !strcmp(bt->fqn.ptr, "fc.bias"));
    CHECK(!p.plans[0].values[0].u.tensor->external && !p.plans[0].values[0].u.tensor->fqn.ptr);
  }
  pt_arena_release(&arena);

  /* The exported weights: W = {2, -1, 0.5}, b = {1, 2, 3}. */
  static const float W[3] = {2.0f, -1.0f, 0.5f}, B[3] = {1.0f, 2.0f, 3.0f};
  pc_ptd_entry es[2] = {entry_f("fc.weight", W, 1, S3, 3), entry_f("fc.bias", B, 1, S3, 3)};
  uint8_t *ptd = NULL;
  size_t ptd_size = 0;
  CHECK(pc_emit_ptd(es, 2, NULL, &ptd, &ptd_size, &err) == PTERA_OK);
  if (!ptd) {
    pt_free(NULL, pte);
    return;
  }
  const char *path = write_tmp("fc", ptd, ptd_size);
  pt_free(NULL, ptd);
  /* x = {1, 2, 4}: x*W = {2, -2, 2}; + b = {3, 0, 5}. */
  const float x[3] = {1.0f, 2.0f, 4.0f};
  const float want[3] = {3.0f, 0.0f, 5.0f};
  run_fc(pte, pte_size, path, x, want);
  /* The same bytes attached from memory also work. */
  {
    ptera_program *prog = NULL;
    CHECK(ptera_program_load_buffer(pte, pte_size, NULL, &prog) == PTERA_OK);
    size_t n = 0;
    uint8_t *bytes = check_read_file(path, &n);
    CHECK(bytes && prog && ptera_program_attach_data_buffer(prog, bytes, n) == PTERA_OK);
    ptera_method *m = NULL;
    CHECK(ptera_method_create(prog, "forward", NULL, &m) == PTERA_OK);
    ptera_method_destroy(m);
    ptera_program_destroy(prog);
    free(bytes);
  }
  remove(path);

  /* Fine-tuned weights under the same keys (weights-only update):
   * W' = {3, 1, -0.5}, b' = {0, -1, 0.5}: x*W' = {3, 2, -2}; + b' = {3, 1, -1.5}. */
  static const float W2[3] = {3.0f, 1.0f, -0.5f}, B2[3] = {0.0f, -1.0f, 0.5f};
  pc_ptd_entry tuned[2] = {entry_f("fc.bias", B2, 1, S3, 3), entry_f("fc.weight", W2, 1, S3, 3)};
  CHECK(pc_emit_ptd(tuned, 2, NULL, &ptd, &ptd_size, &err) == PTERA_OK);
  if (ptd) {
    path = write_tmp("tuned", ptd, ptd_size);
    pt_free(NULL, ptd);
    const float want2[3] = {3.0f, 1.0f, -1.5f};
    run_fc(pte, pte_size, path, x, want2);
    remove(path);
  }

  /* Another export: fc.weight has shape [4]. */
  static const float W4[4] = {1, 2, 3, 4};
  static const int32_t s4[1] = {4};
  pc_ptd_entry other[2] = {entry_f("fc.weight", W4, 1, s4, 4), entry_f("fc.bias", B, 1, S3, 3)};
  CHECK(pc_emit_ptd(other, 2, NULL, &ptd, &ptd_size, &err) == PTERA_OK);
  if (ptd) {
    path = write_tmp("other_shape", ptd, ptd_size);
    pt_free(NULL, ptd);
    expect_load_error(pte, pte_size, path, PTERA_INVALID_EXTERNAL_DATA, "fc.weight", path,
                      "another export");
    remove(path);
  }

  /* Another export keyed by content hash (as XNNPACK does): no "fc.weight". */
  char kw[65], kb[65];
  pc_sha256_hex(W, 12, kw);
  pc_sha256_hex(B, 12, kb);
  pc_ptd_entry hashed[2] = {entry_f(kw, W, 1, S3, 3), entry_f(kb, B, 1, S3, 3)};
  CHECK(strcmp(kw, kb) != 0 && strlen(kw) == 64);
  CHECK(pc_emit_ptd(hashed, 2, NULL, &ptd, &ptd_size, &err) == PTERA_OK);
  if (ptd) {
    path = write_tmp("hashed", ptd, ptd_size);
    pt_free(NULL, ptd);
    expect_load_error(pte, pte_size, path, PTERA_NOT_FOUND, "fc.weight", path, "another export");
    remove(path);
  }

  /* No .ptd attached at all. */
  expect_load_error(pte, pte_size, NULL, PTERA_INVALID_EXTERNAL_DATA, "fc.weight", ".ptd",
                    "attach");
  pt_free(NULL, pte);

  /* Bad descriptions: external without a key, external planned tensor. */
  fc_values[1].u.tensor.fqn = NULL;
  CHECK(pc_emit_pte(&fc_program, NULL, &pte, &pte_size, &err) == PTERA_INVALID_ARGUMENT && !pte &&
        strstr(err.msg, "fully qualified name"));
  fc_values[1].u.tensor.fqn = "";
  CHECK(pc_emit_pte(&fc_program, NULL, &pte, &pte_size, &err) == PTERA_INVALID_ARGUMENT);
  fc_values[1].u.tensor.fqn = "fc.weight";
  fc_values[3].u.tensor.external = true;
  fc_values[3].u.tensor.fqn = "t";
  CHECK(pc_emit_pte(&fc_program, NULL, &pte, &pte_size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "external"));
  fc_values[3].u.tensor.external = false;
  /* A named, non-external planned tensor keeps its name. */
  CHECK(pc_emit_pte(&fc_program, NULL, &pte, &pte_size, &err) == PTERA_OK);
  if (pte) {
    pt_arena_init(&arena, NULL);
    if (pf_pte_parse(pte, pte_size, &arena, &p, &err) == PTERA_OK) {
      const pf_tensor *t = p.plans[0].values[3].u.tensor;
      CHECK(!t->external && t->has_allocation && t->fqn.ptr && !strcmp(t->fqn.ptr, "t"));
    } else {
      CHECK(0);
    }
    pt_arena_release(&arena);
    pt_free(NULL, pte);
  }
  fc_values[3].u.tensor.fqn = NULL;
}

/* ---- (c) mutable state with an initial value ---- */

/* forward(): A += c; B += A; returns (A, B).
 * Values: 0 A (planned 1@0, initial {10, 20, 30}), 1 c (const {1, 2, 3}),
 * 2 alpha 1, 3 B (planned 1@16, initial {100, 200, 300}). */
static void test_mutable_state(void) {
  static const float A0[3] = {10, 20, 30}, B0[3] = {100, 200, 300}, C[3] = {1, 2, 3};
  pc_value vals[4];
  vals[0] = eu_f3(PC_STORAGE_PLANNED, A0, 0);
  vals[0].u.tensor.fqn = "state.a";
  vals[1] = eu_f3(PC_STORAGE_CONST, C, 0);
  vals[2] = eu_int(1);
  vals[3] = eu_f3(PC_STORAGE_PLANNED, B0, 16);
  const int32_t a1[5] = {0, 1, 2, 0, 0}, a2[5] = {3, 0, 2, 3, 3}, outs[2] = {0, 3};
  const pc_instr instrs[2] = {{0, a1, 5, false}, {0, a2, 5, false}};
  const pc_operator ops[1] = {{"aten::add", "out"}};
  const int64_t bufs[1] = {32};
  pc_method m = {"forward", vals, 4, NULL, 0, outs, 2, instrs, 2, ops, 1, bufs, 1, NULL, 0};
  pc_program prog_desc = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *pte = eu_emit(&prog_desc, NULL, &size);
  if (!pte) return;
  pt_err err;
  pt_err_clear(&err);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte p;
  if (eu_parse(pte, size, &arena, &p) && p.nplans == 1) {
    /* segments: constants {0, 12}, mutable {128, 24}; values unpadded. */
    CHECK(p.has_header && p.nsegments == 2 && p.segments[0].offset == 0 &&
          p.segments[0].size == 12 && p.segments[1].offset == 128 && p.segments[1].size == 24);
    CHECK(p.segment_data_size == 152 && p.file_size == p.segment_base + 152);
    CHECK(p.nmutable_data == 1 && p.mutable_data.present && p.mutable_data.segment_index == 1 &&
          p.mutable_data.noffsets == 3 && p.mutable_data.offsets[0] == 0 &&
          p.mutable_data.offsets[1] == 0 && p.mutable_data.offsets[2] == 12);
    const pf_tensor *ta = p.plans[0].values[0].u.tensor, *tb = p.plans[0].values[3].u.tensor;
    CHECK(ta->has_allocation && ta->data_buffer_idx == 1 && ta->fqn.ptr &&
          !strcmp(ta->fqn.ptr, "state.a") && !ta->external);
    CHECK(tb->has_allocation && tb->data_buffer_idx == 2);
    CHECK(p.plans[0].values[1].u.tensor->data_buffer_idx == 1 &&
          !p.plans[0].values[1].u.tensor->has_allocation);
    const uint8_t *d = NULL;
    CHECK(pf_pte_mutable(&p, 2, 12, &d, &err) == PTERA_OK && d && memcmp(d, B0, 12) == 0);
    CHECK(pf_pte_mutable(&p, 1, 12, &d, &err) == PTERA_OK && d && memcmp(d, A0, 12) == 0);
    CHECK(pf_pte_constant(&p, 1, 12, &d, &err) == PTERA_OK && d && memcmp(d, C, 12) == 0);
  }
  pt_arena_release(&arena);

  ptera_program *prog = eu_load(pte, size);
  for (int fresh = 0; fresh < 2 && prog; fresh++) {
    ptera_method *meth = eu_open_forward(prog);
    if (!meth) break;
    /* Run 1: A = {11, 22, 33}, B = {111, 222, 333}. */
    CHECK(ptera_method_execute(meth) == PTERA_OK);
    eu_check_f3(ptera_method_output(meth, 0), 11, 22, 33);
    eu_check_f3(ptera_method_output(meth, 1), 111, 222, 333);
    if (fresh == 0) {
      /* Run 2: A = {12, 24, 36}, B = {123, 246, 369}. */
      CHECK(ptera_method_execute(meth) == PTERA_OK);
      eu_check_f3(ptera_method_output(meth, 0), 12, 24, 36);
      eu_check_f3(ptera_method_output(meth, 1), 123, 246, 369);
    }
    ptera_method_destroy(meth); /* the next method starts from the initial values */
  }
  ptera_program_destroy(prog);
  pt_free(NULL, pte);

  /* Bad descriptions. */
  vals[0].u.tensor.initial_nbytes = 8;
  CHECK(pc_emit_pte(&prog_desc, NULL, &pte, &size, &err) == PTERA_INVALID_ARGUMENT && !pte &&
        strstr(err.msg, "initial"));
  vals[0].u.tensor.initial_nbytes = 12;
  vals[1].u.tensor.initial = A0;
  vals[1].u.tensor.initial_nbytes = 12;
  CHECK(pc_emit_pte(&prog_desc, NULL, &pte, &size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "planned"));
}

/* forward(): A = A + A with A initially {1, -2, 0.5}; no constants at all,
 * so the mutable segment is the only data (at offset 0, after an empty
 * constant segment). */
static void test_mutable_only(void) {
  static const float A0[3] = {1.0f, -2.0f, 0.5f};
  pc_value vals[2];
  vals[0] = eu_f3(PC_STORAGE_PLANNED, A0, 0);
  vals[1] = eu_int(1);
  const int32_t args[5] = {0, 0, 1, 0, 0}, outs[1] = {0};
  const pc_instr instrs[1] = {{0, args, 5, false}};
  const pc_operator ops[1] = {{"aten::add", "out"}};
  const int64_t bufs[1] = {16};
  pc_method m = {"forward", vals, 2, NULL, 0, outs, 1, instrs, 1, ops, 1, bufs, 1, NULL, 0};
  pc_program desc = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *pte = eu_emit(&desc, NULL, &size);
  if (!pte) return;
  CHECK(memcmp(pte + 8, "eh00", 4) == 0);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte p;
  eu_parse(pte, size, &arena, &p);
  CHECK(p.nsegments == 2 && p.segments[0].size == 0 && p.segments[1].offset == 0 &&
        p.segments[1].size == 12 && p.segment_data_size == 12);
  pt_arena_release(&arena);
  ptera_program *prog = eu_load(pte, size);
  ptera_method *meth = prog ? eu_open_forward(prog) : NULL;
  if (meth && ptera_method_execute(meth) == PTERA_OK) {
    eu_check_f3(ptera_method_output(meth, 0), 2.0f, -4.0f, 1.0f);
    CHECK(ptera_method_execute(meth) == PTERA_OK);
    eu_check_f3(ptera_method_output(meth, 0), 4.0f, -8.0f, 2.0f);
  } else {
    CHECK(0);
  }
  ptera_method_destroy(meth);
  ptera_program_destroy(prog);
  pt_free(NULL, pte);
}

/* ---- (d) OptionalTensorList: out = x[:, idx] via aten::index.Tensor_out ---- */

/* x is [3, 4] holding 0..11 (x[i][j] = 4i + j), idx = {3, 0} (int64),
 * indices = [None, idx]: out[i][k] = x[i][idx[k]] = [[3, 0], [7, 4], [11, 8]].
 * Values: 0 x (planned 1@0), 1 idx (const), 2 [None, idx], 3 out (planned
 * 1@48, [3, 2]). Kernel args (ops.def / op_index.c): self, indices, out, out. */
static void test_optional_tensor_list(void) {
  static const int64_t idx[2] = {3, 0};
  static const int32_t s34[2] = {3, 4}, s32[2] = {3, 2}, s2[1] = {2};
  pc_value vals[4];
  vals[0] = eu_tensor_f(PC_STORAGE_PLANNED, 2, s34);
  vals[0].u.tensor.memory_id = 1;
  vals[1] = eu_tensor_f(PC_STORAGE_CONST, 1, s2);
  vals[1].u.tensor.scalar_type = PTERA_DTYPE_LONG;
  vals[1].u.tensor.data = idx;
  vals[1].u.tensor.nbytes = 16;
  const int32_t items[2] = {-1, 1};
  memset(&vals[2], 0, sizeof vals[2]);
  vals[2].kind = PC_VAL_OPT_TENSOR_LIST;
  vals[2].u.list.items = items;
  vals[2].u.list.len = 2;
  vals[3] = eu_tensor_f(PC_STORAGE_PLANNED, 2, s32);
  vals[3].u.tensor.memory_id = 1;
  vals[3].u.tensor.memory_offset = 48;
  const int32_t args[4] = {0, 2, 3, 3}, in0[1] = {0}, outs[1] = {3};
  const pc_instr instrs[1] = {{0, args, 4, false}};
  const pc_operator ops[1] = {{"aten::index", "Tensor_out"}};
  const int64_t bufs[1] = {80};
  pc_method m = {"forward", vals, 4, in0, 1, outs, 1, instrs, 1, ops, 1, bufs, 1, NULL, 0};
  pc_program desc = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *pte = eu_emit(&desc, NULL, &size);
  if (!pte) return;
  pt_err err;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte p;
  if (eu_parse(pte, size, &arena, &p) && p.nplans == 1 && p.plans[0].nvalues == 4) {
    const pf_value *v = &p.plans[0].values[2];
    CHECK(v->type == PF_VAL_OPT_TENSOR_LIST && v->u.idx.len == 2 && v->u.idx.items[0] == -1 &&
          v->u.idx.items[1] == 1);
  }
  pt_arena_release(&arena);

  ptera_program *prog = eu_load(pte, size);
  ptera_method *meth = prog ? eu_open_forward(prog) : NULL;
  if (meth) {
    float x[12];
    for (int k = 0; k < 12; k++) x[k] = (float)k;
    CHECK(ptera_method_set_input_tensor(meth, 0, PTERA_DTYPE_FLOAT, 2, s34, x, 48) == PTERA_OK);
    ptera_status st = ptera_method_execute(meth);
    CHECK(st == PTERA_OK);
    if (st != PTERA_OK) fprintf(stderr, "execute: %s\n", ptera_method_errmsg(meth));
    const ptera_value *y = ptera_method_output(meth, 0);
    CHECK(y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->dim == 2 &&
          y->u.tensor->sizes[0] == 3 && y->u.tensor->sizes[1] == 2);
    if (st == PTERA_OK && y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->numel == 6) {
      const float *d = y->u.tensor->data;
      const float want[6] = {3, 0, 7, 4, 11, 8};
      CHECK(memcmp(d, want, sizeof want) == 0);
    }
  }
  ptera_method_destroy(meth);
  ptera_program_destroy(prog);
  pt_free(NULL, pte);

  /* An item naming a non-tensor (the list itself), or below -1, is refused. */
  const int32_t bad_items[2] = {-1, 2};
  vals[2].u.list.items = bad_items;
  CHECK(pc_emit_pte(&desc, NULL, &pte, &size, &err) == PTERA_INVALID_ARGUMENT && !pte);
  const int32_t bad_items2[2] = {-2, 1};
  vals[2].u.list.items = bad_items2;
  CHECK(pc_emit_pte(&desc, NULL, &pte, &size, &err) == PTERA_INVALID_ARGUMENT && !pte);
}

int main(void) {
  test_ptd_parse();
  test_external_constants();
  test_mutable_state();
  test_mutable_only();
  test_optional_tensor_list();
  return check_summary("emit_ptd");
}
