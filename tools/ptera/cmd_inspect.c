/* ptera inspect — describe a program, bundled program or data file without
 * running it. Every name from the file is printed escaped (cli_escape.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

static const char *kind_name(ptera_tag tag) {
  switch (tag) {
    case PTERA_TAG_NONE: return "Null";
    case PTERA_TAG_INT: return "Int";
    case PTERA_TAG_BOOL: return "Bool";
    case PTERA_TAG_DOUBLE: return "Double";
    case PTERA_TAG_TENSOR: return "Tensor";
    case PTERA_TAG_STRING: return "String";
    case PTERA_TAG_LIST_INT: return "IntList";
    case PTERA_TAG_LIST_DOUBLE: return "DoubleList";
    case PTERA_TAG_LIST_BOOL: return "BoolList";
    case PTERA_TAG_LIST_TENSOR: return "TensorList";
    case PTERA_TAG_LIST_OPTIONAL_TENSOR: return "OptionalTensorList";
  }
  return "Unknown";
}

static const char *dynamism_name(ptera_dynamism d) {
  return d == PTERA_SHAPE_STATIC ? "static" : d == PTERA_SHAPE_DYNAMIC_BOUND ? "dynamic_bound" : "dynamic_unbound";
}

static const char *where(const ptera_value_info *v) {
  switch (v->data) {
    case PTERA_DATA_EXTERNAL: return v->planned ? "external .ptd, copied into planned memory" : "external .ptd";
    case PTERA_DATA_MUTABLE: return "mutable segment, copied into planned memory";
    case PTERA_DATA_CONSTANT: return "constant";
    case PTERA_DATA_NONE: break;
  }
  return v->planned ? "planned" : "unplanned";
}

static void shape(char *buf, size_t cap, const ptera_value_info *v) {
  cli_format_shape(buf, cap, v->dtype, v->dim, v->sizes);
}

static void dim_order(const uint8_t *order, size_t dim) {
  for (size_t d = 0; d < dim; d++) printf("%s%u", d ? "," : "", order[d]);
}

/* Value i of method m; false (nothing to print) when the query fails. */
static bool value(const ptera_program *prog, const char *m, size_t i, ptera_value_info *v) {
  *v = (ptera_value_info)PTERA_VALUE_INFO_INIT;
  return ptera_program_method_value(prog, m, i, v) == PTERA_OK;
}

/* The method value input (or output) i is, or false. */
static bool io_value(const ptera_program *prog, const char *m, bool output, size_t i, size_t *index) {
  ptera_io_info io = PTERA_IO_INFO_INIT;
  ptera_status st = output ? ptera_program_method_output(prog, m, i, &io) : ptera_program_method_input(prog, m, i, &io);
  *index = io.value_index;
  return st == PTERA_OK;
}

static void text_io(const ptera_program *prog, const char *m, bool output, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t idx;
    ptera_value_info v;
    if (!io_value(prog, m, output, i, &idx) || !value(prog, m, idx, &v)) continue;
    printf("    %s %zu: value %zu ", output ? "output" : "input", i, idx);
    if (v.tag == PTERA_TAG_TENSOR) {
      char s[160];
      shape(s, sizeof s, &v);
      printf("Tensor %s dim_order [", s);
      dim_order(v.dim_order, v.dim);
      printf("] %s, %s, %llu bytes\n", dynamism_name(v.dynamism), where(&v), (unsigned long long)v.nbytes);
    } else if (v.tag == PTERA_TAG_INT) {
      printf("Int = %lld\n", (long long)v.int_value);
    } else if (v.tag == PTERA_TAG_DOUBLE) {
      printf("Double = %.9g\n", v.double_value);
    } else if (v.tag == PTERA_TAG_BOOL) {
      printf("Bool = %s\n", v.bool_value ? "true" : "false");
    } else if (v.tag == PTERA_TAG_STRING) {
      printf("String = \"%s\"\n", cli_esc(v.string, v.string_len));
    } else {
      printf("%s\n", v.tag == PTERA_TAG_NONE ? "None" : kind_name(v.tag));
    }
  }
}

/* What an XnnpackBackend delegate's blob holds: its partition's size. */
static void text_xnn(const ptera_program *prog, const char *m, size_t k, const ptera_delegate_info *d) {
  const void *blob;
  size_t size;
  if (!ptera_backend_find(d->id, d->id_len) || d->id_len != 14 || memcmp(d->id, "XnnpackBackend", 14) != 0 ||
      ptera_program_method_delegate_blob(prog, m, k, &blob, &size) != PTERA_OK)
    return;
  ptera_xnnpack_graph_info g = PTERA_XNNPACK_GRAPH_INFO_INIT;
  ptera_status st = ptera_xnnpack_graph_describe(blob, size, NULL, &g, NULL, 0);
  if (st == PTERA_OK)
    printf("      XNNGraph %s: %zu nodes, %zu values, %zu inputs, %zu outputs\n", g.identifier, g.num_nodes,
           g.num_values, g.num_inputs, g.num_outputs);
  else
    printf("      XNNGraph: does not parse (%s)\n", ptera_status_name(st));
}

static bool delegate(const ptera_program *prog, const char *m, size_t k, ptera_delegate_info *d) {
  *d = (ptera_delegate_info)PTERA_DELEGATE_INFO_INIT;
  return ptera_program_method_delegate_info(prog, m, k, d) == PTERA_OK;
}

static bool op(const ptera_program *prog, const char *m, size_t k, ptera_operator_info *o) {
  *o = (ptera_operator_info)PTERA_OPERATOR_INFO_INIT;
  return ptera_program_method_operator_info(prog, m, k, o) == PTERA_OK;
}

static void text_plan(const ptera_program *prog, const char *m, const ptera_method_info *mi) {
  printf("method %s: %zu values, %zu instructions\n", cli_esc(mi->name, mi->name_len), mi->num_values,
         mi->num_instructions);
  text_io(prog, m, false, mi->num_inputs);
  text_io(prog, m, true, mi->num_outputs);
  for (size_t j = 0; j < mi->num_planned_buffers; j++) {
    uint64_t size = 0;
    ptera_program_method_buffer_size(prog, m, j, &size);
    printf("    planned buffer %zu: %lld bytes\n", j, (long long)size);
  }
  for (size_t k = 0; k < mi->num_operators; k++) {
    ptera_operator_info o;
    if (!op(prog, m, k, &o)) continue;
    printf("    operator %zu: %s%s%s\n", k, cli_esc(o.name, o.name_len), o.overload_len ? "." : "",
           cli_esc(o.overload, o.overload_len));
  }
  for (size_t k = 0; k < mi->num_delegates; k++) {
    ptera_delegate_info d;
    if (!delegate(prog, m, k, &d)) continue;
    printf("    delegate %zu: %s (%s %u, %zu compile specs)%s\n", k, cli_esc(d.id, d.id_len),
           d.location == PTERA_DELEGATE_SEGMENT ? "segment" : "inline", d.index, d.num_compile_specs,
           ptera_backend_find(d.id, d.id_len) ? "" : " [not available]");
    text_xnn(prog, m, k, &d);
  }
  unsigned counts[5] = {0};
  for (size_t i = 0; i < mi->num_values; i++) {
    ptera_value_info v;
    if (!value(prog, m, i, &v) || v.tag != PTERA_TAG_TENSOR) continue;
    if (v.data == PTERA_DATA_EXTERNAL) counts[0]++;
    else if (v.data == PTERA_DATA_MUTABLE) counts[1]++;
    else if (v.data == PTERA_DATA_CONSTANT) counts[2]++;
    else if (v.planned) counts[3]++;
    else counts[4]++;
    if (v.data != PTERA_DATA_NONE) {
      char s[160];
      shape(s, sizeof s, &v);
      printf("    value %zu: %s %s%s%s (buffer %u)\n", i, s, where(&v), v.key ? " key " : "",
             cli_esc(v.key, v.key_len), v.data_index);
    }
  }
  printf("    tensors: %u external, %u mutable, %u constant, %u planned, %u unplanned\n", counts[0],
         counts[1], counts[2], counts[3], counts[4]);
}

static void json_plan(const ptera_program *prog, const char *m, const ptera_method_info *mi) {
  printf("{\"name\":");
  json_str(mi->name, mi->name_len);
  printf(",\"values\":%zu,\"inputs\":[", mi->num_values);
  for (int pass = 0; pass < 2; pass++) {
    size_t n = pass ? mi->num_outputs : mi->num_inputs;
    if (pass) printf("],\"outputs\":[");
    for (size_t i = 0; i < n; i++) {
      size_t idx;
      ptera_value_info v;
      if (!io_value(prog, m, pass, i, &idx) || !value(prog, m, idx, &v)) continue;
      printf("%s{\"value\":%zu,\"kind\":\"%s\"", i ? "," : "", idx, kind_name(v.tag));
      if (v.tag == PTERA_TAG_TENSOR) {
        printf(",\"dtype\":\"%s\",\"sizes\":[", ptera_dtype_name(v.dtype));
        for (size_t d = 0; d < v.dim; d++) printf("%s%d", d ? "," : "", v.sizes[d]);
        printf("],\"dim_order\":[");
        dim_order(v.dim_order, v.dim);
        printf("],\"dynamism\":\"%s\",\"where\":\"%s\",\"nbytes\":%llu", dynamism_name(v.dynamism), where(&v),
               (unsigned long long)v.nbytes);
      }
      printf("}");
    }
  }
  printf("],\"planned_buffers\":[");
  for (size_t j = 0; j < mi->num_planned_buffers; j++) {
    uint64_t size = 0;
    ptera_program_method_buffer_size(prog, m, j, &size);
    printf("%s%lld", j ? "," : "", (long long)size);
  }
  printf("],\"operators\":[");
  for (size_t k = 0; k < mi->num_operators; k++) {
    ptera_operator_info o;
    if (!op(prog, m, k, &o)) continue;
    printf("%s{\"name\":", k ? "," : "");
    json_str(o.name, o.name_len);
    printf(",\"overload\":");
    json_str(o.overload, o.overload_len);
    printf("}");
  }
  printf("],\"delegates\":[");
  for (size_t k = 0; k < mi->num_delegates; k++) {
    ptera_delegate_info d;
    if (!delegate(prog, m, k, &d)) continue;
    printf("%s{\"id\":", k ? "," : "");
    json_str(d.id, d.id_len);
    printf(",\"location\":\"%s\",\"index\":%u,\"compile_specs\":%zu,\"available\":%s}",
           d.location == PTERA_DELEGATE_SEGMENT ? "segment" : "inline", d.index, d.num_compile_specs,
           ptera_backend_find(d.id, d.id_len) ? "true" : "false");
  }
  printf("],\"constants\":[");
  bool first = true;
  for (size_t i = 0; i < mi->num_values; i++) {
    ptera_value_info v;
    if (!value(prog, m, i, &v) || v.tag != PTERA_TAG_TENSOR || v.data == PTERA_DATA_NONE) continue;
    printf("%s{\"value\":%zu,\"where\":\"%s\",\"buffer\":%u,\"nbytes\":%llu", first ? "" : ",", i, where(&v),
           v.data_index, (unsigned long long)v.nbytes);
    if (v.key) {
      printf(",\"key\":");
      json_str(v.key, v.key_len);
    }
    printf("}");
    first = false;
  }
  printf("]}");
}

/* Each method of prog, as text or JSON (comma-separated). */
static void print_methods(const ptera_program *prog, bool json) {
  for (size_t i = 0; i < ptera_program_method_count(prog); i++) {
    const char *m = ptera_program_method_name(prog, i);
    ptera_method_info mi = PTERA_METHOD_INFO_INIT;
    if (ptera_program_method_info(prog, m, &mi) != PTERA_OK) continue;
    if (json) {
      if (i) printf(",");
      json_plan(prog, m, &mi);
    } else {
      text_plan(prog, m, &mi);
    }
  }
}

/* The program as text, or as one JSON object without a newline. */
static void print_program(const ptera_program *prog, bool json) {
  ptera_program_info p = PTERA_PROGRAM_INFO_INIT;
  ptera_program_get_info(prog, &p);
  if (json) {
    printf("{\"kind\":\"program\",\"file_size\":%llu,\"extended_header\":", (unsigned long long)p.file_size);
    if (p.has_extended_header)
      printf("{\"length\":%u,\"program_size\":%llu,\"segment_base_offset\":%llu,\"segment_data_size\":%llu}",
             p.extended_header_length, (unsigned long long)p.program_size,
             (unsigned long long)p.segment_base_offset, (unsigned long long)p.segment_data_size);
    else
      printf("null");
    printf(",\"segments\":[");
  } else {
    printf("file: %llu bytes\n", (unsigned long long)p.file_size);
    if (p.has_extended_header)
      printf("extended header: eh00, %u bytes; program_size %llu, segment_base_offset %llu, "
             "segment_data_size %llu\n",
             p.extended_header_length, (unsigned long long)p.program_size,
             (unsigned long long)p.segment_base_offset, (unsigned long long)p.segment_data_size);
    else
      printf("extended header: none\n");
  }
  for (size_t i = 0; i < p.num_segments; i++) {
    ptera_segment_info seg = PTERA_SEGMENT_INFO_INIT;
    ptera_program_segment(prog, i, &seg);
    if (json)
      printf("%s{\"offset\":%llu,\"size\":%llu}", i ? "," : "", (unsigned long long)seg.offset,
             (unsigned long long)seg.size);
    else
      printf("segment %zu: offset %llu, %llu bytes\n", i, (unsigned long long)seg.offset,
             (unsigned long long)seg.size);
  }
  if (json) {
    printf("],\"named_data\":[");
  } else {
    if (p.has_constant_segment)
      printf("constant segment: segment %u, %zu entries\n", p.constant_segment, p.num_constant_entries);
    if (p.num_legacy_constants) printf("legacy constant_buffer: %zu entries\n", p.num_legacy_constants);
    if (p.has_mutable_data)
      printf("mutable data: segment %u, %zu entries\n", p.mutable_data_segment, p.num_mutable_entries);
  }
  for (size_t i = 0; i < p.num_named_data; i++) {
    ptera_named_data_info n = PTERA_NAMED_DATA_INFO_INIT;
    ptera_program_named_data_entry(prog, i, &n);
    if (json) {
      printf("%s{\"key\":", i ? "," : "");
      json_str(n.key, n.key_len);
      printf(",\"segment\":%u,\"nbytes\":", n.segment);
      if (n.has_segment) printf("%llu}", (unsigned long long)n.nbytes);
      else printf("null}");
    } else {
      printf("named data '%s': segment %u, ", cli_esc(n.key, n.key_len), n.segment);
      if (n.has_segment) printf("%llu bytes\n", (unsigned long long)n.nbytes);
      else printf("no such segment\n");
    }
  }
  if (json) printf("],\"methods\":[");
  else printf("methods: %zu\n", p.num_methods);
  print_methods(prog, json);
  if (json) printf("]}");
}

/* The memory each method takes once loaded (ptera_method_get_memory). */
static void print_memory(ptera_program *prog) {
  for (size_t i = 0; i < ptera_program_method_count(prog); i++) {
    const char *name = ptera_program_method_name(prog, i);
    ptera_method *m = NULL;
    ptera_method_memory mem = PTERA_METHOD_MEMORY_INIT;
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
  const ptera_program *p = ptera_bundled_program(b);
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

static void print_data(const ptera_datafile *d, bool json) {
  ptera_datafile_info info = PTERA_DATAFILE_INFO_INIT;
  ptera_datafile_get_info(d, &info);
  if (json) {
    printf("{\"kind\":\"data\",\"file_size\":%llu,\"schema\":\"%s\",\"segment_base_offset\":%llu,"
           "\"segment_data_size\":%llu,\"entries\":[",
           (unsigned long long)info.file_size, info.legacy ? "legacy" : "current",
           (unsigned long long)info.segment_base_offset, (unsigned long long)info.segment_data_size);
  } else {
    printf("data file: %llu bytes, %s FlatTensor layout; segment_base_offset %llu, "
           "segment_data_size %llu\nentries: %zu\n",
           (unsigned long long)info.file_size, info.legacy ? "pre-June-2025" : "current",
           (unsigned long long)info.segment_base_offset, (unsigned long long)info.segment_data_size,
           info.num_entries);
  }
  for (size_t i = 0; i < info.num_entries; i++) {
    ptera_datafile_entry e = PTERA_DATAFILE_ENTRY_INIT;
    if (ptera_datafile_get_entry(d, i, &e) != PTERA_OK) continue;
    if (json) {
      printf("%s{\"key\":", i ? "," : "");
      json_str(e.key, e.key_len);
      printf(",\"offset\":%llu,\"nbytes\":%llu,\"alignment\":%u,\"layout\":", (unsigned long long)e.offset,
             (unsigned long long)e.nbytes, e.alignment);
      if (!e.has_layout) {
        printf("null}");
        continue;
      }
      printf("{\"dtype\":\"%s\",\"sizes\":[", ptera_dtype_name(e.dtype));
      for (size_t k = 0; k < e.dim; k++) printf("%s%d", k ? "," : "", e.sizes[k]);
      printf("],\"dim_order\":[");
      dim_order(e.dim_order, e.dim);
      printf("]}}");
      continue;
    }
    printf("entry %zu '%s': ", i, cli_esc(e.key, e.key_len));
    if (e.has_layout) {
      char shp[160];
      cli_format_shape(shp, sizeof shp, e.dtype, e.dim, e.sizes);
      printf("%s dim_order [", shp);
      dim_order(e.dim_order, e.dim);
      printf("], ");
    } else {
      printf("no tensor layout, ");
    }
    printf("%llu bytes at offset %llu (aligned to %u)\n", (unsigned long long)e.nbytes,
           (unsigned long long)e.offset, e.alignment);
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
  ptera_datafile *d;
  ptera_status st = ptera_datafile_load_file(path, NULL, &d);
  int rc = 0;
  if (st != PTERA_OK) rc = cli_error(st, "%s: %s", path, ptera_datafile_errmsg(d));
  else print_data(d, json);
  ptera_datafile_destroy(d);
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
      print_program(prog, json);
      if (!json) print_memory(prog);
    }
    ptera_program_destroy(prog);
  }
  if (rc == 0 && json) putchar('\n');
  return rc;
}
