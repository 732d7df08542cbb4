/* Convolution geometry validation (see conv_geom.h). */
#include "cpu/conv_geom.h"

#include <stdio.h>

/* The message into msg[cap] (cap may be 0); with PTERA_STRIP_MESSAGES an
 * empty one, the format never compiled in. */
#if PTERA_STRIP_MESSAGES
#define geom_msg(msg, cap, ...) (PTERA_DISCARD_MESSAGE(__VA_ARGS__), (cap) ? (void)((msg)[0] = '\0') : (void)0)
#else
#define geom_msg(msg, cap, ...) ((cap) ? (void)snprintf((msg), (cap), __VA_ARGS__) : (void)0)
#endif
#define geom_fail(msg, cap, ...) (geom_msg(msg, cap, __VA_ARGS__), PTERA_INVALID_ARGUMENT)

/* One value in [min, INT32_MAX]. */
static bool in_range(int64_t v, int64_t min) { return v >= min && v <= INT32_MAX; }

/* One output extent; all inputs are in [0, INT32_MAX] (k, s, d >= 1), so no
 * intermediate leaves int64_t: each term is below 2^62 and there are three. */
static int64_t out_extent(const pk_conv2d_geom *g, int i, int64_t in, int64_t k) {
  int64_t s = g->stride[i], p = g->pad[i], span = g->dil[i] * (k - 1);
  if (g->transposed) return (in - 1) * s - 2 * p + span + g->out_pad[i] + 1;
  int64_t num = in + 2 * p - span - 1;
  if (num < 0) return 0;
  if (!g->ceil_mode) return num / s + 1;
  int64_t o = (num + s - 1) / s + 1;
  return (o - 1) * s >= in + p ? o - 1 : o;
}

ptera_status pk_conv2d_geom_init(pk_conv2d_geom *g, char *msg, size_t cap) {
  if (cap) msg[0] = '\0';
  if (!in_range(g->n, 0) || !in_range(g->h, 0) || !in_range(g->w, 0))
    return geom_fail(msg, cap, "the input extents must lie in [0, 2^31) (batch %lld)", (long long)g->n);
  if (!in_range(g->c_in, 0) || !in_range(g->c_out, 0))
    return geom_fail(msg, cap, "the channel counts must lie in [0, 2^31) (input %lld)", (long long)g->c_in);
  if (!in_range(g->groups, 1) || g->c_in % g->groups != 0 || g->c_out % g->groups != 0)
    return geom_fail(msg, cap, "'groups' = %lld must be positive and divide the input and output channels",
                     (long long)g->groups);
  if (!in_range(g->kh, 1) || !in_range(g->kw, 1))
    return geom_fail(msg, cap, "the kernel must not be empty (%lld rows)", (long long)g->kh);
  for (int i = 0; i < 2; i++) {
    if (!in_range(g->stride[i], 1))
      return geom_fail(msg, cap, "'stride' %lld must lie in [1, 2^31)", (long long)g->stride[i]);
    if (!in_range(g->dil[i], 1))
      return geom_fail(msg, cap, "'dilation' %lld must lie in [1, 2^31)", (long long)g->dil[i]);
    if (!in_range(g->pad[i], 0))
      return geom_fail(msg, cap, "'padding' %lld must lie in [0, 2^31)", (long long)g->pad[i]);
    if (!in_range(g->out_pad[i], 0))
      return geom_fail(msg, cap, "'output_padding' %lld must lie in [0, 2^31)", (long long)g->out_pad[i]);
  }
  if (g->transposed && g->ceil_mode) return geom_fail(msg, cap, "a transposed convolution has no ceil_mode");
  g->oh = out_extent(g, 0, g->h, g->kh);
  g->ow = out_extent(g, 1, g->w, g->kw);
  if (g->oh <= 0 || g->ow <= 0 || g->oh > INT32_MAX || g->ow > INT32_MAX) {
    return geom_fail(msg, cap, "the kernel does not fit the padded input (output size %lld x %lld)",
                     (long long)g->oh, (long long)g->ow);
  }
  return PTERA_OK;
}
