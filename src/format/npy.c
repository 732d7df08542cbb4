/* .npy reader and header writer (numpy format 1.0/2.0/3.0).
 *
 * File layout: "\x93NUMPY", major, minor, header length (u16 LE for 1.x,
 * u32 LE for 2.x/3.x), then the header text: a Python dict literal with
 * exactly the keys 'descr', 'fortran_order' and 'shape', padded with spaces
 * and ended by '\n'. The array data follows the header. */
#include "format/npy.h"

#include <stdio.h>

#define NPY_MAGIC_LEN 6
static const uint8_t npy_magic[NPY_MAGIC_LEN] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* numpy pads the first axis' repr to this many digits so headers can be
 * rewritten in place when an array grows (numpy/lib/format.py). */
#define NPY_GROWTH_AXIS_MAX_DIGITS 21

/* ---- a tiny cursor over the header text -------------------------------- */

typedef struct npy_cur {
  const char *p;
  const char *end;
} npy_cur;

static bool npy_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void npy_skip_ws(npy_cur *c) {
  while (c->p < c->end && npy_is_space(*c->p)) c->p++;
}

static bool npy_eat(npy_cur *c, char ch) {
  npy_skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

static bool npy_peek(npy_cur *c, char ch) {
  npy_skip_ws(c);
  return c->p < c->end && *c->p == ch;
}

/* A Python string literal in single or double quotes, without escapes
 * (numpy never writes any; a backslash is rejected). */
static bool npy_string(npy_cur *c, const char **s, size_t *len) {
  npy_skip_ws(c);
  if (c->p >= c->end) return false;
  char q = *c->p;
  if (q != '\'' && q != '"') return false;
  const char *start = ++c->p;
  while (c->p < c->end && *c->p != q) {
    if (*c->p == '\\' || *c->p == '\n') return false;
    c->p++;
  }
  if (c->p >= c->end) return false;
  *s = start;
  *len = (size_t)(c->p - start);
  c->p++;
  return true;
}

static bool npy_word(npy_cur *c, const char *w) {
  npy_skip_ws(c);
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return false;
  /* Must not continue as an identifier ("Falsey"). */
  if ((size_t)(c->end - c->p) > n) {
    char nx = c->p[n];
    if ((nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') ||
        nx == '_')
      return false;
  }
  c->p += n;
  return true;
}

/* A non-negative decimal integer that fits int32 (an optional Python 2 'L'
 * suffix is accepted, as old numpy wrote it). */
static bool npy_int(npy_cur *c, int32_t *out) {
  npy_skip_ws(c);
  if (c->p >= c->end || *c->p < '0' || *c->p > '9') return false;
  /* Python 3 forbids leading zeros in non-zero decimal literals. */
  if (*c->p == '0' && c->p + 1 < c->end && c->p[1] >= '0' && c->p[1] <= '9') return false;
  int64_t v = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    v = v * 10 + (*c->p - '0');
    if (v > INT32_MAX) return false;
    c->p++;
  }
  if (c->p < c->end && (*c->p == 'L' || *c->p == 'l')) c->p++;
  *out = (int32_t)v;
  return true;
}

/* A tuple of ints: "()", "(5,)", "(2, 3)", "(2, 3,)". "(5)" is an int in
 * Python, not a tuple, and is rejected like numpy does. */
static bool npy_shape(npy_cur *c, pf_npy *out) {
  if (!npy_eat(c, '(')) return false;
  unsigned n = 0;
  bool trailing_comma = false;
  while (!npy_peek(c, ')')) {
    if (n >= PTERA_MAX_DIM) return false;
    if (!npy_int(c, &out->sizes[n])) return false;
    n++;
    trailing_comma = npy_eat(c, ',');
    if (!trailing_comma) break;
  }
  if (!npy_eat(c, ')')) return false;
  if (n == 1 && !trailing_comma) return false;
  out->dim = (uint8_t)n;
  return true;
}

/* ---- descr ---------------------------------------------------------------- */

/* Decodes a simple-dtype descr into dtype and item size. */
static bool npy_descr_decode(const char *s, size_t len, int *dtype, size_t *item) {
  if (len < 3) return false;
  char order = s[0], kind = s[1];
  if (order != '<' && order != '>' && order != '|' && order != '=') return false;
  /* Item size: decimal digits, no leading zero. */
  if (s[2] < '1' || s[2] > '9') return false;
  uint64_t n = 0;
  for (size_t i = 2; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    n = n * 10 + (uint64_t)(s[i] - '0');
    if (n > 0x7fffffffu) return false;
  }
  int dt = -1;
  switch (kind) {
    case 'f':
      dt = n == 2 ? PTERA_DTYPE_HALF : n == 4 ? PTERA_DTYPE_FLOAT : n == 8 ? PTERA_DTYPE_DOUBLE : -2;
      break;
    case 'i':
      dt = n == 1   ? PTERA_DTYPE_CHAR
           : n == 2 ? PTERA_DTYPE_SHORT
           : n == 4 ? PTERA_DTYPE_INT
           : n == 8 ? PTERA_DTYPE_LONG
                    : -2;
      break;
    case 'u':
      dt = n == 1   ? PTERA_DTYPE_BYTE
           : n == 2 ? PTERA_DTYPE_UINT16
           : n == 4 ? PTERA_DTYPE_UINT32
           : n == 8 ? PTERA_DTYPE_UINT64
                    : -2;
      break;
    case 'b': dt = n == 1 ? PTERA_DTYPE_BOOL : -2; break;
    case 'c':
      dt = n == 8 ? PTERA_DTYPE_COMPLEX_FLOAT : n == 16 ? PTERA_DTYPE_COMPLEX_DOUBLE : -2;
      break;
    case 'S': dt = -1; break; /* raw bytes strings */
    default: return false;    /* object, unicode, void, datetime, ... */
  }
  if (dt == -2) return false;
  /* Multi-byte numbers must be little-endian; '=' (native) is ambiguous in
   * a file, so only single-byte items may use it. */
  if (kind != 'S' && n > 1 && order != '<') return false;
  if (kind == 'S' && order == '>' ) return false;
  *dtype = dt;
  *item = (size_t)n;
  return true;
}

/* ---- parse ---------------------------------------------------------------- */

static ptera_status npy_bad(pt_err *err, const char *what) {
  return pt_fail(err, PTERA_INVALID_ARGUMENT, "npy: %s", what);
}

ptera_status pf_npy_parse(const uint8_t *data, size_t size, pf_npy *out, pt_err *err) {
  if (!out) return npy_bad(err, "no output");
  memset(out, 0, sizeof *out);
  out->dtype = -1;
  if (!data || size < 10) return npy_bad(err, "file too short for an .npy header");
  if (memcmp(data, npy_magic, NPY_MAGIC_LEN) != 0) return npy_bad(err, "bad magic (not an .npy file)");
  uint8_t major = data[6], minor = data[7];
  uint64_t hlen, hstart;
  if (major == 1) {
    hlen = pt_le16(data + 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) return npy_bad(err, "file too short for an .npy header");
    hlen = pt_le32(data + 8);
    hstart = 12;
  } else {
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "npy: unsupported format version %u.%u",
                   (unsigned)major, (unsigned)minor);
  }
  if (minor != 0)
    return pt_fail(err, PTERA_INVALID_ARGUMENT, "npy: unsupported format version %u.%u",
                   (unsigned)major, (unsigned)minor);
  if (hlen > size - hstart) return npy_bad(err, "header runs past the end of the file");

  const char *text = (const char *)(data + hstart);
  npy_cur c = {text, text + hlen};
  /* Text must not contain NULs; version 1/2 is latin-1, version 3 UTF-8:
   * anything outside ASCII can only occur inside strings, which we then
   * reject via the descr check. */
  if (memchr(text, 0, (size_t)hlen)) return npy_bad(err, "NUL byte in header");

  if (!npy_eat(&c, '{')) return npy_bad(err, "header is not a dict literal");
  bool have_descr = false, have_fortran = false, have_shape = false;
  for (;;) {
    if (npy_eat(&c, '}')) break;
    const char *key;
    size_t klen;
    if (!npy_string(&c, &key, &klen)) return npy_bad(err, "malformed header dict key");
    if (!npy_eat(&c, ':')) return npy_bad(err, "missing ':' in header dict");
    if (klen == 5 && memcmp(key, "descr", 5) == 0) {
      if (have_descr) return npy_bad(err, "duplicate 'descr'");
      const char *s;
      size_t slen;
      if (!npy_string(&c, &s, &slen)) return npy_bad(err, "'descr' is not a simple string (structured dtypes are not supported)");
      if (slen == 0 || slen >= sizeof out->descr) return npy_bad(err, "unsupported 'descr'");
      if (!npy_descr_decode(s, slen, &out->dtype, &out->item_size))
        return pt_fail(err, PTERA_INVALID_ARGUMENT, "npy: unsupported descr '%.*s'", (int)slen, s);
      memcpy(out->descr, s, slen);
      out->descr[slen] = '\0';
      have_descr = true;
    } else if (klen == 13 && memcmp(key, "fortran_order", 13) == 0) {
      if (have_fortran) return npy_bad(err, "duplicate 'fortran_order'");
      if (npy_word(&c, "True"))
        out->fortran_order = true;
      else if (npy_word(&c, "False"))
        out->fortran_order = false;
      else
        return npy_bad(err, "'fortran_order' is not True or False");
      have_fortran = true;
    } else if (klen == 5 && memcmp(key, "shape", 5) == 0) {
      if (have_shape) return npy_bad(err, "duplicate 'shape'");
      if (!npy_shape(&c, out)) return npy_bad(err, "'shape' is not a tuple of at most 16 non-negative ints");
      have_shape = true;
    } else {
      return npy_bad(err, "unexpected key in header dict");
    }
    if (npy_eat(&c, ',')) continue;
    if (npy_eat(&c, '}')) break;
    return npy_bad(err, "malformed header dict");
  }
  npy_skip_ws(&c);
  if (c.p != c.end) return npy_bad(err, "trailing bytes after the header dict");
  if (!have_descr || !have_fortran || !have_shape)
    return npy_bad(err, "header lacks 'descr', 'fortran_order' or 'shape'");

  uint64_t numel = 1;
  for (unsigned i = 0; i < out->dim; i++)
    if (!pt_mul_u64(numel, (uint64_t)out->sizes[i], &numel)) return npy_bad(err, "shape overflows");
  uint64_t nbytes;
  if (!pt_mul_u64(numel, out->item_size, &nbytes)) return npy_bad(err, "array size overflows");
  uint64_t start = hstart + hlen;
  if (nbytes > size - start)
    return pt_fail(err, PTERA_INVALID_ARGUMENT,
                   "npy: data is %llu bytes but the header needs %llu",
                   (unsigned long long)(size - start), (unsigned long long)nbytes);
  out->numel = numel;
  out->nbytes = nbytes;
  out->data = data + start;
  return PTERA_OK;
}

/* ---- descr for a dtype ---------------------------------------------------- */

const char *pf_npy_descr(int dtype) {
  switch (dtype) {
    case PTERA_DTYPE_BYTE: return "|u1";
    case PTERA_DTYPE_CHAR: return "|i1";
    case PTERA_DTYPE_SHORT: return "<i2";
    case PTERA_DTYPE_INT: return "<i4";
    case PTERA_DTYPE_LONG: return "<i8";
    case PTERA_DTYPE_HALF: return "<f2";
    case PTERA_DTYPE_FLOAT: return "<f4";
    case PTERA_DTYPE_DOUBLE: return "<f8";
    case PTERA_DTYPE_COMPLEX_FLOAT: return "<c8";
    case PTERA_DTYPE_COMPLEX_DOUBLE: return "<c16";
    case PTERA_DTYPE_BOOL: return "|b1";
    case PTERA_DTYPE_QINT8: return "|i1";
    case PTERA_DTYPE_QUINT8: return "|u1";
    case PTERA_DTYPE_QINT32: return "<i4";
    case PTERA_DTYPE_BFLOAT16: return "<u2";
    case PTERA_DTYPE_QUINT4X2:
    case PTERA_DTYPE_QUINT2X4:
    case PTERA_DTYPE_BITS1X8:
    case PTERA_DTYPE_BITS2X4:
    case PTERA_DTYPE_BITS4X2:
    case PTERA_DTYPE_BITS8:
    case PTERA_DTYPE_FLOAT8_E5M2:
    case PTERA_DTYPE_FLOAT8_E4M3FN:
    case PTERA_DTYPE_FLOAT8_E5M2FNUZ:
    case PTERA_DTYPE_FLOAT8_E4M3FNUZ: return "|u1";
    case PTERA_DTYPE_BITS16: return "<u2";
    case PTERA_DTYPE_UINT16: return "<u2";
    case PTERA_DTYPE_UINT32: return "<u4";
    case PTERA_DTYPE_UINT64: return "<u8";
    default: return NULL; /* ComplexHalf and unknown codes */
  }
}

/* ---- header writer ------------------------------------------------------- */

typedef struct npy_buf {
  char s[512];
  size_t n;
  bool overflow;
} npy_buf;

static void npy_put(npy_buf *b, const char *s) {
  size_t n = strlen(s);
  if (n > sizeof b->s - b->n) {
    b->overflow = true;
    return;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
}

static size_t npy_int_repr(int32_t v, char *out) {
  /* v >= 0 (checked by the caller). */
  char tmp[16];
  size_t n = 0;
  uint32_t u = (uint32_t)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  for (size_t i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
  out[n] = '\0';
  return n;
}

size_t pf_npy_header(const char *descr, size_t dim, const int32_t *sizes, uint8_t *out,
                     size_t cap) {
  if (!descr || dim > PTERA_MAX_DIM || (dim > 0 && !sizes)) return 0;
  size_t dlen = strlen(descr);
  if (dlen == 0 || dlen >= 16) return 0;
  for (size_t i = 0; i < dlen; i++)
    if (descr[i] == '\'' || descr[i] == '\\' || (unsigned char)descr[i] < 0x20 ||
        (unsigned char)descr[i] >= 0x7f)
      return 0;
  for (size_t i = 0; i < dim; i++)
    if (sizes[i] < 0) return 0;

  /* The dict as numpy's _write_array_header builds it: keys sorted, each
   * "'key': repr(value), ", then "}". */
  npy_buf b;
  b.n = 0;
  b.overflow = false;
  npy_put(&b, "{'descr': '");
  npy_put(&b, descr);
  npy_put(&b, "', 'fortran_order': False, 'shape': (");
  char num[16];
  size_t first_len = 0;
  for (size_t i = 0; i < dim; i++) {
    size_t n = npy_int_repr(sizes[i], num);
    if (i == 0) first_len = n;
    if (i > 0) npy_put(&b, ", ");
    npy_put(&b, num);
  }
  if (dim == 1) npy_put(&b, ",");
  npy_put(&b, "), }");
  /* Growth padding for the first axis (C order); none for 0-d arrays. */
  if (dim > 0)
    for (size_t i = first_len; i < NPY_GROWTH_AXIS_MAX_DIGITS; i++) npy_put(&b, " ");
  if (b.overflow) return 0;

  /* _wrap_header: hlen counts the final '\n'; pad with spaces so that
   * magic(6) + version(2) + u16 length + header is a multiple of 64. */
  size_t hlen = b.n + 1;
  size_t pad = 64 - ((NPY_MAGIC_LEN + 2 + 2 + hlen) % 64);
  size_t total = NPY_MAGIC_LEN + 2 + 2 + hlen + pad;
  if (hlen + pad > 0xffff) return 0;
  if (!out || cap < total) return 0;
  memcpy(out, npy_magic, NPY_MAGIC_LEN);
  out[6] = 1;
  out[7] = 0;
  out[8] = (uint8_t)((hlen + pad) & 0xff);
  out[9] = (uint8_t)((hlen + pad) >> 8);
  memcpy(out + 10, b.s, b.n);
  memset(out + 10 + b.n, ' ', pad);
  out[total - 1] = '\n';
  return total;
}
