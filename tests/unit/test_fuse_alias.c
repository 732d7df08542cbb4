/* The load-time aliasing passes on hand-built programs, each run as loaded
 * and with PTERA_METHOD_NO_FUSION (the portable kernels one by one), with
 * and without a thread pool, against values computed here:
 *   - view elision (fuse_view.c): t = neg(x); v = VIEW(t); y = v + v, for
 *     every view op on random shapes with NaN / +-inf / -0.0 in x; elided
 *     unless the program could tell: t's memory written while v lives, v a
 *     method output, v's memory read by another value, expand_copy to more
 *     elements, a permute that moves a dim of size > 1;
 *   - in-place cache update (fuse_inplace.c): T = index_put(B, [i], vals);
 *     y = T + T; copy_(B, T), run three times (B is state), the rows put
 *     or accumulated by hand; not in place when B is read between or T after
 *     the copy_. The same with y = T + T computed by a delegate: in place
 *     when its backend says which arguments it writes (ABI v3, y only), not
 *     when it does not (it might write T).
 * The hook counts the aliasing groups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "emit_util.h"
#include "ptera/threadpool.h"

static uint32_t rng = 4711u;

static int alias_events;
static void hook(void *user, const ptera_instr_event *ev) {
  (void)user;
  if (!ev->end && (strncmp(ev->name, "elided:", 7) == 0 || strncmp(ev->name, "inplace:", 8) == 0))
    alias_events++;
}

static pc_value planned(uint8_t dtype, int dim, const int32_t *sizes, uint64_t offset) {
  pc_value v = eu_tensor_f(PC_STORAGE_PLANNED, (uint8_t)dim, sizes);
  v.u.tensor.scalar_type = dtype;
  v.u.tensor.memory_id = 1;
  v.u.tensor.memory_offset = offset;
  return v;
}

static pc_value boolean(bool b) {
  pc_value v;
  memset(&v, 0, sizeof v);
  v.kind = PC_VAL_BOOL;
  v.u.b = b;
  return v;
}

static pc_value list(pc_value_kind kind, const int32_t *items, uint32_t len) {
  pc_value v;
  memset(&v, 0, sizeof v);
  v.kind = kind;
  v.u.list.items = items;
  v.u.list.len = len;
  return v;
}

static bool same_bits(const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], 4) != 0 && !(isnan(a[i]) && isnan(b[i]))) {
      fprintf(stderr, "at %zu: %g, expected %g\n", i, (double)a[i], (double)b[i]);
      return false;
    }
  return true;
}

/* ---- view elision ---- */

enum view_op { V_VIEW, V_UNSQUEEZE, V_SQUEEZE, V_ALIAS, V_EXPAND, V_PERMUTE, V_TRANSPOSE, V_NOPS };
enum blocker { B_NONE, B_CLOBBER, B_OUTPUT, B_SHARED, B_MORE, B_MOVES };

static const pc_operator view_ops[] = {
    {"aten::neg", "out"},           {"aten::add", "out"},          {"aten::view_copy", "out"},
    {"aten::unsqueeze_copy", "out"}, {"aten::squeeze_copy", "dims_out"},
    {"aten::alias_copy", "out"},    {"aten::expand_copy", "out"},  {"aten::permute_copy", "out"},
    {"aten::transpose_copy", "int_out"}};

enum {
  X, T, V, Y, ONE, W, U, Y2, ARG1, ARG2, FALSE_, I0, I1, I2, I3, NV
};

typedef struct vcase {
  enum view_op op;
  enum blocker blocker;
  int r, c;
  bool pool;
} vcase;

static bool run_view(ptera_program *p, uint32_t flags, ptera_threadpool *pool, const float *x,
                     const int32_t *xs, size_t n, float *y, size_t ny) {
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  mo.threadpool = pool;
  ptera_method *m = NULL;
  bool ok = ptera_method_create(p, "forward", &mo, &m) == PTERA_OK;
  if (ok) {
    ptera_method_set_instr_hook(m, hook, NULL);
    ok = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 2, xs, x, n * 4) == PTERA_OK &&
         ptera_method_execute(m) == PTERA_OK;
  }
  if (!ok) fprintf(stderr, "%s\n", m ? ptera_method_errmsg(m) : "no method");
  if (ok) {
    const ptera_tensor *t = ptera_method_output(m, 0)->u.tensor;
    ok = t->numel == ny;
    if (ok) memcpy(y, t->data, ny * 4);
  }
  ptera_method_destroy(m);
  return ok;
}

static void check_view(const vcase *vc, ptera_threadpool *pool) {
  int r = vc->r, c = vc->c;
  size_t n = (size_t)r * c;
  int32_t xs[2] = {r, c}, vs[PTERA_MAX_DIM];
  int vdim = 2;
  pc_value v[NV];
  memset(v, 0, sizeof v);
  for (int i = 0; i < NV; i++) v[i].kind = PC_VAL_NULL; /* the unused ones */
  int32_t ints[4], sizes_items[4];
  uint32_t nsizes = 0;
  int32_t args1[6];
  uint32_t nargs1 = 0;
  uint32_t op = 2u + (uint32_t)vc->op;
  args1[nargs1++] = T;
  switch (vc->op) {
    case V_VIEW: /* [r, c] -> [c, r] */
      vs[0] = c, vs[1] = r;
      ints[0] = c, ints[1] = r, nsizes = 2;
      break;
    case V_UNSQUEEZE: /* dim 1: [r, 1, c] */
      vdim = 3, vs[0] = r, vs[1] = 1, vs[2] = c;
      v[ARG1] = eu_int(1);
      args1[nargs1++] = ARG1;
      break;
    case V_SQUEEZE: /* [r, c] with r == 1 -> [c] */
      r = 1, n = (size_t)c, xs[0] = 1;
      vdim = 1, vs[0] = c;
      ints[0] = 0, nsizes = 1;
      break;
    case V_ALIAS:
      vs[0] = r, vs[1] = c;
      break;
    case V_EXPAND: /* [r, c] -> [1, r, c], or [r, 2c] from [r, 1] (more elements) */
      if (vc->blocker == B_MORE) {
        c = 1, n = (size_t)r, xs[1] = 1;
        vs[0] = r, vs[1] = 2;
        ints[0] = r, ints[1] = 2, nsizes = 2;
      } else {
        vdim = 3, vs[0] = 1, vs[1] = r, vs[2] = c;
        ints[0] = 1, ints[1] = r, ints[2] = c, nsizes = 3;
      }
      break;
    case V_PERMUTE: /* [r, c] -> [c, r]: a view only when r or c is 1 */
      if (vc->blocker != B_MOVES) r = 1, n = (size_t)c, xs[0] = 1;
      vs[0] = c, vs[1] = r;
      ints[0] = 1, ints[1] = 0, nsizes = 2;
      break;
    case V_TRANSPOSE: /* dims (-1, 0) */
      if (vc->blocker != B_MOVES) c = 1, n = (size_t)r, xs[1] = 1;
      vs[0] = c, vs[1] = r;
      v[ARG1] = eu_int(-1);
      v[ARG2] = eu_int(0);
      args1[nargs1++] = ARG1;
      args1[nargs1++] = ARG2;
      break;
    default: break;
  }
  size_t nv = 1;
  for (int d = 0; d < vdim; d++) nv *= (size_t)vs[d];
  if (nsizes) {
    for (uint32_t i = 0; i < nsizes; i++) {
      v[I0 + i] = eu_int(ints[i]);
      sizes_items[i] = I0 + (int32_t)i;
    }
    v[ARG1] = list(PC_VAL_INT_LIST, sizes_items, nsizes);
    args1[nargs1++] = ARG1;
  }
  if (vc->op == V_EXPAND) {
    v[FALSE_] = boolean(false);
    args1[nargs1++] = FALSE_;
  }
  args1[nargs1++] = V;
  args1[nargs1++] = V;
  /* Memory: x | t | v | y | w (over t: t dies at the view) */
  size_t ot = eu_up64(n * 4), ov = ot + eu_up64(n * 4), oy = ov + eu_up64(nv * 4), oy2 = oy + eu_up64(nv * 4);
  int64_t bufsize = (int64_t)(oy2 + eu_up64(nv * 4));
  v[X] = planned(PTERA_DTYPE_FLOAT, 2, xs, 0);
  v[T] = planned(PTERA_DTYPE_FLOAT, 2, xs, ot);
  v[V] = planned(PTERA_DTYPE_FLOAT, vdim, vs, ov);
  v[Y] = planned(PTERA_DTYPE_FLOAT, vdim, vs, oy);
  v[ONE] = eu_int(1);
  v[W] = planned(PTERA_DTYPE_FLOAT, 2, xs, ot);
  v[U] = planned(PTERA_DTYPE_FLOAT, vdim, vs, ov); /* an exporter-made view of v */
  v[Y2] = planned(PTERA_DTYPE_FLOAT, vdim, vs, oy2);
  int32_t a0[3] = {X, T, T}, aw[3] = {X, W, W}, a2[5] = {V, V, ONE, Y, Y}, a3[5] = {U, V, ONE, Y2, Y2};
  pc_instr instrs[5];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 3, false};
  instrs[ni++] = (pc_instr){op, args1, nargs1, false};
  if (vc->blocker == B_CLOBBER) instrs[ni++] = (pc_instr){0, aw, 3, false};
  instrs[ni++] = (pc_instr){1, a2, 5, false};
  if (vc->blocker == B_SHARED) instrs[ni++] = (pc_instr){1, a3, 5, false};
  int32_t ins[1] = {X}, outs[2] = {vc->blocker == B_OUTPUT ? V : Y, Y2};
  uint32_t nouts = vc->blocker == B_SHARED ? 2 : 1;
  pc_method method = {"forward", v, NV, ins, 1, outs, nouts, instrs, ni,
                      view_ops, sizeof view_ops / sizeof view_ops[0], &bufsize, 1, NULL, 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  CHECK(p != NULL);
  float *x = malloc(n * 4 + 4), *ya = malloc(nv * 4 + 4), *yb = malloc(nv * 4 + 4),
        *want = malloc(nv * 4 + 4);
  static const float edges[5] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f};
  for (size_t i = 0; i < n; i++) x[i] = i % 4 == 1 ? edges[(i / 4) % 5] : eu_frand(&rng, -3, 3);
  /* y = v + v, v's elements t's in order (t = -x), or the expand's. */
  for (size_t i = 0; i < nv; i++) {
    /* [c, r] from [r, c] when a permute moves dims: element (j, k) is x's (k, j). */
    size_t src = vc->blocker == B_MORE    ? i / 2
                 : vc->blocker == B_MOVES ? (i % (size_t)r) * (size_t)c + i / (size_t)r
                                          : i;
    float t = -x[src];
    want[i] = vc->blocker == B_OUTPUT ? t : t + t;
  }
  alias_events = 0;
  bool ok = p && run_view(p, 0, pool, x, xs, n, ya, nv);
  int elided = alias_events;
  ok = ok && run_view(p, PTERA_METHOD_NO_FUSION, pool, x, xs, n, yb, nv);
  CHECK(ok);
  CHECK(alias_events == elided);
  CHECK(elided == (vc->blocker == B_NONE ? 1 : 0));
  if (elided != (vc->blocker == B_NONE ? 1 : 0))
    fprintf(stderr, "view op %d blocker %d: %d elided\n", vc->op, vc->blocker, elided);
  CHECK(ok && same_bits(ya, want, nv) && same_bits(yb, want, nv));
  free(x);
  free(ya);
  free(yb);
  free(want);
  ptera_program_destroy(p);
  pt_free(NULL, file);
}

/* ---- in-place cache update ---- */

enum { K_B, K_IDX, K_VALS, K_ACC, K_T, K_Y, K_ONE, K_Z, K_LIST, K_NB, K_NV };

static const pc_operator kv_ops[] = {
    {"aten::index_put", "out"}, {"aten::add", "out"}, {"aten::copy_", ""}};

enum kv_blocker { KV_NONE, KV_B_READ, KV_T_AFTER, KV_DELEGATE, KV_DELEGATE_ANY };

/* Stand-in backends for y = T + T as a DelegateCall (T, y): one says it
 * writes argument 1 only, the other leaves the runtime to assume any. */
static const uint32_t doubler_writes[1] = {1};
static ptera_status doubler_init(ptera_backend_init_ctx *c, const void *blob, size_t n,
                                 const ptera_compile_spec *s, size_t ns, void **h) {
  (void)blob, (void)n, (void)s, (void)ns;
  if (strcmp(c->method_name, "forward") != 0) return PTERA_INVALID_ARGUMENT;
  *h = (void *)doubler_writes;
  return PTERA_OK;
}
static ptera_status doubler_init_v3(ptera_backend_init_ctx *c, const void *blob, size_t n,
                                    const ptera_compile_spec *s, size_t ns, void **h) {
  c->written_args = doubler_writes;
  c->num_written_args = 1;
  return doubler_init(c, blob, n, s, ns, h);
}
static ptera_status doubler_exec(ptera_backend_exec_ctx *c, void *h, ptera_value **a, size_t n) {
  (void)c, (void)h;
  if (n != 2 || a[0]->tag != PTERA_TAG_TENSOR || a[1]->tag != PTERA_TAG_TENSOR ||
      a[0]->u.tensor->numel != a[1]->u.tensor->numel)
    return PTERA_INVALID_ARGUMENT;
  const float *x = a[0]->u.tensor->data;
  float *y = a[1]->u.tensor->data;
  for (size_t i = 0; i < a[0]->u.tensor->numel; i++) y[i] = x[i] + x[i];
  return PTERA_OK;
}
static const ptera_backend doubler_v3 = {PTERA_BACKEND_ABI_VERSION, "TestDoublerWrites", NULL,
                                         doubler_init_v3, doubler_exec, NULL};
static const ptera_backend doubler_any = {PTERA_BACKEND_ABI_VERSION, "TestDoublerAny", NULL,
                                          doubler_init, doubler_exec, NULL};

static void check_kv(int rows, int cols, bool acc, enum kv_blocker blocker, ptera_threadpool *pool) {
  size_t n = (size_t)rows * cols;
  int32_t bs[2] = {rows, cols}, is[1] = {1}, vs[2] = {1, cols};
  float *init = malloc(n * 4 + 4);
  for (size_t i = 0; i < n; i++) init[i] = i % 7 == 3 ? -0.0f : eu_frand(&rng, -1, 1);
  size_t ot = eu_up64(n * 4), oy = ot + eu_up64(n * 4), oz = oy + eu_up64(n * 4), oi = oz + eu_up64(n * 4),
         ovals = oi + 64;
  int64_t bufsize = (int64_t)(ovals + eu_up64((size_t)cols * 4));
  pc_value v[K_NV];
  memset(v, 0, sizeof v);
  v[K_B] = planned(PTERA_DTYPE_FLOAT, 2, bs, 0);
  v[K_B].u.tensor.initial = init;
  v[K_B].u.tensor.initial_nbytes = n * 4;
  v[K_IDX] = planned(PTERA_DTYPE_LONG, 1, is, oi);
  v[K_VALS] = planned(PTERA_DTYPE_FLOAT, 2, vs, ovals);
  v[K_ACC] = boolean(acc);
  v[K_T] = planned(PTERA_DTYPE_FLOAT, 2, bs, ot);
  v[K_Y] = planned(PTERA_DTYPE_FLOAT, 2, bs, oy);
  v[K_ONE] = eu_int(1);
  v[K_Z] = planned(PTERA_DTYPE_FLOAT, 2, bs, oz);
  int32_t items[1] = {K_IDX};
  v[K_LIST] = list(PC_VAL_OPT_TENSOR_LIST, items, 1);
  v[K_NB] = boolean(false);
  int32_t a0[6] = {K_B, K_LIST, K_VALS, K_ACC, K_T, K_T}, a1[5] = {K_T, K_T, K_ONE, K_Y, K_Y},
          ab[5] = {K_B, K_B, K_ONE, K_Z, K_Z}, a2[4] = {K_B, K_T, K_NB, K_B},
          at[5] = {K_T, K_B, K_ONE, K_Z, K_Z};
  pc_instr instrs[4];
  uint32_t ni = 0;
  instrs[ni++] = (pc_instr){0, a0, 6, false};
  bool delegated = blocker == KV_DELEGATE || blocker == KV_DELEGATE_ANY;
  int32_t ad[2] = {K_T, K_Y};
  pc_delegate del = {blocker == KV_DELEGATE ? "TestDoublerWrites" : "TestDoublerAny", "x", 1};
  instrs[ni++] = delegated ? (pc_instr){0, ad, 2, true} : (pc_instr){1, a1, 5, false};
  if (blocker == KV_B_READ) instrs[ni++] = (pc_instr){1, ab, 5, false};
  instrs[ni++] = (pc_instr){2, a2, 4, false};
  if (blocker == KV_T_AFTER) instrs[ni++] = (pc_instr){1, at, 5, false};
  int32_t ins[2] = {K_IDX, K_VALS}, outs[2] = {K_Y, K_Z};
  uint32_t nouts = blocker == KV_B_READ || blocker == KV_T_AFTER ? 2 : 1;
  pc_method method = {"forward", v, K_NV, ins, 2, outs, nouts, instrs, ni,
                      kv_ops, 3, &bufsize, 1, delegated ? &del : NULL, delegated ? 1 : 0};
  pc_program pr = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&pr, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  CHECK(p != NULL);
  ptera_method *ms[2] = {NULL, NULL};
  int events[2] = {0, 0};
  for (int f = 0; f < 2 && p; f++) {
    ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
    mo.flags = f ? PTERA_METHOD_NO_FUSION : 0;
    mo.threadpool = pool;
    CHECK(ptera_method_create(p, "forward", &mo, &ms[f]) == PTERA_OK);
  }
  float *state = malloc(n * 4 + 4), *vals = malloc((size_t)cols * 4 + 4);
  memcpy(state, init, n * 4);
  static const float edges[4] = {NAN, INFINITY, -INFINITY, -0.0f};
  for (int step = 0; step < 3 && ms[0] && ms[1]; step++) {
    int64_t row = eu_irand(&rng, -rows, rows - 1); /* negative: from the end */
    for (int j = 0; j < cols; j++) vals[j] = j % 5 == step ? edges[(j + step) % 4] : eu_frand(&rng, -2, 2);
    float *rowp = state + (size_t)(row < 0 ? row + rows : row) * cols;
    for (int j = 0; j < cols; j++) rowp[j] = acc ? rowp[j] + vals[j] : vals[j];
    for (int f = 0; f < 2; f++) {
      alias_events = 0;
      ptera_method_set_instr_hook(ms[f], hook, NULL);
      bool ok = ptera_method_set_input_tensor(ms[f], 0, PTERA_DTYPE_LONG, 1, is, &row, 8) == PTERA_OK &&
                ptera_method_set_input_tensor(ms[f], 1, PTERA_DTYPE_FLOAT, 2, vs, vals,
                                              (size_t)cols * 4) == PTERA_OK &&
                ptera_method_execute(ms[f]) == PTERA_OK;
      if (!ok) fprintf(stderr, "%s\n", ptera_method_errmsg(ms[f]));
      CHECK(ok);
      events[f] += alias_events;
      if (!ok) continue;
      const float *y = ptera_method_output(ms[f], 0)->u.tensor->data;
      bool good = true;
      for (size_t i = 0; i < n && good; i++) {
        float w = state[i] + state[i];
        good = memcmp(&y[i], &w, 4) == 0 || (isnan(y[i]) && isnan(w));
        if (!good) fprintf(stderr, "kv step %d at %zu: %g, expected %g\n", step, i, (double)y[i], (double)w);
      }
      CHECK(good);
    }
  }
  CHECK(events[1] == 0);
  CHECK(events[0] == (blocker == KV_NONE || blocker == KV_DELEGATE ? 3 * 2 : 0));
  ptera_method_destroy(ms[0]);
  ptera_method_destroy(ms[1]);
  ptera_program_destroy(p);
  pt_free(NULL, file);
  free(init);
  free(state);
  free(vals);
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int i = 0; i < 60; i++) {
    vcase vc = {(enum view_op)(i % V_NOPS), B_NONE, eu_irand(&rng, 1, 9), eu_irand(&rng, 1, 40), i % 2 == 1};
    int pick = eu_irand(&rng, 0, 5);
    if (pick == 1) vc.blocker = B_CLOBBER;
    if (pick == 2) vc.blocker = B_OUTPUT;
    if (pick == 3) vc.blocker = B_SHARED;
    if (vc.op == V_EXPAND && pick == 4) vc.blocker = B_MORE;
    if ((vc.op == V_PERMUTE || vc.op == V_TRANSPOSE) && pick == 4) vc.blocker = B_MOVES, vc.r |= 2, vc.c |= 2;
    check_view(&vc, vc.pool ? pool : NULL);
  }
  /* Each op elided once, and each blocker once. */
  for (int op = 0; op < V_NOPS; op++) {
    check_view(&(vcase){(enum view_op)op, B_NONE, 3, 5, false}, NULL);
    check_view(&(vcase){(enum view_op)op, B_CLOBBER, 4, 3, true}, pool);
  }
  check_view(&(vcase){V_VIEW, B_OUTPUT, 2, 7, false}, NULL);
  check_view(&(vcase){V_ALIAS, B_SHARED, 2, 7, false}, NULL);
  check_view(&(vcase){V_EXPAND, B_MORE, 3, 1, false}, NULL);
  check_view(&(vcase){V_PERMUTE, B_MOVES, 3, 2, false}, NULL);
  check_view(&(vcase){V_TRANSPOSE, B_MOVES, 2, 5, false}, NULL);
  CHECK(ptera_backend_register(&doubler_v3) == PTERA_OK);
  CHECK(ptera_backend_register(&doubler_any) == PTERA_OK);
  for (int blocker = 0; blocker <= KV_DELEGATE_ANY; blocker++)
    check_kv(5, 7, blocker == 0, (enum kv_blocker)blocker, NULL);
  check_kv(9, 13, true, KV_DELEGATE, pool);
  for (int i = 0; i < 12; i++)
    check_kv(eu_irand(&rng, 1, 12), eu_irand(&rng, 1, 30), i % 3 == 2,
             (enum kv_blocker)(i % 3 == 1 ? eu_irand(&rng, 1, 2) : 0), i % 2 ? pool : NULL);
  ptera_threadpool_destroy(pool);
  return check_summary("fuse_alias");
}
