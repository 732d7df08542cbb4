/* Kernel and backend registries. Built-in kernels come from kernels/ops.def;
 * callers may add kernels for custom ops and backends for delegates. */
#include "runtime/runtime.h"
#include "runtime/tables.h"

/* A registered user table: plain entries or defs (one of the two). */
typedef struct pr_user_table {
  const ptera_kernel_entry *entries;
  const ptera_kernel_def *defs;
  size_t count;
} pr_user_table;

static pr_user_table user_tables[PTERA_MAX_KERNEL_TABLES];
static size_t user_table_count;

static const ptera_backend *backends[PTERA_MAX_BACKENDS];
static size_t backend_count;

static bool name_eq(const char *a, const char *b, size_t blen) {
  /* b may hold NUL bytes (hostile names): compare lengths first. */
  return strlen(a) == blen && memcmp(a, b, blen) == 0;
}

static const char *table_name(const pr_user_table *t, size_t i) {
  return t->defs ? t->defs[i].name : t->entries[i].name;
}

bool pr_find_kernel_def(const char *name, size_t len, ptera_kernel_def *out) {
  for (size_t t = 0; t < user_table_count; t++) {
    const pr_user_table *u = &user_tables[t];
    for (size_t i = 0; i < u->count; i++) {
      if (!name_eq(table_name(u, i), name, len)) continue;
      if (u->defs) {
        *out = u->defs[i];
      } else {
        *out = (ptera_kernel_def){PTERA_KERNEL_ABI_VERSION, u->entries[i].name, u->entries[i].fn,
                                  NULL};
      }
      return true;
    }
  }
  for (size_t i = 0; i < pk_builtin_kernel_count; i++)
    if (name_eq(pk_builtin_kernels[i].name, name, len)) {
      *out = pk_builtin_kernels[i];
      return true;
    }
  return false;
}

ptera_kernel_fn pr_find_kernel(const char *name, size_t len) {
  ptera_kernel_def d;
  return pr_find_kernel_def(name, len, &d) ? d.run : NULL;
}

ptera_kernel_fn ptera_kernel_find(const char *name, size_t name_len) {
  return name ? pr_find_kernel(name, name_len) : NULL;
}

/* Checks a new table (names valid, not registered, not repeated) and adds it. */
static ptera_status add_table(pr_user_table t) {
  if (!t.entries && !t.defs && t.count) return PTERA_INVALID_ARGUMENT;
  if (user_table_count == PTERA_MAX_KERNEL_TABLES) return PTERA_REGISTRATION_EXCEEDING_MAX_KERNELS;
  for (size_t i = 0; i < t.count; i++) {
    const char *name = table_name(&t, i);
    if (!name || !(t.defs ? t.defs[i].run : t.entries[i].fn)) return PTERA_INVALID_ARGUMENT;
    if (t.defs && t.defs[i].abi_version != PTERA_KERNEL_ABI_VERSION) return PTERA_NOT_SUPPORTED;
    if (pr_find_kernel(name, strlen(name))) return PTERA_REGISTRATION_ALREADY_REGISTERED;
    for (size_t j = 0; j < i; j++)
      if (strcmp(name, table_name(&t, j)) == 0) return PTERA_REGISTRATION_ALREADY_REGISTERED;
  }
  user_tables[user_table_count++] = t;
  return PTERA_OK;
}

ptera_status ptera_kernel_register(const ptera_kernel_entry *entries, size_t count) {
  if (!entries && count) return PTERA_INVALID_ARGUMENT;
  return add_table((pr_user_table){entries, NULL, count});
}

ptera_status ptera_kernel_register_defs(const ptera_kernel_def *defs, size_t count) {
  if (!defs && count) return PTERA_INVALID_ARGUMENT;
  return add_table((pr_user_table){NULL, defs, count});
}

size_t ptera_kernel_count(void) {
  size_t n = pk_builtin_kernel_count;
  for (size_t t = 0; t < user_table_count; t++) n += user_tables[t].count;
  return n;
}

const char *ptera_kernel_name(size_t index) {
  for (size_t t = 0; t < user_table_count; t++) {
    if (index < user_tables[t].count) return table_name(&user_tables[t], index);
    index -= user_tables[t].count;
  }
  return index < pk_builtin_kernel_count ? pk_builtin_kernels[index].name : NULL;
}

ptera_status ptera_backend_register(const ptera_backend *backend) {
  if (!backend || !backend->name || !backend->init || !backend->execute)
    return PTERA_INVALID_ARGUMENT;
  if (backend->abi_version < PTERA_BACKEND_ABI_VERSION_MIN || backend->abi_version > PTERA_BACKEND_ABI_VERSION)
    return PTERA_NOT_SUPPORTED;
  if (ptera_backend_find(backend->name, strlen(backend->name))) return PTERA_INVALID_ARGUMENT;
  if (backend_count == PTERA_MAX_BACKENDS) return PTERA_OUT_OF_RESOURCES;
  backends[backend_count++] = backend;
  return PTERA_OK;
}

size_t ptera_backend_count(void) { return backend_count + pb_builtin_backend_count; }

const ptera_backend *ptera_backend_at(size_t index) {
  if (index < backend_count) return backends[index];
  index -= backend_count;
  return index < pb_builtin_backend_count ? pb_builtin_backends[index] : NULL;
}

const ptera_backend *ptera_backend_find(const char *name, size_t name_len) {
  for (size_t i = 0; i < backend_count; i++)
    if (name_eq(backends[i]->name, name, name_len)) return backends[i];
  for (size_t i = 0; i < pb_builtin_backend_count; i++)
    if (name_eq(pb_builtin_backends[i]->name, name, name_len)) return pb_builtin_backends[i];
  return NULL;
}
