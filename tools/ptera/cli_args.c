/* Numeric option values: a bad one is a usage error (exit status 2), never
 * silently read as 0 or as its leading digits. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "cli.h"

int cli_parse_count(const char *cmd, const char *opt, const char *v, uint64_t max, uint64_t *out) {
  uint64_t x = 0;
  bool ok = *v != '\0';
  for (const char *p = v; ok && *p; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (d > 9 || d > max || x > (max - d) / 10) ok = false;
    else x = x * 10 + d;
  }
  if (!ok) return cli_usage(cmd, "%s takes a whole number from 0 to %llu, not '%s'", opt,
                            (unsigned long long)max, v);
  *out = x;
  return 0;
}

int cli_parse_nonneg(const char *cmd, const char *opt, const char *v, double *out) {
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (!*v || *v == ' ' || *v == '\t' || *end || errno == ERANGE || !isfinite(x) || x < 0)
    return cli_usage(cmd, "%s takes a finite number >= 0, not '%s'", opt, v);
  *out = x;
  return 0;
}

int cli_positional(const char *cmd, const char *a, const char *help, const char **model) {
  if (a[0] == '-') {
    cli_usage(cmd, "unknown or incomplete option '%s'", a);
    fprintf(stderr, "\n%s", help);
    return 2;
  }
  if (*model) return cli_usage(cmd, "unexpected argument '%s'", a);
  *model = a;
  return -1;
}
