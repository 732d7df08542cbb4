/* ptera — method instances: bind inputs, execute, read outputs. */
#ifndef PTERA_METHOD_H
#define PTERA_METHOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "program.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptera_method ptera_method;

typedef struct ptera_method_options {
  const ptera_allocator *allocator; /* NULL: the program's */
  /* Caller-supplied planned buffers (one per ptera_method_info
   * num_planned_buffers, each at least its size, 16-byte aligned), or NULL
   * to let the library allocate zero-filled ones. */
  void *const *planned_buffers;
  size_t num_planned_buffers;
  /* Kernel scratch arena; 0 = the largest workspace a kernel's prepare step
   * declared, or what the portable kernels may need for this method's values
   * (8 bytes x max(rank, 2) per element of its largest tensor, 8 per item of
   * its longest list, plus 1 KiB; at least 4 KiB, at most 1 MiB), whichever
   * is larger. A size below a declared workspace makes that kernel fail
   * (or take a slower path) at run. */
  size_t temp_size;
} ptera_method_options;

/* Loads a method: materialises values, resolves every operator and backend.
 * Returns a handle in *out even on failure (read ptera_method_errmsg, then
 * destroy it), unless memory for the handle ran out. options may be NULL. */
PTERA_API ptera_status ptera_method_create(ptera_program *program, const char *name,
                                 const ptera_method_options *options, ptera_method **out);
PTERA_API void ptera_method_destroy(ptera_method *method);
PTERA_API const char *ptera_method_errmsg(const ptera_method *method);

PTERA_API size_t ptera_method_input_count(const ptera_method *method);
PTERA_API size_t ptera_method_output_count(const ptera_method *method);

/* Tensor input: data is laid out in the method tensor's dim order. A
 * memory-planned input is copied in; an unplanned one points at data, which
 * must outlive execution. sizes may differ from the program's only for
 * dynamic-shape inputs (within their bound). */
PTERA_API ptera_status ptera_method_set_input_tensor(ptera_method *method, size_t index, ptera_dtype dtype,
                                           size_t dim, const int32_t *sizes, const void *data,
                                           size_t nbytes);
/* Scalar inputs must equal the value the program was exported with. */
PTERA_API ptera_status ptera_method_set_input_int(ptera_method *method, size_t index, int64_t value);
PTERA_API ptera_status ptera_method_set_input_double(ptera_method *method, size_t index, double value);
PTERA_API ptera_status ptera_method_set_input_bool(ptera_method *method, size_t index, bool value);
PTERA_API ptera_status ptera_method_set_input_none(ptera_method *method, size_t index);

/* Storage for an unplanned output tensor (at least its nbytes). */
PTERA_API ptera_status ptera_method_set_output_buffer(ptera_method *method, size_t index, void *data,
                                            size_t size);

/* Runs every instruction. Makes no heap allocation. */
PTERA_API ptera_status ptera_method_execute(ptera_method *method);

/* The output value (valid until the next execute or destroy). */
PTERA_API const ptera_value *ptera_method_output(const ptera_method *method, size_t index);
/* The input value as bound. */
PTERA_API const ptera_value *ptera_method_input(const ptera_method *method, size_t index);

#ifdef __cplusplus
}
#endif
#endif
