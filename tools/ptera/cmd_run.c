/* ptera run — run one method of a program, once or several times in a row
 * (--then) on the same method instance, so mutable state carries over. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "core/core.h"

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
    } else if ((strcmp(a, "--show") == 0 || strcmp(a, "--top") == 0) && has_next) {
      uint64_t n;
      if (cli_parse_count("run", a, argv[++i], SIZE_MAX, &n)) return 2;
      if (a[2] == 's') o->show = (size_t)n;
      else o->top = (size_t)n;
    } else if (a[0] == '-' ) {
      cli_usage("run", "unknown or incomplete option '%s'", a);
      fprintf(stderr, "\n%s", help);
      return 2;
    } else if (!o->model) {
      o->model = a;
    } else {
      return cli_usage("run", "unexpected argument '%s'", a);
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

static uint64_t next_random(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Fills n elements of dtype with ones, or seeded values. */
static void fill(int dtype, void *data, size_t n, bool random, uint64_t *state) {
  uint8_t *p = data;
  size_t es = ptera_dtype_size(dtype);
  for (size_t i = 0; i < n; i++) {
    double u = random ? (double)(next_random(state) >> 11) / 9007199254740992.0 * 2.0 - 1.0 : 1.0;
    int64_t k = random ? (int64_t)(next_random(state) % 11) - 5 : 1;
    uint8_t *e = p + i * es;
    switch (dtype) {
      case PTERA_DTYPE_FLOAT: { float f = (float)u; memcpy(e, &f, 4); break; }
      case PTERA_DTYPE_DOUBLE: memcpy(e, &u, 8); break;
      case PTERA_DTYPE_HALF: { uint16_t h = pt_float_to_half((float)u); memcpy(e, &h, 2); break; }
      case PTERA_DTYPE_BFLOAT16: { uint16_t h = pt_float_to_bf16((float)u); memcpy(e, &h, 2); break; }
      case PTERA_DTYPE_BOOL: *e = random ? (uint8_t)(k & 1) : 1; break;
      case PTERA_DTYPE_BYTE: case PTERA_DTYPE_UINT16: case PTERA_DTYPE_UINT32: case PTERA_DTYPE_UINT64:
        if (k < 0) k = -k;
        /* fall through */
      default: {
        uint64_t v = (uint64_t)k;
        memcpy(e, &v, es); /* little-endian: the low bytes hold the value */
        break;
      }
    }
  }
}

typedef struct run_state {
  ptera_bundled *bundled; /* when MODEL is a .bpte: its embedded program runs */
  ptera_program *program;
  ptera_method *method;
  void **buffers; /* input data and output buffers the method points at */
  size_t nbuffers, cap;
  size_t noutput_buffers; /* buffers[0 .. noutput_buffers): kept for every execution */
  bool output_dir_made;   /* --output-dir exists: created (or found) once, not per execution */
} run_state;

static void *keep(run_state *s, size_t size) {
  if (s->nbuffers == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    void **b = realloc(s->buffers, cap * sizeof *b);
    if (!b) return NULL;
    s->buffers = b;
    s->cap = cap;
  }
  size_t rounded = (size + 63) & ~(size_t)63;
  void *p = aligned_alloc(64, rounded ? rounded : 64);
  if (p) s->buffers[s->nbuffers++] = p;
  return p;
}

/* Frees the buffers after the output buffers: the last execution's inputs. */
static void drop_input_buffers(run_state *s) {
  while (s->nbuffers > s->noutput_buffers) free(s->buffers[--s->nbuffers]);
}

static int set_scalar_input(run_state *s, size_t i, const ptera_value *v, const cli_array *a) {
  ptera_status st;
  double x = cli_element(a->dtype, a->data, 0);
  if (a->dim != 0 || a->nbytes == 0)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu is a %s: give a 0-d array", i,
                     ptera_tag_name(v->tag));
  if (v->tag == PTERA_TAG_INT) st = ptera_method_set_input_int(s->method, i, (int64_t)x);
  else if (v->tag == PTERA_TAG_DOUBLE) st = ptera_method_set_input_double(s->method, i, x);
  else if (v->tag == PTERA_TAG_BOOL) st = ptera_method_set_input_bool(s->method, i, x != 0);
  else return cli_error(PTERA_NOT_SUPPORTED, "input %zu is a %s", i, ptera_tag_name(v->tag));
  return st == PTERA_OK ? 0 : cli_error(st, "%s", ptera_method_errmsg(s->method));
}

static int set_tensor_input(run_state *s, size_t i, const ptera_tensor *t, const cli_array *a) {
  char want[128], got[128];
  cli_format_shape(want, sizeof want, t->dtype, t->dim, t->sizes);
  cli_format_shape(got, sizeof got, a->dtype, a->dim, a->sizes);
  if (a->dtype != t->dtype)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu must be %s; the file holds %s", i, want, got);
  /* The method tensor takes the caller's shape first, so the memory order
   * conversion below sees the final strides. */
  ptera_tensor shaped = *t;
  if (ptera_tensor_resize(&shaped, a->dim, a->sizes) != PTERA_OK)
    return cli_error(PTERA_INVALID_ARGUMENT, "input %zu must be %s; the file holds %s", i, want, got);
  void *mem = keep(s, a->nbytes);
  if (!mem) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for input %zu", i);
  cli_to_memory_order(&shaped, a->data, mem);
  ptera_status st = ptera_method_set_input_tensor(s->method, i, (ptera_dtype)a->dtype, a->dim,
                                                  a->sizes, mem, a->nbytes);
  return st == PTERA_OK ? 0 : cli_error(st, "%s", ptera_method_errmsg(s->method));
}

/* Checks every execution's count of --input files before any runs. */
static int check_input_counts(run_state *s, const run_opts *o) {
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

/* Binds execution j's inputs: its --input files, or ones / seeded values. */
static int bind_inputs(run_state *s, const run_opts *o, size_t j) {
  size_t n = ptera_method_input_count(s->method);
  const char *const *files = o->ninputs ? o->inputs + o->first[j] : NULL;
  uint64_t state = (o->seed + j) * 2654435761u + 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < n; i++) {
    const ptera_value *v = ptera_method_input(s->method, i);
    int rc = 0;
    cli_array a;
    if (files) {
      char msg[512];
      int expect = v->tag == PTERA_TAG_TENSOR ? v->u.tensor->dtype : -1;
      if (cli_npy_load(files[i], expect, &a, msg, sizeof msg) != 0)
        return cli_error(PTERA_INVALID_ARGUMENT, "input %zu: %s", i, msg);
      if (v->tag == PTERA_TAG_TENSOR) rc = set_tensor_input(s, i, v->u.tensor, &a);
      else if (v->tag != PTERA_TAG_NONE) rc = set_scalar_input(s, i, v, &a);
      free(a.data);
      if (rc) return rc;
    } else if (v->tag == PTERA_TAG_TENSOR) {
      const ptera_tensor *t = v->u.tensor;
      memset(&a, 0, sizeof a);
      a.dtype = t->dtype;
      a.dim = t->dim;
      memcpy(a.sizes, t->sizes, sizeof a.sizes);
      a.nbytes = ptera_tensor_nbytes(t);
      a.data = malloc(a.nbytes ? a.nbytes : 1);
      if (!a.data) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
      fill(t->dtype, a.data, t->numel, o->random, &state);
      rc = set_tensor_input(s, i, t, &a);
      free(a.data);
      if (rc) return rc;
    }
  }
  return 0;
}

static int bind_outputs(run_state *s) {
  size_t n = ptera_method_output_count(s->method);
  for (size_t i = 0; i < n; i++) {
    const ptera_value *v = ptera_method_output(s->method, i);
    if (v->tag != PTERA_TAG_TENSOR || v->u.tensor->data) continue;
    if (v->u.tensor->flags & (PTERA_TENSOR_PLANNED | PTERA_TENSOR_CONST)) continue;
    void *buf = keep(s, v->u.tensor->capacity);
    if (!buf) return cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for output %zu", i);
    ptera_status st = ptera_method_set_output_buffer(s->method, i, buf, v->u.tensor->capacity);
    if (st != PTERA_OK) return cli_error(st, "%s", ptera_method_errmsg(s->method));
  }
  return 0;
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
static int report_outputs(run_state *s, const run_opts *o, size_t j) {
  if (o->output_dir && !s->output_dir_made) {
    if (mkdir(o->output_dir, 0777) != 0 && errno != EEXIST)
      return cli_error(PTERA_ACCESS_FAILED, "cannot create directory '%s'", o->output_dir);
    s->output_dir_made = true;
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

static bool is_bundle(const char *path) {
  char head[8] = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  return n == sizeof head && memcmp(head + 4, "BP08", 4) == 0;
}

static int run(run_state *s, const run_opts *o) {
  ptera_status st;
  if (is_bundle(o->model)) {
    st = ptera_bundled_load_file(o->model, NULL, &s->bundled);
    if (st != PTERA_OK) return cli_error(st, "%s: %s", o->model, ptera_bundled_errmsg(s->bundled));
    s->program = ptera_bundled_program(s->bundled);
  } else {
    st = ptera_program_load_file(o->model, NULL, &s->program);
    if (st != PTERA_OK) return cli_error(st, "%s: %s", o->model, ptera_program_errmsg(s->program));
  }
  for (size_t i = 0; i < o->ndata; i++) {
    st = ptera_program_attach_data_file(s->program, o->data[i]);
    if (st != PTERA_OK) return cli_error(st, "%s", ptera_program_errmsg(s->program));
  }
  st = ptera_method_create(s->program, o->method, NULL, &s->method);
  if (st != PTERA_OK) return cli_error(st, "%s", ptera_method_errmsg(s->method));
  int rc = check_input_counts(s, o);
  if (rc == 0) rc = bind_outputs(s);
  if (rc) return rc;
  s->noutput_buffers = s->nbuffers;
  /* Every execution reuses the method: nothing is reloaded or reset. */
  for (size_t j = 0; j < o->nruns; j++) {
    rc = bind_inputs(s, o, j);
    if (rc) {
      if (o->nruns > 1) fprintf(stderr, "ptera run: execution %zu's inputs were not bound\n", j);
      return rc;
    }
    st = ptera_method_execute(s->method);
    if (st != PTERA_OK) {
      if (o->nruns > 1)
        return cli_error(st, "execution %zu: %s", j, ptera_method_errmsg(s->method));
      return cli_error(st, "%s", ptera_method_errmsg(s->method));
    }
    rc = report_outputs(s, o, j);
    if (rc) return rc;
    fflush(stdout);
    drop_input_buffers(s);
  }
  return 0;
}

int cli_run(int argc, char **argv) {
  run_opts o;
  int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  run_state s;
  memset(&s, 0, sizeof s);
  rc = run(&s, &o);
  ptera_method_destroy(s.method);
  if (s.bundled) ptera_bundled_destroy(s.bundled);
  else ptera_program_destroy(s.program);
  for (size_t i = 0; i < s.nbuffers; i++) free(s.buffers[i]);
  free(s.buffers);
  return rc;
}
