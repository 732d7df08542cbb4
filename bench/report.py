#!/usr/bin/env python3
"""Prints the benchmark table from a bench/run.sh work directory:

  WORK/res/<model>.<runtime>.<threads>.<round>.json   one timing object per
      round (`ptera bench --json`, torch_bench.py, ort_bench.js: every
      call's time in times_ms), or a .err file; the figures come from all
      rounds' calls together
  WORK/res/peak.<threads>.json                 FMA peak, memory read GB/s (from gemm_bench)
  WORK/<model>/ref_<k>.npy                     PyTorch eager's outputs
  WORK/<model>/meta.json                       (M, N, K) of the GEMM models
  WORK/<model>/ptera_out/output_<k>.npy, WORK/<model>/ort_out/output_<k>.npy

usage: report.py WORK --models a,b --threads 1,2 [--rounds R] [--json OUT.json]
"""
import argparse
import glob
import json
import os
import sys

import numpy as np

RUNTIMES = ("ptera", "torch", "ort")


GEMV_BYTES = 4096 * 4096 * 4  # the weights one GEMV 4096 call reads


def load(path):
    try:
        with open(path) as f:
            return json.loads(f.read().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return None


def why(work, model, rt, t, rounds):
    for k in range(1, rounds + 1):
        p = os.path.join(work, "res", f"{model}.{rt}.{t}.{k}.err")
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                lines = [l.strip() for l in f if l.strip()]
            return f"round {k}: " + (lines[-1][:100] if lines else "failed")
    return "not run"


def percentile(sorted_ms, q):
    """Nearest-rank percentile of an ascending list."""
    k = max(0, min(len(sorted_ms) - 1, int(round(q / 100.0 * len(sorted_ms) + 0.5)) - 1))
    return sorted_ms[k]


def pooled(work, model, rt, t, rounds):
    """The figures over every round's calls (None unless every round ran):
    median, p10, p90 (nearest rank), min, the number of calls, and each
    round's median."""
    times, medians, extra = [], [], {}
    for k in range(1, rounds + 1):
        r = load(os.path.join(work, "res", f"{model}.{rt}.{t}.{k}.json"))
        if not r or not r.get("times_ms"):
            return None
        times += r["times_ms"]
        medians.append(percentile(sorted(r["times_ms"]), 50))
        if r.get("blas"):
            extra["blas"] = r["blas"]
    s = sorted(times)
    out = {"median_ms": percentile(s, 50), "p10_ms": percentile(s, 10), "p90_ms": percentile(s, 90),
           "min_ms": s[0], "runs": len(s), "round_medians_ms": medians}
    out.update(extra)
    return out


def rel_error(work, model, sub):
    """max|out - ref| / max|ref| over the outputs; None when missing."""
    refs = sorted(glob.glob(os.path.join(work, model, "ref_*.npy")))
    if not refs:
        return None
    worst = 0.0
    for k in range(len(refs)):
        p = os.path.join(work, model, sub, f"output_{k}.npy")
        if not os.path.exists(p):
            return None
        got = np.load(p).astype(np.float64)
        want = np.load(os.path.join(work, model, f"ref_{k}.npy")).astype(np.float64)
        if got.shape != want.shape:
            return float("inf")
        scale = float(np.abs(want).max()) if want.size else 0.0
        err = float(np.abs(got - want).max()) if want.size else 0.0
        worst = max(worst, err / scale if scale > 0 else err)
    return worst


def fmt_ms(r):
    return f"{r['median_ms']:.3f}/{r['p90_ms']:.3f}" if r else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("work")
    ap.add_argument("--models", required=True)
    ap.add_argument("--threads", required=True)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args()
    models = [m for m in a.models.split(",") if m]
    threads = [int(t) for t in a.threads.split(",") if t]
    rows, notes = [], []
    for t in threads:
        peak = load(os.path.join(a.work, "res", f"peak.{t}.json"))
        for m in models:
            row = {"model": m, "threads": t, "peak_gflops": peak["gflops"] if peak else None}
            for rt in RUNTIMES:
                r = pooled(a.work, m, rt, t, a.rounds)
                row[rt] = r
                if r is None:
                    notes.append(f"{m} {rt} threads={t}: {why(a.work, m, rt, t, a.rounds)}")
            row["err_ptera"] = rel_error(a.work, m, "ptera_out")
            row["err_ort"] = rel_error(a.work, m, "ort_out")
            meta = load(os.path.join(a.work, m, "meta.json")) or {}
            row["gemm"] = meta.get("gemm")
            if row["gemm"]:
                mm, nn, kk = row["gemm"]
                for rt in RUNTIMES:
                    r = row[rt]
                    if r and peak:
                        gflops = 2.0 * mm * nn * kk / (r["median_ms"] * 1e-3) / 1e9
                        row[f"eff_{rt}"] = 100.0 * gflops / peak["gflops"]
            rows.append(row)

    hdr = (f"{'model':<20} {'thr':>3} {'ptera med/p90 ms':>18} {'torch med/p90 ms':>18}"
           f" {'ORT med/p90 ms':>18} {'ptera/ORT':>9} {'ptera/torch':>11} {'err ptera':>9}"
           f" {'err ORT':>9} {'GEMM % peak ptera/torch/ORT':>28}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        def ratio(x, y):
            return f"{r[x]['median_ms'] / r[y]['median_ms']:.2f}" if r[x] and r[y] else "-"

        def err(x):
            return f"{x:.1e}" if x is not None else "-"

        eff = "-"
        if r["gemm"]:
            eff = "/".join(f"{r[f'eff_{rt}']:.0f}" if f"eff_{rt}" in r else "-"
                           for rt in RUNTIMES)
        print(f"{r['model']:<20} {r['threads']:>3} {fmt_ms(r['ptera']):>18}"
              f" {fmt_ms(r['torch']):>18} {fmt_ms(r['ort']):>18} {ratio('ptera', 'ort'):>9}"
              f" {ratio('ptera', 'torch'):>11} {err(r['err_ptera']):>9} {err(r['err_ort']):>9}"
              f" {eff:>28}")
    base = min(threads)
    if len(threads) > 1:  # speed-up: the fewest threads' median over each other count's
        print()
        print(f"speed-up over {base} thread(s), median / median:")
        for m in models:
            one = {rt: next((r[rt] for r in rows if r["model"] == m and r["threads"] == base), None)
                   for rt in RUNTIMES}
            cells = []
            for t in threads:
                if t == base:
                    continue
                row = next(r for r in rows if r["model"] == m and r["threads"] == t)
                cells.append(f"{t} thr " + " ".join(
                    f"{rt} {one[rt]['median_ms'] / row[rt]['median_ms']:.2f}" if one[rt] and row[rt]
                    else f"{rt} -" for rt in RUNTIMES))
            print(f"  {m:<20} " + "; ".join(cells))
    for t in threads:
        peak = load(os.path.join(a.work, "res", f"peak.{t}.json"))
        if peak:
            print(f"FP32 FMA peak, {t} thread(s): {peak['gflops']:.1f} GFLOP/s ({peak['isa']})")
        if peak and peak.get("read_gbs"):
            line = f"memory read loop, {t} thread(s): {peak['read_gbs']:.1f} GB/s"
            for r in rows:
                if r["model"] == "gemv4096" and r["threads"] == t and r["ptera"]:
                    gbs = GEMV_BYTES / (r["ptera"]["median_ms"] * 1e-3) / 1e9
                    line += f"; GEMV 4096 on ptera streams {gbs:.1f} GB/s ({100.0 * gbs / peak['read_gbs']:.0f} %)"
            print(line)
    blas = sorted({r["torch"].get("blas") or "?" for r in rows if r["torch"]})
    if blas:
        print("PyTorch's BLAS: " + "; ".join(blas))
    for n in notes:
        print("missing: " + n)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
