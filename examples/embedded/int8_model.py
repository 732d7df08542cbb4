#!/usr/bin/python3
"""A tiny int8 Cortex-M program and its numpy reference (numpy only, no torch).

    python3 examples/embedded/int8_model.py OUT_DIR
writes OUT_DIR/int8.ptg (compile it: ptera compile int8.ptg int8.pte --ops ptera),
OUT_DIR/int8_input.npy and the expected outputs OUT_DIR/int8_want_<k>.npy:

    x: Float[1, 16]
    q = cortex_m::quantize_per_tensor(x, 0.05, zp 3)            Char[1, 16]
    y = cortex_m::quantized_linear(q, W Char[8, 16], bias Int[8]) Char[1, 8]
    z = cortex_m::dequantize_per_tensor(y, s_out, zp -5)         Float[1, 8]
    outputs y, z

The reference is the CMSIS-NN scalar arithmetic of CORTEX_M.md as transcribed
in numpy by tests/conformance/gen_cortex_m.py (imported, never ptera).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests',
                                'conformance'))
import gen_cortex_m as cm  # noqa: E402

S_IN, ZP_IN = 0.05, 3
S_W = 0.01
S_OUT, ZP_OUT = 0.08, -5
K, N = 16, 8


def main(out):
    rng = np.random.default_rng(13)
    x = (rng.standard_normal((1, K)) * 2.5).astype(np.float32)
    x[0, :3] = [1e3, -1e3, (7 + 0.5) * S_IN]  # saturation both ways and a rounding tie
    w = rng.integers(-128, 128, size=(N, K)).astype(np.int8)
    w[0, 0], w[-1, -1] = 127, -128
    bias = rng.integers(-2000, 2000, size=N).astype(np.int32)
    mult, shift = cm.quantize_multiplier(S_IN * S_W / S_OUT)

    q = cm.ref_quant(x, S_IN, ZP_IN, -128, 127, np.int8)
    acc = (q.astype(np.int64) - ZP_IN) @ w.astype(np.int64).T + bias.astype(np.int64)
    y = cm.requant_out(acc, mult, shift, ZP_OUT, -128, 127)
    z = ((y.astype(np.int64) - ZP_OUT).astype(np.float32) * np.float32(S_OUT)).astype(np.float32)

    data = w.tobytes() + bias.tobytes()  # W at 0 (128 bytes), bias at 128 (32 bytes)
    lines = [
        'ptg 1',
        'method forward',
        'value 0 tensor Float 1,%d' % K,
        'value 1 double %.17g' % S_IN,
        'value 2 int %d' % ZP_IN,
        'value 3 int -128',
        'value 4 int 127',
        'value 5 int 1',  # the Char dtype code
        'value 6 tensor Char 1,%d' % K,
        'value 7 tensor Char %d,%d const=0:%d fqn=fc.weight' % (N, K, N * K),
        'value 8 tensor Int %d const=%d:%d fqn=fc.bias' % (N, N * K, 4 * N),
        'value 9 none',
        'value 10 int %d' % -ZP_IN,  # input offset: adds back the zero point
        'value 11 int 0',            # filter offset
        'value 12 int %d' % ZP_OUT,  # output offset
        'value 13 ints %d' % mult,
        'value 14 ints %d' % shift,
        'value 15 tensor Char 1,%d' % N,
        'value 16 double %.17g' % S_OUT,
        'value 17 int %d' % ZP_OUT,
        'value 18 tensor Float 1,%d' % N,
        'inputs 0',
        'outputs 15 18',
        'node cortex_m::quantize_per_tensor.out 0 1 2 3 4 5 !6',
        'node cortex_m::quantized_linear.out 6 7 8 9 10 11 12 13 14 4 3 !15',
        'node cortex_m::dequantize_per_tensor.out 15 16 17 3 4 5 !18',
        'data %d' % len(data),
    ]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'int8.ptg'), 'wb') as f:
        f.write(('\n'.join(lines) + '\n').encode() + data)
    np.save(os.path.join(out, 'int8_input.npy'), x)
    np.save(os.path.join(out, 'int8_want_0.npy'), y)
    np.save(os.path.join(out, 'int8_want_1.npy'), z)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print('usage: int8_model.py OUT_DIR', file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
