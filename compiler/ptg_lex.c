/* PTG token helpers: numbers, escapes, dtype names. */
#include <math.h>
#include <stdlib.h>

#include "ptg_lex.h"

bool pc_tok_is(pc_tok t, const char *s) {
  size_t n = strlen(s);
  return t.n == n && memcmp(t.p, s, n) == 0;
}

bool pc_tok_u64(pc_tok t, uint64_t *out) {
  if (t.n == 0) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < t.n; i++) {
    char c = t.p[i];
    if (c < '0' || c > '9') return false;
    if (!pt_mul_u64(v, 10, &v) || !pt_add_u64(v, (uint64_t)(c - '0'), &v)) return false;
  }
  *out = v;
  return true;
}

bool pc_tok_i64(pc_tok t, int64_t *out) {
  bool neg = t.n > 0 && t.p[0] == '-';
  pc_tok digits = {t.p + neg, t.n - neg};
  uint64_t v;
  if (!pc_tok_u64(digits, &v)) return false;
  if (neg) {
    if (v > (uint64_t)INT64_MAX + 1) return false;
    *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
  } else {
    if (v > (uint64_t)INT64_MAX) return false;
    *out = (int64_t)v;
  }
  return true;
}

static size_t digits(const char *p, size_t n, size_t i) {
  while (i < n && p[i] >= '0' && p[i] <= '9') i++;
  return i;
}

bool pc_tok_double(pc_tok t, double *out) {
  if (pc_tok_is(t, "inf")) return *out = INFINITY, true;
  if (pc_tok_is(t, "-inf")) return *out = -INFINITY, true;
  if (pc_tok_is(t, "nan")) return *out = NAN, true;
  /* -?(d+(.d*)?|.d+)(e[+-]?d+)? */
  const char *p = t.p;
  size_t n = t.n, i = 0;
  if (i < n && p[i] == '-') i++;
  size_t a = i;
  i = digits(p, n, i);
  size_t int_digits = i - a, frac_digits = 0;
  if (i < n && p[i] == '.') {
    size_t b = ++i;
    i = digits(p, n, i);
    frac_digits = i - b;
  }
  if (int_digits + frac_digits == 0) return false;
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    size_t e = i;
    i = digits(p, n, i);
    if (i == e) return false;
  }
  if (i != n || n >= 64) return false;
  char buf[64];
  memcpy(buf, p, n);
  buf[n] = '\0';
  double v = strtod(buf, NULL);
  if (isinf(v)) return false; /* out of range */
  *out = v;
  return true;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool pc_tok_unescape(pc_tok t, char *dst) {
  size_t o = 0;
  for (size_t i = 0; i < t.n; i++) {
    char c = t.p[i];
    if (c == '%') {
      if (t.n - i < 3) return false;
      int h = hexval(t.p[i + 1]), l = hexval(t.p[i + 2]);
      if (h < 0 || l < 0 || (h == 0 && l == 0)) return false;
      c = (char)(h * 16 + l);
      i += 2;
    }
    dst[o++] = c;
  }
  dst[o] = '\0';
  return true;
}

size_t pc_escape(const char *s, char *dst) {
  static const char hex[] = "0123456789ABCDEF";
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p >= '!' && *p <= '~' && *p != '%') {
      if (dst) dst[o] = (char)*p;
      o++;
    } else {
      if (dst) {
        dst[o] = '%';
        dst[o + 1] = hex[*p >> 4];
        dst[o + 2] = hex[*p & 15];
      }
      o += 3;
    }
  }
  return o;
}

int pc_tok_dtype(pc_tok t) {
  for (int d = 0; d < PTERA_DTYPE_COUNT; d++)
    if (pc_tok_is(t, ptera_dtype_name(d))) return d;
  return -1;
}
