/* ptera compile — a .ptg graph into a .pte program (and optional .ptd). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compile.h"

static const char help[] =
    "usage: ptera compile IN.ptg OUT.pte [options]\n"
    "\n"
    "Compiles a graph written by the Python front end (docs/PTG.md) into an\n"
    "ExecuTorch program: batch norms folded into the convolution before them,\n"
    "linear layers for the target op set, constant\n"
    "propagation, constant deduplication and dead-code elimination per method,\n"
    "a check that every operator left is in the target op set, then memory\n"
    "planning and emission.\n"
    "The outputs are written under temporary names, loaded back with every\n"
    "method created, and only then renamed into place.\n"
    "\n"
    "options:\n"
    "  --ops SET                   the operators the program may call (kernels/\n"
    "                              opsets.def); compiling fails naming any other\n"
    "                              operator, its node and the set:\n"
    "                                executorch-portable (default): what ExecuTorch's\n"
    "                                  portable, prim and quantized libraries\n"
    "                                  register; runs on a stock executor_runner.\n"
    "                                  Linear layers stay mm/addmm: a weight with\n"
    "                                  fixed bytes is stored transposed, one\n"
    "                                  replaceable by name (fqn .ptd) is read\n"
    "                                  through permute_copy\n"
    "                                executorch-optimized: adds ExecuTorch's\n"
    "                                  optimized-library operators (linear)\n"
    "                                ptera: every kernel ptera registers\n"
    "  --backend xnnpack           lower what XNNPACK can run to the XnnpackBackend\n"
    "                              delegate: fp32 partitions, each an XNNGraph blob\n"
    "                              called by a DelegateCall, its weights named data\n"
    "                              keyed by SHA-256 (in the .ptd with\n"
    "                              --external-weights); the rest stays on the CPU\n"
    "                              under --ops\n"
    "  --backend cortex_m          static int8 program of ExecuTorch's cortex_m::\n"
    "                              operators (CMSIS-NN arithmetic; compiler/to_cortex_m.h):\n"
    "                              activations per tensor from --calibration ranges,\n"
    "                              per-channel weights, channels-last tensors; every\n"
    "                              call must lower (no fp32 fallback)\n"
    "  --quantize int8-static      with --backend cortex_m (implied by it), or with\n"
    "                              --backend xnnpack: convolutions, FullyConnected,\n"
    "                              add/sub/mul, cat and pooling in qint8 per tensor\n"
    "                              from --calibration ranges, per-channel weights\n"
    "                              (qs8; compiler/to_xnnpack.h); the rest of a\n"
    "                              partition fp32\n"
    "  --calibration DIR           the samples --backend cortex_m and int8-static\n"
    "                              calibrate on: one\n"
    "                              subdirectory per sample (name order), each with\n"
    "                              input0.npy, input1.npy, ... (float32, the\n"
    "                              method's inputs in order)\n"
    "  --quantize 8da8w            with --backend xnnpack: every FullyConnected\n"
    "                              (linear, mm, addmm) gets int8 per-channel\n"
    "                              symmetric weights and an input quantized per\n"
    "                              row at run time (qd8 x qc8w; compiler/to_xnnpack.h)\n"
    "  --quantize 8da4w            the same with 4-bit weights per group of\n"
    "                              --group-size inputs (qd8 x qb4w); a layer the\n"
    "                              group size does not divide gets 8da8w (warned)\n"
    "  --quantize int8-weight      weight-only, any backend: linear weights stored\n"
    "                              int8 per output channel, dequantized before the\n"
    "                              layer on the CPU (compiler/passes.h)\n"
    "  --quantize int4-weight      the same, 4-bit per group of --group-size inputs\n"
    "                              (one value per byte); a layer the group size\n"
    "                              does not divide fails the compile\n"
    "  --group-size N              inputs per scale for 8da4w / int4-weight\n"
    "                              (default 32; 8da4w: a multiple of 32)\n"
    "  --quantize-scope NAME[,NAME...]\n"
    "                              quantize only the calls made from these modules\n"
    "                              (fully qualified names as named_modules() gives\n"
    "                              them, e.g. layers.0.attn, covering the modules\n"
    "                              inside; type:CLASS names every module of that\n"
    "                              class, e.g. type:Linear); the rest stays fp32.\n"
    "                              int8-static runs add/sub/mul/cat, pooling and\n"
    "                              reshapes in int8 only where they are in scope and\n"
    "                              read no value made out of scope. Repeatable\n"
    "  --quantize-skip NAME[,NAME...]\n"
    "                              never quantize the calls made from these modules\n"
    "                              (same names; wins over --quantize-scope). Both\n"
    "                              need --quantize; a name that matches no call is\n"
    "                              an error\n"
    "  --external-weights OUT.ptd  write constants (weights) to OUT.ptd instead\n"
    "                              of the .pte; run with 'ptera run --data OUT.ptd'.\n"
    "                              With fqn keys, constants without a name (e.g.\n"
    "                              folded ones) stay inside the .pte, and named\n"
    "                              weights are neither folded nor merged, so the\n"
    "                              .ptd of a fine-tuned export of the same model\n"
    "                              can replace them (a weights-only update)\n"
    "  --weight-keys fqn|hash      key of each external weight: its fully qualified\n"
    "                              name (default) or the SHA-256 hex of its bytes\n"
    "                              (needs --external-weights)\n"
    "  --no-fold-bn                keep inference batch norms after convolutions\n"
    "                              instead of folding them into the convolution's\n"
    "                              weight and bias\n"
    "  --no-fuse                   leave linear layers as captured (mm/addmm of a\n"
    "                              run-time transpose): no fusion into linear, no\n"
    "                              stored transposed weights\n"
    "  --no-constprop              skip constant propagation\n"
    "  --no-dedup                  skip constant deduplication\n"
    "  --no-dce                    skip dead-code elimination\n"
    "  --no-views                  keep reshaping copies (view_copy, squeeze_copy,\n"
    "                              unsqueeze_copy, alias_copy) instead of turning\n"
    "                              those nothing can tell apart from a view into\n"
    "                              et_view calls that share their input's memory\n"
    "  --quiet                     print nothing on success but warnings\n"
    "  --help                      this text\n"
    "\n"
    "Prints per method: calls before -> after the passes (fused into linear,\n"
    "weights stored transposed, folded, merged constants / bytes, removed,\n"
    "views elided, batch norms folded), planned arena bytes against the bytes without memory reuse;\n"
    "with --backend, the partitions, calls delegated and calls left on the CPU;\n"
    "the op set; and the file sizes. Warnings (a layer a quantizer left alone\n"
    "or quantized otherwise than asked, naming it) go to stderr, one per line\n"
    "after \"ptera compile: warning: \".\n"
    "\n"
    "Exit status: 0 on success; 1 with the error's name and message on stderr;\n"
    "2 for bad usage.\n";

#define SCOPE_MAX 64 /* names per --quantize-scope / --quantize-skip list */

typedef struct compile_opts {
  const char *in, *out, *ptd;
  const char *scope[2][SCOPE_MAX]; /* --quantize-scope, --quantize-skip */
  const char *keys, *ops, *backend, *quantize, *group_size, *calibration;
  bool quiet;
  pc_compile_options c;
} compile_opts;

/* Appends the comma-separated names of list (split in place) to the
 * scope or skip list of flag. */
static int add_names(compile_opts *o, const char *flag, char *list) {
  bool skip = strcmp(flag, "--quantize-skip") == 0;
  uint32_t *n = skip ? &o->c.scope.nskip : &o->c.scope.nonly;
  for (char *p = list;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p)
      return cli_usage("compile", "%s: an empty module name (names are separated by single commas)",
                       flag);
    if (*n == SCOPE_MAX) return cli_usage("compile", "%s: more than %d names", flag, SCOPE_MAX);
    o->scope[skip][(*n)++] = p;
    if (!comma) break;
    p = comma + 1;
  }
  o->c.scope.only = o->scope[0];
  o->c.scope.skip = o->scope[1];
  return -1;
}

static int parse_args(int argc, char **argv, compile_opts *o) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has_next = i + 1 < argc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(a, "--external-weights") == 0 && has_next) {
      o->ptd = argv[++i];
    } else if (strcmp(a, "--weight-keys") == 0 && has_next) {
      o->keys = argv[++i];
    } else if (strcmp(a, "--ops") == 0 && has_next) {
      o->ops = argv[++i];
    } else if (strcmp(a, "--backend") == 0 && has_next) {
      o->backend = argv[++i];
    } else if (strcmp(a, "--quantize") == 0 && has_next) {
      o->quantize = argv[++i];
    } else if (strcmp(a, "--calibration") == 0 && has_next) {
      o->calibration = argv[++i];
    } else if ((strcmp(a, "--quantize-scope") == 0 || strcmp(a, "--quantize-skip") == 0) &&
               has_next) {
      int rc = add_names(o, a, argv[++i]);
      if (rc >= 0) return rc;
    } else if (strcmp(a, "--group-size") == 0 && has_next) {
      o->group_size = argv[++i];
    } else if (strcmp(a, "--no-fold-bn") == 0) {
      o->c.no_fold_bn = true;
    } else if (strcmp(a, "--no-fuse") == 0) {
      o->c.no_fuse = true;
    } else if (strcmp(a, "--no-constprop") == 0) {
      o->c.no_constprop = true;
    } else if (strcmp(a, "--no-dedup") == 0) {
      o->c.no_dedup = true;
    } else if (strcmp(a, "--no-dce") == 0) {
      o->c.no_dce = true;
    } else if (strcmp(a, "--no-views") == 0) {
      o->c.no_views = true;
    } else if (strcmp(a, "--quiet") == 0) {
      o->quiet = true;
    } else if (a[0] == '-' && a[1]) {
      cli_usage("compile", "unknown or incomplete option '%s'", a);
      fprintf(stderr, "\n%s", help);
      return 2;
    } else if (!o->in) {
      o->in = a;
    } else if (!o->out) {
      o->out = a;
    } else {
      return cli_usage("compile", "unexpected argument '%s'", a);
    }
  }
  if (!o->in || !o->out) {
    fprintf(stderr, "%s", help);
    return 2;
  }
  if (o->keys && strcmp(o->keys, "fqn") == 0) o->c.weight_keys = PC_WEIGHT_KEYS_FQN;
  else if (o->keys && strcmp(o->keys, "hash") == 0) o->c.weight_keys = PC_WEIGHT_KEYS_HASH;
  else if (o->keys)
    return cli_error(PTERA_INVALID_ARGUMENT, "--weight-keys must be 'fqn' or 'hash', not '%s'",
                     o->keys);
  if (o->ops && !pc_opset_parse(o->ops, &o->c.opset))
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--ops must be 'executorch-portable', 'executorch-optimized' or 'ptera', "
                     "not '%s'", o->ops);
  if (o->backend && strcmp(o->backend, "xnnpack") == 0) o->c.backend = PC_BACKEND_XNNPACK;
  else if (o->backend && strcmp(o->backend, "cortex_m") == 0) o->c.backend = PC_BACKEND_CORTEX_M;
  else if (o->backend)
    return cli_error(PTERA_INVALID_ARGUMENT, "--backend must be 'xnnpack' or 'cortex_m', not '%s'",
                     o->backend);
  if (o->c.backend == PC_BACKEND_CORTEX_M && !o->calibration)
    return cli_error(PTERA_INVALID_ARGUMENT, "--backend cortex_m needs --calibration DIR");
  bool int8_static = o->quantize && strcmp(o->quantize, "int8-static") == 0;
  if (int8_static && o->c.backend == PC_BACKEND_NONE)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--quantize int8-static needs --backend xnnpack or cortex_m");
  if (int8_static && o->c.backend == PC_BACKEND_XNNPACK && !o->calibration)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--quantize int8-static needs --calibration DIR (the samples its ranges come from)");
  if (o->calibration && o->c.backend != PC_BACKEND_CORTEX_M && !int8_static)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--calibration needs --backend cortex_m or --quantize int8-static");
  if (int8_static && o->c.backend == PC_BACKEND_CORTEX_M)
    o->quantize = NULL; /* the Cortex-M lowering always quantizes so */
  static const struct { const char *name; pc_xnn_quant q; } schemes[] = {
      {"8da8w", PC_XNN_QUANT_8DA8W}, {"8da4w", PC_XNN_QUANT_8DA4W},
      {"int8-weight", PC_XNN_QUANT_INT8_WEIGHT}, {"int4-weight", PC_XNN_QUANT_INT4_WEIGHT},
      {"int8-static", PC_XNN_QUANT_INT8_STATIC}};
  for (size_t i = 0; o->quantize && i < sizeof schemes / sizeof *schemes; i++)
    if (strcmp(o->quantize, schemes[i].name) == 0) o->c.quantize = schemes[i].q;
  if (o->quantize && o->c.quantize == PC_XNN_QUANT_NONE)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--quantize must be '8da8w', '8da4w', 'int8-weight', 'int4-weight' or "
                     "'int8-static', not '%s'",
                     o->quantize);
  bool dynamic = o->c.quantize == PC_XNN_QUANT_8DA8W || o->c.quantize == PC_XNN_QUANT_8DA4W;
  if (dynamic && o->c.backend != PC_BACKEND_XNNPACK)
    return cli_error(PTERA_INVALID_ARGUMENT, "--quantize needs --backend xnnpack for %s", o->quantize);
  if (o->group_size) {
    char *end = NULL;
    unsigned long v = strtoul(o->group_size, &end, 10);
    if (o->c.quantize != PC_XNN_QUANT_8DA4W && o->c.quantize != PC_XNN_QUANT_INT4_WEIGHT)
      return cli_error(PTERA_INVALID_ARGUMENT, "--group-size needs --quantize 8da4w or int4-weight");
    if (!end || *end || o->group_size[0] == '-' || v == 0 || v > 1u << 20)
      return cli_error(PTERA_INVALID_ARGUMENT, "--group-size must be a positive integer, not '%s'",
                       cli_escz(o->group_size));
    o->c.group_size = (uint32_t)v;
  }
  if (o->keys && !o->ptd)
    return cli_error(PTERA_INVALID_ARGUMENT, "--weight-keys needs --external-weights OUT.ptd");
  o->c.external_weights = o->ptd != NULL;
  return -1;
}

static uint8_t *read_all(const char *path, size_t *size, int *err) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  *err = 0;
  if (!f) {
    *err = errno;
    return NULL;
  }
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 1 << 16;
      uint8_t *nb = realloc(buf, ncap);
      if (!nb) {
        *err = ENOMEM;
        break;
      }
      buf = nb, cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) *err = EIO;
      break;
    }
  }
  fclose(f);
  if (*err) {
    free(buf);
    return NULL;
  }
  *size = n;
  return buf ? buf : malloc(1);
}

/* Writes data to a fresh temporary file next to path; its name goes into
 * tmp. Returns 0, or 1 after reporting. */
static int write_temp(const char *path, const void *data, size_t size, char *tmp, size_t cap) {
  if ((size_t)snprintf(tmp, cap, "%s.tmpXXXXXX", path) >= cap)
    return cli_error(PTERA_INVALID_ARGUMENT, "output path too long: '%s'", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int errnum = errno;
    tmp[0] = 0;
    return cli_error(PTERA_ACCESS_FAILED, "cannot create '%s': %s", path, strerror(errnum));
  }
  mode_t mask = umask(0); /* mkstemp makes 0600; give the usual 0666 & ~umask */
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, size, f) == size;
  int errnum = errno;
  if (f) ok = fclose(f) == 0 && ok;
  else close(fd);
  if (!ok) return cli_error(PTERA_ACCESS_FAILED, "cannot write '%s': %s", path, strerror(errnum));
  return 0;
}

/* Loads the written files back and creates every method. */
static int verify(const char *pte, const char *ptd) {
  ptera_program *p = NULL;
  ptera_status st = ptera_program_load_file(pte, NULL, &p);
  if (st != PTERA_OK) {
    int rc = cli_error(st, "the compiled program does not load: %s", ptera_program_errmsg(p));
    ptera_program_destroy(p);
    return rc;
  }
  int rc = 0;
  if (ptd && (st = ptera_program_attach_data_file(p, ptd)) != PTERA_OK)
    rc = cli_error(st, "the weights file does not attach: %s", ptera_program_errmsg(p));
  for (size_t i = 0; rc == 0 && i < ptera_program_method_count(p); i++) {
    ptera_method *m = NULL;
    const char *name = ptera_program_method_name(p, i);
    st = ptera_method_create(p, name, NULL, &m);
    if (st != PTERA_OK)
      rc = cli_error(st, "compiled method '%s' cannot be created: %s", name,
                     m ? ptera_method_errmsg(m) : ptera_program_errmsg(p));
    ptera_method_destroy(m);
  }
  ptera_program_destroy(p);
  return rc;
}

static void report(const compile_opts *o, const pc_compile_result *r) {
  for (uint32_t i = 0; i < r->nmethods; i++) {
    const pc_method_stats *s = &r->methods[i];
    printf("method %s: %u -> %u nodes (fused %u, transposed %u, folded %u, merged %u constants / "
           "%llu B, removed %u, views %u, bn-folded %u); planned %llu B (no reuse %llu B, ",
           cli_escz(s->name), s->nodes_before, s->nodes_after, s->passes.fused_nodes,
           s->passes.transposed_constants, s->passes.folded_nodes,
           s->passes.merged_constants, (unsigned long long)s->passes.merged_bytes,
           s->passes.removed_nodes, s->passes.elided_views, s->passes.bn_folded, (unsigned long long)s->plan.peak_bytes,
           (unsigned long long)s->plan.no_reuse_bytes);
    if (s->plan.peak_bytes) printf("%.2fx)\n", (double)s->plan.no_reuse_bytes / (double)s->plan.peak_bytes);
    else printf("1.00x)\n");
    if (o->c.backend == PC_BACKEND_CORTEX_M)
      printf("method %s: cortex_m %u calls lowered into %u (%u layout conversions)\n",
             cli_escz(s->name), s->cm.lowered, s->cm.calls, s->cm.layouts);
    if (o->c.backend == PC_BACKEND_XNNPACK)
      printf("method %s: xnnpack %u partitions, %u nodes delegated, %u on the CPU, %u quantized\n",
             cli_escz(s->name), s->xnn.partitions, s->xnn.delegated_nodes, s->xnn.cpu_nodes,
             s->xnn.quantized);
    if (o->c.quantize == PC_XNN_QUANT_8DA4W)
      printf("method %s: 8da4w %u FullyConnected with 4-bit weights, %u with 8-bit\n", cli_escz(s->name),
             s->xnn.quantized_4bit, s->xnn.quantized - s->xnn.quantized_4bit);
    if (o->c.quantize == PC_XNN_QUANT_INT8_WEIGHT || o->c.quantize == PC_XNN_QUANT_INT4_WEIGHT)
      printf("method %s: %s %u linear weights quantized\n", cli_escz(s->name), o->quantize,
             s->passes.quantized_weights);
  }
  printf("op set %s\n", pc_opset_name(o->c.opset));
  printf("wrote %s (%zu B)\n", cli_escz(o->out), r->pte_size);
  if (o->ptd) printf("wrote %s (%zu B, %u weights)\n", cli_escz(o->ptd), r->ptd_size, r->nexternal);
}

/* Writes, verifies and renames the outputs. */
static int write_outputs(const compile_opts *o, const pc_compile_result *r) {
  char tpte[4096] = "", tptd[4096] = "";
  int rc = write_temp(o->out, r->pte, r->pte_size, tpte, sizeof tpte);
  if (rc == 0 && o->ptd) rc = write_temp(o->ptd, r->ptd, r->ptd_size, tptd, sizeof tptd);
  if (rc == 0) rc = verify(tpte, o->ptd ? tptd : NULL);
  if (rc == 0 && o->ptd && rename(tptd, o->ptd) != 0)
    rc = cli_error(PTERA_ACCESS_FAILED, "cannot rename to '%s': %s", o->ptd, strerror(errno));
  if (rc == 0 && rename(tpte, o->out) != 0)
    rc = cli_error(PTERA_ACCESS_FAILED, "cannot rename to '%s': %s", o->out, strerror(errno));
  if (rc != 0) {
    if (tpte[0]) remove(tpte);
    if (tptd[0]) remove(tptd);
  }
  return rc;
}

int cli_compile(int argc, char **argv) {
  compile_opts o;
  int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  size_t size = 0;
  int errnum;
  cli_progress("ptera compile: reading %s", o.in);
  uint8_t *bytes = read_all(o.in, &size, &errnum);
  if (!bytes) return cli_error(PTERA_ACCESS_FAILED, "cannot read '%s': %s", o.in, strerror(errnum));
  pc_module mod;
  pt_err e;
  pt_err_clear(&e);
  ptera_status st = pc_ptg_parse(bytes, size, NULL, &mod, &e);
  free(bytes);
  if (st != PTERA_OK) return cli_error(st, "%s: %s", o.in, e.msg);
  cli_calibration calib;
  memset(&calib, 0, sizeof calib);
  if (o.calibration && cli_calibration_load(o.calibration, &calib) != 0) {
    pc_module_free(&mod);
    return 1;
  }
  pc_calibration cal = {calib.nsamples, calib.ninputs, calib.data, calib.numel};
  o.c.calibration = o.calibration ? &cal : NULL;
  pc_compile_result r;
  cli_progress("ptera compile: compiling %s (%zu bytes)", o.in, size);
  st = pc_compile(&mod, &o.c, &r, &e);
  cli_calibration_free(&calib);
  if (st == PTERA_OK) cli_progress("ptera compile: writing and verifying %s", o.out);
  /* warnings one line each, escaped (they name tensors as the .ptg does) */
  for (const char *w = st == PTERA_OK ? r.warnings : NULL; w && *w;) {
    const char *nl = strchr(w, '\n');
    size_t len = nl ? (size_t)(nl - w) : strlen(w);
    char line[640];
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, w, len);
    line[len] = 0;
    fprintf(stderr, "ptera compile: warning: %s\n", cli_escz(line));
    w += nl ? len + 1 : len;
  }
  if (st != PTERA_OK) rc = cli_error(st, "%s: %s", o.in, e.msg);
  else rc = write_outputs(&o, &r);
  cli_progress("%s", "");
  if (rc == 0 && !o.quiet) report(&o, &r);
  pc_compile_result_free(&r);
  pc_module_free(&mod);
  return rc;
}
