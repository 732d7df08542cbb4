/* Writes the program examples/c_api/custom_kernel.c runs: forward(x) =
 * example::mul_add_one(example::mul_add_one(x, c), c), c = {10, 20, 30},
 * float[3] tensors, memory-planned (ptera's emitter, compiler/emit_pte.h).
 *
 *   make_custom_op_pte OUT.pte */
#include <stdio.h>

#include "check.h"
#include "emit_util.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: make_custom_op_pte OUT.pte\n");
    return 2;
  }
  static const float c[3] = {10.0f, 20.0f, 30.0f};
  static const int32_t a1[3] = {0, 1, 2}, a2[3] = {2, 1, 3}, in0[1] = {0}, out3[1] = {3};
  static const pc_instr instrs[2] = {{0, a1, 3, false}, {0, a2, 3, false}};
  static const int64_t bufs[1] = {48};
  pc_value values[4] = {eu_f3(PC_STORAGE_PLANNED, NULL, 0), eu_f3(PC_STORAGE_CONST, c, 0),
                        eu_f3(PC_STORAGE_PLANNED, NULL, 16), eu_f3(PC_STORAGE_PLANNED, NULL, 32)};
  pc_operator ops[1] = {{"example::mul_add_one", "out"}};
  pc_method method = {"forward", values, 4, in0, 1, out3, 1, instrs, 2, ops, 1, bufs, 1, NULL, 0};
  pc_program prog = {&method, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&prog, NULL, &size);
  FILE *f = file ? fopen(argv[1], "wb") : NULL;
  int ok = f && fwrite(file, 1, size, f) == size;
  if (f && fclose(f) != 0) ok = 0;
  pt_free(NULL, file);
  if (!ok) fprintf(stderr, "make_custom_op_pte: cannot write %s\n", argv[1]);
  return ok ? 0 : 1;
}
