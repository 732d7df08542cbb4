/* .pte reader tests: facts transcribed by hand from the corpus json dumps and
 * MANIFEST.md, robustness (truncation, byte corruption) and hand-built
 * malformed flatbuffers. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "format/flatbuf.h"
#include "format/pte.h"

static const char *g_corpus;
/* Corruptions per corpus file; PTERA_PTE_MUTATIONS=N raises it for soak runs. */
static long g_mutations = 120;

typedef struct parsed {
  uint8_t *buf;
  size_t size;
  pt_arena arena;
  pf_pte pte;
  pt_err err;
  ptera_status st;
} parsed;

static bool load(parsed *p, const char *name) {
  char rel[512];
  memset(p, 0, sizeof *p);
  snprintf(rel, sizeof rel, "pte/%s", name);
  p->buf = check_read_file(check_corpus_path(g_corpus, rel), &p->size);
  CHECK(p->buf != NULL);
  if (!p->buf) {
    fprintf(stderr, "cannot read %s\n", rel);
    return false;
  }
  pt_arena_init(&p->arena, NULL);
  pt_err_clear(&p->err);
  p->st = pf_pte_parse(p->buf, p->size, &p->arena, &p->pte, &p->err);
  if (p->st) fprintf(stderr, "%s: %s\n", name, p->err.msg);
  return true;
}

static void unload(parsed *p) {
  pt_arena_release(&p->arena);
  free(p->buf);
}

static bool str_is(pf_str s, const char *want) {
  return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static float f32_at(const uint8_t *p) {
  uint32_t u = pt_le32(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static const pf_plan *plan_named(const pf_pte *p, const char *name) {
  for (uint32_t i = 0; i < p->nplans; i++)
    if (str_is(p->plans[i].name, name)) return &p->plans[i];
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Corpus facts                                                        */

static void test_add_model(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__examples_arduino_examples_AddModel_model.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->has_header);
    CHECK(x->header_length == 32);
    CHECK(x->program_size == 1040);
    CHECK(x->segment_base == 1152);
    CHECK(x->segment_data_size == 4);
    CHECK(x->version == 0);
    CHECK(x->nplans == 1);
    CHECK(x->nsegments == 1 && x->segments[0].offset == 0 && x->segments[0].size == 4);
    CHECK(x->constant_segment.present && x->constant_segment.segment_index == 0);
    CHECK(x->constant_segment.noffsets == 2);
    CHECK(x->nmutable_data == 0 && x->nnamed == 0);
    const pf_plan *f = plan_named(x, "forward");
    CHECK(f != NULL);
    if (f) {
      CHECK(f->nvalues == 4);
      CHECK(f->ninputs == 1 && f->inputs[0] == 1);
      CHECK(f->noutputs == 1 && f->outputs[0] == 2);
      CHECK(f->nbuffer_sizes == 2 && f->buffer_sizes[0] == 0 && f->buffer_sizes[1] == 32);
      CHECK(f->nops == 1 && str_is(f->ops[0].name, "aten::add") && str_is(f->ops[0].overload, "out"));
      CHECK(f->ndelegates == 0);
      CHECK(f->nchains == 1 && f->chains[0].ninstrs == 1);
      const pf_instr *in = &f->chains[0].instrs[0];
      CHECK(in->type == PF_INSTR_KERNEL && in->a == 0 && in->nargs == 5);
      if (in->nargs == 5) {
        const int32_t want[5] = {1, 0, 3, 2, 2};
        CHECK(memcmp(in->args, want, sizeof want) == 0);
      }
      const pf_value *v = f->values;
      CHECK(v[0].type == PF_VAL_TENSOR && v[0].u.tensor->scalar_type == 6 && v[0].u.tensor->dim == 0);
      CHECK(v[0].u.tensor->data_buffer_idx == 1 && !v[0].u.tensor->has_allocation);
      CHECK(v[0].u.tensor->nbytes == 4);
      CHECK(v[1].type == PF_VAL_TENSOR && v[1].u.tensor->dim == 1 && v[1].u.tensor->sizes[0] == 3);
      CHECK(v[1].u.tensor->has_allocation && v[1].u.tensor->memory_id == 1);
      CHECK(v[1].u.tensor->memory_offset == 16 && v[1].u.tensor->nbytes == 12);
      CHECK(v[2].u.tensor->memory_offset == 0);
      CHECK(v[3].type == PF_VAL_INT && v[3].u.i == 1);
      const uint8_t *c = NULL;
      pt_err e;
      CHECK(pf_pte_constant(x, 1, 4, &c, &e) == PTERA_OK);
      CHECK(c != NULL && c == p.buf + 1152 && f32_at(c) == 1.0f);
      CHECK(pf_pte_constant(x, 1, 5, &c, &e) == PTERA_INVALID_ARGUMENT);
      CHECK(pf_pte_constant(x, 2, 0, &c, &e) == PTERA_INVALID_ARGUMENT);
      CHECK(pf_pte_mutable(x, 1, 4, &c, &e) == PTERA_NOT_FOUND);
      pf_bytes seg;
      CHECK(pf_pte_segment(x, 0, &seg, &e) == PTERA_OK && seg.len == 4 && seg.ptr == p.buf + 1152);
      CHECK(pf_pte_segment(x, 1, &seg, &e) == PTERA_NOT_FOUND);
      CHECK(pf_pte_named(x, "w", 1, &seg, &e) == PTERA_NOT_FOUND);
    }
  }
  /* The same file cut short: the header's size check fires. */
  pt_arena a;
  pf_pte q;
  pt_err e;
  pt_arena_init(&a, NULL);
  CHECK(pf_pte_parse(p.buf, 1155, &a, &q, &e) == PTERA_INVALID_PROGRAM);
  CHECK(strstr(e.msg, "truncated") != NULL);
  pt_arena_release(&a);
  unload(&p);
}

static void test_xor(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.pte"))
    return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->has_header && x->header_length == 24);
    CHECK(x->program_size == 13704 && x->segment_base == 13824 && x->segment_data_size == 0);
    CHECK(x->nplans == 4);
    CHECK(plan_named(x, "forward") && plan_named(x, "__et_training_gradients_index_forward"));
    CHECK(plan_named(x, "__et_training_fqn_forward") && plan_named(x, "__et_training_parameters_index_forward"));
    const pf_plan *f = plan_named(x, "forward");
    if (f) {
      CHECK(f->nchains == 1 && f->chains[0].ninstrs == 66);
      CHECK(f->nops == 23);
      const pf_tensor *t = f->values[0].type == PF_VAL_TENSOR ? f->values[0].u.tensor : NULL;
      CHECK(t && t->has_extra && t->external && str_is(t->fqn, "net.linear.weight"));
      CHECK(t && t->dim == 2 && t->sizes[0] == 10 && t->sizes[1] == 2 && t->nbytes == 80);
      CHECK(t && t->has_allocation && t->memory_offset == 320);
    }
    pf_bytes seg;
    pt_err e;
    CHECK(pf_pte_segment(x, 0, &seg, &e) == PTERA_OK && seg.len == 8 && seg.ptr == p.buf + 13824);
  }
  unload(&p);
}

static void test_qnn(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__examples_qualcomm_oss_scripts_llama_artifacts_stories260k_hybrid_llama_qnn__blob-942773b0.pte"))
    return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->nplans == 29);
    CHECK(x->header_length == 32 && x->program_size == 18688 && x->segment_base == 18688);
    CHECK(x->nsegments == 2 && x->segments[0].size == 0 && x->segments[1].offset == 0);
    CHECK(x->segments[1].size == 1331456);
    CHECK(x->constant_segment.noffsets == 1);
    const pf_plan *kv = plan_named(x, "kv_forward");
    const pf_plan *pre = plan_named(x, "prefill_forward");
    CHECK(kv && pre);
    if (kv && pre) {
      CHECK(kv->ndelegates == 1 && str_is(kv->delegates[0].id, "QnnBackend"));
      CHECK(kv->delegates[0].location == 1 && kv->delegates[0].index == 1);
      CHECK(kv->delegates[0].nspecs == 1);
      CHECK(kv->nvalues == 24 && kv->chains[0].ninstrs == 1);
      CHECK(kv->chains[0].instrs[0].type == PF_INSTR_DELEGATE);
      pf_bytes a, b;
      pt_err e;
      CHECK(pf_pte_delegate_blob(x, &kv->delegates[0], &a, &e) == PTERA_OK);
      CHECK(pf_pte_delegate_blob(x, &pre->delegates[0], &b, &e) == PTERA_OK);
      CHECK(a.len == 1331456 && a.ptr == b.ptr && a.ptr == p.buf + 18688);
      const uint8_t *c;
      CHECK(pf_pte_constant(x, 0, 0, &c, &e) == PTERA_OK);
    }
    const pf_plan *g = plan_named(x, "get_ar_len");
    CHECK(g && g->nvalues == 1 && g->values[0].type == PF_VAL_INT && g->values[0].u.i == 1);
    CHECK(g && g->chains[0].ninstrs == 0 && g->noutputs == 1 && g->outputs[0] == 0);
  }
  unload(&p);
  if (!load(&p, "pytorch+executorch__examples_qualcomm_oss_scripts_llama_artifacts_stories260k_hybrid_llama_qnn__blob-198b96e5.pte"))
    return;
  CHECK(p.st == PTERA_OK && p.pte.nplans == 15 && p.pte.header_length == 24);
  unload(&p);
}

static void test_legacy_constants(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__test_models_deprecated_ModuleLinear-no-constant-segment.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(!x->has_header && x->program_size == 1040 && x->nsegments == 0);
    CHECK(x->constant_segment.present && x->constant_segment.noffsets == 0);
    CHECK(x->nconstant_buffer == 3 && x->constant_buffer[0].len == 0);
    CHECK(x->constant_buffer[1].len == 16 && x->constant_buffer[2].len == 16);
    const uint8_t *c = NULL;
    pt_err e;
    CHECK(pf_pte_constant(x, 1, 16, &c, &e) == PTERA_OK);
    CHECK(c && f32_at(c) == 3.0f && f32_at(c + 12) == 3.0f);
    CHECK(c && ((uintptr_t)c & 15) == 0);
    CHECK(pf_pte_constant(x, 2, 16, &c, &e) == PTERA_OK && c && f32_at(c + 4) == 2.0f);
    CHECK(pf_pte_constant(x, 2, 17, &c, &e) == PTERA_INVALID_ARGUMENT);
    CHECK(pf_pte_constant(x, 3, 0, &c, &e) == PTERA_INVALID_ARGUMENT);
    const pf_plan *f = &x->plans[0];
    CHECK(f->nvalues == 6 && f->inputs[0] == 2 && f->outputs[0] == 4);
    CHECK(f->nops == 2 && str_is(f->ops[0].name, "aten::mul") && str_is(f->ops[1].name, "aten::add"));
    CHECK(f->chains[0].ninstrs == 2);
    const pf_instr *i1 = &f->chains[0].instrs[1];
    CHECK(i1->a == 1 && i1->nargs == 5 && i1->args[0] == 3 && i1->args[2] == 5);
    CHECK(f->values[0].u.tensor->data_buffer_idx == 1 && f->values[1].u.tensor->data_buffer_idx == 2);
    CHECK(f->values[5].type == PF_VAL_INT && f->values[5].u.i == 1);
  }
  /* Give the (empty) constant_segment.offsets two entries: now both the
   * legacy constant_buffer and the segment claim the constants. */
  if (p.st == PTERA_OK) {
    pf_fb fb;
    pf_fb_table root, cs;
    pf_fb_vec offs;
    CHECK(pf_fb_init(&fb, p.buf, p.size) && pf_fb_root(&fb, &root));
    CHECK(pf_fb_table_field(&fb, &root, 5, &cs) && cs.present);
    CHECK(pf_fb_vec_field(&fb, &cs, 1, 8, &offs) && offs.present && offs.count == 0);
    if (offs.present && offs.pos + 20 <= p.size) {
      pt_put_le32(p.buf + offs.pos, 2);
      pt_arena a;
      pf_pte q;
      pt_err e;
      pt_arena_init(&a, NULL);
      CHECK(pf_pte_parse(p.buf, p.size, &a, &q, &e) == PTERA_INVALID_PROGRAM);
      CHECK(strstr(e.msg, "constant_buffer") && strstr(e.msg, "constant_segment"));
      pt_arena_release(&a);
    }
  }
  unload(&p);
}

static void test_mutable(void) {
  parsed p;
  if (!load(&p, "berndporr+dnf_executorch__test_dnf_executorch1.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->nplans == 4 && x->nmutable_data == 1);
    CHECK(x->mutable_data.present && x->mutable_data.segment_index == 1);
    CHECK(x->mutable_data.noffsets == 3 && x->mutable_data.offsets[2] == 200);
    CHECK(x->nsegments == 2 && x->segments[1].offset == 128 && x->segments[1].size == 204);
    const pf_plan *f = plan_named(x, "forward");
    CHECK(f && f->nvalues == 58 && f->chains[0].ninstrs == 24);
    if (f) {
      const pf_tensor *t = f->values[0].u.tensor;
      CHECK(t->data_buffer_idx == 1 && t->has_allocation && t->memory_offset == 416);
      CHECK(t->nbytes == 200);
    }
    const uint8_t *c = NULL;
    pt_err e;
    CHECK(pf_pte_mutable(x, 1, 200, &c, &e) == PTERA_OK && c == p.buf + x->segment_base + 128);
    CHECK(pf_pte_mutable(x, 2, 4, &c, &e) == PTERA_OK);
    CHECK(pf_pte_mutable(x, 2, 5, &c, &e) == PTERA_INVALID_ARGUMENT);
    CHECK(pf_pte_mutable(x, 3, 0, &c, &e) == PTERA_NOT_FOUND);
    CHECK(pf_pte_constant(x, 1, 8, &c, &e) == PTERA_OK);
  }
  unload(&p);
  if (!load(&p, "berndporr+dnf_executorch__test_dnf_executorch5.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    CHECK(p.pte.mutable_data.noffsets == 11 && p.pte.mutable_data.offsets[10] == 6072);
    const pf_plan *f = plan_named(&p.pte, "forward");
    CHECK(f && f->nvalues == 247 && f->chains[0].ninstrs == 92);
    const uint8_t *c = NULL;
    pt_err e;
    CHECK(pf_pte_mutable(&p.pte, 10, 4, &c, &e) == PTERA_OK);
    CHECK(pf_pte_mutable(&p.pte, 10, 5, &c, &e) == PTERA_INVALID_ARGUMENT);
  }
  unload(&p);
}

static void test_named_and_inline(void) {
  parsed p;
  if (!load(&p, "corey-cole+djl-executorch-engine__native_spike_conv.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->nnamed == 2 && x->nsegments == 4);
    const char *k = "c4c4938264282aadf317c0e9375feac4a81ae10f994ab747f65cae591f57275f";
    pf_bytes b;
    pt_err e;
    CHECK(pf_pte_named(x, k, strlen(k), &b, &e) == PTERA_OK && b.len == 32);
    CHECK(b.ptr == p.buf + x->segment_base + 2048);
    CHECK(pf_pte_named(x, k, 10, &b, &e) == PTERA_NOT_FOUND);
    CHECK(pf_pte_delegate_blob(x, &x->plans[0].delegates[0], &b, &e) == PTERA_OK && b.len == 1136);
  }
  unload(&p);
  if (!load(&p, "pytorch+executorch__xnnpack_add.ff.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(x->ndelegate_data == 1 && x->delegate_data[0].len == 356);
    const pf_plan *f = &x->plans[0];
    CHECK(f->ndelegates == 1 && str_is(f->delegates[0].id, "XnnpackBackend"));
    CHECK(f->delegates[0].location == 0 && f->delegates[0].index == 0);
    pf_bytes b;
    pt_err e;
    CHECK(pf_pte_delegate_blob(x, &f->delegates[0], &b, &e) == PTERA_OK && b.len == 356);
    CHECK(b.ptr && memcmp(b.ptr + 4, "XN00", 4) == 0);
    CHECK(f->chains[0].instrs[0].type == PF_INSTR_DELEGATE && f->chains[0].instrs[0].nargs == 2);
  }
  unload(&p);
}

static void test_no_header_zero_segment(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__extension_apple_ExecuTorch___tests___resources_add.pte")) return;
  CHECK(p.st == PTERA_OK);
  if (p.st == PTERA_OK) {
    const pf_pte *x = &p.pte;
    CHECK(!x->has_header && x->program_size == 728 && x->segment_base == 0);
    CHECK(x->nsegments == 1 && x->segments[0].size == 0);
    CHECK(x->constant_segment.noffsets == 1 && x->constant_segment.offsets[0] == 0);
    pf_bytes b;
    pt_err e;
    CHECK(pf_pte_segment(x, 0, &b, &e) == PTERA_OK && b.len == 0);
    const uint8_t *c;
    CHECK(pf_pte_constant(x, 0, 0, &c, &e) == PTERA_OK);
    CHECK(pf_pte_constant(x, 0, 1, &c, &e) == PTERA_INVALID_ARGUMENT);
    CHECK(x->plans[0].nbuffer_sizes == 2 && x->plans[0].buffer_sizes[1] == 48);
  }
  unload(&p);
}

static void test_et02(void) {
  parsed p;
  if (!load(&p, "pytorch+executorch__exir_backend_test_add_mul.ff.pte")) return;
  CHECK(p.st == PTERA_INVALID_PROGRAM);
  CHECK(strstr(p.err.msg, "ET02") != NULL);
  CHECK(strstr(p.err.msg, "ET12") != NULL);
  CHECK(pf_pte_identify(p.buf, p.size) == 0);
  unload(&p);
  pt_arena a;
  pf_pte q;
  pt_err e;
  pt_arena_init(&a, NULL);
  const uint8_t junk[16] = "PK\3\4 not a pte";
  CHECK(pf_pte_parse(junk, sizeof junk, &a, &q, &e) == PTERA_INVALID_PROGRAM);
  CHECK(strstr(e.msg, "not an ExecuTorch program") != NULL);
  CHECK(pf_pte_parse(junk, 3, &a, &q, &e) == PTERA_INVALID_PROGRAM);
  CHECK(pf_pte_parse(NULL, 0, &a, &q, &e) == PTERA_INVALID_PROGRAM);
  pt_arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* Every corpus .pte, then truncations and corruptions of each          */

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (uint32_t)(g_rng >> 16);
}

/* Parses and, on success, pokes every accessor. Returns the status. */
static ptera_status parse_and_touch(const uint8_t *buf, size_t size) {
  pt_arena a;
  pf_pte x;
  pt_err e;
  pt_arena_init(&a, NULL);
  ptera_status st = pf_pte_parse(buf, size, &a, &x, &e);
  if (st == PTERA_OK) {
    volatile unsigned sink = 0;
    pf_bytes b;
    const uint8_t *c;
    for (uint32_t i = 0; i < x.nsegments; i++)
      if (pf_pte_segment(&x, i, &b, &e) == PTERA_OK && b.len) sink += b.ptr[b.len - 1];
    for (uint32_t i = 0; i < x.nnamed; i++)
      if (pf_pte_named(&x, x.named[i].key.ptr, x.named[i].key.len, &b, &e) == PTERA_OK && b.len)
        sink += b.ptr[0];
    for (uint32_t m = 0; m < x.nplans; m++) {
      const pf_plan *p = &x.plans[m];
      for (uint32_t d = 0; d < p->ndelegates; d++)
        if (pf_pte_delegate_blob(&x, &p->delegates[d], &b, &e) == PTERA_OK && b.len)
          sink += b.ptr[b.len - 1];
      for (uint32_t v = 0; v < p->nvalues; v++) {
        if (p->values[v].type != PF_VAL_TENSOR) continue;
        const pf_tensor *t = p->values[v].u.tensor;
        if (!t->data_buffer_idx || t->nbytes == 0) continue;
        if (t->has_allocation) {
          if (pf_pte_mutable(&x, t->data_buffer_idx, t->nbytes, &c, &e) == PTERA_OK)
            sink += c[t->nbytes - 1];
        } else if (pf_pte_constant(&x, t->data_buffer_idx, t->nbytes, &c, &e) == PTERA_OK) {
          sink += c[t->nbytes - 1];
        }
      }
    }
    (void)sink;
  } else {
    CHECK(e.msg[0] != '\0');
  }
  pt_arena_release(&a);
  return st;
}

static bool is_et02(const char *name) { return strstr(name, "add_mul.ff.pte") != NULL; }

static void test_corpus_all(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/pte", g_corpus);
  DIR *dir = opendir(path);
  CHECK(dir != NULL);
  if (!dir) return;
  int files = 0, ok = 0, statuses[4] = {0};
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    size_t n = strlen(de->d_name);
    if (n < 5 || strcmp(de->d_name + n - 4, ".pte") != 0) continue;
    files++;
    parsed p;
    if (!load(&p, de->d_name)) continue;
    if (is_et02(de->d_name)) {
      CHECK(p.st == PTERA_INVALID_PROGRAM);
      unload(&p);
      continue;
    }
    CHECK(p.st == PTERA_OK);
    if (p.st == PTERA_OK) ok++;
    CHECK(pf_pte_identify(p.buf, p.size) == 1);
    CHECK(parse_and_touch(p.buf, p.size) == PTERA_OK);

    /* Truncations, each in an exactly-sized heap block so ASan sees overreads. */
    uint64_t limit = p.pte.program_size ? p.pte.program_size : p.size;
    for (int k = 0; k < 48; k++) {
      size_t cut = k < 24 ? (size_t)k * 3
                   : (size_t)(rnd() % ((k % 2 ? limit : (uint64_t)p.size) + 1));
      if (cut >= p.size) continue;
      uint8_t *t = malloc(cut ? cut : 1);
      if (!t) continue;
      memcpy(t, p.buf, cut);
      ptera_status st = parse_and_touch(t, cut);
      statuses[st == PTERA_OK ? 0 : st == PTERA_INVALID_PROGRAM ? 1 : 2]++;
      free(t);
    }
    /* Seeded single-byte corruptions inside the flatbuffer. */
    for (long k = 0; k < g_mutations; k++) {
      size_t at[4];
      uint8_t old[4];
      int nb = k % 7 == 0 ? 4 : 1; /* mostly single bytes, sometimes four */
      for (int j = 0; j < nb; j++) {
        at[j] = (size_t)(rnd() % limit);
        old[j] = p.buf[at[j]];
        p.buf[at[j]] = (uint8_t)(k % 3 == 0 ? old[j] ^ (1u << (rnd() % 8)) : rnd());
      }
      ptera_status st = parse_and_touch(p.buf, p.size);
      statuses[st == PTERA_OK ? 0 : st == PTERA_INVALID_PROGRAM ? 1 : 2]++;
      for (int j = nb - 1; j >= 0; j--) p.buf[at[j]] = old[j];
    }
    unload(&p);
  }
  closedir(dir);
  CHECK(files >= 34);
  CHECK(ok == files - 1);
  CHECK(statuses[1] > 0);
  printf("corpus: %d .pte files, %d parsed; mutations ok=%d invalid=%d other=%d\n", files, ok,
         statuses[0], statuses[1], statuses[2]);
}

/* ------------------------------------------------------------------ */
/* Hand-built programs                                                 */

typedef struct bld {
  uint8_t b[4096];
  uint32_t n;
} bld;

static uint32_t b_pad(bld *b, uint32_t align, uint32_t extra) {
  while ((b->n + extra) % align) b->b[b->n++] = 0;
  return b->n;
}
static void b_u16(bld *b, uint32_t at, uint16_t v) {
  b->b[at] = (uint8_t)v;
  b->b[at + 1] = (uint8_t)(v >> 8);
}

typedef struct tbl {
  uint32_t t;
  uint32_t f[12]; /* field positions */
} tbl;

/* A table with fields of the given sizes (0 = absent); vtable right before. */
static tbl b_table(bld *b, int nf, const uint8_t *sizes) {
  tbl out;
  uint16_t offs[12] = {0};
  uint32_t off = 4;
  memset(&out, 0, sizeof out);
  for (int i = 0; i < nf; i++) {
    if (!sizes[i]) continue;
    while (off % sizes[i]) off++;
    offs[i] = (uint16_t)off;
    off += sizes[i];
  }
  while (off % 4) off++;
  uint32_t vt = b_pad(b, 2, 0);
  b_u16(b, vt, (uint16_t)(4 + 2 * nf));
  b_u16(b, vt + 2, (uint16_t)off);
  for (int i = 0; i < nf; i++) b_u16(b, vt + 4 + 2 * (uint32_t)i, offs[i]);
  b->n = vt + 4 + 2 * (uint32_t)nf;
  out.t = b_pad(b, 8, 0);
  memset(b->b + out.t, 0, off);
  pt_put_le32(b->b + out.t, out.t - vt);
  b->n = out.t + off;
  for (int i = 0; i < nf; i++) out.f[i] = offs[i] ? out.t + offs[i] : 0;
  return out;
}
static void b_ref(bld *b, uint32_t field, uint32_t target) { pt_put_le32(b->b + field, target - field); }
/* Vector header + data; elements zeroed, returns the count position. */
static uint32_t b_vec(bld *b, uint32_t count, uint32_t esize) {
  uint32_t p = b_pad(b, esize > 4 ? esize : 4, 4);
  pt_put_le32(b->b + p, count);
  memset(b->b + p + 4, 0, count * esize);
  b->n = p + 4 + count * esize;
  return p;
}
static uint32_t b_str(bld *b, const char *s) {
  uint32_t n = (uint32_t)strlen(s);
  uint32_t p = b_vec(b, n + 1, 1);
  pt_put_le32(b->b + p, n);
  memcpy(b->b + p + 4, s, n + 1);
  return p;
}

/* Positions of interesting bytes in the built program. */
typedef struct mini {
  bld b;
  uint32_t sizes_vec;    /* tensor sizes vector */
  uint32_t dim_order;    /* tensor dim_order vector */
  uint32_t val_type;     /* EValue 0 val_type byte */
  uint32_t instr_type;   /* instruction's union type byte */
  uint32_t args_vec;     /* kernel args vector */
  uint32_t values_ref;   /* ExecutionPlan.values reference field */
  uint32_t scalar_type;  /* tensor scalar_type byte */
  uint32_t op_index;     /* kernel op_index */
} mini;

/* forward: values [Tensor float [2,3], Int 5]; inputs [0]; outputs [0];
 * one chain with KernelCall(op 0, args [0, 1, 0]); operators [aten::x]. */
static void build_mini(mini *m) {
  bld *b = &m->b;
  memset(m, 0, sizeof *m);
  b->n = 8;
  memcpy(b->b + 4, "ET12", 4);
  static const uint8_t prog_f[] = {4, 4};
  tbl prog = b_table(b, 2, prog_f);
  pt_put_le32(b->b, prog.t);
  uint32_t plans = b_vec(b, 1, 4);
  b_ref(b, prog.f[1], plans);
  static const uint8_t plan_f[] = {4, 0, 4, 4, 4, 4, 4, 0, 4};
  tbl plan = b_table(b, 9, plan_f);
  b_ref(b, plans + 4, plan.t);
  m->values_ref = plan.f[2];
  b_ref(b, plan.f[0], b_str(b, "forward"));
  uint32_t vals = b_vec(b, 2, 4);
  b_ref(b, plan.f[2], vals);
  uint32_t v = b_vec(b, 1, 4);
  b_ref(b, plan.f[3], v);
  v = b_vec(b, 1, 4);
  b_ref(b, plan.f[4], v);
  uint32_t bs = b_vec(b, 1, 8);
  b_ref(b, plan.f[8], bs);
  uint32_t ops = b_vec(b, 1, 4);
  b_ref(b, plan.f[6], ops);
  static const uint8_t op_f[] = {4};
  tbl op = b_table(b, 1, op_f);
  b_ref(b, ops + 4, op.t);
  b_ref(b, op.f[0], b_str(b, "aten::x"));
  /* values */
  static const uint8_t ev_f[] = {1, 4};
  tbl ev0 = b_table(b, 2, ev_f);
  b_ref(b, vals + 4, ev0.t);
  b->b[ev0.f[0]] = PF_VAL_TENSOR;
  m->val_type = ev0.f[0];
  static const uint8_t t_f[] = {1, 0, 4, 4};
  tbl t = b_table(b, 4, t_f);
  b_ref(b, ev0.f[1], t.t);
  b->b[t.f[0]] = 6;
  m->scalar_type = t.f[0];
  m->sizes_vec = b_vec(b, 2, 4);
  pt_put_le32(b->b + m->sizes_vec + 4, 2);
  pt_put_le32(b->b + m->sizes_vec + 8, 3);
  b_ref(b, t.f[2], m->sizes_vec);
  m->dim_order = b_vec(b, 2, 1);
  b->b[m->dim_order + 5] = 1;
  b_ref(b, t.f[3], m->dim_order);
  tbl ev1 = b_table(b, 2, ev_f);
  b_ref(b, vals + 8, ev1.t);
  b->b[ev1.f[0]] = PF_VAL_INT;
  static const uint8_t i_f[] = {8};
  tbl iv = b_table(b, 1, i_f);
  b_ref(b, ev1.f[1], iv.t);
  pt_put_le64(b->b + iv.f[0], 5);
  /* chain */
  uint32_t chains = b_vec(b, 1, 4);
  b_ref(b, plan.f[5], chains);
  static const uint8_t c_f[] = {0, 0, 4};
  tbl ch = b_table(b, 3, c_f);
  b_ref(b, chains + 4, ch.t);
  uint32_t instrs = b_vec(b, 1, 4);
  b_ref(b, ch.f[2], instrs);
  tbl in = b_table(b, 2, ev_f);
  b_ref(b, instrs + 4, in.t);
  b->b[in.f[0]] = PF_INSTR_KERNEL;
  m->instr_type = in.f[0];
  static const uint8_t k_f[] = {4, 4};
  tbl kc = b_table(b, 2, k_f);
  b_ref(b, in.f[1], kc.t);
  m->op_index = kc.f[0];
  m->args_vec = b_vec(b, 3, 4);
  pt_put_le32(b->b + m->args_vec + 8, 1);
  b_ref(b, kc.f[1], m->args_vec);
  b_pad(b, 8, 0);
}

static ptera_status parse_mini(const mini *m, pt_err *e, pf_pte *x, pt_arena *a) {
  uint8_t *copy = malloc(m->b.n);
  memcpy(copy, m->b.b, m->b.n);
  ptera_status st = pf_pte_parse(copy, m->b.n, a, x, e);
  free(copy); /* x is not used after this except for plain fields */
  return st;
}

static void expect_bad(const mini *m, const char *needle) {
  pt_arena a;
  pf_pte x;
  pt_err e;
  pt_arena_init(&a, NULL);
  pt_err_clear(&e);
  ptera_status st = parse_mini(m, &e, &x, &a);
  CHECK(st == PTERA_INVALID_PROGRAM);
  if (needle && !strstr(e.msg, needle)) {
    fprintf(stderr, "message '%s' lacks '%s'\n", e.msg, needle);
    CHECK(0);
  }
  pt_arena_release(&a);
}

static void test_handbuilt(void) {
  mini m;
  pt_arena a;
  pf_pte x;
  pt_err e;
  build_mini(&m);
  pt_arena_init(&a, NULL);
  ptera_status st = parse_mini(&m, &e, &x, &a);
  if (st) fprintf(stderr, "mini: %s\n", e.msg);
  CHECK(st == PTERA_OK);
  if (st == PTERA_OK) {
    CHECK(x.nplans == 1 && x.plans[0].nvalues == 2 && x.plans[0].values[1].u.i == 5);
    CHECK(x.plans[0].values[0].u.tensor->nbytes == 24);
    CHECK(x.plans[0].values[0].u.tensor->dim_order[1] == 1);
    CHECK(x.plans[0].chains[0].instrs[0].nargs == 3 && x.plans[0].chains[0].instrs[0].args[1] == 1);
    CHECK(x.plans[0].ops[0].overload.len == 0 && x.nsegments == 0 && !x.has_header);
  }
  pt_arena_release(&a);

  /* Vector count overflow (count * 4 wraps 32 bits). */
  build_mini(&m);
  pt_put_le32(m.b.b + m.sizes_vec, 0x40000001u);
  expect_bad(&m, "method 'forward' value 0: tensor sizes: vector runs past the end");
  build_mini(&m);
  pt_put_le32(m.b.b + m.sizes_vec, 0xffffffffu);
  expect_bad(&m, "vector runs past the end");
  /* Offset past the end. */
  build_mini(&m);
  pt_put_le32(m.b.b + m.values_ref, 0x7ffffff0u);
  expect_bad(&m, "past the end");
  build_mini(&m);
  pt_put_le32(m.b.b, 0xfffffff0u);
  expect_bad(&m, "root table offset");
  /* Bad union tags. */
  build_mini(&m);
  m.b.b[m.val_type] = 12;
  expect_bad(&m, "unknown union type");
  build_mini(&m);
  m.b.b[m.instr_type] = 6;
  expect_bad(&m, "instruction 0");
  build_mini(&m);
  m.b.b[m.val_type] = PF_VAL_STRING; /* payload is a Tensor table: field 0 is a byte */
  expect_bad(&m, "value 0");
  /* Out-of-range value index. */
  build_mini(&m);
  pt_put_le32(m.b.b + m.args_vec + 8, 2);
  expect_bad(&m, "refers to value 2");
  build_mini(&m);
  pt_put_le32(m.b.b + m.args_vec + 4, 0xffffffffu);
  expect_bad(&m, "kernel call args[0]");
  build_mini(&m);
  pt_put_le32(m.b.b + m.op_index, 1);
  expect_bad(&m, "operator index 1");
  /* Non-permutation dim_order. */
  build_mini(&m);
  m.b.b[m.dim_order + 5] = 0;
  expect_bad(&m, "not a permutation");
  build_mini(&m);
  m.b.b[m.dim_order + 5] = 7;
  expect_bad(&m, "not a permutation");
  /* Negative size, bad scalar type, rank mismatch. */
  build_mini(&m);
  pt_put_le32(m.b.b + m.sizes_vec + 8, 0xfffffffeu);
  expect_bad(&m, "negative");
  build_mini(&m);
  m.b.b[m.scalar_type] = 30;
  expect_bad(&m, "scalar_type 30");
  build_mini(&m);
  pt_put_le32(m.b.b + m.dim_order, 1);
  expect_bad(&m, "rank 2");
  /* Other instruction kinds reuse the KernelCall table: field 1 (the args
   * reference) is then read as an int far beyond the chain / value table. */
  build_mini(&m);
  m.b.b[m.instr_type] = PF_INSTR_JUMP_FALSE;
  expect_bad(&m, "jump destination");
  build_mini(&m);
  m.b.b[m.instr_type] = PF_INSTR_MOVE;
  expect_bad(&m, "move destination value");
  build_mini(&m);
  m.b.b[m.instr_type] = PF_INSTR_FREE;
  pt_put_le32(m.b.b + m.op_index, 1);
  {
    pt_arena_init(&a, NULL);
    st = parse_mini(&m, &e, &x, &a);
    CHECK(st == PTERA_OK && x.plans[0].chains[0].instrs[0].type == PF_INSTR_FREE);
    CHECK(st == PTERA_OK && x.plans[0].chains[0].instrs[0].a == 1);
    pt_arena_release(&a);
  }
  pt_put_le32(m.b.b + m.op_index, 2);
  expect_bad(&m, "freed value 2");
  /* Misaligned table and identifier problems. */
  build_mini(&m);
  pt_put_le32(m.b.b, pt_le32(m.b.b) + 2);
  expect_bad(&m, "aligned");
  build_mini(&m);
  memcpy(m.b.b + 4, "ET13", 4);
  expect_bad(&m, "'ET13'");
  build_mini(&m);
  memcpy(m.b.b + 4, "XT12", 4);
  expect_bad(&m, "not an ExecuTorch program");

  /* Extended header forms spliced into the mini program. */
  build_mini(&m);
  {
    static uint8_t buf[4096 + 64];
    uint32_t n = m.b.n;
    memcpy(buf, m.b.b, 8);
    memset(buf + 8, 0, 32);
    memcpy(buf + 8, "eh00", 4);
    pt_put_le32(buf + 12, 32);
    pt_put_le64(buf + 16, n + 32);
    memcpy(buf + 40, m.b.b + 8, n - 8);
    /* All offsets in the body are relative except the root offset. */
    pt_put_le32(buf, pt_le32(m.b.b) + 32);
    pt_arena_init(&a, NULL);
    st = pf_pte_parse(buf, n + 32, &a, &x, &e);
    CHECK(st == PTERA_OK && x.has_header && x.program_size == n + 32 && x.segment_base == 0);
    /* segment_base + data_size beyond the file. */
    pt_put_le64(buf + 24, n + 32);
    pt_put_le64(buf + 32, 16);
    CHECK(pf_pte_parse(buf, n + 32, &a, &x, &e) == PTERA_INVALID_PROGRAM);
    CHECK(pf_pte_parse(buf, n + 48, &a, &x, &e) == PTERA_OK && x.segment_data_size == 16);
    /* Overflowing sum. */
    pt_put_le64(buf + 24, UINT64_MAX - 4);
    CHECK(pf_pte_parse(buf, n + 48, &a, &x, &e) == PTERA_INVALID_PROGRAM);
    CHECK(strstr(e.msg, "overflow") != NULL);
    /* 24-byte header: segment_data_size ignored (pre-1.0: check skipped). */
    pt_put_le32(buf + 12, 24);
    pt_put_le64(buf + 24, 1u << 20);
    CHECK(pf_pte_parse(buf, n + 32, &a, &x, &e) == PTERA_OK && x.segment_data_size == 0);
    /* Length below 24. */
    pt_put_le32(buf + 12, 16);
    CHECK(pf_pte_parse(buf, n + 32, &a, &x, &e) == PTERA_INVALID_PROGRAM);
    /* program_size past the file. */
    pt_put_le32(buf + 12, 32);
    pt_put_le64(buf + 24, 0);
    pt_put_le64(buf + 32, 0);
    pt_put_le64(buf + 16, n + 33);
    CHECK(pf_pte_parse(buf, n + 32, &a, &x, &e) == PTERA_INVALID_PROGRAM);
    pt_arena_release(&a);
  }
}

static void test_flatbuf_api(void) {
  /* A vector whose byte size needs 64 bits: count 0x80000000 of 8 bytes. */
  uint8_t buf[64] = {0};
  pf_fb fb;
  pf_fb_vec v;
  pf_fb_table t;
  CHECK(!pf_fb_init(&fb, buf, 7));
  CHECK(pf_fb_init(&fb, buf, sizeof buf));
  pt_put_le32(buf + 16, 0x80000000u);
  CHECK(!pf_fb_vec_at(&fb, 16, 8, &v) && !v.present);
  CHECK(fb.why && strstr(fb.why, "vector"));
  pt_put_le32(buf + 16, 2);
  CHECK(pf_fb_vec_at(&fb, 16, 8, &v) && v.count == 2);
  CHECK(pf_fb_vec_u64(&fb, &v, 2) == 0 && pf_fb_vec_u32(&fb, &v, 0) == 0);
  CHECK(!pf_fb_vec_at(&fb, 18, 4, &v));
  CHECK(!pf_fb_vec_at(&fb, UINT64_MAX - 3, 1, &v) && !pf_fb_vec_at(&fb, 64, 1, &v));
  pf_fb_str s0;
  CHECK(!pf_fb_table_at(&fb, UINT64_MAX - 3, &t) && !pf_fb_str_at(&fb, UINT64_MAX - 3, &s0));
  /* String without NUL. */
  pt_put_le32(buf + 40, 3);
  memcpy(buf + 44, "abcd", 4);
  pf_fb_str s;
  CHECK(!pf_fb_str_at(&fb, 40, &s) && s.ptr == NULL);
  buf[47] = 0;
  CHECK(pf_fb_str_at(&fb, 40, &s) && s.len == 3 && strcmp(s.ptr, "abc") == 0);
  /* Table with a vtable whose size is odd / past the end. */
  pt_put_le32(buf + 8, (uint32_t)-4); /* vtable at 12 */
  buf[12] = 5;
  CHECK(!pf_fb_table_at(&fb, 8, &t));
  buf[12] = 6;
  buf[14] = 8; /* inline size 8 */
  CHECK(pf_fb_table_at(&fb, 8, &t) && t.vt == 12 && t.inline_size == 8);
  /* field 0 at offset 8 starts outside the inline size 8. */
  buf[16] = 8;
  buf[17] = 0;
  uint32_t u;
  CHECK(!pf_fb_u32(&fb, &t, 0, 0, &u));
  uint8_t b8;
  CHECK(!pf_fb_u8(&fb, &t, 0, 9, &b8));
  buf[16] = 6; /* offset 6: a u32 may reach past the inline size, not the buffer */
  CHECK(pf_fb_u32(&fb, &t, 0, 0, &u) && pf_fb_u8(&fb, &t, 0, 9, &b8) && b8 == 8);
  CHECK(pf_fb_u32(&fb, &t, 5, 77, &u) && u == 77); /* beyond the vtable: default */
  /* Work budget. */
  fb.budget = 1;
  CHECK(pf_fb_table_at(&fb, 8, &t) && !pf_fb_table_at(&fb, 8, &t));
  CHECK(strstr(fb.why, "limit") != NULL);
  /* Depth. */
  CHECK(pf_fb_init(&fb, buf, sizeof buf));
  fb.max_depth = 2;
  CHECK(pf_fb_enter(&fb) && pf_fb_enter(&fb) && !pf_fb_enter(&fb));
  pf_fb_leave(&fb);
  CHECK(pf_fb_enter(&fb));
  pt_err e;
  CHECK(pf_fb_error(&fb, &e, PTERA_INVALID_PROGRAM, "ctx %d", 7) == PTERA_INVALID_PROGRAM);
  CHECK(strncmp(e.msg, "ctx 7: objects nested too deeply", 32) == 0);
}

int main(int argc, char **argv) {
  g_corpus = argc > 1 ? argv[1] : "../shared/corpus";
  const char *mut = getenv("PTERA_PTE_MUTATIONS");
  if (mut && atol(mut) > 0) g_mutations = atol(mut);
  test_flatbuf_api();
  test_handbuilt();
  test_add_model();
  test_xor();
  test_qnn();
  test_legacy_constants();
  test_mutable();
  test_named_and_inline();
  test_no_header_zero_segment();
  test_et02();
  test_corpus_all();
  return check_summary("pte_reader");
}
