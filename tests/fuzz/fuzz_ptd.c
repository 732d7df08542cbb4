/* Fuzzes the .ptd (FlatTensor) reader: pf_ptd_parse, then every entry's key,
 * blob and layout, and pf_ptd_find for every key. */
#include "format/ptd.h"
#include "fuzz.h"

static void check_layout(const pf_ptd_entry *e) {
  const pf_layout *l = &e->layout;
  if (!l->present) return;
  FZ_REQUIRE(l->dim <= PTERA_MAX_DIM);
  FZ_REQUIRE(l->scalar_type < PTERA_DTYPE_COUNT);
  unsigned seen = 0;
  for (unsigned d = 0; d < l->dim; d++) {
    FZ_REQUIRE(l->sizes[d] >= 0);
    FZ_REQUIRE(l->dim_order[d] < l->dim && !(seen & (1u << l->dim_order[d])));
    seen |= 1u << l->dim_order[d];
  }
}

int ptera_fuzz_ptd(const uint8_t *data, size_t size) {
  uint8_t *buf = fz_aligned_copy(data, size);
  if (!buf) return 0;
  pt_arena arena;
  pt_arena_init(&arena, NULL);
  pf_ptd d;
  pt_err err;
  pt_err_clear(&err);
  ptera_status st = pf_ptd_parse(buf, size, &arena, &d, &err);
  if (st != PTERA_OK) {
    FZ_REQUIRE(err.msg[0] != '\0');
  } else {
    for (uint32_t i = 0; i < d.nentries; i++) {
      const pf_ptd_entry *e = &d.entries[i];
      FZ_REQUIRE(e->key.ptr != NULL);
      fz_str(e->key.ptr, e->key.len);
      fz_touch(e->data.ptr, e->data.len);
      if (e->data.len)
        FZ_REQUIRE(e->data.ptr >= buf && e->data.len <= size &&
                   (uint64_t)(e->data.ptr - buf) <= size - e->data.len);
      check_layout(e);
      const pf_ptd_entry *found = pf_ptd_find(&d, e->key.ptr, e->key.len);
      FZ_REQUIRE(found != NULL && found->key.len == e->key.len);
    }
    FZ_REQUIRE(pf_ptd_find(&d, "\x01no such key\x02", 13) == NULL || d.nentries > 0);
  }
  pt_arena_release(&arena);
  free(buf);
  return 0;
}

PTERA_FUZZ_MAIN(ptd)
