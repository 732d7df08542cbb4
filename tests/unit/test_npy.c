/* .npy reader/writer tests against real numpy-written files from
 * corpus/expected (README.md conventions table) and hand-made headers. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/npy.h"

static const char *corpus;

static const char *const bundled_dir =
    "expected/pytorch+executorch__extension_module_test_resources_bundled_program/forward";

/* ---- every .npy under expected/ ----------------------------------------- */

static int nfiles, nroundtrip, nzero_d, nstrings, nbools;

static void check_real_file(const char *path) {
  size_t size = 0;
  uint8_t *buf = check_read_file(path, &size);
  CHECK(buf != NULL);
  if (!buf) return;
  pf_npy n;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_npy_parse(buf, size, &n, &err);
  CHECK(st == PTERA_OK);
  if (st != PTERA_OK) {
    fprintf(stderr, "%s: %s\n", path, err.msg);
    free(buf);
    return;
  }
  nfiles++;
  size_t off = (size_t)(n.data - buf);
  /* numpy writes exactly the data after a 64-aligned header. */
  CHECK(off % 64 == 0);
  CHECK(n.nbytes == size - off);
  CHECK(n.numel * n.item_size == n.nbytes);
  CHECK(!n.fortran_order);
  uint64_t numel = 1;
  for (unsigned i = 0; i < n.dim; i++) numel *= (uint64_t)n.sizes[i];
  CHECK(numel == n.numel);
  if (n.dim == 0) nzero_d++;
  if (n.descr[1] == 'S') {
    nstrings++;
    CHECK(n.dtype == -1);
    CHECK(n.item_size == (size_t)atoi(n.descr + 2));
  } else {
    CHECK(n.dtype >= 0);
    const char *d = pf_npy_descr(n.dtype);
    CHECK(d != NULL && strcmp(d, n.descr) == 0);
  }
  if (strcmp(n.descr, "|b1") == 0) {
    nbools++;
    CHECK(n.dtype == PTERA_DTYPE_BOOL);
    for (uint64_t i = 0; i < n.nbytes; i++) CHECK(n.data[i] <= 1);
  }
  /* The header numpy wrote is the reference for ours. */
  uint8_t hdr[1024];
  size_t h = pf_npy_header(n.descr, n.dim, n.sizes, hdr, sizeof hdr);
  CHECK(h == off);
  CHECK(h == off && memcmp(hdr, buf, h) == 0);
  if (h == off && memcmp(hdr, buf, h) == 0) nroundtrip++;
  free(buf);
}

static void walk(const char *dir, int depth) {
  if (depth > 6) return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (n < 0 || (size_t)n >= sizeof path) continue;
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".npy") == 0)
      check_real_file(path);
    else if (!strchr(e->d_name, '.') || depth == 0)
      walk(path, depth + 1);
  }
  closedir(d);
}

static void test_corpus_files(void) {
  walk(check_corpus_path(corpus, "expected"), 0);
  printf("npy: %d real files parsed, %d headers byte-identical, %d 0-d, %d strings, %d bool\n",
         nfiles, nroundtrip, nzero_d, nstrings, nbools);
  CHECK(nfiles >= 300);
  CHECK(nroundtrip == nfiles);
  CHECK(nzero_d > 0);
  CHECK(nstrings > 0);
  CHECK(nbools > 0);
}

/* ---- specific files with known content ------------------------------------ */

static uint8_t *load(const char *rel, size_t *size, pf_npy *n) {
  uint8_t *buf = check_read_file(check_corpus_path(corpus, rel), size);
  CHECK(buf != NULL);
  if (!buf) return NULL;
  CHECK(pf_npy_parse(buf, *size, n, NULL) == PTERA_OK);
  return buf;
}

static void test_known_files(void) {
  size_t size;
  pf_npy n;
  /* A string output: the FQN of the first XOR training parameter. */
  uint8_t *b = load("expected/pytorch+executorch__extension_android_executorch_android_src_"
                    "androidTest_resources_xor/__et_training_fqn_forward/case0/output_0.npy",
                    &size, &n);
  if (b) {
    CHECK(strcmp(n.descr, "|S17") == 0);
    CHECK(n.dtype == -1 && n.item_size == 17 && n.dim == 0 && n.numel == 1);
    CHECK(n.nbytes == 17 && memcmp(n.data, "net.linear.weight", 17) == 0);
    free(b);
  }
  /* A Double scalar input 3.0 (the negative prim_input case). */
  b = load("expected/corey-cole+djl-executorch-engine__native_spike_prim_input/forward/case2/"
           "input_1.npy",
           &size, &n);
  if (b) {
    CHECK(n.dtype == PTERA_DTYPE_DOUBLE && n.dim == 0 && n.nbytes == 8);
    double v;
    memcpy(&v, n.data, 8);
    CHECK(v == 3.0);
    free(b);
  }
  /* The bundled program's int32 [2, 2] inputs. */
  char rel[512];
  snprintf(rel, sizeof rel, "%s/case0/input_0.npy", bundled_dir);
  b = load(rel, &size, &n);
  if (b) {
    CHECK(n.dtype == PTERA_DTYPE_INT && strcmp(n.descr, "<i4") == 0);
    CHECK(n.dim == 2 && n.sizes[0] == 2 && n.sizes[1] == 2 && n.numel == 4 && n.nbytes == 16);
    free(b);
  }
  /* A 4-d float tensor. */
  b = load("expected/pytorch+executorch__xnnpack_add.ff/forward/case0/output_0.npy", &size, &n);
  if (b) {
    CHECK(n.dtype == PTERA_DTYPE_FLOAT && n.dim == 4);
    CHECK(n.sizes[0] == 1 && n.sizes[1] == 2 && n.sizes[2] == 3 && n.sizes[3] == 4);
    CHECK(n.nbytes == 96);
    free(b);
  }
}

/* ---- hand-made headers --------------------------------------------------- */

/* Builds an .npy with the given version and raw header text (no padding
 * added) followed by ndata zero bytes. */
static size_t make(uint8_t *out, size_t cap, int major, const char *text, size_t ndata) {
  size_t tl = strlen(text);
  size_t pre = major == 1 ? 10 : 12;
  if (pre + tl + ndata > cap) return 0;
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (uint8_t)major;
  out[7] = 0;
  if (major == 1) {
    out[8] = (uint8_t)tl;
    out[9] = (uint8_t)(tl >> 8);
  } else {
    pt_put_le32(out + 8, (uint32_t)tl);
  }
  memcpy(out + pre, text, tl);
  memset(out + pre + tl, 0, ndata);
  return pre + tl + ndata;
}

static ptera_status parse_text(int major, const char *text, size_t ndata, pf_npy *n) {
  uint8_t buf[2048];
  size_t len = make(buf, sizeof buf, major, text, ndata);
  CHECK(len > 0);
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_npy_parse(buf, len, n, &err);
  if (st != PTERA_OK) CHECK(err.msg[0] != '\0');
  return st;
}

static void test_handmade(void) {
  pf_npy n;
  /* Versions 2.0 and 3.0, double quotes, other key order, Fortran order. */
  CHECK(parse_text(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", 24, &n) ==
        PTERA_OK);
  CHECK(n.dtype == PTERA_DTYPE_FLOAT && n.dim == 2 && n.sizes[1] == 3 && n.nbytes == 24);
  CHECK(parse_text(3, "{\"shape\": (4,), \"fortran_order\": True, \"descr\": \"<i8\"}", 32, &n) ==
        PTERA_OK);
  CHECK(n.dtype == PTERA_DTYPE_LONG && n.dim == 1 && n.sizes[0] == 4 && n.fortran_order);
  CHECK(parse_text(1, "{'descr':'|u1','fortran_order':False,'shape':(2,3,)}", 6, &n) == PTERA_OK);
  CHECK(n.dtype == PTERA_DTYPE_BYTE && n.dim == 2);
  CHECK(parse_text(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2L, 3L), }", 48, &n) ==
        PTERA_OK);
  CHECK(parse_text(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }\n", 0, &n) ==
        PTERA_OK);
  CHECK(n.numel == 0 && n.nbytes == 0);
  /* Every descr of the conventions table. */
  static const struct { const char *d; int dt; size_t sz; } tab[] = {
      {"|u1", PTERA_DTYPE_BYTE, 1},    {"|i1", PTERA_DTYPE_CHAR, 1},
      {"<i2", PTERA_DTYPE_SHORT, 2},   {"<i4", PTERA_DTYPE_INT, 4},
      {"<i8", PTERA_DTYPE_LONG, 8},    {"<f2", PTERA_DTYPE_HALF, 2},
      {"<f4", PTERA_DTYPE_FLOAT, 4},   {"<f8", PTERA_DTYPE_DOUBLE, 8},
      {"|b1", PTERA_DTYPE_BOOL, 1},    {"<u2", PTERA_DTYPE_UINT16, 2},
      {"<u4", PTERA_DTYPE_UINT32, 4},  {"<u8", PTERA_DTYPE_UINT64, 8},
      {"<c8", PTERA_DTYPE_COMPLEX_FLOAT, 8}, {"<c16", PTERA_DTYPE_COMPLEX_DOUBLE, 16},
      {"|S5", -1, 5},                  {"|S100", -1, 100},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
    char text[128];
    snprintf(text, sizeof text, "{'descr': '%s', 'fortran_order': False, 'shape': (3,), }\n",
             tab[i].d);
    CHECK(parse_text(1, text, 3 * tab[i].sz, &n) == PTERA_OK);
    CHECK(n.dtype == tab[i].dt && n.item_size == tab[i].sz && strcmp(n.descr, tab[i].d) == 0);
    /* One byte short. */
    CHECK(parse_text(1, text, 3 * tab[i].sz - 1, &n) == PTERA_INVALID_ARGUMENT);
  }
  /* Rejected headers. */
  static const char *const bad[] = {
      "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", /* big-endian */
      "{'descr': '>i8', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",  /* object */
      "{'descr': '|O8', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }", /* unicode */
      "{'descr': '|V8', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<M8', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<f3', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<f04', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '|S0', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<f', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", /* structured */
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2), }",  /* int, not tuple */
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,,), }",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (,), }",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,), }",
      "{'descr': '<f4', 'fortran_order': false, 'shape': (2,), }",
      "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,), }",
      "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }",
      "{'descr': '<f4', 'shape': (2,), }",                          /* missing key */
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}",
      "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ",
      "{'descr: '<f4', 'fortran_order': False, 'shape': (2,)}",
      "{'de\\scr': '<f4', 'fortran_order': False, 'shape': (2,)}",
      "{'descr': '<f4\", 'fortran_order': False, 'shape': (2,)}",
      "['descr', '<f4']",
      "",
      "{}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (01,)}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ptera_status st = parse_text(1, bad[i], 64, &n);
    CHECK(st == PTERA_INVALID_ARGUMENT);
    if (st != PTERA_INVALID_ARGUMENT) fprintf(stderr, "accepted bad header %zu: %s\n", i, bad[i]);
  }
  /* Overflowing data size. */
  CHECK(parse_text(1,
                   "{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 2147483647, "
                   "2147483647, 2147483647, 2147483647), }",
                   64, &n) == PTERA_INVALID_ARGUMENT);
  /* Bad magic / versions / lengths. */
  uint8_t buf[256];
  size_t len = make(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
                    4);
  CHECK(pf_npy_parse(buf, len, &n, NULL) == PTERA_OK);
  CHECK(n.dim == 0 && n.numel == 1 && n.nbytes == 4);
  buf[7] = 1;
  CHECK(pf_npy_parse(buf, len, &n, NULL) == PTERA_INVALID_ARGUMENT);
  buf[7] = 0;
  buf[6] = 4;
  CHECK(pf_npy_parse(buf, len, &n, NULL) == PTERA_INVALID_ARGUMENT);
  buf[6] = 1;
  buf[1] = 'n';
  CHECK(pf_npy_parse(buf, len, &n, NULL) == PTERA_INVALID_ARGUMENT);
  buf[1] = 'N';
  buf[9] = 0x40; /* header length past the end */
  CHECK(pf_npy_parse(buf, len, &n, NULL) == PTERA_INVALID_ARGUMENT);
  CHECK(pf_npy_parse(NULL, 0, &n, NULL) == PTERA_INVALID_ARGUMENT);
  CHECK(pf_npy_parse(buf, 9, &n, NULL) == PTERA_INVALID_ARGUMENT);
}

/* ---- writer ---------------------------------------------------------------- */

static void test_writer(void) {
  uint8_t h[512];
  int32_t s23[2] = {2, 3};
  size_t n = pf_npy_header("<f4", 2, s23, h, sizeof h);
  CHECK(n == 128);
  static const char want[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(n == 128 && memcmp(h, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
  CHECK(n == 128 && memcmp(h + 10, want, sizeof want - 1) == 0);
  CHECK(n == 128 && h[127] == '\n');
  for (size_t i = 10 + sizeof want - 1; n == 128 && i < 127; i++) CHECK(h[i] == ' ');
  /* 1-d and 0-d. */
  int32_t s5 = 5;
  n = pf_npy_header("<i8", 1, &s5, h, sizeof h);
  CHECK(n == 128 && memcmp(h + 10, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }",
                           57) == 0);
  n = pf_npy_header("|b1", 0, NULL, h, sizeof h);
  CHECK(n == 128 && memcmp(h + 10, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }",
                           55) == 0);
  /* Our own headers parse back. */
  int32_t big[16];
  for (int i = 0; i < 16; i++) big[i] = (i % 3) + 1;
  for (size_t dim = 0; dim <= 16; dim++) {
    n = pf_npy_header("<u2", dim, big, h, sizeof h);
    CHECK(n > 0 && n % 64 == 0);
    uint64_t numel = 1;
    for (size_t i = 0; i < dim; i++) numel *= (uint64_t)big[i];
    static uint8_t file[512 + 2 * 8192];
    if (n == 0 || numel > 8192) continue;
    memcpy(file, h, n);
    pf_npy p;
    CHECK(pf_npy_parse(file, n + numel * 2, &p, NULL) == PTERA_OK);
    CHECK(p.dim == dim && p.dtype == PTERA_DTYPE_UINT16 && p.numel == numel);
  }
  /* Too small buffers, bad arguments. */
  CHECK(pf_npy_header("<f4", 2, s23, h, 127) == 0);
  CHECK(pf_npy_header("<f4", 2, s23, NULL, 0) == 0);
  int32_t neg[1] = {-1};
  CHECK(pf_npy_header("<f4", 1, neg, h, sizeof h) == 0);
  CHECK(pf_npy_header("<f4", 17, big, h, sizeof h) == 0);
  CHECK(pf_npy_header("a'b", 0, NULL, h, sizeof h) == 0);
  CHECK(pf_npy_header(NULL, 0, NULL, h, sizeof h) == 0);
  /* descr mapping. */
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_FLOAT), "<f4") == 0);
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_BFLOAT16), "<u2") == 0);
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_BOOL), "|b1") == 0);
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_QINT32), "<i4") == 0);
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_BITS16), "<u2") == 0);
  CHECK(strcmp(pf_npy_descr(PTERA_DTYPE_FLOAT8_E4M3FN), "|u1") == 0);
  CHECK(pf_npy_descr(PTERA_DTYPE_COMPLEX_HALF) == NULL);
  CHECK(pf_npy_descr(30) == NULL);
  CHECK(pf_npy_descr(-1) == NULL);
  for (int dt = 0; dt < 30; dt++) {
    const char *d = pf_npy_descr(dt);
    if (!d) continue;
    /* Every descr we emit is one we read, with the element size of dt. */
    n = pf_npy_header(d, 1, &s5, h, sizeof h);
    CHECK(n > 0);
    static uint8_t file2[512];
    memcpy(file2, h, n);
    memset(file2 + n, 0, sizeof file2 - n);
    pf_npy p;
    CHECK(pf_npy_parse(file2, sizeof file2, &p, NULL) == PTERA_OK);
    CHECK(p.item_size * 5 == p.nbytes);
  }
}

/* ---- corruption ------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 11);
}

static void fuzz_one(const uint8_t *orig, size_t size, int iters) {
  uint8_t *m = malloc(size);
  CHECK(m != NULL);
  if (!m) return;
  int ok = 0;
  for (int it = 0; it < iters; it++) {
    memcpy(m, orig, size);
    size_t len = size;
    int kind = (int)(rnd() % 3);
    if (kind == 0) {
      len = rnd() % (size + 1);
    } else {
      int flips = 1 + (int)(rnd() % 4);
      size_t hot = size < 160 ? size : 160; /* mostly the header */
      for (int f = 0; f < flips; f++) m[rnd() % hot] = (uint8_t)rnd();
      if (kind == 2) len = rnd() % (size + 1);
    }
    /* Copy into an exact-size heap block so ASan catches overreads. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) continue;
    memcpy(exact, m, len);
    pf_npy n;
    pt_err err;
    if (pf_npy_parse(exact, len, &n, &err) == PTERA_OK) {
      ok++;
      CHECK(n.data >= exact && n.nbytes <= len - (size_t)(n.data - exact));
      if (n.nbytes) (void)n.data[n.nbytes - 1];
    } else {
      CHECK(err.status == PTERA_INVALID_ARGUMENT && err.msg[0] != '\0');
    }
    free(exact);
  }
  (void)ok;
  free(m);
}

static void test_fuzz(void) {
  const char *files[] = {
      "expected/pytorch+executorch__extension_android_executorch_android_src_androidTest_"
      "resources_xor/__et_training_fqn_forward/case0/output_0.npy",
      "expected/pytorch+executorch__xnnpack_add.ff/forward/case0/output_0.npy",
      "expected/corey-cole+djl-executorch-engine__native_spike_prim_input/forward/case2/"
      "input_1.npy",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    size_t size;
    uint8_t *b = check_read_file(check_corpus_path(corpus, files[i]), &size);
    CHECK(b != NULL);
    if (!b) continue;
    fuzz_one(b, size, 1500);
    free(b);
  }
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : "../shared/corpus";
  test_corpus_files();
  test_known_files();
  test_handmade();
  test_writer();
  test_fuzz();
  return check_summary("npy");
}
