/* ptera inspect — describe a program without running it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format/pte.h"
#include "runtime/runtime.h"

static const char help[] =
    "usage: ptera inspect MODEL.pte [--json]\n"
    "\n"
    "Prints the file header, segments, and for each method its inputs and\n"
    "outputs, operators, delegates, planned buffer sizes and where each\n"
    "constant tensor lives, and the named data (key and size of each blob).\n"
    "Text output ends with the memory each method takes once loaded (metadata\n"
    "arena, planned buffers, kernel temp arena, packed weights).\n"
    "\n"
    "options:\n"
    "  --json   machine-readable output\n"
    "  --help   this text\n";

typedef struct out {
  bool json;
  int depth;
} out;

static void json_str(const char *s, size_t n) {
  putchar('"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
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
      printf("] %s, %s, %llu bytes\n", v->u.tensor->dynamism ? "dynamic" : "static",
             where(v->u.tensor), (unsigned long long)v->u.tensor->nbytes);
    } else if (v->type == PF_VAL_INT) {
      printf("Int = %lld\n", (long long)v->u.i);
    } else if (v->type == PF_VAL_DOUBLE) {
      printf("Double = %.9g\n", v->u.d);
    } else if (v->type == PF_VAL_BOOL) {
      printf("Bool = %s\n", v->u.b ? "true" : "false");
    } else if (v->type == PF_VAL_STRING) {
      printf("String = \"%s\"\n", v->u.str.ptr);
    } else {
      printf("%s\n", v->type == PF_VAL_NULL ? "None" : "list");
    }
  }
}

static void text_plan(const pf_plan *plan) {
  uint32_t ninstr = 0;
  for (uint32_t c = 0; c < plan->nchains; c++) ninstr += plan->chains[c].ninstrs;
  printf("method %s: %u values, %u instructions\n", plan->name.ptr, plan->nvalues, ninstr);
  text_io(plan, "input", plan->inputs, plan->ninputs);
  text_io(plan, "output", plan->outputs, plan->noutputs);
  for (uint32_t j = 1; j < plan->nbuffer_sizes; j++)
    printf("    planned buffer %u: %lld bytes\n", j - 1, (long long)plan->buffer_sizes[j]);
  for (uint32_t k = 0; k < plan->nops; k++)
    printf("    operator %u: %s%s%s\n", k, plan->ops[k].name.ptr, plan->ops[k].overload.len ? "." : "",
           plan->ops[k].overload.len ? plan->ops[k].overload.ptr : "");
  for (uint32_t k = 0; k < plan->ndelegates; k++)
    printf("    delegate %u: %s (%s %u, %u compile specs)%s\n", k, plan->delegates[k].id.ptr,
           plan->delegates[k].location ? "segment" : "inline", plan->delegates[k].index,
           plan->delegates[k].nspecs,
           ptera_find_backend(plan->delegates[k].id.ptr, plan->delegates[k].id.len) ? "" : " [not available]");
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
             t->fqn.ptr ? t->fqn.ptr : "", t->data_buffer_idx);
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
      printf("%s{\"value\":%d,\"kind\":%u", i ? "," : "", idx[i], v->type);
      if (v->type == PF_VAL_TENSOR) {
        const pf_tensor *t = v->u.tensor;
        printf(",\"dtype\":\"%s\",\"sizes\":[", ptera_dtype_name(t->scalar_type));
        for (uint8_t d = 0; d < t->dim; d++) printf("%s%d", d ? "," : "", t->sizes[d]);
        printf("],\"dim_order\":[");
        for (uint8_t d = 0; d < t->dim; d++) printf("%s%u", d ? "," : "", t->dim_order[d]);
        printf("],\"dynamism\":%u,\"where\":\"%s\",\"nbytes\":%llu", t->dynamism, where(t),
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
    printf("%s\"%s%s%s\"", k ? "," : "", plan->ops[k].name.ptr, plan->ops[k].overload.len ? "." : "",
           plan->ops[k].overload.len ? plan->ops[k].overload.ptr : "");
  }
  printf("],\"delegates\":[");
  for (uint32_t k = 0; k < plan->ndelegates; k++) {
    printf("%s", k ? "," : "");
    json_str(plan->delegates[k].id.ptr, plan->delegates[k].id.len);
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

static void print_program(const pf_pte *p, bool json) {
  if (json) {
    printf("{\"file_size\":%llu,\"extended_header\":", (unsigned long long)p->file_size);
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
    printf("]}\n");
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
    printf("named data '%s': segment %u, ", p->named[i].key.ptr, p->named[i].segment_index);
    if (named_size(p, i, &size)) printf("%llu bytes\n", size);
    else printf("no such segment\n");
  }
  printf("methods: %u\n", p->nplans);
  for (uint32_t i = 0; i < p->nplans; i++) text_plan(&p->plans[i]);
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
      printf("memory %s: arena %zu, planned %zu, temp %zu, packed %zu bytes\n", name,
             mem.arena_bytes, mem.planned_bytes, mem.temp_bytes, mem.packed_bytes);
    else
      printf("memory %s: does not load here (%s)\n", name, ptera_status_name(st));
    ptera_method_destroy(m);
  }
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
      fprintf(stderr, "ptera inspect: unexpected argument '%s'\n\n%s", argv[i], help);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    fputs(help, stderr);
    return 2;
  }
  ptera_program *prog;
  ptera_status st = ptera_program_load_file(path, NULL, &prog);
  if (st != PTERA_OK) {
    int rc = cli_error(st, "%s: %s", path, ptera_program_errmsg(prog));
    ptera_program_destroy(prog);
    return rc;
  }
  print_program(&prog->pte, json);
  if (!json) print_memory(prog);
  ptera_program_destroy(prog);
  return 0;
}
