#include <stdatomic.h>
#include <string.h>

#include "portable/util/fill.h"

ptera_status pk_fill_scalar(ptera_kernel_ctx *ctx, const char *op, const char *name,
                            ptera_tensor *out, const pk_scalar *s) {
  const char *opn = op;
  if (!pk_is_real_or_bool(out->dtype))
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "%s: '%s' has unsupported dtype %s", opn,
                             name, ptera_dtype_name(out->dtype));
  if (pk_is_int(out->dtype)) {
    if (s->tag == PTERA_TAG_DOUBLE)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: a floating value cannot fill '%s' of dtype %s", opn, name,
                               ptera_dtype_name(out->dtype));
    int64_t lo, hi;
    pk_int_range(out->dtype, &lo, &hi);
    if (s->i < lo || s->i > hi)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT,
                               "%s: value %lld is out of range for '%s' of dtype %s", opn,
                               (long long)s->i, name, ptera_dtype_name(out->dtype));
  }
  if (out->numel == 0) return PTERA_OK;
  size_t es = ptera_dtype_size(out->dtype);
  char *d = (char *)out->data;
  if (s->tag == PTERA_TAG_DOUBLE)
    pk_store_f64(d, out->dtype, s->d);
  else
    pk_store_i64(d, out->dtype, s->i);
  for (size_t i = 1; i < out->numel; i++) memcpy(d + i * es, d, es);
  return PTERA_OK;
}

/* A 32-bit counter: 64-bit atomics are not lock-free on 32-bit cores (and
 * need libatomic on bare metal); streams differ as long as n does. */
static atomic_uint pk_rng_streams = 0;

void pk_rng_init(pk_rng *r) {
  uint64_t n = atomic_fetch_add(&pk_rng_streams, 1u);
  r->state = 0x853c49e6748fea9bull ^ (n * 0x9e3779b97f4a7c15ull);
}

uint64_t pk_rng_next(pk_rng *r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double pk_rng_uniform(pk_rng *r) { return (double)(pk_rng_next(r) >> 11) * 0x1.0p-53; }

double pk_rng_normal(pk_rng *r) {
  double u1 = 1.0 - pk_rng_uniform(r); /* (0, 1] */
  double u2 = pk_rng_uniform(r);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}
