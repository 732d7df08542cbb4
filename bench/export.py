#!/usr/bin/env python3
"""Writes every benchmark model's files into DIR/<model>/:

  model.pte      ptera's front end + `ptera compile --ops ptera` (plus the
                 model's bench_models.EXPORT_ARGS: backend, quantization)
  model.onnx     torch.onnx.export of the same module and weights
  module.pt      the module itself (torch.save), timed by torch_bench.py
  input_<k>.npy  the inputs, shared by the three runtimes
  ref_<k>.npy    PyTorch eager's outputs on them
  meta.json      input/output names, dtypes, shapes

usage: export.py DIR --models a,b --ptera PTERA_BIN
"""
import argparse
import copy
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "zoo"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import bench_models as models  # noqa: E402


def export_one(name, d, ptera_bin):
    import ptera

    os.makedirs(d, exist_ok=True)
    module, inputs = models.FACTORIES[name]()
    in_names = ["in%d" % k for k in range(len(inputs))]
    for k, x in enumerate(inputs):
        np.save(os.path.join(d, "input_%d.npy" % k), x.detach().numpy())
    refs = models.zoo.eager_reference(name, copy.deepcopy(module), inputs)
    for k, y in enumerate(refs):
        np.save(os.path.join(d, "ref_%d.npy" % k), y.numpy())
    out_names = ["out%d" % k for k in range(len(refs))]
    torch.save(copy.deepcopy(module), os.path.join(d, "module.pt"))
    r = ptera.export(copy.deepcopy(module), inputs, os.path.join(d, "model.pte"),
                     ptera_bin=ptera_bin, ops="ptera", **models.EXPORT_ARGS.get(name, {}))
    sys.stdout.write("".join("  [%s] %s\n" % (name, l) for l in r.report.splitlines()))
    onnx_err = None
    onnx_path = os.path.join(d, "model.onnx")
    try:
        import onnx

        m = copy.deepcopy(module)
        # With grad on and parameters requiring it, torch traces the
        # composite transformer layers (its fused inference kernel,
        # _transformer_encoder_layer_fwd, has no ONNX form).
        for p in m.parameters():
            p.requires_grad_(True)
        with torch.enable_grad(), warnings.catch_warnings():
            # torch.onnx warns that it turns the KV cache's in-place writes
            # into functional ones: one step computes the same outputs.
            warnings.simplefilter("ignore")
            torch.onnx.export(m, inputs, onnx_path, input_names=in_names,
                              output_names=out_names, opset_version=17)
        onnx.checker.check_model(onnx_path)
    except Exception as e:  # the table says why ORT has no figure
        onnx_err = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        print("  [%s] torch.onnx.export failed: %s" % (name, onnx_err))
        if os.path.exists(onnx_path):
            os.unlink(onnx_path)
    meta = {"model": name, "inputs": in_names, "outputs": out_names, "onnx_error": onnx_err,
            "gemm": models.GEMM_SHAPES.get(name)}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--models", default=",".join(models.NAMES))
    ap.add_argument("--ptera", required=True)
    a = ap.parse_args()
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
    for name in [m for m in a.models.split(",") if m]:
        if name not in models.FACTORIES:
            raise SystemExit("export.py: unknown model %r; known: %s" % (name, models.NAMES))
        print("== export %s" % name, flush=True)
        export_one(name, os.path.join(a.dir, name), os.path.abspath(a.ptera))
    return 0


if __name__ == "__main__":
    sys.exit(main())
