/* Calibration samples from a directory; see cli.h. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sample subdirectories of dir, sorted; NULL with *n = 0 on error. */
static char **list_samples(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *ent;
  bool ok = true;
  while (ok && (ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.') continue;
    size_t len = strlen(dir) + strlen(ent->d_name) + 2;
    char *path = malloc(len);
    struct stat sb;
    if (!path) ok = false;
    else snprintf(path, len, "%s/%s", dir, ent->d_name);
    if (path && (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
      free(path);
      continue;
    }
    if (ok && *n == cap) {
      char **nn = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof *names);
      if (!nn) ok = false, free(path);
      else names = nn;
    }
    if (ok) names[(*n)++] = path;
  }
  closedir(d);
  if (!ok) {
    for (size_t i = 0; i < *n; i++) free(names[i]);
    free(names);
    *n = 0;
    return NULL;
  }
  if (*n) qsort(names, *n, sizeof *names, by_name);
  return names;
}

static bool exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

int cli_calibration_load(const char *dir, cli_calibration *out) {
  memset(out, 0, sizeof *out);
  size_t ns = 0;
  char **samples = list_samples(dir, &ns);
  if (!samples || ns == 0) {
    free(samples);
    return cli_error(PTERA_INVALID_ARGUMENT,
                     "--calibration '%s': no sample subdirectories (each holds input0.npy, "
                     "input1.npy, ...)", dir);
  }
  char path[4096];
  uint32_t ni = 0;
  while (snprintf(path, sizeof path, "%s/input%u.npy", samples[0], ni) < (int)sizeof path &&
         exists(path))
    ni++;
  int rc = 0;
  if (ni == 0)
    rc = cli_error(PTERA_INVALID_ARGUMENT, "--calibration: '%s' has no input0.npy", samples[0]);
  size_t total = ns * ni;
  if (rc == 0) {
    out->arrays = calloc(total, sizeof *out->arrays);
    out->data = calloc(total, sizeof *out->data);
    out->numel = calloc(total, sizeof *out->numel);
    if (!out->arrays || !out->data || !out->numel)
      rc = cli_error(PTERA_MEMORY_ALLOCATION_FAILED, "out of memory for the calibration samples");
  }
  out->ninputs = ni;
  for (size_t s = 0; rc == 0 && s < ns; s++) {
    for (uint32_t i = 0; rc == 0 && i < ni; i++) {
      char msg[256];
      snprintf(path, sizeof path, "%s/input%u.npy", samples[s], i);
      cli_array *a = &out->arrays[s * ni + i];
      if (cli_npy_load(path, PTERA_DTYPE_FLOAT, a, msg, sizeof msg) != 0) {
        rc = cli_error(PTERA_INVALID_ARGUMENT, "--calibration: %s: %s", path, msg);
        break;
      }
      out->nsamples = (uint32_t)(s + 1);
      if (a->dtype != PTERA_DTYPE_FLOAT)
        rc = cli_error(PTERA_INVALID_ARGUMENT, "--calibration: %s is not float32", path);
      out->data[s * ni + i] = a->data;
      out->numel[s * ni + i] = a->nbytes / sizeof(float);
    }
  }
  for (size_t s = 0; s < ns; s++) free(samples[s]);
  free(samples);
  if (rc != 0) cli_calibration_free(out);
  return rc;
}

void cli_calibration_free(cli_calibration *c) {
  size_t total = (size_t)c->nsamples * c->ninputs;
  for (size_t i = 0; c->arrays && i < total; i++) free(c->arrays[i].data);
  free(c->arrays);
  free(c->data);
  free(c->numel);
  memset(c, 0, sizeof *c);
}
