/* f32 pooling fast path (see pool2d.h). */
#include "cpu/pool2d.h"

#include "cpu/isa.h"

static pk_f32_maxpool2d_fn maxpool_pick(const pk_maxpool2d_params *p) {
  size_t s = p->sh == p->sw && p->sh <= 2 ? p->sh : 0;
  if (s == 0) return pk_f32_maxpool2d_scalar;
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return s == 1 ? pk_f32_maxpool2d_s1_avx512 : pk_f32_maxpool2d_s2_avx512;
    case PK_ISA_AVX2: return s == 1 ? pk_f32_maxpool2d_s1_avx2 : pk_f32_maxpool2d_s2_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return s == 1 ? pk_f32_maxpool2d_s1_neon : pk_f32_maxpool2d_s2_neon;
#endif
    default: return pk_f32_maxpool2d_scalar;
  }
}

static pk_f32_gavgpool_fn gavgpool_pick(void) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return pk_f32_gavgpool_avx512;
    case PK_ISA_AVX2: return pk_f32_gavgpool_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return pk_f32_gavgpool_neon;
#endif
    default: return pk_f32_gavgpool_scalar;
  }
}

static pk_f32_avgpool2d_fn avgpool_pick(void) {
  switch (pk_isa_selected()) {
#if defined(__x86_64__)
    case PK_ISA_AVX512: return pk_f32_avgpool2d_avx512;
    case PK_ISA_AVX2: return pk_f32_avgpool2d_avx2;
#elif defined(__aarch64__)
    case PK_ISA_NEON: return pk_f32_avgpool2d_neon;
#endif
    default: return pk_f32_avgpool2d_scalar;
  }
}

typedef struct maxpool_job {
  const pk_maxpool2d_params *p;
  pk_f32_maxpool2d_fn fn;
  const float *in;
  float *out;
  int64_t *idx;
  size_t planes, parts; /* values only: parts of the output rows, every plane */
} maxpool_job;

static void maxpool_task(void *arg, size_t begin, size_t end) {
  const maxpool_job *j = arg;
  size_t ip = j->p->h * j->p->w, op = j->p->oh * j->p->ow;
  for (size_t i = begin; i < end; i++) j->fn(j->in + i * ip, j->out + i * op, j->idx ? j->idx + i * op : NULL, j->p);
}

/* Parts [begin, end) of the output rows, in every plane: each part a pool of
 * its own whose input starts at its first window's first row (the padding
 * above only for rows whose windows reach it). */
static void maxpool_rows_task(void *arg, size_t begin, size_t end) {
  const maxpool_job *j = arg;
  const pk_maxpool2d_params *p = j->p;
  size_t ip = p->h * p->w, op = p->oh * p->ow;
  size_t r0 = p->oh * begin / j->parts, r1 = p->oh * end / j->parts, top = r0 * p->sh;
  if (r0 == r1) return;
  size_t start = top >= p->pad_t ? top - p->pad_t : 0; /* < h: see pk_maxpool2d_f32 */
  pk_maxpool2d_params q = *p;
  q.h = p->h - start;
  q.oh = r1 - r0;
  q.pad_t = top >= p->pad_t ? 0 : p->pad_t - top;
  for (size_t i = 0; i < j->planes; i++) j->fn(j->in + i * ip + start * p->w, j->out + i * op + r0 * p->ow, NULL, &q);
}

/* Values only and enough rows: split the rows, the same share of every
 * plane to each thread, as the convolutions around it split theirs (their
 * outputs stay in the cache of the core that wrote them), unless a
 * thread's share of the input is over PK_CORE_CACHE_BYTES: then it comes
 * from memory (a convolution streams such outputs past the caches), and
 * whole planes read as long runs where a part's rows of every plane are
 * short ones (ResNet-18's stem pool, 2 threads: 237 -> 125 us in the model). */
#define MAXPOOL_ROW_PARTS 4u /* parts a thread */

void pk_maxpool2d_f32(const pk_maxpool2d_params *p, size_t planes, const float *in, float *out, int64_t *idx,
                      ptera_kernel_ctx *ctx) {
  size_t nt = ptera_kernel_thread_count(ctx);
  maxpool_job j = {p, maxpool_pick(p), in, out, idx, planes, MAXPOOL_ROW_PARTS * nt};
  /* every window starts on an input row or in the padding above it (as
   * PyTorch's output size rule ensures), so every part has a row to start on */
  bool cached = (double)planes * (double)(p->h * p->w) * sizeof(float) / (double)nt <= (double)PK_CORE_CACHE_BYTES;
  if (!idx && nt > 1 && cached && p->oh >= j.parts && (p->oh - 1) * p->sh < p->h + p->pad_t) {
    ptera_kernel_parallel_for(ctx, j.parts, 1, maxpool_rows_task, &j);
    return;
  }
  ptera_kernel_parallel_for(ctx, planes, (planes + nt - 1) / nt, maxpool_task, &j);
}

typedef struct gavg_job {
  pk_f32_gavgpool_fn fn;
  const float *in;
  float *out;
  size_t hw;
} gavg_job;

static void gavg_task(void *arg, size_t begin, size_t end) {
  const gavg_job *j = arg;
  for (size_t i = begin; i < end; i++) j->out[i] = j->fn(j->in + i * j->hw, j->hw);
}

void pk_gavgpool_f32(const float *in, float *out, size_t planes, size_t hw, ptera_kernel_ctx *ctx) {
  gavg_job j = {gavgpool_pick(), in, out, hw};
  size_t nt = ptera_kernel_thread_count(ctx);
  ptera_kernel_parallel_for(ctx, planes, (planes + nt - 1) / nt, gavg_task, &j);
}

typedef struct avgpool_job {
  const pk_avgpool2d_params *p;
  pk_f32_avgpool2d_fn fn;
  const float *in;
  float *out;
} avgpool_job;

static void avgpool_task(void *arg, size_t begin, size_t end) {
  const avgpool_job *j = arg;
  size_t ip = j->p->h * j->p->w, op = j->p->oh * j->p->ow;
  for (size_t i = begin; i < end; i++) j->fn(j->in + i * ip, j->out + i * op, j->p);
}

void pk_avgpool2d_f32(const pk_avgpool2d_params *p, size_t planes, const float *in, float *out,
                      ptera_kernel_ctx *ctx) {
  avgpool_job j = {p, avgpool_pick(), in, out};
  size_t nt = ptera_kernel_thread_count(ctx);
  ptera_kernel_parallel_for(ctx, planes, (planes + 4 * nt - 1) / (4 * nt), avgpool_task, &j);
}
