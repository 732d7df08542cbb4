/* A program run from one static pool by a library built with PTERA_NO_FS,
 * PTERA_NO_HEAP, PTERA_STRIP_MESSAGES and PTERA_THREADS=OFF (tests/switches):
 * the host counterpart of examples/embedded/main.c. This program reads its
 * files with stdio into static arrays; the library never touches a file or
 * the heap. The memory queries measure the program and the method through a
 * scratch buffer allocator over the pool, and the real loads then get
 * buffer allocators of exactly those sizes.
 *
 *   run_pool MODEL.pte IN0.f32 [IN1.f32 ...]
 *
 * Each INk.f32 holds input k of forward as raw float32 values. The output
 * is what tests/install/caller_memory.py reads:
 *   memory: program P bytes, method M bytes
 *   output K: v0 v1 ...          (each Float output)
 *   block: U of C bytes used at the peak
 * Before the run it checks what the switches promise: loading by path is
 * NotSupported, a load without an allocator fails, and an error's message
 * is only its status name. A broken promise exits 1 with a line on stderr. */
#include <stdio.h>
#include <string.h>

#include "ptera/ptera.h"

#define POOL_SIZE (16u << 20)
static unsigned char pool[POOL_SIZE] __attribute__((aligned(64)));
static unsigned char file_buf[1u << 20] __attribute__((aligned(64)));
static unsigned char input_buf[1u << 20];

/* Reads the whole file into buf (at most cap bytes); returns its size or -1. */
static long read_file(const char *path, unsigned char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t n = fread(buf, 1, cap, f);
  int more = fgetc(f) != EOF;
  fclose(f);
  return more ? -1 : (long)n;
}

static int fail(const char *what, ptera_status st, const char *msg) {
  fprintf(stderr, "%s: %s%s%s\n", what, ptera_status_name(st), msg ? ": " : "", msg ? msg : "");
  return 1;
}

/* The promises of the switches, checked on this program's bytes. */
static int check_switches(const char *path, size_t size) {
  ptera_buffer_allocator scratch;
  ptera_buffer_allocator_init(&scratch, pool, sizeof pool);
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &scratch.allocator;
  ptera_program *p = NULL;
  /* PTERA_NO_FS: no file system behind the path functions. */
  ptera_status st = ptera_program_load_file(path, &lo, &p);
  if (st != PTERA_NOT_SUPPORTED) return fail("load_file is not NotSupported", st, NULL);
  /* PTERA_STRIP_MESSAGES: the message is the status name. */
  if (p && strcmp(ptera_program_errmsg(p), ptera_status_name(st)) != 0)
    return fail("load_file's message is not the status name", st, ptera_program_errmsg(p));
  ptera_program_destroy(p);
  /* PTERA_NO_HEAP: the default allocator gives nothing. */
  p = NULL;
  st = ptera_program_load_buffer(file_buf, size, NULL, &p);
  ptera_program_destroy(p);
  if (st == PTERA_OK) return fail("a load with no allocator succeeded", st, NULL);
  /* A truncated program: its error message is again the status name. */
  ptera_buffer_allocator_init(&scratch, pool, sizeof pool);
  p = NULL;
  st = ptera_program_load_buffer(file_buf, size / 2, &lo, &p);
  if (st == PTERA_OK || !p || strcmp(ptera_program_errmsg(p), ptera_status_name(st)) != 0)
    return fail("a truncated program's message is not its status name", st, p ? ptera_program_errmsg(p) : NULL);
  ptera_program_destroy(p);
  return 0;
}

/* Binds input k of forward from a raw float32 file of the input's size. */
static int bind_input(ptera_method *m, size_t k, const char *path) {
  const ptera_value *in = ptera_method_input(m, k);
  if (!in || in->tag != PTERA_TAG_TENSOR || in->u.tensor->dtype != PTERA_DTYPE_FLOAT)
    return fail("an input is not a Float tensor", PTERA_INVALID_ARGUMENT, path);
  const ptera_tensor *t = in->u.tensor;
  long n = read_file(path, input_buf, sizeof input_buf);
  if (n < 0 || (size_t)n != t->numel * 4) return fail("the input's size", PTERA_INVALID_ARGUMENT, path);
  ptera_status st = ptera_method_set_input_tensor(m, k, PTERA_DTYPE_FLOAT, t->dim, t->sizes, input_buf, (size_t)n);
  return st != PTERA_OK ? fail("set_input", st, ptera_method_errmsg(m)) : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: run_pool MODEL.pte IN0.f32 [IN1.f32 ...]\n");
    return 2;
  }
  long size = read_file(argv[1], file_buf, sizeof file_buf);
  if (size < 0) return fail("cannot read the program", PTERA_INVALID_ARGUMENT, argv[1]);
  if (check_switches(argv[1], (size_t)size)) return 1;

  ptera_buffer_allocator scratch, prog_mem, meth_mem;
  ptera_buffer_allocator_init(&scratch, pool, sizeof pool);
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &scratch.allocator;
  size_t prog_need, meth_need;
  ptera_status st = ptera_program_memory_needed(file_buf, (size_t)size, &lo, &prog_need);
  if (st != PTERA_OK) return fail("program_memory_needed", st, NULL);
  if (prog_need > sizeof pool) return fail("the pool is too small", PTERA_OUT_OF_RESOURCES, NULL);
  ptera_buffer_allocator_init(&prog_mem, pool, prog_need);
  lo.allocator = &prog_mem.allocator;
  ptera_program *prog = NULL;
  st = ptera_program_load_buffer(file_buf, (size_t)size, &lo, &prog);
  if (st != PTERA_OK) return fail("load", st, ptera_program_errmsg(prog));

  /* The method's memory starts at the next 64-byte boundary after the program's. */
  size_t meth_at = (prog_need + 63) & ~(size_t)63;
  ptera_buffer_allocator_init(&scratch, pool + meth_at, sizeof pool - meth_at);
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.allocator = &scratch.allocator;
  st = ptera_method_memory_needed(prog, "forward", &mo, &meth_need);
  if (st != PTERA_OK) return fail("method_memory_needed", st, ptera_program_errmsg(prog));
  if (meth_need > sizeof pool - meth_at) return fail("the pool is too small", PTERA_OUT_OF_RESOURCES, NULL);
  printf("memory: program %zu bytes, method %zu bytes\n", prog_need, meth_need);
  ptera_buffer_allocator_init(&meth_mem, pool + meth_at, meth_need);
  mo.allocator = &meth_mem.allocator;
  ptera_method *m = NULL;
  st = ptera_method_create(prog, "forward", &mo, &m);
  if (st != PTERA_OK) return fail("method_create", st, ptera_method_errmsg(m));
  if ((size_t)(argc - 2) != ptera_method_input_count(m))
    return fail("the number of inputs", PTERA_INVALID_ARGUMENT, NULL);
  for (int k = 2; k < argc; k++)
    if (bind_input(m, (size_t)(k - 2), argv[k])) return 1;
  st = ptera_method_execute(m);
  if (st != PTERA_OK) return fail("execute", st, ptera_method_errmsg(m));
  for (size_t k = 0; k < ptera_method_output_count(m); k++) {
    const ptera_value *v = ptera_method_output(m, k);
    if (!v || v->tag != PTERA_TAG_TENSOR || v->u.tensor->dtype != PTERA_DTYPE_FLOAT) continue;
    const float *y = v->u.tensor->data;
    printf("output %zu:", k);
    for (size_t i = 0; i < v->u.tensor->numel; i++) printf(" %.9g", y[i]);
    printf("\n");
  }
  /* The pool is used up to the end of the method's block at its peak. */
  printf("block: %zu of %zu bytes used at the peak\n",
         (size_t)(meth_mem.base - pool) + meth_mem.peak, sizeof pool);
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  return 0;
}
