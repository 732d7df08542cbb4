/* The memory queries: a load run once through a measuring buffer allocator
 * (buffer_alloc.c), reporting the bytes a ptera_buffer_allocator needs for
 * the same load. Everything a load takes goes through its allocator, and the
 * order of requests depends only on the program and the options, so the
 * figure is exact for this build (pointer size included). */
#include "runtime/runtime.h"

ptera_status ptera_program_memory_needed(const void *data, size_t size,
                                         const ptera_load_options *options, size_t *out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = 0;
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  pt_err err = {0};
  if (options) {
    ptera_status st = pt_struct_in(&o, sizeof o, options, PR_LOAD_OPTIONS_V1_SIZE, "ptera_load_options", &err);
    if (st != PTERA_OK) return st;
  }
  ptera_buffer_allocator meas;
  pt_measure_init(&meas, o.allocator);
  o.allocator = &meas.allocator;
  ptera_program *p;
  ptera_status st = ptera_program_load_buffer(data, size, &o, &p);
  ptera_program_destroy(p);
  if (st == PTERA_OK) *out = meas.peak;
  return st;
}

ptera_status ptera_method_memory_needed(ptera_program *program, const char *name,
                                        const ptera_method_options *options, size_t *out) {
  if (!out || !program) return PTERA_INVALID_ARGUMENT;
  *out = 0;
  ptera_method_options o = PTERA_METHOD_OPTIONS_INIT;
  if (options) {
    ptera_status st = pt_struct_in(&o, sizeof o, options, PR_METHOD_OPTIONS_V1_SIZE, "ptera_method_options",
                                   &program->err);
    if (st != PTERA_OK) return st;
  }
  ptera_buffer_allocator meas;
  pt_measure_init(&meas, o.allocator ? o.allocator : program->allocator);
  o.allocator = &meas.allocator;
  ptera_method *m;
  ptera_status st = ptera_method_create(program, name, &o, &m);
  if (st != PTERA_OK)
    pt_fail(&program->err, st, "%s", m ? m->err.msg : "no memory for the method handle itself");
  ptera_method_destroy(m);
  if (st == PTERA_OK) *out = meas.peak;
  return st;
}
