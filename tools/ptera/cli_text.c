/* Text the tool prints from untrusted sources (file contents, arguments),
 * and numeric option parsing. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Length of the valid UTF-8 sequence of 2..4 bytes at s (n left), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
  if (!len || len > n) return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  uint32_t cp = len == 2 ? (uint32_t)(s[0] & 0x1f) : len == 3 ? (uint32_t)(s[0] & 0x0f) : (uint32_t)(s[0] & 0x07);
  for (size_t i = 1; i < len; i++) cp = (cp << 6) | (s[i] & 0x3f);
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
    return 0;
  return len;
}

int cli_print_escaped(FILE *f, const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  int width = 0;
  for (size_t i = 0; i < n;) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
      fputc(p[i++], f);
      width++;
      continue;
    }
    size_t len = p[i] >= 0x80 ? utf8_seq(p + i, n - i) : 0;
    if (len) {
      fwrite(p + i, 1, len, f);
      i += len;
      width++;
    } else {
      fprintf(f, p[i] == '\\' ? "\\\\" : "\\x%02x", p[i]);
      width += p[i] == '\\' ? 2 : 4;
      i++;
    }
  }
  return width;
}

void cli_json_string(FILE *f, const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  fputc('"', f);
  for (size_t i = 0; i < n;) {
    size_t len = p[i] >= 0x80 ? utf8_seq(p + i, n - i) : 0;
    if (len) {
      fwrite(p + i, 1, len, f);
      i += len;
    } else if (p[i] == '"' || p[i] == '\\') {
      fprintf(f, "\\%c", p[i++]);
    } else if (p[i] >= 0x20 && p[i] < 0x7f) {
      fputc(p[i++], f);
    } else {
      /* Control bytes and bytes that are not UTF-8 become the code point of
       * the byte's value, so the output stays valid JSON. */
      fprintf(f, "\\u%04x", p[i++]);
    }
  }
  fputc('"', f);
}

int cli_parse_count(const char *s, uint64_t max, uint64_t *out) {
  if (!s || *s < '0' || *s > '9') return -1;
  uint64_t v = 0;
  for (const char *c = s; *c; c++) {
    if (*c < '0' || *c > '9') return -1;
    unsigned d = (unsigned)(*c - '0');
    if (v > (UINT64_MAX - d) / 10) return -1;
    v = v * 10 + d;
  }
  if (v > max) return -1;
  *out = v;
  return 0;
}
