#!/usr/bin/env python3
"""The zoo models lowered to XNNPACK against the same models through the
portable fast path, and the quantized variants, timed back to back.

Each model (bench/bench_models.py) is captured once into a .ptg, compiled
with `ptera compile --ops ptera` (portable) and once per variant with
`--backend xnnpack` (fp32) plus `--quantize 8da8w` / `8da4w` where asked;
then every round runs `ptera bench --json` on each file in turn, on the
factory's example inputs (saved as .npy beside them). Per file it prints the range of the rounds' medians and
p90s, the least time seen, and per round the median's ratio to the portable
file of that round (the host may be shared: compare within a round).

usage: xnn_zoo_speed.py BUILD_DIR WORK_DIR [--models a,b] [--variants x,q8,q4]
                        [--threads N] [--rounds N] [--runs N] [--compiler PTERA]
  --compiler: the ptera that compiles (default BUILD_DIR/ptera); the timed
              one is always BUILD_DIR/ptera.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)

QUANT = {"x": [], "q8": ["--quantize", "8da8w"], "q4": ["--quantize", "8da4w"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--models", default="mobilenet_v2,resnet18,transformer_encoder,mlp,llama_step")
    ap.add_argument("--variants", default="x")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--runs", default="15")
    ap.add_argument("--compiler")
    a = ap.parse_args()
    import bench_models
    import numpy as np
    from ptera import write_ptg

    ptera = os.path.join(a.build, "ptera")
    comp = a.compiler or ptera
    os.makedirs(a.work, exist_ok=True)
    variants = ["p"] + [v for v in a.variants.split(",") if v]
    for v in variants[1:]:
        if v not in QUANT:
            sys.exit("xnn_zoo_speed: unknown variant %r (x, q8, q4)" % v)
    for m in a.models.split(","):
        ptg = os.path.join(a.work, m + ".ptg")
        module, inputs = bench_models.FACTORIES[m]()
        ins = []
        for k, x in enumerate(inputs):
            ins += ["--input", os.path.join(a.work, "%s_in%d.npy" % (m, k))]
            np.save(ins[-1], x.detach().numpy())
        if not os.path.exists(ptg):
            write_ptg(module, inputs, ptg)
        files = {}
        for v in variants:
            files[v] = os.path.join(a.work, "%s_%s.pte" % (m, v))
            extra = [] if v == "p" else ["--backend", "xnnpack"] + QUANT[v]
            subprocess.run([comp, "compile", ptg, files[v], "--ops", "ptera"] + extra, check=True,
                           stdout=subprocess.DEVNULL)
        res = {v: [] for v in variants}
        for _ in range(a.rounds):
            for v in variants:
                out = subprocess.run([ptera, "bench", files[v]] + ins + ["--threads", a.threads,
                                      "--warmup", "3", "--runs", a.runs, "--json"],
                                     capture_output=True, text=True, check=True).stdout
                res[v].append(json.loads(out))
        for v in variants:
            med = [r["median_ms"] for r in res[v]]
            p90 = [r["p90_ms"] for r in res[v]]
            ratio = " ".join("%.2f" % (r["median_ms"] / b["median_ms"]) for r, b in zip(res[v], res["p"]))
            print("%-20s t=%s %-2s median %8.3f-%8.3f  p90 %8.3f-%8.3f  min %8.3f  /portable %s" % (
                m, a.threads, v, min(med), max(med), min(p90), max(p90), min(r["min_ms"] for r in res[v]), ratio))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
