#!/usr/bin/env python3
"""`ptera bench` end to end on the shipped digits model.

Checks the latency statistics' order (min <= p10 <= median <= p90), the run
count and thread count it reports, that the per-operator profile and a
one-execution Chrome trace agree with each other (the same operators, the
same calls per execution, shares adding up to 100%), and that bad numeric
options are usage errors (exit 2).
usage: bench.py PTERA REPO_DIR"""
import collections, json, os, subprocess, sys, tempfile

ptera, repo = sys.argv[1], sys.argv[2]
model = os.path.join(repo, "examples", "digits", "digits.pte")
digit = os.path.join(repo, "examples", "digits", "digit_3.npy")
failed = 0


def check(ok, what):
    global failed
    if not ok:
        failed += 1
        print("FAIL:", what)


def bench(*args):
    return subprocess.run([ptera, "bench", model, "--input", digit] + list(args),
                          capture_output=True, text=True)


for threads in ("1", "2"):
    p = bench("--runs", "7", "--warmup", "1", "--threads", threads, "--json")
    check(p.returncode == 0, "bench --json exits 0: " + p.stderr)
    r = json.loads(p.stdout)
    check(r["runs"] == 7, "7 runs reported")
    check(r["threads"] == int(threads), "threads reported: %s" % r["threads"])
    check(0 < r["min_ms"] <= r["p10_ms"] <= r["median_ms"] <= r["p90_ms"], "order of statistics")
    check(r["min_ms"] <= r["mean_ms"], "mean >= min")
    t = r["times_ms"]
    check(len(t) == 7 and min(t) == r["min_ms"] and abs(sum(t) / 7 - r["mean_ms"]) < 1e-5,
          "times_ms: the 7 runs, their least the min, their mean the mean")
    check(sorted(t)[3] == r["median_ms"], "the median is the middle run")

p = bench("--seconds", "0.2", "--json")
check(p.returncode == 0 and json.loads(p.stdout)["runs"] >= 1, "--seconds runs at least once")

tmp = tempfile.mkdtemp()
trace = os.path.join(tmp, "t.json")
p = bench("--runs", "4", "--profile", "--trace", trace)
check(p.returncode == 0, "bench --profile --trace exits 0: " + p.stderr)
rows = {}
lines = p.stdout.splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("profile, per execution"))
for l in lines[start + 2:]:
    f = l.split()
    if f[0] == "total":
        total_share = float(f[-1].rstrip("%"))
        break
    rows[f[0]] = (f[1], float(f[2]), float(f[3]), float(f[4].rstrip("%")))
# Its convolutions run fused with their relu (load-time fusion); the
# profile names the groups.
check(any(r.startswith("fused:conv") for r in rows), "the digits CNN's fused convolutions are profiled: %s" % sorted(rows))
check(abs(sum(r[3] for r in rows.values()) - 100.0) < 0.5, "shares add up to 100%")
check(total_share == 100.0, "total line")
with open(trace) as f:
    t = json.load(f)
events = t["traceEvents"]
counts = collections.Counter(e["name"] for e in events)
check(set(counts) == set(rows), "trace and profile name the same operators")
for name, n in counts.items():
    check(rows.get(name, (0, -1))[1] == n, "calls per execution of %s: %s vs %d" % (name, rows.get(name), n))
check(all(e["ph"] == "X" and e["dur"] >= 0 for e in events), "complete events")
check([e["args"]["instruction"] for e in events] == sorted(e["args"]["instruction"] for e in events),
      "events in instruction order")

def profile_rows(*args):
    p = bench("--runs", "2", "--profile", *args)
    lines = p.stdout.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("profile, per execution"))
    names = []
    for l in lines[start + 2:]:
        if l.split()[0] == "total":
            break
        names.append(l.split()[0])
    return names

names = profile_rows("--no-fuse")
check("aten::convolution.out" in names and not any(n.startswith("fused:") for n in names),
      "bench --no-fuse runs every instruction as written: %s" % names)
os.environ["PTERA_NO_FUSE"] = "1"
names = profile_rows()
check(not any(n.startswith("fused:") for n in names), "PTERA_NO_FUSE=1 turns fusion off: %s" % names)
del os.environ["PTERA_NO_FUSE"]

for bad in (["--runs", "0"], ["--runs", "abc"], ["--threads", "-1"], ["--warmup", "1x"],
            ["--seconds", "0"], ["--seconds", "nan"], ["--random", "-3"], ["--bogus"]):
    p = bench(*bad)
    check(p.returncode == 2, "usage error for %s (got %d)" % (bad, p.returncode))
p = subprocess.run([ptera, "bench", os.path.join(tmp, "missing.pte")], capture_output=True, text=True)
check(p.returncode == 1 and "ptera:" in p.stderr, "a missing model fails with status 1")
p = subprocess.run([ptera, "run", model, "--input", digit, "--threads", "2"], capture_output=True, text=True)
check(p.returncode == 0 and "top-3: 3 " in p.stdout, "ptera run --threads 2 predicts the 3")

print("%d failed" % failed if failed else "bench: all checks passed")
sys.exit(1 if failed else 0)
