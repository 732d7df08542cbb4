#!/usr/bin/env python3
"""The CLI never puts raw bytes from a file or the user on the terminal.

Every corpus file (.pte, .bpte, .ptd) goes through `ptera inspect` and
`ptera inspect --json`; then copies of corpus files with names patched in
place (method, operator, delegate, named-data and .ptd keys replaced by
same-length byte strings holding ANSI escapes, other control bytes, C1 and
bidirectional controls and bytes that are not UTF-8) go through inspect, run
and verify. Checks: the human output has no control character and is valid
UTF-8, each crafted name appears in the escaped form the tool documents
(computed here from the rule, not from the tool), and every --json output
parses with Python's json and holds the same escaped names.

usage: hostile_output.py PTERA CORPUS_DIR
"""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata

PTERA, CORPUS = sys.argv[1], sys.argv[2]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL", msg)


def escape(raw: bytes) -> str:
    """The tool's documented escape: printable ASCII and well-formed UTF-8 as
    is, a backslash doubled, control / bidi / line-separator characters and
    bytes that are not UTF-8 as \\xNN per byte."""
    out, i = [], 0
    while i < len(raw):
        ch, n = None, 0
        for n in (1, 2, 3, 4):
            try:
                ch = raw[i:i + n].decode("utf-8")
                break
            except UnicodeDecodeError:
                ch = None
        cp = ord(ch) if ch and len(ch) == 1 else None
        bad = cp is None or cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x061C, 0x200E, 0x200F, 0xFEFF) \
            or 0x2028 <= cp <= 0x202E or 0x2066 <= cp <= 0x2069
        if bad:
            k = n if cp is not None else 1
            out.extend("\\x%02x" % b for b in raw[i:i + k])
            i += k
        else:
            out.append("\\\\" if ch == "\\" else ch)
            i += n
    return "".join(out)


def check_clean(what, data: bytes):
    """No control character (but newline), no C1/bidi control, valid UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(f"{what}: output is not UTF-8 ({e})")
        return ""
    for ch in text:
        cp = ord(ch)
        if ch == "\n":
            continue
        if unicodedata.category(ch) in ("Cc", "Cf") or cp in (0x2028, 0x2029):
            fail(f"{what}: raw control character U+{cp:04X} in output")
            break
    return text


def ptera(*args):
    args = [a if isinstance(a, bytes) else a.encode() for a in args]
    return subprocess.run([PTERA.encode(), *args], capture_output=True, timeout=60)


def strings(doc):
    """Every string in a parsed JSON document."""
    if isinstance(doc, str):
        yield doc
    elif isinstance(doc, dict):
        for v in doc.values():
            yield from strings(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from strings(v)


SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                           "inspect.schema.json")
with open(SCHEMA_PATH) as f:
    SCHEMA = json.load(f)
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def schema_errors(doc, sch, where="$"):
    """The subset of JSON Schema docs/inspect.schema.json uses ($ref, oneOf,
    const, enum, type, required, properties, additionalProperties: false,
    items, minimum, maximum); returns a list of problems."""
    if "$ref" in sch:
        sch = SCHEMA["$defs"][sch["$ref"].split("/")[-1]]
    if "oneOf" in sch:
        ok = [s for s in sch["oneOf"] if not schema_errors(doc, s, where)]
        return [] if len(ok) == 1 else [f"{where}: matches {len(ok)} of oneOf"]
    if "const" in sch and doc != sch["const"]:
        return [f"{where}: {doc!r} != {sch['const']!r}"]
    if "enum" in sch and doc not in sch["enum"]:
        return [f"{where}: {doc!r} not in {sch['enum']}"]
    t = sch.get("type")
    if t == "integer":
        if not isinstance(doc, int) or isinstance(doc, bool):
            return [f"{where}: not an integer"]
        if doc < sch.get("minimum", doc) or doc > sch.get("maximum", doc):
            return [f"{where}: {doc} out of range"]
    elif t and not isinstance(doc, TYPES[t]) or (t in ("object", "array", "string") and isinstance(doc, bool)):
        return [f"{where}: not of type {t}"]
    errs = []
    if isinstance(doc, dict):
        errs += [f"{where}: missing {k}" for k in sch.get("required", []) if k not in doc]
        props = sch.get("properties", {})
        for k, v in doc.items():
            if k in props:
                errs += schema_errors(v, props[k], f"{where}.{k}")
            elif sch.get("additionalProperties") is False:
                errs.append(f"{where}: unexpected key {k}")
    if isinstance(doc, list) and "items" in sch:
        for i, v in enumerate(doc):
            errs += schema_errors(v, sch["items"], f"{where}[{i}]")
    return errs


def inspect_both(path, label, expect_names=()):
    r = ptera("inspect", path)
    text = check_clean(f"{label}: inspect stdout", r.stdout)
    check_clean(f"{label}: inspect stderr", r.stderr)
    j = ptera("inspect", "--json", path)
    check_clean(f"{label}: inspect --json stderr", j.stderr)
    if r.returncode != j.returncode:
        fail(f"{label}: inspect exit {r.returncode} but --json exit {j.returncode}")
    doc = None
    if j.returncode == 0:
        try:
            doc = json.loads(j.stdout.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            fail(f"{label}: inspect --json is not valid JSON: {e}")
    if doc is not None:
        for e in schema_errors(doc, SCHEMA)[:3]:
            fail(f"{label}: docs/inspect.schema.json: {e}")
    for raw in expect_names:
        esc = escape(raw)
        if r.returncode != 0:
            fail(f"{label}: inspect failed: {r.stderr.decode('utf-8', 'replace')}")
            break
        if esc not in text:
            fail(f"{label}: escaped name {esc!r} not in inspect output")
        if doc is not None and not any(esc in t for t in strings(doc)):
            fail(f"{label}: escaped name {esc!r} not among --json strings")
    return r.returncode, doc


def patch(data: bytes, old: bytes, new: bytes) -> bytes:
    """Replaces every FlatBuffers string `old` (u32 length, bytes, NUL) with
    `new`, cut or padded with 'z' to the same length."""
    new = (new + b"z" * len(old))[: len(old)]
    pat = struct.pack("<I", len(old)) + old + b"\0"
    if pat not in data:
        raise SystemExit(f"corpus string {old!r} not found")
    return data.replace(pat, struct.pack("<I", len(old)) + new + b"\0")


def corpus(name):
    with open(os.path.join(CORPUS, "pte", name), "rb") as f:
        return f.read()


EVIL = [
    b"\x1b[31mRED\x1b[0m",          # ANSI colour
    b"\x1b]0;title\x07",             # OSC: sets the terminal title
    b"\xff\xfe\xc3(\xe2\x82",        # not UTF-8
    b"\xc2\x9b2J\xe2\x80\xaeab",     # C1 CSI, right-to-left override
    b"a\\b\x00c\x7f\td\r",           # backslash, NUL, DEL, tab, CR
]

# Every corpus file through inspect (human and JSON).
files = sorted(glob.glob(os.path.join(CORPUS, "pte", "*")))
kinds = {}
for path in files:
    rc, doc = inspect_both(path, os.path.basename(path))
    if doc is not None:
        kinds[doc.get("kind")] = kinds.get(doc.get("kind"), 0) + 1
    for entry in (doc or {}).get("methods", []):
        for io in entry["inputs"] + entry["outputs"]:
            if not isinstance(io["kind"], str) or ("dynamism" in io and not isinstance(io["dynamism"], str)):
                fail(f"{os.path.basename(path)}: enum printed as a number: {io}")
for k in ("program", "bundled_program", "data"):
    if not kinds.get(k):
        fail(f"no corpus file inspected as {k}: {kinds}")
print(f"corpus: {len(files)} files inspected ({kinds})")

tmp = tempfile.mkdtemp(prefix="ptera_hostile_")
ncrafted = 0


def crafted(name, data, names, extra=None):
    global ncrafted
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    ncrafted += 1
    inspect_both(path, name, names)
    if extra:
        extra(path)


for k, evil in enumerate(EVIL):
    # Method name (a .pte; also in a bundle's suite and its inner program).
    new = (evil + b"z" * 7)[:7]
    add = corpus("pytorch+executorch__add.pte")
    def run_checks(path, new=new):
        r = ptera("run", path)  # no method 'forward': the error lists nothing raw
        check_clean("run (missing forward) stderr", r.stderr)
        r = ptera("run", path, "--method", new.replace(b"\0", b"z"))  # argv has no NUL
        check_clean("run --method crafted stdout", r.stdout)
        check_clean("run --method crafted stderr", r.stderr)
    crafted(f"method{k}.pte", patch(add, b"forward", evil), [new], run_checks)
    bundle = corpus("pytorch+executorch__extension_module_test_resources_bundled_program.bpte")
    def verify_checks(path):
        r = ptera("verify", path)
        check_clean("verify stdout", r.stdout)
        check_clean("verify stderr", r.stderr)
    crafted(f"bundle{k}.bpte", patch(bundle, b"forward", evil), [new], verify_checks)
    # Operator name and overload.
    op = (evil + b"z" * 9)[:9]
    crafted(f"operator{k}.pte", patch(patch(add, b"aten::add", evil), b"out", evil[::-1]),
            [op, (evil[::-1] + b"zzz")[:3]])
    # Delegate id.
    xnn = corpus("pytorch+executorch__xnnpack_add.ff.pte")
    did = (evil + b"z" * 14)[:14]
    crafted(f"delegate{k}.pte", patch(xnn, b"XnnpackBackend", evil), [did],
            lambda p: check_clean("run (crafted delegate) stderr", ptera("run", p).stderr))
    # Keys of a .ptd (current and legacy layout) and a .pte's named data.
    ptd = corpus("pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.ptd")
    key = (evil + b"z" * 15)[:15]
    crafted(f"key{k}.ptd", patch(ptd, b"net.linear.bias", evil), [key])
    legacy = corpus("pytorch+executorch__extension_module_test_resources_linear.ptd")
    crafted(f"legacy{k}.ptd", patch(legacy, b"linear.bias", evil), [(evil + b"z" * 11)[:11]])
    # An external tensor's key inside a .pte, run without its .ptd.
    xor = corpus("pytorch+executorch__extension_android_executorch_android_src_androidTest_resources_xor.pte")
    crafted(f"fqn{k}.pte", patch(xor, b"net.linear.bias", evil), [key],
            lambda p: check_clean("run (missing data) stderr", ptera("run", p).stderr))

# A user-given path and option value are escaped too.
r = ptera("inspect", os.path.join(tmp, "no\x1b[2Jsuch\x07.pte"))
check_clean("inspect missing crafted path stderr", r.stderr)
r = ptera("verify", "x.bpte", "--rtol", "\x1b[31m")
check_clean("verify bad --rtol stderr", r.stderr)
if r.returncode != 2:
    fail(f"verify --rtol <escape>: exit {r.returncode}, want 2")

shutil.rmtree(tmp)
print(f"crafted: {ncrafted} files")
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("OK")
