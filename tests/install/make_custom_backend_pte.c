/* Writes the program examples/c_api/custom_backend.c runs: forward(x) =
 * aten::mul.out(ExampleScaleShift(x), c) (self, other, out and the return
 * slot), c = {10, 20, 30}, float[3]
 * tensors, memory-planned (ptera's emitter, compiler/emit_pte.h). The
 * delegate's blob is "SSB1" | n = 3 | key length | "example.shift" | scale
 * {2, 3, -4}; the named data entry "example.shift" holds the shift
 * {0.5, -1, 2}. With --no-shift the named data entry is left out (the
 * backend's init must refuse the program).
 *
 *   make_custom_backend_pte OUT.pte [--no-shift] */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit_util.h"

int main(int argc, char **argv) {
  bool no_shift = argc == 3 && strcmp(argv[2], "--no-shift") == 0;
  if (argc != 2 && !no_shift) {
    fprintf(stderr, "usage: make_custom_backend_pte OUT.pte [--no-shift]\n");
    return 2;
  }
  static const char key[] = "example.shift";
  static const float c[3] = {10.0f, 20.0f, 30.0f}, scale[3] = {2.0f, 3.0f, -4.0f}, shift[3] = {0.5f, -1.0f, 2.0f};
  uint8_t blob[12 + sizeof key - 1 + sizeof scale];
  const uint32_t n = 3, key_len = sizeof key - 1;
  memcpy(blob, "SSB1", 4);
  for (int i = 0; i < 4; i++) {
    blob[4 + i] = (uint8_t)(n >> (8 * i));
    blob[8 + i] = (uint8_t)(key_len >> (8 * i));
  }
  memcpy(blob + 12, key, key_len);
  memcpy(blob + 12 + key_len, scale, sizeof scale); /* float32 LE (a little-endian host) */
  static const int32_t del_args[2] = {0, 1}, mul_args[4] = {1, 2, 3, 3}, in0[1] = {0}, out3[1] = {3};
  static const pc_instr instrs[2] = {{0, del_args, 2, true}, {0, mul_args, 4, false}};
  static const int64_t bufs[1] = {48};
  pc_value values[4] = {eu_f3(PC_STORAGE_PLANNED, NULL, 0), eu_f3(PC_STORAGE_PLANNED, NULL, 16),
                        eu_f3(PC_STORAGE_CONST, c, 0), eu_f3(PC_STORAGE_PLANNED, NULL, 32)};
  pc_operator ops[1] = {{"aten::mul", "out"}};
  pc_delegate delegates[1] = {{"ExampleScaleShift", blob, sizeof blob}};
  pc_method method = {"forward", values, 4, in0, 1, out3, 1, instrs, 2, ops, 1, bufs, 1, delegates, 1};
  pc_named_blob named[1] = {{key, shift, sizeof shift}};
  pc_program prog = {&method, 1, named, no_shift ? 0 : 1};
  size_t size = 0;
  uint8_t *file = eu_emit(&prog, NULL, &size);
  FILE *f = file ? fopen(argv[1], "wb") : NULL;
  int ok = f && fwrite(file, 1, size, f) == size;
  if (f && fclose(f) != 0) ok = 0;
  pt_free(NULL, file);
  if (!ok) fprintf(stderr, "make_custom_backend_pte: cannot write %s\n", argv[1]);
  return ok ? 0 : 1;
}
