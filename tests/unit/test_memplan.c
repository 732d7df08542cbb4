/* Memory planner (src/core/memplan.c): hand-computed layouts, alignment,
 * views, zero sizes, a 3-layer MLP, 1000 random problems checked with
 * pt_memplan_verify, overflow and allocation-failure injection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fail_alloc.h"
#include "core/memplan.h"

#define B(sz, f, l) {(sz), (f), (l), -1, false}
#define V(sz, f, l, base) {(sz), (f), (l), (base), false}
#define P(sz, f, l) {(sz), (f), (l), -1, true}
#define N(a) (sizeof(a) / sizeof((a)[0]))

static pt_memplan plan_ok(const pt_membuf *b, size_t n, size_t align) {
  pt_memplan p;
  pt_err e;
  pt_err_clear(&e);
  ptera_status st = pt_memplan_compute(b, n, align, NULL, &p, &e);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) fprintf(stderr, "  compute: %s\n", e.msg);
  if (st == PTERA_OK) {
    st = pt_memplan_verify(b, n, &p, NULL, &e);
    CHECK(st == PTERA_OK);
    if (st != PTERA_OK) fprintf(stderr, "  verify: %s\n", e.msg);
  }
  return p;
}

static uint64_t peak(const pt_memplan *p) {
  pt_memplan_summary s;
  pt_memplan_stats(p, &s);
  return s.peak_bytes;
}

static void check_offsets(const pt_memplan *p, const uint64_t *want, size_t n) {
  CHECK(p->count == n);
  for (size_t i = 0; i < n && i < p->count; i++) {
    CHECK(p->locs[i].memory_id == 1);
    CHECK(p->locs[i].offset == want[i]);
    if (p->locs[i].offset != want[i])
      fprintf(stderr, "  buffer %zu: offset %llu, want %llu\n", i,
              (unsigned long long)p->locs[i].offset, (unsigned long long)want[i]);
  }
}

static void test_disjoint_and_overlap(void) {
  pt_membuf d[] = {B(100, 0, 1), B(100, 2, 3)};
  pt_memplan p = plan_ok(d, N(d), 0);
  check_offsets(&p, (const uint64_t[]){0, 0}, N(d));
  CHECK(p.alignment == 16);
  CHECK(p.num_arenas == 1 && p.arena_sizes[0] == 0 && p.arena_sizes[1] == 112);
  pt_memplan_summary s;
  pt_memplan_stats(&p, &s);
  CHECK(s.peak_bytes == 112 && s.no_reuse_bytes == 224 && s.max_live_bytes == 112);
  pt_memplan_free(&p);
  CHECK(p.locs == NULL && p.count == 0);

  /* Lifetimes touching at one instruction (inclusive) conflict. */
  pt_membuf o[] = {B(100, 0, 2), B(50, 2, 3)};
  p = plan_ok(o, N(o), 16);
  check_offsets(&p, (const uint64_t[]){0, 112}, N(o));
  CHECK(peak(&p) == 176);
  pt_memplan_free(&p);
}

/* Placed first: X 64 [0,64) early only; Y [64,96), W [96,128), Z [128,160).
 * Q (32 bytes, t=3) conflicts only with Y and Z: gaps [0,64) (64 bytes) and
 * [96,128) (32 bytes). First fit would give 0; best fit gives 96. */
static void test_best_fit(void) {
  pt_membuf b[] = {B(64, 0, 0), B(32, 0, 5), B(32, 0, 0), B(32, 0, 5), B(32, 3, 3)};
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){0, 64, 96, 128, 96}, N(b));
  CHECK(peak(&p) == 160);
  pt_memplan_free(&p);

  /* Equal gaps: the lower offset wins. Big buffers at t=0 leave two 32-byte
   * holes ([0,32) and [64,96)) for the t=1 buffer once only the 32-byte
   * long-lived ones remain. */
  pt_membuf c[] = {B(32, 0, 0), B(32, 0, 2), B(32, 0, 0), B(32, 0, 2), B(32, 1, 1)};
  p = plan_ok(c, N(c), 16);
  check_offsets(&p, (const uint64_t[]){0, 32, 64, 96, 0}, N(c));
  CHECK(peak(&p) == 128);
  pt_memplan_free(&p);
}

/* Base 0 [0,1]; view 1 of 0 used at [3,4]; view 2 of view 1 at [6,6]: the
 * group lives [0,6]. C [2,2] must avoid it (64); D [5,6] too (64, sharing
 * with C, which is dead by then). */
static void test_views(void) {
  pt_membuf b[] = {B(64, 0, 1), V(64, 3, 4, 0), V(48, 6, 6, 1), B(64, 2, 2), B(64, 5, 6)};
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){0, 0, 0, 64, 64}, N(b));
  pt_memplan_summary s;
  pt_memplan_stats(&p, &s);
  CHECK(s.peak_bytes == 128 && s.no_reuse_bytes == 192);
  pt_memplan_free(&p);

  /* Without the views, C and D could reuse the base's slot. */
  pt_membuf nv[] = {B(64, 0, 1), B(64, 2, 2), B(64, 5, 6)};
  p = plan_ok(nv, N(nv), 16);
  check_offsets(&p, (const uint64_t[]){0, 0, 0}, N(nv));
  pt_memplan_free(&p);

  /* A view larger than its base widens the group's extent. */
  pt_membuf w[] = {B(16, 0, 0), V(40, 1, 1, 0), B(16, 0, 1)};
  p = plan_ok(w, N(w), 16);
  check_offsets(&p, (const uint64_t[]){0, 0, 48}, N(w));
  CHECK(peak(&p) == 64);
  pt_memplan_free(&p);
}

static void test_alignment(void) {
  pt_membuf b[] = {B(10, 0, 0), B(20, 0, 0), B(30, 0, 0)};
  /* 16: extents 16, 32, 32; order 1, 2, 0. */
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){64, 0, 32}, N(b));
  CHECK(peak(&p) == 80);
  pt_memplan_free(&p);
  /* 64: every extent 64; order 0, 1, 2. */
  p = plan_ok(b, N(b), 64);
  check_offsets(&p, (const uint64_t[]){0, 64, 128}, N(b));
  CHECK(peak(&p) == 192);
  for (size_t i = 0; i < N(b); i++) CHECK(p.locs[i].offset % 64 == 0);
  pt_memplan_free(&p);
  /* 1: exact sizes; order 2, 1, 0. */
  p = plan_ok(b, N(b), 1);
  check_offsets(&p, (const uint64_t[]){50, 30, 0}, N(b));
  CHECK(peak(&p) == 60);
  pt_memplan_free(&p);

  pt_err e;
  CHECK(pt_memplan_compute(b, N(b), 24, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(e.msg[0] != 0 && p.locs == NULL);
}

static void test_zero_size(void) {
  pt_membuf b[] = {B(0, 0, 5), B(0, 0, 5), B(16, 0, 5), V(0, 2, 7, 2)};
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){0, 0, 0, 0}, N(b));
  pt_memplan_summary s;
  pt_memplan_stats(&p, &s);
  CHECK(s.peak_bytes == 16 && s.no_reuse_bytes == 16);
  pt_memplan_free(&p);

  pt_membuf z[] = {B(0, 0, 0), P(0, 0, 1)};
  p = plan_ok(z, N(z), 16);
  CHECK(peak(&p) == 0 && p.locs[0].offset == 0 && p.locs[1].offset == 0);
  pt_memplan_free(&p);

  p = plan_ok(NULL, 0, 16);
  CHECK(p.count == 0 && p.locs == NULL && peak(&p) == 0 && p.num_arenas == 1);
  pt_memplan_free(&p);
}

/* x[1,784] -> linear -> h1[128] -> relu -> r1 -> linear -> h2[64] -> relu
 * -> r2 -> linear -> out[10], f32, x and out pinned. Instruction k reads
 * its input and writes its output. Extents: 3136, 512, 512, 256, 256, 48.
 * x 0 (pinned); h1 after x: 3136; r1 conflicts x,h1: 3648; h2 [2,3]
 * conflicts x, r1: gap [3136,3648) -> 3136; r2 [3,4] conflicts x, h2 ->
 * 3392; out (pinned) after everything: 4160; peak 4208 vs 4720. */
static void test_mlp(void) {
  pt_membuf b[] = {P(784 * 4, 0, 0), B(128 * 4, 0, 1), B(128 * 4, 1, 2),
                   B(64 * 4, 2, 3),  B(64 * 4, 3, 4),  P(10 * 4, 4, 4)};
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){0, 3136, 3648, 3136, 3392, 4160}, N(b));
  pt_memplan_summary s;
  pt_memplan_stats(&p, &s);
  CHECK(s.peak_bytes == 4208);
  CHECK(s.no_reuse_bytes == 4720);
  CHECK(s.peak_bytes < s.no_reuse_bytes);
  CHECK(s.max_live_bytes == 4208); /* t=1: x, h1, r1, out */
  pt_memplan_free(&p);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (uint32_t)(rng_state % n) : 0;
}

static void test_random(void) {
  static const size_t aligns[] = {1, 4, 16, 64};
  pt_membuf b[64];
  int bad = 0;
  for (int iter = 0; iter < 1000; iter++) {
    size_t n = rnd(65);
    uint32_t horizon = 1 + rnd(40);
    for (size_t i = 0; i < n; i++) {
      uint32_t f = rnd(horizon), l = f + rnd(horizon - f);
      b[i].nbytes = rnd(8) == 0 ? 0 : rnd(rnd(2) ? 100 : 5000);
      b[i].first_use = f;
      b[i].last_use = l;
      b[i].alias_of = (i > 0 && rnd(6) == 0) ? (int32_t)rnd((uint32_t)i) : -1;
      b[i].pinned = rnd(15) == 0;
    }
    size_t align = aligns[rnd(4)];
    pt_memplan p;
    pt_err e;
    ptera_status st = pt_memplan_compute(b, n, align, NULL, &p, &e);
    if (st != PTERA_OK) {
      bad++;
      continue;
    }
    if (pt_memplan_verify(b, n, &p, NULL, &e) != PTERA_OK) {
      if (bad++ < 5) fprintf(stderr, "  iter %d: %s\n", iter, e.msg);
    }
    pt_memplan_summary s;
    pt_memplan_stats(&p, &s);
    if (s.peak_bytes > s.no_reuse_bytes || s.peak_bytes < s.max_live_bytes) bad++;
    for (size_t i = 0; i < n; i++) {
      if (p.locs[i].offset % align != 0) bad++;
      if (b[i].alias_of >= 0 && p.locs[i].offset != p.locs[b[i].alias_of].offset) bad++;
    }
    /* Deterministic. */
    pt_memplan q;
    if (pt_memplan_compute(b, n, align, NULL, &q, &e) != PTERA_OK ||
        (n && memcmp(p.locs, q.locs, n * sizeof *p.locs) != 0) || peak(&q) != s.peak_bytes)
      bad++;
    pt_memplan_free(&q);
    /* Corrupting the plan must be caught: move a live buffer onto another. */
    for (size_t i = 0; i + 1 < n; i++) {
      size_t j = i + 1;
      if (b[i].nbytes && b[j].nbytes && b[i].alias_of < 0 && b[j].alias_of < 0 &&
          b[i].first_use <= b[j].last_use && b[j].first_use <= b[i].last_use) {
        bool has_views = false;
        for (size_t k = 0; k < n; k++)
          if (b[k].alias_of == (int32_t)i || b[k].alias_of == (int32_t)j) has_views = true;
        if (has_views) break;
        uint64_t saved = p.locs[j].offset;
        p.locs[j].offset = p.locs[i].offset;
        if (pt_memplan_verify(b, n, &p, NULL, &e) != PTERA_INVALID_PROGRAM) bad++;
        p.locs[j].offset = saved;
        break;
      }
    }
    pt_memplan_free(&p);
  }
  CHECK(bad == 0);
}

static void test_verify_rejects(void) {
  pt_membuf b[] = {B(20, 0, 1), B(20, 1, 2), V(8, 3, 3, 0)};
  pt_memplan p = plan_ok(b, N(b), 16);
  check_offsets(&p, (const uint64_t[]){0, 32, 0}, N(b));
  pt_err e;
  p.locs[1].offset = 16; /* overlaps buffer 0 while both live */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[1].offset = 40; /* misaligned */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  CHECK(p.arena_sizes[1] == 64);
  p.locs[1].offset = 48; /* 48 + 20 > 64: ends outside the arena */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[1].offset = 64; /* starts at the end of the arena */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[1].offset = 32;
  p.locs[2].offset = 32; /* view not at its base */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[2].offset = 0;
  p.locs[2].memory_id = 2; /* no such arena */
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[2].memory_id = 0;
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  p.locs[2].memory_id = 1;
  CHECK(pt_memplan_verify(b, N(b), &p, NULL, &e) == PTERA_OK);
  CHECK(pt_memplan_verify(b, 2, &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  /* Pinned buffers must not share even when their lifetimes are disjoint. */
  pt_membuf pb[] = {P(20, 0, 1), B(20, 5, 6)};
  CHECK(pt_memplan_verify(pb, N(pb), &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  pt_memplan_free(&p);
  pt_membuf pd[] = {P(20, 0, 1), B(20, 5, 6)};
  p = plan_ok(pd, N(pd), 16);
  check_offsets(&p, (const uint64_t[]){0, 32}, N(pd));
  pt_memplan_free(&p);
}

static void test_bad_input(void) {
  pt_memplan p;
  pt_err e;
  pt_membuf cyc[] = {V(8, 0, 0, 1), V(8, 0, 0, 2), V(8, 0, 0, 0)};
  CHECK(pt_memplan_compute(cyc, N(cyc), 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(strstr(e.msg, "cycle") != NULL && p.locs == NULL);
  pt_membuf self[] = {V(8, 0, 0, 0)};
  CHECK(pt_memplan_compute(self, 1, 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  pt_membuf range[] = {B(8, 0, 0), V(8, 0, 0, 2)};
  CHECK(pt_memplan_compute(range, 2, 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  pt_membuf neg[] = {V(8, 0, 0, -2)};
  CHECK(pt_memplan_compute(neg, 1, 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  pt_membuf life[] = {B(8, 3, 2)};
  CHECK(pt_memplan_compute(life, 1, 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(pt_memplan_compute(NULL, 1, 0, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(pt_memplan_compute(life, 1, 0, NULL, NULL, &e) == PTERA_INVALID_ARGUMENT);
  pt_memplan_free(NULL);
}

static void test_overflow(void) {
  pt_memplan p;
  pt_err e;
  pt_membuf one[] = {B(SIZE_MAX, 0, 0)};
  CHECK(pt_memplan_compute(one, 1, 16, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(e.msg[0] != 0 && p.locs == NULL);
  one[0].nbytes = SIZE_MAX - 8; /* rounds past SIZE_MAX at 16 */
  CHECK(pt_memplan_compute(one, 1, 16, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  /* Fits alone (exactly SIZE_MAX - 63 after rounding)... */
  one[0].nbytes = SIZE_MAX - 64;
  CHECK(pt_memplan_compute(one, 1, 16, NULL, &p, &e) == PTERA_OK);
  CHECK(peak(&p) == (uint64_t)SIZE_MAX - 63);
  pt_memplan_free(&p);
  /* ...but two of them live together do not. */
  pt_membuf two[] = {B(SIZE_MAX - 64, 0, 1), B(SIZE_MAX - 64, 1, 2)};
  CHECK(pt_memplan_compute(two, 2, 16, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  CHECK(e.msg[0] != 0 && p.locs == NULL);
  pt_membuf half[] = {B(SIZE_MAX / 2, 0, 1), B(SIZE_MAX / 2, 1, 2), B(SIZE_MAX / 4, 2, 2)};
  CHECK(pt_memplan_compute(half, 3, 64, NULL, &p, &e) == PTERA_INVALID_ARGUMENT);
  /* Verify with an offset near UINT64_MAX must not wrap. */
  pt_membuf small[] = {B(32, 0, 0)};
  p = plan_ok(small, 1, 16);
  p.locs[0].offset = UINT64_MAX - 15;
  CHECK(pt_memplan_verify(small, 1, &p, NULL, &e) == PTERA_INVALID_PROGRAM);
  pt_memplan_free(&p);
}

static void test_alloc_failures(void) {
  pt_membuf b[] = {P(784 * 4, 0, 0), B(512, 0, 1), V(512, 1, 2, 1), B(256, 2, 3), P(40, 3, 3)};
  fa_state s = {-1, 0, 0, false};
  ptera_allocator a = {fa_alloc, fa_free, &s};
  pt_memplan p;
  pt_err e;
  CHECK(pt_memplan_compute(b, N(b), 16, &a, &p, &e) == PTERA_OK);
  long total = s.count;
  CHECK(total >= 2);
  CHECK(pt_memplan_verify(b, N(b), &p, &a, &e) == PTERA_OK);
  long vtotal = s.count - total;
  pt_memplan_free(&p);
  CHECK(s.live == 0);
  int failed = 0;
  for (long k = 0; k < total; k++) {
    s = (fa_state){k, 0, 0, false};
    pt_err_clear(&e);
    ptera_status st = pt_memplan_compute(b, N(b), 16, &a, &p, &e);
    if (st == PTERA_MEMORY_ALLOCATION_FAILED && e.msg[0] && p.locs == NULL && s.live == 0) failed++;
    pt_memplan_free(&p);
  }
  CHECK(failed == total);
  /* Verify too. */
  s = (fa_state){-1, 0, 0, false};
  CHECK(pt_memplan_compute(b, N(b), 16, &a, &p, &e) == PTERA_OK);
  failed = 0;
  for (long k = 0; k < vtotal; k++) {
    long base = s.count, live = s.live;
    s.fail_at = base + k;
    if (pt_memplan_verify(b, N(b), &p, &a, &e) == PTERA_MEMORY_ALLOCATION_FAILED &&
        s.live == live)
      failed++;
  }
  CHECK(failed == vtotal);
  pt_memplan_free(&p);
  CHECK(s.live == 0);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_disjoint_and_overlap();
  test_best_fit();
  test_views();
  test_alignment();
  test_zero_size();
  test_mlp();
  test_random();
  test_verify_rejects();
  test_bad_input();
  test_overflow();
  test_alloc_failures();
  return check_summary("memplan");
}
