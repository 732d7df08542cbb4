/* Errors: a status and, unless the build strips messages, a message. */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"

void pt_err_clear(pt_err *e) {
  e->status = PTERA_OK;
  e->msg[0] = '\0';
}

void pt_err_copy(const pt_err *e, char *buf, size_t cap) {
  if (!buf || !cap) return;
  size_t n = 0;
  if (e->status != PTERA_OK)
    while (n < cap - 1 && n < sizeof e->msg && e->msg[n]) n++;
  memcpy(buf, e->msg, n);
  buf[n] = '\0';
}

#if PTERA_STRIP_MESSAGES

ptera_status pt_fail_status(pt_err *e, ptera_status status) {
  if (e) {
    const char *name = ptera_status_name(status);
    size_t n = strlen(name);
    if (n > sizeof e->msg - 1) n = sizeof e->msg - 1;
    memcpy(e->msg, name, n);
    e->msg[n] = '\0';
    e->status = status;
  }
  return status;
}

#else

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

/* In place: the old message moves right to make room, then the prefix is
 * formatted in front of it (no copy on the stack). */
void pt_err_prefix(pt_err *e, const char *fmt, ...) {
  if (!e) return; /* like pt_fail, callers may pass no error to fill */
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  size_t n = w > 0 ? (size_t)w : 0;
  if (n > sizeof e->msg - 3) n = sizeof e->msg - 3;
  size_t room = sizeof e->msg - n - 2;
  size_t m = strnlen(e->msg, sizeof e->msg);
  if (m > room - 1) m = room - 1;
  memmove(e->msg + n + 2, e->msg, m);
  e->msg[n + 2 + m] = '\0';
  va_start(ap, fmt);
  vsnprintf(e->msg, n + 1, fmt, ap); /* its NUL lands at [n], overwritten below */
  va_end(ap);
  e->msg[n] = ':';
  e->msg[n + 1] = ' ';
}

#endif
