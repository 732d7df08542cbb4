#include "portable/util/fast_f32.h"

#include <math.h>
#include <string.h>

#include "cpu/vmath.h"

#define ROW_GRAIN_ELEMS 16384 /* elements per task, at least */

static bool fast_on = true;

void pk_fast_f32_enable(bool on) { fast_on = on; }

bool pk_fast_f32_on(void) { return fast_on; }

/* One job over the rows of an iterator; row() gets each operand's pointer. */
typedef struct row_job {
  pk_iter it;
  size_t n;
  ptrdiff_t st[PK_ITER_MAX_OPS];
  char *base[PK_ITER_MAX_OPS];
  void (*row)(const struct row_job *j, char *const *p, size_t n);
  const pk_vmath_f32_table *vm;
  pk_vbinary_f32 bin;
  pk_vunary_f32 un;
  float lo, hi;
  bool log_;
  bool flat; /* one run of n elements, split by element range */
} row_job;

static void run_rows(void *arg, size_t begin, size_t end) {
  const row_job *j = (const row_job *)arg;
  pk_iter it = j->it;
  pk_iter_seek(&it, begin);
  char *p[PK_ITER_MAX_OPS];
  for (size_t r = begin; r < end; r++, pk_iter_next(&it)) {
    for (size_t k = 0; k < it.nops; k++) p[k] = j->base[k] + it.off[k];
    j->row(j, p, j->n);
  }
}

/* Elements [begin, end) of a flat job (every operand one contiguous float run). */
static void run_flat(void *arg, size_t begin, size_t end) {
  const row_job *j = (const row_job *)arg;
  char *p[PK_ITER_MAX_OPS];
  for (size_t k = 0; k < j->it.nops; k++) p[k] = j->base[k] + begin * sizeof(float);
  j->row(j, p, end - begin);
}

static void parallel_rows(ptera_kernel_ctx *ctx, row_job *j) {
  if (j->it.numel == 0 || j->n == 0) return;
  if (j->flat) {
    ptera_kernel_parallel_for(ctx, j->n, ROW_GRAIN_ELEMS, run_flat, j);
    return;
  }
  size_t grain = j->n >= ROW_GRAIN_ELEMS ? 1 : ROW_GRAIN_ELEMS / j->n;
  ptera_kernel_parallel_for(ctx, j->it.numel, grain, run_rows, j);
}

/* Sets j->it to walk out and ins as rows; false unless out's run is contiguous. */
static bool rows_init(row_job *j, ptera_tensor *out, const ptera_tensor *const *ins, size_t nin) {
  memset(j, 0, sizeof *j);
  pk_iter_init(&j->it, out, ins, nin);
  pk_iter_rows(&j->it, &j->n, j->st);
  j->base[0] = (char *)out->data;
  for (size_t k = 0; k < nin; k++) j->base[k + 1] = (char *)ins[k]->data;
  j->vm = pk_vmath_f32();
  return j->n == 1 || j->st[0] == (ptrdiff_t)sizeof(float);
}

/* A run stride of one float, or 0 (a broadcast element); n == 1 takes any. */
static int run_kind(const row_job *j, size_t k) {
  if (j->n == 1 || j->st[k] == (ptrdiff_t)sizeof(float)) return 1;
  return j->st[k] == 0 ? 0 : -1;
}

static void binary_row(const row_job *j, char *const *p, size_t n) {
  j->bin(n, (const float *)p[1], (const float *)p[2], (float *)p[0]);
}

bool pk_fast_binary_f32(ptera_kernel_ctx *ctx, int vop, const ptera_tensor *a,
                        const ptera_tensor *b, ptera_tensor *out, int common) {
  if (!fast_on || common != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT) return false;
  /* 0-d operands of another dtype are read once as float (pk_load_f32) */
  ptera_tensor sa, sb;
  float va, vb;
  const ptera_tensor *ins[2] = {a, b};
  ptera_tensor *loc[2] = {&sa, &sb};
  float *val[2] = {&va, &vb};
  for (int k = 0; k < 2; k++) {
    if (ins[k]->dtype == PTERA_DTYPE_FLOAT) continue;
    if (ins[k]->dim != 0 || ins[k]->numel != 1) return false;
    *val[k] = pk_load_f32(ins[k]->data, ins[k]->dtype);
    *loc[k] = *ins[k];
    loc[k]->dtype = PTERA_DTYPE_FLOAT;
    loc[k]->data = val[k];
    ins[k] = loc[k];
  }
  row_job j;
  if (!rows_init(&j, out, ins, 2)) return false;
  int ka = run_kind(&j, 1), kb = run_kind(&j, 2);
  int mode;
  if (ka == 1 && kb == 1) mode = PK_VB_RUNS;
  else if (ka == 1 && kb == 0) mode = PK_VB_SCALAR_B;
  else if (ka == 0 && kb == 1) mode = PK_VB_SCALAR_A;
  else return false;
  j.bin = j.vm->binary[vop][mode];
  j.row = binary_row;
  parallel_rows(ctx, &j);
  return true;
}

static void unary_row(const row_job *j, char *const *p, size_t n) {
  j->un(n, (const float *)p[1], (float *)p[0]);
}

static void clamp_row(const row_job *j, char *const *p, size_t n) {
  j->vm->clamp(n, (const float *)p[1], j->lo, j->hi, (float *)p[0]);
}

/* A one-input job over in and out (Float); the same layout makes it one flat run. */
static bool unary_job(row_job *j, const ptera_tensor *in, ptera_tensor *out) {
  if (!fast_on || in->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT) return false;
  const ptera_tensor *ins[1] = {in};
  if (pk_same_layout(in, out)) {
    memset(j, 0, sizeof *j);
    j->vm = pk_vmath_f32();
    j->base[0] = (char *)out->data;
    j->base[1] = (char *)in->data;
    j->it.nops = 2;
    j->it.numel = in->numel ? 1 : 0;
    j->n = in->numel;
    j->flat = true;
    return true;
  }
  if (!rows_init(j, out, ins, 1)) return false;
  return run_kind(j, 1) == 1;
}

bool pk_fast_unary_f32(ptera_kernel_ctx *ctx, int vu, const ptera_tensor *in, ptera_tensor *out) {
  row_job j;
  if (!unary_job(&j, in, out)) return false;
  j.un = j.vm->unary[vu];
  j.row = unary_row;
  parallel_rows(ctx, &j);
  return true;
}

bool pk_fast_clamp_f32(ptera_kernel_ctx *ctx, const ptera_tensor *in, float lo, float hi,
                       ptera_tensor *out) {
  row_job j;
  if (!unary_job(&j, in, out)) return false;
  j.lo = lo;
  j.hi = hi;
  j.row = clamp_row;
  parallel_rows(ctx, &j);
  return true;
}

static void softmax_row(const row_job *j, char *const *p, size_t n) {
  if (j->log_) j->vm->log_softmax(n, (const float *)p[1], (float *)p[0]);
  else j->vm->softmax(n, (const float *)p[1], (float *)p[0]);
}

bool pk_fast_softmax_rows(ptera_kernel_ctx *ctx, const pk_iter *it, size_t len,
                          const ptera_tensor *in, ptera_tensor *out, bool log_) {
  if (!fast_on) return false;
  row_job j;
  memset(&j, 0, sizeof j);
  j.it = *it;
  j.n = len;
  j.base[0] = (char *)out->data;
  j.base[1] = (char *)in->data;
  j.vm = pk_vmath_f32();
  j.log_ = log_;
  j.row = softmax_row;
  parallel_rows(ctx, &j);
  return true;
}

typedef struct ln_job {
  const float *x, *w, *b;
  float *y;
  size_t K;
  double eps;
  double *mean, *rstd;
  const pk_vmath_f32_table *vm;
} ln_job;

/* Rows [begin, end): two passes in double (four partial sums), then the apply. */
static void ln_rows(void *arg, size_t begin, size_t end) {
  const ln_job *j = (const ln_job *)arg;
  size_t K = j->K;
  for (size_t g = begin; g < end; g++) {
    const float *x = j->x + g * K;
    double s[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 4 <= K; i += 4)
      for (int u = 0; u < 4; u++) s[u] += x[i + (size_t)u];
    for (; i < K; i++) s[0] += x[i];
    double m = ((s[0] + s[1]) + (s[2] + s[3])) / (double)K;
    double q[4] = {0, 0, 0, 0};
    for (i = 0; i + 4 <= K; i += 4)
      for (int u = 0; u < 4; u++) {
        double d = x[i + (size_t)u] - m;
        q[u] += d * d;
      }
    for (; i < K; i++) {
      double d = x[i] - m;
      q[0] += d * d;
    }
    double r = 1.0 / sqrt(((q[0] + q[1]) + (q[2] + q[3])) / (double)K + j->eps);
    j->mean[g] = m;
    j->rstd[g] = r;
    j->vm->norm_apply(K, x, (float)m, (float)r, j->w, j->b, j->y + g * K);
  }
}

bool pk_fast_layer_norm_f32(ptera_kernel_ctx *ctx, const float *x, size_t M, size_t K,
                            const float *w, const float *b, double eps, float *y, double *mean,
                            double *rstd) {
  if (!fast_on) return false;
  ln_job j = {x, w, b, y, K, eps, mean, rstd, pk_vmath_f32()};
  size_t grain = K >= ROW_GRAIN_ELEMS ? 1 : ROW_GRAIN_ELEMS / K;
  ptera_kernel_parallel_for(ctx, M, grain, ln_rows, &j);
  return true;
}

bool pk_fast_reduce_f32(const pk_reduce_plan *p, const ptera_tensor *in, ptera_tensor *out,
                        bool keepdim, int kind) {
  if (!fast_on || in->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT) return false;
  pk_iter outer, inner;
  pk_reduce_iters(p, in, out, keepdim, &outer, &inner);
  size_t n;
  ptrdiff_t st[PK_ITER_MAX_OPS];
  pk_iter_rows(&inner, &n, st);
  if (inner.numel > 1 || (n > 1 && st[0] != (ptrdiff_t)sizeof(float))) return false;
  if (inner.numel == 0) n = 0;
  const pk_vmath_f32_table *vm = pk_vmath_f32();
  const char *ib = (const char *)in->data;
  PK_ITER_FOR(outer) {
    const float *x = (const float *)(ib + outer.off[1]);
    float v;
    if (kind == PK_FAST_MAX) {
      v = vm->max(n, x);
    } else {
      v = vm->sum(n, x);
      if (kind == PK_FAST_MEAN) v = v / (float)p->reduced_numel;
    }
    *(float *)PK_PTR(out->data, outer, 0) = v;
  }
  return true;
}

bool pk_fast_where_f32(ptera_kernel_ctx *ctx, const ptera_tensor *c, const ptera_tensor *a,
                       const ptera_tensor *b, ptera_tensor *out) {
  (void)ctx;
  if (!fast_on || c->dtype != PTERA_DTYPE_BOOL || a->dtype != PTERA_DTYPE_FLOAT ||
      b->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT)
    return false;
  const ptera_tensor *ins[3] = {c, a, b};
  row_job j;
  if (!rows_init(&j, out, ins, 3)) return false;
  ptrdiff_t sc = j.st[1], sa = j.st[2] / (ptrdiff_t)sizeof(float), sb = j.st[3] / (ptrdiff_t)sizeof(float);
  if (j.n == 0) return true;
  PK_ITER_FOR(j.it) {
    const uint8_t *cp = (const uint8_t *)(j.base[1] + j.it.off[1]);
    const float *ap = (const float *)(j.base[2] + j.it.off[2]);
    const float *bp = (const float *)(j.base[3] + j.it.off[3]);
    float *y = (float *)(j.base[0] + j.it.off[0]);
    if (sc == 1 && sa == 1 && sb == 1) {
      for (size_t i = 0; i < j.n; i++) y[i] = cp[i] ? ap[i] : bp[i];
    } else {
      for (size_t i = 0; i < j.n; i++)
        y[i] = cp[(ptrdiff_t)i * sc] ? ap[(ptrdiff_t)i * sa] : bp[(ptrdiff_t)i * sb];
    }
  }
  return true;
}

bool pk_fast_masked_fill_f32(ptera_kernel_ctx *ctx, const ptera_tensor *self,
                             const ptera_tensor *mask, float value, ptera_tensor *out) {
  (void)ctx;
  if (!fast_on || self->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT) return false;
  const ptera_tensor *ins[2] = {self, mask};
  row_job j;
  if (!rows_init(&j, out, ins, 2)) return false;
  ptrdiff_t ss = j.st[1] / (ptrdiff_t)sizeof(float), sm = j.st[2];
  if (j.n == 0) return true;
  PK_ITER_FOR(j.it) {
    const float *x = (const float *)(j.base[1] + j.it.off[1]);
    const uint8_t *m = (const uint8_t *)(j.base[2] + j.it.off[2]);
    float *y = (float *)(j.base[0] + j.it.off[0]);
    if (ss == 1 && sm == 1) {
      for (size_t i = 0; i < j.n; i++) y[i] = m[i] ? value : x[i];
    } else {
      for (size_t i = 0; i < j.n; i++) y[i] = m[(ptrdiff_t)i * sm] ? value : x[(ptrdiff_t)i * ss];
    }
  }
  return true;
}
