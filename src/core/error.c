#include <stdarg.h>
#include <stdio.h>

#include "core.h"

ptera_status pt_fail(pt_err *e, ptera_status status, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->status = status;
  }
  return status;
}

void pt_err_clear(pt_err *e) {
  e->status = PTERA_OK;
  e->msg[0] = '\0';
}

void pt_err_prefix(pt_err *e, const char *fmt, ...) {
  char prefix[PT_ERRMSG_SIZE];
  char old[PT_ERRMSG_SIZE];
  if (!e) return; /* like pt_fail, callers may pass no error to fill */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  size_t n = strlen(prefix);
  if (n > sizeof e->msg - 3) n = sizeof e->msg - 3;
  memcpy(e->msg, prefix, n);
  e->msg[n] = ':';
  e->msg[n + 1] = ' ';
  size_t room = sizeof e->msg - n - 2;
  size_t m = strnlen(old, sizeof old);
  if (m > room - 1) m = room - 1;
  memcpy(e->msg + n + 2, old, m);
  e->msg[n + 2 + m] = '\0';
}
