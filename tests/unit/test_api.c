/* The public C API end to end on corpus programs: the three load paths,
 * metadata, caller-supplied planned buffers, no heap use in execute (also
 * with a thread pool attached; test_kernel_lifecycle covers a prepared
 * kernel), .ptd
 * handling and the errors a user acts on. Expected values are ExecuTorch's
 * (expected/) or follow from the model (AddModel: y = x + 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptera/ptera.h"

static const char *corpus;
static char pathbuf[3][4096];

static const char *pte(int slot, const char *name) {
  snprintf(pathbuf[slot], sizeof pathbuf[slot], "%s/pte/%s", corpus, name);
  return pathbuf[slot];
}

#define ADD_MODEL "pytorch+executorch__examples_arduino_examples_AddModel_model.pte"
#define XOR_PTE "pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.pte"
#define XOR_PTD "pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.ptd"

/* A counting allocator over malloc. */
static size_t live, calls;
static void *count_alloc(void *ud, size_t size, size_t align) {
  (void)ud;
  calls++;
  live++;
  if (align < 16) align = 16;
  return aligned_alloc(align, (size + align - 1) & ~(align - 1));
}
static void count_free(void *ud, void *p) {
  (void)ud;
  if (p) live--;
  free(p);
}
static const ptera_allocator counting = {count_alloc, count_free, NULL};

static void check_add_model(ptera_program *p, const ptera_method_options *mo) {
  ptera_method *m;
  CHECK(ptera_method_create(p, "forward", mo, &m) == PTERA_OK);
  float x[3] = {1.5f, -2.0f, 0.25f};
  int32_t sizes[1] = {3};
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, sizeof x) == PTERA_OK);
  size_t before = calls;
  CHECK(ptera_method_execute(m) == PTERA_OK);
  CHECK(calls == before); /* execute makes no heap allocation */
  const ptera_value *y = ptera_method_output(m, 0);
  CHECK(y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->numel == 3);
  const float *yd = y->u.tensor->data;
  CHECK(yd[0] == 2.5f && yd[1] == -1.0f && yd[2] == 1.25f);
  ptera_method_destroy(m);
}

static int read_cb(void *ud, uint64_t off, void *dst, size_t n) {
  memcpy(dst, (const uint8_t *)ud + off, n);
  return 0;
}

static void test_load_paths(void) {
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.allocator = &counting;
  ptera_program *p;
  CHECK(ptera_program_load_file(pte(0, ADD_MODEL), &o, &p) == PTERA_OK);
  check_add_model(p, NULL);
  ptera_method_info info = PTERA_METHOD_INFO_INIT;
  CHECK(ptera_program_method_info(p, "forward", &info) == PTERA_OK);
  CHECK(info.num_inputs == 1 && info.num_outputs == 1 && info.num_planned_buffers == 1);
  uint64_t bsize = 0;
  CHECK(ptera_program_method_buffer_size(p, "forward", 0, &bsize) == PTERA_OK && bsize == 32);
  ptera_io_info io = PTERA_IO_INFO_INIT;
  CHECK(ptera_program_method_input(p, "forward", 0, &io) == PTERA_OK);
  CHECK(io.tag == PTERA_TAG_TENSOR && io.dtype == PTERA_DTYPE_FLOAT && io.dim == 1 && io.sizes[0] == 3);
  CHECK(io.memory_planned && io.nbytes == 12 && io.dynamism == PTERA_SHAPE_STATIC);
  const char *name, *overload;
  CHECK(ptera_program_method_operator(p, "forward", 0, &name, &overload) == PTERA_OK);
  CHECK(strcmp(name, "aten::add") == 0 && strcmp(overload, "out") == 0);
  CHECK(ptera_program_method_info(p, "nope", &info) == PTERA_NOT_FOUND);
  CHECK(strstr(ptera_program_errmsg(p), "nope") != NULL);

  /* Caller-supplied planned buffer. */
  _Alignas(64) static uint8_t arena[64];
  void *bufs[1] = {arena};
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.planned_buffers = bufs;
  mo.num_planned_buffers = 1;
  check_add_model(p, &mo);
  /* With a thread pool attached, execute still allocates nothing. */
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, &counting, &pool) == PTERA_OK);
  ptera_method_options po = PTERA_METHOD_OPTIONS_INIT;
  po.threadpool = pool;
  check_add_model(p, &po);
  ptera_threadpool_destroy(pool);
  ptera_program_destroy(p);
  CHECK(live == 0);

  size_t size;
  uint8_t *bytes = check_read_file(pte(0, ADD_MODEL), &size);
  CHECK(bytes != NULL);
  CHECK(ptera_program_load_buffer(bytes, size, &o, &p) == PTERA_OK);
  check_add_model(p, NULL);
  ptera_program_destroy(p);
  CHECK(ptera_program_load_callback(read_cb, bytes, size, &o, &p) == PTERA_OK);
  check_add_model(p, NULL);
  ptera_program_destroy(p);
  /* An unaligned caller buffer is copied, then works the same. */
  uint8_t *odd = malloc(size + 1);
  memcpy(odd + 1, bytes, size);
  CHECK(ptera_program_load_buffer(odd + 1, size, &o, &p) == PTERA_OK);
  check_add_model(p, NULL);
  ptera_program_destroy(p);
  free(odd);
  free(bytes);
  CHECK(live == 0);
}

static void test_errors(void) {
  ptera_program *p;
  /* ET02: rejected, naming what was found. */
  CHECK(ptera_program_load_file(pte(0, "pytorch+executorch__exir_backend_test_add_mul.ff.pte"), NULL, &p) ==
        PTERA_INVALID_PROGRAM);
  CHECK(strstr(ptera_program_errmsg(p), "ET02") != NULL);
  ptera_program_destroy(p);
  CHECK(ptera_program_load_file("/nonexistent.pte", NULL, &p) == PTERA_ACCESS_FAILED);
  ptera_program_destroy(p);

  /* A missing operator names op, method and instruction. */
  CHECK(ptera_program_load_file(pte(0, "pytorch+executorch__backends_native_ir_test_testdata_diamond.bin.pte"),
                                NULL, &p) == PTERA_OK);
  ptera_method *m;
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OPERATOR_MISSING);
  CHECK(strstr(ptera_method_errmsg(m), "aten::add.Tensor") && strstr(ptera_method_errmsg(m), "forward") &&
        strstr(ptera_method_errmsg(m), "instruction"));
  ptera_method_destroy(m);
  ptera_program_destroy(p);

  /* An unavailable backend names the id, the method and the registered backends;
   * the file's other methods still run. */
  CHECK(ptera_program_load_file(
            pte(0, "pytorch+executorch__examples_qualcomm_oss_scripts_llama_artifacts_stories260k_hybrid_llama_qnn__blob-942773b0.pte"),
            NULL, &p) == PTERA_OK);
  CHECK(ptera_program_method_count(p) == 29);
  CHECK(ptera_method_create(p, "kv_forward", NULL, &m) == PTERA_NOT_FOUND);
  CHECK(strstr(ptera_method_errmsg(m), "QnnBackend") && strstr(ptera_method_errmsg(m), "kv_forward") &&
        strstr(ptera_method_errmsg(m), "registered backends"));
  ptera_method_destroy(m);
  CHECK(ptera_method_create(p, "get_vocab_size", NULL, &m) == PTERA_OK);
  CHECK(ptera_method_execute(m) == PTERA_OK);
  const ptera_value *v = ptera_method_output(m, 0);
  CHECK(v && v->tag == PTERA_TAG_INT && v->u.i == 512); /* expected/.../get_vocab_size */
  ptera_method_destroy(m);
  ptera_program_destroy(p);

  /* Scalar inputs must equal the exported value (expected/: case2 fails in set_input). */
  CHECK(ptera_program_load_file(pte(0, "corey-cole+djl-executorch-engine__native_spike_prim_input.pte"), NULL, &p) ==
        PTERA_OK);
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
  CHECK(ptera_method_set_input_double(m, 1, 3.0) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_method_set_input_double(m, 1, 2.0) == PTERA_OK);
  CHECK(ptera_method_set_input_int(m, 1, 2) == PTERA_INVALID_ARGUMENT); /* wrong kind */
  CHECK(ptera_method_execute(m) == PTERA_INVALID_ARGUMENT);             /* input 0 not set */
  ptera_method_destroy(m);
  ptera_program_destroy(p);

  /* Planned memory over the caller's limit. */
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_planned_bytes = 1 << 20;
  CHECK(ptera_program_load_file(pte(0, "corey-cole+djl-executorch-engine__native_spike_med_output.pte"), &o, &p) ==
        PTERA_OK);
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_MEMORY_ALLOCATION_FAILED);
  CHECK(strstr(ptera_method_errmsg(m), "536870928") != NULL);
  ptera_method_destroy(m);
  ptera_program_destroy(p);
}

static void test_data_files(void) {
  ptera_program *p;
  ptera_method *m;
  CHECK(ptera_program_load_file(pte(0, XOR_PTE), NULL, &p) == PTERA_OK);
  /* Without its .ptd: a clean error naming the key and the remedy. */
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_INVALID_EXTERNAL_DATA);
  CHECK(strstr(ptera_method_errmsg(m), "net.linear.weight") && strstr(ptera_method_errmsg(m), ".ptd"));
  ptera_method_destroy(m);
  CHECK(ptera_program_attach_data_file(p, pte(1, XOR_PTD)) == PTERA_OK);
  /* The same keys again: a duplicate key is an error. */
  CHECK(ptera_program_attach_data_file(p, pte(1, XOR_PTD)) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(ptera_program_errmsg(p), "net.linear") != NULL);
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_OK);
  ptera_method_destroy(m);
  ptera_program_destroy(p);

  /* A .ptd from another model: the key is not there. */
  CHECK(ptera_program_load_file(pte(0, XOR_PTE), NULL, &p) == PTERA_OK);
  CHECK(ptera_program_attach_data_file(
            p, pte(1, "barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd")) == PTERA_OK);
  CHECK(ptera_method_create(p, "forward", NULL, &m) == PTERA_NOT_FOUND);
  CHECK(strstr(ptera_method_errmsg(m), "net.linear.weight") && strstr(ptera_method_errmsg(m), "another export"));
  ptera_method_destroy(m);
  ptera_program_destroy(p);
}

static ptera_status fake_init(ptera_backend_init_ctx *c, const void *b, size_t n, const ptera_compile_spec *s,
                              size_t ns, void **h) {
  (void)c; (void)b; (void)n; (void)s; (void)ns; (void)h;
  return PTERA_OK;
}
static ptera_status fake_exec(ptera_backend_exec_ctx *c, void *h, ptera_value **a, size_t n) {
  (void)c; (void)h; (void)a; (void)n;
  return PTERA_OK;
}

static void test_registries(void) {
  static const ptera_backend bad_abi = {99, "Other", NULL, fake_init, fake_exec, NULL};
  static const ptera_backend ok = {PTERA_BACKEND_ABI_VERSION, "TestOnlyBackend", NULL, fake_init, fake_exec, NULL};
  static const ptera_backend v1 = {1u, "TestOnlyV1Backend", NULL, fake_init, fake_exec, NULL};
  static const ptera_backend dup_builtin = {PTERA_BACKEND_ABI_VERSION, "XnnpackBackend", NULL, fake_init, fake_exec, NULL};
  CHECK(ptera_backend_register(&bad_abi) == PTERA_NOT_SUPPORTED);
  CHECK(ptera_backend_register(&ok) == PTERA_OK);
  CHECK(ptera_backend_register(&ok) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_backend_register(&v1) == PTERA_OK); /* ABI v1 backends still register */
  CHECK(ptera_backend_register(&dup_builtin) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_backend_find("TestOnlyBackend", 15) == &ok);
  const ptera_backend *xnn = ptera_backend_find("XnnpackBackend", 14);
  CHECK(xnn && xnn->is_available && xnn->is_available()); /* built in */
  CHECK(ptera_backend_at(ptera_backend_count() - 1) == xnn);
  /* The registered backends are listed when another is missing. */
  ptera_program *p;
  ptera_method *m;
  CHECK(ptera_program_load_file(
            pte(0, "pytorch+executorch__examples_qualcomm_oss_scripts_llama_artifacts_stories260k_hybrid_llama_qnn__blob-942773b0.pte"),
            NULL, &p) == PTERA_OK);
  CHECK(ptera_method_create(p, "kv_forward", NULL, &m) == PTERA_NOT_FOUND);
  CHECK(strstr(ptera_method_errmsg(m), "QnnBackend") && strstr(ptera_method_errmsg(m), "TestOnlyBackend") &&
        strstr(ptera_method_errmsg(m), "XnnpackBackend"));
  ptera_method_destroy(m);
  ptera_program_destroy(p);

  CHECK(ptera_kernel_find("aten::add.out", 13) != NULL);
  CHECK(ptera_kernel_find("aten::add.ou", 12) == NULL);
  static const ptera_kernel_entry dup[] = {{"aten::add.out", NULL}};
  CHECK(ptera_kernel_register(dup, 1) == PTERA_INVALID_ARGUMENT);
  CHECK(strcmp(ptera_status_name(PTERA_OPERATOR_MISSING), "OperatorMissing") == 0);
  CHECK(strcmp(ptera_status_name((ptera_status)0x7777), "Unknown") == 0);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_load_paths();
  test_errors();
  test_data_files();
  test_registries();
  return check_summary("api");
}
