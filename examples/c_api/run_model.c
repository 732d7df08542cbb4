/* A program using the ptera C API: load a .pte (and its .ptd), bind inputs
 * from raw files, execute, print the outputs.
 *
 *   run_model MODEL.pte [--data W.ptd] [--own-memory] [INPUT.raw ...]
 *
 * Each INPUT.raw holds one tensor input's bytes, in the input's dtype and
 * dim order (`numpy.ascontiguousarray(x).tofile(path)` for the usual
 * contiguous input); without them inputs are filled with ones. With
 * --own-memory the program supplies the method's planned buffers itself
 * (sized from the method's metadata) instead of letting ptera allocate them.
 * Prints "output K: dtype[shape] = v0 v1 ..." with every value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ptera/ptera.h>

static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  void *data = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) != NULL &&
        fread(data, 1, (size_t)n, f) != (size_t)n) {
      free(data);
      data = NULL;
    }
    *size = (size_t)n;
  }
  fclose(f);
  return data;
}

static double element(const ptera_tensor *t, size_t i) {
  switch (t->dtype) {
    case PTERA_DTYPE_FLOAT: return ((const float *)t->data)[i];
    case PTERA_DTYPE_DOUBLE: return ((const double *)t->data)[i];
    case PTERA_DTYPE_INT: return ((const int32_t *)t->data)[i];
    case PTERA_DTYPE_LONG: return (double)((const int64_t *)t->data)[i];
    case PTERA_DTYPE_BOOL: case PTERA_DTYPE_BYTE: return ((const uint8_t *)t->data)[i];
    default: return 0.0 / 0.0;
  }
}

static void fill_ones(const ptera_tensor *t, void *data) {
  for (size_t i = 0; i < t->numel; i++) {
    switch (t->dtype) {
      case PTERA_DTYPE_FLOAT: ((float *)data)[i] = 1.0f; break;
      case PTERA_DTYPE_DOUBLE: ((double *)data)[i] = 1.0; break;
      case PTERA_DTYPE_INT: ((int32_t *)data)[i] = 1; break;
      case PTERA_DTYPE_LONG: ((int64_t *)data)[i] = 1; break;
      default: ((uint8_t *)data)[i] = 1; break;
    }
  }
}

int main(int argc, char **argv) {
  const char *model = NULL, *data_file = NULL;
  const char *inputs[64];
  size_t ninputs = 0;
  int own_memory = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) data_file = argv[++i];
    else if (strcmp(argv[i], "--own-memory") == 0) own_memory = 1;
    else if (!model) model = argv[i];
    else if (ninputs < 64) inputs[ninputs++] = argv[i];
  }
  if (!model) {
    fprintf(stderr, "usage: run_model MODEL.pte [--data W.ptd] [--own-memory] [INPUT.raw ...]\n");
    return 2;
  }
  printf("ptera %s (headers %s)\n", ptera_version(), PTERA_VERSION);

  int rc = 1;
  ptera_method *m = NULL;
  void *planned[16] = {0}, *in_data[64] = {0};
  ptera_program *prog;
  ptera_status st = ptera_program_load_file(model, NULL, &prog);
  if (st != PTERA_OK) {
    fprintf(stderr, "%s: %s: %s\n", model, ptera_status_name(st), ptera_program_errmsg(prog));
    goto done;
  }
  if (data_file && (st = ptera_program_attach_data_file(prog, data_file)) != PTERA_OK) {
    fprintf(stderr, "%s: %s: %s\n", data_file, ptera_status_name(st), ptera_program_errmsg(prog));
    goto done;
  }

  /* Caller-supplied planned memory: one buffer per planned buffer of the
   * method, each at least its size and 16-byte aligned. */
  ptera_method_options opts = PTERA_METHOD_OPTIONS_INIT;
  ptera_method_info info = PTERA_METHOD_INFO_INIT;
  if (own_memory) {
    if (ptera_program_method_info(prog, "forward", &info) != PTERA_OK || info.num_planned_buffers > 16) {
      fprintf(stderr, "cannot size the planned buffers: %s\n", ptera_program_errmsg(prog));
      goto done;
    }
    for (size_t b = 0; b < info.num_planned_buffers; b++) {
      uint64_t size;
      if (ptera_program_method_buffer_size(prog, "forward", b, &size) != PTERA_OK) goto done;
      planned[b] = aligned_alloc(16, ((size_t)size + 15) / 16 * 16 + 16);
      if (!planned[b]) goto done;
    }
    opts.planned_buffers = planned;
    opts.num_planned_buffers = info.num_planned_buffers;
  }

  st = ptera_method_create(prog, "forward", own_memory ? &opts : NULL, &m);
  if (st != PTERA_OK) {
    fprintf(stderr, "forward: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
    goto done;
  }
  size_t n = ptera_method_input_count(m);
  if (ninputs && ninputs != n) {
    fprintf(stderr, "forward takes %zu inputs; %zu given\n", n, ninputs);
    goto done;
  }
  for (size_t i = 0; i < n && i < 64; i++) {
    const ptera_value *v = ptera_method_input(m, i);
    if (v->tag != PTERA_TAG_TENSOR) continue;
    const ptera_tensor *t = v->u.tensor;
    size_t nbytes = ptera_tensor_nbytes(t), got = 0;
    if (ninputs) {
      in_data[i] = read_file(inputs[i], &got);
      if (!in_data[i] || got != nbytes) {
        fprintf(stderr, "%s: want %zu bytes of %s for input %zu\n", inputs[i], nbytes,
                ptera_dtype_name(t->dtype), i);
        goto done;
      }
    } else {
      in_data[i] = malloc(nbytes ? nbytes : 1);
      if (!in_data[i]) goto done;
      fill_ones(t, in_data[i]);
    }
    st = ptera_method_set_input_tensor(m, i, (ptera_dtype)t->dtype, t->dim, t->sizes, in_data[i], nbytes);
    if (st != PTERA_OK) {
      fprintf(stderr, "input %zu: %s: %s\n", i, ptera_status_name(st), ptera_method_errmsg(m));
      goto done;
    }
  }
  if ((st = ptera_method_execute(m)) != PTERA_OK) {
    fprintf(stderr, "execute: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
    goto done;
  }
  for (size_t k = 0; k < ptera_method_output_count(m); k++) {
    const ptera_value *v = ptera_method_output(m, k);
    if (v->tag != PTERA_TAG_TENSOR) {
      printf("output %zu: %s\n", k, ptera_tag_name(v->tag));
      continue;
    }
    const ptera_tensor *t = v->u.tensor;
    printf("output %zu: %s[", k, ptera_dtype_name(t->dtype));
    for (size_t d = 0; d < t->dim; d++) printf("%s%d", d ? ", " : "", (int)t->sizes[d]);
    printf("] =");
    for (size_t i = 0; i < t->numel; i++) printf(" %.9g", element(t, i)); /* memory order */
    printf("\n");
  }
  rc = 0;
done:
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  for (size_t i = 0; i < 64; i++) free(in_data[i]);
  for (size_t b = 0; b < 16; b++) free(planned[b]);
  return rc;
}
