/* A custom operator: registers a kernel for "example::mul_add_one.out"
 * (out = self * other + 1, Float tensors of one shape) before loading a
 * program that calls it, then runs forward on the three floats given.
 *
 *   custom_kernel MODEL.pte X0 X1 X2      prints "output: Y0 Y1 Y2"
 *
 * The test suite runs it on a program whose forward(x) is
 * mul_add_one(mul_add_one(x, c), c) with c = {10, 20, 30}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptera/ptera.h"

/* args: self, other, out in schema order (programs exported by ExecuTorch
 * add the return value, the out tensor again, as a fourth). */
static ptera_status mul_add_one(ptera_kernel_ctx *ctx, ptera_value **args, size_t nargs) {
  if (nargs != 3 && nargs != 4)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "takes (self, other, out), got %zu values",
                             nargs);
  for (size_t i = 0; i < 3; i++)
    if (!args[i] || args[i]->tag != PTERA_TAG_TENSOR)
      return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "argument %zu is not a tensor", i);
  const ptera_tensor *a = args[0]->u.tensor, *b = args[1]->u.tensor;
  ptera_tensor *out = args[2]->u.tensor;
  if (a->dtype != PTERA_DTYPE_FLOAT || b->dtype != PTERA_DTYPE_FLOAT || out->dtype != PTERA_DTYPE_FLOAT)
    return ptera_kernel_fail(ctx, PTERA_INVALID_TYPE, "Float tensors only");
  if (a->numel != b->numel)
    return ptera_kernel_fail(ctx, PTERA_INVALID_ARGUMENT, "self and other differ in size");
  ptera_status st = ptera_tensor_resize(out, a->dim, a->sizes);
  if (st != PTERA_OK) return ptera_kernel_fail(ctx, st, "out cannot take self's shape");
  const float *x = a->data, *y = b->data;
  float *o = out->data;
  for (size_t i = 0; i < a->numel; i++) o[i] = x[i] * y[i] + 1.0f;
  return PTERA_OK;
}

static const ptera_kernel_entry kernels[] = {{"example::mul_add_one.out", mul_add_one}};

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: custom_kernel MODEL.pte X0 X1 X2\n");
    return 2;
  }
  /* Registration comes first: before any program is loaded. */
  ptera_status st = ptera_kernel_register(kernels, 1);
  if (st != PTERA_OK) {
    fprintf(stderr, "register: %s\n", ptera_status_name(st));
    return 1;
  }
  ptera_program *prog = NULL;
  ptera_method *m = NULL;
  int rc = 1;
  float x[3] = {strtof(argv[2], NULL), strtof(argv[3], NULL), strtof(argv[4], NULL)};
  int32_t sizes[1] = {3};
  if ((st = ptera_program_load_file(argv[1], NULL, &prog)) != PTERA_OK) {
    fprintf(stderr, "load: %s: %s\n", ptera_status_name(st), ptera_program_errmsg(prog));
  } else if ((st = ptera_method_create(prog, "forward", NULL, &m)) != PTERA_OK) {
    fprintf(stderr, "method: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
  } else if ((st = ptera_method_set_input_tensor(m, 0, PTERA_DTYPE_FLOAT, 1, sizes, x, sizeof x)) !=
                 PTERA_OK ||
             (st = ptera_method_execute(m)) != PTERA_OK) {
    fprintf(stderr, "run: %s: %s\n", ptera_status_name(st), ptera_method_errmsg(m));
  } else {
    const ptera_value *v = ptera_method_output(m, 0);
    if (v && v->tag == PTERA_TAG_TENSOR && v->u.tensor->numel == 3) {
      const float *y = v->u.tensor->data;
      printf("output: %.9g %.9g %.9g\n", y[0], y[1], y[2]);
      rc = 0;
    }
  }
  ptera_method_destroy(m);
  ptera_program_destroy(prog);
  return rc;
}
