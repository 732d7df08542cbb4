/* Fuzzes the .pte reader: pf_pte_parse, then every data accessor over what
 * it returned, and every invariant pte.h promises the runtime (indices
 * checked against their tables, strings terminated, tensors well formed). */
#include "format/pte.h"
#include "fuzz.h"

static void check_tensor(const pf_pte *p, const pf_tensor *t) {
  FZ_REQUIRE(t != NULL);
  FZ_REQUIRE(t->scalar_type < PTERA_DTYPE_COUNT);
  FZ_REQUIRE(t->dynamism <= 2);
  FZ_REQUIRE(t->dim <= PTERA_MAX_DIM);
  unsigned seen = 0;
  for (unsigned d = 0; d < t->dim; d++) {
    FZ_REQUIRE(t->sizes[d] >= 0);
    FZ_REQUIRE(t->dim_order[d] < t->dim);
    FZ_REQUIRE(!(seen & (1u << t->dim_order[d])));
    seen |= 1u << t->dim_order[d];
  }
  uint64_t numel;
  FZ_REQUIRE(pt_numel(t->sizes, t->dim, &numel));
  uint64_t nbytes;
  FZ_REQUIRE(pt_mul_u64(numel, ptera_dtype_size(t->scalar_type), &nbytes) && nbytes == t->nbytes);
  fz_str(t->fqn.ptr, t->fqn.len);
  if (t->data_buffer_idx != 0 && !t->external) {
    const uint8_t *src;
    pt_err e;
    if (pf_pte_constant(p, t->data_buffer_idx, t->nbytes, &src, &e) == PTERA_OK)
      fz_touch(src, t->nbytes);
    else
      FZ_REQUIRE(e.msg[0] != '\0');
    if (pf_pte_mutable(p, t->data_buffer_idx, t->nbytes, &src, &e) == PTERA_OK)
      fz_touch(src, t->nbytes);
    else
      FZ_REQUIRE(e.msg[0] != '\0');
  }
}

static void check_value(const pf_plan *pl, const pf_value *v, const pf_pte *p) {
  FZ_REQUIRE(v->type >= PF_VAL_NULL && v->type <= PF_VAL_OPT_TENSOR_LIST);
  switch (v->type) {
    case PF_VAL_TENSOR: check_tensor(p, v->u.tensor); break;
    case PF_VAL_STRING: FZ_REQUIRE(v->u.str.ptr != NULL); fz_str(v->u.str.ptr, v->u.str.len); break;
    case PF_VAL_INT_LIST:
    case PF_VAL_TENSOR_LIST:
    case PF_VAL_OPT_TENSOR_LIST:
      for (uint32_t k = 0; k < v->u.idx.len; k++) {
        int32_t j = v->u.idx.items[k];
        FZ_REQUIRE(j < (int64_t)pl->nvalues);
        FZ_REQUIRE(j >= 0 || (j == -1 && v->type == PF_VAL_OPT_TENSOR_LIST));
      }
      break;
    case PF_VAL_DOUBLE_LIST: fz_touch(v->u.doubles.items, (uint64_t)v->u.doubles.len * 8); break;
    case PF_VAL_BOOL_LIST:
      for (uint32_t k = 0; k < v->u.bools.len; k++) FZ_REQUIRE(v->u.bools.items[k] <= 1);
      break;
    default: break;
  }
}

static void check_plan(const pf_pte *p, const pf_plan *pl) {
  FZ_REQUIRE(pl->name.ptr != NULL);
  fz_str(pl->name.ptr, pl->name.len);
  for (uint32_t i = 0; i < pl->nvalues; i++) check_value(pl, &pl->values[i], p);
  for (uint32_t i = 0; i < pl->ninputs; i++)
    FZ_REQUIRE(pl->inputs[i] >= 0 && (uint32_t)pl->inputs[i] < pl->nvalues);
  for (uint32_t i = 0; i < pl->noutputs; i++)
    FZ_REQUIRE(pl->outputs[i] >= 0 && (uint32_t)pl->outputs[i] < pl->nvalues);
  for (uint32_t i = 0; i < pl->nops; i++) {
    FZ_REQUIRE(pl->ops[i].name.ptr != NULL);
    fz_str(pl->ops[i].name.ptr, pl->ops[i].name.len);
    fz_str(pl->ops[i].overload.ptr, pl->ops[i].overload.len);
  }
  for (uint32_t i = 0; i < pl->ndelegates; i++) {
    const pf_delegate *d = &pl->delegates[i];
    FZ_REQUIRE(d->id.ptr != NULL);
    fz_str(d->id.ptr, d->id.len);
    for (uint32_t k = 0; k < d->nspecs; k++) {
      fz_str(d->specs[k].key.ptr, d->specs[k].key.len);
      fz_touch(d->specs[k].value.ptr, d->specs[k].value.len);
    }
    pf_bytes blob;
    pt_err e;
    if (pf_pte_delegate_blob(p, d, &blob, &e) == PTERA_OK) fz_touch(blob.ptr, blob.len);
    else FZ_REQUIRE(e.msg[0] != '\0');
  }
  for (uint32_t c = 0; c < pl->nchains; c++) {
    const pf_chain *ch = &pl->chains[c];
    for (uint32_t k = 0; k < ch->ninstrs; k++) {
      const pf_instr *in = &ch->instrs[k];
      switch (in->type) {
        case PF_INSTR_KERNEL:
          FZ_REQUIRE(in->a >= 0 && (uint32_t)in->a < pl->nops);
          break;
        case PF_INSTR_DELEGATE:
          FZ_REQUIRE(in->a >= 0 && (uint32_t)in->a < pl->ndelegates);
          break;
        case PF_INSTR_MOVE:
          FZ_REQUIRE(in->a >= 0 && (uint32_t)in->a < pl->nvalues);
          FZ_REQUIRE(in->b >= 0 && (uint32_t)in->b < pl->nvalues);
          break;
        case PF_INSTR_JUMP_FALSE:
          FZ_REQUIRE(in->a >= 0 && (uint32_t)in->a < pl->nvalues);
          FZ_REQUIRE(in->b >= 0 && (uint32_t)in->b <= ch->ninstrs);
          break;
        case PF_INSTR_FREE: FZ_REQUIRE(in->a >= 0 && (uint32_t)in->a < pl->nvalues); break;
        default: FZ_REQUIRE(!"unknown instruction type");
      }
      if (in->type == PF_INSTR_KERNEL || in->type == PF_INSTR_DELEGATE)
        for (uint32_t j = 0; j < in->nargs; j++)
          FZ_REQUIRE(in->args[j] >= 0 && (uint32_t)in->args[j] < pl->nvalues);
    }
  }
  if (pl->nbuffer_sizes) fz_touch(pl->buffer_sizes, (uint64_t)pl->nbuffer_sizes * 8);
}

int ptera_fuzz_pte(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_pte p;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_pte_parse(buf, size, &arena, &p, &err);
  if (st != PTERA_OK) {
    FZ_REQUIRE(err.msg[0] != '\0');
  } else {
    FZ_REQUIRE(pf_pte_identify(buf, size) == 1);
    for (uint32_t i = 0; i < p.nsegments; i++) {
      pf_bytes b;
      if (pf_pte_segment(&p, i, &b, &err) == PTERA_OK) fz_touch(b.ptr, b.len);
      else FZ_REQUIRE(err.msg[0] != '\0');
    }
    for (uint32_t i = 0; i < p.nconstant_buffer; i++)
      fz_touch(p.constant_buffer[i].ptr, p.constant_buffer[i].len);
    for (uint32_t i = 0; i < p.ndelegate_data; i++)
      fz_touch(p.delegate_data[i].ptr, p.delegate_data[i].len);
    for (uint32_t i = 0; i < p.nnamed; i++) {
      fz_str(p.named[i].key.ptr, p.named[i].key.len);
      pf_bytes b;
      if (pf_pte_named(&p, p.named[i].key.ptr, p.named[i].key.len, &b, &err) == PTERA_OK)
        fz_touch(b.ptr, b.len);
      else
        FZ_REQUIRE(err.msg[0] != '\0');
    }
    for (uint32_t i = 0; i < p.nplans; i++) check_plan(&p, &p.plans[i]);
  }
  pt_arena_release(&arena);
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(pte)
