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
import subprocess
import tempfile

from .locate import PteraNotFound, find_library, find_ptera
from .runtime import IOInfo, Method, Program, PteraError, version

# The target op sets of `ptera compile --ops` (compiler/opset.h); the first is
# the default: the program runs on a stock ExecuTorch executor_runner.
OP_SETS = ("executorch-portable", "executorch-optimized", "ptera")
# The delegates of `ptera compile --backend` (compiler/compile.h); None: all on the CPU.
BACKENDS = ("xnnpack",)
# The quantizations of `ptera compile --quantize` (with backend="xnnpack").
QUANTIZE = ("8da8w",)

__all__ = ["export", "write_ptg", "find_ptera", "find_library", "ExportResult", "PteraNotFound",
           "Program", "Method", "IOInfo", "PteraError", "version", "OP_SETS", "BACKENDS", "QUANTIZE"]


class ExportResult:
    def __init__(self, pte, ptd, ptg, report):
        self.pte = pte          # path of the written .pte
        self.ptd = ptd          # path of the external weights (.ptd) or None
        self.ptg = ptg          # path of the kept .ptg, or None
        self.report = report    # the compiler's report text (stdout + stderr)

    def __repr__(self):
        return "ExportResult(pte=%r, ptd=%r, ptg=%r)" % (self.pte, self.ptd, self.ptg)


def write_ptg(module, example_inputs, path, method="forward"):
    """Captures module and writes the .ptg to path. Returns path."""
    from .capture import capture
    from .opmap import decompositions, to_ptg
    cap = capture(module, example_inputs, method=method, decompositions=decompositions())
    to_ptg(cap, method_name=method).write(path)
    return path


def export(module, example_inputs, path, external_weights=None, weight_keys="fqn",
           method="forward", keep_ptg=None, ptera_bin=None, ops="executorch-portable",
           backend=None, quantize=None):
    """Captures module.<method>(*example_inputs), writes a .ptg and runs
    `ptera compile <ptg> <path> --ops OPS [--backend B] [--external-weights <ptd>]
    [--weight-keys K]`.

    backend: None (every operator on the CPU) or one of BACKENDS: "xnnpack"
    lowers what XNNPACK runs to the XnnpackBackend delegate (weights as
    named data, or in the .ptd with external_weights); the rest stays on the
    CPU under ops.

    quantize: None or one of QUANTIZE (needs backend="xnnpack"): "8da8w"
    gives every FullyConnected int8 per-channel weights and an input
    quantized per row at run time (compiler/to_xnnpack.h).

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
    if quantize is not None and (quantize not in QUANTIZE or backend != "xnnpack"):
        raise ValueError("quantize must be None or one of %s with backend='xnnpack', not %r"
                         % (", ".join(QUANTIZE), quantize))
    exe = ptera_bin or find_ptera()
    out_dir = os.path.dirname(os.path.abspath(path))
    if keep_ptg:
        ptg_path = keep_ptg
    else:
        fd, ptg_path = tempfile.mkstemp(suffix=".ptg", prefix=".ptera-", dir=out_dir)
        os.close(fd)
    try:
        write_ptg(module, example_inputs, ptg_path, method=method)
        cmd = [exe, "compile", ptg_path, path, "--ops", ops]
        if backend:
            cmd += ["--backend", backend]
        if quantize:
            cmd += ["--quantize", quantize]
        if external_weights:
            cmd += ["--external-weights", external_weights]
            if weight_keys:
                cmd += ["--weight-keys", weight_keys]
        p = subprocess.run(cmd, capture_output=True, text=True)
        report = p.stdout + p.stderr
        if p.returncode != 0:
            raise RuntimeError("ptera compile failed (exit %d): %s\n%s"
                               % (p.returncode, " ".join(cmd), report))
    finally:
        if not keep_ptg and os.path.exists(ptg_path):
            os.unlink(ptg_path)
    return ExportResult(path, external_weights, ptg_path if keep_ptg else None, report)
