"""python3 -m ptera.export MODULE_SPEC OUT.pte [options]

MODULE_SPEC is `package.module:factory`, a callable returning
(module, example_inputs). Captures the module, writes a .ptg and runs
`ptera compile`."""

import argparse
import importlib
import os
import sys

from . import BACKENDS, OP_SETS, QUANTIZE, PteraNotFound, export, write_ptg


def load_spec(spec):
    if ":" not in spec:
        raise SystemExit("ptera.export: MODULE_SPEC must be package.module:factory, got %r" % spec)
    mod_name, _, attr = spec.partition(":")
    sys.path.insert(0, os.getcwd())
    mod = importlib.import_module(mod_name)
    fn = mod
    for part in attr.split("."):
        fn = getattr(fn, part)
    res = fn() if callable(fn) else fn
    if not (isinstance(res, tuple) and len(res) == 2):
        raise SystemExit("ptera.export: %s must return (module, example_inputs)" % spec)
    return res


def _names(lists):
    """Repeated NAME[,NAME...] options as one list."""
    return [n for item in lists for n in item.split(",")]


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m ptera.export",
        description="Capture a torch.nn.Module and compile it into an ExecuTorch .pte "
                    "with `ptera compile`.")
    ap.add_argument("spec", metavar="MODULE_SPEC",
                    help="package.module:factory; factory() returns (module, example_inputs)")
    ap.add_argument("out", metavar="OUT.pte", help="the program to write")
    ap.add_argument("--external-weights", metavar="FILE.ptd",
                    help="put the weights in this .ptd instead of the .pte")
    ap.add_argument("--weight-keys", default="fqn",
                    help="how the .ptd names weights (passed to ptera compile; default fqn)")
    ap.add_argument("--ops", default=OP_SETS[0], choices=OP_SETS,
                    help="the target op set (passed to ptera compile; default %s: runs on "
                         "stock ExecuTorch)" % OP_SETS[0])
    ap.add_argument("--backend", choices=BACKENDS, default=None,
                    help="delegate what the backend runs (passed to ptera compile; default: "
                         "every operator on the CPU)")
    ap.add_argument("--quantize", choices=QUANTIZE, default=None,
                    help="quantize linear layers (8da8w, 8da4w need --backend xnnpack; "
                         "passed to ptera compile)")
    ap.add_argument("--group-size", type=int, default=None,
                    help="inputs per scale for 8da4w and int4-weight (default 32)")
    ap.add_argument("--quantize-scope", metavar="NAME[,NAME...]", action="append", default=[],
                    help="quantize only the calls made from these modules (fully qualified "
                         "names, e.g. layers.0.attn, or type:CLASS); repeatable; passed to "
                         "ptera compile")
    ap.add_argument("--quantize-skip", metavar="NAME[,NAME...]", action="append", default=[],
                    help="never quantize the calls made from these modules (same names); "
                         "repeatable; passed to ptera compile")
    ap.add_argument("--calibration", metavar="DIR", default=None,
                    help="the samples --backend cortex_m and --quantize int8-static "
                         "calibrate on: one subdirectory "
                         "per sample holding input0.npy, input1.npy, ... (float32), as "
                         "`ptera compile --calibration` reads them")
    ap.add_argument("--method", default="forward", help="the method to capture (default forward)")
    ap.add_argument("--keep-ptg", action="store_true",
                    help="keep the .ptg next to OUT (OUT with .ptg suffix)")
    ap.add_argument("--ptg-only", action="store_true",
                    help="write only the .ptg (OUT is then the .ptg path); no compiler needed")
    ap.add_argument("--ptera", metavar="BIN", help="the ptera binary (default: $PTERA_BIN, "
                    "<repo>/build/ptera, ptera on PATH)")
    a = ap.parse_args(argv)
    module, inputs = load_spec(a.spec)
    if a.ptg_only:
        write_ptg(module, inputs, a.out, method=a.method)
        print("wrote %s" % a.out)
        return 0
    keep = os.path.splitext(a.out)[0] + ".ptg" if a.keep_ptg else None
    try:
        r = export(module, inputs, a.out, external_weights=a.external_weights,
                   weight_keys=a.weight_keys, method=a.method, keep_ptg=keep, ptera_bin=a.ptera,
                   ops=a.ops, backend=a.backend, quantize=a.quantize,
                   group_size=a.group_size, calibration=a.calibration,
                   quantize_scope=_names(a.quantize_scope) or None,
                   quantize_skip=_names(a.quantize_skip) or None)
    except ValueError as e:
        print("ptera.export: %s" % e, file=sys.stderr)
        return 1
    except PteraNotFound as e:
        print("ptera.export: %s" % e, file=sys.stderr)
        return 1
    except RuntimeError as e:
        print("ptera.export: %s" % e, file=sys.stderr)
        return 1
    sys.stdout.write(r.report)
    if keep:
        print("kept %s" % keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
