#!/usr/bin/env python3
"""End-to-end model zoo: export with ptera's front end, compile under each target op set, run with `ptera run`, compare with eager PyTorch.

    /usr/bin/python3 tests/zoo/run_zoo.py PTERA_BIN [--models a,b] [--ops a,b] [--skip-heavy] [--keep DIR]

For each model of tests/zoo/models.py: build it (fixed seeds), compute the
eager reference on a copy, capture it once into a .ptg (ptera.write_ptg),
then for each target op set (--ops, default all of executorch-portable,
executorch-optimized, ptera, xnnpack) compile it with `ptera compile --ops
SET` (xnnpack: `--ops executorch-portable --backend xnnpack`, the XNNPACK
delegate with the portable op set for what stays on the CPU; the table gives
the calls delegated / left on the CPU) (the compiler's report is printed), check the program's operators (`ptera
inspect --json`) against that op set's table (kernels/opsets.def; `ptera
ops` for ptera), run `ptera run MODEL.pte --input ... --output-dir ...` and
compare every output: the check is max|ptera - ref| <= tol * max|ref| (tol
1e-4). A program byte-identical to one already checked under another op set
is not run again (same file, same result; the table says so). Prints a table
per model and op set, then the operators each program calls, and exits 1
when any check fails.

A model with state across executions (models.EXECUTIONS: llama_step, whose KV
caches are mutable buffers) runs as one `ptera run ... --input ... --then
--input ...`, and each execution's outputs are compared with the same fresh
eager module called once per execution in turn.

--skip-heavy, or PTERA_ZOO_SKIP_HEAVY=1 in the environment, keeps only the
small models (for valgrind/sanitizer runs); PTERA_ZOO_MODELS=a,b is the
environment form of --models.
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import models  # noqa: E402

TOL = 1e-4


class CaptureFd:
    """Captures what is written to fd 1 and fd 2 (subprocesses included)."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.tmp = tempfile.TemporaryFile(mode="w+b")
        self.saved = (os.dup(1), os.dup(2))
        os.dup2(self.tmp.fileno(), 1)
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        os.close(self.saved[0])
        os.close(self.saved[1])
        self.tmp.seek(0)
        self.text = self.tmp.read().decode("utf-8", "replace")
        self.tmp.close()
        return False


def human(n):
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0


def parse_report(text):
    """Figures from `ptera compile`'s report: planned peak, no-reuse, folded."""
    out = {}
    m = re.search(r"planned (\d+) B \(no reuse (\d+) B", text)
    if m:
        out["planned"] = int(m.group(1))
        out["noreuse"] = int(m.group(2))
    m = re.search(r"(\d+) -> (\d+) nodes", text)
    if m:
        out["graph_nodes"] = int(m.group(1))
        out["nodes"] = int(m.group(2))
    m = re.search(r"folded[ :=]+(\d+)", text)
    if m:
        out["folded"] = int(m.group(1))
    m = re.search(r"xnnpack (\d+) partitions, (\d+) nodes delegated, (\d+) on the CPU", text)
    if m:
        out["partitions"], out["delegated"], out["cpu"] = map(int, m.groups())
    return out


def save_input(path, t):
    a = t.detach().numpy()
    if a.dtype == np.float64:
        a = a.astype(np.float32)
    np.save(path, np.ascontiguousarray(a))


OPSETS = ("executorch-portable", "executorch-optimized", "ptera", "xnnpack")
# The compile options of each target; xnnpack's CPU calls are in the portable set.
COMPILE_ARGS = {o: ["--ops", o] for o in OPSETS[:3]}
COMPILE_ARGS["xnnpack"] = ["--ops", "executorch-portable", "--backend", "xnnpack"]


def opset_tables(ptera_bin):
    """Each op set's operators: kernels/opsets.def's PORTABLE entries; those
    plus its OPTIMIZED ones; every kernel `ptera ops` lists."""
    with open(os.path.join(REPO, "kernels", "opsets.def")) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    table = re.findall(r'PTERA_OPSET\("([^"]+)", (PORTABLE|OPTIMIZED)\)', text)
    ops = subprocess.run([ptera_bin, "ops"], capture_output=True, text=True, check=True).stdout
    portable = {n for n, lib in table if lib == "PORTABLE"}
    return {"executorch-portable": portable, "executorch-optimized": {n for n, _ in table},
            "ptera": set(ops.split()), "xnnpack": portable}


def program_operators(ptera_bin, pte):
    """Every operator the program's methods call, from `ptera inspect --json`."""
    r = subprocess.run([ptera_bin, "inspect", pte, "--json"], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"ptera inspect {pte} failed: {r.stderr.strip()}")
    return sorted({op["name"] + ("." + op["overload"] if op["overload"] else "")
                   for m in json.loads(r.stdout)["methods"] for op in m["operators"]})


def capture(module, inputs, ptg):
    """The front end (ptera.write_ptg, as ptera.export runs it): None, or
    what it printed and the traceback when it failed."""
    import ptera

    with CaptureFd() as cap:
        try:
            ptera.write_ptg(module, inputs, ptg)
            failed = None
        except Exception:  # the text below says what went wrong
            failed = traceback.format_exc()
    return (cap.text + failed).strip() if failed else None


def run_model(name, ptera_bin, workdir, verbose, opsets, tables):
    """One row per op set."""
    rows = [{"model": name, "ops": o, "ok": False, "err": None, "note": ""} for o in opsets]
    t0 = time.time()
    module, inputs = models.get(name)
    runs = models.executions(name, inputs)
    refs = models.eager_references(name, copy.deepcopy(module), runs)
    t_build = time.time() - t0

    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    ptg = os.path.join(d, name + ".ptg")
    t1 = time.time()
    failed = capture(copy.deepcopy(module), inputs, ptg)
    t_capture = time.time() - t1
    if failed:
        print(f"  [{name}] capture failed:\n{failed}")
        for row in rows:
            row["note"] = "capture failed"
        return rows
    checked = {}  # .pte bytes -> the row that ran them
    for row in rows:
        row["t_build"] = t_build
        check_opset(name, row, ptg, d, ptera_bin, verbose, tables[row["ops"]], runs, refs, checked)
        row["t_export"] = t_capture + row.get("t_compile", 0)
        row["t_total"] = time.time() - t0
    return rows


def check_opset(name, row, ptg, d, ptera_bin, verbose, table, runs, refs, checked):
    ops = row["ops"]
    tag = f"{name} {ops}"
    pte = os.path.join(d, f"{name}.{ops}.pte")
    t1 = time.time()
    r = subprocess.run([ptera_bin, "compile", ptg, pte] + COMPILE_ARGS[ops], capture_output=True,
                       text=True)
    row["t_compile"] = time.time() - t1
    report = (r.stdout + r.stderr).strip()
    for line in report.splitlines():
        if verbose or "planned" in line or "xnnpack" in line or r.returncode:
            print(f"  [{tag}] {line}")
    if r.returncode:
        row["note"] = f"ptera compile exit {r.returncode}"
        return
    row.update(parse_report(report))
    row["size"] = os.path.getsize(pte)
    try:
        row["operators"] = program_operators(ptera_bin, pte)
    except (RuntimeError, ValueError, KeyError) as e:
        print(f"  [{tag}] {e}")
        row["note"] = "ptera inspect failed"
        return
    outside = [op for op in row["operators"] if op not in table]
    if outside:
        print(f"  [{tag}] operators outside op set {ops}: {outside}")
        row["note"] = "operators outside the op set"
        return
    with open(pte, "rb") as f:
        data = f.read()
    if data in checked:
        same = checked[data]
        row.update(ok=same["ok"], err=same["err"], note=f"same .pte as {same['ops']}")
        print(f"  [{tag}] same program as under {same['ops']}: not run again")
        return
    checked[data] = row
    run_program(tag, row, pte, d, ptera_bin, verbose, runs, refs)


def run_program(name, row, pte, d, ptera_bin, verbose, runs, refs):

    args = [ptera_bin, "run", pte]
    ptd = os.path.splitext(pte)[0] + ".ptd"
    if os.path.exists(ptd):
        args += ["--data", ptd]
    for j, run_inputs in enumerate(runs):
        if j:
            args.append("--then")  # the same loaded program again: state carries
        for k, t in enumerate(run_inputs):
            path = os.path.join(d, f"run{j}_input_{k}.npy")
            save_input(path, t)
            args += ["--input", path]
    outdir = os.path.join(d, "out_" + row["ops"])
    args += ["--output-dir", outdir, "--show", "4"]
    t2 = time.time()
    r = subprocess.run(args, capture_output=True, text=True)
    row["t_run"] = time.time() - t2
    if verbose or r.returncode:
        for line in (r.stdout + r.stderr).strip().splitlines():
            print(f"  [{name}] run: {line}")
    if r.returncode:
        row["note"] = f"ptera run exit {r.returncode}"
        return

    worst = 0.0
    ok = True
    for j, ref in enumerate(refs):
        # One execution: output_<k>.npy; several: run<j>_output_<k>.npy.
        prefix = f"run{j}_" if len(runs) > 1 else ""
        label = f"run {j} output" if len(runs) > 1 else "output"
        for k, want in enumerate(ref):
            path = os.path.join(outdir, f"{prefix}output_{k}.npy")
            if not os.path.exists(path):
                print(f"  [{name}] {label} {k}: missing {path}")
                ok = False
                continue
            got = np.load(path)
            want = want.numpy()
            if got.shape != want.shape:
                print(f"  [{name}] {label} {k}: shape {got.shape}, expected {want.shape}")
                ok = False
                continue
            scale = float(np.abs(want).max()) if want.size else 0.0
            diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
            abs_err = float(diff.max()) if diff.size else 0.0
            if not np.isfinite(abs_err):
                abs_err = float("inf")
            rel = abs_err / scale if scale > 0 else abs_err
            worst = max(worst, rel)
            good = rel <= TOL
            ok = ok and good
            print(f"  [{name}] {label} {k} {tuple(want.shape)}: max abs err {abs_err:.3g}, "
                  f"max|ref| {scale:.4g}, rel {rel:.3g} {'ok' if good else 'TOO LARGE'}")
    row["err"] = worst
    row["ok"] = ok


def short(op):
    """aten::addmm.out -> addmm; other namespaces keep theirs."""
    if op.startswith("aten::"):
        op = op[len("aten::"):]
    return op[:-len(".out")] if op.endswith(".out") else op


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ptera_bin")
    ap.add_argument("--models", default=os.environ.get("PTERA_ZOO_MODELS", ""),
                    help="comma-separated subset of: " + ",".join(models.NAMES))
    ap.add_argument("--ops", default=os.environ.get("PTERA_ZOO_OPS", ""),
                    help="comma-separated target op sets (default all: " + ",".join(OPSETS) + ")")
    ap.add_argument("--skip-heavy", action="store_true",
                    default=os.environ.get("PTERA_ZOO_SKIP_HEAVY", "") not in ("", "0"),
                    help="only the small models: " + ",".join(n for n in models.NAMES
                                                             if n not in models.HEAVY))
    ap.add_argument("--keep", metavar="DIR", help="work in DIR and keep the files")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    ptera_bin = os.path.abspath(args.ptera_bin)
    names = [n for n in args.models.split(",") if n] or list(models.NAMES)
    unknown = [n for n in names if n not in models.FACTORIES]
    if unknown:
        ap.error(f"unknown model(s) {unknown}; known: {models.NAMES}")
    opsets = [o for o in args.ops.split(",") if o] or list(OPSETS)
    if any(o not in OPSETS for o in opsets):
        ap.error(f"unknown op set(s) in {opsets}; known: {list(OPSETS)}")
    if args.skip_heavy:
        names = [n for n in names if n not in models.HEAVY]
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    tables = opset_tables(ptera_bin)

    workdir = args.keep or tempfile.mkdtemp(prefix="ptera_zoo_")
    os.makedirs(workdir, exist_ok=True)
    rows = []
    try:
        for name in names:
            print(f"== {name}", flush=True)
            try:
                got = run_model(name, ptera_bin, workdir, args.verbose, opsets, tables)
            except Exception:
                traceback.print_exc()
                got = [{"model": name, "ops": o, "ok": False, "err": None, "note": "harness error"}
                       for o in opsets]
            rows += got
            if not args.keep:  # the large programs go as soon as they are checked
                shutil.rmtree(os.path.join(workdir, name), ignore_errors=True)
            for row in got:
                print(f"  [{name} {row['ops']}] {'PASS' if row['ok'] else 'FAIL'}"
                      f" (capture+compile {row.get('t_export', 0):.1f} s,"
                      f" run {row.get('t_run', 0):.1f} s)", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)

    hdr = (f"{'model':<20} {'op set':<20} {'nodes':>11} {'folded':>6} {'planned peak':>13}"
           f" {'no-reuse':>11} {'ratio':>6} {'max rel err':>11} {'export':>7} {'run':>6}  result")
    print()
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        ratio = (f"{r['noreuse'] / r['planned']:.2f}x" if r.get("planned") else "-")
        err = f"{r['err']:.2e}" if r.get("err") is not None else "-"
        nodes = r.get("nodes")
        if nodes is not None and r.get("graph_nodes") is not None:
            nodes = f"{r['graph_nodes']}->{nodes}"
        folded = r.get("folded")
        if r.get("delegated") is not None:
            nodes = f"{r['delegated']}x/{r['cpu']}cpu"
        print(f"{r['model']:<20} {r['ops']:<20} {nodes if nodes is not None else '-':>11}"
              f" {folded if folded is not None else '-':>6}"
              f" {human(r.get('planned')):>13} {human(r.get('noreuse')):>11} {ratio:>6} {err:>11}"
              f" {r.get('t_export', 0):6.1f}s {r.get('t_run', 0):5.1f}s"
              f"  {'PASS' if r['ok'] else 'FAIL'}{'  ' + r['note'] if r['note'] else ''}")
    print("(xnnpack rows: nodes = calls delegated to XNNPACK x / left on the CPU)")
    print("\noperators each program calls (aten:: and .out left off):")
    for r in rows:
        if "operators" in r:
            print(f"  {r['model']:<20} {r['ops']:<20} {len(r['operators']):>2}: "
                  + ", ".join(short(op) for op in r["operators"]))
    failed = [f"{r['model']} ({r['ops']})" for r in rows if not r["ok"]]
    print(f"\n{len(rows) - len(failed)}/{len(rows)} passed"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
