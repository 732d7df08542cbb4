/* .npy files for the tool, on top of the library's verifying reader. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      uint8_t *nbuf = realloc(buf, ncap);
      if (!nbuf) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nbuf;
      cap = ncap;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *size = len;
  return buf;
}

int cli_npy_load(const char *path, int expect_dtype, cli_array *out, char *msg, size_t msg_size) {
  memset(out, 0, sizeof *out);
  size_t size = 0;
  uint8_t *bytes = read_all(path, &size);
  if (!bytes) {
    snprintf(msg, msg_size, "cannot read '%s'", path);
    return -1;
  }
  ptera_npy_info npy = PTERA_NPY_INFO_INIT;
  char why[PTERA_ERRMSG_SIZE];
  if (ptera_npy_parse(bytes, size, &npy, why, sizeof why) != PTERA_OK) {
    snprintf(msg, msg_size, "'%s': %s", path, why);
    free(bytes);
    return -1;
  }
  if (npy.fortran_order && npy.dim > 1) {
    snprintf(msg, msg_size, "'%s' is in Fortran order; save it in C order (numpy.ascontiguousarray)", path);
    free(bytes);
    return -1;
  }
  out->dtype = npy.dtype;
  /* numpy has no bfloat16: raw bits travel as <u2. */
  if (expect_dtype == PTERA_DTYPE_BFLOAT16 && npy.dtype == PTERA_DTYPE_UINT16)
    out->dtype = PTERA_DTYPE_BFLOAT16;
  out->dim = npy.dim;
  memcpy(out->sizes, npy.sizes, sizeof out->sizes);
  out->nbytes = (size_t)npy.nbytes;
  out->data = malloc(out->nbytes ? out->nbytes : 1);
  if (!out->data) {
    snprintf(msg, msg_size, "out of memory reading '%s'", path);
    free(bytes);
    return -1;
  }
  if (out->nbytes) memcpy(out->data, npy.data, out->nbytes);
  free(bytes);
  return 0;
}

int cli_npy_save(const char *path, const cli_array *a, char *msg, size_t msg_size) {
  char sdescr[32];
  const char *descr;
  if (a->dtype < 0) {
    snprintf(sdescr, sizeof sdescr, "|S%zu", a->nbytes ? a->nbytes : 1);
    descr = sdescr;
  } else {
    descr = ptera_dtype_npy_descr(a->dtype);
  }
  if (!descr) {
    snprintf(msg, msg_size, "dtype %s has no .npy form", ptera_dtype_name(a->dtype));
    return -1;
  }
  uint8_t header[4096];
  size_t hlen = ptera_npy_write_header(descr, a->dim, a->sizes, header, sizeof header);
  if (!hlen) {
    snprintf(msg, msg_size, "cannot build an .npy header for '%s'", path);
    return -1;
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(msg, msg_size, "cannot create '%s'", path);
    return -1;
  }
  size_t body = a->dtype < 0 && a->nbytes == 0 ? 1 : a->nbytes;
  static const uint8_t zero = 0;
  bool ok = fwrite(header, 1, hlen, f) == hlen &&
            fwrite(a->nbytes ? a->data : &zero, 1, body, f) == body;
  if (fclose(f) != 0) ok = false;
  if (!ok) {
    snprintf(msg, msg_size, "cannot write '%s'", path);
    return -1;
  }
  return 0;
}
