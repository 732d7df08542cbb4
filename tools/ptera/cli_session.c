/* A loaded program and method with their inputs bound, shared by `ptera run`
 * and `ptera bench`: load (a .pte, or a .bpte's embedded program), attach
 * .ptd files, create the method, give unplanned outputs memory, and bind
 * inputs from .npy files or generated values. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Fills n elements of dtype with ones, or seeded values. */
static void fill(int dtype, void *data, size_t n, bool random, uint64_t *state) {
  uint8_t *p = data;
  size_t es = ptera_dtype_size(dtype);
  for (size_t i = 0; i < n; i++) {
    double u = random ? (double)(next_random(state) >> 11) / 9007199254740992.0 * 2.0 - 1.0 : 1.0;
    int64_t k = random ? (int64_t)(next_random(state) % 11) - 5 : 1;
    uint8_t *e = p + i * es;
    switch (dtype) {
      case PTERA_DTYPE_FLOAT: { float f = (float)u; memcpy(e, &f, 4); break; }
      case PTERA_DTYPE_DOUBLE: memcpy(e, &u, 8); break;
      case PTERA_DTYPE_HALF: { uint16_t h = ptera_float_to_half((float)u); memcpy(e, &h, 2); break; }
      case PTERA_DTYPE_BFLOAT16: { uint16_t h = ptera_float_to_bfloat16((float)u); memcpy(e, &h, 2); break; }
      case PTERA_DTYPE_BOOL: *e = random ? (uint8_t)(k & 1) : 1; break;
      case PTERA_DTYPE_BYTE: case PTERA_DTYPE_UINT16: case PTERA_DTYPE_UINT32: case PTERA_DTYPE_UINT64:
        if (k < 0) k = -k;
        /* fall through */
      default: {
        uint64_t v = (uint64_t)k;
        memcpy(e, &v, es); /* little-endian: the low bytes hold the value */
        break;
      }
    }
  }
}

static void *keep(cli_session *s, size_t size) {
  if (s->nbuffers == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    void **b = realloc(s->buffers, cap * sizeof *b);
    if (!b) return NULL;
    s->buffers = b;
    s->cap = cap;
  }
  size_t rounded = (size + 63) & ~(size_t)63;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (p) s->buffers[s->nbuffers++] = p;
  return p;
}

void cli_session_drop_inputs(cli_session *s) {
  while (s->nbuffers > s->noutput_buffers) free(s->buffers[--s->nbuffers]);
}

static int set_scalar_input(cli_session *s, size_t i, const ptera_value *v, const cli_array *a) {
  ptera_status st;
  double x = cli_element(a->dtype, a->data, 0);
  if (a->dim != 0 || a->nbytes == 0)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu is a %s: give a 0-d array", i,
                     ptera_tag_name(v->tag));
  if (v->tag == PTERA_TAG_INT) st = ptera_method_set_input_int(s->method, i, (int64_t)x);
  else if (v->tag == PTERA_TAG_DOUBLE) st = ptera_method_set_input_double(s->method, i, x);
  else if (v->tag == PTERA_TAG_BOOL) st = ptera_method_set_input_bool(s->method, i, x != 0);
  else return cli_error(PTERA_NOT_SUPPORTED, "input %zu is a %s", i, ptera_tag_name(v->tag));
  return st == PTERA_OK ? 0 : cli_error(st, "%s", ptera_method_errmsg(s->method));
}

static int set_tensor_input(cli_session *s, size_t i, const ptera_tensor *t, const cli_array *a) {
  char want[128], got[128];
  cli_format_shape(want, sizeof want, t->dtype, t->dim, t->sizes);
  cli_format_shape(got, sizeof got, a->dtype, a->dim, a->sizes);
  if (a->dtype != t->dtype)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu must be %s; the file holds %s", i, want, got);
  /* The method tensor takes the caller's shape first, so the memory order
   * conversion below sees the final strides. */
  ptera_tensor shaped = *t;
  if (ptera_tensor_resize(&shaped, a->dim, a->sizes) != PTERA_OK)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu must be %s; the file holds %s", i, want, got);
  void *mem = keep(s, a->nbytes);
  if (!mem) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for input %zu", i);
  cli_to_memory_order(&shaped, a->data, mem);
  ptera_status st = ptera_method_set_input_tensor(s->method, i, (ptera_dtype)a->dtype, a->dim,
                                                  a->sizes, mem, a->nbytes);
  return st == PTERA_OK ? 0 : cli_error(st, "%s", ptera_method_errmsg(s->method));
}

int cli_session_bind_inputs(cli_session *s, const char *const *files, bool random, uint64_t seed) {
  size_t n = ptera_method_input_count(s->method);
  uint64_t state = seed * 2654435761u + 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < n; i++) {
    const ptera_value *v = ptera_method_input(s->method, i);
    int rc = 0;
    cli_array a;
    if (files) {
      char msg[512];
      int expect = v->tag == PTERA_TAG_TENSOR ? v->u.tensor->dtype : -1;
      if (cli_npy_load(files[i], expect, &a, msg, sizeof msg) != 0)
        return cli_error(PTERA_INVALID_ARGUMENT, "input %zu: %s", i, msg);
      if (v->tag == PTERA_TAG_TENSOR) rc = set_tensor_input(s, i, v->u.tensor, &a);
      else if (v->tag != PTERA_TAG_NONE) rc = set_scalar_input(s, i, v, &a);
      free(a.data);
      if (rc) return rc;
    } else if (v->tag == PTERA_TAG_TENSOR) {
      const ptera_tensor *t = v->u.tensor;
      memset(&a, 0, sizeof a);
      a.dtype = t->dtype;
      a.dim = t->dim;
      memcpy(a.sizes, t->sizes, sizeof a.sizes);
      a.nbytes = ptera_tensor_nbytes(t);
      a.data = malloc(a.nbytes ? a.nbytes : 1);
      if (!a.data) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
      fill(t->dtype, a.data, t->numel, random, &state);
      rc = set_tensor_input(s, i, t, &a);
      free(a.data);
      if (rc) return rc;
    }
  }
  return 0;
}

static int bind_outputs(cli_session *s) {
  size_t n = ptera_method_output_count(s->method);
  for (size_t i = 0; i < n; i++) {
    const ptera_value *v = ptera_method_output(s->method, i);
    if (v->tag != PTERA_TAG_TENSOR || v->u.tensor->data) continue;
    if (v->u.tensor->flags & (PTERA_TENSOR_PLANNED | PTERA_TENSOR_CONST)) continue;
    void *buf = keep(s, v->u.tensor->capacity);
    if (!buf) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for output %zu", i);
    ptera_status st = ptera_method_set_output_buffer(s->method, i, buf, v->u.tensor->capacity);
    if (st != PTERA_OK) return cli_error(st, "%s", ptera_method_errmsg(s->method));
  }
  s->noutput_buffers = s->nbuffers;
  return 0;
}

uint32_t cli_method_flags(bool no_fuse) {
  const char *env = getenv("PTERA_NO_FUSE");
  if (env && env[0] && strcmp(env, "0") != 0) no_fuse = true;
  return no_fuse ? PTERA_METHOD_NO_FUSION : 0;
}

bool cli_is_bundle(const char *path) {
  char head[8] = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  return n == sizeof head && memcmp(head + 4, "BP08", 4) == 0;
}

int cli_session_open(cli_session *s, const char *model, const char *const *data, size_t ndata,
                     const char *method, size_t threads, uint32_t method_flags) {
  memset(s, 0, sizeof *s);
  ptera_status st;
  if (cli_is_bundle(model)) {
    st = ptera_bundled_load_file(model, NULL, &s->bundled);
    if (st != PTERA_OK) return cli_error(st, "%s: %s", model, ptera_bundled_errmsg(s->bundled));
    s->program = ptera_bundled_program(s->bundled);
  } else {
    st = ptera_program_load_file(model, NULL, &s->program);
    if (st != PTERA_OK) return cli_error(st, "%s: %s", model, ptera_program_errmsg(s->program));
  }
  for (size_t i = 0; i < ndata; i++) {
    st = ptera_program_attach_data_file(s->program, data[i]);
    if (st != PTERA_OK) return cli_error(st, "%s", ptera_program_errmsg(s->program));
  }
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = method_flags;
  if (threads != 1) {
    st = ptera_threadpool_create(threads, NULL, &s->pool);
    if (st != PTERA_OK) return cli_error(st, "cannot start a pool of %zu threads", threads);
    mo.threadpool = s->pool;
  }
  st = ptera_method_create(s->program, method, &mo, &s->method);
  if (st != PTERA_OK) return cli_error(st, "%s", ptera_method_errmsg(s->method));
  return bind_outputs(s);
}

void cli_session_close(cli_session *s) {
  ptera_method_destroy(s->method);
  if (s->bundled) ptera_bundled_destroy(s->bundled);
  else ptera_program_destroy(s->program);
  ptera_threadpool_destroy(s->pool);
  for (size_t i = 0; i < s->nbuffers; i++) free(s->buffers[i]);
  free(s->buffers);
  memset(s, 0, sizeof *s);
}

size_t cli_session_threads(const cli_session *s) { return ptera_threadpool_size(s->pool);
}
