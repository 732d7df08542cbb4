/* How the convolution paths split one call over threads (internal to
 * conv2d*.c). Per outer problem (image x group) the P output columns, in
 * steps of whole panels, are cut into nblocks blocks whose step counts
 * differ by at most one, and each block's product may be split `shares`
 * ways (pk_gemm_f32_run_share). One thread: the blocks the per-task budget
 * asks for. More: at least CONV_SPLIT_ITEMS items per thread where the
 * shape allows, so two threads get equal work even for a 7x7 or 14x14
 * plane with hundreds of channels: first more blocks (while each keeps one
 * step), then shares of the rows (while each keeps CONV_SPLIT_ROWS of
 * them). Where every block is one step and the threads cannot have as
 * many each, the blocks stay whole steps and, where there are rows for two
 * shares, their rows are shared: 196 columns in steps of 32 with 256 rows
 * on 2 threads are 7 blocks of 2 shares, 3.5 panels of full rows a thread
 * (Winograd, whose units keep whole blocks: 4 and 3 blocks, the last one
 * nearly empty). With fewer rows, blocks are added until each thread has
 * as many (a few columns of the last step would otherwise be a thread's
 * whole block) and the columns are cut evenly, each block at most a step
 * wide: 8 blocks of 24 or 25, 4 panels a thread, each a quarter empty.
 * The split depends on the geometry and thread count only (not the ISA),
 * so the workspace sized at prepare holds the widest block at run. */
#ifndef PK_CPU_CONV2D_SPLIT_H
#define PK_CPU_CONV2D_SPLIT_H

#include <stddef.h>

#include "cpu/gemm.h"

#define CONV_SPLIT_ITEMS 4u  /* items per thread, for balance on a noisy host */
#define CONV_SPLIT_ROWS 32u  /* fewest product rows (output channels) a share keeps */

typedef struct conv_split {
  size_t step, steps, nblocks, shares;
  size_t bmax; /* columns of the widest block */
  int even;    /* blocks cut evenly in columns, not in steps */
} conv_split;

/* P columns in steps of `step`, blocks of at most `budget` columns (at
 * least one step), `outer` independent problems of `rows` product rows. */
static inline conv_split conv_split_make(size_t P, size_t step, size_t budget, size_t outer, size_t rows,
                                         size_t nthreads) {
  size_t steps = P ? (P + step - 1) / step : 1, per = budget / step ? budget / step : 1;
  size_t nblocks = (steps + per - 1) / per, shares = 1;
  int even = 0;
  if (outer == 0) outer = 1;
  if (nthreads > 1) {
    size_t target = CONV_SPLIT_ITEMS * nthreads, want = (target + outer - 1) / outer;
    if (nblocks < want) nblocks = want < steps ? want : steps;
    if (nblocks == steps && P > 1 && !(rows >= 2 * CONV_SPLIT_ROWS && nblocks * outer % nthreads)) { /* cut evenly */
      while (nblocks * outer % nthreads && nblocks < P) nblocks++;
      even = 1;
    }
    if (nblocks < want) {
      size_t most = rows / CONV_SPLIT_ROWS ? rows / CONV_SPLIT_ROWS : 1;
      shares = (want + nblocks - 1) / nblocks;
      if (shares > most) shares = most;
      if (shares > nthreads * CONV_SPLIT_ITEMS) shares = nthreads * CONV_SPLIT_ITEMS;
    }
  }
  size_t wide = even ? (P + nblocks - 1) / nblocks : (steps + nblocks - 1) / nblocks * step;
  return (conv_split){step, steps, nblocks, shares, wide < P ? wide : P, even};
}

/* Columns [*c0, *c1) of block b. */
static inline void conv_split_block(const conv_split *s, size_t P, size_t b, size_t *c0, size_t *c1) {
  if (s->even) {
    *c0 = P * b / s->nblocks;
    *c1 = P * (b + 1) / s->nblocks;
    return;
  }
  size_t x0 = s->steps * b / s->nblocks * s->step, x1 = s->steps * (b + 1) / s->nblocks * s->step;
  *c0 = x0 < P ? x0 : P;
  *c1 = x1 < P ? x1 : P;
}

/* Shared-mode loops cut each of `units` units' n things (channels,
 * products) into groups: the group size that makes about CONV_SPLIT_ITEMS
 * items a thread over all units (at least one thing a group), ... */
static inline size_t conv_group_size(size_t n, size_t units, size_t nthreads) {
  size_t parts = (CONV_SPLIT_ITEMS * nthreads + units - 1) / units;
  if (parts > n) parts = n;
  return parts ? (n + parts - 1) / parts : 1;
}
/* ... the groups of one unit, and item's unit and range [*lo, *hi) of its n. */
static inline size_t conv_groups(size_t n, size_t group) { return (n + group - 1) / group; }
static inline size_t conv_group_item(size_t item, size_t n, size_t group, size_t *lo, size_t *hi) {
  size_t per = conv_groups(n, group);
  *lo = item % per * group;
  *hi = *lo + group < n ? *lo + group : n;
  return item / per;
}

#define CONV_COPY_SPLIT_FLOATS ((size_t)1 << 16) /* smaller copies run on one thread */

/* Grain of a parallel_for over n units of `per` floats each of copying
 * (gathers, transposes): all of it on the caller when the copy is small
 * (no barrier for a descheduled worker to hold up), else about
 * CONV_SPLIT_ITEMS chunks a thread. */
static inline size_t conv_copy_grain(size_t n, size_t per, size_t nthreads) {
  if (n == 0 || nthreads <= 1 || n * per < CONV_COPY_SPLIT_FLOATS) return n ? n : 1;
  return (n + CONV_SPLIT_ITEMS * nthreads - 1) / (CONV_SPLIT_ITEMS * nthreads);
}

/* Output channels [oc0, oc0 + n) of filters packed per group (a packed
 * GEMM operand whose lanes are the group's cout_g channels, `stride` bytes
 * apart) multiplied by scale[0 .. n). */
static inline void conv_scale_groups(void *packed, size_t stride, size_t cout_g, size_t oc0, size_t n,
                                     const double *scale) {
  for (size_t oc = oc0; oc < oc0 + n;) {
    size_t grp = oc / cout_g, end = (grp + 1) * cout_g < oc0 + n ? (grp + 1) * cout_g : oc0 + n;
    pk_gemm_f32_packed_scale((char *)packed + grp * stride, oc - grp * cout_g, end - oc, scale + (oc - oc0));
    oc = end;
  }
}

#endif
