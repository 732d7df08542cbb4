/* pc_partition on hand-built graphs, one test per rule of partition.h, and
 * generated graphs up to 20,000 calls. Every result is also checked by an
 * independent checker written here from first principles: it rebuilds the
 * dependencies from the arguments, contracts each partition to one unit,
 * and verifies that the schedule lists every unit once, after everything
 * it depends on (so no two partitions depend on each other in a cycle), and
 * that CPU calls keep their original relative order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "graph.h"
#include "passes/partition.h"

#define IDS(...) ((const int32_t[]){__VA_ARGS__})

/* Ops whose name starts with "cpu::" are unsupported; "s::" ops are
 * supported unless their first argument has 8 elements (a shape-based
 * rejection, like an SDPA call the backend cannot take). */
static bool support(void *ctx, const pc_graph *g, uint32_t k) {
  (void)ctx;
  const pc_gnode *n = &g->nodes[k];
  if (strncmp(n->op, "cpu::", 5) == 0) return false;
  const pc_gvalue *a = &g->values[n->args[0]];
  return !(a->kind == PC_G_TENSOR && a->u.t.sizes[0] == 8);
}

static int32_t act(pc_graph *g, int32_t len) {
  return pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, &len, PC_T_ACTIVATION, NULL, 0, NULL);
}

/* out = op(a[, b]): the out argument last, written. */
static int32_t call(pc_graph *g, const char *op, int32_t a, int32_t b, int32_t out) {
  int32_t args[3] = {a, b, out};
  uint8_t w[3] = {0, 0, 1};
  if (b < 0) {
    args[1] = out;
    w[1] = 1;
  }
  return pc_graph_call(g, op, args, w, b < 0 ? 2 : 3);
}

/* ---- the independent checker ---- */

static int32_t unit_of(const pc_partitioning *p, uint32_t k) {
  return p->part[k] >= 0 ? -1 - p->part[k] : (int32_t)k;
}

typedef struct reads_ctx {
  const pc_graph *g;
  const int32_t *writer; /* last writer per value, as the checker scans */
  const pc_partitioning *p;
  const int32_t *pos; /* schedule position per unit (node index or partition) */
  uint32_t self;
  bool ok;
} reads_ctx;

/* pos: CPU call k at pos[k], partition q at pos[nnodes + q]. */
static int32_t unit_pos(const pc_graph *g, const int32_t *pos, int32_t u) {
  return u >= 0 ? pos[u] : pos[g->nnodes + (uint32_t)(-1 - u)];
}

static void check_read(void *c, int32_t v, bool written) {
  reads_ctx *r = c;
  if (written || r->g->values[v].kind != PC_G_TENSOR) return;
  int32_t w = r->writer[pc_graph_alias_root(r->g, v)];
  if (w < 0) return;
  int32_t uw = unit_of(r->p, (uint32_t)w), uk = unit_of(r->p, r->self);
  if (uw != uk && unit_pos(r->g, r->pos, uw) >= unit_pos(r->g, r->pos, uk)) r->ok = false;
}

static void note_write(void *c, int32_t v, bool written) {
  reads_ctx *r = c;
  if (written && r->g->values[v].kind == PC_G_TENSOR)
    ((int32_t *)r->writer)[pc_graph_alias_root(r->g, v)] = (int32_t)r->self;
}

/* True when the schedule is a valid order of the contracted graph and keeps
 * the CPU calls' relative order. */
static bool schedule_valid(const pc_graph *g, const pc_partitioning *p) {
  uint32_t n = g->nnodes;
  int32_t *pos = malloc((n + p->nparts + 1) * sizeof *pos);
  int32_t *writer = malloc((g->nvalues + 1) * sizeof *writer);
  for (uint32_t i = 0; i < n + p->nparts; i++) pos[i] = -1;
  bool ok = true;
  for (uint32_t i = 0; i < p->norder; i++) {
    pc_unit u = p->order[i];
    uint32_t slot = u >= 0 ? (uint32_t)u : n + (uint32_t)(-1 - u);
    if (slot >= n + p->nparts || pos[slot] >= 0) ok = false;
    else pos[slot] = (int32_t)i;
  }
  int32_t last_cpu = -1;
  for (uint32_t k = 0; k < n; k++) {
    if (g->nodes[k].removed || g->nodes[k].kind != PC_N_CALL) continue;
    if (p->part[k] < 0) {
      if (pos[k] < 0 || pos[k] <= last_cpu) ok = false;
      last_cpu = pos[k];
    } else if (unit_pos(g, pos, unit_of(p, k)) < 0) {
      ok = false;
    }
  }
  for (uint32_t v = 0; v <= g->nvalues; v++) writer[v] = -1;
  reads_ctx r = {g, writer, p, pos, 0, true};
  for (uint32_t k = 0; k < n && ok; k++) {
    if (g->nodes[k].removed || g->nodes[k].kind != PC_N_CALL) continue;
    r.self = k;
    pc_graph_visit_args(g, &g->nodes[k], check_read, &r);
    pc_graph_visit_args(g, &g->nodes[k], note_write, &r);
  }
  free(pos);
  free(writer);
  return ok && r.ok;
}

static bool has(const int32_t *list, uint32_t n, int32_t v) {
  for (uint32_t i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

/* ---- rules ---- */

/*  a = s::f(x)        partition 0
 *  c = cpu::g(a)      CPU
 *  d = s::h(a, c)     must not join partition 0: 0 -> g -> d -> 0 would be a cycle */
static void test_mutual_dependency(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), a = act(g, 4), c = act(g, 4), d = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", x, -1, a);
  call(g, "cpu::g", a, -1, c);
  call(g, "s::h", a, c, d);
  pc_graph_set_outputs(g, IDS(d), 1);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.nparts == 2);
  CHECK(p.part[0] >= 0 && p.part[2] >= 0 && p.part[0] != p.part[2] && p.part[1] == -1);
  CHECK(schedule_valid(g, &p));
  CHECK(p.norder == 3 && p.order[0] == -1 - p.part[0] && p.order[1] == 1 && p.order[2] == -1 - p.part[2]);
  /* partition 0 feeds both the CPU call and partition 1 with a */
  const pc_part *p0 = &p.parts[p.part[0]], *p1 = &p.parts[p.part[2]];
  CHECK(p0->ninputs == 1 && p0->inputs[0] == x && p0->noutputs == 1 && p0->outputs[0] == a);
  CHECK(p1->ninputs == 2 && p1->inputs[0] == a && p1->inputs[1] == c);
  CHECK(p1->noutputs == 1 && p1->outputs[0] == d);
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* A CPU call on a branch of its own splits nothing:
 *  a = s::f(x); c = cpu::g(x); b = s::h(a); out = (b, c)  ->  {f, h} one partition */
static void test_unrelated_cpu_call(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), a = act(g, 4), c = act(g, 4), b = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", x, -1, a);
  call(g, "cpu::g", x, -1, c);
  call(g, "s::h", a, -1, b);
  pc_graph_set_outputs(g, IDS(b, c), 2);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.nparts == 1 && p.part[0] == 0 && p.part[2] == 0 && p.part[1] == -1);
  CHECK(p.parts[0].noutputs == 1 && p.parts[0].outputs[0] == b); /* a stays inside */
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* Three attention-like chains pre -> sdpa -> post; the middle sdpa has an
 * input of 8 elements, which the backend rejects. Only that call stays on
 * the CPU: the other two sdpa calls are delegated with their chains. */
static void test_per_node_rejection(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t outs[3];
  for (int i = 0; i < 3; i++) {
    int32_t len = i == 1 ? 8 : 4;
    int32_t x = act(g, len), q = act(g, len), o = act(g, len), y = act(g, len);
    call(g, "s::pre", x, -1, q);
    call(g, "s::sdpa", q, -1, o);
    call(g, "s::post", o, -1, y);
    outs[i] = y;
    (void)x;
  }
  pc_graph_set_inputs(g, IDS(0, 4, 8), 3);
  pc_graph_set_outputs(g, outs, 3);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  /* chain 1's inputs are 8 long: pre and sdpa and post are all rejected by
   * the shape rule except... pre reads x (8): rejected; sdpa: rejected;
   * post: rejected. Chains 0 and 2 each form one partition. */
  CHECK(p.part[0] >= 0 && p.part[0] == p.part[1] && p.part[1] == p.part[2]);
  CHECK(p.part[3] == -1 && p.part[4] == -1 && p.part[5] == -1);
  CHECK(p.part[6] >= 0 && p.part[6] == p.part[7] && p.part[7] == p.part[8]);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);

  /* One rejected call in the middle of a chain splits it in two and touches
   * nothing else: pre(x4) -> sdpa(q8) -> post */
  g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), q = act(g, 8), o = act(g, 4), y = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::pre", x, -1, q);
  call(g, "s::sdpa", q, -1, o);
  call(g, "s::post", o, -1, y);
  pc_graph_set_outputs(g, IDS(y), 1);
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.nparts == 2 && p.part[0] == 0 && p.part[1] == -1 && p.part[2] == 1);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* A partition that reads only constants is not a delegate; one that reads
 * a constant and an input takes only the input as a delegate input. */
static void test_constant_only(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d[4] = {1, 2, 3, 4};
  int32_t len = 4;
  int32_t w = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, &len, PC_T_CONST, d, 16, "w");
  int32_t x = act(g, 4), a = act(g, 4), b = act(g, 4), c = act(g, 4), y = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", w, -1, a);     /* constants only */
  call(g, "cpu::g", a, -1, b);   /* CPU: so a's partition stays apart */
  call(g, "s::h", x, w, c);      /* reads the input and the constant */
  call(g, "cpu::k", b, c, y);
  pc_graph_set_outputs(g, IDS(y), 1);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.part[0] == -1);
  CHECK(p.nparts == 1 && p.part[2] == 0);
  CHECK(p.parts[0].ninputs == 1 && p.parts[0].inputs[0] == x);
  CHECK(p.parts[0].noutputs == 1 && p.parts[0].outputs[0] == c);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* A method input the partition does not read is not a delegate input, and a
 * value read twice is one input. */
static void test_unused_inputs(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), unused = act(g, 4), t = act(g, 4), a = act(g, 4), b = act(g, 4),
          c = act(g, 4);
  pc_graph_set_inputs(g, IDS(x, unused, t), 3);
  call(g, "s::f", x, t, a);
  call(g, "s::g", a, t, b);
  call(g, "s::h", b, x, c);
  pc_graph_set_outputs(g, IDS(c), 1);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.nparts == 1);
  CHECK(p.parts[0].ninputs == 2 && p.parts[0].inputs[0] == x && p.parts[0].inputs[1] == t);
  CHECK(!has(p.parts[0].inputs, p.parts[0].ninputs, unused));
  CHECK(p.parts[0].noutputs == 1 && p.parts[0].outputs[0] == c);
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* Order: CPU calls keep their relative order, the last call stays last, and
 * a partition whose calls straddle a CPU call runs before what reads it.
 *  n0 a = s::f(x)     n1 b = cpu::p(x)   n2 c = s::g(a)   n3 d = cpu::q(c)
 *  n4 e = cpu::r(b, d) (last) */
static void test_order(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), a = act(g, 4), b = act(g, 4), c = act(g, 4), d = act(g, 4),
          e = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", x, -1, a);
  call(g, "cpu::p", x, -1, b);
  call(g, "s::g", a, -1, c);
  call(g, "cpu::q", c, -1, d);
  call(g, "cpu::r", b, d, e);
  pc_graph_set_outputs(g, IDS(e), 1);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.nparts == 1 && p.part[0] == 0 && p.part[2] == 0);
  CHECK(p.norder == 4 && p.order[0] == -1 && p.order[1] == 1 && p.order[2] == 3 && p.order[3] == 4);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* In-place writes and mutable state stay on the CPU, and keep their place:
 *  n0 a = s::f(x)
 *  n1 s::add_(buf, a)     writes a BUFFER: CPU
 *  n2 b = s::g(buf)       reads the updated buffer: after n1 */
static void test_mutation_stays_on_cpu(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  const float d[4] = {0};
  int32_t len = 4;
  int32_t buf = pc_graph_tensor(g, PTERA_DTYPE_FLOAT, 1, &len, PC_T_BUFFER, d, 16, "buf");
  int32_t x = act(g, 4), a = act(g, 4), b = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", x, -1, a);
  pc_graph_call(g, "s::add_", IDS(buf, a), (const uint8_t[]){1, 0}, 2);
  call(g, "s::g", buf, -1, b);
  pc_graph_set_outputs(g, IDS(b), 1);
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
  CHECK(p.part[1] == -1 && p.part[0] >= 0 && p.part[2] >= 0 && p.part[0] != p.part[2]);
  CHECK(p.parts[p.part[2]].ninputs == 1 && p.parts[p.part[2]].inputs[0] == buf);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* Caller-given groups: members go together even when levels alone would
 * split them; a group with a rejected member stays on the CPU whole; a
 * group whose members depend on each other through a CPU call cannot be one
 * delegate and stays on the CPU. */
static void test_groups(void) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4), a = act(g, 4), c = act(g, 4), b = act(g, 4), r = act(g, 8), s8 = act(g, 4),
          t = act(g, 4);
  pc_graph_set_inputs(g, IDS(x, r), 2);
  call(g, "s::f", x, -1, a);     /* n0 group 0 */
  call(g, "cpu::g", x, -1, c);   /* n1 */
  call(g, "s::h", c, -1, b);     /* n2 group 0: level 1 on its own, joins n0 */
  call(g, "s::k", r, -1, s8);    /* n3 group 1: rejected (8 elements) */
  call(g, "s::m", x, -1, t);     /* n4 group 1: goes to the CPU with n3 */
  pc_graph_set_outputs(g, IDS(a, b, s8, t), 4);
  int32_t groups[5] = {0, -1, 0, 1, 1};
  pc_partitioning p;
  CHECK(pc_partition(g, support, NULL, groups, &p) == PTERA_OK);
  CHECK(p.part[0] >= 0 && p.part[0] == p.part[2]);
  CHECK(p.part[3] == -1 && p.part[4] == -1);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);

  g = pc_graph_new(NULL, "forward");
  x = act(g, 4), a = act(g, 4), c = act(g, 4), b = act(g, 4);
  pc_graph_set_inputs(g, IDS(x), 1);
  call(g, "s::f", x, -1, a);   /* group 0 */
  call(g, "cpu::g", a, -1, c);
  call(g, "s::h", c, -1, b);   /* group 0, but depends on f through the CPU */
  pc_graph_set_outputs(g, IDS(b), 1);
  int32_t cyc[3] = {0, -1, 0};
  CHECK(pc_partition(g, support, NULL, cyc, &p) == PTERA_OK);
  CHECK(p.nparts == 0 && p.part[0] == -1 && p.part[2] == -1);
  CHECK(schedule_valid(g, &p));
  pc_partitioning_free(g, &p);
  pc_graph_free(g);
}

/* ---- generated graphs ---- */

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* n calls; each reads one or two of the last 12 results (or the input) and
 * 1 in 6 is a CPU call. */
static pc_graph *generate(uint32_t n) {
  pc_graph *g = pc_graph_new(NULL, "forward");
  int32_t x = act(g, 4);
  pc_graph_set_inputs(g, &x, 1);
  int32_t *vals = malloc((n + 1) * sizeof *vals);
  vals[0] = x;
  for (uint32_t i = 0; i < n; i++) {
    int32_t a = vals[i - (i < 12 ? next_rand() % (i + 1) : next_rand() % 12)];
    int32_t b = next_rand() % 2 ? vals[i - (i < 12 ? next_rand() % (i + 1) : next_rand() % 12)] : -1;
    int32_t out = act(g, 4);
    call(g, next_rand() % 6 == 0 ? "cpu::op" : "s::op", a, b, out);
    vals[i + 1] = out;
  }
  pc_graph_set_outputs(g, &vals[n], 1);
  free(vals);
  return g;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void test_generated(void) {
  const uint32_t sizes[] = {1000, 5000, 20000};
  for (size_t i = 0; i < 3; i++) {
    pc_graph *g = generate(sizes[i]);
    pc_partitioning p;
    double t = now_ms();
    CHECK(pc_partition(g, support, NULL, NULL, &p) == PTERA_OK);
    t = now_ms() - t;
    uint32_t delegated = 0;
    for (uint32_t k = 0; k < g->nnodes; k++) delegated += p.part[k] >= 0;
    printf("partition: %u calls -> %u partitions, %u delegated, %.2f ms\n", sizes[i], p.nparts,
           delegated, t);
    CHECK(p.nparts > 0 && delegated > sizes[i] / 2);
    CHECK(schedule_valid(g, &p));
    pc_partitioning_free(g, &p);
    pc_graph_free(g);
  }
}

int main(void) {
  test_mutual_dependency();
  test_unrelated_cpu_call();
  test_per_node_rejection();
  test_constant_only();
  test_unused_inputs();
  test_order();
  test_mutation_stays_on_cpu();
  test_groups();
  test_generated();
  return check_summary("partition");
}
