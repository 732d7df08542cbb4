#!/usr/bin/env python3
"""Times PyTorch eager on one exported benchmark model (bench/export.py's
module.pt and input_<k>.npy) and prints one JSON object like `ptera bench
--json`: {"times_ms" (every timed call, in order), "median_ms", "p10_ms",
"p90_ms", "min_ms", "runs", "threads"}, plus "blas": the BLAS library the
process used.

usage: torch_bench.py MODEL_DIR --threads N --warmup W --runs R

Run it with OMP_NUM_THREADS / OPENBLAS_NUM_THREADS / MKL_NUM_THREADS set to
N as well (bench/run.sh does): torch.set_num_threads covers torch's own
pool, the environment the BLAS library's.
"""
import argparse
import glob
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "zoo"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import bench_models  # noqa: E402,F401  (module.pt: its classes)
import models  # noqa: E402,F401  (tests/zoo: its classes)


def percentile(sorted_ms, q):
    """Nearest-rank percentile of an ascending list."""
    k = max(0, min(len(sorted_ms) - 1, int(round(q / 100.0 * len(sorted_ms) + 0.5)) - 1))
    return sorted_ms[k]


def summary(times_ms, threads):
    t = sorted(times_ms)
    return {"median_ms": percentile(t, 50), "p10_ms": percentile(t, 10),
            "p90_ms": percentile(t, 90), "min_ms": t[0], "runs": len(t), "threads": threads}


def blas_library():
    """The BLAS library this process mapped (after a matrix product)."""
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "blas" in line and ".so" in line}
        return ", ".join(sorted("/".join(p.split("/")[-2:]) for p in libs)) or None
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    module = torch.load(os.path.join(a.dir, "module.pt")).eval()
    paths = sorted(glob.glob(os.path.join(a.dir, "input_*.npy")),
                   key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0]))
    inputs = [torch.from_numpy(np.load(p)) for p in paths]
    times = []
    with torch.inference_mode():
        for i in range(a.warmup + a.runs):
            t0 = time.perf_counter()
            module(*inputs)
            dt = (time.perf_counter() - t0) * 1e3
            if i >= a.warmup:
                times.append(dt)
    out = summary(times, a.threads)
    out["times_ms"] = times
    out["blas"] = blas_library()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
