/* Runs one method of a loaded program for the harnesses that execute whole
 * programs (fuzz_load_execute.c, fuzz_compile.c): see fuzz.h. */
#include "fuzz.h"

#define FZ_MAX_INPUT_BYTES ((size_t)4 << 20)
#define FZ_MAX_OUTPUT_BYTES ((size_t)4 << 20)
#define FZ_MAX_IO 64

void fz_touch_value(const ptera_value *v) {
  FZ_REQUIRE(v != NULL);
  if (v->tag == PTERA_TAG_TENSOR) {
    const ptera_tensor *t = v->u.tensor;
    FZ_REQUIRE(t != NULL && t->dim <= PTERA_MAX_DIM);
    if (t->data) fz_touch(t->data, ptera_tensor_nbytes(t));
  } else if (v->tag == PTERA_TAG_STRING) {
    fz_touch(v->u.str.ptr, v->u.str.len);
  } else if (v->tag == PTERA_TAG_LIST_DOUBLE) {
    fz_touch(v->u.doubles.items, v->u.doubles.len * sizeof(double));
  } else if (v->tag == PTERA_TAG_LIST_BOOL) {
    fz_touch(v->u.bools.items, v->u.bools.len);
  } else if (v->tag == PTERA_TAG_LIST_INT || v->tag == PTERA_TAG_LIST_TENSOR ||
             v->tag == PTERA_TAG_LIST_OPTIONAL_TENSOR) {
    for (size_t i = 0; i < v->u.list.len; i++)
      if (v->u.list.items[i]) fz_sink ^= v->u.list.items[i]->tag;
  }
}

void fz_run_method(ptera_program *p, const char *name, fz_fill_fn fill) {
  ptera_method *m = NULL;
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.temp_size = 64u << 10;
  ptera_status st = ptera_method_create(p, name, &mo, &m);
  FZ_REQUIRE(m != NULL);
  if (st != PTERA_OK) {
    FZ_REQUIRE(ptera_method_errmsg(m)[0] != '\0');
    ptera_method_destroy(m);
    return;
  }
  void *bufs[2 * FZ_MAX_IO];
  size_t nbufs = 0, io_bytes = 0;
  size_t nin = ptera_method_input_count(m);
  for (size_t i = 0; i < nin && i < FZ_MAX_IO; i++) {
    const ptera_value *v = ptera_method_input(m, i);
    FZ_REQUIRE(v != NULL);
    if (v->tag != PTERA_TAG_TENSOR) continue;
    const ptera_tensor *t = v->u.tensor;
    size_t nb = ptera_tensor_nbytes(t);
    if (nb > FZ_MAX_INPUT_BYTES || (t->flags & PTERA_TENSOR_CONST)) continue;
    uint8_t *b = malloc(nb ? nb : 1);
    if (!b) continue;
    bufs[nbufs++] = b;
    io_bytes += nb;
    fill(b, nb, t->dtype);
    int32_t sizes[PTERA_MAX_DIM];
    memcpy(sizes, t->sizes, sizeof sizes);
    st = ptera_method_set_input_tensor(m, i, (ptera_dtype)t->dtype, t->dim, sizes, b, nb);
    FZ_REQUIRE(st == PTERA_OK || ptera_method_errmsg(m)[0] != '\0');
  }
  size_t nout = ptera_method_output_count(m);
  for (size_t k = 0; k < nout && k < FZ_MAX_IO; k++) {
    const ptera_value *v = ptera_method_output(m, k);
    FZ_REQUIRE(v != NULL);
    if (v->tag != PTERA_TAG_TENSOR) continue;
    const ptera_tensor *t = v->u.tensor;
    if (t->data || (t->flags & (PTERA_TENSOR_PLANNED | PTERA_TENSOR_CONST))) continue;
    if (t->capacity > FZ_MAX_OUTPUT_BYTES) continue;
    void *b = malloc(t->capacity ? t->capacity : 1);
    if (!b) continue;
    bufs[nbufs++] = b;
    io_bytes += t->capacity;
    st = ptera_method_set_output_buffer(m, k, b, t->capacity);
    FZ_REQUIRE(st == PTERA_OK || ptera_method_errmsg(m)[0] != '\0');
  }
  /* A second run catches state left by the first (freed tensors, moved
   * values); only for small methods, as big convolutions are slow enough
   * under ASan to time the fuzzer out. */
  int rounds = io_bytes <= ((size_t)64 << 10) ? 2 : 1;
  for (int round = 0; round < rounds; round++) {
    st = ptera_method_execute(m);
    if (st != PTERA_OK) {
      FZ_REQUIRE(ptera_method_errmsg(m)[0] != '\0');
      break;
    }
    for (size_t k = 0; k < nout; k++) fz_touch_value(ptera_method_output(m, k));
  }
  ptera_method_destroy(m);
  for (size_t i = 0; i < nbufs; i++) free(bufs[i]);
}
