#!/usr/bin/python3
"""Compares a firmware's semihosting output (examples/embedded/main.c) with
reference .npy files:

    mcu_compare.py LOG exact|close REF_0.npy [REF_1.npy ...]

`output K DTYPE N: ...` lines give output K (floats as IEEE-754 bit
patterns). Integer outputs must equal their reference; float outputs too with
`exact`, or lie within rtol 1e-5, atol 1e-6 with `close` (the firmware is
built -Os for another FPU, so the last bits may differ). Prints the memory
line and one line per output; exit status 1 on any mismatch."""
import sys

import numpy as np


def parse(log):
    outs, memory = {}, None
    for line in open(log, errors='replace'):
        line = line.strip()
        if line.startswith('output '):
            head, vals = line.split(':', 1)
            _, k, dtype, n = head.split()
            toks = vals.split()
            if dtype == 'Float':
                a = np.array([int(t, 16) for t in toks], dtype=np.uint32).view(np.float32)
            else:
                a = np.array([int(t) for t in toks], dtype=np.int64)
            if len(a) != int(n):
                raise SystemExit('%s: output %s has %d values, %s announced' % (log, k, len(a), n))
            outs[int(k)] = (dtype, a)
        elif line.startswith('memory '):
            memory = line
        elif line.startswith('error'):
            raise SystemExit('%s: %s' % (log, line))
    return outs, memory


def main(log, mode, refs):
    outs, memory = parse(log)
    ok = len(outs) == len(refs)
    if not ok:
        print('%s: %d outputs, %d references' % (log, len(outs), len(refs)))
    for k, path in enumerate(refs):
        if k not in outs:
            continue
        dtype, got = outs[k]
        want = np.load(path).reshape(-1)
        if got.shape != want.shape:
            print('  output %d: %d values, the reference has %d' % (k, got.size, want.size))
            ok = False
            continue
        if np.issubdtype(want.dtype, np.floating):
            exact = np.array_equal(got.view(np.uint32), want.astype(np.float32).view(np.uint32))
            close = np.allclose(got, want, rtol=1e-5, atol=1e-6)
            good = exact if mode == 'exact' else close
            diff = float(np.max(np.abs(got - want))) if got.size else 0.0
            print('  output %d %s[%d]: %s (max |diff| %.3g, %s)' % (
                k, dtype, got.size, 'ok' if good else 'MISMATCH', diff,
                'bit-exact' if exact else 'not bit-exact'))
        else:
            good = np.array_equal(got, want.astype(np.int64))
            print('  output %d %s[%d]: %s (bit-exact)' % (k, dtype, got.size, 'ok' if good else 'MISMATCH'))
        ok = ok and good
    print('  ' + (memory or 'no memory line'))
    return 0 if ok else 1


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[2] not in ('exact', 'close'):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
