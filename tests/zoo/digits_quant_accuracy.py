"""Test-set accuracy of the digits CNN (examples/digits, trained on sklearn's
bundled digits set) in fp32 eager PyTorch against the programs ptera writes
for it: fp32, and each quantization the compiler offers that the model can
take (8da8w and 8da4w through the XNNPACK delegate, int8-weight and
int4-weight on the CPU, static int8 of cortex_m:: operators and through the
XNNPACK delegate, both calibrated on training images). Every held-out image (359) runs through the Python runtime.

Prints, per program: accuracy, top-1 agreement with fp32 eager, and the max
and mean absolute difference of the probabilities. Fails when the fp32
program's predictions differ from eager's, or a quantized program's accuracy
is more than 3 points below eager's (the training is seeded, so the figures
repeat; the bound leaves room for rounding differences between machines).

usage: digits_quant_accuracy.py PTERA_BIN WORK_DIR"""
import os
import sys

import numpy as np
import torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "examples", "digits"))

import ptera  # noqa: E402
from ptera.runtime import Program  # noqa: E402
import train as digits_train  # noqa: E402

VARIANTS = [
    ("fp32 (portable)", {}),
    ("fp32 xnnpack", {"backend": "xnnpack"}),
    ("8da8w xnnpack", {"backend": "xnnpack", "quantize": "8da8w"}),
    ("8da4w xnnpack", {"backend": "xnnpack", "quantize": "8da4w"}),
    ("int8-weight", {"quantize": "int8-weight"}),
    ("int4-weight", {"quantize": "int4-weight"}),
    ("int8-static cortex_m", {"backend": "cortex_m", "ops": "ptera"}),
    ("int8-static xnnpack", {"backend": "xnnpack", "quantize": "int8-static"}),
]


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    model, (x_train, _, x_test, y_test), _ = digits_train.train(verbose=False)
    with torch.no_grad():
        eager = model(x_test).numpy()
    labels = y_test.numpy()
    eager_top = eager.argmax(1)
    eager_acc = float((eager_top == labels).mean())
    calibration = [x_train[i:i + 1].numpy() for i in range(0, 256, 4)]
    print("digits: %d held-out images; %d calibration images for int8-static" % (len(labels), len(calibration)))
    print("%-22s %9s %11s %12s %13s" % ("program", "accuracy", "agree fp32", "max |dprob|", "mean |dprob|"))
    print("%-22s %8.2f%% %11s %12s %13s" % ("fp32 eager PyTorch", 100 * eager_acc, "-", "-", "-"))
    failures = 0
    for name, kw in VARIANTS:
        pte = os.path.join(work, name.replace(" ", "_").replace("(", "").replace(")", "") + ".pte")
        if kw.get("backend") == "cortex_m" or kw.get("quantize") == "int8-static":
            kw = dict(kw, calibration=calibration)
        ptera.export(model, (x_test[0:1],), pte, ptera_bin=exe, **kw)
        with Program(pte, threads=1) as prog:
            m = prog.method("forward")
            got = np.concatenate([np.asarray(m(x_test[i:i + 1].numpy())[0]) for i in range(len(labels))])
        top = got.argmax(1)
        acc = float((top == labels).mean())
        agree = int((top == eager_top).sum())
        diff = np.abs(got - eager)
        print("%-22s %8.2f%% %5d/%-5d %12.3g %13.3g" % (name, 100 * acc, agree, len(labels),
                                                       diff.max(), diff.mean()))
        if name.startswith("fp32") and (agree != len(labels) or diff.max() > 1e-4):
            failures += 1
            print("FAIL: %s differs from eager" % name)
        if acc < eager_acc - 0.03:
            failures += 1
            print("FAIL: %s loses more than 3 points of accuracy" % name)
    print("digits quantization accuracy: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
