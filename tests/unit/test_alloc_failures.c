/* Allocation-failure injection: for every corpus program (with its .ptd
 * where the corpus pairs one), fail allocation N = 0, 1, 2, ... of
 * load + attach + method create + set inputs + execute. Each run must fail
 * with MemoryAllocationFailed/OutOfResources at the step that hit the
 * failure (every other step behaving as in a run without failures), set a
 * message, and leave zero live allocations after destroy. Execute must not
 * allocate at all. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "fail_alloc.h"
#include "ptera/ptera.h"

#define MAX_STEPS 64
typedef struct run_log {
  ptera_status st[MAX_STEPS];
  bool msg_ok[MAX_STEPS];
  int nsteps;
  long exec_allocs; /* allocations made during execute (must be 0) */
} run_log;

#define SKIPPED ((ptera_status)0xFE)

static void step(run_log *r, ptera_status st, const char *msg) {
  if (r->nsteps < MAX_STEPS) {
    r->st[r->nsteps] = st;
    r->msg_ok[r->nsteps] = st == PTERA_OK || st == SKIPPED || (msg && msg[0]);
    r->nsteps++;
  }
}

static uint8_t io_buf[32][1 << 16];

/* load + attach + every method's create, inputs, outputs, execute. */
static void scenario(fa_state *s, const uint8_t *pte, size_t pte_size, const uint8_t *ptd,
                     size_t ptd_size, run_log *r) {
  ptera_allocator a = {fa_alloc, fa_free, s};
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.allocator = &a;
  o.max_planned_bytes = 64u << 20;
  memset(r, 0, sizeof *r);
  ptera_program *p = NULL;
  ptera_status st = ptera_program_load_buffer(pte, pte_size, &o, &p);
  step(r, st, p ? ptera_program_errmsg(p) : "(no handle)");
  if (st == PTERA_OK && ptd) {
    st = ptera_program_attach_data_buffer(p, ptd, ptd_size);
    step(r, st, ptera_program_errmsg(p));
  }
  if (st == PTERA_OK) {
    for (size_t i = 0; i < ptera_program_method_count(p); i++) {
      ptera_method *m = NULL;
      ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
      mo.temp_size = 1 << 16;
      st = ptera_method_create(p, ptera_program_method_name(p, i), &mo, &m);
      step(r, st, m ? ptera_method_errmsg(m) : "(no handle)");
      if (st != PTERA_OK) step(r, SKIPPED, NULL); /* keeps one slot per step */
      if (st == PTERA_OK) {
        size_t nin = ptera_method_input_count(m), used = 0;
        for (size_t k = 0; k < nin; k++) {
          const ptera_value *v = ptera_method_input(m, k);
          if (v->tag != PTERA_TAG_TENSOR || used == 16) continue;
          const ptera_tensor *t = v->u.tensor;
          size_t nb = ptera_tensor_nbytes(t);
          if (nb > sizeof io_buf[0]) continue;
          memset(io_buf[used], 1, nb);
          ptera_method_set_input_tensor(m, k, (ptera_dtype)t->dtype, t->dim, t->sizes, io_buf[used++],
                                        nb);
        }
        for (size_t k = 0; k < ptera_method_output_count(m) && used < 32; k++) {
          const ptera_value *v = ptera_method_output(m, k);
          if (v->tag == PTERA_TAG_TENSOR && !v->u.tensor->data &&
              !(v->u.tensor->flags & (PTERA_TENSOR_PLANNED | PTERA_TENSOR_CONST)) &&
              v->u.tensor->capacity <= sizeof io_buf[0])
            ptera_method_set_output_buffer(m, k, io_buf[used++], sizeof io_buf[0]);
        }
        long before = s->count;
        st = ptera_method_execute(m);
        r->exec_allocs += s->count - before;
        step(r, st, ptera_method_errmsg(m));
      }
      ptera_method_destroy(m);
    }
  }
  ptera_program_destroy(p);
}

static bool is_oom(ptera_status st) {
  return st == PTERA_MEMORY_ALLOCATION_FAILED || st == PTERA_OUT_OF_RESOURCES;
}

static unsigned total_runs, total_files;

/* Returns the reference run's last status. */
static ptera_status check_file(const char *name, const uint8_t *pte, size_t pte_size, const uint8_t *ptd,
                               size_t ptd_size) {
  fa_state s = {-1, 0, 0, false};
  run_log ref, r;
  scenario(&s, pte, pte_size, ptd, ptd_size, &ref);
  CHECK(s.live == 0);
  CHECK(ref.exec_allocs == 0);
  long n_allocs = s.count;
  unsigned bad = 0;
  for (long n = 0; n <= n_allocs; n++) {
    fa_state f = {n, 0, 0, false};
    scenario(&f, pte, pte_size, ptd, ptd_size, &r);
    total_runs++;
    bool ok = f.live == 0 && r.exec_allocs == 0;
    if (!f.failed) {
      /* Past the last allocation: the run is the reference run. */
      ok = ok && n == n_allocs && r.nsteps == ref.nsteps &&
           memcmp(r.st, ref.st, sizeof r.st[0] * (size_t)r.nsteps) == 0;
    } else {
      bool saw_oom = false;
      for (int i = 0; i < r.nsteps; i++) {
        if (!r.msg_ok[i]) ok = false;
        if (is_oom(r.st[i])) saw_oom = true;
        else if (r.st[i] == SKIPPED && i > 0 && is_oom(r.st[i - 1])) continue;
        else if (i < ref.nsteps && r.st[i] != ref.st[i]) ok = false;
      }
      /* A failed load or attach ends the scenario early; otherwise the
       * steps line up with the reference run. */
      if (r.nsteps > ref.nsteps) ok = false;
      if (!saw_oom) ok = false;
    }
    if (!ok && bad++ < 3) {
      fprintf(stderr, "%s: failing allocation %ld of %ld: live=%ld exec_allocs=%ld steps:", name, n,
              n_allocs, f.live, r.exec_allocs);
      for (int i = 0; i < r.nsteps; i++)
        fprintf(stderr, " %s%s(ref %s)", ptera_status_name(r.st[i]), r.msg_ok[i] ? "" : "[no message]",
                i < ref.nsteps ? ptera_status_name(ref.st[i]) : "-");
      fprintf(stderr, "\n");
    }
    CHECK(ok);
  }
  total_files++;
  int last = ref.nsteps - 1;
  while (last > 0 && ref.st[last] == SKIPPED) last--;
  printf("  %-100.100s %4ld allocations, reference: %s\n", name, n_allocs,
         ptera_status_name(ref.st[last]));
  return ref.st[last];
}

/* Whether the program delegates to XNNPACK (its delegate id is in the file). */
static bool uses_xnnpack(const uint8_t *d, size_t n) {
  static const char id[] = "XnnpackBackend";
  for (size_t i = 0; i + sizeof id - 1 <= n; i++)
    if (memcmp(d + i, id, sizeof id - 1) == 0) return true;
  return false;
}
static unsigned xnnpack_files;

/* The bundled path: load the .bpte (and its program), then for every suite
 * create the method, bind case 0, execute and verify. */
static void bundled_scenario(fa_state *s, const char *path, run_log *r) {
  ptera_allocator a = {fa_alloc, fa_free, s};
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  o.allocator = &a;
  o.max_planned_bytes = 64u << 20;
  memset(r, 0, sizeof *r);
  ptera_bundled *b = NULL;
  ptera_status st = ptera_bundled_load_file(path, &o, &b);
  step(r, st, b ? ptera_bundled_errmsg(b) : "(no handle)");
  if (st == PTERA_OK) {
    /* Stops at the first failure, so a run's steps are a prefix of the
     * reference run's. */
    for (size_t i = 0; i < ptera_bundled_suite_count(b) && st == PTERA_OK; i++) {
      ptera_method *m = NULL;
      st = ptera_method_create(ptera_bundled_program(b), ptera_bundled_suite_method(b, i), NULL, &m);
      step(r, st, m ? ptera_method_errmsg(m) : "(no handle)");
      if (st == PTERA_OK && ptera_bundled_case_count(b, i) > 0) {
        st = ptera_bundled_set_inputs(b, m, i, 0);
        step(r, st, ptera_bundled_errmsg(b));
        long before = s->count;
        if (st == PTERA_OK) {
          st = ptera_method_execute(m);
          step(r, st, ptera_method_errmsg(m));
        }
        if (st == PTERA_OK) {
          st = ptera_bundled_verify(b, m, i, 0, PTERA_BUNDLED_DEFAULT_RTOL, PTERA_BUNDLED_DEFAULT_ATOL);
          step(r, st, ptera_bundled_errmsg(b));
        }
        r->exec_allocs += s->count - before;
      }
      ptera_method_destroy(m);
    }
  }
  ptera_bundled_destroy(b);
}

static void check_bundled(const char *path) {
  fa_state s = {-1, 0, 0, false};
  run_log ref, r;
  bundled_scenario(&s, path, &ref);
  CHECK(s.live == 0 && ref.exec_allocs == 0);
  long n_allocs = s.count;
  for (long n = 0; n < n_allocs; n++) {
    fa_state f = {n, 0, 0, false};
    bundled_scenario(&f, path, &r);
    total_runs++;
    bool ok = f.failed && f.live == 0 && r.exec_allocs == 0 && r.nsteps <= ref.nsteps, oom = false;
    for (int i = 0; i < r.nsteps; i++) {
      if (!r.msg_ok[i]) ok = false;
      if (is_oom(r.st[i])) oom = true;
      else if (r.st[i] != ref.st[i]) ok = false;
    }
    if (!ok || !oom)
      fprintf(stderr, "bundled: failing allocation %ld of %ld: live=%ld steps=%d last=%s\n", n,
              n_allocs, f.live, r.nsteps, ptera_status_name(r.st[r.nsteps ? r.nsteps - 1 : 0]));
    CHECK(ok && oom);
  }
  total_files++;
  printf("  %-100.100s %4ld allocations, reference: %s\n", path, n_allocs,
         ptera_status_name(ref.st[ref.nsteps - 1]));
}

static const struct {
  const char *pte, *ptd;
} pairs[] = {
    {"barakugav+executorch-rs__examples_data_map_model_model.pte",
     "barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd"},
    {"pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.pte",
     "pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.ptd"},
    {"pytorch+executorch__extension_module_test_resources_linear.pte",
     "pytorch+executorch__extension_module_test_resources_linear.ptd"},
};

int main(int argc, char **argv) {
  const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/pte", corpus);
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  if (!d) return check_summary("alloc_failures");
  clock_t t0 = clock();
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".bpte") == 0) check_bundled(path);
    if (len < 4 || strcmp(e->d_name + len - 4, ".pte") != 0) continue;
    size_t size, ptd_size = 0;
    uint8_t *data = check_read_file(path, &size);
    CHECK(data != NULL);
    if (!data) continue;
    uint8_t *ptd = NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
      if (strcmp(pairs[i].pte, e->d_name) != 0) continue;
      snprintf(path, sizeof path, "%s/%s", dir, pairs[i].ptd);
      ptd = check_read_file(path, &ptd_size);
      CHECK(ptd != NULL);
    }
    ptera_status last = check_file(e->d_name, data, size, ptd, ptd_size);
    /* XNNPACK programs run their delegate (init under every injected
     * failure, then execute without allocating) to the end. */
    if (uses_xnnpack(data, size)) {
      xnnpack_files++;
      CHECK(last == PTERA_OK);
    }
    /* The unaligned path copies the program: one more allocation to fail. */
    if (size < (256u << 10)) {
      uint8_t *shifted = malloc(size + 1);
      if (shifted) {
        memcpy(shifted + 1, data, size);
        fa_state f = {0, 0, 0, false};
        run_log r;
        scenario(&f, shifted + 1, size, ptd, ptd_size, &r);
        CHECK(f.failed && f.live == 0 && r.nsteps == 1 && is_oom(r.st[0]) && r.msg_ok[0]);
        f = (fa_state){1, 0, 0, false};
        scenario(&f, shifted + 1, size, ptd, ptd_size, &r);
        CHECK(f.failed && f.live == 0 && r.nsteps == 1 && is_oom(r.st[0]) && r.msg_ok[0]);
        free(shifted);
      }
    }
    free(ptd);
    free(data);
  }
  closedir(d);
  CHECK(total_files >= 30);
  CHECK(xnnpack_files >= 5);
  printf("alloc_failures: %u XNNPACK-delegating programs initialised and ran under injection\n", xnnpack_files);
  printf("alloc_failures: %u files, %u failure-injected runs, %.1f s CPU\n", total_files, total_runs,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  return check_summary("alloc_failures");
}
