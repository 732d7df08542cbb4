/* ptera run — run one method of a program, once or several times in a row
 * (--then) on the same method instance, so mutable state carries over. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char help[] =
    "usage: ptera run MODEL.pte [options]\n"
    "\n"
    "Runs one method and prints each output's dtype, shape and first values.\n"
    "MODEL may also be a bundled program (.bpte): its embedded program runs.\n"
    "\n"
    "options:\n"
    "  --data FILE.ptd     attach an external data file (repeatable)\n"
    "  --method NAME       method to run (default: forward)\n"
    "  --input FILE.npy    the next input, in order (repeatable); 0-d arrays for\n"
    "                      Int/Double/Bool inputs. Without --input, tensors are\n"
    "                      filled with ones\n"
    "  --random SEED       fill inputs without --input with seeded values in [-1, 1)\n"
    "                      (integers in [-5, 5], bools 0/1) instead of ones\n"
    "  --then              end this execution's inputs and run the method again\n"
    "                      afterwards, on the same loaded method: mutable state\n"
    "                      (e.g. a KV cache in buffers) carries over. The --input\n"
    "                      options after it are the next execution's. Either every\n"
    "                      execution has its --input files or none has (ones, or\n"
    "                      --random values: execution j uses seed SEED + j)\n"
    "  --output-dir DIR    write each output to DIR/output_<k>.npy; with --then,\n"
    "                      execution j's to DIR/run<j>_output_<k>.npy\n"
    "  --threads N         threads for the method's kernels (default 0: all cores;\n"
    "                      1: no thread pool)\n"
    "  --no-fuse           run every instruction as written (no load-time fusion;\n"
    "                      also when the environment sets PTERA_NO_FUSE=1)\n"
    "  --show N            values printed per output (default 8)\n"
    "  --top K             for each floating-point output of shape [N] or [1, N]\n"
    "                      (2 <= N <= 100000), print its K largest values with\n"
    "                      their indices, largest first (default 3; 0: off)\n"
    "  --help              this text\n"
    "\n"
    "With --then, each execution's outputs follow a 'run <j>:' line (j from 0).\n"
    "Options other than --input and --then apply to every execution.\n"
    "\n"
    "Exit status: 0 on success; 1 with the error's name and message on stderr;\n"
    "2 on a usage error.\n";

#define MAX_FILES 64
#define MAX_INPUTS 4096 /* --input files over all executions */
#define MAX_RUNS 1024   /* executions (--then + 1) */

typedef struct run_opts {
  const char *model;
  const char *data[MAX_FILES];
  size_t ndata;
  const char *method;
  const char *inputs[MAX_INPUTS]; /* run j's: inputs[first[j] .. first[j + 1]) */
  size_t ninputs;
  size_t first[MAX_RUNS + 1];
  size_t nruns;
  const char *output_dir;
  bool random;
  uint64_t seed;
  size_t show;
  size_t top;
  size_t threads;
  bool no_fuse;
} run_opts;

static int parse_args(int argc, char **argv, run_opts *o) {
  memset(o, 0, sizeof *o);
  o->method = "forward";
  o->show = 8;
  o->top = 3;
  o->nruns = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_next = i + 1 < argc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(a, "--data") == 0 && has_next && o->ndata < MAX_FILES) {
      o->data[o->ndata++] = argv[++i];
    } else if (strcmp(a, "--input") == 0 && has_next) {
      if (o->ninputs == MAX_INPUTS) {
        return cli_usage("run", "more than %d --input files", MAX_INPUTS);
      }
      o->inputs[o->ninputs++] = argv[++i];
    } else if (strcmp(a, "--then") == 0) {
      if (o->nruns == MAX_RUNS) {
        return cli_usage("run", "more than %d executions", MAX_RUNS);
      }
      o->first[o->nruns++] = o->ninputs;
    } else if (strcmp(a, "--method") == 0 && has_next) {
      o->method = argv[++i];
    } else if (strcmp(a, "--output-dir") == 0 && has_next) {
      o->output_dir = argv[++i];
    } else if (strcmp(a, "--random") == 0 && has_next) {
      o->random = true;
      if (cli_parse_count("run", a, argv[++i], UINT64_MAX, &o->seed)) return 2;
    } else if (strcmp(a, "--no-fuse") == 0) {
      o->no_fuse = true;
    } else if (strcmp(a, "--threads") == 0 && has_next) {
      uint64_t v;
      if (cli_parse_count("run", a, argv[++i], 1024, &v)) return 2;
      o->threads = (size_t)v;
    } else if ((strcmp(a, "--show") == 0 || strcmp(a, "--top") == 0) && has_next) {
      uint64_t n;
      if (cli_parse_count("run", a, argv[++i], SIZE_MAX, &n)) return 2;
      if (a[2] == 's') o->show = (size_t)n;
      else o->top = (size_t)n;
    } else {
      int rc = cli_positional("run", a, help, &o->model);
      if (rc >= 0) return rc;
    }
  }
  if (!o->model) {
    fprintf(stderr, "%s", help);
    return 2;
  }
  o->first[o->nruns] = o->ninputs;
  /* Files for some executions but not others is a mistake (a forgotten
   * --input, a stray --then), not a request for ones. */
  if (o->ninputs) {
    for (size_t j = 0; j < o->nruns; j++) {
      if (o->first[j] != o->first[j + 1]) continue;
      return cli_usage("run",
                       "execution %zu has no --input but others have: with --then, give every "
                       "execution its inputs (or none, for ones or --random values)",
                       j);
    }
  }
  return -1;
}

/* Turns output value k into a logical-order array (caller frees data). */
static int output_array(const ptera_value *v, cli_array *a) {
  memset(a, 0, sizeof *a);
  switch (v->tag) {
    case PTERA_TAG_TENSOR: {
      const ptera_tensor *t = v->u.tensor;
      a->dtype = t->dtype;
      a->dim = t->dim;
      memcpy(a->sizes, t->sizes, sizeof a->sizes);
      a->nbytes = ptera_tensor_nbytes(t);
      a->data = malloc(a->nbytes ? a->nbytes : 1);
      if (!a->data) return -1;
      if (a->nbytes && t->data) cli_from_memory_order(t, t->data, a->data);
      else if (a->nbytes) memset(a->data, 0, a->nbytes);
      return 0;
    }
    case PTERA_TAG_INT: a->dtype = PTERA_DTYPE_LONG; a->nbytes = 8; break;
    case PTERA_TAG_DOUBLE: a->dtype = PTERA_DTYPE_DOUBLE; a->nbytes = 8; break;
    case PTERA_TAG_BOOL: a->dtype = PTERA_DTYPE_BOOL; a->nbytes = 1; break;
    case PTERA_TAG_STRING: a->dtype = -1; a->nbytes = v->u.str.len; break;
    default: return 1; /* None and lists have no .npy form */
  }
  a->data = malloc(a->nbytes ? a->nbytes : 1);
  if (!a->data) return -1;
  if (v->tag == PTERA_TAG_INT) memcpy(a->data, &v->u.i, 8);
  else if (v->tag == PTERA_TAG_DOUBLE) memcpy(a->data, &v->u.d, 8);
  else if (v->tag == PTERA_TAG_BOOL) *(uint8_t *)a->data = v->u.b;
  else if (a->nbytes) memcpy(a->data, v->u.str.ptr, a->nbytes);
  return 0;
}

static void print_output(size_t k, const ptera_value *v, const cli_array *a, size_t show) {
  char shape[160];
  if (v->tag == PTERA_TAG_STRING) {
    printf("output %zu: String = \"%s\"\n", k, cli_esc(v->u.str.ptr, v->u.str.len));
    return;
  }
  if (v->tag != PTERA_TAG_TENSOR) {
    printf("output %zu: %s = ", k, ptera_tag_name(v->tag));
    if (v->tag == PTERA_TAG_INT) printf("%lld\n", (long long)v->u.i);
    else if (v->tag == PTERA_TAG_DOUBLE) printf("%.9g\n", v->u.d);
    else if (v->tag == PTERA_TAG_BOOL) printf("%s\n", v->u.b ? "true" : "false");
    else printf("(no value)\n");
    return;
  }
  cli_format_shape(shape, sizeof shape, a->dtype, a->dim, a->sizes);
  printf("output %zu: %s =", k, shape);
  size_t numel = v->u.tensor->numel;
  for (size_t i = 0; i < numel && i < show; i++) printf(" %.7g", cli_element(a->dtype, a->data, i));
  printf("%s\n", numel > show ? " ..." : "");
}

/* The top-k line of a class-score vector a (see cli_topk_applies). */
static int print_top(size_t k, const cli_array *a, size_t top) {
  size_t n = (size_t)a->sizes[a->dim - 1];
  double *vals = malloc(n * sizeof *vals);
  if (!vals) return -1;
  for (size_t i = 0; i < n; i++) vals[i] = cli_element(a->dtype, a->data, i);
  int rc = cli_topk_line(stdout, k, vals, n, top);
  free(vals);
  return rc;
}

/* Prints execution j's outputs and writes their files. */
static int report_outputs(cli_session *s, const run_opts *o, size_t j, bool *dir_made) {
  if (o->output_dir && !*dir_made) {
    if (mkdir(o->output_dir, 0777) != 0 && errno != EEXIST)
      return cli_error(PTERA_ACCESS_FAILED, "cannot create directory '%s'", o->output_dir);
    *dir_made = true;
  }
  if (o->nruns > 1) printf("run %zu:\n", j);
  size_t n = ptera_method_output_count(s->method);
  for (size_t k = 0; k < n; k++) {
    const ptera_value *v = ptera_method_output(s->method, k);
    cli_array a;
    int rc = output_array(v, &a);
    if (rc < 0) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for output %zu", k);
    print_output(k, v, &a, o->show);
    if (rc == 0 && o->top && v->tag == PTERA_TAG_TENSOR && cli_topk_applies(a.dtype, a.dim, a.sizes) &&
        print_top(k, &a, o->top) != 0) {
      free(a.data);
      return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for output %zu", k);
    }
    if (rc == 0 && o->output_dir) {
      char path[4096], msg[512];
      if (o->nruns > 1) snprintf(path, sizeof path, "%s/run%zu_output_%zu.npy", o->output_dir, j, k);
      else snprintf(path, sizeof path, "%s/output_%zu.npy", o->output_dir, k);
      if (cli_npy_save(path, &a, msg, sizeof msg) != 0) {
        free(a.data);
        return cli_error(PTERA_ACCESS_FAILED, "%s", msg);
      }
    }
    free(a.data);
  }
  return 0;
}

/* Checks every execution's count of --input files before any runs. */
static int check_input_counts(cli_session *s, const run_opts *o) {
  size_t n = ptera_method_input_count(s->method);
  for (size_t j = 0; j < o->nruns; j++) {
    size_t given = o->first[j + 1] - o->first[j];
    if (!o->ninputs || given == n) continue;
    if (o->nruns == 1)
      return cli_error(PTERA_INVALID_ARGUMENT, "method '%s' takes %zu inputs; %zu given", o->method,
                       n, given);
    return cli_error(PTERA_INVALID_ARGUMENT, "method '%s' takes %zu inputs; %zu given for execution %zu",
                     o->method, n, given, j);
  }
  return 0;
}

static int run(cli_session *s, const run_opts *o) {
  int rc = cli_session_open(s, o->model, o->data, o->ndata, o->method, o->threads,
                            cli_method_flags(o->no_fuse));
  if (rc == 0) rc = check_input_counts(s, o);
  if (rc) return rc;
  bool dir_made = false; /* --output-dir is created (or found) once, not per execution */
  /* Every execution reuses the method: nothing is reloaded or reset. */
  for (size_t j = 0; j < o->nruns; j++) {
    rc = cli_session_bind_inputs(s, o->ninputs ? o->inputs + o->first[j] : NULL, o->random,
                                 o->seed + j);
    if (rc) {
      if (o->nruns > 1) fprintf(stderr, "ptera run: execution %zu's inputs were not bound\n", j);
      return rc;
    }
    ptera_status st = ptera_method_execute(s->method);
    if (st != PTERA_OK) {
      if (o->nruns > 1)
        return cli_error(st, "execution %zu: %s", j, ptera_method_errmsg(s->method));
      return cli_error(st, "%s", ptera_method_errmsg(s->method));
    }
    rc = report_outputs(s, o, j, &dir_made);
    if (rc) return rc;
    fflush(stdout);
    cli_session_drop_inputs(s);
  }
  return 0;
}

int cli_run(int argc, char **argv) {
  run_opts o;
  int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  cli_session s;
  rc = run(&s, &o);
  cli_session_close(&s);
  return rc;
}
