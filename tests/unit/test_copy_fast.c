/* The run-based copies of shape ops (util/region.c: row memcpy, broadcast
 * fills, tiled transposes) through expand_copy, permute_copy and
 * transpose_copy, and the row copies of index_select and embedding, against a reference computed here element by element from
 * logical indices: random shapes of rank 1..4 with dims past the 16-element
 * tile, inputs in random dim orders, outputs contiguous or permuted, element
 * sizes 1, 2, 4 and 8 bytes. */
#include "kernel_test_util.h"

#define CAP 20000
static uint8_t src[CAP * 8], dst[CAP * 8], want[CAP * 8];
static uint32_t rng = 7u;

static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

typedef struct tshape {
  size_t dim;
  int32_t s[4];
  uint8_t order[4];
  int64_t st[4]; /* element strides from the dim order */
} tshape;

static void strides(tshape *t) {
  int64_t e = 1;
  for (size_t k = t->dim; k-- > 0;) {
    t->st[t->order[k]] = e;
    e *= t->s[t->order[k]];
  }
}
static void rorder(tshape *t, bool permuted) {
  for (size_t d = 0; d < t->dim; d++) t->order[d] = (uint8_t)d;
  if (permuted)
    for (size_t d = t->dim; d-- > 1;) {
      size_t j = rnd() % (d + 1);
      uint8_t x = t->order[d];
      t->order[d] = t->order[j];
      t->order[j] = x;
    }
  strides(t);
}
static size_t numel(const tshape *t) {
  size_t n = 1;
  for (size_t d = 0; d < t->dim; d++) n *= (size_t)t->s[d];
  return n;
}
static ptera_value *tv(int dt, uint8_t *data, const tshape *t) {
  return kt_tensor(dt, data, CAP * 8, t->dim, t->s, t->order, PTERA_SHAPE_STATIC);
}

/* want[out index] = src[f(out logical index)] where map gives, per out dim,
 * the src dim it reads (-1: broadcast, index ignored). */
static void reference(const tshape *o, const tshape *in, const int *map, size_t es) {
  size_t n = numel(o);
  int64_t idx[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; i++) {
    int64_t so = 0, oo = 0;
    for (size_t d = 0; d < o->dim; d++) {
      oo += idx[d] * o->st[d];
      if (map[d] >= 0) so += idx[d] * in->st[map[d]];
    }
    memcpy(want + oo * (int64_t)es, src + so * (int64_t)es, es);
    for (size_t d = o->dim; d-- > 0;) {
      if (++idx[d] < o->s[d]) break;
      idx[d] = 0;
    }
  }
}

static tshape rshape(size_t maxn) {
  tshape t;
  do {
    memset(&t, 0, sizeof t);
    t.dim = 1 + rnd() % 4;
    for (size_t d = 0; d < t.dim; d++) t.s[d] = (int32_t)(1 + rnd() % (rnd() % 3 ? 9 : 40));
  } while (numel(&t) > maxn);
  return t;
}

static const int DTS[4] = {PTERA_DTYPE_BYTE, PTERA_DTYPE_HALF, PTERA_DTYPE_FLOAT, PTERA_DTYPE_LONG};

static bool check_out(size_t n, size_t es, const char *what) {
  if (memcmp(dst, want, n * es) == 0) return true;
  printf("  %s: output differs (es %zu, numel %zu) [%s]\n", what, es, n, kt_err.msg);
  return false;
}

static void permute_case(int trial) {
  int dt = DTS[trial % 4];
  size_t es = ptera_dtype_size(dt);
  tshape in = rshape(CAP);
  rorder(&in, trial % 3 != 0);
  int map[4];
  for (size_t d = 0; d < in.dim; d++) map[d] = (int)d;
  for (size_t d = in.dim; d-- > 1;) {
    size_t j = rnd() % (d + 1);
    int x = map[d];
    map[d] = map[j];
    map[j] = x;
  }
  tshape o = in;
  for (size_t d = 0; d < in.dim; d++) o.s[d] = in.s[map[d]];
  rorder(&o, trial % 5 == 0);
  for (size_t i = 0; i < numel(&in) * es; i++) src[i] = (uint8_t)rnd();
  reference(&o, &in, map, es);
  int64_t dims[4];
  for (size_t d = 0; d < in.dim; d++) dims[d] = map[d];
  ptera_value *out = tv(dt, dst, &o);
  memset(dst, 0, sizeof dst);
  CHECK(KT_CALL("aten::permute_copy.out", tv(dt, src, &in), kt_ilist_n(in.dim, dims), out, out) ==
        PTERA_OK);
  CHECK(check_out(numel(&o), es, "permute_copy"));
  if (in.dim >= 2) { /* transpose of the first and last dims */
    for (size_t d = 0; d < in.dim; d++) map[d] = (int)d;
    map[0] = (int)in.dim - 1;
    map[in.dim - 1] = 0;
    o = in;
    o.s[0] = in.s[in.dim - 1];
    o.s[in.dim - 1] = in.s[0];
    rorder(&o, false);
    reference(&o, &in, map, es);
    out = tv(dt, dst, &o);
    memset(dst, 0, sizeof dst);
    CHECK(KT_CALL("aten::transpose_copy.int_out", tv(dt, src, &in), kt_int(0), kt_int(-1), out,
                  out) == PTERA_OK);
    CHECK(check_out(numel(&o), es, "transpose_copy"));
  }
}

static void expand_case(int trial) {
  int dt = DTS[(trial + 1) % 4];
  size_t es = ptera_dtype_size(dt);
  tshape o = rshape(CAP), in;
  rorder(&o, false);
  /* in: trailing dims of o, some set to 1 (broadcast), maybe fewer leading */
  memset(&in, 0, sizeof in);
  size_t lead = o.dim > 1 ? rnd() % o.dim : 0;
  in.dim = o.dim - lead;
  int map[4];
  int64_t size[4];
  for (size_t d = 0; d < o.dim; d++) {
    size[d] = d < lead || rnd() % 2 ? o.s[d] : -1;
    map[d] = -1;
    if (d < lead) continue;
    size_t k = d - lead;
    bool bc = rnd() % 3 == 0;
    in.s[k] = bc ? 1 : o.s[d];
    if (in.s[k] == 1) size[d] = o.s[d];
    map[d] = bc || o.s[d] == 1 ? -1 : (int)k;
  }
  rorder(&in, trial % 2 == 1);
  for (size_t i = 0; i < numel(&in) * es; i++) src[i] = (uint8_t)rnd();
  reference(&o, &in, map, es);
  ptera_value *out = tv(dt, dst, &o);
  memset(dst, 0, sizeof dst);
  CHECK(KT_CALL("aten::expand_copy.out", tv(dt, src, &in), kt_ilist_n(o.dim, size), kt_bool(false),
                out, out) == PTERA_OK);
  CHECK(check_out(numel(&o), es, "expand_copy"));
}

/* index_select along a random dim (input in a random dim order) and
 * embedding of a [V, D] table, the picked rows random. */
static void index_case(int trial) {
  int dt = DTS[(trial + 2) % 4];
  size_t es = ptera_dtype_size(dt);
  tshape in = rshape(CAP / 2);
  rorder(&in, trial % 2 == 0);
  size_t d = rnd() % in.dim;
  int64_t ix[8];
  size_t L = 1 + rnd() % 8;
  for (size_t j = 0; j < L; j++) ix[j] = (int64_t)(rnd() % (uint32_t)in.s[d]);
  tshape o = in;
  o.s[d] = (int32_t)L;
  rorder(&o, trial % 3 == 0);
  for (size_t i = 0; i < numel(&in) * es; i++) src[i] = (uint8_t)rnd();
  /* reference: out[.., j, ..] = in[.., ix[j], ..] */
  size_t n = numel(&o);
  int64_t idx[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; i++) {
    int64_t so = 0, oo = 0;
    for (size_t k = 0; k < o.dim; k++) {
      oo += idx[k] * o.st[k];
      so += (k == d ? ix[idx[k]] : idx[k]) * in.st[k];
    }
    memcpy(want + oo * (int64_t)es, src + so * (int64_t)es, es);
    for (size_t k = o.dim; k-- > 0;) {
      if (++idx[k] < o.s[k]) break;
      idx[k] = 0;
    }
  }
  int32_t ls[1] = {(int32_t)L};
  ptera_value *index = kt_tensor(PTERA_DTYPE_LONG, ix, sizeof ix, 1, ls, NULL, PTERA_SHAPE_STATIC);
  ptera_value *out = tv(dt, dst, &o);
  memset(dst, 0, sizeof dst);
  CHECK(KT_CALL("aten::index_select.out", tv(dt, src, &in), kt_int((int64_t)d), index, out, out) ==
        PTERA_OK);
  CHECK(check_out(n, es, "index_select"));
  if (dt != PTERA_DTYPE_FLOAT || in.dim != 2 || d != 0) return;
  /* the same rows through embedding (weight [V, D], contiguous out) */
  o.order[0] = 0, o.order[1] = 1;
  strides(&o);
  if (in.order[0] != 0) return;
  out = tv(dt, dst, &o);
  memset(dst, 0, sizeof dst);
  CHECK(KT_CALL("aten::embedding.out", tv(dt, src, &in), index, kt_int(-1), kt_bool(false),
                kt_bool(false), out, out) == PTERA_OK);
  for (size_t j = 0; j < L; j++)
    CHECK(memcmp(dst + j * (size_t)in.s[1] * 4, src + (size_t)ix[j] * (size_t)in.s[1] * 4,
                 (size_t)in.s[1] * 4) == 0);
}

int main(void) {
  for (int trial = 0; trial < 300; trial++) {
    kt_nt = kt_nv = kt_np = 0; /* the helper pools (lists never wrap) */
    permute_case(trial);
    expand_case(trial);
    index_case(trial);
  }
  /* a transpose well past the tile size in both dims, 4-byte elements */
  tshape in = {2, {70, 133}, {0, 1}, {0, 0}}, o = {2, {133, 70}, {0, 1}, {0, 0}};
  strides(&in);
  strides(&o);
  for (size_t i = 0; i < 70 * 133 * 4; i++) src[i] = (uint8_t)rnd();
  int map[2] = {1, 0};
  reference(&o, &in, map, 4);
  ptera_value *out = tv(PTERA_DTYPE_FLOAT, dst, &o);
  CHECK(KT_CALL("aten::transpose_copy.int_out", tv(PTERA_DTYPE_FLOAT, src, &in), kt_int(1),
                kt_int(0), out, out) == PTERA_OK);
  CHECK(check_out(70 * 133, 4, "transpose 70x133"));
  return check_summary("copy_fast");
}
