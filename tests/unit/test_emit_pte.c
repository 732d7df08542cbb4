/* The AOT emitter: the generic FlatBuffers builder (compiler/fbb.h) read back
 * with our verifying reader, and .pte files written by pc_emit_pte parsed by
 * pf_pte_parse and run through the public API. Expected outputs are computed
 * by hand (y = x + c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_pte.h"
#include "emit_util.h"
#include "fbb.h"
#include "check.h"
#include "format/flatbuf.h"
#include "format/pte.h"
#include "ptera/ptera.h"

/* ---- (a) fbb round trips ---- */

static void test_fbb_roundtrip(void) {
  pc_fbb b;
  pc_fbb_init(&b, &eu_tracking);
  eu_live = eu_calls = eu_fail_at = 0;

  pc_fbb_ref s = pc_fbb_cstring(&b, "hello");
  int32_t ints[3] = {7, -8, 9};
  pc_fbb_ref vi = pc_fbb_vec_scalars(&b, ints, 3, 4, 0);
  uint8_t blob[5] = {1, 2, 3, 4, 5};
  pc_fbb_ref vb = pc_fbb_vec_scalars(&b, blob, 5, 1, 16);
  double ds[2] = {0.5, -2.25};
  pc_fbb_ref vd = pc_fbb_vec_scalars(&b, ds, 2, 8, 0);
  /* Two child tables, one used as a union member, one in a vector. */
  pc_fbb_table_start(&b);
  pc_fbb_add_i64(&b, 0, -123456789012345ll);
  pc_fbb_ref child1 = pc_fbb_table_end(&b);
  pc_fbb_table_start(&b);
  pc_fbb_add_i64(&b, 0, 42);
  pc_fbb_ref child2 = pc_fbb_table_end(&b);
  pc_fbb_push(&b, child1);
  pc_fbb_push(&b, child2);
  pc_fbb_ref vt = pc_fbb_vec_stack(&b, 2);
  pc_fbb_ref empty = pc_fbb_vec_refs(&b, NULL, 0);

  pc_fbb_table_start(&b);
  pc_fbb_add_u8(&b, 0, 200);
  pc_fbb_add_i16(&b, 1, -300);
  pc_fbb_add_u32(&b, 2, 0xdeadbeefu);
  pc_fbb_add_i64(&b, 3, -5);
  pc_fbb_add_f32(&b, 4, 1.5f);
  pc_fbb_add_f64(&b, 5, 3.25);
  pc_fbb_add_bool(&b, 6, true);
  pc_fbb_add_ref(&b, 7, s);
  pc_fbb_add_ref(&b, 8, vi);
  pc_fbb_add_ref(&b, 9, vb);
  pc_fbb_add_ref(&b, 10, vd);
  pc_fbb_add_ref(&b, 11, vt);
  pc_fbb_add_union(&b, 12, 3, child1);
  /* id 14 skipped: absent */
  pc_fbb_add_ref(&b, 15, empty);
  pc_fbb_add_i8(&b, 17, -1);
  pc_fbb_ref root = pc_fbb_table_end(&b);
  CHECK(pc_fbb_finish(&b, root, "TEST") == PTERA_OK);
  size_t size;
  const uint8_t *buf = pc_fbb_data(&b, &size);
  CHECK(buf != NULL && size % 16 == 0 && ((uintptr_t)buf & 15) == 0);
  if (!buf) {
    pc_fbb_release(&b);
    return;
  }

  pf_fb fb;
  pf_fb_table t;
  CHECK(pf_fb_init(&fb, buf, size));
  CHECK(pf_fb_has_ident(buf, size, "TEST"));
  CHECK(pf_fb_root(&fb, &t) && t.present);
  uint8_t u8; int16_t i16; uint32_t u32; int64_t i64; float f32; double f64; bool bl; int8_t i8;
  CHECK(pf_fb_u8(&fb, &t, 0, 0, &u8) && u8 == 200);
  CHECK(pf_fb_i16(&fb, &t, 1, 0, &i16) && i16 == -300);
  CHECK(pf_fb_u32(&fb, &t, 2, 0, &u32) && u32 == 0xdeadbeefu);
  CHECK(pf_fb_i64(&fb, &t, 3, 0, &i64) && i64 == -5);
  CHECK(pf_fb_f32(&fb, &t, 4, 0, &f32) && f32 == 1.5f);
  CHECK(pf_fb_f64(&fb, &t, 5, 0, &f64) && f64 == 3.25);
  CHECK(pf_fb_bool(&fb, &t, 6, false, &bl) && bl);
  CHECK(pf_fb_i8(&fb, &t, 17, 0, &i8) && i8 == -1);
  CHECK(!pf_fb_has_field(&fb, &t, 14) && !pf_fb_has_field(&fb, &t, 16) &&
        !pf_fb_has_field(&fb, &t, 40));
  CHECK(pf_fb_u32(&fb, &t, 14, 77, &u32) && u32 == 77);
  pf_fb_str str;
  CHECK(pf_fb_str_field(&fb, &t, 7, &str) && str.ptr && str.len == 5 && !strcmp(str.ptr, "hello"));
  pf_fb_vec v;
  CHECK(pf_fb_vec_field(&fb, &t, 8, 4, &v) && v.count == 3 && v.data % 4 == 0);
  CHECK(pf_fb_vec_i32(&fb, &v, 0) == 7 && pf_fb_vec_i32(&fb, &v, 1) == -8 &&
        pf_fb_vec_i32(&fb, &v, 2) == 9);
  CHECK(pf_fb_vec_field(&fb, &t, 9, 1, &v) && v.count == 5 && v.data % 16 == 0);
  const uint8_t *bd = pf_fb_vec_data(&fb, &v);
  CHECK(bd && memcmp(bd, blob, 5) == 0);
  CHECK(pf_fb_vec_field(&fb, &t, 10, 8, &v) && v.count == 2 && v.data % 8 == 0);
  CHECK(pf_fb_vec_f64(&fb, &v, 0) == 0.5 && pf_fb_vec_f64(&fb, &v, 1) == -2.25);
  CHECK(pf_fb_vec_field(&fb, &t, 11, 4, &v) && v.count == 2);
  pf_fb_table c;
  CHECK(pf_fb_vec_table(&fb, &v, 1, &c) && pf_fb_i64(&fb, &c, 0, 0, &i64) && i64 == 42);
  CHECK(pf_fb_vec_table(&fb, &v, 0, &c) && pf_fb_i64(&fb, &c, 0, 0, &i64) &&
        i64 == -123456789012345ll);
  uint8_t code = 0;
  CHECK(pf_fb_union_field(&fb, &t, 12, 5, &code, &c) && code == 3 && c.present);
  CHECK(pf_fb_i64(&fb, &c, 0, 0, &i64) && i64 == -123456789012345ll);
  CHECK(pf_fb_vec_field(&fb, &t, 15, 4, &v) && v.present && v.count == 0);

  /* Building after finish is refused. */
  CHECK(pc_fbb_cstring(&b, "x") == 0 && pc_fbb_status(&b) == PTERA_INVALID_STATE);
  pc_fbb_release(&b);
  CHECK(eu_live == 0);

  /* Misuse: fields outside a table, duplicate ids, nested tables, bad refs. */
  pc_fbb_init(&b, NULL);
  pc_fbb_add_u32(&b, 0, 1);
  CHECK(pc_fbb_status(&b) == PTERA_INVALID_STATE);
  pc_fbb_release(&b);
  pc_fbb_table_start(&b);
  pc_fbb_add_u32(&b, 1, 1);
  pc_fbb_add_u8(&b, 1, 1);
  CHECK(pc_fbb_status(&b) == PTERA_INVALID_ARGUMENT && pc_fbb_table_end(&b) == 0);
  CHECK(pc_fbb_finish(&b, 4, NULL) == PTERA_INVALID_ARGUMENT && pc_fbb_data(&b, &size) == NULL);
  pc_fbb_release(&b);
  pc_fbb_table_start(&b);
  CHECK(pc_fbb_cstring(&b, "x") == 0 && pc_fbb_status(&b) == PTERA_INVALID_STATE);
  pc_fbb_release(&b);
  CHECK(pc_fbb_vec_refs(&b, (const pc_fbb_ref[]){1000}, 1) == 0 &&
        pc_fbb_status(&b) == PTERA_INVALID_ARGUMENT);
  pc_fbb_release(&b);
  CHECK(pc_fbb_vec_stack(&b, 1) == 0 && pc_fbb_status(&b) == PTERA_INVALID_STATE);
  pc_fbb_release(&b);

  /* An empty table as root, no identifier; a large buffer that grows. */
  pc_fbb_table_start(&b);
  root = pc_fbb_table_end(&b);
  CHECK(pc_fbb_finish(&b, root, NULL) == PTERA_OK);
  buf = pc_fbb_data(&b, &size);
  CHECK(buf && pf_fb_init(&fb, buf, size) && pf_fb_root(&fb, &t) && t.vt_size == 4);
  pc_fbb_release(&b);
  for (int k = 0; k < 2000; k++) pc_fbb_push(&b, pc_fbb_cstring(&b, "some string of text"));
  root = pc_fbb_vec_stack(&b, 2000);
  pc_fbb_table_start(&b);
  pc_fbb_add_ref(&b, 0, root);
  root = pc_fbb_table_end(&b);
  CHECK(pc_fbb_finish(&b, root, "BIGG") == PTERA_OK);
  buf = pc_fbb_data(&b, &size);
  CHECK(buf && pf_fb_init(&fb, buf, size) && pf_fb_root(&fb, &t));
  CHECK(pf_fb_vec_field(&fb, &t, 0, 4, &v) && v.count == 2000);
  CHECK(pf_fb_vec_str(&fb, &v, 1999, &str) && !strcmp(str.ptr, "some string of text"));
  pc_fbb_release(&b);
}

/* ---- programs ---- */

static const float C1[3] = {10.0f, 20.0f, 30.0f};
static const float C1_COPY[3] = {10.0f, 20.0f, 30.0f};
static const pc_operator ADD_OPS[1] = {{"aten::add", "out"}};

/* forward(x) = x + c: values 0 x (planned 1@0), 1 c (const), 2 alpha, 3 out (planned 1@16). */
static pc_value add_values[4];
static const int32_t add_args[5] = {0, 1, 2, 3, 3};
static const pc_instr add_instrs[1] = {{0, add_args, 5, false}};
static const int32_t in0[1] = {0}, out3[1] = {3};
static const int64_t add_bufs[1] = {32};
static pc_method add_method;
static pc_program add_program;

static void make_add_program(void) {
  add_values[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  add_values[1] = eu_f3(PC_STORAGE_CONST, C1, 0);
  add_values[2] = eu_int(1);
  add_values[3] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  memset(&add_method, 0, sizeof add_method);
  add_method = (pc_method){"forward", add_values, 4, in0, 1, out3, 1, add_instrs, 1, ADD_OPS, 1,
                           add_bufs, 1, NULL, 0};
  add_program = (pc_program){&add_method, 1, NULL, 0};
}

/* Loads through the public API, runs with x and checks y == want. */
static void run_f3(const uint8_t *file, size_t size, const float *x, const float *want) {
  ptera_program *prog = eu_load(file, size);
  if (prog) eu_run_x(prog, x, want[0], want[1], want[2]);
  ptera_program_destroy(prog);
}

static void test_add_program(void) {
  make_add_program();
  size_t size = 0;
  uint8_t *file = eu_emit(&add_program, NULL, &size);
  if (!file) return;
  CHECK(pf_pte_identify(file, size) == 1);
  CHECK(memcmp(file + 4, "ET12", 4) == 0 && memcmp(file + 8, "eh00", 4) == 0);

  pt_err err;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  if (eu_parse(file, size, &arena, &pte)) {
    CHECK(pte.has_header && pte.header_length == 32);
    CHECK(pte.segment_base % 128 == 0 && pte.segment_base >= pte.program_size);
    CHECK(pte.segment_data_size == 12 && pte.file_size == pte.segment_base + 12);
    CHECK(pte.nsegments == 1 && pte.segments[0].offset == 0 && pte.segments[0].size == 12);
    CHECK(pte.constant_segment.present && pte.constant_segment.segment_index == 0);
    CHECK(pte.constant_segment.noffsets == 2 && pte.constant_segment.offsets[0] == 0 &&
          pte.constant_segment.offsets[1] == 0);
    CHECK(pte.nplans == 1);
    const pf_plan *pl = &pte.plans[0];
    CHECK(pl->name.len == 7 && !strcmp(pl->name.ptr, "forward"));
    CHECK(pl->nvalues == 4 && pl->ninputs == 1 && pl->inputs[0] == 0 && pl->noutputs == 1 &&
          pl->outputs[0] == 3);
    CHECK(pl->nbuffer_sizes == 2 && pl->buffer_sizes[0] == 0 && pl->buffer_sizes[1] == 32);
    CHECK(pl->nops == 1 && !strcmp(pl->ops[0].name.ptr, "aten::add") &&
          !strcmp(pl->ops[0].overload.ptr, "out"));
    CHECK(pl->nchains == 1 && pl->chains[0].ninstrs == 1);
    const pf_instr *in = &pl->chains[0].instrs[0];
    CHECK(in->type == PF_INSTR_KERNEL && in->a == 0 && in->nargs == 5 && in->args[0] == 0 &&
          in->args[1] == 1 && in->args[2] == 2 && in->args[3] == 3 && in->args[4] == 3);
    CHECK(pl->values[0].type == PF_VAL_TENSOR && pl->values[0].u.tensor->has_allocation &&
          pl->values[0].u.tensor->memory_id == 1 && pl->values[0].u.tensor->memory_offset == 0);
    const pf_tensor *ct = pl->values[1].u.tensor;
    CHECK(pl->values[1].type == PF_VAL_TENSOR && !ct->has_allocation && ct->data_buffer_idx == 1 &&
          ct->scalar_type == PTERA_DTYPE_FLOAT && ct->dim == 1 && ct->sizes[0] == 3 &&
          ct->dim_order[0] == 0 && ct->nbytes == 12);
    const uint8_t *cd = NULL;
    CHECK(pf_pte_constant(&pte, 1, 12, &cd, &err) == PTERA_OK && cd &&
          memcmp(cd, C1, 12) == 0 && ((uintptr_t)cd & 15) == 0);
    CHECK(pl->values[2].type == PF_VAL_INT && pl->values[2].u.i == 1);
    CHECK(pl->values[3].type == PF_VAL_TENSOR && pl->values[3].u.tensor->memory_offset == 16);
  }
  pt_arena_release(&arena);

  const float x[3] = {1.5f, -2.0f, 0.25f};
  const float want[3] = {11.5f, 18.0f, 30.25f};
  run_f3(file, size, x, want);
  pt_free(NULL, file);

  /* A description error is reported, nothing is returned. */
  pc_instr bad = {1, add_args, 5, false};
  add_method.instrs = &bad;
  file = (uint8_t *)1;
  CHECK(pc_emit_pte(&add_program, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT &&
        file == NULL && size == 0 && strstr(err.msg, "op index"));
  add_method.instrs = add_instrs;
  add_values[1].u.tensor.nbytes = 8;
  CHECK(pc_emit_pte(&add_program, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT);
  add_values[1].u.tensor.nbytes = 12;
  add_values[3].u.tensor.memory_offset = 24;
  CHECK(pc_emit_pte(&add_program, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT &&
        strstr(err.msg, "arena"));
  add_values[3].u.tensor.memory_offset = 16;
}

/* forward(x) = (x + c1) + c2 with c1 == c2 by content (different pointers),
 * plus a third, different constant value that no instruction uses. */
static void test_dedup(void) {
  static const float C3[3] = {1.0f, 2.0f, 3.0f};
  pc_value vals[7];
  vals[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  vals[1] = eu_f3(PC_STORAGE_CONST, C1, 0);
  vals[2] = eu_int(1);
  vals[3] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  vals[4] = eu_f3(PC_STORAGE_CONST, C1_COPY, 0);
  vals[5] = eu_f3(PC_STORAGE_PLANNED, NULL, 32);
  vals[6] = eu_f3(PC_STORAGE_CONST, C3, 0);
  const int32_t a1[5] = {0, 1, 2, 3, 3}, a2[5] = {3, 4, 2, 5, 5}, outs[1] = {5};
  const pc_instr instrs[2] = {{0, a1, 5, false}, {0, a2, 5, false}};
  const int64_t bufs[1] = {48};
  pc_method m = {"forward", vals, 7, in0, 1, outs, 1, instrs, 2, ADD_OPS, 1, bufs, 1, NULL, 0};
  pc_program p = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&p, NULL, &size);
  if (!file) return;
  pt_err err;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  if (eu_parse(file, size, &arena, &pte) && pte.nplans == 1) {
    const pf_plan *pl = &pte.plans[0];
    CHECK(pte.constant_segment.noffsets == 3 && pte.constant_segment.offsets[1] == 0 &&
          pte.constant_segment.offsets[2] == 16);
    CHECK(pte.segments[0].size == 28);
    CHECK(pl->values[1].u.tensor->data_buffer_idx == 1 && pl->values[4].u.tensor->data_buffer_idx == 1 &&
          pl->values[6].u.tensor->data_buffer_idx == 2);
    const uint8_t *cd = NULL;
    CHECK(pf_pte_constant(&pte, 2, 12, &cd, &err) == PTERA_OK && cd && memcmp(cd, C3, 12) == 0);
  }
  pt_arena_release(&arena);
  const float x[3] = {1.0f, 2.0f, 3.0f};
  const float want[3] = {21.0f, 42.0f, 63.0f};
  run_f3(file, size, x, want);
  pt_free(NULL, file);
}

/* forward(x) = x + x: no constants, hence no extended header. */
static void test_no_constants(void) {
  pc_value vals[3];
  vals[0] = eu_f3(PC_STORAGE_PLANNED, NULL, 0);
  vals[1] = eu_int(1);
  vals[2] = eu_f3(PC_STORAGE_PLANNED, NULL, 16);
  const int32_t args[5] = {0, 0, 1, 2, 2}, outs[1] = {2};
  const pc_instr instrs[1] = {{0, args, 5, false}};
  const int64_t bufs[1] = {32};
  pc_method m = {"forward", vals, 3, in0, 1, outs, 1, instrs, 1, ADD_OPS, 1, bufs, 1, NULL, 0};
  pc_program p = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&p, NULL, &size);
  if (!file) return;
  CHECK(size >= 64 && memcmp(file + 4, "ET12", 4) == 0 && memcmp(file + 8, "eh00", 4) != 0);
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  eu_parse(file, size, &arena, &pte);
  CHECK(!pte.has_header && pte.segment_base == 0 && pte.program_size == size);
  CHECK(pte.constant_segment.noffsets == 1);
  pt_arena_release(&arena);
  const float x[3] = {1.0f, -2.0f, 0.5f};
  const float want[3] = {2.0f, -4.0f, 1.0f};
  run_f3(file, size, x, want);
  pt_free(NULL, file);
}

/* Every value kind round-trips through the parser. */
static void test_value_kinds(void) {
  static const double dl[2] = {1.5, -0.5};
  static const bool bl[3] = {true, false, true};
  static const int32_t il[2] = {1, 2}, tl[2] = {6, 7};
  pc_value vals[10];
  memset(vals, 0, sizeof vals);
  vals[0].kind = PC_VAL_NULL;
  vals[1] = eu_int(-7);
  vals[2] = eu_int(9);
  vals[3].kind = PC_VAL_BOOL, vals[3].u.b = true;
  vals[4].kind = PC_VAL_DOUBLE, vals[4].u.d = 2.5;
  vals[5].kind = PC_VAL_STRING, vals[5].u.str = "mean";
  vals[6] = eu_f3(PC_STORAGE_NONE, NULL, 0);
  vals[7] = eu_f3(PC_STORAGE_NONE, NULL, 0);
  vals[7].u.tensor.scalar_type = PTERA_DTYPE_LONG;
  vals[7].u.tensor.dim = 2, vals[7].u.tensor.sizes[1] = 4;
  vals[7].u.tensor.has_dim_order = true;
  vals[7].u.tensor.dim_order[0] = 1, vals[7].u.tensor.dim_order[1] = 0;
  vals[7].u.tensor.dynamism = PTERA_SHAPE_DYNAMIC_BOUND;
  vals[8].kind = PC_VAL_INT_LIST, vals[8].u.list.items = il, vals[8].u.list.len = 2;
  vals[9].kind = PC_VAL_TENSOR_LIST, vals[9].u.list.items = tl, vals[9].u.list.len = 2;
  pc_value more[2];
  memset(more, 0, sizeof more);
  more[0].kind = PC_VAL_DOUBLE_LIST, more[0].u.doubles.items = dl, more[0].u.doubles.len = 2;
  more[1].kind = PC_VAL_BOOL_LIST, more[1].u.bools.items = bl, more[1].u.bools.len = 3;
  pc_value all[12];
  memcpy(all, vals, sizeof vals);
  memcpy(all + 10, more, sizeof more);
  const int32_t outs[1] = {6};
  pc_method m = {"kinds", all, 12, NULL, 0, outs, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
  pc_program p = {&m, 1, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&p, NULL, &size);
  if (!file) return;
  pt_err err;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  if (eu_parse(file, size, &arena, &pte) && pte.nplans == 1 && pte.plans[0].nvalues == 12) {
    const pf_value *v = pte.plans[0].values;
    CHECK(v[0].type == PF_VAL_NULL);
    CHECK(v[1].type == PF_VAL_INT && v[1].u.i == -7);
    CHECK(v[3].type == PF_VAL_BOOL && v[3].u.b);
    CHECK(v[4].type == PF_VAL_DOUBLE && v[4].u.d == 2.5);
    CHECK(v[5].type == PF_VAL_STRING && v[5].u.str.len == 4 && !strcmp(v[5].u.str.ptr, "mean"));
    CHECK(v[6].type == PF_VAL_TENSOR && !v[6].u.tensor->has_allocation &&
          v[6].u.tensor->data_buffer_idx == 0);
    const pf_tensor *t = v[7].u.tensor;
    CHECK(v[7].type == PF_VAL_TENSOR && t->scalar_type == PTERA_DTYPE_LONG && t->dim == 2 &&
          t->sizes[1] == 4 && t->dim_order[0] == 1 && t->dim_order[1] == 0 && t->dynamism == 1 &&
          t->nbytes == 96);
    CHECK(v[8].type == PF_VAL_INT_LIST && v[8].u.idx.len == 2 && v[8].u.idx.items[1] == 2);
    CHECK(v[9].type == PF_VAL_TENSOR_LIST && v[9].u.idx.len == 2 && v[9].u.idx.items[0] == 6);
    CHECK(v[10].type == PF_VAL_DOUBLE_LIST && v[10].u.doubles.len == 2 &&
          v[10].u.doubles.items[1] == -0.5);
    CHECK(v[11].type == PF_VAL_BOOL_LIST && v[11].u.bools.len == 3 && v[11].u.bools.items[0] == 1 &&
          v[11].u.bools.items[1] == 0);
    CHECK(pte.plans[0].nbuffer_sizes == 1 && pte.plans[0].nchains == 1 &&
          pte.plans[0].chains[0].ninstrs == 0);
  }
  pt_arena_release(&arena);
  pt_free(NULL, file);

  /* A tensor list naming a non-tensor is refused. */
  all[9].u.list.items = il;
  CHECK(pc_emit_pte(&p, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT && !file);
}

/* Two methods share one constant (deduplicated across methods); a planned
 * offset above 4 GiB is split into memory_offset_low/high. */
static void test_two_methods(void) {
  make_add_program();
  pc_value vals[4];
  memcpy(vals, add_values, sizeof vals);
  vals[1].u.tensor.data = C1_COPY;
  vals[3].u.tensor.memory_offset = (5ull << 32) + 64;
  const int64_t big[1] = {(int64_t)(6ull << 32)};
  pc_method ms[2];
  ms[0] = add_method;
  ms[1] = add_method;
  ms[1].name = "other";
  ms[1].values = vals;
  ms[1].buffer_sizes = big;
  pc_program p = {ms, 2, NULL, 0};
  size_t size = 0;
  uint8_t *file = eu_emit(&p, NULL, &size);
  if (!file) return;
  pt_err err;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte pte;
  if (eu_parse(file, size, &arena, &pte) && pte.nplans == 2) {
    CHECK(!strcmp(pte.plans[1].name.ptr, "other"));
    CHECK(pte.constant_segment.noffsets == 2 && pte.segment_data_size == 12);
    CHECK(pte.plans[1].values[1].u.tensor->data_buffer_idx == 1);
    CHECK(pte.plans[1].values[3].u.tensor->memory_offset == (5ull << 32) + 64);
    CHECK(pte.plans[1].buffer_sizes[1] == (int64_t)(6ull << 32));
  }
  pt_arena_release(&arena);
  const float x[3] = {0.0f, 1.0f, 2.0f};
  const float want[3] = {10.0f, 21.0f, 32.0f};
  run_f3(file, size, x, want); /* runs "forward" */
  pt_free(NULL, file);

  /* Duplicate method names are refused. */
  ms[1].name = "forward";
  CHECK(pc_emit_pte(&p, NULL, &file, &size, &err) == PTERA_INVALID_ARGUMENT && !file);
}

/* Failing the N-th allocation, for every N, fails cleanly without leaks. */
static void test_alloc_failures(void) {
  make_add_program();
  eu_alloc_failures(&add_program, 4);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_fbb_roundtrip();
  test_add_program();
  test_dedup();
  test_no_constants();
  test_value_kinds();
  test_two_methods();
  test_alloc_failures();
  return check_summary("emit_pte");
}
