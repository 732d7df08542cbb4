/* The emitter's named blobs (Program.named_data, PTE.md §10, §11): every
 * combination of constant segment, mutable segment and named blobs gives a
 * file that our reader parses, whose segments sit where the layout rule puts
 * them (hand-computed below), whose blobs come back byte for byte through
 * pf_pte_named and the public NamedDataMap (ptera_program_named_data +
 * ptera_named_data_get), and whose methods still compute the hand-computed
 * outputs. `ptera inspect` lists the entries (when the CLI path is known). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "emit_pte.h"
#include "emit_util.h"
#include "format/pte.h"
#include "ptera/ptera.h"

static const pc_operator ADD[1] = {{"aten::add", "out"}};
static const int32_t IN0[1] = {0};
static const int64_t BUF32[1] = {32}, BUF16[1] = {16};

/* ---- blobs ---- */

static const char HELLO[5] = {'h', 'e', 'l', 'l', 'o'};
static const char HELLO_COPY[5] = {'h', 'e', 'l', 'l', 'o'};
static uint8_t BETA[300]; /* BETA[i] = 7i + 3 mod 256 */
static const uint8_t W20[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
static const uint8_t V1[1] = {0xab};
static const uint8_t K3[3] = {1, 2, 3};

typedef struct seg {
  uint64_t offset, size;
} seg;

/* Emits desc, parses it into *pte (arena-owned) and checks Program.segments
 * against want[0..n) and the extended header's segment_data_size (none when
 * data_size is 0). Returns the file (free with pt_free(NULL, .)) or NULL. */
static uint8_t *emit_parse(const pc_program *desc, const pc_emit_options *opt, pt_arena *arena,
                           pf_pte *pte, size_t *size, const seg *want, uint32_t n,
                           uint64_t data_size) {
  uint8_t *file = eu_emit(desc, opt, size);
  if (!file) return NULL;
  if (!eu_parse(file, *size, arena, pte)) {
    pt_free(NULL, file);
    return NULL;
  }
  uint64_t salign = opt && opt->segment_alignment ? opt->segment_alignment : 128;
  if (data_size) {
    CHECK(memcmp(file + 8, "eh00", 4) == 0 && pte->has_header && pte->header_length == 32);
    CHECK(pte->segment_base % salign == 0 && pte->segment_base >= pte->program_size);
    CHECK(pte->segment_data_size == data_size && pte->file_size == pte->segment_base + data_size);
  } else {
    CHECK(memcmp(file + 8, "eh00", 4) != 0 && !pte->has_header && pte->program_size == *size);
  }
  CHECK(pte->nsegments == n);
  for (uint32_t i = 0; i < n && i < pte->nsegments; i++) {
    CHECK(pte->segments[i].offset == want[i].offset && pte->segments[i].size == want[i].size);
    if (pte->segments[i].offset != want[i].offset || pte->segments[i].size != want[i].size)
      fprintf(stderr, "segment %u: {%llu, %llu}, want {%llu, %llu}\n", i,
              (unsigned long long)pte->segments[i].offset, (unsigned long long)pte->segments[i].size,
              (unsigned long long)want[i].offset, (unsigned long long)want[i].size);
  }
  return file;
}

/* Named entry i of pte has key, segment index s, and pf_pte_named(key)
 * returns exactly (data, n), from a segment-aligned place in the file. */
static void check_named(const pf_pte *pte, const uint8_t *file, uint32_t i, const char *key,
                        uint32_t s, const void *data, size_t n, uint64_t salign) {
  CHECK(i < pte->nnamed);
  if (i >= pte->nnamed) return;
  CHECK(pte->named[i].key.len == strlen(key) && !strcmp(pte->named[i].key.ptr, key));
  CHECK(pte->named[i].segment_index == s);
  pf_bytes b;
  pt_err err;
  CHECK(pf_pte_named(pte, key, strlen(key), &b, &err) == PTERA_OK);
  CHECK(b.len == n && (n == 0 || (b.ptr && memcmp(b.ptr, data, n) == 0)));
  if (n) CHECK(b.ptr && (uint64_t)(b.ptr - file) % salign == 0);
}

/* Through the public API: each key gives its bytes, absent keys NotFound. */
static void check_public(ptera_program *prog, const char *const *keys, const void *const *data,
                         const size_t *sizes, size_t n) {
  const ptera_named_data *map = ptera_program_named_data(prog);
  CHECK(map != NULL);
  if (!map) return;
  for (size_t k = 0; k < n; k++) {
    const void *d = NULL;
    size_t sz = 99;
    CHECK(ptera_named_data_get(map, keys[k], strlen(keys[k]), &d, &sz) == PTERA_OK);
    CHECK(sz == sizes[k] && (sz == 0 || (d && memcmp(d, data[k], sz) == 0)));
  }
  const void *d = NULL;
  size_t sz = 0;
  CHECK(ptera_named_data_get(map, "absent", 6, &d, &sz) == PTERA_NOT_FOUND);
  /* A prefix of a key is not the key. */
  CHECK(ptera_named_data_get(map, keys[0], strlen(keys[0]) - 1, &d, &sz) == PTERA_NOT_FOUND);
  CHECK(ptera_named_data_get(NULL, "absent", 6, &d, &sz) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_program_named_data(NULL) == NULL);
}

/* ---- (a) named blobs alone: forward(x) = x + x, no constants ---- */

static void test_named_alone(void) {
  for (int i = 0; i < 300; i++) BETA[i] = (uint8_t)(7 * i + 3);
  pc_value vals[3] = {eu_f3(PC_STORAGE_PLANNED, NULL, 0), eu_int(1),
                      eu_f3(PC_STORAGE_PLANNED, NULL, 16)};
  const int32_t args[5] = {0, 0, 1, 2, 2}, outs[1] = {2};
  const pc_instr instrs[1] = {{0, args, 5, false}};
  pc_method m = {"forward", vals, 3, IN0, 1, outs, 1, instrs, 1, ADD, 1, BUF32, 1, NULL, 0};
  /* gamma has alpha's bytes (another pointer): they share segment 1. */
  const pc_named_blob named[4] = {
      {"alpha", HELLO, 5}, {"beta", BETA, 300}, {"gamma", HELLO_COPY, 5}, {"empty", NULL, 0}};
  pc_program desc = {&m, 1, named, 4};
  /* Constant segment {0, 0}; alpha {0, 5}; beta at round_up(5, 128) = 128,
   * ends 428; empty at round_up(428, 128) = 512, size 0: data size 512. */
  const seg want[4] = {{0, 0}, {0, 5}, {128, 300}, {512, 0}};
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  size_t size = 0;
  uint8_t *file = emit_parse(&desc, NULL, &arena, &pte, &size, want, 4, 512);
  if (file) {
    CHECK(pte.nnamed == 4);
    CHECK(pte.constant_segment.present && pte.constant_segment.noffsets == 1);
    CHECK(!pte.mutable_data.present);
    check_named(&pte, file, 0, "alpha", 1, HELLO, 5, 128);
    check_named(&pte, file, 1, "beta", 2, BETA, 300, 128);
    check_named(&pte, file, 2, "gamma", 1, HELLO, 5, 128);
    check_named(&pte, file, 3, "empty", 3, NULL, 0, 128);
    /* The padding between segments is zero. */
    const uint8_t *base = file + pte.segment_base;
    int nonzero = 0;
    for (int k = 5; k < 128; k++) nonzero |= base[k];
    for (int k = 428; k < 512; k++) nonzero |= base[k];
    CHECK(!nonzero);
    pf_bytes b;
    pt_err err;
    CHECK(pf_pte_named(&pte, "delta", 5, &b, &err) == PTERA_NOT_FOUND && strstr(err.msg, "delta"));
  }
  pt_arena_release(&arena);
  ptera_program *prog = file ? eu_load(file, size) : NULL;
  if (prog) {
    const char *const keys[4] = {"alpha", "beta", "gamma", "empty"};
    const void *const data[4] = {HELLO, BETA, HELLO, NULL};
    const size_t sizes[4] = {5, 300, 5, 0};
    check_public(prog, keys, data, sizes, 4);
    const float x[3] = {1.0f, -2.0f, 0.5f};
    eu_run_x(prog, x, 2.0f, -4.0f, 1.0f);
  }
  ptera_program_destroy(prog);
  pt_free(NULL, file);

  /* Only empty blobs: no segment data, hence (like upstream) no header. */
  const pc_named_blob empty[2] = {{"z", NULL, 0}, {"z2", HELLO, 0}};
  pc_program desc2 = {&m, 1, empty, 2};
  const seg want2[2] = {{0, 0}, {0, 0}};
  pt_arena_init(&arena, NULL);
  file = emit_parse(&desc2, NULL, &arena, &pte, &size, want2, 2, 0);
  if (file) {
    CHECK(pte.nnamed == 2 && pte.named[0].segment_index == 1 && pte.named[1].segment_index == 1);
    check_named(&pte, file, 0, "z", 1, NULL, 0, 128);
  }
  pt_arena_release(&arena);
  prog = file ? eu_load(file, size) : NULL;
  if (prog) {
    const char *const keys[2] = {"z", "z2"};
    const void *const data[2] = {NULL, NULL};
    const size_t sizes[2] = {0, 0};
    check_public(prog, keys, data, sizes, 2);
    const float x[3] = {3.0f, 0.0f, -1.0f};
    eu_run_x(prog, x, 6.0f, 0.0f, -2.0f);
  }
  ptera_program_destroy(prog);
  pt_free(NULL, file);
}

/* ---- (b) constants + named: forward(x) = x + c, c = {10, 20, 30} ---- */

static const float C10[3] = {10.0f, 20.0f, 30.0f};

static void test_constants_and_named(void) {
  pc_value vals[4] = {eu_f3(PC_STORAGE_PLANNED, NULL, 0), eu_f3(PC_STORAGE_CONST, C10, 0),
                      eu_int(1), eu_f3(PC_STORAGE_PLANNED, NULL, 16)};
  const int32_t args[5] = {0, 1, 2, 3, 3}, outs[1] = {3};
  const pc_instr instrs[1] = {{0, args, 5, false}};
  pc_method m = {"forward", vals, 4, IN0, 1, outs, 1, instrs, 1, ADD, 1, BUF32, 1, NULL, 0};
  const pc_named_blob named[1] = {{"k", K3, 3}};
  pc_program desc = {&m, 1, named, 1};
  /* Constants {0, 12}; k at round_up(12, 128) = 128: data size 131. */
  const seg want[2] = {{0, 12}, {128, 3}};
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  size_t size = 0;
  uint8_t *file = emit_parse(&desc, NULL, &arena, &pte, &size, want, 2, 131);
  if (file) {
    CHECK(pte.nnamed == 1 && pte.constant_segment.noffsets == 2);
    check_named(&pte, file, 0, "k", 1, K3, 3, 128);
    const uint8_t *cd = NULL;
    pt_err err;
    CHECK(pf_pte_constant(&pte, 1, 12, &cd, &err) == PTERA_OK && cd && !memcmp(cd, C10, 12));
  }
  pt_arena_release(&arena);
  ptera_program *prog = file ? eu_load(file, size) : NULL;
  if (prog) {
    const char *const keys[1] = {"k"};
    const void *const data[1] = {K3};
    const size_t sizes[1] = {3};
    check_public(prog, keys, data, sizes, 1);
    /* {1.5, -2, 0.25} + {10, 20, 30} = {11.5, 18, 30.25}. */
    const float x[3] = {1.5f, -2.0f, 0.25f};
    eu_run_x(prog, x, 11.5f, 18.0f, 30.25f);
  }
  ptera_program_destroy(prog);
  pt_free(NULL, file);
}

/* ---- (c) mutable + named, no constants: forward() = (A = A + A) ---- */

static void test_mutable_and_named(void) {
  static const float A0[3] = {1.0f, -2.0f, 0.5f};
  pc_value vals[2] = {eu_f3(PC_STORAGE_PLANNED, A0, 0), eu_int(1)};
  const int32_t args[5] = {0, 0, 1, 0, 0}, outs[1] = {0};
  const pc_instr instrs[1] = {{0, args, 5, false}};
  pc_method m = {"forward", vals, 2, NULL, 0, outs, 1, instrs, 1, ADD, 1, BUF16, 1, NULL, 0};
  const pc_named_blob named[1] = {{"k", K3, 3}};
  pc_program desc = {&m, 1, named, 1};
  /* Constants {0, 0}; mutable at round_up(0, 128) = 0, 12 bytes; k at 128. */
  const seg want[3] = {{0, 0}, {0, 12}, {128, 3}};
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  size_t size = 0;
  uint8_t *file = emit_parse(&desc, NULL, &arena, &pte, &size, want, 3, 131);
  if (file) {
    CHECK(pte.mutable_data.present && pte.mutable_data.segment_index == 1);
    check_named(&pte, file, 0, "k", 2, K3, 3, 128);
    const uint8_t *d = NULL;
    pt_err err;
    CHECK(pf_pte_mutable(&pte, 1, 12, &d, &err) == PTERA_OK && d && !memcmp(d, A0, 12));
  }
  pt_arena_release(&arena);
  ptera_program *prog = file ? eu_load(file, size) : NULL;
  ptera_method *meth = prog ? eu_open_forward(prog) : NULL;
  if (meth) {
    /* {1, -2, 0.5} doubles each run. */
    CHECK(ptera_method_execute(meth) == PTERA_OK);
    eu_check_f3(ptera_method_output(meth, 0), 2.0f, -4.0f, 1.0f);
    CHECK(ptera_method_execute(meth) == PTERA_OK);
    eu_check_f3(ptera_method_output(meth, 0), 4.0f, -8.0f, 2.0f);
  }
  ptera_method_destroy(meth);
  if (prog) {
    const char *const keys[1] = {"k"};
    const void *const data[1] = {K3};
    const size_t sizes[1] = {3};
    check_public(prog, keys, data, sizes, 1);
  }
  ptera_program_destroy(prog);
  pt_free(NULL, file);
}

/* ---- (d) constants + mutable + named ----
 * forward(): A += c; B += A; returns (A, B). Values: 0 A (planned 1@0,
 * initial {10, 20, 30}), 1 c (const {1, 2, 3}), 2 alpha 1, 3 B (planned
 * 1@16, initial {100, 200, 300}). Named: w (20 bytes), v (1 byte). */

static const float A0[3] = {10, 20, 30}, B0[3] = {100, 200, 300}, C123[3] = {1, 2, 3};
static pc_value full_vals[4];
static const int32_t full_a1[5] = {0, 1, 2, 0, 0}, full_a2[5] = {3, 0, 2, 3, 3},
                     full_outs[2] = {0, 3};
static const pc_instr full_instrs[2] = {{0, full_a1, 5, false}, {0, full_a2, 5, false}};
static const pc_named_blob full_named[2] = {{"w", W20, 20}, {"v", V1, 1}};
static pc_method full_method;
static pc_program full_program;

static void make_full(void) {
  full_vals[0] = eu_f3(PC_STORAGE_PLANNED, A0, 0);
  full_vals[1] = eu_f3(PC_STORAGE_CONST, C123, 0);
  full_vals[2] = eu_int(1);
  full_vals[3] = eu_f3(PC_STORAGE_PLANNED, B0, 16);
  full_method = (pc_method){"forward", full_vals, 4, NULL, 0, full_outs, 2, full_instrs, 2, ADD, 1,
                            BUF32, 1, NULL, 0};
  full_program = (pc_program){&full_method, 1, full_named, 2};
}

static void run_full(ptera_program *prog) {
  ptera_method *meth = eu_open_forward(prog);
  if (!meth) return;
  /* Run 1: A = {11, 22, 33}, B = {111, 222, 333}. */
  CHECK(ptera_method_execute(meth) == PTERA_OK);
  eu_check_f3(ptera_method_output(meth, 0), 11, 22, 33);
  eu_check_f3(ptera_method_output(meth, 1), 111, 222, 333);
  /* Run 2: A = {12, 24, 36}, B = {123, 246, 369}. */
  CHECK(ptera_method_execute(meth) == PTERA_OK);
  eu_check_f3(ptera_method_output(meth, 0), 12, 24, 36);
  eu_check_f3(ptera_method_output(meth, 1), 123, 246, 369);
  ptera_method_destroy(meth);
}

static const char *write_tmp(const uint8_t *data, size_t size) {
  static char path[128];
  snprintf(path, sizeof path, "/tmp/ptera_test_emit_named_%ld.pte", (long)getpid());
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return NULL;
  CHECK(fwrite(data, 1, size, f) == size);
  fclose(f);
  return path;
}

#ifdef PTERA_CLI
/* Runs `ptera inspect path [args]` and returns its output (static). */
static const char *inspect(const char *path, const char *args) {
  static char buf[16384];
  char cmd[512];
  snprintf(cmd, sizeof cmd, "'%s' inspect '%s' %s", PTERA_CLI, path, args);
  FILE *f = popen(cmd, "r");
  CHECK(f != NULL);
  if (!f) return "";
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  CHECK(pclose(f) == 0);
  return buf;
}
#endif

static void test_all_three(void) {
  make_full();
  const char *const keys[2] = {"w", "v"};
  const void *const data[2] = {W20, V1};
  const size_t sizes[2] = {20, 1};
  for (int pass = 0; pass < 2; pass++) {
    /* Default alignment 128: constants {0, 12}, mutable (A0 then B0
     * unpadded) at 128, 24 bytes, ends 152; w at 256 (ends 276), v at 384:
     * data size 385. With segment_alignment 64: mutable at 64 (ends 88), w at
     * 128 (ends 148), v at 192: data size 193. */
    pc_emit_options opt = {NULL, 0, pass ? 64 : 0};
    uint64_t a = pass ? 64 : 128;
    const seg want[4] = {{0, 12}, {a, 24}, {2 * a, 20}, {3 * a, 1}};
    pt_arena arena;
    pt_arena_init(&arena, NULL);
    pf_pte pte;
    size_t size = 0;
    uint8_t *file = emit_parse(&full_program, &opt, &arena, &pte, &size, want, 4, 3 * a + 1);
    if (file) {
      CHECK(pte.nnamed == 2);
      check_named(&pte, file, 0, "w", 2, W20, 20, a);
      check_named(&pte, file, 1, "v", 3, V1, 1, a);
      CHECK(pte.mutable_data.present && pte.mutable_data.segment_index == 1 &&
            pte.mutable_data.noffsets == 3 && pte.mutable_data.offsets[2] == 12);
      const uint8_t *d = NULL;
      pt_err err;
      CHECK(pf_pte_constant(&pte, 1, 12, &d, &err) == PTERA_OK && d && !memcmp(d, C123, 12));
      CHECK(pf_pte_mutable(&pte, 1, 12, &d, &err) == PTERA_OK && d && !memcmp(d, A0, 12));
      CHECK(pf_pte_mutable(&pte, 2, 12, &d, &err) == PTERA_OK && d && !memcmp(d, B0, 12));
    }
    pt_arena_release(&arena);
    ptera_program *prog = file ? eu_load(file, size) : NULL;
    if (prog) {
      check_public(prog, keys, data, sizes, 2);
      run_full(prog);
    }
    ptera_program_destroy(prog);
#ifdef PTERA_CLI
    if (file && pass == 0) {
      const char *path = write_tmp(file, size);
      if (path) {
        const char *text = inspect(path, "");
        CHECK(strstr(text, "named data 'w': segment 2, 20 bytes\n") != NULL);
        CHECK(strstr(text, "named data 'v': segment 3, 1 bytes\n") != NULL);
        const char *json = inspect(path, "--json");
        CHECK(strstr(json, "\"named_data\":[{\"key\":\"w\",\"segment\":2,\"nbytes\":20},"
                           "{\"key\":\"v\",\"segment\":3,\"nbytes\":1}]") != NULL);
        if (!strstr(json, "\"named_data\"")) fprintf(stderr, "inspect --json:\n%s\n", json);
        unlink(path);
      }
    }
#else
    (void)write_tmp;
#endif
    pt_free(NULL, file);
  }
}

/* ---- (e) bad descriptions ---- */

static void expect_bad(const pc_program *desc, const char *needle) {
  uint8_t *file = (uint8_t *)1;
  size_t size = 1;
  pt_err err;
  pt_err_clear(&err);
  CHECK(pc_emit_pte(desc, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT && !file && !size);
  CHECK(strstr(err.msg, needle) != NULL);
  if (!strstr(err.msg, needle)) fprintf(stderr, "message '%s' lacks '%s'\n", err.msg, needle);
}

static void test_bad_named(void) {
  make_full();
  pc_named_blob named[3] = {{"w", W20, 20}, {"v", V1, 1}, {"w", V1, 1}};
  pc_program desc = {&full_method, 1, named, 3};
  expect_bad(&desc, "'w' appears twice");
  named[2].key = "";
  expect_bad(&desc, "named data 2: no key");
  named[2].key = NULL;
  expect_bad(&desc, "named data 2: no key");
  named[2].key = "u";
  named[2].data = NULL;
  expect_bad(&desc, "named data 'u': no data");
  named[2].nbytes = 0; /* NULL data is fine when empty */
  uint8_t *file = NULL;
  size_t size = 0;
  pt_err err;
  CHECK(pc_emit_pte(&desc, NULL, &file, &size, &err) == PTERA_OK && file);
  pt_free(NULL, file);
  desc.named = NULL;
  expect_bad(&desc, "NULL array");
}

/* ---- (f) failing the N-th allocation fails cleanly, without leaks ---- */

static void test_alloc_failures(void) {
  make_full();
  eu_alloc_failures(&full_program, 6);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_named_alone();
  test_constants_and_named();
  test_mutable_and_named();
  test_all_three();
  test_bad_named();
  test_alloc_failures();
  return check_summary("emit_named");
}
