/* ptera verify — run a bundled program's test cases. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char help[] =
    "usage: ptera verify FILE.bpte [--rtol R] [--atol A] [--no-fuse]\n"
    "\n"
    "Runs every test case of every method a bundled program tests, compares\n"
    "the outputs with the expected ones, and prints PASS or FAIL per case.\n"
    "Floating outputs pass when |expected - actual| <= atol + rtol*|actual|;\n"
    "other dtypes must match exactly. Exit status 0 when all pass.\n"
    "\n"
    "options:\n"
    "  --rtol R   relative tolerance (default 1e-5)\n"
    "  --atol A   absolute tolerance (default 1e-8)\n"
    "  --no-fuse  run every instruction as written (no load-time fusion; also\n"
    "             when the environment sets PTERA_NO_FUSE=1)\n"
    "  --help     this text\n";

static bool run_case(ptera_bundled *b, size_t s, size_t c, double rtol, double atol,
                     uint32_t flags) {
  const char *name = ptera_bundled_suite_method(b, s);
  ptera_method *m;
  ptera_method_options mo = PTERA_METHOD_OPTIONS_INIT;
  mo.flags = flags;
  ptera_status st = ptera_method_create(ptera_bundled_program(b), name, &mo, &m);
  const char *why = NULL;
  if (st != PTERA_OK) why = ptera_method_errmsg(m);
  if (!why && (st = ptera_bundled_set_inputs(b, m, s, c)) != PTERA_OK) why = ptera_bundled_errmsg(b);
  if (!why && (st = ptera_method_execute(m)) != PTERA_OK) why = ptera_method_errmsg(m);
  if (!why && (st = ptera_bundled_verify(b, m, s, c, rtol, atol)) != PTERA_OK)
    why = ptera_bundled_errmsg(b);
  if (why) printf("FAIL %s case %zu: %s: %s\n", cli_escz(name), c, ptera_status_name(st), cli_escz(why));
  else printf("PASS %s case %zu\n", cli_escz(name), c);
  ptera_method_destroy(m);
  return why == NULL;
}

int cli_verify(int argc, char **argv) {
  const char *path = NULL;
  double rtol = PTERA_BUNDLED_DEFAULT_RTOL, atol = PTERA_BUNDLED_DEFAULT_ATOL;
  bool no_fuse = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(help, stdout);
      return 0;
    } else if (strcmp(argv[i], "--rtol") == 0 && i + 1 < argc) {
      if (cli_parse_nonneg("verify", argv[i], argv[i + 1], &rtol)) return 2;
      i++;
    } else if (strcmp(argv[i], "--atol") == 0 && i + 1 < argc) {
      if (cli_parse_nonneg("verify", argv[i], argv[i + 1], &atol)) return 2;
      i++;
    } else if (strcmp(argv[i], "--no-fuse") == 0) {
      no_fuse = true;
    } else if (argv[i][0] == '-' || path) {
      cli_usage("verify", "unexpected argument '%s'", argv[i]);
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
  unsigned char head[8] = {0};
  FILE *f = fopen(path, "rb");
  size_t got = f ? fread(head, 1, sizeof head, f) : 0;
  if (f) fclose(f);
  if (got == sizeof head && memcmp(head + 4, "ET12", 4) == 0)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "%s is a program (.pte), not a bundled program (.bpte): it has no test cases "
                     "to verify; 'ptera run' runs it",
                     path);
  if (got == sizeof head && memcmp(head + 4, "FT01", 4) == 0)
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "%s is a data file (.ptd), not a bundled program (.bpte)", path);
  ptera_bundled *b;
  ptera_status st = ptera_bundled_load_file(path, NULL, &b);
  if (st != PTERA_OK) {
    int rc = cli_error(st, "%s: %s", path, ptera_bundled_errmsg(b));
    ptera_bundled_destroy(b);
    return rc;
  }
  size_t pass = 0, fail = 0;
  for (size_t s = 0; s < ptera_bundled_suite_count(b); s++)
    for (size_t c = 0; c < ptera_bundled_case_count(b, s); c++) {
      if (run_case(b, s, c, rtol, atol, cli_method_flags(no_fuse))) pass++;
      else fail++;
    }
  printf("%zu passed, %zu failed\n", pass, fail);
  ptera_bundled_destroy(b);
  return fail || pass == 0 ? 1 : 0;
}
