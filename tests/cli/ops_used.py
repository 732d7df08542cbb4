#!/usr/bin/env python3
"""`ptera ops --used` lists the operators a set of programs calls.

The reference is the corpus's flatc JSON dump of each program (json/<file>.json,
written by Google's flatc, not by ptera): the operators that KernelCall instructions
of any method name, "name.overload", sorted and unique (DelegateCall work does not
count). Checks every .pte/.bpte of the corpus that has a dump (under PTERA_RUN_PREFIX,
i.e. valgrind, every fourth one and the bundles: memory checking needs no more), then
all of them (those) at once with a missing file among them (reported, the rest still
listed, status 1).
usage: ops_used.py PTERA CORPUS_DIR (PTERA_RUN_PREFIX goes before ptera, e.g. valgrind)"""
import json, os, shlex, subprocess, sys

ptera, corpus = sys.argv[1], sys.argv[2]
PREFIX = shlex.split(os.environ.get("PTERA_RUN_PREFIX", ""))
PREFIX_ERROR = int(os.environ.get("PTERA_RUN_PREFIX_ERROR", "99"))


def expected(dump):
    names = set()
    for plan in json.load(open(dump)).get("execution_plan", []):
        ops = plan.get("operators", [])
        for chain in plan.get("chains", []):
            for ins in chain.get("instructions", []):
                if ins.get("instr_args_type") == "KernelCall":
                    op = ops[ins["instr_args"].get("op_index", 0)]
                    names.add(op["name"] + ("." + op["overload"] if op.get("overload") else ""))
    return names


def ops_used(files):
    p = subprocess.run(PREFIX + [ptera, "ops", "--used"] + files, capture_output=True, text=True)
    if PREFIX and p.returncode == PREFIX_ERROR:
        print("FAIL: %s reported errors:\n%s" % (PREFIX[0], p.stderr))
        sys.exit(1)
    return p.returncode, p.stdout.splitlines(), p.stderr


failed, checked, union, files, seen = 0, 0, set(), [], 0
for name in sorted(os.listdir(os.path.join(corpus, "pte"))):
    if not name.endswith((".pte", ".bpte")):
        continue
    dump = os.path.join(corpus, "json", name + (".inner_program.json" if name.endswith(".bpte") else ".json"))
    if not os.path.exists(dump):
        continue  # the ET02 file has no dump (and ptera rejects it)
    path = os.path.join(corpus, "pte", name)
    want = expected(dump)
    seen += 1
    if PREFIX and seen % 4 != 1 and not name.endswith(".bpte"):
        continue
    union |= want
    files.append(path)
    rc, got, err = ops_used([path])
    checked += 1
    if rc != 0 or got != sorted(want):
        failed += 1
        print("FAIL %s: status %d, got %s, expected %s %s" % (name, rc, got, sorted(want), err.strip()))
missing = os.path.join(corpus, "pte", "no-such-file.pte")
rc, got, err = ops_used(files[:5] + [missing] + files[5:])
if rc != 1 or got != sorted(union) or "no-such-file.pte" not in err:
    failed += 1
    print("FAIL all files + a missing one: status %d, %d names (expected %d), stderr %r" % (rc, len(got), len(union), err))
if seen < 30:
    failed += 1
    print("FAIL: only %d corpus programs found (the corpus is part of the test set)" % seen)
print("ops --used: %d programs checked, %d operators in all, %d failures" % (checked, len(union), failed))
sys.exit(1 if failed else 0)
