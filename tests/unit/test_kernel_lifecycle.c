/* The kernel lifecycle (kernel.h): a user kernel def with a prepare step,
 * run through a method built with the emitter. forward(x) = f(f(x, c), c)
 * with f(a, c) = a + 2c, c = {10, 20, 30} a constant: prepare packs 2c into
 * method-owned memory and declares a workspace; run must see that state and
 * that much temp. Also: registration errors, a failing prepare (message
 * names method, instruction and op), allocation-failure injection over load
 * + create (prepare's allocations included) and no heap use in execute.
 * Then a prepared kernel that splits its work with ptera_kernel_parallel_for,
 * out = x + 3c over 4096 floats, in two methods sharing one thread pool and
 * executed from two threads at once (scripts/tsan.sh runs this test), and
 * the profiling hook and memory report (method.h) on both programs and on
 * a corpus program whose one instruction is a delegate (a stand-in backend). */
#include <pthread.h>
#include <stdatomic.h>
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
  static const pc_instr instrs[2] = {{0, a1, 3, false}, {0, a2, 3, false}};
  static const int64_t bufs[1] = {48};
  static pc_operator ops[1];
  static pc_method method;
  values[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  values[1] = eu_f3(PC_STORAGE_CONST, C, 0);
  values[2] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  values[3] = eu_f3(PC_STORAGE_PLANNED, NULL, 32);
  ops[0] = (pc_operator){op, "out"};
  method = (pc_method){"forward", values, 4, in0, 1, out3, 1, instrs, 2, ops, 1, bufs, 1, NULL, 0};
  pc_program prog = {&method, 1, NULL, 0};
  return eu_emit(&prog, NULL, size);
}

static void test_registration(void) {
  CHECK(ptera_kernel_register_defs(DEFS, 2) == PTERA_OK);
  CHECK(ptera_kernel_register_defs(DEFS, 1) == PTERA_REGISTRATION_ALREADY_REGISTERED);
  ptera_kernel_def bad = {PTERA_KERNEL_ABI_VERSION + 1, "ptera_test::other.out", scaled_add_run, NULL};
  CHECK(ptera_kernel_register_defs(&bad, 1) == PTERA_NOT_SUPPORTED);
  ptera_kernel_def norun = {PTERA_KERNEL_ABI_VERSION, "ptera_test::other.out", NULL, NULL};
  CHECK(ptera_kernel_register_defs(&norun, 1) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_kernel_register_defs(NULL, 1) == PTERA_INVALID_ARGUMENT);
  /* The old entry API still works and sees defs as registered names. */
  ptera_kernel_entry dup = {"ptera_test::scaled_add.out", scaled_add_run};
  CHECK(ptera_kernel_register(&dup, 1) == PTERA_REGISTRATION_ALREADY_REGISTERED);
  CHECK(ptera_kernel_find("ptera_test::scaled_add.out", 26) == scaled_add_run);
  bool listed = false;
  for (size_t i = 0; i < ptera_kernel_count(); i++)
    if (!strcmp(ptera_kernel_name(i), "ptera_test::failing.out")) listed = true;
  CHECK(listed);
}

static void test_prepared_run(const uint8_t *file, size_t size) {
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
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
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
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

/* ---- profiling hook and memory report ---- */

typedef struct hook_log {
  ptera_instr_event ev[16];
  int runs_at[16]; /* runs_prepared when the event came */
  int n;
} hook_log;

static void record(void *user, const ptera_instr_event *ev) {
  hook_log *l = user;
  if (l->n < 16) {
    l->ev[l->n] = *ev;
    l->runs_at[l->n] = runs_prepared;
  }
  l->n++;
}

static void test_hook_and_memory(const uint8_t *file, size_t size) {
  ptera_program *p = eu_load(file, size);
  if (!p) return;
  ptera_method *m = NULL;
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
  ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK);
  CHECK(mem.planned_bytes == 48);                       /* the program's one 48-byte arena */
  CHECK(mem.packed_bytes == 2 * sizeof(packed_add));    /* one state per instruction */
  CHECK(mem.temp_bytes == WORKSPACE);                   /* the declared workspace wins */
  CHECK(mem.arena_bytes >= 4096 && mem.arena_bytes < (1u << 20));
  hook_log log = {0};
  ptera_method_set_instr_hook(m, record, &log);
  runs_prepared = 0;
  const float x[3] = {0, 1, 2};
  eu_exec_x(m, x, 40.0f, 81.0f, 122.0f);
  CHECK(log.n == 4);
  for (int i = 0; i < 4 && i < log.n; i++) {
    const ptera_instr_event *e = &log.ev[i];
    CHECK(e->chain == 0 && e->index == (uint32_t)(i / 2) && e->end == i % 2 &&
          e->kind == PTERA_INSTR_KERNEL && !strcmp(e->name, "ptera_test::scaled_add.out"));
    CHECK(log.runs_at[i] == (i + 1) / 2); /* begin before the kernel ran, end after */
  }
  ptera_method_set_instr_hook(m, NULL, NULL);
  log.n = 0;
  eu_exec_x(m, x, 40.0f, 81.0f, 122.0f);
  CHECK(log.n == 0);
  ptera_method_destroy(m);
  /* temp_size overrides; the portable bound applies without a workspace. */
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.temp_size = 12345;
  CHECK(ptera_method_create(p, "forward", &mo, &m) == PTERA_OK);
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK && mem.temp_bytes == 12345);
  ptera_method_destroy(m);
  CHECK(ptera_method_create(p, "nope", NULL, &m) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_INVALID_STATE && mem.temp_bytes == 0);
  CHECK(ptera_method_get_memory(NULL, &mem) == PTERA_INVALID_ARGUMENT);
  ptera_method_destroy(m);
  ptera_program_destroy(p);
}

/* A stand-in for the OpenVINO backend of a corpus program: init keeps a
 * handle and 1000 bytes of "weights" from the init allocator (and frees a
 * scratch block); the memory report counts what it holds as packed bytes. */
typedef struct fake_handle {
  const ptera_allocator *a;
  void *weights;
} fake_handle;

static int fake_execs;

static ptera_status fake_init(ptera_backend_init_ctx *c, const void *blob, size_t n,
                              const ptera_compile_spec *specs, size_t nspecs, void **out) {
  (void)blob;
  (void)n;
  (void)specs;
  (void)nspecs;
  void *scratch = c->allocator->alloc(c->allocator->user_data, 500, 8);
  fake_handle *h = c->allocator->alloc(c->allocator->user_data, sizeof *h, 64);
  void *w = c->allocator->alloc(c->allocator->user_data, 1000, 64);
  c->allocator->free(c->allocator->user_data, scratch);
  if (!h || !w || !scratch || ((uintptr_t)h & 63) || ((uintptr_t)w & 63)) return PTERA_MEMORY_ALLOCATION_FAILED;
  h->a = c->allocator;
  h->weights = w;
  *out = h;
  return PTERA_OK;
}
static ptera_status fake_exec(ptera_backend_exec_ctx *c, void *h, ptera_value **a, size_t n) {
  (void)c;
  (void)h;
  (void)a;
  (void)n;
  fake_execs++;
  return PTERA_OK;
}
static void fake_destroy(void *handle) {
  fake_handle *h = handle;
  h->a->free(h->a->user_data, h->weights);
  h->a->free(h->a->user_data, h);
}

static void test_delegate_memory(const char *corpus) {
  static const ptera_backend fake = {PTERA_BACKEND_ABI_VERSION, "OpenvinoBackend", NULL, fake_init,
                                     fake_exec, fake_destroy};
  CHECK(ptera_backend_register(&fake) == PTERA_OK);
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &eu_tracking;
  eu_live = eu_calls = eu_fail_at = 0;
  ptera_program *p = NULL;
  CHECK(ptera_program_load_file(
            check_corpus_path(corpus, "pte/corey-cole+djl-executorch-engine__src_test_resources_models_openvino_openvino_tiny.pte"),
            &lo, &p) == PTERA_OK);
  ptera_method *m = NULL;
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
  ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK);
  CHECK(mem.packed_bytes == sizeof(fake_handle) + 1000);
  static _Alignas(64) uint8_t io[1 << 16];
  for (size_t k = 0; k < ptera_method_input_count(m); k++) {
    const ptera_value *v = ptera_method_input(m, k);
    if (v->tag == PTERA_TAG_TENSOR && ptera_tensor_nbytes(v->u.tensor) <= sizeof io)
      CHECK(ptera_method_set_input_tensor(m, k, (ptera_dtype)v->u.tensor->dtype, v->u.tensor->dim,
                                          v->u.tensor->sizes, io, ptera_tensor_nbytes(v->u.tensor)) ==
            PTERA_OK);
  }
  hook_log log = {0};
  ptera_method_set_instr_hook(m, record, &log);
  CHECK(ptera_method_execute(m) == PTERA_OK && fake_execs == 1);
  CHECK(log.n == 2 && log.ev[0].kind == PTERA_INSTR_DELEGATE && log.ev[0].end == 0 &&
        log.ev[1].end == 1 && log.ev[0].index == 0 && !strcmp(log.ev[0].name, "OpenvinoBackend"));
  ptera_method_destroy(m);
  ptera_program_destroy(p);
  CHECK(eu_live == 0);
}

static void test_failing_prepare(const uint8_t *file, size_t size) {
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
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
static void exec_zeros(ptera_method *m, void *user) { eu_exec_x(m, (const float[3]){0, 0, 0}, 40.0f, 80.0f, 120.0f); }

static void test_alloc_failures(const uint8_t *file, size_t size) {
  int in_prepare;
  size_t failures = eu_load_failures(file, size, "prepare failed", &in_prepare, exec_zeros, NULL);
  CHECK(failures > 5 && in_prepare == 2);
}

/* ---- threads ---- */

#define PN 4096

typedef struct par_state {
  float *thrice_c; /* packed at prepare */
} par_state;

typedef struct par_job {
  const float *x, *k;
  float *out;
} par_job;

static atomic_uint par_runs, par_threads_ok;

static ptera_status par_prepare(ptera_kernel_prepare_ctx *ctx, ptera_value **args, size_t n) {
  if (n != 3 || !(args[1]->u.tensor->flags & PTERA_TENSOR_CONST)) return PTERA_OK;
  par_state *s = ptera_kernel_prepare_alloc(ctx, sizeof *s, 8);
  float *k = ptera_kernel_prepare_alloc(ctx, PN * sizeof(float), 64);
  if (!s || !k) return ptera_kernel_prepare_fail(ctx, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  const float *c = args[1]->u.tensor->data;
  for (size_t i = 0; i < PN; i++) k[i] = 3.0f * c[i];
  s->thrice_c = k;
  ptera_kernel_prepare_set_state(ctx, s);
  return PTERA_OK;
}

static void par_task(void *arg, size_t begin, size_t end) {
  const par_job *j = arg;
  for (size_t i = begin; i < end; i++) j->out[i] = j->x[i] + j->k[i];
}

static ptera_status par_run(ptera_kernel_ctx *ctx, ptera_value **args, size_t n) {
  const par_state *s = ptera_kernel_state(ctx);
  if (n != 3 || !s) return ptera_kernel_fail(ctx, PTERA_INVALID_STATE, "not prepared");
  par_job j = {args[0]->u.tensor->data, s->thrice_c, args[2]->u.tensor->data};
  if (ptera_kernel_thread_count(ctx) == 3) atomic_fetch_add(&par_threads_ok, 1);
  ptera_kernel_parallel_for(ctx, PN, 64, par_task, &j);
  atomic_fetch_add(&par_runs, 1);
  return PTERA_OK;
}

static const ptera_kernel_def PAR_DEF = {PTERA_KERNEL_ABI_VERSION, "ptera_test::par_add.out", par_run,
                                         par_prepare};

static float PC[PN];

static uint8_t *emit_par_program(size_t *size) {
  static pc_value values[3];
  static const int32_t args[3] = {0, 1, 2}, in0[1] = {0}, out2[1] = {2}, sz[1] = {PN};
  static const pc_instr instrs[1] = {{0, args, 3, false}};
  static const int64_t bufs[1] = {2 * PN * sizeof(float)};
  static const pc_operator ops[1] = {{"ptera_test::par_add", "out"}};
  static pc_method method;
  for (size_t i = 0; i < PN; i++) PC[i] = (float)(i % 97) - 40.0f;
  values[0] = eu_tensor_f(PC_STORAGE_PLANNED, 1, sz);
  values[0].u.tensor.memory_id = 1;
  values[1] = eu_tensor_f(PC_STORAGE_CONST, 1, sz);
  values[1].u.tensor.data = PC;
  values[1].u.tensor.nbytes = sizeof PC;
  values[2] = eu_tensor_f(PC_STORAGE_PLANNED, 1, sz);
  values[2].u.tensor.memory_id = 1;
  values[2].u.tensor.memory_offset = PN * sizeof(float);
  method = (pc_method){"forward", values, 3, in0, 1, out2, 1, instrs, 1, ops, 1, bufs, 1, NULL, 0};
  pc_program prog = {&method, 1, NULL, 0};
  return eu_emit(&prog, NULL, size);
}

typedef struct exec_thread {
  ptera_method *m;
  float seed;
  int ok, allocs;
} exec_thread;

static void *exec_main(void *arg) {
  exec_thread *t = arg;
  static _Thread_local float x[PN];
  const int32_t sz[1] = {PN};
  for (int rep = 0; rep < 40; rep++) {
    for (size_t i = 0; i < PN; i++) x[i] = t->seed + (float)rep + (float)(i % 13);
    size_t before = eu_calls;
    bool ok = ptera_method_set_input_tensor(t->m, 0, PTERA_DTYPE_FLOAT, 1, sz, x, sizeof x) == PTERA_OK &&
              ptera_method_execute(t->m) == PTERA_OK;
    t->allocs += eu_calls != before;
    const ptera_value *y = ptera_method_output(t->m, 0);
    const float *yd = ok && y ? y->u.tensor->data : NULL;
    for (size_t i = 0; yd && i < PN; i++) /* exact: small integers */
      ok &= yd[i] == x[i] + 3.0f * PC[i];
    t->ok += ok && yd;
  }
  return NULL;
}

static void test_threads(void) {
  CHECK(ptera_kernel_register_defs(&PAR_DEF, 1) == PTERA_OK);
  size_t size = 0;
  uint8_t *file = emit_par_program(&size);
  if (!file) return;
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &eu_tracking;
  eu_live = eu_calls = eu_fail_at = 0;
  ptera_program *p = NULL;
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(3, &eu_tracking, &pool) == PTERA_OK);
  CHECK(ptera_program_load_buffer(file, size, &lo, &p) == PTERA_OK);
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.threadpool = pool;
  ptera_method *m1 = NULL, *m2 = NULL;
  CHECK(ptera_method_create(p, "forward", &mo, &m1) == PTERA_OK);
  CHECK(ptera_method_create(p, "forward", &mo, &m2) == PTERA_OK);
  ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
  CHECK(ptera_method_get_memory(m1, &mem) == PTERA_OK);
  CHECK(mem.planned_bytes == 2 * PN * sizeof(float) &&
        mem.packed_bytes == sizeof(par_state) + PN * sizeof(float));
  /* No workspace declared: the portable bound, 8 B x max(rank, 2) per element
   * of the largest tensor plus 1 KiB (method.h). */
  CHECK(mem.temp_bytes == 8 * 2 * PN + 1024);
  if (m1 && m2) {
    exec_thread a = {m1, 1.0f, 0, 0}, b = {m2, 1000.0f, 0, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, exec_main, &a) == 0);
    exec_main(&b);
    pthread_join(t, NULL);
    CHECK(a.ok == 40 && b.ok == 40);
    CHECK(a.allocs == 0 && b.allocs == 0); /* execute makes no heap allocation */
    CHECK(atomic_load(&par_runs) == 80);
#ifdef PTERA_HAVE_THREADS
    CHECK(atomic_load(&par_threads_ok) == 80);
#endif
  }
  ptera_method_destroy(m1);
  ptera_method_destroy(m2);
  ptera_program_destroy(p);
  ptera_threadpool_destroy(pool);
  CHECK(eu_live == 0);
  pt_free(NULL, file);
}

int main(int argc, char **argv) {
  const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_registration();
  size_t size = 0, fsize = 0;
  uint8_t *file = emit_program("ptera_test::scaled_add", &size);
  uint8_t *failing = emit_program("ptera_test::failing", &fsize);
  if (file && failing) {
    test_prepared_run(file, size);
    test_failing_prepare(failing, fsize);
    test_hook_and_memory(file, size);
    test_alloc_failures(file, size);
  }
  pt_free(NULL, file);
  pt_free(NULL, failing);
  test_threads();
  test_delegate_memory(corpus);
  return check_summary("kernel_lifecycle");
}
