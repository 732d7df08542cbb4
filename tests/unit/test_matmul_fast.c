/* linear / mm / addmm / bmm through the f32 GEMM route (util/matmul_fast.c):
 * each op against the product computed in double, on shapes across the GEMM
 * tile edges and past the K block, with constant (prepared, packed) and
 * activation operands, bias or none, addmm's beta/alpha, bmm batches; every
 * available ISA forced in turn, with and without a thread pool. Each run is
 * given exactly the workspace its prepare step declared, and the test checks
 * the GEMM took it or, with no temp at all (or an addmm scaling the GEMM
 * does not take), that the portable fallback gives the same answer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "check.h"
#include "cpu/gemm.h"
#include "cpu/isa.h"
#include "emit_util.h"
#include "ptera/ptera.h"
#include "ptera/threadpool.h"
#include "runtime/kernel_ctx.h"

#define MAXV 8
typedef struct call {
  ptera_tensor t[MAXV];
  ptera_value v[MAXV];
  ptera_value *args[MAXV];
  size_t nargs;
} call;

static uint32_t rng = 12345u;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)((rng >> 8) & 0xffff) / 32768.0f - 1.0f;
}
static float *rand_buf(size_t n) {
  float *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = frand();
  return p;
}

/* Argument i: a float tensor over data; order NULL = contiguous. */
static void arg_tensor(call *c, size_t i, float *data, size_t dim, const int32_t *sizes,
                       const uint8_t *order, bool cnst) {
  ptera_tensor *t = &c->t[i];
  memset(t, 0, sizeof *t);
  t->data = data;
  t->dtype = PTERA_DTYPE_FLOAT;
  t->dim = (uint8_t)dim;
  size_t n = 1;
  for (size_t d = 0; d < dim; d++) {
    t->sizes[d] = sizes[d];
    t->dim_order[d] = order ? order[d] : (uint8_t)d;
    n *= (size_t)sizes[d];
  }
  t->numel = n;
  t->capacity = n * sizeof(float);
  t->flags = cnst ? PTERA_TENSOR_CONST : 0;
  ptera_tensor_update_strides(t);
  c->v[i].tag = PTERA_TAG_TENSOR;
  c->v[i].u.tensor = t;
}
static void arg_double(call *c, size_t i, double d) {
  c->v[i].tag = PTERA_TAG_DOUBLE;
  c->v[i].u.d = d;
}
static void finish(call *c, size_t nargs, size_t out) {
  c->nargs = nargs;
  c->v[nargs - 1] = c->v[out]; /* the return slot */
  for (size_t i = 0; i < nargs; i++) c->args[i] = &c->v[i];
}

/* When >= 0, the ISA forced between prepare and run (restored after). */
static int run_isa = -1;

/* Prepares and runs op with exactly its declared workspace (or none when
 * no_temp); returns whether the GEMM ran: the run took all of the declared
 * workspace, or needed none with a prepared (packed) weight. */
static bool prepare_and_run(const char *op, ptera_kernel_fn run, ptera_kernel_prepare_fn prep,
                            call *c, ptera_threadpool *pool, bool no_temp) {
  pt_err err;
  memset(&err, 0, sizeof err);
  pr_packed *list = NULL;
  size_t packed_bytes = 0;
  ptera_kernel_prepare_ctx pc = {op, &err, NULL, &list, &packed_bytes, ptera_threadpool_size(pool),
                                 NULL, 0};
  CHECK(prep(&pc, c->args, c->nargs) == PTERA_OK);
  size_t ws = no_temp ? 0 : pc.workspace;
  void *temp = ws ? aligned_alloc(64, (ws + 63) / 64 * 64) : NULL;
  ptera_kernel_ctx kc;
  pr_kernel_ctx_init(&kc, op, &err, temp, ws);
  kc.state = pc.state;
  kc.pool = pool;
  pk_isa prepared = pk_isa_selected();
  if (run_isa >= 0) pk_isa_force((pk_isa)run_isa);
  CHECK(run(&kc, c->args, c->nargs) == PTERA_OK);
  if (run_isa >= 0) pk_isa_force(prepared);
  bool used = kc.temp_used == pc.workspace && (pc.workspace > 0 || pc.state);
  free(temp);
  while (list) {
    pr_packed *next = list->next;
    pt_free(NULL, list);
    list = next;
  }
  return used;
}

/* out [M, N] (row stride ldo) against beta*bias + alpha*(a @ b) in double;
 * a(i,k) = a[i*sa0 + k*sa1], b(k,j) = b[k*sb0 + j*sb1]. */
static bool close_to(const float *out, size_t ldo, size_t M, size_t N, size_t K, const float *a,
                     size_t sa0, size_t sa1, const float *b, size_t sb0, size_t sb1,
                     const float *bias, double alpha, double beta) {
  for (size_t i = 0; i < M; i++)
    for (size_t j = 0; j < N; j++) {
      double acc = 0, mag = 0;
      for (size_t k = 0; k < K; k++) {
        double p = (double)a[i * sa0 + k * sa1] * b[k * sb0 + j * sb1];
        acc += p;
        mag += fabs(p);
      }
      double ref = alpha * acc + (bias && beta != 0 ? beta * bias[j] : 0);
      mag = fabs(alpha) * mag + (bias ? fabs(beta * bias[j]) : 0);
      if (fabs(out[i * ldo + j] - ref) > 1e-6 + 2.4e-7 * (double)(K + 2) * mag) return false;
    }
  return true;
}

/* linear: input [2, M/2.. ] rank 3 when M is even, weight [N, K]. */
static void linear_case(size_t M, size_t N, size_t K, bool wconst, bool bias, ptera_threadpool *pool,
                        bool no_temp) {
  float *x = rand_buf(M * K), *w = rand_buf(N * K), *bs = rand_buf(N), *o = calloc(M * N, 4);
  call c;
  memset(&c, 0, sizeof c);
  bool r3 = M % 2 == 0;
  int32_t xs3[3] = {2, (int32_t)(M / 2), (int32_t)K}, xs2[2] = {(int32_t)M, (int32_t)K};
  int32_t os3[3] = {2, (int32_t)(M / 2), (int32_t)N}, os2[2] = {(int32_t)M, (int32_t)N};
  int32_t wsz[2] = {(int32_t)N, (int32_t)K}, bsz[1] = {(int32_t)N};
  arg_tensor(&c, 0, x, r3 ? 3 : 2, r3 ? xs3 : xs2, NULL, false);
  arg_tensor(&c, 1, w, 2, wsz, NULL, wconst);
  if (bias) arg_tensor(&c, 2, bs, 1, bsz, NULL, wconst);
  arg_tensor(&c, 3, o, r3 ? 3 : 2, r3 ? os3 : os2, NULL, false);
  finish(&c, 5, 3);
  bool used = prepare_and_run("aten::linear.out", pk_linear_out, pk_linear_prepare, &c, pool, no_temp);
  CHECK(used == !no_temp);
  CHECK(close_to(o, N, M, N, K, x, K, 1, w, 1, K, bias ? bs : NULL, 1, 1));
  free(x), free(w), free(bs), free(o);
}

/* mm, or addmm when addmm: mat2 [K, N], stored transposed ([N, K] data) when t. */
static void mm_case(size_t M, size_t N, size_t K, bool bconst, bool t, bool addmm, double beta,
                    double alpha, ptera_threadpool *pool, bool fast_expected) {
  float *a = rand_buf(M * K), *b = rand_buf(N * K), *bs = rand_buf(N), *o = calloc(M * N, 4);
  call c;
  memset(&c, 0, sizeof c);
  int32_t as[2] = {(int32_t)M, (int32_t)K}, bsz[2] = {(int32_t)K, (int32_t)N};
  int32_t os[2] = {(int32_t)M, (int32_t)N}, ss[1] = {(int32_t)N};
  static const uint8_t tr[2] = {1, 0};
  size_t i0 = addmm ? 1 : 0;
  arg_tensor(&c, i0, a, 2, as, NULL, false);
  arg_tensor(&c, i0 + 1, b, 2, bsz, t ? tr : NULL, bconst);
  size_t sb0 = t ? 1 : N, sb1 = t ? K : 1;
  bool used;
  if (addmm) {
    arg_tensor(&c, 0, bs, 1, ss, NULL, bconst);
    arg_double(&c, 3, beta);
    arg_double(&c, 4, alpha);
    arg_tensor(&c, 5, o, 2, os, NULL, false);
    finish(&c, 7, 5);
    used = prepare_and_run("aten::addmm.out", pk_addmm_out, pk_addmm_prepare, &c, pool, false);
  } else {
    arg_tensor(&c, 2, o, 2, os, NULL, false);
    finish(&c, 4, 2);
    used = prepare_and_run("aten::mm.out", pk_mm_out, pk_mm_prepare_op, &c, pool, false);
  }
  CHECK(used == fast_expected);
  CHECK(close_to(o, N, M, N, K, a, K, 1, b, sb0, sb1, addmm ? bs : NULL, addmm ? alpha : 1,
                 addmm ? beta : 0));
  free(a), free(b), free(bs), free(o);
}

static void bmm_case(size_t B, size_t M, size_t N, size_t K, ptera_threadpool *pool) {
  float *a = rand_buf(B * M * K), *b = rand_buf(B * K * N), *o = calloc(B * M * N, 4);
  call c;
  memset(&c, 0, sizeof c);
  int32_t as[3] = {(int32_t)B, (int32_t)M, (int32_t)K}, bsz[3] = {(int32_t)B, (int32_t)K, (int32_t)N};
  int32_t os[3] = {(int32_t)B, (int32_t)M, (int32_t)N};
  arg_tensor(&c, 0, a, 3, as, NULL, false);
  arg_tensor(&c, 1, b, 3, bsz, NULL, false);
  arg_tensor(&c, 2, o, 3, os, NULL, false);
  finish(&c, 4, 2);
  CHECK(prepare_and_run("aten::bmm.out", pk_bmm_out, pk_bmm_prepare, &c, pool, false));
  for (size_t i = 0; i < B; i++)
    CHECK(close_to(o + i * M * N, N, M, N, K, a + i * M * K, K, 1, b + i * K * N, N, 1, NULL, 1, 0));
  free(a), free(b), free(o);
}

static const size_t DIMS[] = {1, 3, 8, 17, 33, 70};

static void run_all(ptera_threadpool *pool) {
  for (size_t i = 0; i < 6; i++) {
    size_t M = DIMS[i], N = DIMS[(i + 2) % 6], K = DIMS[(i + 4) % 6];
    linear_case(M, N, K, i % 2 == 0, i % 3 != 0, pool, false);
    mm_case(M, N, K, i % 2 == 1, i % 3 == 1, false, 0, 1, pool, true);
    mm_case(N, M, K, true, i % 2 == 0, true, 1, 1, pool, true);
    bmm_case(1 + i % 3, M, N, K, pool);
  }
  /* K past the 512 block, with constant and activation weights. */
  linear_case(9, 20, 600, true, true, pool, false);
  linear_case(5, 33, 513, false, false, pool, false);
  mm_case(4, 17, 530, true, true, true, 1, 1, pool, true);
  /* addmm: beta 0 ignores self; other scalings stay portable (no temp taken). */
  mm_case(7, 9, 5, true, false, true, 0, 1, pool, true);
  mm_case(7, 9, 5, true, false, true, 0.5, 2, pool, false);
  /* No workspace: the portable fallback. */
  linear_case(6, 10, 12, true, true, pool, true);
}

/* A real method: linear(x [5, 40] planned, w [37, 40] const, b [37] const)
 * -> y planned; method create runs the prepare step (packs w), execute the
 * GEMM, with and without a thread pool. */
enum { RM = 5, RK = 40, RN = 37 };
static void method_case(ptera_threadpool *pool) {
  static float w[RN * RK], b[RN], x[RM * RK];
  for (size_t i = 0; i < RN * RK; i++) w[i] = frand();
  for (size_t i = 0; i < RN; i++) b[i] = frand();
  for (size_t i = 0; i < RM * RK; i++) x[i] = frand();
  static const int32_t xs[2] = {RM, RK}, ws[2] = {RN, RK}, bs[1] = {RN}, ys[2] = {RM, RN};
  static pc_value values[4];
  static const int32_t args[5] = {0, 1, 2, 3, 3}, in0[1] = {0}, out3[1] = {3};
  static const pc_instr instrs[1] = {{0, args, 5, false}};
  static const int64_t bufs[1] = {(RM * RK + RM * RN) * 4};
  static const pc_operator ops[1] = {{"aten::linear", "out"}};
  values[0] = eu_tensor_f(PC_STORAGE_PLANNED, 2, xs);
  values[0].u.tensor.memory_id = 1;
  values[1] = eu_tensor_f(PC_STORAGE_CONST, 2, ws);
  values[1].u.tensor.data = w;
  values[1].u.tensor.nbytes = sizeof w;
  values[2] = eu_tensor_f(PC_STORAGE_CONST, 1, bs);
  values[2].u.tensor.data = b;
  values[2].u.tensor.nbytes = sizeof b;
  values[3] = eu_tensor_f(PC_STORAGE_PLANNED, 2, ys);
  values[3].u.tensor.memory_id = 1;
  values[3].u.tensor.memory_offset = RM * RK * 4;
  pc_method method = {"forward", values, 4, in0, 1, out3, 1, instrs, 1, ops, 1, bufs, 1, NULL, 0};
  pc_program prog = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&prog, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  ptera_method_options mo = {0};
  mo.threadpool = pool;
  ptera_method *m = NULL;
  CHECK(p && ptera_method_create(p, "forward", &mo, &m) == PTERA_OK);
  if (m) {
    ptera_method_memory mem;
    CHECK(ptera_method_get_memory(m, &mem) == PTERA_OK);
    CHECK(mem.packed_bytes >= pk_gemm_f32_pack_b_size(RK, RN)); /* the weight was packed */
    for (int rep = 0; rep < 2; rep++) {
      CHECK(ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 2, xs, x, sizeof x) == PTERA_OK);
      CHECK(ptera_method_execute(m) == PTERA_OK);
      const ptera_value *y = ptera_method_output(m, 0);
      CHECK(y && y->tag == PTERA_TAG_TENSOR && y->u.tensor->numel == RM * RN);
      if (y && y->tag == PTERA_TAG_TENSOR)
        CHECK(close_to(y->u.tensor->data, RN, RM, RN, RK, x, RK, 1, w, 1, RK, b, 1, 1));
    }
    ptera_method_destroy(m);
  }
  ptera_program_destroy(p);
  pt_free(NULL, file);
}

int main(void) {
  ptera_threadpool *pool = NULL;
  CHECK(ptera_threadpool_create(2, NULL, &pool) == PTERA_OK);
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    run_all(NULL);
    run_all(pool);
  }
  /* A weight packed under one ISA keeps it when the run sees another. */
  for (int isa = 0; isa < PK_ISA_COUNT; isa++) {
    if (!pk_isa_available((pk_isa)isa)) continue;
    pk_isa_force((pk_isa)isa);
    run_isa = PK_ISA_SCALAR;
    linear_case(17, 40, 70, true, true, pool, false);
    mm_case(9, 33, 20, true, true, false, 0, 1, NULL, true);
    run_isa = -1;
  }
  pk_isa_force(PK_ISA_COUNT);
  method_case(NULL);
  method_case(pool);
  ptera_threadpool_destroy(pool);
  return check_summary("matmul_fast");
}
