#!/usr/bin/env python3
"""Checks ptera's hand-written FlatBuffers schemas (tests/schema/*.fbs)
against upstream truth: every corpus file that has a reference parse in
<corpus>/json (made with flatc 2.0.8 and ExecuTorch's own schemas) is
decoded again with Google's `flatc` and OUR schema, and the two JSON dumps
must be equal as parsed JSON objects.

Usage: check_corpus.py [CORPUS_DIR]   (default: <repo>/../shared/corpus)
Env: FLATC (default: flatc on PATH). A missing flatc is a failure, not a skip.

Reference flags: --json --strict-json --raw-binary (no --defaults-json:
the references omit absent fields). Schema per file identifier: ET12 ->
program.fbs; FT01 -> flat_tensor.fbs, or flat_tensor_legacy.fbs when the
root table's vtable has more than the current schema's 3 fields. A .bpte's embedded
program (the `program` byte vector of the reference dump) is checked
against <file>.inner_program.json. The ET02 file has no reference dump.
The ET12 and current-FT01 files also go through flatbuffers::Verifier
(verify.cc), since flatc's binary->JSON conversion does not verify.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schema_common import (FLAGS, HERE, build_verifier, find_flatc, flatc_json,  # noqa: E402
                           schema_for, verify)


def first_difference(a, b, path="$"):
    if type(a) != type(b):
        return "%s: %r vs %r" % (path, a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s: only in %s" % (path, k, "ours" if k in a else "reference")
            r = first_difference(a[k], b[k], path + "." + k)
            if r:
                return r
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: length %d vs %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            r = first_difference(x, y, "%s[%d]" % (path, i))
            if r:
                return r
        return None
    return None if a == b else "%s: %r vs %r" % (path, a, b)


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "shared", "corpus")
    jdir, pdir = os.path.join(corpus, "json"), os.path.join(corpus, "pte")
    if not os.path.isdir(jdir):
        print("FAIL: no reference dumps at %s" % jdir)
        sys.exit(1)
    flatc = find_flatc()
    tmp = tempfile.mkdtemp(prefix="ptera-schema-")
    checked, failed, counts = 0, [], {}
    to_verify = []
    try:
        for name in sorted(os.listdir(jdir)):
            with open(os.path.join(jdir, name)) as f:
                ref = json.load(f)
            if name.endswith(".bpte.inner_program.json"):
                with open(os.path.join(jdir, name.replace(".inner_program.json", ".json"))) as f:
                    data = bytes(json.load(f)["program"])
                kind = "ET12 (in .bpte)"
            elif name.endswith(".bpte.json"):
                continue  # BP08 container: no bundled-program schema here
            else:
                with open(os.path.join(pdir, name[:-len(".json")]), "rb") as f:
                    data = f.read()
                kind = data[4:8].decode("ascii", "replace")
            schema = schema_for(data)
            if schema is None:
                failed.append("%s: unexpected identifier %r" % (name, data[4:8]))
                continue
            if schema.endswith("legacy.fbs"):
                kind += " (legacy)"
            elif not name.endswith(".inner_program.json"):
                to_verify.append(os.path.join(pdir, name[:-len(".json")]))
            checked += 1
            try:
                ours = flatc_json(flatc, schema, data, tmp)
            except RuntimeError as e:
                failed.append("%s: %s" % (name, e))
                continue
            diff = first_difference(ours, ref)
            if diff:
                failed.append("%s [%s]: %s" % (name, schema, diff))
            else:
                counts[kind] = counts.get(kind, 0) + 1
        # Google's verifier over the same files (not the legacy .ptd: no
        # C++ code is generated for that schema).
        verdicts = verify(build_verifier(flatc, tmp), to_verify)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    parse_failures = len(failed)
    bad = {p: w for p, w in verdicts.items() if w}
    for p in sorted(bad):
        failed.append("%s: verifier: %s" % (os.path.basename(p), bad[p]))
    print("flatbuffers::Verifier accepted %d/%d corpus files" % (len(verdicts) - len(bad), len(verdicts)))
    for k in sorted(counts):
        print("match %-18s %d" % (k, counts[k]))
    for f in failed:
        print("MISMATCH " + f)
    print("%d/%d reference parses reproduced exactly with flags %s"
          % (checked - parse_failures, checked, " ".join(FLAGS)))
    if checked == 0 or failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
