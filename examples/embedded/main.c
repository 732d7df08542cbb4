/* A bare-metal ptera firmware: runs the embedded program's "forward" on
 * the embedded input, every byte from one static pool, and prints over
 * semihosting:
 *   output K DTYPE N: V V ...   floats as IEEE-754 bit patterns (hex), integers in decimal
 *   memory program=P method=M arena=A planned=B temp=T packed=K stack=S
 * The library is built with PTERA_NO_FS, PTERA_NO_HEAP, PTERA_THREADS=OFF
 * and only the program's kernels (PTERA_SELECTED_OPS).
 *
 * Memory: the queries measure the program and the method first, through
 * a scratch buffer allocator over the pool; the real loads then get
 * buffer allocators of exactly those sizes. */
#include <string.h>

#include "ptera/ptera.h"
#include "semihost.h"

extern const unsigned char ptera_model[];
extern const unsigned long ptera_model_size;
extern const unsigned char ptera_input[]; /* a .npy file (version 1) */
extern const unsigned long ptera_input_size;

#ifndef POOL_SIZE
#define POOL_SIZE (256u << 10)
#endif
static unsigned char pool[POOL_SIZE] __attribute__((aligned(64)));

extern uint32_t _sstack[], _estack[];
#define STACK_FILL 0xA5A5A5A5u

static int fail(const char *what, ptera_status st, const char *msg) {
  sh_puts("error: ");
  sh_puts(what);
  sh_puts(": ");
  sh_puts(ptera_status_name(st));
  if (msg && msg[0]) {
    sh_puts(": ");
    sh_puts(msg);
  }
  sh_puts("\n");
  return 1;
}

/* The data of a version-1 .npy file (the header is not checked beyond its length). */
static const unsigned char *npy_data(const unsigned char *f, unsigned long size, size_t *n) {
  if (size < 10 || f[0] != 0x93 || memcmp(f + 1, "NUMPY", 5) != 0 || f[6] != 1) return NULL;
  size_t start = 10u + (size_t)(f[8] | (f[9] << 8));
  if (start > size) return NULL;
  *n = size - start;
  return f + start;
}

static void print_output(size_t k, const ptera_tensor *t) {
  sh_puts("output ");
  sh_put_dec((int64_t)k);
  sh_puts(" ");
  sh_puts(ptera_dtype_name(t->dtype));
  sh_puts(" ");
  sh_put_dec((int64_t)t->numel);
  sh_puts(":");
  for (size_t i = 0; i < t->numel; i++) {
    sh_puts(" ");
    if (t->dtype == PTERA_DTYPE_FLOAT) {
      uint32_t bits;
      memcpy(&bits, (const float *)t->data + i, 4);
      sh_put_hex32(bits);
    } else if (t->dtype == PTERA_DTYPE_CHAR) {
      sh_put_dec(((const int8_t *)t->data)[i]);
    } else if (t->dtype == PTERA_DTYPE_BYTE) {
      sh_put_dec(((const uint8_t *)t->data)[i]);
    } else if (t->dtype == PTERA_DTYPE_INT) {
      sh_put_dec(((const int32_t *)t->data)[i]);
    } else {
      sh_puts("?");
    }
  }
  sh_puts("\n");
}

/* Bytes of stack touched since the fill at the start of main. */
static size_t stack_used(void) {
  const uint32_t *p = _sstack;
  while (p < _estack && *p == STACK_FILL) p++;
  return (size_t)((const char *)_estack - (const char *)p);
}

int main(void) {
  /* Mark the free stack (below this frame) to measure its high-water mark. */
  {
    volatile uint32_t *p = _sstack;
    uint32_t *here = (uint32_t *)__builtin_frame_address(0) - 64;
    while (p < here) *p++ = STACK_FILL;
  }
  ptera_buffer_allocator scratch, prog_mem, meth_mem;
  ptera_buffer_allocator_init(&scratch, pool, sizeof pool);

  ptera_load_options lo = PTERA_LOAD_OPTIONS_INIT;
  lo.allocator = &scratch.allocator;
  size_t prog_need;
  ptera_status st = ptera_program_memory_needed(ptera_model, ptera_model_size, &lo, &prog_need);
  if (st != PTERA_OK) return fail("measuring the program", st, NULL);
  if (prog_need > sizeof pool) return fail("the pool is too small", PTERA_OUT_OF_RESOURCES, NULL);
  ptera_buffer_allocator_init(&prog_mem, pool, prog_need);
  lo.allocator = &prog_mem.allocator;
  ptera_program *program = NULL;
  st = ptera_program_load_buffer(ptera_model, ptera_model_size, &lo, &program);
  if (st != PTERA_OK) return fail("loading", st, ptera_program_errmsg(program));

  /* The method's memory starts at the next 64-byte boundary after the program's. */
  size_t meth_at = (prog_need + 63) & ~(size_t)63;
  ptera_buffer_allocator_init(&scratch, pool + meth_at, sizeof pool - meth_at);
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.allocator = &scratch.allocator;
  size_t meth_need;
  st = ptera_method_memory_needed(program, "forward", &mo, &meth_need);
  if (st != PTERA_OK) return fail("measuring the method", st, ptera_program_errmsg(program));
  if (meth_need > sizeof pool - meth_at) return fail("the pool is too small", PTERA_OUT_OF_RESOURCES, NULL);
  ptera_buffer_allocator_init(&meth_mem, pool + meth_at, meth_need);
  mo.allocator = &meth_mem.allocator;
  ptera_method *method = NULL;
  st = ptera_method_create(program, "forward", &mo, &method);
  if (st != PTERA_OK) return fail("creating forward", st, ptera_method_errmsg(method));

  const ptera_value *in = ptera_method_input(method, 0);
  size_t n;
  const unsigned char *data = npy_data(ptera_input, ptera_input_size, &n);
  if (!in || in->tag != PTERA_TAG_TENSOR || !data)
    return fail("the input", PTERA_INVALID_ARGUMENT, "forward needs one tensor; the input must be a .npy");
  const ptera_tensor *t = in->u.tensor;
  st = ptera_method_set_input_tensor(method, 0, (ptera_dtype)t->dtype, t->dim, t->sizes, data, n);
  if (st != PTERA_OK) return fail("setting the input", st, ptera_method_errmsg(method));
  st = ptera_method_execute(method);
  if (st != PTERA_OK) return fail("execute", st, ptera_method_errmsg(method));

  for (size_t k = 0; k < ptera_method_output_count(method); k++) {
    const ptera_value *v = ptera_method_output(method, k);
    if (v && v->tag == PTERA_TAG_TENSOR) print_output(k, v->u.tensor);
  }
  ptera_method_memory mm = PTERA_METHOD_MEMORY_INIT;
  ptera_method_get_memory(method, &mm);
  sh_puts("memory program=");
  sh_put_dec((int64_t)prog_need);
  sh_puts(" method=");
  sh_put_dec((int64_t)meth_need);
  sh_puts(" arena=");
  sh_put_dec((int64_t)mm.arena_bytes);
  sh_puts(" planned=");
  sh_put_dec((int64_t)mm.planned_bytes);
  sh_puts(" temp=");
  sh_put_dec((int64_t)mm.temp_bytes);
  sh_puts(" packed=");
  sh_put_dec((int64_t)mm.packed_bytes);
  sh_puts(" stack=");
  sh_put_dec((int64_t)stack_used());
  sh_puts("\n");
  ptera_method_destroy(method);
  ptera_program_destroy(program);
  return 0;
}
