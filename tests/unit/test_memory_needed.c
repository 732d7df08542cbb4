/* ptera_buffer_allocator and the memory queries. The allocator's offsets
 * are checked against hand-computed layouts; for every corpus program and
 * method, the size ptera_program_memory_needed / ptera_method_memory_needed
 * report must be exact: a buffer of that size loads (and the method runs,
 * giving the same outputs as a heap-backed run), one byte less fails with
 * MemoryAllocationFailed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptera/ptera.h"

#define H PTERA_BUFFER_BLOCK_HEADER

static size_t up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static void test_allocator(void) {
  static unsigned char mem[4096 + 64];
  ptera_buffer_allocator b;
  /* An unaligned start is skipped up to the next 64-byte boundary. */
  unsigned char *start = mem + 1;
  ptera_buffer_allocator_init(&b, start, 4096);
  size_t skip = (size_t)(-(uintptr_t)start & 63);
  CHECK(b.base == start + skip);
  CHECK(b.capacity == 4096 - skip);
  const ptera_allocator *a = &b.allocator;

  void *p1 = a->alloc(a->user_data, 10, 16); /* header, then 16-aligned */
  CHECK(p1 == b.base + up(H, 16));
  CHECK(b.top == up(H, 16) + 10);
  size_t top1 = b.top;
  void *p2 = a->alloc(a->user_data, 100, 64);
  CHECK(p2 == b.base + up(top1 + H, 64));
  CHECK(((uintptr_t)p2 & 63) == 0);
  size_t top2 = b.top;
  CHECK(top2 == up(top1 + H, 64) + 100);
  CHECK(b.peak == top2);
  /* Freeing an older block defers; freeing the newest reclaims both. */
  a->free(a->user_data, p1);
  CHECK(b.top == top2);
  a->free(a->user_data, p2);
  CHECK(b.top == 0);
  CHECK(b.newest == NULL);
  CHECK(b.peak == top2);
  /* The space is reused; requests beyond capacity and alignments above 64 fail. */
  CHECK(a->alloc(a->user_data, 10, 16) == p1);
  CHECK(a->alloc(a->user_data, 4096, 8) == NULL);
  CHECK(a->alloc(a->user_data, 8, 128) == NULL);
  void *p3 = a->alloc(a->user_data, b.capacity - up(b.top + H, 8), 8);
  CHECK(p3 != NULL);
  CHECK(a->alloc(a->user_data, 1, 8) == NULL);
  /* Too little memory to align: an empty allocator. */
  ptera_buffer_allocator e;
  ptera_buffer_allocator_init(&e, start, skip ? skip - 1 : 0);
  CHECK(e.capacity == 0);
  CHECK(e.allocator.alloc(e.allocator.user_data, 1, 8) == NULL);
}

/* Output bytes of a method run with zero inputs, or 0 when it cannot run so. */
static size_t run_zero(ptera_method *m, unsigned char *out, size_t cap) {
  static unsigned char zeros[1 << 16];
  for (size_t i = 0; i < ptera_method_input_count(m); i++) {
    const ptera_value *v = ptera_method_input(m, i);
    if (!v || v->tag != PTERA_TAG_TENSOR) return 0;
    const ptera_tensor *t = v->u.tensor;
    size_t nb = ptera_tensor_nbytes(t);
    if (nb > sizeof zeros) return 0;
    if (ptera_method_set_input_tensor(m, i, (ptera_dtype)t->dtype, t->dim, t->sizes, zeros, nb) !=
        PTERA_OK)
      return 0;
  }
  if (ptera_method_execute(m) != PTERA_OK) return 0;
  size_t n = 0;
  for (size_t i = 0; i < ptera_method_output_count(m); i++) {
    const ptera_value *v = ptera_method_output(m, i);
    if (v->tag != PTERA_TAG_TENSOR || !v->u.tensor->data) continue;
    size_t nb = ptera_tensor_nbytes(v->u.tensor);
    if (n + nb > cap) return 0;
    memcpy(out + n, v->u.tensor->data, nb);
    n += nb;
  }
  return n ? n : 1;
}

static int nprograms, nmethods, nruns;

static void check_method(ptera_program *heap_p, ptera_program *p, const char *name) {
  size_t need = 0;
  /* The program's own allocator is full: measure over the heap. */
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.allocator = ptera_allocator_default();
  ptera_status qst = ptera_method_memory_needed(p, name, &mo, &need);
  if (qst != PTERA_OK) {
    fprintf(stderr, "  %s: %s: %s\n", name, ptera_status_name(qst), ptera_program_errmsg(p));
    return;
  }
  /* The reference: the same method on the heap. */
  ptera_method *hm = NULL;
  CHECK(ptera_method_create(heap_p, name, NULL, &hm) == PTERA_OK);
  static unsigned char want[1 << 16], got[1 << 16];
  size_t nwant = run_zero(hm, want, sizeof want);
  ptera_method_destroy(hm);

  unsigned char *mem = malloc(need + 64);
  CHECK(mem != NULL);
  unsigned char *aligned = mem + (-(uintptr_t)mem & 63);
  ptera_buffer_allocator b;
  ptera_method_options o = PTERA_METHOD_OPTIONS_INIT;
  o.allocator = &b.allocator;
  ptera_method *m = NULL;
  ptera_buffer_allocator_init(&b, aligned, need - 1);
  CHECK(ptera_method_create(p, name, &o, &m) == PTERA_MEMORY_ALLOCATION_FAILED);
  ptera_method_destroy(m);
  CHECK(b.top == 0);
  ptera_buffer_allocator_init(&b, aligned, need);
  ptera_status st = ptera_method_create(p, name, &o, &m);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "  %s: %s\n", name, ptera_method_errmsg(m));
  CHECK(b.peak == need);
  nmethods++;
  if (st == PTERA_OK && nwant) {
    size_t ngot = run_zero(m, got, sizeof got);
    CHECK(ngot == nwant);
    CHECK(memcmp(got, want, nwant < ngot ? nwant : ngot) == 0);
    CHECK(b.peak == need); /* execute took nothing */
    nruns++;
  }
  ptera_method_destroy(m);
  CHECK(b.top == 0);
  free(mem);
}

static void check_program(const char *path) {
  size_t size;
  uint8_t *data = check_read_file(path, &size);
  if (!data || size > (4u << 20)) {
    free(data);
    return;
  }
  ptera_program *heap_p = NULL;
  ptera_status hst = ptera_program_load_buffer(data, size, NULL, &heap_p);
  size_t need = 0;
  ptera_status st = ptera_program_memory_needed(data, size, NULL, &need);
  CHECK(st == hst);
  if (hst == PTERA_OK) {
    unsigned char *mem = malloc(need + 64);
    unsigned char *aligned = mem + (-(uintptr_t)mem & 63);
    ptera_buffer_allocator b;
    ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
    o.allocator = &b.allocator;
    ptera_program *p = NULL;
    ptera_buffer_allocator_init(&b, aligned, need - 1);
    CHECK(ptera_program_load_buffer(data, size, &o, &p) == PTERA_MEMORY_ALLOCATION_FAILED);
    ptera_program_destroy(p);
    CHECK(b.top == 0);
    ptera_buffer_allocator_init(&b, aligned, need);
    CHECK(ptera_program_load_buffer(data, size, &o, &p) == PTERA_OK);
    CHECK(b.peak == need);
    nprograms++;
    for (size_t i = 0; i < ptera_program_method_count(p); i++)
      check_method(heap_p, p, ptera_program_method_name(p, i));
    ptera_program_destroy(p);
    CHECK(b.top == 0);
    free(mem);
  }
  ptera_program_destroy(heap_p);
  free(data);
}

int main(int argc, char **argv) {
  test_allocator();
  const char *dir = check_corpus_path(argc > 1 ? argv[1] : "../shared/corpus", "pte");
  char base[4096];
  snprintf(base, sizeof base, "%s", dir);
  DIR *d = opendir(base);
  CHECK(d != NULL);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 4, ".pte") != 0) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", base, e->d_name);
    check_program(path);
  }
  if (d) closedir(d);
  CHECK(nprograms >= 20);
  printf("memory queries exact for %d programs, %d methods (%d run and compared)\n", nprograms,
         nmethods, nruns);
  return check_summary("memory_needed");
}
