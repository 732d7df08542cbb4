/* ptera_datafile (ptera/inspect.h): a .ptd read on its own, for its entries. */
#include "runtime/runtime.h"
#include "ptera/inspect.h"

struct ptera_datafile {
  const ptera_allocator *allocator;
  pt_err err;
  pt_arena arena;
  pr_bytes bytes;
  pf_ptd ptd;
  bool loaded;
};

static ptera_datafile *datafile_new(const ptera_load_options *options, ptera_load_options *o,
                                    ptera_status *st) {
  pt_err err;
  pt_err_clear(&err);
  *st = options ? pt_struct_in(o, sizeof *o, options, PR_LOAD_OPTIONS_V1_SIZE, "ptera_load_options", &err)
                : PTERA_OK;
  ptera_datafile *d = pt_calloc(o->allocator, 1, sizeof *d, 16);
  if (!d) return NULL;
  d->allocator = o->allocator;
  d->err = err;
  if (!o->max_file_size) o->max_file_size = PTERA_DEFAULT_MAX_FILE_SIZE;
  pt_arena_init(&d->arena, d->allocator);
  return d;
}

static ptera_status finish(ptera_datafile *d, ptera_status st, uint64_t max_size, ptera_datafile **out) {
  if (st == PTERA_OK && d->bytes.size > max_size)
    st = pt_fail(&d->err, PTERA_OUT_OF_RESOURCES, "data file is %llu bytes, over the %llu-byte file size limit",
                 (unsigned long long)d->bytes.size, (unsigned long long)max_size);
  if (st == PTERA_OK) st = pf_ptd_parse(d->bytes.data, d->bytes.size, &d->arena, &d->ptd, &d->err);
  d->loaded = st == PTERA_OK;
  *out = d;
  return st;
}

ptera_status ptera_datafile_load_file(const char *path, const ptera_load_options *options,
                                      ptera_datafile **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  ptera_status st;
  ptera_datafile *d = datafile_new(options, &o, &st);
  *out = d;
  if (!d) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (st == PTERA_OK)
    st = path ? pr_bytes_map_file(&d->bytes, path, o.max_file_size, d->allocator, &d->err)
              : pt_fail(&d->err, PTERA_INVALID_ARGUMENT, "no path given");
  return finish(d, st, o.max_file_size, out);
}

ptera_status ptera_datafile_load_buffer(const void *data, size_t size, const ptera_load_options *options,
                                        ptera_datafile **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  ptera_status st;
  ptera_datafile *d = datafile_new(options, &o, &st);
  *out = d;
  if (!d) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (st == PTERA_OK) st = pr_bytes_from_buffer(&d->bytes, data, size, d->allocator, &d->err);
  return finish(d, st, o.max_file_size, out);
}

void ptera_datafile_destroy(ptera_datafile *d) {
  if (!d) return;
  pr_bytes_release(&d->bytes);
  pt_arena_release(&d->arena);
  pt_free(d->allocator, d);
}

const char *ptera_datafile_errmsg(const ptera_datafile *d) { return d ? d->err.msg : "out of memory"; }

static ptera_status not_loaded(const ptera_datafile *d) {
  if (!d) return PTERA_INVALID_ARGUMENT;
  return pt_fail(&((ptera_datafile *)d)->err, PTERA_INVALID_STATE, "the data file did not load");
}

ptera_status ptera_datafile_get_info(const ptera_datafile *d, ptera_datafile_info *out) {
  if (!d || !d->loaded) return not_loaded(d);
  if (!out) return PTERA_INVALID_ARGUMENT;
  ptera_datafile_info info = PTERA_DATAFILE_INFO_INIT;
  info.file_size = d->ptd.file_size;
  info.legacy = d->ptd.legacy;
  info.segment_base_offset = d->ptd.segment_base;
  info.segment_data_size = d->ptd.segment_data_size;
  info.num_entries = d->ptd.nentries;
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}

/* The largest power of two (up to 4096) dividing off. */
static uint32_t alignment(uint64_t off) {
  uint32_t a = 1;
  while (a < 4096 && off % (2u * a) == 0) a *= 2;
  return a;
}

ptera_status ptera_datafile_get_entry(const ptera_datafile *d, size_t index, ptera_datafile_entry *out) {
  if (!d || !d->loaded) return not_loaded(d);
  if (!out || index >= d->ptd.nentries) return PTERA_INVALID_ARGUMENT;
  const pf_ptd_entry *e = &d->ptd.entries[index];
  ptera_datafile_entry info = PTERA_DATAFILE_ENTRY_INIT;
  info.key = e->key.ptr;
  info.key_len = e->key.len;
  info.offset = (uint64_t)(e->data.ptr - d->ptd.file);
  info.nbytes = e->data.len;
  info.alignment = alignment(info.offset);
  info.has_layout = e->layout.present;
  if (e->layout.present) {
    info.dtype = (ptera_dtype)e->layout.scalar_type;
    info.dim = e->layout.dim;
    memcpy(info.sizes, e->layout.sizes, sizeof info.sizes);
    memcpy(info.dim_order, e->layout.dim_order, sizeof info.dim_order);
  }
  return pt_struct_out(out, &info, sizeof info, sizeof info);
}
