/* Helpers for kernel unit tests: build tensors and values from static pools and
 * call kernels from the built-in table by name. Header-only; one per test exe. */
#ifndef KERNEL_TEST_UTIL_H
#define KERNEL_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "check.h"
#include "runtime/kernel_ctx.h"
#include "runtime/tables.h"

#define KT_POOL 256
static ptera_tensor kt_tensors[KT_POOL];
static ptera_value kt_values[KT_POOL * 4];
static ptera_value *kt_ptrs[KT_POOL * 4];
static size_t kt_nt, kt_nv, kt_np;
static pt_err kt_err;
static _Alignas(16) uint8_t kt_temp[1 << 16];

static inline ptera_value *kt_val(uint8_t tag) {
  ptera_value *v = &kt_values[kt_nv++ % (KT_POOL * 4)];
  memset(v, 0, sizeof *v);
  v->tag = tag;
  return v;
}

/* A tensor over data (capacity cap bytes); order NULL = contiguous. */
static inline ptera_value *kt_tensor(int dtype, void *data, size_t cap, size_t dim, const int32_t *sizes,
                              const uint8_t *order, int dynamism) {
  ptera_tensor *t = &kt_tensors[kt_nt++ % KT_POOL];
  memset(t, 0, sizeof *t);
  t->data = data;
  t->dtype = (uint8_t)dtype;
  t->dim = (uint8_t)dim;
  t->dynamism = (uint8_t)dynamism;
  t->capacity = cap;
  size_t n = 1;
  for (size_t i = 0; i < dim; i++) {
    t->sizes[i] = sizes[i];
    t->dim_order[i] = order ? order[i] : (uint8_t)i;
    n *= (size_t)sizes[i];
  }
  t->numel = n;
  ptera_tensor_update_strides(t);
  ptera_value *v = kt_val(PTERA_TAG_TENSOR);
  v->u.tensor = t;
  return v;
}
/* Static-shape tensor whose capacity is its size. */
#define KT_T(dt, data, ...)                                                                \
  kt_tensor(dt, data, sizeof(data), sizeof((int32_t[]){__VA_ARGS__}) / sizeof(int32_t),    \
            (const int32_t[]){__VA_ARGS__}, NULL, PTERA_SHAPE_STATIC)
/* Dynamic-bound out tensor with an initial shape. */
#define KT_DYN(dt, data, ...)                                                              \
  kt_tensor(dt, data, sizeof(data), sizeof((int32_t[]){__VA_ARGS__}) / sizeof(int32_t),    \
            (const int32_t[]){__VA_ARGS__}, NULL, PTERA_SHAPE_DYNAMIC_BOUND)
#define KT_SCALAR(dt, data) kt_tensor(dt, data, sizeof(data), 0, NULL, NULL, PTERA_SHAPE_STATIC)

static inline ptera_value *kt_int(int64_t x) {
  ptera_value *v = kt_val(PTERA_TAG_INT);
  v->u.i = x;
  return v;
}
static inline ptera_value *kt_dbl(double x) {
  ptera_value *v = kt_val(PTERA_TAG_DOUBLE);
  v->u.d = x;
  return v;
}
static inline ptera_value *kt_bool(bool x) {
  ptera_value *v = kt_val(PTERA_TAG_BOOL);
  v->u.b = x;
  return v;
}
static inline ptera_value *kt_none(void) { return kt_val(PTERA_TAG_NONE); }
static inline ptera_value *kt_ilist_n(size_t n, const int64_t *items) {
  ptera_value *v = kt_val(PTERA_TAG_LIST_INT);
  ptera_value **p = &kt_ptrs[kt_np];
  kt_np += n;
  for (size_t i = 0; i < n; i++) p[i] = kt_int(items[i]);
  v->u.list.items = p;
  v->u.list.len = n;
  return v;
}
#define KT_IL(...) kt_ilist_n(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), (const int64_t[]){__VA_ARGS__})
#define KT_IL0() kt_ilist_n(0, NULL)

static inline ptera_kernel_fn kt_find(const char *name) {
  for (size_t i = 0; i < pk_builtin_kernel_count; i++)
    if (strcmp(pk_builtin_kernels[i].name, name) == 0) return pk_builtin_kernels[i].run;
  return NULL;
}

/* Calls the kernel named name with the given args (an array literal). */
static inline ptera_status kt_call_n(const char *name, ptera_value **args, size_t nargs) {
  ptera_kernel_fn fn = kt_find(name);
  if (!fn) {
    printf("no kernel %s\n", name);
    return PTERA_OPERATOR_MISSING;
  }
  ptera_kernel_ctx ctx;
  pt_err_clear(&kt_err);
  pr_kernel_ctx_init(&ctx, name, &kt_err, kt_temp, sizeof kt_temp);
  return fn(&ctx, args, nargs);
}
#define KT_CALL(name, ...) \
  kt_call_n(name, (ptera_value *[]){__VA_ARGS__}, sizeof((ptera_value *[]){__VA_ARGS__}) / sizeof(ptera_value *))

static inline bool kt_close(double a, double b, double rel) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return fabs(a - b) <= rel * fabs(b) + 1e-7;
}
static inline bool kt_farr(const float *got, const float *want, size_t n, double rel) {
  for (size_t i = 0; i < n; i++)
    if (!kt_close(got[i], want[i], rel)) {
      printf("  [%zu] got %.9g want %.9g\n", i, got[i], want[i]);
      return false;
    }
  return true;
}
static inline bool kt_msg_has(const char *s) {
  bool ok = strstr(kt_err.msg, s) != NULL;
  if (!ok) printf("  message '%s' lacks '%s'\n", kt_err.msg, s);
  return ok;
}

#endif
