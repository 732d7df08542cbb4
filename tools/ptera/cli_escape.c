/* Escaping of strings that come from a file or the user before the tool
 * prints them: a crafted name must not reach the terminal as a control
 * sequence, and `inspect --json` must stay valid JSON whatever a name holds. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

/* Length of the well-formed UTF-8 sequence at s (n bytes left) and its code
 * point, or 0 when the bytes there are not well-formed (overlong forms,
 * surrogates and values above U+10FFFF are not). */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp) {
  unsigned char c = s[0];
  size_t len;
  uint32_t v, min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) len = 2, v = c & 0x1Fu, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, v = c & 0x0Fu, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, v = c & 0x07u, min = 0x10000;
  else return 0;
  if (len > n) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (s[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

/* Code points printed as their bytes' escapes although well-formed: C0 and
 * C1 controls, DEL, and the line separators and bidirectional controls that
 * reorder or break what a terminal shows. */
static bool shown_escaped(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  if (cp == 0x061C || cp == 0x200E || cp == 0x200F || cp == 0xFEFF) return true;
  return (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Escapes the sequence at s[0..] (n bytes left) into out (room for 16
 * bytes); returns the input bytes consumed and sets *outlen. */
static size_t escape_one(const unsigned char *s, size_t n, char *out, size_t *outlen) {
  static const char hex[] = "0123456789abcdef";
  uint32_t cp = 0;
  size_t len = utf8_seq(s, n, &cp), o = 0;
  if (len == 0 || shown_escaped(cp)) {
    size_t bytes = len ? len : 1;
    for (size_t k = 0; k < bytes; k++) {
      out[o++] = '\\';
      out[o++] = 'x';
      out[o++] = hex[s[k] >> 4];
      out[o++] = hex[s[k] & 15];
    }
    *outlen = o;
    return bytes;
  }
  if (cp == '\\') out[o++] = '\\';
  memcpy(out + o, s, len);
  *outlen = o + len;
  return len;
}

size_t cli_escape(char *buf, size_t cap, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  size_t used = 0;
  for (size_t i = 0; i < n;) {
    char e[16];
    size_t m;
    i += escape_one(s + i, n - i, e, &m);
    for (size_t k = 0; k < m; k++, used++)
      if (used + 1 < cap) buf[used] = e[k];
  }
  if (cap) buf[used < cap ? used : cap - 1] = '\0';
  return used;
}

void cli_put(FILE *f, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  for (size_t i = 0; i < n;) {
    char e[16];
    size_t m;
    i += escape_one(s + i, n - i, e, &m);
    fwrite(e, 1, m, f);
  }
}

void cli_put_json(FILE *f, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  for (size_t i = 0; i < n;) {
    char e[16];
    size_t m;
    i += escape_one(s + i, n - i, e, &m);
    /* The escaped text is printable and well-formed UTF-8: JSON needs only
     * '"' and '\\' escaped in it. */
    for (size_t k = 0; k < m; k++) {
      if (e[k] == '"' || e[k] == '\\') fputc('\\', f);
      fputc(e[k], f);
    }
  }
  fputc('"', f);
}

const char *cli_esc(const char *s, size_t n) {
  static char bufs[8][2048];
  static unsigned next;
  char *b = bufs[next++ % 8];
  if (!s) s = "", n = 0;
  if (cli_escape(b, sizeof bufs[0], s, n) >= sizeof bufs[0]) memcpy(b + sizeof bufs[0] - 6, "[...]", 6);
  return b;
}

const char *cli_escz(const char *s) { return cli_esc(s, s ? strlen(s) : 0); }

int cli_usage(const char *cmd, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "ptera %s: ", cmd);
  cli_put(stderr, msg, strlen(msg));
  fputc('\n', stderr);
  return 2;
}
