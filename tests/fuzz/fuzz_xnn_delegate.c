/* Fuzzes XnnpackBackend init + execute directly on a blob: init (no named
 * data), then binds every external to a tensor of its stored shape (rank
 * and element count capped), filled with small values, and executes twice.
 * Any failure must leave a message; nothing may read or write out of
 * bounds (ASan). */
#include "format/xnngraph.h"
#include "fuzz.h"

#define FZ_MAX_IO (1u << 16) /* bytes per bound tensor */

static int et_dtype(uint8_t dt) {
  switch (dt) {
    case PF_XNN_DT_FP32: return PTERA_DTYPE_FLOAT;
    case PF_XNN_DT_FP16: return PTERA_DTYPE_HALF;
    case PF_XNN_DT_BF16: return PTERA_DTYPE_BFLOAT16;
    case PF_XNN_DT_QINT8: return PTERA_DTYPE_CHAR;
    case PF_XNN_DT_QUINT8: return PTERA_DTYPE_BYTE;
    case PF_XNN_DT_INT32: case PF_XNN_DT_QINT32: return PTERA_DTYPE_INT;
    default: return -1;
  }
}

static void run(void *h, const ptera_backend *b, const pf_xnn_graph *g, void *temp, size_t temp_size) {
  uint32_t n = g->num_externs < 64 ? g->num_externs : 64;
  ptera_tensor t[64];
  ptera_value v[64], *args[64];
  void *bufs[64] = {0};
  memset(t, 0, sizeof t);
  for (uint32_t i = 0; i < n; i++) {
    v[i].tag = PTERA_TAG_NONE;
    args[i] = &v[i];
  }
  for (uint32_t i = 0; i < g->nvalues; i++) {
    const pf_xnn_value *x = &g->values[i];
    int dt = et_dtype(x->datatype);
    if (!x->flags || x->external_id >= n || dt < 0) continue;
    ptera_tensor *ti = &t[x->external_id];
    ti->dtype = (uint8_t)dt;
    ti->dim = x->ndims;
    ti->dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
    uint64_t numel = 1;
    for (unsigned d = 0; d < x->ndims; d++) {
      ti->sizes[d] = (int32_t)(x->dims[d] > 64 ? 64 : x->dims[d]);
      ti->dim_order[d] = (uint8_t)d;
      numel *= (uint64_t)ti->sizes[d];
    }
    size_t es = ptera_dtype_size(dt);
    if (numel * es > FZ_MAX_IO) continue;
    ti->numel = (size_t)numel;
    ti->capacity = FZ_MAX_IO;
    ptera_tensor_update_strides(ti);
    bufs[x->external_id] = calloc(1, FZ_MAX_IO);
    if (!bufs[x->external_id]) continue;
    memset(bufs[x->external_id], 0x3c, (size_t)(numel * es)); /* 1.1484375 as fp32 bytes */
    ti->data = bufs[x->external_id];
    v[x->external_id].tag = PTERA_TAG_TENSOR;
    v[x->external_id].u.tensor = ti;
  }
  char msg[512];
  ptera_backend_exec_ctx ctx = {"forward", msg, sizeof msg, temp, temp_size, NULL};
  for (int rep = 0; rep < 2; rep++) {
    msg[0] = '\0';
    if (b->execute(&ctx, h, args, n) != PTERA_OK) {
      FZ_REQUIRE(msg[0] != '\0');
      break;
    }
    for (uint32_t i = 0; i < n; i++)
      if (v[i].tag == PTERA_TAG_TENSOR) fz_touch(t[i].data, ptera_tensor_nbytes(&t[i]));
  }
  for (uint32_t i = 0; i < 64; i++) free(bufs[i]);
}

int ptera_fuzz_xnn_delegate(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  const ptera_backend *b = ptera_backend_find("XnnpackBackend", 14);
  FZ_REQUIRE(b != NULL);
  char msg[512] = "";
  ptera_backend_init_ctx ictx = {"forward", NULL, NULL, msg, sizeof msg, NULL, 0, 64u << 20, NULL, 0};
  void *h = NULL;
  if (b->init(&ictx, buf, size, NULL, 0, &h) == PTERA_OK) {
    /* The handle's graph is private: decode again for the externals. */
    pt_arena arena;
    pt_arena_init(&arena, NULL);
    pf_xnn_graph g;
    pt_err err;
    FZ_REQUIRE(pf_xnn_parse(buf, size, &arena, &g, &err) == PTERA_OK);
    /* the scratch init asked for (within the harness's 64 MiB budget) */
    size_t tsz = (ictx.temp_bytes + 63) & ~(size_t)63;
    void *temp = tsz && tsz <= (64u << 20) ? aligned_alloc(64, tsz) : NULL;
    run(h, b, &g, temp, temp ? tsz : 0);
    free(temp);
    pt_arena_release(&arena);
    b->destroy(h);
  } else {
    FZ_REQUIRE(msg[0] != '\0');
  }
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(xnn_delegate)
