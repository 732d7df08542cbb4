/* The thread-safety contract of ptera/ptera.h: kernels registered first,
 * then one program loaded once and shared by several threads, each creating
 * its own methods from it (at the same time), querying the program, and
 * executing them, half of them on one shared thread pool. Every output
 * equals ExecuTorch's (expected/, ExecuTorch's C++ runtime). scripts/tsan.sh
 * runs this test under ThreadSanitizer. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/npy.h"
#include "ptera/ptera.h"

#define STEM "pytorch+executorch__operator_and_model_testing_conv2d_pte_conv2d_layer4_conv4a_1"
#define NCASES 3
#define NTHREADS 4
#define NRUNS 3

typedef struct io_case {
  uint8_t *in_file, *out_file;
  pf_npy in, out;
} io_case;

static io_case cases[NCASES];
static ptera_program *program;
static ptera_threadpool *pool;

static ptera_status never_called(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  (void)args, (void)nargs;
  return ptera_kernel_fail(ctx, PTERA_INTERNAL, "not in the program");
}
static const ptera_kernel_entry custom[] = {{"thread_contract::unused", never_called}};

static bool load_npy(const char *corpus, int k, const char *name, uint8_t **file, pf_npy *out) {
  char rel[512];
  snprintf(rel, sizeof rel, "expected/%s/forward/case%d/%s", STEM, k, name);
  size_t size = 0;
  *file = check_read_file(check_corpus_path(corpus, rel), &size);
  pt_err err;
  return *file && pf_npy_parse(*file, size, out, &err) == PTERA_OK;
}

/* max|got - want| <= 1e-4 max|want| (float accumulation order differs); a
 * NaN in got counts as a mismatch. */
static bool matches(const float *got, const pf_npy *want) {
  const float *w = (const float *)want->data;
  double scale = 0, err = 0;
  for (uint64_t i = 0; i < want->numel; i++) {
    if (fabs(w[i]) > scale) scale = fabs(w[i]);
    if (!(fabs((double)got[i] - w[i]) <= err)) err = fabs((double)got[i] - w[i]);
  }
  return err <= 1e-4 * scale;
}

typedef struct worker {
  int id;
  int runs_ok, queries_ok, created;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  ptera_method_info info = PTERA_METHOD_INFO_INIT;
  ptera_io_info io = PTERA_IO_INFO_INIT;
  if (ptera_program_method_count(program) == 1 &&
      strcmp(ptera_program_method_name(program, 0), "forward") == 0 &&
      ptera_program_method_info(program, "forward", &info) == PTERA_OK && info.num_inputs == 1 &&
      ptera_program_method_input(program, "forward", 0, &io) == PTERA_OK &&
      io.dtype == PTERA_DTYPE_FLOAT && ptera_program_named_data(program) != NULL)
    w->queries_ok++;
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.threadpool = w->id % 2 ? NULL : pool;
  ptera_method *m = NULL;
  if (ptera_method_create(program, "forward", &mo, &m) != PTERA_OK) {
    ptera_method_destroy(m);
    return NULL;
  }
  w->created = 1;
  for (int r = 0; r < NRUNS; r++) {
    const io_case *c = &cases[(w->id + r) % NCASES];
    if (ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, c->in.dim, c->in.sizes, c->in.data,
                                      (size_t)c->in.nbytes) != PTERA_OK ||
        ptera_method_execute(m) != PTERA_OK)
      break;
    const ptera_value *v = ptera_method_output(m, 0);
    if (v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == c->out.numel &&
        matches(v->u.tensor->data, &c->out))
      w->runs_ok++;
  }
  ptera_method_destroy(m);
  return NULL;
}

int main(int argc, char **argv) {
  const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
  for (int k = 0; k < NCASES; k++) {
    CHECK(load_npy(corpus, k, "input_0.npy", &cases[k].in_file, &cases[k].in));
    CHECK(load_npy(corpus, k, "output_0.npy", &cases[k].out_file, &cases[k].out));
    if (!cases[k].in_file || !cases[k].out_file) return check_summary("thread_contract");
    CHECK(cases[k].out.dtype == PTERA_DTYPE_FLOAT);
  }
  /* Registration first, from one thread. */
  CHECK(ptera_kernel_register(custom, 1) == PTERA_OK);
  char path[4096];
  snprintf(path, sizeof path, "%s/pte/%s.pte", corpus, STEM);
  CHECK(ptera_program_load_file(path, NULL, &program) == PTERA_OK);
  CHECK(ptera_threadpool_create(3, NULL, &pool) == PTERA_OK);

  worker w[NTHREADS];
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    w[i] = (worker){i, 0, 0, 0};
    CHECK(pthread_create(&t[i], NULL, worker_main, &w[i]) == 0);
  }
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(t[i], NULL);
    CHECK(w[i].queries_ok == 1);
    CHECK(w[i].created == 1);
    CHECK(w[i].runs_ok == NRUNS);
  }
  ptera_threadpool_destroy(pool);
  ptera_program_destroy(program);
  for (int k = 0; k < NCASES; k++) {
    free(cases[k].in_file);
    free(cases[k].out_file);
  }
  return check_summary("thread_contract");
}
