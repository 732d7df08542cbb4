/* The inspection API (ptera/inspect.h), the .npy API (ptera/npy.h) and the
 * half/bfloat16 conversions: a program emitted here from a description
 * (constant, mutable, external, planned and unplanned tensors, scalars, a
 * list, kernel and delegate instructions, an XNNPACK blob, named data) read
 * back field by field against that description; a .ptd the same way; sized
 * struct and index errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "emit_ptd.h"
#include "emit_util.h"
#include "emit_xnn.h"
#include "ptera/ptera.h"

static const float k_c[3] = {1, 2, 3}, k_state[3] = {4, 5, 6}, k_b[3] = {0.5f, -0.25f, 2.0f};
static const uint8_t k_named[5] = {9, 8, 7, 6, 5};

/* y = a + b: a external 0, b constant, y external 1 (3 values, 1 node, 2 constant entries). */
static uint8_t *xnn_blob(size_t *size) {
  pc_xnn_value_desc v[3];
  pc_xnn_node_desc n;
  memset(v, 0, sizeof v);
  memset(&n, 0, sizeof n);
  v[0] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 1, .external_id = 0, .ndims = 1, .dims = {3}};
  v[1] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .ndims = 1, .dims = {3}, .data = k_b, .nbytes = sizeof k_b};
  v[2] = (pc_xnn_value_desc){.datatype = PF_XNN_DT_FP32, .flags = 2, .external_id = 1, .ndims = 1, .dims = {3}};
  n.kind = PF_XNN_ADD;
  n.in[0] = 0;
  n.in[1] = 1;
  n.out[0] = 2;
  uint8_t *blob = NULL;
  CHECK(pc_xnn_emit(v, 3, &n, 1, 2, NULL, &blob, size) == PTERA_OK);
  return blob;
}

static void test_program(void) {
  size_t blob_size = 0;
  uint8_t *blob = xnn_blob(&blob_size);
  static const int32_t s23[2] = {2, 3}, items[1] = {4};
  pc_value v[11];
  v[0] = eu_f3(PC_STORAGE_NONE, NULL, 0);
  v[1] = eu_f3(PC_STORAGE_CONST, k_c, 0);
  v[1].u.tensor.fqn = "c";
  v[2] = eu_f3(PC_STORAGE_PLANNED, k_state, 0);
  v[3] = eu_f3(PC_STORAGE_CONST, NULL, 0);
  v[3].u.tensor.fqn = "w.ext";
  v[3].u.tensor.external = true;
  v[3].u.tensor.nbytes = 0;
  v[4] = eu_int(7);
  v[5] = (pc_value){.kind = PC_VAL_DOUBLE, .u.d = 2.5};
  v[6] = (pc_value){.kind = PC_VAL_BOOL, .u.b = true};
  v[7] = (pc_value){.kind = PC_VAL_STRING, .u.str = "hi"};
  v[8] = (pc_value){.kind = PC_VAL_INT_LIST, .u.list = {items, 1}};
  v[9] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  v[10] = eu_tensor_f(PC_STORAGE_PLANNED, 2, s23);
  v[10].u.tensor.memory_id = 2;
  v[10].u.tensor.memory_offset = 8;
  v[10].u.tensor.has_dim_order = true;
  v[10].u.tensor.dim_order[0] = 1;
  v[10].u.tensor.dim_order[1] = 0;
  static const int32_t add_args[3] = {0, 1, 9}, del_args[2] = {0, 9}, mul_args[3] = {9, 4, 10};
  static const int32_t inputs[2] = {0, 4}, outputs[1] = {9};
  const pc_instr instrs[3] = {{0, add_args, 3, false}, {0, del_args, 2, true}, {1, mul_args, 3, false}};
  const pc_operator ops[2] = {{"aten::add", "out"}, {"aten::mul", NULL}};
  const pc_delegate dels[1] = {{"XnnpackBackend", blob, blob_size}};
  static const int64_t bufs[2] = {32, 40};
  const pc_method method = {"forward", v, 11, inputs, 2, outputs, 1, instrs, 3, ops, 2, bufs, 2, dels, 1};
  const pc_named_blob named[1] = {{"blob.key", k_named, sizeof k_named}};
  const pc_program desc = {&method, 1, named, 1};
  size_t size = 0;
  uint8_t *file = eu_emit(&desc, NULL, &size);
  ptera_program *p = file ? eu_load(file, size) : NULL;
  if (!p) {
    pt_free(NULL, file);
    pt_free(NULL, blob);
    return;
  }

  ptera_program_info pi = PTERA_PROGRAM_INFO_INIT;
  CHECK(ptera_program_get_info(p, &pi) == PTERA_OK);
  CHECK(pi.file_size == size && pi.has_extended_header && pi.num_methods == 1 && pi.num_named_data == 1);
  /* [constants, mutable, the delegate blob, the named blob] */
  CHECK(pi.num_segments == 4 && pi.has_constant_segment && pi.constant_segment == 0 &&
        pi.num_constant_entries == 2 && pi.num_legacy_constants == 0);
  CHECK(pi.has_mutable_data && pi.mutable_data_segment == 1 && pi.num_mutable_entries == 2);
  CHECK(pi.segment_base_offset + pi.segment_data_size == size);
  ptera_segment_info seg = PTERA_SEGMENT_INFO_INIT;
  CHECK(ptera_program_segment(p, 2, &seg) == PTERA_OK && seg.size == blob_size);
  CHECK(ptera_program_segment(p, 4, &seg) == PTERA_INVALID_ARGUMENT);
  ptera_named_data_info nd = PTERA_NAMED_DATA_INFO_INIT;
  CHECK(ptera_program_named_data_entry(p, 0, &nd) == PTERA_OK);
  CHECK(nd.key_len == 8 && strcmp(nd.key, "blob.key") == 0 && nd.segment == 3 && nd.has_segment &&
        nd.nbytes == sizeof k_named);

  ptera_method_info mi = PTERA_METHOD_INFO_INIT;
  CHECK(ptera_program_method_info(p, "forward", &mi) == PTERA_OK);
  CHECK(mi.name_len == 7 && mi.num_values == 11 && mi.num_instructions == 3 && mi.num_operators == 2 &&
        mi.num_delegates == 1);
  ptera_io_info io = PTERA_IO_INFO_INIT;
  CHECK(ptera_program_method_input(p, "forward", 1, &io) == PTERA_OK && io.value_index == 4);
  CHECK(ptera_program_method_output(p, "forward", 0, &io) == PTERA_OK && io.value_index == 9);

  ptera_value_info vi = PTERA_VALUE_INFO_INIT;
  CHECK(ptera_program_method_value(p, "forward", 0, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_TENSOR && vi.is_input && !vi.is_output && vi.dtype == PTERA_DTYPE_FLOAT &&
        vi.dim == 1 && vi.sizes[0] == 3 && vi.nbytes == 12 && !vi.planned && vi.data == PTERA_DATA_NONE &&
        !vi.key);
  CHECK(ptera_program_method_value(p, "forward", 1, &vi) == PTERA_OK);
  CHECK(vi.data == PTERA_DATA_CONSTANT && vi.data_index == 1 && !vi.planned && vi.key_len == 1 &&
        strcmp(vi.key, "c") == 0);
  CHECK(ptera_program_method_value(p, "forward", 2, &vi) == PTERA_OK);
  CHECK(vi.data == PTERA_DATA_MUTABLE && vi.data_index == 1 && vi.planned && vi.memory_id == 1 &&
        vi.memory_offset == 0);
  CHECK(ptera_program_method_value(p, "forward", 3, &vi) == PTERA_OK);
  CHECK(vi.data == PTERA_DATA_EXTERNAL && !vi.planned && vi.key_len == 5 && strcmp(vi.key, "w.ext") == 0);
  CHECK(ptera_program_method_value(p, "forward", 4, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_INT && vi.int_value == 7 && vi.is_input);
  CHECK(ptera_program_method_value(p, "forward", 5, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_DOUBLE && vi.double_value == 2.5);
  CHECK(ptera_program_method_value(p, "forward", 6, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_BOOL && vi.bool_value);
  CHECK(ptera_program_method_value(p, "forward", 7, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_STRING && vi.string_len == 2 && memcmp(vi.string, "hi", 2) == 0);
  CHECK(ptera_program_method_value(p, "forward", 8, &vi) == PTERA_OK);
  CHECK(vi.tag == PTERA_TAG_LIST_INT && vi.list_len == 1);
  CHECK(ptera_program_method_value(p, "forward", 9, &vi) == PTERA_OK);
  CHECK(vi.is_output && !vi.is_input && vi.planned && vi.memory_id == 1 && vi.memory_offset == 16);
  CHECK(ptera_program_method_value(p, "forward", 10, &vi) == PTERA_OK);
  CHECK(vi.dim == 2 && vi.sizes[0] == 2 && vi.sizes[1] == 3 && vi.dim_order[0] == 1 && vi.dim_order[1] == 0 &&
        vi.nbytes == 24 && vi.memory_id == 2 && vi.memory_offset == 8);
  CHECK(ptera_program_method_value(p, "forward", 11, &vi) == PTERA_INVALID_ARGUMENT);

  ptera_instruction_info in = PTERA_INSTRUCTION_INFO_INIT;
  CHECK(ptera_program_method_instruction(p, "forward", 0, &in) == PTERA_OK);
  CHECK(in.kind == PTERA_INSTRUCTION_KERNEL && in.chain == 0 && in.operator_index == 0 && in.num_args == 3);
  CHECK(ptera_program_method_instruction(p, "forward", 1, &in) == PTERA_OK);
  CHECK(in.kind == PTERA_INSTRUCTION_DELEGATE && in.delegate_index == 0 && in.num_args == 2);
  CHECK(ptera_program_method_instruction(p, "forward", 2, &in) == PTERA_OK);
  CHECK(in.kind == PTERA_INSTRUCTION_KERNEL && in.operator_index == 1);
  CHECK(ptera_program_method_instruction(p, "forward", 3, &in) == PTERA_INVALID_ARGUMENT);

  ptera_operator_info op = PTERA_OPERATOR_INFO_INIT;
  CHECK(ptera_program_method_operator_info(p, "forward", 0, &op) == PTERA_OK);
  CHECK(op.name_len == 9 && strcmp(op.name, "aten::add") == 0 && op.overload_len == 3 &&
        strcmp(op.overload, "out") == 0);
  CHECK(ptera_program_method_operator_info(p, "forward", 1, &op) == PTERA_OK);
  CHECK(strcmp(op.name, "aten::mul") == 0 && op.overload_len == 0 && strcmp(op.overload, "") == 0);

  ptera_delegate_info d = PTERA_DELEGATE_INFO_INIT;
  CHECK(ptera_program_method_delegate_info(p, "forward", 0, &d) == PTERA_OK);
  CHECK(d.id_len == 14 && strcmp(d.id, "XnnpackBackend") == 0 && d.location == PTERA_DELEGATE_SEGMENT &&
        d.index == 2 && d.num_compile_specs == 0 && d.has_blob && d.blob_size == blob_size);
  const void *bytes = NULL;
  size_t nbytes = 0;
  CHECK(ptera_program_method_delegate_blob(p, "forward", 0, &bytes, &nbytes) == PTERA_OK);
  CHECK(nbytes == blob_size && bytes && memcmp(bytes, blob, blob_size) == 0);
  ptera_xnnpack_graph_info g = PTERA_XNNPACK_GRAPH_INFO_INIT;
  char msg[PTERA_ERRMSG_SIZE];
  CHECK(ptera_xnnpack_graph_describe(bytes, nbytes, NULL, &g, msg, sizeof msg) == PTERA_OK && msg[0] == '\0');
  CHECK(strcmp(g.identifier, "XN01") == 0 && g.has_header && g.num_nodes == 1 && g.num_values == 3 &&
        g.num_inputs == 1 && g.num_outputs == 1 && g.num_constants == 2);
  CHECK(ptera_xnnpack_graph_describe(bytes, nbytes / 2, NULL, &g, msg, sizeof msg) != PTERA_OK && msg[0]);

  /* Errors: unknown method (with a message), sized structs, NULLs. */
  CHECK(ptera_program_method_value(p, "nope", 0, &vi) == PTERA_NOT_FOUND &&
        strstr(ptera_program_errmsg(p), "nope"));
  ptera_value_info zero = {0};
  CHECK(ptera_program_method_value(p, "forward", 0, &zero) == PTERA_INVALID_ARGUMENT);
  ptera_program_info pzero = {0};
  CHECK(ptera_program_get_info(p, &pzero) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_program_get_info(NULL, &pi) == PTERA_INVALID_ARGUMENT);
  CHECK(ptera_program_method_delegate_blob(p, "forward", 1, &bytes, &nbytes) == PTERA_INVALID_ARGUMENT);
  /* A caller compiled against the first ptera_method_info gets it, and no more. */
  struct { ptera_method_info m; size_t guard; } v1;
  memset(&v1, 0x5a, sizeof v1);
  v1.m.struct_size = offsetof(ptera_method_info, name_len);
  CHECK(ptera_program_method_info(p, "forward", &v1.m) == PTERA_OK && v1.m.num_values == 11);
  size_t pattern;
  memset(&pattern, 0x5a, sizeof pattern);
  CHECK(memcmp(&v1.m.name_len, &pattern, sizeof pattern) == 0);

  ptera_program_destroy(p);
  pt_free(NULL, file);
  pt_free(NULL, blob);
}

static void test_datafile(void) {
  static const float w[6] = {1, 2, 3, 4, 5, 6};
  static const int32_t sizes[2] = {3, 2};
  static const uint8_t order[2] = {1, 0};
  const pc_ptd_entry entries[2] = {{"w.ext", w, 12, PTERA_DTYPE_FLOAT, 1, sizes + 0, NULL},
                                   {"m", w, 24, PTERA_DTYPE_FLOAT, 2, sizes, order}};
  uint8_t *file = NULL;
  size_t size = 0;
  pt_err err;
  pt_err_clear(&err);
  CHECK(pc_emit_ptd(entries, 2, NULL, &file, &size, &err) == PTERA_OK);
  ptera_datafile *d = NULL;
  CHECK(ptera_datafile_load_buffer(file, size, NULL, &d) == PTERA_OK);
  ptera_datafile_info info = PTERA_DATAFILE_INFO_INIT;
  CHECK(ptera_datafile_get_info(d, &info) == PTERA_OK);
  CHECK(info.file_size == size && !info.legacy && info.num_entries == 2 &&
        info.segment_base_offset + info.segment_data_size == size);
  for (size_t i = 0; i < 2; i++) {
    ptera_datafile_entry e = PTERA_DATAFILE_ENTRY_INIT;
    CHECK(ptera_datafile_get_entry(d, i, &e) == PTERA_OK);
    CHECK(e.key_len == strlen(entries[i].key) && strcmp(e.key, entries[i].key) == 0);
    CHECK(e.nbytes == entries[i].nbytes && e.offset + e.nbytes <= size &&
          memcmp(file + e.offset, w, e.nbytes) == 0);
    CHECK(e.has_layout && e.dtype == PTERA_DTYPE_FLOAT && e.dim == entries[i].dim && e.sizes[0] == 3);
    /* a power of two dividing the offset, and the largest up to 4096 */
    CHECK((e.alignment & (e.alignment - 1)) == 0 && e.offset % e.alignment == 0 &&
          (e.alignment == 4096 || e.offset % (2u * e.alignment) != 0) && e.alignment >= 16);
    if (i == 1) CHECK(e.sizes[1] == 2 && e.dim_order[0] == 1 && e.dim_order[1] == 0);
  }
  ptera_datafile_entry e = PTERA_DATAFILE_ENTRY_INIT;
  CHECK(ptera_datafile_get_entry(d, 2, &e) == PTERA_INVALID_ARGUMENT);
  ptera_datafile_destroy(d);
  /* A bad file: a handle with a message, and queries refused. */
  uint8_t junk[64];
  memset(junk, 0x41, sizeof junk);
  d = NULL;
  CHECK(ptera_datafile_load_buffer(junk, sizeof junk, NULL, &d) != PTERA_OK && d &&
        ptera_datafile_errmsg(d)[0]);
  CHECK(ptera_datafile_get_info(d, &info) == PTERA_INVALID_STATE);
  ptera_datafile_destroy(d);
  pt_free(NULL, file);
}

static void test_npy(void) {
  static const int32_t sizes[2] = {2, 3};
  uint8_t buf[128 + 24];
  size_t h = ptera_npy_write_header(ptera_dtype_npy_descr(PTERA_DTYPE_FLOAT), 2, sizes, buf, 128);
  CHECK(h == 64 || h == 128);
  /* numpy's own header for a (2, 3) float32 array, version 1.0 */
  static const char want[] = "\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(memcmp(buf, want, sizeof want - 1) == 0 && buf[h - 1] == '\n');
  static const float x[6] = {1, -2, 3.5f, 0, 5, 6};
  memcpy(buf + h, x, sizeof x);
  ptera_npy_info n = PTERA_NPY_INFO_INIT;
  char msg[PTERA_ERRMSG_SIZE];
  CHECK(ptera_npy_parse(buf, h + sizeof x, &n, msg, sizeof msg) == PTERA_OK);
  CHECK(strcmp(n.descr, "<f4") == 0 && n.dtype == PTERA_DTYPE_FLOAT && n.item_size == 4 && n.dim == 2 &&
        n.sizes[0] == 2 && n.sizes[1] == 3 && !n.fortran_order && n.numel == 6 && n.nbytes == 24 &&
        memcmp(n.data, x, sizeof x) == 0);
  CHECK(ptera_npy_parse(buf, h + 20, &n, msg, sizeof msg) == PTERA_INVALID_ARGUMENT && msg[0]);
  CHECK(strcmp(ptera_dtype_npy_descr(PTERA_DTYPE_BFLOAT16), "<u2") == 0 && !ptera_dtype_npy_descr(99));
  CHECK(ptera_npy_write_header("<f4", 2, sizes, buf, 32) == 0);
}

static void test_half(void) {
  CHECK(ptera_float_to_half(1.0f) == 0x3c00 && ptera_float_to_half(-2.0f) == 0xc000);
  CHECK(ptera_float_to_half(65504.0f) == 0x7bff && ptera_float_to_half(1e6f) == 0x7c00);
  CHECK(ptera_half_to_float(0x3555) == 0.333251953125f && ptera_half_to_float(0x0001) == ldexpf(1, -24));
  CHECK(isnan(ptera_half_to_float(0x7e00)));
  CHECK(ptera_float_to_bfloat16(1.0f) == 0x3f80 && ptera_bfloat16_to_float(0xc040) == -3.0f);
  /* 1 + 2^-8 lies halfway between two bfloat16 values: to even (1.0) */
  CHECK(ptera_float_to_bfloat16(1.00390625f) == 0x3f80 && ptera_float_to_bfloat16(1.01171875f) == 0x3f82);
}

int main(void) {
  test_program();
  test_datafile();
  test_npy();
  test_half();
  return check_summary("inspect_api");
}
