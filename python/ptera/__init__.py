"""ptera for Python.

Export (needs torch): capture a torch.nn.Module, write a .ptg (docs/PTG.md)
and compile it with `ptera compile` into an ExecuTorch .pte program.

    import ptera
    r = ptera.export(model, (x,), "model.pte")
    print(r.report)

Run (needs numpy only; libptera through ctypes, see runtime.py):

    prog = ptera.Program("model.pte", data=["model.ptd"])
    y, = prog.method("forward")(x)
"""

import os
import shutil
import subprocess
import sys
import tempfile

from .errors import DynamicShapeError
from .locate import PteraNotFound, find_library, find_ptera
from .runtime import IOInfo, Method, Program, PteraError, version

# The target op sets of `ptera compile --ops` (compiler/opset.h); the first is
# the default: the program runs on a stock ExecuTorch executor_runner.
OP_SETS = ("executorch-portable", "executorch-optimized", "ptera")
# The backends of `ptera compile --backend` (compiler/compile.h); None: all on the CPU.
# "cortex_m" is no delegate: a static int8 program of cortex_m:: calls (needs calibration).
BACKENDS = ("xnnpack", "cortex_m")
# The quantizations of `ptera compile --quantize`: the dynamic ones (8da8w,
# 8da4w) need backend="xnnpack"; the weight-only ones run on any backend;
# int8-static needs backend="xnnpack" and calibration.
QUANTIZE = ("8da8w", "8da4w", "int8-weight", "int4-weight", "int8-static")
DYNAMIC_QUANTIZE = ("8da8w", "8da4w")

__all__ = ["export", "write_ptg", "find_ptera", "find_library", "ExportResult", "PteraNotFound",
           "Program", "Method", "IOInfo", "PteraError", "version", "OP_SETS", "BACKENDS", "QUANTIZE",
           "DynamicShapeError"]


class ExportResult:
    def __init__(self, pte, ptd, ptg, report):
        self.pte = pte          # path of the written .pte
        self.ptd = ptd          # path of the external weights (.ptd) or None
        self.ptg = ptg          # path of the kept .ptg, or None
        self.report = report    # the compiler's report text (stdout + stderr)

    def __repr__(self):
        return "ExportResult(pte=%r, ptd=%r, ptg=%r)" % (self.pte, self.ptd, self.ptg)


def _progress(text):
    """A status line rewritten in place, on a terminal only ("" clears it)."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()


def write_ptg(module, example_inputs, path, method="forward", dynamic_shapes=None):
    """Captures module and writes the .ptg to path. Returns path.
    dynamic_shapes: see export."""
    from .capture import capture
    from .dynamic import capture_dynamic, check_data_dependent
    from .opmap import decompositions, to_ptg
    kw = {"method": method, "decompositions": decompositions()}
    if dynamic_shapes is not None:
        cap = capture_dynamic(capture, module, example_inputs, dynamic_shapes, **kw)
    else:
        cap = capture(module, example_inputs, **kw)
        check_data_dependent(cap)
    to_ptg(cap, method_name=method).write(path)
    return path


def _write_calibration(samples, directory):
    """Each sample as directory/sNNNNNN/input<k>.npy (float32)."""
    import numpy as np
    samples = list(samples)
    if not samples:
        raise ValueError("calibration must hold at least one sample")
    for s, sample in enumerate(samples):
        if not isinstance(sample, (tuple, list)):
            sample = (sample,)
        d = os.path.join(directory, "s%06d" % s)
        os.mkdir(d)
        for k, x in enumerate(sample):
            if hasattr(x, "detach"):
                x = x.detach().cpu().numpy()
            np.save(os.path.join(d, "input%d.npy" % k), np.ascontiguousarray(x, dtype=np.float32))


def _scope_list(what, names):
    """quantize_scope / quantize_skip as a list of non-empty names."""
    if names is None:
        return []
    if isinstance(names, str):
        names = [names]
    names = list(names)
    for n in names:
        if not isinstance(n, str) or not n or "," in n:
            raise ValueError("%s must be a list of module names (non-empty, without ','), got %r"
                             % (what, n))
    return names


def export(module, example_inputs, path, external_weights=None, weight_keys="fqn",
           method="forward", keep_ptg=None, ptera_bin=None, ops="executorch-portable",
           backend=None, quantize=None, dynamic_shapes=None, group_size=None,
           calibration=None, quantize_scope=None, quantize_skip=None):
    """Captures module.<method>(*example_inputs), writes a .ptg and runs
    `ptera compile <ptg> <path> --ops OPS [--backend B] [--external-weights <ptd>]
    [--weight-keys K]`.

    backend: None (every operator on the CPU) or one of BACKENDS: "xnnpack"
    lowers what XNNPACK runs to the XnnpackBackend delegate (weights as
    named data, or in the .ptd with external_weights); the rest stays on the
    CPU under ops.

    backend="cortex_m" lowers the whole graph to ExecuTorch's cortex_m::
    int8 operators (compiler/to_cortex_m.h), calibrated on calibration: a
    list of samples, each a tuple of the method's inputs (or one tensor),
    torch tensors or numpy arrays of float32 (written as .npy files for
    `ptera compile --calibration`); or the path of a directory already laid
    out as that option reads it (one subdirectory per sample, input0.npy,
    input1.npy, ...), passed to it as it is.

    quantize: None or one of QUANTIZE. "8da8w" (needs backend="xnnpack")
    gives every FullyConnected int8 per-channel weights and an input
    quantized per row at run time; "8da4w" the same with 4-bit weights per
    group of group_size inputs (a layer the group size does not divide gets
    8da8w, with a warning in the report) (compiler/to_xnnpack.h).
    "int8-weight" / "int4-weight" store linear weights as int8 per channel /
    4-bit per group and dequantize them before the layer on the CPU
    (compiler/passes.h). "int8-static" (backend="xnnpack", with
    calibration as for cortex_m) runs convolutions, FullyConnected, add /
    sub / mul, cat and pooling in qint8 with per-tensor activation parameters
    from the calibrated ranges and per-channel weights (compiler/to_xnnpack.h).
    Warnings (e.g. a bfloat16 weight left unquantized) are in the report.

    group_size: inputs per scale for 8da4w and int4-weight (default 32).

    quantize_scope / quantize_skip: lists of module names (fully qualified,
    as module.named_modules() gives them: "layers.0.attn", covering the
    modules inside) or "type:CLASS" (every module of that class, e.g.
    "type:Linear"): quantize only the calls made from quantize_scope's
    modules (default: all), never those of quantize_skip's; the rest stays
    fp32. With int8-static, add / sub / mul, pooling and reshapes run in
    int8 only where they are in scope and read no value made out of it
    (compiler/quant_scope.h). Needs quantize; a name that matches no call
    fails the compile, naming it.

    dynamic_shapes: per example input, None or {dim: (min, max)} (or max, or
    a torch.export.Dim): those dims take any size in the range at run time;
    the tensors that depend on them are DYNAMIC_BOUND, planned at the
    maximum (ptera/dynamic.py). A graph that cannot be written so, or an
    operator whose output shape depends on input values, raises
    DynamicShapeError.

    ops: the target op set, one of OP_SETS (default executorch-portable: the
    program runs on stock ExecuTorch; executorch-optimized adds ExecuTorch's
    optimized-library kernels such as linear; ptera allows every kernel ptera
    registers).

    keep_ptg: a path to keep the .ptg at (default: a temporary file next to
    path, removed afterwards). Returns an ExportResult."""
    if ops not in OP_SETS:
        raise ValueError("ops must be one of %s, not %r" % (", ".join(OP_SETS), ops))
    if backend is not None and backend not in BACKENDS:
        raise ValueError("backend must be None or one of %s, not %r" % (", ".join(BACKENDS), backend))
    if quantize is not None and (quantize not in QUANTIZE or
                                 (quantize in DYNAMIC_QUANTIZE and backend != "xnnpack")):
        raise ValueError("quantize must be None or one of %s (%s with backend='xnnpack'), not %r"
                         % (", ".join(QUANTIZE), ", ".join(DYNAMIC_QUANTIZE), quantize))
    if group_size is not None and (quantize not in ("8da4w", "int4-weight") or
                                   int(group_size) != group_size or group_size <= 0):
        raise ValueError("group_size must be a positive int, with quantize='8da4w' or "
                         "'int4-weight', not %r" % (group_size,))
    scope = _scope_list("quantize_scope", quantize_scope)
    skip = _scope_list("quantize_skip", quantize_skip)
    if (scope or skip) and (quantize is None or backend == "cortex_m"):
        raise ValueError("quantize_scope and quantize_skip need quantize (not backend='cortex_m', "
                         "which quantizes every call)")
    static = quantize == "int8-static"
    if static and backend != "xnnpack":
        raise ValueError("quantize='int8-static' needs backend='xnnpack' (backend='cortex_m' "
                         "always quantizes so)")
    if (backend == "cortex_m" or static) != (calibration is not None):
        raise ValueError("calibration is needed by, and only by, backend='cortex_m' and "
                         "quantize='int8-static'")
    exe = ptera_bin or find_ptera()
    out_dir = os.path.dirname(os.path.abspath(path))
    if keep_ptg:
        ptg_path = keep_ptg
    else:
        fd, ptg_path = tempfile.mkstemp(suffix=".ptg", prefix=".ptera-", dir=out_dir)
        os.close(fd)
    cal_dir = cal_arg = None  # cal_dir: a temporary directory written here
    try:
        if isinstance(calibration, (str, os.PathLike)):
            cal_arg = os.fspath(calibration)
        elif calibration is not None:
            cal_dir = cal_arg = tempfile.mkdtemp(prefix=".ptera-cal-", dir=out_dir)
            _write_calibration(calibration, cal_dir)
        _progress("ptera.export: capturing %s" % type(module).__name__)
        write_ptg(module, example_inputs, ptg_path, method=method, dynamic_shapes=dynamic_shapes)
        _progress("ptera.export: compiling %s" % path)
        cmd = [exe, "compile", ptg_path, path, "--ops", ops]
        if backend:
            cmd += ["--backend", backend]
        if quantize:
            cmd += ["--quantize", quantize]
        if group_size is not None:
            cmd += ["--group-size", str(int(group_size))]
        if scope:
            cmd += ["--quantize-scope", ",".join(scope)]
        if skip:
            cmd += ["--quantize-skip", ",".join(skip)]
        if cal_arg:
            cmd += ["--calibration", cal_arg]
        if external_weights:
            cmd += ["--external-weights", external_weights]
            if weight_keys:
                cmd += ["--weight-keys", weight_keys]
        p = subprocess.run(cmd, capture_output=True, text=True)
        _progress("")
        report = p.stdout + p.stderr
        if p.returncode != 0:
            raise RuntimeError("ptera compile failed (exit %d): %s\n%s"
                               % (p.returncode, " ".join(cmd), report))
    finally:
        _progress("")
        if not keep_ptg and os.path.exists(ptg_path):
            os.unlink(ptg_path)
        if cal_dir:
            shutil.rmtree(cal_dir, ignore_errors=True)
    return ExportResult(path, external_weights, ptg_path if keep_ptg else None, report)
