/* Program loading, attached data files, and method metadata. */
#include <stdio.h>

#include "runtime/runtime.h"

/* A program with the caller's options (NULL: the defaults); *st is the
 * options' check, recorded in the program's message when it fails. */
static ptera_program *program_new(const ptera_load_options *options, ptera_status *st) {
  ptera_load_options o = PTERA_LOAD_OPTIONS_INIT;
  pt_err err = {PTERA_OK, ""};
  *st = options ? pt_struct_in(&o, sizeof o, options, PR_LOAD_OPTIONS_V1_SIZE, "ptera_load_options",
                               &err)
                : PTERA_OK;
  const ptera_allocator *a = o.allocator;
  ptera_program *p = pt_calloc(a, 1, sizeof *p, 16);
  if (!p) return NULL;
  p->allocator = a;
  p->options = o;
  p->err = err;
  if (!p->options.max_file_size) p->options.max_file_size = PTERA_DEFAULT_MAX_FILE_SIZE;
  if (!p->options.max_planned_bytes) p->options.max_planned_bytes = PTERA_DEFAULT_MAX_PLANNED_BYTES;
  if (!p->options.max_values) p->options.max_values = PTERA_DEFAULT_MAX_VALUES;
  if (!p->options.max_instructions) p->options.max_instructions = PTERA_DEFAULT_MAX_INSTRUCTIONS;
  pt_arena_init(&p->arena, a);
  p->named_data.program = p;
  return p;
}

static ptera_status check_limits(ptera_program *p) {
  for (uint32_t i = 0; i < p->pte.nplans; i++) {
    const pf_plan *plan = &p->pte.plans[i];
    uint64_t ninstr = 0;
    for (uint32_t c = 0; c < plan->nchains; c++) ninstr += plan->chains[c].ninstrs;
    if (plan->nvalues > p->options.max_values)
      return pt_fail(&p->err, PTERA_OUT_OF_RESOURCES,
                     "method '%s' has %u values, over the limit of %u (ptera_load_options.max_values)",
                     plan->name.ptr, plan->nvalues, p->options.max_values);
    if (ninstr > p->options.max_instructions)
      return pt_fail(&p->err, PTERA_OUT_OF_RESOURCES,
                     "method '%s' has %llu instructions, over the limit of %u "
                     "(ptera_load_options.max_instructions)",
                     plan->name.ptr, (unsigned long long)ninstr, p->options.max_instructions);
  }
  return PTERA_OK;
}

static ptera_status program_parse(ptera_program *p) {
  if (p->bytes.size > p->options.max_file_size)
    return pt_fail(&p->err, PTERA_OUT_OF_RESOURCES,
                   "program is %llu bytes, over the %llu-byte file size limit",
                   (unsigned long long)p->bytes.size, (unsigned long long)p->options.max_file_size);
  ptera_status st = pf_pte_parse(p->bytes.data, p->bytes.size, &p->arena, &p->pte, &p->err);
  if (st != PTERA_OK) return st;
  st = check_limits(p);
  if (st != PTERA_OK) return st;
  p->loaded = true;
  return PTERA_OK;
}

static ptera_status finish_load(ptera_program *p, ptera_status st, ptera_program **out) {
  if (st == PTERA_OK) st = program_parse(p);
  *out = p;
  return st;
}

ptera_status ptera_program_load_file(const char *path, const ptera_load_options *options,
                                     ptera_program **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = NULL;
  ptera_status st;
  ptera_program *p = program_new(options, &st);
  if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (st != PTERA_OK) return finish_load(p, st, out);
  st = path ? pr_bytes_map_file(&p->bytes, path, p->options.max_file_size, p->allocator, &p->err)
            : pt_fail(&p->err, PTERA_INVALID_ARGUMENT, "no path given");
  return finish_load(p, st, out);
}

ptera_status ptera_program_load_buffer(const void *data, size_t size,
                                       const ptera_load_options *options, ptera_program **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = NULL;
  ptera_status st;
  ptera_program *p = program_new(options, &st);
  if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (st != PTERA_OK) return finish_load(p, st, out);
  st = pr_bytes_from_buffer(&p->bytes, data, size, p->allocator, &p->err);
  return finish_load(p, st, out);
}

ptera_status ptera_program_load_callback(ptera_read_fn read, void *user_data, uint64_t size,
                                         const ptera_load_options *options, ptera_program **out) {
  if (!out) return PTERA_INVALID_ARGUMENT;
  *out = NULL;
  ptera_status st;
  ptera_program *p = program_new(options, &st);
  if (!p) return PTERA_MEMORY_ALLOCATION_FAILED;
  if (st != PTERA_OK) return finish_load(p, st, out);
  if (!read || size == 0) {
    st = pt_fail(&p->err, PTERA_INVALID_ARGUMENT, "a read callback and a non-zero size are needed");
  } else if (size > p->options.max_file_size || size > SIZE_MAX) {
    st = pt_fail(&p->err, PTERA_OUT_OF_RESOURCES,
                 "program is %llu bytes, over the %llu-byte file size limit",
                 (unsigned long long)size, (unsigned long long)p->options.max_file_size);
  } else {
    void *buf = pt_alloc(p->allocator, (size_t)size, 64);
    if (!buf) {
      st = pt_fail(&p->err, PTERA_MEMORY_ALLOCATION_FAILED,
                   "cannot allocate %llu bytes for the program", (unsigned long long)size);
    } else {
      p->bytes.owned = buf;
      p->bytes.allocator = p->allocator;
      p->bytes.data = buf;
      p->bytes.size = size;
      if (read(user_data, 0, buf, (size_t)size) != 0)
        st = pt_fail(&p->err, PTERA_ACCESS_FAILED, "the read callback failed");
    }
  }
  return finish_load(p, st, out);
}

void ptera_program_destroy(ptera_program *p) {
  if (!p) return;
  for (pr_datafile *f = p->files; f;) {
    pr_datafile *next = f->next;
    pr_bytes_release(&f->bytes);
    f = next;
  }
  pr_bytes_release(&p->bytes);
  pt_arena_release(&p->arena);
  pt_free(p->allocator, p);
}

const char *ptera_program_errmsg(const ptera_program *p) {
  return p ? p->err.msg : "out of memory";
}

const pf_ptd_entry *pr_find_external(const ptera_program *p, const char *key, size_t len,
                                     const pr_datafile **out_file) {
  for (const pr_datafile *f = p->files; f; f = f->next) {
    const pf_ptd_entry *e = pf_ptd_find(&f->ptd, key, len);
    if (e) {
      if (out_file) *out_file = f;
      return e;
    }
  }
  return NULL;
}

static ptera_status attach(ptera_program *p, pr_datafile *f) {
  ptera_status st = pf_ptd_parse(f->bytes.data, f->bytes.size, &p->arena, &f->ptd, &p->err);
  if (st != PTERA_OK) {
    pt_err_prefix(&p->err, "data file '%s'", f->name);
    return st;
  }
  for (uint32_t i = 0; i < f->ptd.nentries; i++) {
    const pf_ptd_entry *e = &f->ptd.entries[i];
    const pr_datafile *other;
    if (pr_find_external(p, e->key.ptr, e->key.len, &other))
      return pt_fail(&p->err, PTERA_INVALID_ARGUMENT,
                     "key '%s' is in both '%s' and '%s'; each key may come from one data file only",
                     e->key.ptr, other->name, f->name);
  }
  pr_datafile **tail = &p->files;
  while (*tail) tail = &(*tail)->next;
  *tail = f;
  p->nfiles++;
  return PTERA_OK;
}

static pr_datafile *datafile_new(ptera_program *p, const char *name) {
  pr_datafile *f = pt_arena_alloc(&p->arena, sizeof *f, 16);
  if (!f) {
    pt_fail(&p->err, PTERA_MEMORY_ALLOCATION_FAILED, "out of memory attaching a data file");
    return NULL;
  }
  pt_snprintf(f->name, sizeof f->name, "%s", name);
  return f;
}

ptera_status ptera_program_attach_data_file(ptera_program *p, const char *path) {
  if (!p || !path) return PTERA_INVALID_ARGUMENT;
  pr_datafile *f = datafile_new(p, path);
  if (!f) return PTERA_MEMORY_ALLOCATION_FAILED;
  ptera_status st = pr_bytes_map_file(&f->bytes, path, p->options.max_file_size, p->allocator, &p->err);
  if (st == PTERA_OK) st = attach(p, f);
  if (st != PTERA_OK) pr_bytes_release(&f->bytes);
  return st;
}

ptera_status ptera_program_attach_data_buffer(ptera_program *p, const void *data, size_t size) {
  if (!p) return PTERA_INVALID_ARGUMENT;
  char name[32];
  pt_snprintf(name, sizeof name, "<buffer %zu>", p->nfiles);
  pr_datafile *f = datafile_new(p, name);
  if (!f) return PTERA_MEMORY_ALLOCATION_FAILED;
  ptera_status st = pr_bytes_from_buffer(&f->bytes, data, size, p->allocator, &p->err);
  if (st == PTERA_OK) st = attach(p, f);
  if (st != PTERA_OK) pr_bytes_release(&f->bytes);
  return st;
}

const ptera_named_data *ptera_program_named_data(const ptera_program *p) {
  return p ? &p->named_data : NULL;
}

ptera_status ptera_named_data_get(const ptera_named_data *map, const char *key, size_t key_len,
                                  const void **out_data, size_t *out_size) {
  if (!map || !key || !out_data || !out_size) return PTERA_INVALID_ARGUMENT;
  const ptera_program *p = map->program;
  const pf_ptd_entry *e = pr_find_external(p, key, key_len, NULL);
  if (e) {
    *out_data = e->data.ptr;
    *out_size = (size_t)e->data.len;
    return PTERA_OK;
  }
  pf_bytes b;
  ptera_status st = pf_pte_named(&p->pte, key, key_len, &b, NULL);
  if (st != PTERA_OK) return st;
  *out_data = b.ptr;
  *out_size = (size_t)b.len;
  return PTERA_OK;
}
