/* API evolution (ptera/export.h): the version query, sized structs read and
 * written by their struct_size (zero, the first version, a newer caller's
 * longer struct with and without fields this library does not know), and
 * the renamed functions' deprecated aliases. On AddModel (y = x + 1). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#define PTERA_NO_DEPRECATION_WARNINGS /* this test calls the old names on purpose */
#include "ptera/ptera.h"

#define ADD_MODEL "pytorch+executorch__examples_arduino_examples_AddModel_model.pte"

/* A caller built against a newer ptera: one more field at the end. */
typedef struct newer_method_options {
  ptera_method_options v1;
  uint64_t future_field;
} newer_method_options;

typedef struct newer_method_info {
  ptera_method_info v1;
  uint64_t future_field;
} newer_method_info;

static void test_version(void) {
  char want[32];
  snprintf(want, sizeof want, "%u.%u.%u", ptera_version_number() / 10000,
           ptera_version_number() / 100 % 100, ptera_version_number() % 100);
  CHECK(strcmp(ptera_version(), want) == 0);
  CHECK(ptera_version_number() == PTERA_VERSION_NUMBER);
  CHECK(strcmp(ptera_version(), PTERA_VERSION) == 0);
}

static void test_load_options(const char *path) {
  ptera_program *p = NULL;
  ptera_load_options zeroed;
  memset(&zeroed, 0, sizeof zeroed);
  CHECK(ptera_program_load_file(path, &zeroed, &p) == PTERA_INVALID_ARGUMENT);
  CHECK(p && strstr(ptera_program_errmsg(p), "ptera_load_options.struct_size is 0"));
  ptera_program_destroy(p);

  /* A limit the options carry is applied: the file is over 16 bytes. */
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  CHECK(o.struct_size == sizeof o && o.allocator == NULL && o.max_file_size == 0);
  o.max_file_size = 16;
  CHECK(ptera_program_load_file(path, &o, &p) == PTERA_OUT_OF_RESOURCES);
  ptera_program_destroy(p);
}

static void run_once(ptera_method *m) {
  float x[3] = {1, 2, 3};
  int32_t sizes[1] = {3};
  CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, sizeof x) == PTERA_OK);
  CHECK(ptera_method_execute(m) == PTERA_OK);
  const ptera_value *y = ptera_method_output(m, 0);
  CHECK(y && y->tag == PTERA_TAG_TENSOR);
  if (y && y->tag == PTERA_TAG_TENSOR) {
    const float *d = y->u.tensor->data;
    CHECK(d[0] == 2 && d[1] == 3 && d[2] == 4);
  }
}

static void test_method_options(ptera_program *p) {
  ptera_method *m = NULL;
  ptera_method_options zeroed;
  memset(&zeroed, 0, sizeof zeroed);
  CHECK(ptera_method_create(p, "forward", &zeroed, &m) == PTERA_INVALID_ARGUMENT);
  CHECK(m && strstr(ptera_method_errmsg(m), "ptera_method_options.struct_size"));
  ptera_method_destroy(m);

  /* A newer caller that leaves its new field zero: accepted. */
  newer_method_options n;
  memset(&n, 0, sizeof n);
  n.v1.struct_size = sizeof n;
  n.v1.temp_size = 8192;
  CHECK(ptera_method_create(p, "forward", &n.v1, &m) == PTERA_OK);
  ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
  CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK && mem.temp_bytes == 8192);
  run_once(m);
  ptera_method_destroy(m);

  /* ... and one that sets it: this library cannot honour it. */
  n.future_field = 1;
  CHECK(ptera_method_create(p, "forward", &n.v1, &m) == PTERA_NOT_SUPPORTED);
  CHECK(m && strstr(ptera_method_errmsg(m), "does not know"));
  ptera_method_destroy(m);
}

static void test_info_structs(ptera_program *p) {
  ptera_method_info zeroed = PTERA_METHOD_INFO_INIT;
  memset(&zeroed, 0, sizeof zeroed);
  CHECK(ptera_program_method_info(p, "forward", &zeroed) == PTERA_INVALID_ARGUMENT);

  /* The library fills what it knows and leaves a newer caller's tail. */
  newer_method_info n;
  memset(&n, 0, sizeof n);
  n.v1.struct_size = sizeof n;
  n.future_field = 0x5a5a;
  CHECK(ptera_program_method_info(p, "forward", &n.v1) == PTERA_OK);
  CHECK(n.v1.struct_size == sizeof n && n.future_field == 0x5a5a);
  CHECK(n.v1.num_inputs == 1 && n.v1.num_outputs == 1 && strcmp(n.v1.name, "forward") == 0);

  ptera_io_info io = PTERA_IO_INFO_INIT;
  CHECK(ptera_program_method_input(p, "forward", 0, &io) == PTERA_OK);
  CHECK(io.struct_size == sizeof io && io.tag == PTERA_TAG_TENSOR && io.dim == 1 && io.sizes[0] == 3);
  ptera_io_info bad = io;
  bad.struct_size = sizeof bad.struct_size;
  CHECK(ptera_program_method_output(p, "forward", 0, &bad) == PTERA_INVALID_ARGUMENT);
}

static ptera_status custom_op(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  (void)ctx, (void)args, (void)nargs;
  return PTERA_OK;
}
static const ptera_kernel_entry custom[] = {{"evolution::old_name", custom_op}};
static bool backend_available(void) { return true; }
static ptera_status backend_init(ptera_backend_init_ctx *ctx, const void *blob, size_t size,
                                 const ptera_compile_spec *specs, size_t nspecs, void **out) {
  (void)ctx, (void)blob, (void)size, (void)specs, (void)nspecs, (void)out;
  return PTERA_NOT_SUPPORTED;
}
static ptera_status backend_execute(ptera_backend_exec_ctx *ctx, void *h, ptera_value **args,
                                    size_t nargs) {
  (void)ctx, (void)h, (void)args, (void)nargs;
  return PTERA_NOT_SUPPORTED;
}
static const ptera_backend old_backend = {PTERA_BACKEND_ABI_VERSION, "EvolutionOldNameBackend",
                                          backend_available, backend_init, backend_execute, NULL};

/* The names before 0.2 still work, as aliases of the new ones. */
static void test_deprecated_aliases(void) {
  CHECK(ptera_default_allocator() == ptera_allocator_default());
  CHECK(ptera_register_kernels(custom, 1) == PTERA_OK);
  CHECK(ptera_kernel_find("evolution::old_name", 19) == custom_op);
  CHECK(ptera_find_kernel("evolution::old_name", 19) == custom_op);
  CHECK(ptera_kernel_register(custom, 1) == PTERA_REGISTRATION_ALREADY_REGISTERED);
  CHECK(ptera_find_kernel("aten::add.out", 13) == ptera_kernel_find("aten::add.out", 13));
  CHECK(ptera_register_backend(&old_backend) == PTERA_OK);
  CHECK(ptera_backend_find("EvolutionOldNameBackend", 23) == &old_backend);
  CHECK(ptera_find_backend("EvolutionOldNameBackend", 23) == &old_backend);
  CHECK(ptera_backend_register(&old_backend) == PTERA_INVALID_ARGUMENT);
}

int main(int argc, char **argv) {
  const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
  char path[4096];
  snprintf(path, sizeof path, "%s/pte/%s", corpus, ADD_MODEL);
  test_version();
  test_load_options(path);
  ptera_program *p = NULL;
  CHECK(ptera_program_load_file(path, NULL, &p) == PTERA_OK);
  if (p) {
    test_method_options(p);
    test_info_structs(p);
  }
  ptera_program_destroy(p);
  test_deprecated_aliases();
  return check_summary("api_evolution");
}
