/* Fuzzes the whole runtime: load a program from the input bytes under tight
 * limits, create every method, bind generated tensor inputs and buffers for
 * unplanned outputs, execute (twice), read the outputs, destroy.
 *
 * Input: either a bare .pte, or "PTFZ" + u32 LE n + n bytes of .pte + a .ptd
 * (the rest), which is attached before methods are created. Delegated
 * methods run on stand-in backends (registered under the corpus' delegate
 * ids unless a real backend has that id) that accept any blob and read
 * every tensor argument. */
#include <math.h>

#include "fuzz.h"
#include "core/core.h"
#include "ptera/ptera.h"

typedef struct fz_handle {
  const ptera_allocator *allocator;
  size_t blob_size;
} fz_handle;

static bool fz_available(void) { return true; }

static ptera_status fz_init(ptera_backend_init_ctx *ctx, const void *blob, size_t blob_size,
                            const ptera_compile_spec *specs, size_t num_specs, void **out) {
  fz_touch(blob, blob_size);
  for (size_t i = 0; i < num_specs; i++) {
    FZ_REQUIRE(specs[i].key != NULL);
    fz_touch(specs[i].key, strlen(specs[i].key) + 1);
    fz_touch(specs[i].value, specs[i].size);
  }
  const void *nd;
  size_t nd_size;
  if (ctx->named_data && ptera_named_data_get(ctx->named_data, "fuzz", 4, &nd, &nd_size) == PTERA_OK)
    fz_touch(nd, nd_size);
  const ptera_allocator *a = ctx->allocator ? ctx->allocator : ptera_allocator_default();
  fz_handle *h = a->alloc(a->user_data, sizeof *h, 16);
  if (!h) {
    snprintf(ctx->message, ctx->message_size, "out of memory");
    return PTERA_MEMORY_ALLOCATION_FAILED;
  }
  h->allocator = a;
  h->blob_size = blob_size;
  *out = h;
  return PTERA_OK;
}

static ptera_status fz_execute(ptera_backend_exec_ctx *ctx, void *handle, ptera_value **args,
                               size_t nargs) {
  FZ_REQUIRE(handle != NULL);
  for (size_t i = 0; i < nargs; i++) fz_touch_value(args[i]);
  return PTERA_OK;
}

static void fz_destroy(void *handle) {
  fz_handle *h = handle;
  h->allocator->free(h->allocator->user_data, h);
}

#define FZ_BACKEND(id) {PTERA_BACKEND_ABI_VERSION, id, fz_available, fz_init, fz_execute, fz_destroy}
static const ptera_backend fz_backends[] = {
    FZ_BACKEND("XnnpackBackend"), FZ_BACKEND("QnnBackend"), FZ_BACKEND("EthosUBackend"),
    FZ_BACKEND("OpenvinoBackend"), FZ_BACKEND("BackendWithCompilerDemo"),
};

static void fz_register_backends(void) {
  static bool done;
  if (done) return;
  done = true;
  for (size_t i = 0; i < sizeof fz_backends / sizeof fz_backends[0]; i++)
    if (!ptera_backend_find(fz_backends[i].name, strlen(fz_backends[i].name)))
      (void)ptera_backend_register(&fz_backends[i]);
}

static uint64_t fz_rng;
static uint64_t fz_next(void) {
  fz_rng ^= fz_rng << 13;
  fz_rng ^= fz_rng >> 7;
  fz_rng ^= fz_rng << 17;
  return fz_rng;
}

/* Values a model would plausibly see: small numbers, some zeros, the odd
 * special float. */
static void fz_fill(uint8_t *buf, size_t numel, int dtype) {
  size_t es = ptera_dtype_size(dtype);
  for (size_t i = 0; i < numel; i++) {
    uint64_t r = fz_next();
    double x = (double)(int64_t)(r % 1601) / 200.0 - 4.0;
    if (r % 97 == 0) x = (r & 256) ? INFINITY : NAN;
    int64_t k = (int64_t)(r % 17) - 8;
    uint8_t *p = buf + i * es;
    switch (dtype) {
      case PTERA_DTYPE_FLOAT: { float f = (float)x; memcpy(p, &f, 4); break; }
      case PTERA_DTYPE_DOUBLE: memcpy(p, &x, 8); break;
      case PTERA_DTYPE_HALF: { uint16_t h = pt_float_to_half((float)x); memcpy(p, &h, 2); break; }
      case PTERA_DTYPE_BFLOAT16: { uint16_t h = pt_float_to_bf16((float)x); memcpy(p, &h, 2); break; }
      case PTERA_DTYPE_BOOL: p[0] = (uint8_t)(r & 1); break;
      case PTERA_DTYPE_CHAR: case PTERA_DTYPE_SHORT: case PTERA_DTYPE_INT: case PTERA_DTYPE_LONG: {
        int64_t v = k;
        memcpy(p, &v, es); /* little-endian: the low bytes carry the sign-extended value */
        break;
      }
      case PTERA_DTYPE_BYTE: case PTERA_DTYPE_UINT16: case PTERA_DTYPE_UINT32:
      case PTERA_DTYPE_UINT64: {
        uint64_t v = (uint64_t)(r % 9);
        memcpy(p, &v, es);
        break;
      }
      default:
        for (size_t b = 0; b < es; b++) p[b] = (uint8_t)(fz_next() >> 24);
    }
  }
}

/* fz_run_method's fill: whole elements of the dtype, none for an unknown
 * (zero-size) dtype. */
static void fz_fill_bytes(uint8_t *buf, size_t nbytes, int dtype) {
  size_t es = ptera_dtype_size(dtype);
  if (es) fz_fill(buf, nbytes / es, dtype);
}

int ptera_fuzz_load_execute(const uint8_t *data, size_t size) {
  fz_register_backends();
  const uint8_t *pte = data, *ptd = NULL;
  size_t pte_size = size, ptd_size = 0;
  if (size >= 8 && memcmp(data, "PTFZ", 4) == 0) {
    uint32_t n = pt_le32(data + 4);
    if (n > size - 8) return 0;
    pte = data + 8;
    pte_size = n;
    ptd = data + 8 + n;
    ptd_size = size - 8 - n;
  }
  fz_rng = 0x9E3779B97F4A7C15ull ^ size;
  for (size_t i = 0; i < size && i < 64; i++) fz_rng = (fz_rng ^ data[i]) * 0x100000001B3ull;
  if (!fz_rng) fz_rng = 1;

  /* Exact-size aligned copies, so ASan sees reads past the end. */
  uint8_t *pbuf = fz_aligned_copy(pte, pte_size);
  uint8_t *dbuf = ptd_size ? fz_aligned_copy(ptd, ptd_size) : NULL;
  if (!pbuf || (ptd_size && !dbuf)) {
    free(pbuf);
    free(dbuf);
    return 0;
  }
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.max_planned_bytes = 16u << 20;
  o.max_values = 1u << 16;
  o.max_instructions = 1u << 16;
  ptera_program *p = NULL;
  ptera_status st = ptera_program_load_buffer(pbuf, pte_size, &o, &p);
  FZ_REQUIRE(p != NULL);
  if (st != PTERA_OK) {
    FZ_REQUIRE(ptera_program_errmsg(p)[0] != '\0');
  } else {
    if (dbuf) {
      st = ptera_program_attach_data_buffer(p, dbuf, ptd_size);
      FZ_REQUIRE(st == PTERA_OK || ptera_program_errmsg(p)[0] != '\0');
    }
    size_t nm = ptera_program_method_count(p);
    for (size_t i = 0; i < nm; i++) {
      const char *name = ptera_program_method_name(p, i);
      FZ_REQUIRE(name != NULL);
      ptera_method_info info = PTERA_METHOD_INFO_INIT;
      if (ptera_program_method_info(p, name, &info) == PTERA_OK) {
        ptera_io_info io = PTERA_IO_INFO_INIT;
        for (size_t k = 0; k < info.num_inputs; k++) (void)ptera_program_method_input(p, name, k, &io);
        for (size_t k = 0; k < info.num_outputs; k++) (void)ptera_program_method_output(p, name, k, &io);
      }
      fz_run_method(p, name, fz_fill_bytes);
    }
  }
  ptera_program_destroy(p);
  free(pbuf);
  free(dbuf);
  return 0;
}

PTERA_FUZZ_MAIN(load_execute)
