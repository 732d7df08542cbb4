/* ptera ops — every registered operator, or (--used) the operators a set of
 * programs calls. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: ptera ops\n"
    "       ptera ops --used MODEL.pte|MODEL.bpte...\n"
    "\n"
    "Without arguments, prints every registered operator name (ns::name.overload),\n"
    "one per line. With --used, prints the operators the given programs call through\n"
    "kernel instructions (delegated work does not count), sorted and unique: the list\n"
    "for a build with -DPTERA_SELECTED_OPS=FILE. A file that cannot be read is\n"
    "reported on stderr and the others are still listed; the exit status is then 1.\n";

typedef struct name_set {
  char **items;
  size_t n, cap;
} name_set;

/* Adds name (copied) unless present; returns 0, or -1 when out of memory. */
static int set_add(name_set *s, const char *name, size_t len, const char *overload, size_t olen) {
  size_t total = len + (olen ? 1 + olen : 0);
  char *full = malloc(total + 1);
  if (!full) return -1;
  memcpy(full, name, len);
  if (olen) {
    full[len] = '.';
    memcpy(full + len + 1, overload, olen);
  }
  full[total] = '\0';
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->items[i], full) == 0) {
      free(full);
      return 0;
    }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    char **items = realloc(s->items, cap * sizeof *items);
    if (!items) {
      free(full);
      return -1;
    }
    s->items = items;
    s->cap = cap;
  }
  s->items[s->n++] = full;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the operators of every kernel instruction of prog. */
static int add_used(name_set *s, const ptera_program *prog) {
  for (size_t m = 0; m < ptera_program_method_count(prog); m++) {
    const char *method = ptera_program_method_name(prog, m);
    ptera_method_info mi = PTERA_METHOD_INFO_INIT;
    if (ptera_program_method_info(prog, method, &mi) != PTERA_OK) continue;
    for (size_t k = 0; k < mi.num_instructions; k++) {
      ptera_instruction_info in = PTERA_INSTRUCTION_INFO_INIT;
      ptera_operator_info op = PTERA_OPERATOR_INFO_INIT;
      if (ptera_program_method_instruction(prog, method, k, &in) != PTERA_OK ||
          in.kind != PTERA_INSTRUCTION_KERNEL ||
          ptera_program_method_operator_info(prog, method, in.operator_index, &op) != PTERA_OK)
        continue;
      if (set_add(s, op.name, op.name_len, op.overload, op.overload_len) != 0) return -1;
    }
  }
  return 0;
}

/* Prints name with bytes outside printable ASCII as \xNN (names come from files). */
static void put_name(const char *name) {
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
    if (*c >= 0x21 && *c < 0x7f && *c != '\\')
      putchar(*c);
    else
      printf("\\x%02x", *c);
  }
  putchar('\n');
}

static int list_used(int nfiles, char **files) {
  name_set s = {0};
  int rc = 0;
  for (int i = 0; i < nfiles; i++) {
    ptera_program *prog = NULL;
    ptera_bundled *bundled = NULL;
    ptera_status st;
    if (cli_is_bundle(files[i])) {
      st = ptera_bundled_load_file(files[i], NULL, &bundled);
      if (st != PTERA_OK) rc = cli_error(st, "%s: %s", files[i], ptera_bundled_errmsg(bundled));
      else prog = ptera_bundled_program(bundled);
    } else {
      st = ptera_program_load_file(files[i], NULL, &prog);
      if (st != PTERA_OK) rc = cli_error(st, "%s: %s", files[i], ptera_program_errmsg(prog));
    }
    int oom = st == PTERA_OK && add_used(&s, prog) != 0;
    if (bundled) ptera_bundled_destroy(bundled);
    else ptera_program_destroy(prog);
    if (oom) {
      rc = cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory");
      break;
    }
  }
  if (s.n) qsort(s.items, s.n, sizeof *s.items, by_name);
  for (size_t i = 0; i < s.n; i++) {
    put_name(s.items[i]);
    free(s.items[i]);
  }
  free(s.items);
  return rc;
}

int cli_ops(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(help, stdout);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--used") == 0) {
    if (argc < 3) {
      fputs(help, stderr);
      return 2;
    }
    return list_used(argc - 2, argv + 2);
  }
  if (argc > 1) return cli_usage("ops", "unexpected argument '%s'", argv[1]);
  size_t n = ptera_kernel_count();
  for (size_t i = 0; i < n; i++) {
    cli_put(stdout, ptera_kernel_name(i), strlen(ptera_kernel_name(i)));
    putchar('\n');
  }
  return 0;
}
