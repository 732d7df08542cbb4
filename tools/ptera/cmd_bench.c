/* ptera bench — time a method: latency over repeated executions of one
 * loaded method, optionally per operator (--profile) or as a Chrome trace of
 * one execution (--trace). The runtime's instruction hook does the per-
 * instruction timing; it costs nothing when no hook is set. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char help[] =
    "usage: ptera bench MODEL.pte [options]\n"
    "\n"
    "Loads one method once, runs it --warmup times untimed, then times each of\n"
    "--runs executions (or as many as fit in --seconds) and prints the latency:\n"
    "median, p10, p90, min and mean in milliseconds. Inputs stay bound across\n"
    "executions; mutable state (a KV cache) carries over as with `ptera run`.\n"
    "MODEL may also be a bundled program (.bpte): its embedded program runs.\n"
    "\n"
    "options:\n"
    "  --data FILE.ptd     attach an external data file (repeatable)\n"
    "  --method NAME       method to time (default: forward)\n"
    "  --input FILE.npy    the next input, in order (repeatable); without --input,\n"
    "                      tensors are filled with ones\n"
    "  --random SEED       fill inputs without --input with seeded values in [-1, 1)\n"
    "  --threads N         threads for the method's kernels (default 0: all cores;\n"
    "                      1: no thread pool)\n"
    "  --no-fuse           run every instruction as written (no load-time fusion;\n"
    "                      also when the environment sets PTERA_NO_FUSE=1)\n"
    "  --warmup N          untimed executions first (default 3)\n"
    "  --runs N            timed executions (default 20; at least 1)\n"
    "  --seconds S         instead of --runs: time executions until S seconds have\n"
    "                      passed (at least one execution)\n"
    "  --profile           also time every instruction and print the time per\n"
    "                      operator (kernel name, delegate id or fused group) per\n"
    "                      execution, largest first, with its share of the total\n"
    "  --trace FILE.json   after the timed runs, record one more execution as a\n"
    "                      Chrome trace (open it in Perfetto or chrome://tracing)\n"
    "  --json              print the latency figures as one JSON object:\n"
    "                      {\"times_ms\" (every timed run, in order), \"median_ms\",\n"
    "                      \"p10_ms\", \"p90_ms\", \"min_ms\", \"mean_ms\", \"runs\", \"threads\"}\n"
    "  --help              this text\n"
    "\n"
    "Times are wall-clock (CLOCK_MONOTONIC) around ptera_method_execute alone;\n"
    "with --profile the hook's own cost is included, so compare profiles with\n"
    "profiles. Exit status: 0 on success; 1 with the error's name and message on\n"
    "stderr; 2 on a usage error.\n";

#define MAX_FILES 64
#define MAX_INPUTS 1024
#define MAX_RUNS 1000000

typedef struct bench_opts {
  const char *model;
  const char *data[MAX_FILES];
  size_t ndata;
  const char *method;
  const char *inputs[MAX_INPUTS];
  size_t ninputs;
  bool random;
  uint64_t seed;
  size_t threads;
  bool no_fuse;
  size_t warmup, runs;
  double seconds; /* > 0: time-bounded */
  bool profile, json;
  const char *trace;
} bench_opts;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int parse_args(int argc, char **argv, bench_opts *o) {
  memset(o, 0, sizeof *o);
  o->method = "forward";
  o->warmup = 3;
  o->runs = 20;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_next = i + 1 < argc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(a, "--data") == 0 && has_next) {
      if (o->ndata == MAX_FILES) return cli_usage("bench", "more than %d --data files", MAX_FILES);
      o->data[o->ndata++] = argv[++i];
    } else if (strcmp(a, "--input") == 0 && has_next) {
      if (o->ninputs == MAX_INPUTS) return cli_usage("bench", "more than %d --input files", MAX_INPUTS);
      o->inputs[o->ninputs++] = argv[++i];
    } else if (strcmp(a, "--method") == 0 && has_next) {
      o->method = argv[++i];
    } else if (strcmp(a, "--no-fuse") == 0) {
      o->no_fuse = true;
    } else if (strcmp(a, "--random") == 0 && has_next) {
      o->random = true;
      if (cli_parse_count("bench", a, argv[++i], UINT64_MAX, &o->seed)) return 2;
    } else if ((strcmp(a, "--threads") == 0 || strcmp(a, "--warmup") == 0 ||
                strcmp(a, "--runs") == 0) && has_next) {
      uint64_t v;
      if (cli_parse_count("bench", a, argv[++i], a[2] == 't' ? 1024 : MAX_RUNS, &v)) return 2;
      if (a[2] == 'r' && v == 0) return cli_usage("bench", "--runs takes at least 1, not '0'");
      if (a[2] == 't') o->threads = (size_t)v;
      else if (a[2] == 'w') o->warmup = (size_t)v;
      else o->runs = (size_t)v;
    } else if (strcmp(a, "--seconds") == 0 && has_next) {
      const char *v = argv[++i];
      if (cli_parse_nonneg("bench", a, v, &o->seconds)) return 2;
      if (!(o->seconds > 0) || o->seconds > 86400)
        return cli_usage("bench", "--seconds takes a number of seconds above 0 and up to 86400, not '%s'", v);
    } else if (strcmp(a, "--profile") == 0) {
      o->profile = true;
    } else if (strcmp(a, "--trace") == 0 && has_next) {
      o->trace = argv[++i];
    } else if (strcmp(a, "--json") == 0) {
      o->json = true;
    } else {
      int rc = cli_positional("bench", a, help, &o->model);
      if (rc >= 0) return rc;
    }
  }
  if (!o->model) {
    fputs(help, stderr);
    return 2;
  }
  return -1;
}

/* ---- per-operator profile ---- */

typedef struct prof_entry {
  const char *name;
  ptera_instr_kind kind;
  double ms;
  size_t calls;
} prof_entry;

typedef struct prof_event { /* one instruction of a traced execution */
  const char *name;
  ptera_instr_kind kind;
  uint32_t chain, index;
  double start, end;
} prof_event;

typedef struct profiler {
  prof_entry *entries;
  size_t nentries, cap;
  double started; /* begin time of the instruction running now */
  bool oom;
  /* --trace: every instruction of one execution */
  bool tracing;
  prof_event *events;
  size_t nevents, ecap;
} profiler;

static prof_entry *entry_for(profiler *p, const char *name, ptera_instr_kind kind) {
  for (size_t i = 0; i < p->nentries; i++)
    if (p->entries[i].name == name || strcmp(p->entries[i].name, name) == 0) return &p->entries[i];
  if (p->nentries == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 64;
    prof_entry *e = realloc(p->entries, cap * sizeof *e);
    if (!e) return NULL;
    p->entries = e;
    p->cap = cap;
  }
  prof_entry *e = &p->entries[p->nentries++];
  memset(e, 0, sizeof *e);
  e->name = name;
  e->kind = kind;
  return e;
}

static void on_instr(void *user, const ptera_instr_event *ev) {
  profiler *p = user;
  double t = now_ms();
  if (!ev->end) {
    p->started = t;
    return;
  }
  const char *name = ev->name ? ev->name : "?";
  if (p->tracing) {
    if (p->nevents == p->ecap) {
      size_t cap = p->ecap ? 2 * p->ecap : 256;
      prof_event *e = realloc(p->events, cap * sizeof *e);
      if (!e) {
        p->oom = true;
        return;
      }
      p->events = e;
      p->ecap = cap;
    }
    p->events[p->nevents++] = (prof_event){name, ev->kind, ev->chain, ev->index, p->started, t};
    return;
  }
  prof_entry *e = entry_for(p, name, ev->kind);
  if (!e) {
    p->oom = true;
    return;
  }
  e->ms += t - p->started;
  e->calls++;
}

static int by_time(const void *a, const void *b) {
  double x = ((const prof_entry *)a)->ms, y = ((const prof_entry *)b)->ms;
  return x < y ? 1 : x > y ? -1 : 0;
}

static const char *kind_name(ptera_instr_kind k) {
  return k == PTERA_INSTR_KERNEL ? "kernel" : k == PTERA_INSTR_DELEGATE ? "delegate" : "other";
}

static void print_profile(profiler *p, size_t runs) {
  qsort(p->entries, p->nentries, sizeof *p->entries, by_time);
  double total = 0;
  for (size_t i = 0; i < p->nentries; i++) total += p->entries[i].ms;
  printf("\nprofile, per execution (%zu executions):\n", runs);
  printf("  %-44s %-8s %8s %10s %7s\n", "operator", "kind", "calls", "ms", "share");
  for (size_t i = 0; i < p->nentries; i++) {
    const prof_entry *e = &p->entries[i];
    printf("  %-44s %-8s %8.1f %10.4f %6.1f%%\n", cli_escz(e->name), kind_name(e->kind),
           (double)e->calls / (double)runs, e->ms / (double)runs,
           total > 0 ? 100.0 * e->ms / total : 0.0);
  }
  printf("  %-44s %-8s %8s %10.4f %6.1f%%\n", "total", "", "", total / (double)runs, 100.0);
}

static int write_trace(const profiler *p, const char *path, const char *model) {
  FILE *f = fopen(path, "w");
  if (!f) return cli_error(PTERA_ACCESS_FAILED, "cannot write the trace file '%s'", path);
  double t0 = p->nevents ? p->events[0].start : 0;
  fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"model\":", f);
  cli_put_json(f, model, strlen(model));
  fputs("},\"traceEvents\":[\n", f);
  for (size_t i = 0; i < p->nevents; i++) {
    const prof_event *e = &p->events[i];
    fputs(i ? ",\n{\"name\":" : "{\"name\":", f);
    cli_put_json(f, e->name, strlen(e->name));
    fprintf(f,
            ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%.3f,\"dur\":%.3f,"
            "\"args\":{\"chain\":%u,\"instruction\":%u}}",
            kind_name(e->kind), (e->start - t0) * 1e3, (e->end - e->start) * 1e3, e->chain,
            e->index);
  }
  fputs("\n]}\n", f);
  if (fclose(f) != 0) return cli_error(PTERA_ACCESS_FAILED, "cannot write the trace file '%s'", path);
  return 0;
}

/* ---- latency statistics ---- */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* Linear interpolation between closest ranks of sorted v. */
static double quantile(const double *v, size_t n, double q) {
  double pos = q * (double)(n - 1);
  size_t lo = (size_t)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
  return v[lo] + (pos - (double)lo) * (v[hi] - v[lo]);
}

static int execute(cli_session *s) {
  ptera_status st = ptera_method_execute(s->method);
  return st == PTERA_OK ? 0 : cli_error(st, "%s", ptera_method_errmsg(s->method));
}

static int bench(cli_session *s, const bench_opts *o, profiler *prof) {
  int rc = cli_session_open(s, o->model, o->data, o->ndata, o->method, o->threads,
                            cli_method_flags(o->no_fuse));
  if (rc) return rc;
  size_t n = ptera_method_input_count(s->method);
  if (o->ninputs && o->ninputs != n)
    return cli_error(PTERA_INVALID_ARGUMENT, "method '%s' takes %zu inputs; %zu given", o->method, n,
                     o->ninputs);
  rc = cli_session_bind_inputs(s, o->ninputs ? o->inputs : NULL, o->random, o->seed);
  for (size_t i = 0; rc == 0 && i < o->warmup; i++) rc = execute(s);
  if (rc) return rc;
  if (o->profile) ptera_method_set_instr_hook(s->method, on_instr, prof);
  size_t cap = o->seconds > 0 ? 1024 : o->runs, runs = 0;
  double *ms = malloc(cap * sizeof *ms);
  if (!ms) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  double deadline = now_ms() + o->seconds * 1e3;
  for (;;) {
    if (o->seconds > 0 ? runs > 0 && now_ms() >= deadline : runs == o->runs) break;
    if (runs == cap) {
      double *more = cap < MAX_RUNS ? realloc(ms, 2 * cap * sizeof *ms) : NULL;
      if (!more) break; /* enough samples */
      ms = more;
      cap *= 2;
    }
    double t = now_ms();
    rc = execute(s);
    ms[runs++] = now_ms() - t;
    if (rc) break;
  }
  ptera_method_set_instr_hook(s->method, NULL, NULL);
  if (rc == 0 && o->trace) {
    prof->tracing = true;
    ptera_method_set_instr_hook(s->method, on_instr, prof);
    rc = execute(s);
    ptera_method_set_instr_hook(s->method, NULL, NULL);
    if (rc == 0 && !prof->oom) rc = write_trace(prof, o->trace, o->model);
  }
  if (rc == 0 && prof->oom) rc = cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for the profile");
  if (rc) {
    free(ms);
    return rc;
  }
  double mean = 0;
  for (size_t i = 0; i < runs; i++) mean += ms[i];
  mean /= (double)runs;
  size_t threads = cli_session_threads(s);
  if (o->json) { /* each time in run order, before sorting for the figures */
    printf("{\"times_ms\":[");
    for (size_t i = 0; i < runs; i++) printf("%s%.6f", i ? "," : "", ms[i]);
    printf("],");
  }
  qsort(ms, runs, sizeof *ms, cmp_double);
  if (o->json) {
    printf("\"median_ms\":%.6f,\"p10_ms\":%.6f,\"p90_ms\":%.6f,\"min_ms\":%.6f,\"mean_ms\":%.6f,"
           "\"runs\":%zu,\"threads\":%zu}\n",
           quantile(ms, runs, 0.5), quantile(ms, runs, 0.1), quantile(ms, runs, 0.9), ms[0], mean,
           runs, threads);
  } else {
    printf("method %s: %zu runs after %zu warm-up, %zu thread%s\n", cli_escz(o->method), runs,
           o->warmup, threads, threads == 1 ? "" : "s");
    printf("latency ms: median %.4f  p10 %.4f  p90 %.4f  min %.4f  mean %.4f\n",
           quantile(ms, runs, 0.5), quantile(ms, runs, 0.1), quantile(ms, runs, 0.9), ms[0], mean);
  }
  if (o->profile && !o->json) print_profile(prof, runs);
  free(ms);
  return 0;
}

int cli_bench(int argc, char **argv) {
  bench_opts *o = malloc(sizeof *o);
  if (!o) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
  int rc = parse_args(argc, argv, o);
  if (rc < 0) {
    cli_session s;
    profiler prof;
    memset(&prof, 0, sizeof prof);
    rc = bench(&s, o, &prof);
    cli_session_close(&s);
    free(prof.entries);
    free(prof.events);
  }
  free(o);
  return rc;
}
