/* The PTG reader (docs/PTG.md): text lines into pc_graph methods. Every
 * error is InvalidArgument (or MemoryAllocationFailed) with a message that
 * names the line. Value lines are in ptg_value.c. */
#include <stdarg.h>
#include <stdio.h>

#include "ptg_read.h"

ptera_status pc_rd_fail(pc_rd *r, const char *fmt, ...) {
  char msg[PT_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return pt_fail(r->err, PTERA_INVALID_ARGUMENT, "line %u: %s", r->line, msg);
}

ptera_status pc_rd_graph_fail(pc_rd *r) {
  return pt_fail(r->err, r->g->err.status ? r->g->err.status : PTERA_INVALID_ARGUMENT,
                 "line %u: %s", r->line, r->g->err.msg);
}

void *pc_rd_scratch(pc_rd *r, size_t count, size_t elem) {
  uint64_t need;
  if (!pt_mul_u64(count ? count : 1, elem, &need) || need > SIZE_MAX / 2) return NULL;
  if (need > r->scratch_cap) {
    size_t cap = r->scratch_cap ? r->scratch_cap : 256;
    while (cap < need) cap *= 2;
    void *p = pt_alloc(r->allocator, cap, 16);
    if (!p) return NULL;
    pt_free(r->allocator, r->scratch);
    r->scratch = p;
    r->scratch_cap = cap;
  }
  return r->scratch;
}

ptera_status pc_rd_oom(pc_rd *r) {
  return pt_fail(r->err, PTERA_MEMORY_ALLOCATION_FAILED, "line %u: out of memory", r->line);
}

bool pc_rd_id(pc_rd *r, pc_tok t, int32_t *out, const char *what) {
  int64_t v;
  if (!pc_tok_i64(t, &v)) {
    pc_rd_fail(r, "%s: expected a value id, got '%.*s'", what, (int)(t.n > 40 ? 40 : t.n), t.p);
    return false;
  }
  if (v < 0 || (uint64_t)v >= r->g->nvalues) {
    pc_rd_fail(r, "%s refers to value %lld, which is not declared (the method has %u so far)",
               what, (long long)v, (unsigned)r->g->nvalues);
    return false;
  }
  *out = (int32_t)v;
  return true;
}

/* Splits the line [p, p+n) at single spaces into r->toks. */
static ptera_status tokenize(pc_rd *r, const char *p, size_t n) {
  size_t count = 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == ' ') count++;
    else if (c < '!' || c > '~')
      return pc_rd_fail(r, "unexpected byte 0x%02X (tokens are printable ASCII separated by "
                           "single spaces, lines end with LF)", c);
  }
  if (count > r->toks_cap) {
    pc_tok *t = pt_calloc(r->allocator, count, sizeof *t, 0);
    if (!t) return pc_rd_oom(r);
    pt_free(r->allocator, r->toks);
    r->toks = t;
    r->toks_cap = count;
  }
  r->ntoks = 0;
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && p[i] != ' ') continue;
    if (i == start) return pc_rd_fail(r, "empty token (tokens are separated by single spaces)");
    r->toks[r->ntoks++] = (pc_tok){p + start, i - start};
    start = i + 1;
  }
  return PTERA_OK;
}

static ptera_status end_method(pc_rd *r) {
  if (!r->g) return PTERA_OK;
  const char *name = r->g->name;
  if (r->depth)
    return pc_rd_fail(r, "method '%s' ends with %u region(s) open: expected 'end'", name,
                      (unsigned)r->depth);
  if (!r->have_inputs) return pc_rd_fail(r, "method '%s' has no 'inputs' line", name);
  if (!r->have_outputs) return pc_rd_fail(r, "method '%s' has no 'outputs' line", name);
  r->g = NULL;
  return PTERA_OK;
}

static ptera_status start_method(pc_rd *r) {
  ptera_status st = end_method(r);
  if (st) return st;
  if (r->ntoks != 2) return pc_rd_fail(r, "expected 'method <name>'");
  pc_tok name = r->toks[1];
  pc_module *m = r->out;
  if (m->nmethods >= PC_PTG_MAX_METHODS)
    return pc_rd_fail(r, "more than %d methods", PC_PTG_MAX_METHODS);
  for (uint32_t i = 0; i < m->nmethods; i++)
    if (pc_tok_is(name, m->methods[i]->name))
      return pc_rd_fail(r, "duplicate method name '%s'", m->methods[i]->name);
  if (m->nmethods == r->methods_cap) {
    uint32_t cap = r->methods_cap ? r->methods_cap * 2 : 4;
    pc_graph **arr = pt_calloc(r->allocator, cap, sizeof *arr, 0);
    if (!arr) return pc_rd_oom(r);
    if (m->nmethods) memcpy(arr, m->methods, m->nmethods * sizeof *arr);
    pt_free(r->allocator, m->methods);
    m->methods = arr;
    r->methods_cap = cap;
  }
  char *cname = pc_rd_scratch(r, name.n + 1, 1);
  if (!cname) return pc_rd_oom(r);
  memcpy(cname, name.p, name.n);
  cname[name.n] = '\0';
  pc_graph *g = pc_graph_new(r->allocator, cname);
  if (!g) return pc_rd_oom(r);
  m->methods[m->nmethods++] = g;
  r->g = g;
  r->have_inputs = r->have_outputs = false;
  r->depth = 0;
  return PTERA_OK;
}

static ptera_status io_line(pc_rd *r, bool inputs) {
  bool *have = inputs ? &r->have_inputs : &r->have_outputs;
  const char *kw = inputs ? "inputs" : "outputs";
  if (*have) return pc_rd_fail(r, "a second '%s' line (it appears once per method)", kw);
  uint32_t n = (uint32_t)r->ntoks - 1;
  int32_t *ids = pc_rd_scratch(r, n, sizeof *ids);
  if (!ids) return pc_rd_oom(r);
  for (uint32_t i = 0; i < n; i++)
    if (!pc_rd_id(r, r->toks[i + 1], &ids[i], kw)) return r->err->status;
  ptera_status st = inputs ? pc_graph_set_inputs(r->g, ids, n) : pc_graph_set_outputs(r->g, ids, n);
  if (st) return pc_rd_graph_fail(r);
  *have = true;
  return PTERA_OK;
}

static bool is_scope_attr(pc_tok t) { return t.n >= 6 && memcmp(t.p, "scope=", 6) == 0; }

/* The `scope=<path>:<type>` attributes from token first on (every token
 * there is one; PTG.md) as node k's module stack. */
static ptera_status node_scope(pc_rd *r, uint32_t k, size_t first) {
  size_t n = r->ntoks - first, bytes = 0;
  if (n == 0) return PTERA_OK;
  for (size_t i = first; i < r->ntoks; i++) bytes += r->toks[i].n + 1;
  pc_gscope *s = pt_alloc(r->allocator, n * sizeof *s + bytes, 8);
  if (!s) return pc_rd_oom(r);
  char *p = (char *)(s + n);
  ptera_status st = PTERA_OK;
  for (size_t i = 0; i < n && st == PTERA_OK; i++) {
    pc_tok t = r->toks[first + i];
    size_t colon = 0;
    for (size_t j = 6; j < t.n; j++)
      if (t.p[j] == ':') colon = j;
    pc_tok path = {t.p + 6, colon > 6 ? colon - 6 : 0}, type = {t.p + colon + 1, colon ? t.n - colon - 1 : 0};
    if (path.n == 0 || type.n == 0) {
      st = pc_rd_fail(r, "node attribute '%.*s': expected scope=<module path>:<module type> after "
                         "the arguments", (int)(t.n > 40 ? 40 : t.n), t.p);
    } else if (!pc_tok_unescape(path, p) || !pc_tok_unescape(type, p + path.n + 1)) {
      st = pc_rd_fail(r, "node attribute '%.*s' has a bad escape (expected %%XX with two hex "
                         "digits, not %%00)", (int)(t.n > 40 ? 40 : t.n), t.p);
    } else {
      s[i] = (pc_gscope){p, p + path.n + 1};
      p += path.n + type.n + 2;
    }
  }
  if (st == PTERA_OK && pc_graph_set_scope(r->g, k, s, (uint32_t)n) != PTERA_OK)
    st = pc_rd_graph_fail(r);
  pt_free(r->allocator, s);
  return st;
}

static ptera_status node_line(pc_rd *r) {
  if (r->ntoks < 2) return pc_rd_fail(r, "expected 'node <namespace::name.overload> <args>'");
  size_t end = r->ntoks;
  while (end > 2 && is_scope_attr(r->toks[end - 1])) end--;
  uint32_t n = (uint32_t)end - 2;
  int32_t *args = pc_rd_scratch(r, n, sizeof *args + 1);
  if (!args) return pc_rd_oom(r);
  uint8_t *writes = (uint8_t *)(args + n);
  for (uint32_t i = 0; i < n; i++) {
    pc_tok t = r->toks[i + 2];
    writes[i] = t.n > 0 && t.p[0] == '!';
    if (writes[i]) t.p++, t.n--;
    if (!pc_rd_id(r, t, &args[i], "node argument")) return r->err->status;
  }
  pc_tok op = r->toks[1];
  char *cop = pt_alloc(r->allocator, op.n + 1, 1);
  if (!cop) return pc_rd_oom(r);
  memcpy(cop, op.p, op.n);
  cop[op.n] = '\0';
  int32_t k = pc_graph_call(r->g, cop, args, writes, n);
  pt_free(r->allocator, cop);
  return k < 0 ? pc_rd_graph_fail(r) : node_scope(r, (uint32_t)k, end);
}

static ptera_status region_line(pc_rd *r, bool begin) {
  char kind[64];
  if (begin) {
    if (r->ntoks != 2) return pc_rd_fail(r, "expected 'begin <region-kind>'");
    pc_tok t = r->toks[1];
    if (t.n >= sizeof kind) return pc_rd_fail(r, "region kind longer than 63 bytes");
    memcpy(kind, t.p, t.n);
    kind[t.n] = '\0';
    r->depth++;
  } else {
    if (r->ntoks != 1) return pc_rd_fail(r, "expected a bare 'end'");
    if (r->depth == 0) return pc_rd_fail(r, "'end' without a matching 'begin'");
    r->depth--;
    kind[0] = '\0';
  }
  return pc_graph_region(r->g, begin, kind) < 0 ? pc_rd_graph_fail(r) : PTERA_OK;
}

static ptera_status alias_line(pc_rd *r) {
  if (r->ntoks != 3) return pc_rd_fail(r, "expected 'alias <a> <b>'");
  int32_t a, b;
  if (!pc_rd_id(r, r->toks[1], &a, "alias") || !pc_rd_id(r, r->toks[2], &b, "alias"))
    return r->err->status;
  return pc_graph_alias(r->g, a, b) ? pc_rd_graph_fail(r) : PTERA_OK;
}

static ptera_status body_line(pc_rd *r) {
  pc_tok kw = r->toks[0];
  if (pc_tok_is(kw, "method")) return start_method(r);
  if (!r->g) return pc_rd_fail(r, "expected 'method <name>' before '%.*s'", (int)(kw.n > 20 ? 20 : kw.n), kw.p);
  if (pc_tok_is(kw, "value")) return pc_rd_value(r);
  if (pc_tok_is(kw, "inputs")) return io_line(r, true);
  if (pc_tok_is(kw, "outputs")) return io_line(r, false);
  if (pc_tok_is(kw, "alias")) return alias_line(r);
  if (pc_tok_is(kw, "node")) return node_line(r);
  if (pc_tok_is(kw, "begin")) return region_line(r, true);
  if (pc_tok_is(kw, "end")) return region_line(r, false);
  return pc_rd_fail(r, "unknown keyword '%.*s' (expected method, value, inputs, outputs, alias, "
                       "node, begin, end or data)", (int)(kw.n > 20 ? 20 : kw.n), kw.p);
}

static bool is_data_line(const uint8_t *p, size_t n) {
  return n >= 4 && memcmp(p, "data", 4) == 0 && (n == 4 || p[4] == ' ' || p[4] == '\n');
}

/* Finds the data line; sets r->text_end, r->data, r->data_size. */
static ptera_status find_data(pc_rd *r, const uint8_t *bytes, size_t size) {
  r->text_end = size;
  size_t pos = 0;
  unsigned line = 1;
  while (pos < size) {
    const uint8_t *nl = memchr(bytes + pos, '\n', size - pos);
    size_t end = nl ? (size_t)(nl - bytes) : size;
    if (line > 1 && is_data_line(bytes + pos, end - pos)) {
      r->line = line;
      r->text_end = pos;
      r->data_line = line;
      pc_tok t[2];
      const char *p = (const char *)bytes + pos;
      const char *sp = memchr(p, ' ', end - pos);
      if (!sp) return pc_rd_fail(r, "expected 'data <nbytes>'");
      t[1] = (pc_tok){sp + 1, (size_t)((const char *)bytes + end - (sp + 1))};
      uint64_t n;
      if (!pc_tok_u64(t[1], &n))
        return pc_rd_fail(r, "expected 'data <nbytes>' with a decimal byte count");
      if (!nl) return pc_rd_fail(r, "the data line must end with a newline before its bytes");
      size_t have = size - end - 1;
      if (have < n)
        return pc_rd_fail(r, "the data section is truncated: %zu of %llu bytes present", have,
                          (unsigned long long)n);
      if (have > n)
        return pc_rd_fail(r, "%llu trailing bytes after the %llu-byte data section",
                          (unsigned long long)(have - n), (unsigned long long)n);
      r->data = bytes + end + 1;
      r->data_size = (size_t)n;
      r->has_data = true;
      return PTERA_OK;
    }
    pos = end + 1;
    line++;
  }
  return PTERA_OK;
}

static ptera_status parse(pc_rd *r, const uint8_t *bytes) {
  size_t pos = 0;
  r->line = 0;
  while (pos < r->text_end) {
    r->line++;
    const uint8_t *nl = memchr(bytes + pos, '\n', r->text_end - pos);
    size_t end = nl ? (size_t)(nl - bytes) : r->text_end;
    const char *p = (const char *)bytes + pos;
    size_t n = end - pos;
    pos = end + 1;
    if (r->line == 1) {
      if (n != 5 || memcmp(p, "ptg 1", 5) != 0)
        return pc_rd_fail(r, "expected the header 'ptg 1' (format version 1)");
      continue;
    }
    if (n == 0 || p[0] == '#') continue;
    ptera_status st = tokenize(r, p, n);
    if (!st) st = body_line(r);
    if (st) return st;
  }
  if (r->line == 0) {
    r->line = 1;
    return pc_rd_fail(r, "empty file: expected the header 'ptg 1'");
  }
  if (r->has_data) r->line = r->data_line;
  else r->line++;
  ptera_status st = end_method(r);
  if (st) return st;
  if (r->out->nmethods == 0) return pc_rd_fail(r, "the file declares no method");
  return PTERA_OK;
}

ptera_status pc_ptg_parse(const uint8_t *bytes, size_t size, const ptera_allocator *allocator,
                          pc_module *out, pt_err *err) {
  pt_err local;
  if (!err) err = &local;
  pt_err_clear(err);
  if (!out) return pt_fail(err, PTERA_INVALID_ARGUMENT, "pc_ptg_parse: no output module");
  memset(out, 0, sizeof *out);
  out->allocator = allocator;
  if (!bytes && size) return pt_fail(err, PTERA_INVALID_ARGUMENT, "pc_ptg_parse: no input bytes");
  pc_rd r;
  memset(&r, 0, sizeof r);
  r.allocator = allocator;
  r.err = err;
  r.out = out;
  ptera_status st = size ? find_data(&r, bytes, size) : PTERA_OK;
  if (!st) st = parse(&r, bytes);
  pt_free(allocator, r.scratch);
  pt_free(allocator, r.toks);
  if (st) {
    pc_module_free(out);
    out->allocator = allocator;
  }
  return st;
}
