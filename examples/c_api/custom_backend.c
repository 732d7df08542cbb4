/* A custom backend: registers "ExampleScaleShift" before loading a program
 * whose forward delegates part of its work to that id, then runs forward on
 * the three floats given.
 *
 *   custom_backend MODEL.pte X0 X1 X2      prints "output: Y0 Y1 Y2"
 *
 * The backend's processed blob (what an ahead-of-time partitioner would
 * write) is
 *   "SSB1" | n (uint32 LE) | key length (uint32 LE) | key | scale (n float32 LE)
 * and the key names n float32 shift values in the program's named data. The
 * delegated subgraph computes y = x * scale + shift on a Float tensor of n
 * elements. The test suite runs it on a program whose forward(x) is
 * mul(delegate(x), c), the multiplication on ptera's CPU kernels. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptera/ptera.h"

typedef struct scale_shift {
  const ptera_allocator *allocator; /* the handle's own: destroy frees with it */
  uint32_t n;
  float *scale; /* n values, then n shifts, in the same block */
  float *shift;
} scale_shift;

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool available(void) { return true; }

static ptera_status fail(char *message, size_t size, ptera_status st, const char *why) {
  if (message && size) snprintf(message, size, "ExampleScaleShift: %s", why);
  return st;
}

/* Checks the blob, reads the shift from named data and copies both into the
 * handle: the blob is valid for the method's lifetime, but owning the values
 * keeps execute independent of the file's alignment. */
static ptera_status init(ptera_backend_init_ctx *ctx, const void *blob, size_t size,
                         const ptera_compile_spec *specs, size_t num_specs, void **out_handle) {
  (void)specs;
  (void)num_specs;
  const uint8_t *b = blob;
  if (size < 12 || memcmp(b, "SSB1", 4) != 0)
    return fail(ctx->message, ctx->message_size, PTERA_DELEGATE_INVALID_COMPATIBILITY, "not an SSB1 blob");
  uint32_t n = le32(b + 4), key_len = le32(b + 8);
  if (n == 0 || n > (1u << 20) || key_len > size - 12 || (size - 12 - key_len) / 4 < n)
    return fail(ctx->message, ctx->message_size, PTERA_INVALID_PROGRAM, "blob sizes do not add up");
  const void *shift = NULL;
  size_t shift_size = 0;
  if (!ctx->named_data ||
      ptera_named_data_get(ctx->named_data, (const char *)b + 12, key_len, &shift, &shift_size) != PTERA_OK ||
      shift_size != (size_t)n * 4)
    return fail(ctx->message, ctx->message_size, PTERA_INVALID_EXTERNAL_DATA,
                "the shift values are not in the program's named data");
  scale_shift *h = ctx->allocator->alloc(ctx->allocator->user_data, sizeof *h + 2 * (size_t)n * 4, 16);
  if (!h) return fail(ctx->message, ctx->message_size, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  h->allocator = ctx->allocator;
  h->n = n;
  h->scale = (float *)(h + 1);
  h->shift = h->scale + n;
  memcpy(h->scale, b + 12 + key_len, (size_t)n * 4); /* float32 LE: this example assumes a little-endian host */
  memcpy(h->shift, shift, (size_t)n * 4);
  *out_handle = h;
  return PTERA_OK;
}

/* args: the delegate's inputs (x), then its outputs (y). No allocation here. */
static ptera_status execute(ptera_backend_exec_ctx *ctx, void *handle, ptera_value **args, size_t nargs) {
  const scale_shift *h = handle;
  if (nargs != 2 || args[0]->tag != PTERA_TAG_TENSOR || args[1]->tag != PTERA_TAG_TENSOR)
    return fail(ctx->message, ctx->message_size, PTERA_INVALID_ARGUMENT, "takes one tensor in, one out");
  const ptera_tensor *x = args[0]->u.tensor;
  ptera_tensor *y = args[1]->u.tensor;
  if (x->dtype != PTERA_DTYPE_FLOAT || y->dtype != PTERA_DTYPE_FLOAT || x->numel != h->n)
    return fail(ctx->message, ctx->message_size, PTERA_INVALID_ARGUMENT, "expects Float tensors of n elements");
  if (ptera_tensor_resize(y, x->dim, x->sizes) != PTERA_OK)
    return fail(ctx->message, ctx->message_size, PTERA_INVALID_ARGUMENT, "the output cannot take x's shape");
  const float *in = x->data;
  float *out = y->data;
  for (uint32_t i = 0; i < h->n; i++) out[i] = in[i] * h->scale[i] + h->shift[i];
  return PTERA_OK;
}

static void destroy(void *handle) {
  scale_shift *h = handle;
  if (h) h->allocator->free(h->allocator->user_data, h);
}

static const ptera_backend scale_shift_backend = {PTERA_BACKEND_ABI_VERSION, "ExampleScaleShift", available,
                                                  init, execute, destroy};

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: custom_backend MODEL.pte X0 X1 X2\n");
    return 2;
  }
  /* Registration comes first: before any program is loaded. */
  ptera_status st = ptera_backend_register(&scale_shift_backend);
  if (st != PTERA_OK) {
    fprintf(stderr, "register: %s\n", ptera_status_name(st));
    return 1;
  }
  ptera_program *prog = NULL;
  ptera_method *m = NULL;
  int rc = 1;
  float x[3] = {strtof(argv[2], NULL), strtof(argv[3], NULL), strtof(argv[4], NULL)};
  int32_t sizes[1] = {3};
  if ((st = ptera_program_load_file(argv[1], NULL, &prog)) != PTERA_OK) {
    fprintf(stderr, "load: %s: %s\n", ptera_status_name(st), ptera_program_errmsg(prog));
  } else if ((st = ptera_method_create(prog, "forward", NULL, &m)) != PTERA_OK) {
    /* a backend's init failure arrives here, with its message */
    fprintf(stderr, "method: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
  } else if ((st = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, sizeof x)) != PTERA_OK ||
             (st = ptera_method_execute(m)) != PTERA_OK) {
    fprintf(stderr, "run: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
  } else {
    const ptera_value *v = ptera_method_output(m, 0);
    if (v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == 3) {
      const float *y = v->u.tensor->data;
      printf("output: %.9g %.9g %.9g\n", y[0], y[1], y[2]);
      rc = 0;
    }
  }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  return rc;
}
