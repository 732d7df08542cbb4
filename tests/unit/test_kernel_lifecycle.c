/* The kernel lifecycle (kernel.h): a user kernel def with a prepare step,
 * run through a method built with the emitter. forward(x) = f(f(x, c), c)
 * with f(a, c) = a + 2c, c = {10, 20, 30} a constant: prepare packs 2c into
 * method-owned memory and declares a workspace; run must see that state and
 * that much temp. Also: registration errors, a failing prepare (message
 * names method, instruction and op), allocation-failure injection over load
 * + create (prepare's allocations included) and no heap use in execute. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit_util.h"
#include "ptera/ptera.h"

#define WORKSPACE (64u << 10) /* above the 4 KiB the portable kernels need here */

typedef struct packed_add {
  float twice_c[3];
  size_t workspace;
} packed_add;

static int prepares, runs_prepared, runs_unprepared;

static ptera_status scaled_add_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t n) {
  prepares++;
  if (n != 3 || args[1]->tag != PTERA_TAG_TENSOR || args[1]->u.tensor->numel != 3)
    return ptera_kernel_prepare_fail(ctx, PTERA_INVALID_ARGUMENT, "bad args");
  const ptera_tensor *c = args[1]->u.tensor;
  if (!(c->flags & PTERA_TENSOR_CONST) || !c->data) return PTERA_OK; /* stays unprepared */
  packed_add *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 64);
  if (!s) return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  CHECK(((uintptr_t)s & 63) == 0);
  for (int i = 0; i < 3; i++) s->twice_c[i] = 2.0f * ((const float *)c->data)[i];
  s->workspace = WORKSPACE;
  ptera_kernel_prepare_workspace(ctx, WORKSPACE);
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

static ptera_status scaled_add_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t n) {
  if (n != 3) return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "bad args");
  const float *a = args[0]->u.tensor->data, *c = args[1]->u.tensor->data;
  float *out = args[2]->u.tensor->data;
  const packed_add *s = ptera_kernel_state(ctx);
  if (s) {
    uint8_t *ws = ptera_kernel_temp(ctx, s->workspace, 64);
    if (!ws) return ptera_kernel_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "no workspace");
    memset(ws, 0xA5, s->workspace);
    runs_prepared++;
    for (int i = 0; i < 3; i++) out[i] = a[i] + s->twice_c[i];
  } else {
    runs_unprepared++;
    for (int i = 0; i < 3; i++) out[i] = a[i] + 2.0f * c[i];
  }
  return PTERA_OK;
}

static ptera_status failing_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t n) {
  (void)args;
  (void)n;
  /* An allocation made before failing is still freed with the method. */
  if (!ptera_kernel_prepare_alloc(ctx, 100, 16))
    return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  return ptera_kernel_prepare_fail(ctx, PTERA_INVALID_PROGRAM, "weights of rank %d", 7);
}

static const ptera_kernel_def DEFS[2] = {
    {PTERA_KERNEL_ABI_VERSION, "ptera_test::scaled_add.out", scaled_add_run, scaled_add_prepare},
    {PTERA_KERNEL_ABI_VERSION, "ptera_test::failing.out", scaled_add_run, failing_prepare},
};

static const float C[3] = {10.0f, 20.0f, 30.0f};

/* Values: 0 x (planned @0), 1 c (const), 2 y (planned @16), 3 z (planned @32). */
static uint8_t *emit_program(const char *op, size_t *size) {
  static pc_value values[4];
  static const int32_t a1[3] = {0, 1, 2}, a2[3] = {2, 1, 3}, in0[1] = {0}, out3[1] = {3};
  static const pc_instr instrs[2] = {{0, a1, 3}, {0, a2, 3}};
  static const int64_t bufs[1] = {48};
  static pc_operator ops[1];
  static pc_method method;
  values[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  values[1] = eu_f3(PC_STORAGE_CONST, C, 0);
  values[2] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  values[3] = eu_f3(PC_STORAGE_PLANNED, NULL, 32);
  ops[0] = (pc_operator){op, "out"};
  method = (pc_method){"forward", values, 4, in0, 1, out3, 1, instrs, 2, ops, 1, bufs, 1};
  pc_program prog = {&method, 1, NULL, 0};
  return eu_emit(&prog, NULL, size);
}

static void test_registration(void) {
  CHECK(ptera_register_kernel_defs(DEFS, 2) == PTERA_OK);
  CHECK(ptera_register_kernel_defs(DEFS, 1) == PTERA_REGISTRATION_ALREADY_REGISTERED);
  ptera_kernel_def bad = {PTERA_KERNEL_ABI_VERSION + 1, "ptera_test::other.out", scaled_add_run, NULL};
  CHECK(ptera_register_kernel_defs(&bad, 1) == PTERA_NOT_SUPPORTED);
  ptera_kernel_def norun = {PTERA_KERNEL_ABI_VERSION, "ptera_test::other.out", NULL, NULL};
  CHECK(ptera_register_kernel_defs(&norun, 1) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_register_kernel_defs(NULL, 1) == PTERA_INVALID_ARGUMENT);
  /* The old entry API still works and sees defs as registered names. */
  ptera_kernel_entry dup = {"ptera_test::scaled_add.out", scaled_add_run};
  CHECK(ptera_register_kernels(&dup, 1) == PTERA_REGISTRATION_ALREADY_REGISTERED);
  CHECK(ptera_find_kernel("ptera_test::scaled_add.out", 26) == scaled_add_run);
  bool listed = false;
  for (size_t i = 0; i < ptera_kernel_count(); i++)
    if (!strcmp(ptera_kernel_name(i), "ptera_test::failing.out")) listed = true;
  CHECK(listed);
}

static void test_prepared_run(const uint8_t *file, size_t size) {
  ptera_load_options lo = {0};
  lo.allocator = &eu_tracking;
  ptera_program *p = NULL;
  eu_live = eu_calls = eu_fail_at = 0;
  CHECK(ptera_program_load_buffer(file, size, &lo, &p) == PTERA_OK);
  prepares = runs_prepared = runs_unprepared = 0;
  ptera_method *m = NULL;
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
  CHECK(prepares == 2 && runs_prepared == 0);
  const float x[3] = {1.5f, -2.0f, 0.25f};
  for (int rep = 0; rep < 3; rep++) {
    size_t before = eu_calls;
    eu_exec_x(m, x, 41.5f, 78.0f, 120.25f); /* x + 4c */
    CHECK(eu_calls == before);              /* execute makes no heap allocation */
  }
  CHECK(runs_prepared == 6 && runs_unprepared == 0 && prepares == 2);
  ptera_method_destroy(m);
  /* A temp_size below the declared workspace overrides it: run fails cleanly. */
  ptera_method_options mo = {0};
  mo.temp_size = WORKSPACE - 1;
  CHECK(ptera_method_create(p, "forward", &mo, &m) == PTERA_OK);
  const int32_t sizes[1] = {3};
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, 12) == PTERA_OK);
  CHECK(ptera_method_execute(m) == PTERA_MEMORY_ALLOCATION_FAILED);
  CHECK(strstr(ptera_method_errmsg(m), "no workspace") != NULL);
  ptera_method_destroy(m);
  ptera_program_destroy(p);
  CHECK(eu_live == 0);
}

static void test_failing_prepare(const uint8_t *file, size_t size) {
  ptera_load_options lo = {0};
  lo.allocator = &eu_tracking;
  ptera_program *p = NULL;
  eu_live = eu_calls = eu_fail_at = 0;
  CHECK(ptera_program_load_buffer(file, size, &lo, &p) == PTERA_OK);
  ptera_method *m = NULL;
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_INVALID_PROGRAM);
  const char *msg = ptera_method_errmsg(m);
  CHECK(strstr(msg, "method 'forward' instruction 0 (ptera_test::failing.out)") &&
        strstr(msg, "weights of rank 7"));
  CHECK(ptera_method_execute(m) == PTERA_INVALID_STATE);
  ptera_method_destroy(m);
  ptera_program_destroy(p);
  CHECK(eu_live == 0);
}

/* Fails allocation n = 1, 2, ... of load + create + execute until all
 * succeed: each failure is MemoryAllocationFailed with a message and leaves
 * nothing live; some of them hit prepare. */
static void test_alloc_failures(const uint8_t *file, size_t size) {
  ptera_load_options lo = {0};
  lo.allocator = &eu_tracking;
  int in_prepare = 0, failures = 0;
  for (size_t n = 1; n < 10000; n++) {
    eu_live = eu_calls = 0;
    eu_fail_at = n;
    ptera_program *p = NULL;
    ptera_method *m = NULL;
    ptera_status st = ptera_program_load_buffer(file, size, &lo, &p);
    if (st == PTERA_OK) {
      st = ptera_method_create(p, "forward", NULL, &m);
      if (st != PTERA_OK && m && strstr(ptera_method_errmsg(m), "prepare failed")) in_prepare++;
      if (st != PTERA_OK) CHECK(m == NULL || ptera_method_errmsg(m)[0]);
    }
    bool done = st == PTERA_OK;
    if (done) {
      eu_fail_at = 0;
      eu_exec_x(m, (const float[3]){0, 0, 0}, 40.0f, 80.0f, 120.0f);
    } else {
      failures++;
      CHECK(st == PTERA_MEMORY_ALLOCATION_FAILED);
    }
    ptera_method_destroy(m);
    ptera_program_destroy(p);
    CHECK(eu_live == 0);
    if (done) break;
  }
  eu_fail_at = 0;
  CHECK(failures > 5 && in_prepare == 2);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_registration();
  size_t size = 0, fsize = 0;
  uint8_t *file = emit_program("ptera_test::scaled_add", &size);
  uint8_t *failing = emit_program("ptera_test::failing", &fsize);
  if (file && failing) {
    test_prepared_run(file, size);
    test_failing_prepare(failing, fsize);
    test_alloc_failures(file, size);
  }
  pt_free(NULL, file);
  pt_free(NULL, failing);
  return check_summary("kernel_lifecycle");
}
