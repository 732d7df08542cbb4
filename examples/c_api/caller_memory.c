/* Caller-supplied memory: every byte the library uses comes from one block
 * this program owns. The memory queries say exactly how large the block must
 * be; a ptera_buffer_allocator over it serves the program load and the
 * method (planned buffers, temp arena, packed weights). The same code runs
 * in a build without a heap (PTERA_NO_HEAP), where the block would be a
 * static array.
 *
 *   caller_memory MODEL.pte IN0.f32 [IN1.f32 ...]
 *
 * Each INk.f32 holds input k of forward as raw little-endian float32 values
 * in logical order (the input's shape comes from the program). Prints the
 * bytes asked for, then each float output as "output K: v0 v1 ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptera/ptera.h"

/* The whole file, or NULL. */
static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  void *data = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc(n ? (size_t)n : 1)) &&
      fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* Binds input k of forward from a raw float32 file of the input's size. */
static int bind_input(ptera_program *prog, ptera_method *m, size_t k, const char *path) {
  ptera_io_info io = PTERA_IO_INFO_INIT;
  ptera_status st = ptera_program_method_input(prog, "forward", k, &io);
  if (st != PTERA_OK || io.tag != PTERA_TAG_TENSOR || io.dtype != PTERA_DTYPE_FLOAT) {
    fprintf(stderr, "input %zu is not a Float tensor\n", k);
    return 1;
  }
  size_t n = 0;
  float *x = read_all(path, &n);
  size_t want = 4;
  for (size_t d = 0; d < io.dim; d++) want *= (size_t)io.sizes[d];
  if (!x || n != want) {
    fprintf(stderr, "%s: need %zu bytes for input %zu\n", path, want, k);
    free(x);
    return 1;
  }
  st = ptera_method_set_input_tensor(m, k, PTERA_DTYPE_FLOAT, io.dim, io.sizes, x, n);
  free(x); /* set_input copies into the method's planned memory */
  if (st != PTERA_OK) fprintf(stderr, "input %zu: %s\n", k, ptera_method_errmsg(m));
  return st != PTERA_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: caller_memory MODEL.pte IN0.f32 [IN1.f32 ...]\n");
    return 2;
  }
  size_t size = 0;
  void *file = read_all(argv[1], &size);
  if (!file) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  /* 1. How much the load takes: measured once, then loaded for real into a
   *    block of exactly that size. */
  size_t prog_bytes = 0, method_bytes = 0;
  ptera_status st = ptera_program_memory_needed(file, size, NULL, &prog_bytes);
  ptera_buffer_allocator arena;
  unsigned char *block = NULL;
  ptera_program *prog = NULL;
  ptera_method *m = NULL;
  int rc = 1;
  if (st != PTERA_OK) {
    fprintf(stderr, "program_memory_needed: %s\n", ptera_status_name(st));
    goto done;
  }
  /* 2. The method's needs, measured against the loaded program. A first
   *    load into a scratch block answers that; the real block then holds
   *    both, plus 64 bytes for its alignment. */
  {
    unsigned char *scratch = malloc(prog_bytes + 64);
    ptera_buffer_allocator sa;
    ptera_buffer_allocator_init(&sa, scratch, scratch ? prog_bytes + 64 : 0);
    ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
    lo.allocator = &sa.allocator;
    ptera_program *probe = NULL;
    st = ptera_program_load_buffer(file, size, &lo, &probe);
    ptera_method_options probe_mo = PTERA_METHOD_OPTIONS_INIT;
    probe_mo.allocator = ptera_allocator_default(); /* the measuring run's backing */
    if (st == PTERA_OK) st = ptera_method_memory_needed(probe, "forward", &probe_mo, &method_bytes);
    ptera_program_destroy(probe);
    free(scratch);
    if (st != PTERA_OK) {
      fprintf(stderr, "method_memory_needed: %s\n", ptera_status_name(st));
      goto done;
    }
  }
  printf("memory: program %zu bytes, method %zu bytes\n", prog_bytes, method_bytes);
  block = malloc(prog_bytes + method_bytes + 64);
  if (!block) goto done;
  ptera_buffer_allocator_init(&arena, block, prog_bytes + method_bytes + 64);
  /* 3. Load and create from the block; nothing else is allocated. */
  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &arena.allocator;
  if ((st = ptera_program_load_buffer(file, size, &lo, &prog)) != PTERA_OK) {
    fprintf(stderr, "load: %s: %s\n", ptera_status_name(st), ptera_program_errmsg(prog));
    goto done;
  }
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.allocator = &arena.allocator;
  if ((st = ptera_method_create(prog, "forward", &mo, &m)) != PTERA_OK) {
    fprintf(stderr, "method: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
    goto done;
  }
  if ((size_t)(argc - 2) != ptera_method_input_count(m)) {
    fprintf(stderr, "forward takes %zu inputs, %d given\n", ptera_method_input_count(m), argc - 2);
    goto done;
  }
  for (int k = 2; k < argc; k++)
    if (bind_input(prog, m, (size_t)(k - 2), argv[k])) goto done;
  if ((st = ptera_method_execute(m)) != PTERA_OK) {
    fprintf(stderr, "execute: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
    goto done;
  }
  for (size_t k = 0; k < ptera_method_output_count(m); k++) {
    const ptera_value *v = ptera_method_output(m, k);
    if (!v || v->tag != PTERA_TAG_TENSOR || v->u.tensor->dtype != PTERA_DTYPE_FLOAT) continue;
    const float *y = v->u.tensor->data;
    printf("output %zu:", k);
    for (size_t i = 0; i < v->u.tensor->numel; i++) printf(" %.9g", y[i]);
    printf("\n");
  }
  printf("block: %zu of %zu bytes used at the peak\n", arena.peak, arena.capacity);
  rc = 0;
done:
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  free(block);
  free(file);
  return rc;
}
