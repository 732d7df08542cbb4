/* Every corpus file truncated at 20 points and with 500 seeded single-byte
 * corruptions must load, run, or fail with a status: never crash (run under
 * ASan+UBSan in CI). Planned memory is capped so corrupted sizes fail fast. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ptera/ptera.h"

static unsigned runs, loaded, executed;

static void run_inputs_of_ones(ptera_method *m) {
  size_t n = ptera_method_input_count(m);
  for (size_t i = 0; i < n; i++) {
    const ptera_value *v = ptera_method_input(m, i);
    if (v->tag != PTERA_TAG_TENSOR) continue;
    const ptera_tensor *t = v->u.tensor;
    size_t nb = ptera_tensor_nbytes(t);
    if (nb > (64u << 20)) return;
    /* Planned inputs are copied; unplanned ones keep pointing at this buffer
     * until the method is destroyed, so it must outlive execute. */
    static uint8_t buf[1 << 16];
    if (nb > sizeof buf) return;
    memset(buf, 1, nb);
    ptera_method_set_input_tensor(m, i, (ptera_dtype)t->dtype, t->dim, t->sizes, buf, nb);
  }
  static uint8_t outbuf[8][1 << 16];
  for (size_t k = 0; k < ptera_method_output_count(m) && k < 8; k++) {
    const ptera_value *v = ptera_method_output(m, k);
    if (v->tag == PTERA_TAG_TENSOR && !v->u.tensor->data && v->u.tensor->capacity <= sizeof outbuf[k])
      ptera_method_set_output_buffer(m, k, outbuf[k], sizeof outbuf[k]);
  }
  if (ptera_method_execute(m) == PTERA_OK) executed++;
}

static void try_bytes(const uint8_t *data, size_t size) {
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_planned_bytes = 64u << 20;
  ptera_program *p;
  runs++;
  ptera_status st = ptera_program_load_buffer(data, size, &o, &p);
  CHECK(p != NULL);
  CHECK(st == PTERA_OK || ptera_program_errmsg(p)[0] != '\0');
  if (st == PTERA_OK) {
    loaded++;
    for (size_t i = 0; i < ptera_program_method_count(p); i++) {
      ptera_method *m;
      ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
      mo.temp_size = 1 << 16;
      if (ptera_method_create(p, ptera_program_method_name(p, i), &mo, &m) == PTERA_OK)
        run_inputs_of_ones(m);
      else
        CHECK(ptera_method_errmsg(m)[0] != '\0');
      ptera_method_destroy(m);
    }
  }
  ptera_program_destroy(p);
}

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

int main(int argc, char **argv) {
  const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/pte", corpus);
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  if (!d) return check_summary("corrupt_corpus");
  struct dirent *e;
  unsigned files = 0;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 4, ".pte") != 0) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t size;
    uint8_t *data = check_read_file(path, &size);
    CHECK(data != NULL);
    if (!data) continue;
    files++;
    uint8_t *copy = aligned_alloc(16, (size + 15) & ~(size_t)15);
    for (int t = 0; t < 20; t++) {
      size_t cut = size * (size_t)t / 20 + (size_t)(next() % 8);
      if (cut >= size) cut = size - 1;
      memcpy(copy, data, cut);
      try_bytes(copy, cut ? cut : 1);
    }
    for (int k = 0; k < 500; k++) {
      memcpy(copy, data, size);
      /* Half the flips land in the first 64 KiB, where the structure of the
       * large (mostly weights) files lives. */
      size_t at = k % 2 && size > 65536 ? next() % 65536 : next() % size;
      copy[at] = (uint8_t)next();
      try_bytes(copy, size);
    }
    free(copy);
    free(data);
  }
  closedir(d);
  CHECK(files >= 30);
  printf("corrupt_corpus: %u files, %u loads tried, %u loaded, %u methods executed\n", files, runs,
         loaded, executed);
  return check_summary("corrupt_corpus");
}
