/* Replays saved fuzzer inputs: every regular file under DIR/<harness>/ goes
 * through the same entry function as the libFuzzer harness. A broken
 * invariant aborts (and ASan/UBSan report) as under the fuzzer.
 *
 * usage: fuzz_replay HARNESS REGRESSIONS_DIR */
#include <dirent.h>
#include <sys/stat.h>

#include "fuzz.h"

typedef int (*fz_entry)(const uint8_t *, size_t);

static const struct {
  const char *name;
  fz_entry fn;
} harnesses[] = {
    {"pte", ptera_fuzz_pte},   {"ptd", ptera_fuzz_ptd},
    {"bpte", ptera_fuzz_bpte}, {"npy", ptera_fuzz_npy},
    {"load_execute", ptera_fuzz_load_execute}, {"ptg", ptera_fuzz_ptg},
    {"compile", ptera_fuzz_compile},       {"xnngraph", ptera_fuzz_xnngraph},
    {"xnn_delegate", ptera_fuzz_xnn_delegate},
};

static uint8_t *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = nb;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  fclose(f);
  *size = n;
  return buf;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s HARNESS REGRESSIONS_DIR\n", argv[0]);
    return 2;
  }
  fz_entry fn = NULL;
  for (size_t i = 0; i < sizeof harnesses / sizeof harnesses[0]; i++)
    if (strcmp(argv[1], harnesses[i].name) == 0) fn = harnesses[i].fn;
  if (!fn) {
    fprintf(stderr, "unknown harness '%s'\n", argv[1]);
    return 2;
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", argv[2], argv[1]);
  unsigned replayed = 0, failed = 0;
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[8192];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      struct stat st;
      if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      size_t size = 0;
      uint8_t *data = read_all(path, &size);
      if (!data) {
        fprintf(stderr, "cannot read %s\n", path);
        failed++;
        continue;
      }
      printf("replay %s: %s (%zu bytes)\n", argv[1], e->d_name, size);
      fflush(stdout);
      fn(data, size);
      free(data);
      replayed++;
    }
    closedir(d);
  }
  printf("replay %s: %u file%s replayed from %s%s\n", argv[1], replayed, replayed == 1 ? "" : "s",
         dir, d ? "" : " (no such directory)");
  return failed ? 1 : 0;
}
