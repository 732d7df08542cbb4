/* ptera inspect — describe a program, bundled program or data file without
 * running it. Every name from the file is printed escaped (cli_escape.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format/ptd.h"
#include "format/pte.h"
#include "format/xnngraph.h"
#include "runtime/runtime.h"

static const char help[] =
    "usage: ptera inspect FILE [--json]\n"
    "\n"
    "FILE is a program (.pte), a bundled program (.bpte) or a data file (.ptd);\n"
    "the kind is read from the file's identifier, not its name.\n"
    "For a program: the file header, segments, and for each method its inputs\n"
    "and outputs, operators, delegates, planned buffer sizes and where each\n"
    "constant tensor lives, and the named data (key and size of each blob).\n"
    "Text output ends with the memory each method takes once loaded (metadata\n"
    "arena, planned buffers, kernel temp arena, packed weights).\n"
    "For a bundled program: its test suites (method, case count), then the\n"
    "embedded program as above. For a data file: each entry's key, dtype,\n"
    "shape, size, offset and alignment.\n"
    "Names are printed with control characters and bytes that are not UTF-8\n"
    "as \\xNN (a backslash as \\\\); --json strings hold the same text.\n"
    "\n"
    "options:\n"
    "  --json   machine-readable output (schema: docs/inspect.schema.json)\n"
    "  --help   this text\n";

static void json_str(const char *s, size_t n) { cli_put_json(stdout, s, n); }

static const char *kind_name(uint8_t type) {
  static const char *const names[] = {"Null", "Int", "Bool", "Double", "Tensor", "String",
                                      "IntList", "DoubleList", "BoolList", "TensorList",
                                      "OptionalTensorList"};
  return type >= PF_VAL_NULL && type <= PF_VAL_OPT_TENSOR_LIST ? names[type - PF_VAL_NULL] : "Unknown";
}

static const char *dynamism_name(uint8_t d) {
  return d == 0 ? "static" : d == 1 ? "dynamic_bound" : "dynamic_unbound";
}

static const char *where(const pf_tensor *t) {
  if (t->external) return t->has_allocation ? "external .ptd, copied into planned memory" : "external .ptd";
  if (t->data_buffer_idx && t->has_allocation) return "mutable segment, copied into planned memory";
  if (t->data_buffer_idx) return "constant";
  if (t->has_allocation) return "planned";
  return "unplanned";
}

static void shape(char *buf, size_t cap, const pf_tensor *t) {
  cli_format_shape(buf, cap, t->scalar_type, t->dim, t->sizes);
}

static void text_io(const pf_plan *plan, const char *kind, const int32_t *idx, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    const pf_value *v = &plan->values[idx[i]];
    printf("    %s %u: value %d ", kind, i, idx[i]);
    if (v->type == PF_VAL_TENSOR) {
      char s[160];
      shape(s, sizeof s, v->u.tensor);
      printf("Tensor %s dim_order [", s);
      for (uint8_t d = 0; d < v->u.tensor->dim; d++) printf("%s%u", d ? "," : "", v->u.tensor->dim_order[d]);
      printf("] %s, %s, %llu bytes\n", dynamism_name(v->u.tensor->dynamism),
             where(v->u.tensor), (unsigned long long)v->u.tensor->nbytes);
    } else if (v->type == PF_VAL_INT) {
      printf("Int = %lld\n", (long long)v->u.i);
    } else if (v->type == PF_VAL_DOUBLE) {
      printf("Double = %.9g\n", v->u.d);
    } else if (v->type == PF_VAL_BOOL) {
      printf("Bool = %s\n", v->u.b ? "true" : "false");
    } else if (v->type == PF_VAL_STRING) {
      printf("String = \"%s\"\n", cli_esc(v->u.str.ptr, v->u.str.len));
    } else {
      printf("%s\n", v->type == PF_VAL_NULL ? "None" : kind_name(v->type));
    }
  }
}

/* What an XnnpackBackend delegate's blob holds: its partition's size. */
static void text_xnn(const pf_pte *p, const pf_delegate *d) {
  pf_bytes blob;
  pt_err e;
  pt_arena arena;
  pf_xnn_graph g;
  if (!ptera_find_backend(d->id.ptr, d->id.len) || d->id.len != 14 ||
      memcmp(d->id.ptr, "XnnpackBackend", 14) != 0 ||
      pf_pte_delegate_blob(p, d, &blob, &e) != PTERA_OK)
    return;
  pt_arena_init(&arena, NULL);
  if (pf_xnn_parse(blob.ptr, blob.len, &arena, &g, &e) == PTERA_OK) {
    uint32_t in = 0, out = 0;
    for (uint32_t i = 0; i < g.nvalues; i++) {
      in += (g.values[i].flags & PF_XNN_VALUE_INPUT) != 0;
      out += (g.values[i].flags & PF_XNN_VALUE_OUTPUT) != 0;
    }
    printf("      XNNGraph %s: %u nodes, %u values, %u inputs, %u outputs\n", g.ident, g.nnodes,
           g.nvalues, in, out);
  } else {
    printf("      XNNGraph: does not parse (%s)\n", ptera_status_name(e.status));
  }
  pt_arena_release(&arena);
}

static void text_plan(const pf_pte *p, const pf_plan *plan) {
  uint32_t ninstr = 0;
  for (uint32_t c = 0; c < plan->nchains; c++) ninstr += plan->chains[c].ninstrs;
  printf("method %s: %u values, %u instructions\n", cli_esc(plan->name.ptr, plan->name.len),
         plan->nvalues, ninstr);
  text_io(plan, "input", plan->inputs, plan->ninputs);
  text_io(plan, "output", plan->outputs, plan->noutputs);
  for (uint32_t j = 1; j < plan->nbuffer_sizes; j++)
    printf("    planned buffer %u: %lld bytes\n", j - 1, (long long)plan->buffer_sizes[j]);
  for (uint32_t k = 0; k < plan->nops; k++)
    printf("    operator %u: %s%s%s\n", k, cli_esc(plan->ops[k].name.ptr, plan->ops[k].name.len),
           plan->ops[k].overload.len ? "." : "",
           cli_esc(plan->ops[k].overload.ptr, plan->ops[k].overload.len));
  for (uint32_t k = 0; k < plan->ndelegates; k++) {
    printf("    delegate %u: %s (%s %u, %u compile specs)%s\n", k,
           cli_esc(plan->delegates[k].id.ptr, plan->delegates[k].id.len),
           plan->delegates[k].location ? "segment" : "inline", plan->delegates[k].index,
           plan->delegates[k].nspecs,
           ptera_find_backend(plan->delegates[k].id.ptr, plan->delegates[k].id.len) ? "" : " [not available]");
    text_xnn(p, &plan->delegates[k]);
  }
  unsigned counts[5] = {0};
  for (uint32_t i = 0; i < plan->nvalues; i++) {
    const pf_value *v = &plan->values[i];
    if (v->type != PF_VAL_TENSOR) continue;
    const pf_tensor *t = v->u.tensor;
    if (t->external) counts[0]++;
    else if (t->data_buffer_idx && t->has_allocation) counts[1]++;
    else if (t->data_buffer_idx) counts[2]++;
    else if (t->has_allocation) counts[3]++;
    else counts[4]++;
    if (t->data_buffer_idx || t->external) {
      char s[160];
      shape(s, sizeof s, t);
      printf("    value %u: %s %s%s%s (buffer %u)\n", i, s, where(t), t->fqn.ptr ? " key " : "",
             cli_esc(t->fqn.ptr, t->fqn.len), t->data_buffer_idx);
    }
  }
  printf("    tensors: %u external, %u mutable, %u constant, %u planned, %u unplanned\n", counts[0],
         counts[1], counts[2], counts[3], counts[4]);
}

static void json_plan(const pf_plan *plan) {
  printf("{\"name\":");
  json_str(plan->name.ptr, plan->name.len);
  printf(",\"values\":%u,\"inputs\":[", plan->nvalues);
  for (int pass = 0; pass < 2; pass++) {
    const int32_t *idx = pass ? plan->outputs : plan->inputs;
    uint32_t n = pass ? plan->noutputs : plan->ninputs;
    if (pass) printf("],\"outputs\":[");
    for (uint32_t i = 0; i < n; i++) {
      const pf_value *v = &plan->values[idx[i]];
      printf("%s{\"value\":%d,\"kind\":\"%s\"", i ? "," : "", idx[i], kind_name(v->type));
      if (v->type == PF_VAL_TENSOR) {
        const pf_tensor *t = v->u.tensor;
        printf(",\"dtype\":\"%s\",\"sizes\":[", ptera_dtype_name(t->scalar_type));
        for (uint8_t d = 0; d < t->dim; d++) printf("%s%d", d ? "," : "", t->sizes[d]);
        printf("],\"dim_order\":[");
        for (uint8_t d = 0; d < t->dim; d++) printf("%s%u", d ? "," : "", t->dim_order[d]);
        printf("],\"dynamism\":\"%s\",\"where\":\"%s\",\"nbytes\":%llu", dynamism_name(t->dynamism), where(t),
               (unsigned long long)t->nbytes);
      }
      printf("}");
    }
  }
  printf("],\"planned_buffers\":[");
  for (uint32_t j = 1; j < plan->nbuffer_sizes; j++)
    printf("%s%lld", j > 1 ? "," : "", (long long)plan->buffer_sizes[j]);
  printf("],\"operators\":[");
  for (uint32_t k = 0; k < plan->nops; k++) {
    printf("%s{\"name\":", k ? "," : "");
    json_str(plan->ops[k].name.ptr, plan->ops[k].name.len);
    printf(",\"overload\":");
    json_str(plan->ops[k].overload.ptr ? plan->ops[k].overload.ptr : "", plan->ops[k].overload.len);
    printf("}");
  }
  printf("],\"delegates\":[");
  for (uint32_t k = 0; k < plan->ndelegates; k++) {
    const pf_delegate *d = &plan->delegates[k];
    printf("%s{\"id\":", k ? "," : "");
    json_str(d->id.ptr, d->id.len);
    printf(",\"location\":\"%s\",\"index\":%u,\"compile_specs\":%u,\"available\":%s}",
           d->location ? "segment" : "inline", d->index, d->nspecs,
           ptera_find_backend(d->id.ptr, d->id.len) ? "true" : "false");
  }
  printf("],\"constants\":[");
  bool first = true;
  for (uint32_t i = 0; i < plan->nvalues; i++) {
    const pf_value *v = &plan->values[i];
    if (v->type != PF_VAL_TENSOR || !(v->u.tensor->data_buffer_idx || v->u.tensor->external)) continue;
    printf("%s{\"value\":%u,\"where\":\"%s\",\"buffer\":%u,\"nbytes\":%llu", first ? "" : ",", i,
           where(v->u.tensor), v->u.tensor->data_buffer_idx, (unsigned long long)v->u.tensor->nbytes);
    if (v->u.tensor->fqn.ptr) {
      printf(",\"key\":");
      json_str(v->u.tensor->fqn.ptr, v->u.tensor->fqn.len);
    }
    printf("}");
    first = false;
  }
  printf("]}");
}

/* Bytes of named data entry i: its whole segment; false when the segment
 * index is out of range. */
static bool named_size(const pf_pte *p, uint32_t i, unsigned long long *size) {
  uint32_t s = p->named[i].segment_index;
  if (s >= p->nsegments) return false;
  *size = (unsigned long long)p->segments[s].size;
  return true;
}

/* The program as text, or as one JSON object without a newline. */
static void print_program(const pf_pte *p, bool json) {
  if (json) {
    printf("{\"kind\":\"program\",\"file_size\":%llu,\"extended_header\":", (unsigned long long)p->file_size);
    if (p->has_header)
      printf("{\"length\":%u,\"program_size\":%llu,\"segment_base_offset\":%llu,\"segment_data_size\":%llu}",
             p->header_length, (unsigned long long)p->program_size,
             (unsigned long long)p->segment_base, (unsigned long long)p->segment_data_size);
    else
      printf("null");
    printf(",\"segments\":[");
    for (uint32_t i = 0; i < p->nsegments; i++)
      printf("%s{\"offset\":%llu,\"size\":%llu}", i ? "," : "", (unsigned long long)p->segments[i].offset,
             (unsigned long long)p->segments[i].size);
    printf("],\"named_data\":[");
    for (uint32_t i = 0; i < p->nnamed; i++) {
      unsigned long long size;
      printf("%s{\"key\":", i ? "," : "");
      json_str(p->named[i].key.ptr, p->named[i].key.len);
      printf(",\"segment\":%u,\"nbytes\":", p->named[i].segment_index);
      if (named_size(p, i, &size)) printf("%llu}", size);
      else printf("null}");
    }
    printf("],\"methods\":[");
    for (uint32_t i = 0; i < p->nplans; i++) {
      if (i) printf(",");
      json_plan(&p->plans[i]);
    }
    printf("]}");
    return;
  }
  printf("file: %llu bytes\n", (unsigned long long)p->file_size);
  if (p->has_header)
    printf("extended header: eh00, %u bytes; program_size %llu, segment_base_offset %llu, "
           "segment_data_size %llu\n",
           p->header_length, (unsigned long long)p->program_size,
           (unsigned long long)p->segment_base, (unsigned long long)p->segment_data_size);
  else
    printf("extended header: none\n");
  for (uint32_t i = 0; i < p->nsegments; i++)
    printf("segment %u: offset %llu, %llu bytes\n", i, (unsigned long long)p->segments[i].offset,
           (unsigned long long)p->segments[i].size);
  if (p->constant_segment.present)
    printf("constant segment: segment %u, %u entries\n", p->constant_segment.segment_index,
           p->constant_segment.noffsets);
  if (p->nconstant_buffer) printf("legacy constant_buffer: %u entries\n", p->nconstant_buffer);
  if (p->mutable_data.present)
    printf("mutable data: segment %u, %u entries\n", p->mutable_data.segment_index, p->mutable_data.noffsets);
  for (uint32_t i = 0; i < p->nnamed; i++) {
    unsigned long long size;
    printf("named data '%s': segment %u, ", cli_esc(p->named[i].key.ptr, p->named[i].key.len),
           p->named[i].segment_index);
    if (named_size(p, i, &size)) printf("%llu bytes\n", size);
    else printf("no such segment\n");
  }
  printf("methods: %u\n", p->nplans);
  for (uint32_t i = 0; i < p->nplans; i++) text_plan(p, &p->plans[i]);
}

/* The memory each method takes once loaded (ptera_method_get_memory). */
static void print_memory(ptera_program *prog) {
  for (size_t i = 0; i < ptera_program_method_count(prog); i++) {
    const char *name = ptera_program_method_name(prog, i);
    ptera_method *m = NULL;
    ptera_method_memory mem;
    ptera_status st = ptera_method_create(prog, name, NULL, &m);
    if (st == PTERA_OK) st = ptera_method_get_memory(m, &mem);
    if (st == PTERA_OK)
      printf("memory %s: arena %zu, planned %zu, temp %zu, packed %zu bytes\n", cli_escz(name),
             mem.arena_bytes, mem.planned_bytes, mem.temp_bytes, mem.packed_bytes);
    else
      printf("memory %s: does not load here (%s)\n", cli_escz(name), ptera_status_name(st));
    ptera_method_destroy(m);
  }
}

/* A bundled program: its suites, then the embedded program. */
static void print_bundle(ptera_bundled *b, const char *path, bool json) {
  size_t n = ptera_bundled_suite_count(b);
  const pf_pte *p = &ptera_bundled_program(b)->pte;
  if (json) {
    printf("{\"kind\":\"bundled_program\",\"suites\":[");
    for (size_t s = 0; s < n; s++) {
      const char *m = ptera_bundled_suite_method(b, s);
      printf("%s{\"method\":", s ? "," : "");
      json_str(m, strlen(m));
      printf(",\"cases\":%zu}", ptera_bundled_case_count(b, s));
    }
    printf("],\"program\":");
    print_program(p, true);
    printf("}");
    return;
  }
  printf("bundled program: %zu test suites ('ptera verify %s' runs them)\n", n, cli_escz(path));
  for (size_t s = 0; s < n; s++)
    printf("suite %zu: method %s, %zu cases\n", s, cli_escz(ptera_bundled_suite_method(b, s)),
           ptera_bundled_case_count(b, s));
  printf("embedded program:\n");
  print_program(p, false);
}

/* The largest power of two (up to 4096) dividing off. */
static unsigned alignment(uint64_t off) {
  unsigned a = 1;
  while (a < 4096 && off % (2u * a) == 0) a *= 2;
  return a;
}

static void print_data(const pf_ptd *d, bool json) {
  if (json) {
    printf("{\"kind\":\"data\",\"file_size\":%llu,\"schema\":\"%s\",\"segment_base_offset\":%llu,"
           "\"segment_data_size\":%llu,\"entries\":[",
           (unsigned long long)d->file_size, d->legacy ? "legacy" : "current",
           (unsigned long long)d->segment_base, (unsigned long long)d->segment_data_size);
  } else {
    printf("data file: %llu bytes, %s FlatTensor layout; segment_base_offset %llu, "
           "segment_data_size %llu\nentries: %u\n",
           (unsigned long long)d->file_size, d->legacy ? "pre-June-2025" : "current",
           (unsigned long long)d->segment_base, (unsigned long long)d->segment_data_size,
           d->nentries);
  }
  for (uint32_t i = 0; i < d->nentries; i++) {
    const pf_ptd_entry *e = &d->entries[i];
    uint64_t off = (uint64_t)(e->data.ptr - d->file);
    const pf_layout *l = &e->layout;
    if (json) {
      printf("%s{\"key\":", i ? "," : "");
      json_str(e->key.ptr, e->key.len);
      printf(",\"offset\":%llu,\"nbytes\":%llu,\"alignment\":%u,\"layout\":",
             (unsigned long long)off, (unsigned long long)e->data.len, alignment(off));
      if (!l->present) {
        printf("null}");
        continue;
      }
      printf("{\"dtype\":\"%s\",\"sizes\":[", ptera_dtype_name(l->scalar_type));
      for (uint8_t k = 0; k < l->dim; k++) printf("%s%d", k ? "," : "", l->sizes[k]);
      printf("],\"dim_order\":[");
      for (uint8_t k = 0; k < l->dim; k++) printf("%s%u", k ? "," : "", l->dim_order[k]);
      printf("]}}");
      continue;
    }
    printf("entry %u '%s': ", i, cli_esc(e->key.ptr, e->key.len));
    if (l->present) {
      char shp[160];
      cli_format_shape(shp, sizeof shp, l->scalar_type, l->dim, l->sizes);
      printf("%s dim_order [", shp);
      for (uint8_t k = 0; k < l->dim; k++) printf("%s%u", k ? "," : "", l->dim_order[k]);
      printf("], ");
    } else {
      printf("no tensor layout, ");
    }
    printf("%llu bytes at offset %llu (aligned to %u)\n", (unsigned long long)e->data.len,
           (unsigned long long)off, alignment(off));
  }
  if (json) printf("]}");
}

/* The 4 identifier bytes at offset 4 ("ET12", "BP08", "FT01"), or "" when
 * the file cannot be read. */
static void identifier(const char *path, char id[5]) {
  unsigned char head[8] = {0};
  FILE *f = fopen(path, "rb");
  memset(id, 0, 5);
  if (!f) return;
  if (fread(head, 1, sizeof head, f) == sizeof head) memcpy(id, head + 4, 4);
  fclose(f);
}

static int inspect_data(const char *path, bool json) {
  pt_err err;
  pr_bytes bytes;
  pt_arena arena;
  pf_ptd d;
  pt_err_clear(&err);
  memset(&bytes, 0, sizeof bytes);
  pt_arena_init(&arena, ptera_default_allocator());
  ptera_status st = pr_bytes_map_file(&bytes, path, UINT64_MAX, ptera_default_allocator(), &err);
  if (st == PTERA_OK) st = pf_ptd_parse(bytes.data, bytes.size, &arena, &d, &err);
  int rc = 0;
  if (st != PTERA_OK) rc = cli_error(st, "%s: %s", path, err.msg);
  else print_data(&d, json);
  pt_arena_release(&arena);
  pr_bytes_release(&bytes);
  return rc;
}

static int inspect_bundle(const char *path, bool json) {
  ptera_bundled *b;
  ptera_status st = ptera_bundled_load_file(path, NULL, &b);
  int rc = 0;
  if (st != PTERA_OK) rc = cli_error(st, "%s: %s", path, ptera_bundled_errmsg(b));
  else print_bundle(b, path, json);
  ptera_bundled_destroy(b);
  return rc;
}

int cli_inspect(int argc, char **argv) {
  const char *path = NULL;
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (argv[i][0] == '-' || path) {
      cli_usage("inspect", "unexpected argument '%s'", argv[i]);
      fprintf(stderr, "\n%s", help);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    fputs(help, stderr);
    return 2;
  }
  char id[5];
  identifier(path, id);
  int rc = 0;
  if (strcmp(id, "BP08") == 0) {
    rc = inspect_bundle(path, json);
  } else if (strcmp(id, "FT01") == 0) {
    rc = inspect_data(path, json);
  } else {
    ptera_program *prog;
    ptera_status st = ptera_program_load_file(path, NULL, &prog);
    if (st != PTERA_OK) {
      rc = cli_error(st, "%s: %s", path, ptera_program_errmsg(prog));
    } else {
      print_program(&prog->pte, json);
      if (!json) print_memory(prog);
    }
    ptera_program_destroy(prog);
  }
  if (rc == 0 && json) putchar('\n');
  return rc;
}
