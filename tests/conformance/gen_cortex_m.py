#!/usr/bin/python3
"""cortex_m:: conformance cases (ExecuTorch's Cortex-M backend, CMSIS-NN arithmetic).

    /usr/bin/python3 tests/conformance/gen_cortex_m.py OUT_DIR
writes OUT_DIR/cases.txt and OUT_DIR/data.bin in the conformance runner's format
(runner.c), checked with `conformance_runner OUT_DIR cortex_m_ops.txt --strict`.

Every reference is an independent numpy transcription of the CMSIS-NN scalar
formulas in /work/shared/spec/CORTEX_M.md (section 2 primitives, section 3 per op),
on exact Python / int64 integers with int32 wrap-around where CMSIS computes in
int32. It never calls ptera. The cases cover saturation, negative and positive
shifts, rounding ties, zero points / offsets at the ends of their ranges, odd
channel counts, channel broadcast, channels-last layouts and int32 accumulator
overflow; each op also gets invalid-argument cases (expected: an error status).
numpy only (no torch needed).
"""
import itertools
import math
import os
import sys

import numpy as np

rng = np.random.default_rng(20261201)
CM = 'cortex_m::'
I8, I16, I32, F32 = np.int8, np.int16, np.int32, np.float32
CODE = {np.dtype(np.uint8): 0, np.dtype(I8): 1, np.dtype(I16): 2, np.dtype(I32): 3,
        np.dtype(np.int64): 4, np.dtype(F32): 6, np.dtype(np.float64): 7}
CL = (0, 2, 3, 1)
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1


# ---------------------------------------------------------------- CORTEX_M.md §2, in numpy
def wrap32(x):
    x = np.asarray(x, dtype=np.int64)
    return ((x + 2 ** 31) & 0xFFFFFFFF) - 2 ** 31


def dhm_nosat(a, b):
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    return wrap32((a * b + 2 ** 30) >> 31)


def dhm_sat(a, b):
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    t = a * b + np.where((a < 0) != (b < 0), 1 - 2 ** 30, 2 ** 30)
    q = np.sign(t) * (np.abs(t) >> 31)  # truncating division by 2^31
    return np.where((a == INT32_MIN) & (b == INT32_MIN), INT32_MAX, q)


def rdiv_pot(x, e):
    x, e = np.asarray(x, np.int64), np.asarray(e, np.int64)
    mask = (np.int64(1) << e) - 1
    rem = x & mask
    r = x >> e
    thr = (mask >> 1) + (r < 0)
    return np.where(rem > thr, r + 1, r)


def requant(x, m, s):
    s = np.asarray(s, np.int64)
    left, right = np.maximum(s, 0), np.maximum(-s, 0)
    return rdiv_pot(dhm_nosat(wrap32(np.asarray(x, np.int64) << left), m), right)


def quantize_multiplier(scale):
    """The exporter's (multiplier, shift) for a real scale > 0."""
    if scale == 0:
        return 0, 0
    m, e = math.frexp(scale)
    q = round(m * 2 ** 31)  # Python round: half to even
    if q == 2 ** 31:
        q, e = 2 ** 30, e + 1
    return max(INT32_MIN, min(INT32_MAX, q)), e


def requant_out(acc, m, s, off, lo=-128, hi=127):
    return np.clip(wrap32(requant(wrap32(acc), m, s) + off), lo, hi).astype(I8)


# softmax helpers (scalar Python ints, §3.9)
def s_dhm_sat(a, b):
    if a == b == INT32_MIN:
        return INT32_MAX
    t = a * b + ((1 - 2 ** 30) if (a < 0) != (b < 0) else 2 ** 30)
    return int(t / 2 ** 31) if abs(t) < 2 ** 52 else (abs(t) >> 31) * (1 if t >= 0 else -1)


def s_rdiv(x, e):
    mask = (1 << e) - 1
    r = x >> e
    return r + 1 if (x & mask) > (mask >> 1) + (1 if r < 0 else 0) else r


def s_w32(x):
    return ((x + 2 ** 31) & 0xFFFFFFFF) - 2 ** 31


def exp_on_neg(v):
    a = (v & ((1 << 24) - 1)) - (1 << 24)
    rem = a - v
    x = (a << 5) + (1 << 28)
    x2 = s_dhm_sat(x, x)
    t = s_rdiv(s_dhm_sat(s_rdiv(s_dhm_sat(x2, x2), 2) + s_dhm_sat(x2, x), 715827883) + x2, 1)
    r = 1895147668 + s_dhm_sat(1895147668, x + t)
    for j, c in enumerate([1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242]):
        if rem & (1 << (24 + j)):
            r = s_dhm_sat(r, c)
    return INT32_MAX if v == 0 else r


def mul_pot(v, e):
    thr = (1 << (31 - e)) - 1
    return INT32_MAX if v > thr else INT32_MIN if v < -thr else v << e


def one_over_one_plus_x(v):
    s64 = v + INT32_MAX
    hd = int((s64 + (1 if s64 >= 0 else -1)) / 2)
    x = 1515870810 + s_dhm_sat(hd, -1010580540)
    for _ in range(3):
        x = x + mul_pot(s_dhm_sat(x, (1 << 29) - s_dhm_sat(hd, x)), 2)
    return mul_pot(x, 1)


def softmax_row(row, mult, shift, diff_min):
    mx = max(row)
    es = []
    for q in row:
        d = q - mx
        es.append(exp_on_neg(s_dhm_sat(s_w32(d * (1 << shift)), mult)) if d >= diff_min else None)
    total = sum(s_rdiv(e, 12) for e in es if e is not None)
    h = 32 - total.bit_length()
    s = one_over_one_plus_x(s_w32(((total << h) & 0xFFFFFFFF) - 0x80000000))
    bits = 12 - h + 23
    return [-128 if e is None else max(-128, min(127, s_rdiv(s_dhm_sat(s, e), bits) - 128)) for e in es]


# ---------------------------------------------------------------- writer
class Writer:
    def __init__(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        self.cases = open(os.path.join(out_dir, 'cases.txt'), 'w')
        self.data = open(os.path.join(out_dir, 'data.bin'), 'wb')
        self.off = 0
        self.count = {}

    def blob(self, b):
        off = self.off
        self.data.write(b)
        self.off += len(b)
        pad = (-self.off) % 8
        self.data.write(b'\0' * pad)
        self.off += pad
        return off

    def tensor(self, kind, a, order=None):
        """a: logical array; order: dim order (data written in that memory order)."""
        a = np.asarray(a)
        mem = a if order is None else a.transpose(order)
        line = '%s %d %d %s %d' % (kind, CODE[a.dtype], a.ndim, ' '.join(str(s) for s in a.shape),
                                   self.blob(np.ascontiguousarray(mem).tobytes()))
        if order is not None:
            line += ' DO ' + ' '.join(str(d) for d in order)
        return line


W = None


class T:  # an input tensor
    def __init__(self, a, order=None):
        self.a, self.order = np.asarray(a), order


class O:  # the out tensor with its expected contents
    def __init__(self, a, order=None):
        self.a, self.order = np.asarray(a), order


class IL(list):  # int[]
    pass


def enc(v):
    if v is None:
        return 'A N'
    if isinstance(v, T):
        return 'A ' + W.tensor('T', v.a, v.order)
    if isinstance(v, O):
        return 'A ' + W.tensor('O', v.a, v.order)
    if isinstance(v, bool):
        return 'A B %d' % int(v)
    if isinstance(v, IL):
        return 'A IL %d %s' % (len(v), ' '.join(str(int(x)) for x in v))
    if isinstance(v, int):
        return 'A I %d' % v
    if isinstance(v, float):
        return 'A D ' + float(v).hex()
    raise TypeError(repr(v))


def case(op, args, err=False, rtol=0.0, atol=0.0):
    """args in schema order, the out last (an O)."""
    name = CM + op + '.out'
    cid = W.count.get(name, 0)
    W.count[name] = cid + 1
    lines = ['C %s %d %s 0 %r %r' % (name, cid, 'err' if err else 'ok', rtol, atol)]
    lines += [enc(v) for v in args]
    lines += ['R N' if err else 'R O', 'E']
    W.cases.write('\n'.join(lines) + '\n')


def i8(shape, lo=-128, hi=127, edges=True):
    a = rng.integers(lo, hi + 1, size=shape).astype(I8)
    if edges and a.size >= 4:
        f = a.reshape(-1)
        f[0], f[-1] = hi, lo
    return a


def i32(shape, lo=-2 ** 20, hi=2 ** 20):
    return rng.integers(lo, hi + 1, size=shape).astype(I32)


def rand_mult_shift(n=None, lo=-12, hi=2):
    """Random valid requantization parameters (multiplier in [2^30, 2^31), the exporter's
    normalised range, plus some arbitrary ones), shifts in [lo, hi]."""
    if n is None:
        return int(rng.integers(2 ** 30, 2 ** 31)), int(rng.integers(lo, hi + 1))
    m = rng.integers(2 ** 30, 2 ** 31, size=n).astype(I32)
    s = rng.integers(lo, hi + 1, size=n).astype(I32)
    return m, s


def empty(shape, dtype=I8):
    return np.zeros(shape, dtype=dtype)


# ---------------------------------------------------------------- 3.1 / 3.2 (de)quantize
def ref_quant(x, scale, zp, qmin, qmax, dt):
    inv = F32(1.0) / F32(scale)
    prod = (inv * x.astype(F32)).astype(F32)
    q = zp + np.rint(prod).astype(np.float64)  # nearbyint (half even), then the integer add
    return np.clip(q, qmin, qmax).astype(dt)


def gen_quantize():
    for dt, (lo, hi) in [(I8, (-128, 127)), (I16, (-32768, 32767))]:
        code = CODE[np.dtype(dt)]
        for scale in [0.05, 1.0 / 3.0, 0.5, 2.0 ** -10, 7.3]:
            for zp in [lo, 0, hi, 17]:
                for qmin, qmax in [(lo, hi), (lo + 3, hi - 5)]:
                    x = (rng.standard_normal(40) * 60 * scale).astype(F32)
                    # ties at the current scale, exact float32 values: (k + 0.5) * scale
                    ties = (np.arange(-6, 6) + 0.5).astype(F32) / (F32(1.0) / F32(scale))
                    x = np.concatenate([x, ties, np.array([0.0, -0.0, 1e9, -1e9, 3e4, -3e4], F32)])
                    x = x.reshape(2, -1)
                    case('quantize_per_tensor', [T(x), float(scale), zp, qmin, qmax, code,
                                                 O(ref_quant(x, scale, zp, qmin, qmax, dt))])
        x = rng.standard_normal((2, 3, 4, 5)).astype(F32)
        case('quantize_per_tensor', [T(x, CL), 0.02, 3, lo, hi, code,
                                     O(ref_quant(x, 0.02, 3, lo, hi, dt), CL)])
    x = rng.standard_normal(8).astype(F32)
    bad = [
        [T(x.astype(np.float64)), 0.1, 0, -128, 127, 1, O(empty(8))],  # input not Float
        [T(x), 0.1, 0, -128, 127, 3, O(empty(8, I32))],  # dtype Int
        [T(x), 0.1, 0, -129, 127, 1, O(empty(8))],  # quant_min below int8
        [T(x), 0.1, 0, -128, 127, 1, O(empty(8, I16))],  # out dtype differs
        [T(x), 0.1, 0, 10, 5, 1, O(empty(8))],  # quant_min > quant_max
    ]
    for b in bad:
        case('quantize_per_tensor', b, err=True)


def gen_dequantize():
    for dt, (lo, hi) in [(I8, (-128, 127)), (I16, (-32768, 32767))]:
        code = CODE[np.dtype(dt)]
        for scale in [0.05, 1.0 / 3.0, 2.0 ** -10, 123.456]:
            for zp in [lo, 0, hi]:
                q = i8((3, 7)) if dt == I8 else rng.integers(lo, hi + 1, (3, 7)).astype(dt)
                q.reshape(-1)[:2] = [lo, hi]
                want = ((q.astype(np.int64) - zp).astype(F32) * F32(scale)).astype(F32)
                case('dequantize_per_tensor', [T(q), float(scale), zp, lo, hi, code, O(want)])
    q = i8((1, 3, 2, 2))
    want = ((q.astype(np.int64) + 5).astype(F32) * F32(0.25)).astype(F32)
    case('dequantize_per_tensor', [T(q, CL), 0.25, -5, -128, 127, 1, O(want, CL)])
    q = i8(6)
    for b in [[T(q), 0.1, 200, -128, 127, 1, O(empty(6, F32))],  # zero point outside range
              [T(q), 0.1, 0, -128, 127, 2, O(empty(6, F32))],  # dtype differs from input
              [T(q), 0.1, 0, -128, 127, 1, O(empty(6, np.float64))],  # out not Float
              [T(q.astype(I32)), 0.1, 0, -128, 127, 3, O(empty(6, F32))]]:  # Int input
        case('dequantize_per_tensor', b, err=True)


# ---------------------------------------------------------------- 3.3 - 3.5 elementwise
def bin_operands(kind):
    """(self, other, out shape, self order, other order, out order, self idx, other idx)."""
    if kind == 'same':
        shp = tuple(int(v) for v in rng.integers(1, 6, size=int(rng.integers(1, 5))))
        return i8(shp), i8(shp), None, None
    n, c, h, w = 2, int(rng.choice([1, 3, 5, 8])), 3, 2
    big = i8((n, c, h, w))
    small = i8((1, c, 1, 1), edges=False)
    return (big, small, CL, None) if kind == 'bcast_other' else (small, big, None, CL)


def bin_apply(f, a, b, ao, bo):
    """f over NHWC memory: a channel vector broadcast over the other operand."""
    am = a if ao is None else a.transpose(ao)
    bm = b if bo is None else b.transpose(bo)
    if am.shape == bm.shape:
        return f(am.astype(np.int64), bm.astype(np.int64)), ao or bo
    if a.size < b.size:
        return f(a.reshape(-1).astype(np.int64), bm.astype(np.int64)), bo
    return f(am.astype(np.int64), b.reshape(-1).astype(np.int64)), ao


def logical(mem, order):
    return mem if order is None else mem.transpose(np.argsort(order))


def gen_add():
    for i in range(40):
        kind = ['same', 'bcast_other', 'bcast_self'][i % 3]
        a, b, ao, bo = bin_operands(kind)
        za, zb, zo = [int(rng.choice([-128, 127, 0, int(rng.integers(-128, 128))])) for _ in range(3)]
        if i < 24:  # the exporter's parameters from real scales
            sa, sb, so = [float(rng.uniform(0.002, 0.2)) for _ in range(3)]
            big = 2 * max(sa, sb)
            (ma, sha), (mb, shb) = quantize_multiplier(sa / big), quantize_multiplier(sb / big)
            mo, sho = quantize_multiplier(big / (so * 2 ** 20))
        else:  # arbitrary multipliers and shifts, positive ones included (saturation)
            (ma, sha), (mb, shb) = rand_mult_shift(lo=-8, hi=3), rand_mult_shift(lo=-8, hi=3)
            mo, sho = rand_mult_shift(lo=-25, hi=-5)
        lo, hi = (-128, 127) if i % 4 else (int(rng.integers(-128, -20)), int(rng.integers(20, 128)))

        def f(x, y):
            u = requant((x - za) << 20, ma, sha)
            v = requant((y - zb) << 20, mb, shb)
            return np.clip(wrap32(requant(wrap32(u + v), mo, sho) + zo), lo, hi).astype(I8)
        mem, oo = bin_apply(f, a, b, ao, bo)
        shape = a.shape if a.size >= b.size else b.shape
        case('quantized_add', [T(a, ao), za, ma, sha, T(b, bo), zb, mb, shb, zo, mo, sho, lo, hi,
                               O(logical(mem.reshape([shape[d] for d in oo] if oo else shape), oo), oo)])
    # rounding ties: multiplier 2^30 (one half) makes odd values exact halves, in both the
    # doubling high multiply (round toward +inf) and the power-of-two divide (away from zero)
    for sh, sho in [(-20, 0), (-20, -1), (-19, -2), (-21, 1)]:
        a, b = i8((3, 17)), i8((3, 17))
        for za, zb, zo in [(0, 0, 0), (-128, 127, 1), (127, -128, -3)]:
            def f(x, y):
                u = requant((x - za) << 20, 2 ** 30, sh)
                v = requant((y - zb) << 20, 2 ** 30, sh)
                return np.clip(wrap32(requant(wrap32(u + v), 2 ** 30, sho) + zo), -128, 127).astype(I8)
            want = f(a.astype(np.int64), b.astype(np.int64))
            case('quantized_add', [T(a), za, 2 ** 30, sh, T(b), zb, 2 ** 30, sh, zo, 2 ** 30, sho, -128, 127,
                                   O(want)])
    a, b = i8((2, 3)), i8((2, 3))
    good = [T(a), 0, 2 ** 30, -1, T(b), 0, 2 ** 30, -1, 0, 2 ** 30, -10, -128, 127, O(empty((2, 3)))]
    for k, v in [(4, T(i8((3, 2)))), (7, 32), (9, 2 ** 31), (11, 5), (12, 128), (1, -129), (0, T(a.astype(I16)))]:
        bad = list(good)
        bad[k] = v
        if k == 11:
            bad[12] = 0  # activation_min 5 > activation_max 0
        case('quantized_add', bad, err=True)


def gen_mul():
    for i in range(36):
        kind = ['same', 'bcast_other', 'bcast_self'][i % 3]
        a, b, ao, bo = bin_operands(kind)
        za, zb, zo = [int(rng.choice([-128, 127, 0, int(rng.integers(-128, 128))])) for _ in range(3)]
        if i < 24:
            m, s = quantize_multiplier(float(rng.uniform(0.0001, 0.05)))
        else:
            m, s = rand_mult_shift(lo=-16, hi=2)

        def f(x, y):
            return requant_out((x - za) * (y - zb), m, s, zo)
        mem, oo = bin_apply(f, a, b, ao, bo)
        shape = a.shape if a.size >= b.size else b.shape
        case('quantized_mul', [T(a, ao), za, T(b, bo), zb, zo, m, s,
                               O(logical(mem.reshape([shape[d] for d in oo] if oo else shape), oo), oo)])
    for m, sh in [(2 ** 30, 0), (2 ** 30, -1), (2 ** 30, -3), (2 ** 30 + 1, 0), (2 ** 31 - 1, 1), (2 ** 30, -31)]:
        a, b = i8((5, 9), -12, 12), i8((5, 9), -12, 12)  # small products: ties, not clamps
        za, zb, zo = int(rng.integers(-3, 4)), int(rng.integers(-3, 4)), int(rng.integers(-5, 6))
        want = requant_out((a.astype(np.int64) - za) * (b.astype(np.int64) - zb), m, sh, zo)
        case('quantized_mul', [T(a), za, T(b), zb, zo, m, sh, O(want)])
    a = i8((4,))
    good = [T(a), 0, T(a), 0, 0, 2 ** 30, -8, O(empty(4))]
    for k, v in [(2, T(i8((5,)))), (6, -32), (5, -2 ** 31 - 1), (3, 128), (7, O(empty(4, I16)))]:
        bad = list(good)
        bad[k] = v
        case('quantized_mul', bad, err=True)


def round_half_away(p):
    p = p.astype(np.float64)
    return np.sign(p) * np.floor(np.abs(p) + 0.5)


def gen_div():
    for dt, (lo, hi) in [(I8, (-128, 127)), (I16, (-32768, 32767))]:
        for eff in [1.0, 0.5, 2.0, 0.37, 17.25, 1e-3]:
            for za, zb, zo in [(0, 0, 0), (lo, hi, 0), (3, -7, hi), (hi, 0, lo)]:
                shp = (3, 11)
                x = rng.integers(lo, hi + 1, shp).astype(dt)
                y = rng.integers(lo, hi + 1, shp).astype(dt)
                y.reshape(-1)[:3] = zb  # zero divisors
                # 1/2, -1/2, 3/2: rounding ties at eff 1 (where the operands fit)
                x.reshape(-1)[3:6] = np.clip([za + 1, za - 1, za + 3], lo, hi)
                y.reshape(-1)[3:6] = np.clip(zb + 2, lo, hi)
                n = (x.astype(np.int64) - za).astype(F32)
                d = (y.astype(np.int64) - zb).astype(F32)
                with np.errstate(divide='ignore', invalid='ignore'):
                    qf = np.where(d != 0, n / np.where(d != 0, d, F32(1)), F32(0)).astype(F32)
                prod = (qf * F32(eff)).astype(F32)
                r = round_half_away(prod) + zo
                want = np.clip(r, lo, hi).astype(dt)
                case('quantized_div', [T(x), za, T(y), zb, zo, float(eff), O(want)])
    x = i8((4,))
    good = [T(x), 0, T(x), 0, 0, 1.0, O(empty(4))]
    for k, v in [(2, T(i8((2, 2)))), (6, O(empty(4, I16))), (5, float('inf')), (1, 300),
                 (0, T(x.astype(I32)))]:
        bad = list(good)
        bad[k] = v
        case('quantized_div', bad, err=True)


# ---------------------------------------------------------------- 3.6 / 3.7
def gen_activation():
    for shp, order in [((256,), None), ((2, 3, 5), None), ((1, 4, 3, 3), CL), ((0,), None)]:
        lut = i8(256, edges=False)
        x = np.arange(-128, 128, dtype=np.int64)
        x = np.resize(x, int(np.prod(shp))).astype(I8).reshape(shp)
        rng.shuffle(x.reshape(-1))
        want = lut[(x.astype(np.int64) + 128)]
        case('quantized_activation', [T(x, order), T(lut), O(want, order)])
    # the exporter's table for a sigmoid: round_half_away(f((q - zp_in) s_in) / s_out + zp_out)
    q = np.arange(-128, 128)
    s_in, zp_in, s_out, zp_out = 0.05, 3, 1.0 / 256, -128
    f = 1 / (1 + np.exp(-(q - zp_in) * s_in))
    lut = np.clip(round_half_away(f / s_out + zp_out), -128, 127).astype(I8)
    case('quantized_activation', [T(q.astype(I8)), T(lut), O(lut)])
    x = i8((4,))
    for b in [[T(x), T(i8(255)), O(empty(4))], [T(x), T(i8(256)), O(empty(5))],
              [T(x.astype(I16)), T(i8(256)), O(empty(4))]]:
        case('quantized_activation', b, err=True)


def gen_minmax():
    shapes = [((4,), (4,)), ((2, 3), (3,)), ((2, 1, 4), (3, 1)), ((1, 2, 3, 4), (2, 1, 4)),
              ((5, 1, 1, 3), (1, 4, 2, 1)), ((), (3,)), ((0, 3), (1,)), ((3, 1), (1, 5))]
    for op, f in [('minimum', np.minimum), ('maximum', np.maximum)]:
        for sa, sb in shapes:
            for swap in [False, True]:
                a, b = i8(sa), i8(sb)
                if swap:
                    a, b = b, a
                case(op, [T(a), T(b), O(f(a, b).astype(I8))])
        a = i8((2, 2))
        for bad in [[T(a.astype(I16)), T(a), O(empty((2, 2)))], [T(a), T(i8((3,))), O(empty((2, 2)))],
                    [T(i8((1, 1, 1, 1, 2))), T(i8((2,))), O(empty((1, 1, 1, 1, 2)))],
                    [T(a), T(a), O(empty((2, 2), I16))]]:
            case(op, bad, err=True)


# ---------------------------------------------------------------- 3.8 linear
def gen_linear():
    for i in range(30):
        lead = [(1,), (3,), (2, 3), (1, 1, 2)][i % 4]
        k, n = int(rng.choice([1, 3, 7, 16, 33])), int(rng.choice([1, 2, 5, 12]))
        x, w = i8(lead + (k,)), i8((n, k))
        io = int(rng.choice([-127, 128, 0, int(rng.integers(-127, 129))]))
        fo = 0 if i % 5 else int(rng.integers(-10, 11))
        oo = int(rng.choice([-128, 127, int(rng.integers(-128, 128))]))
        bias = i32(n) if i % 3 else None
        if i % 7 == 6:  # int32 overflow in the accumulator (wraps as on the target)
            bias = np.full(n, INT32_MAX - 1000, dtype=I32)
        m, s = quantize_multiplier(float(rng.uniform(1e-4, 0.02))) if i % 2 else rand_mult_shift(lo=-20, hi=1)
        hi, lo = (127, -128) if i % 4 else (100, -50)
        xs, ws = x.astype(np.int64), w.astype(np.int64)
        use_ks = i % 6 == 5
        if use_ks:
            ks = (io * (ws + fo).sum(axis=1) + (0 if bias is None else bias)).astype(np.int64)
            ksum = wrap32(ks).astype(I32).reshape(1, n)
            acc = ksum.reshape(-1) + xs @ (ws + fo).T
            b_arg, ks_arg = None, T(ksum)
        else:
            acc = (xs + io) @ (ws + fo).T + (0 if bias is None else bias.astype(np.int64))
            b_arg, ks_arg = (None if bias is None else T(bias)), None
        want = requant_out(acc, m, s, oo, lo, hi)
        case('quantized_linear', [T(x), T(w), b_arg, ks_arg, io, fo, oo, IL([m]), IL([s]), hi, lo,
                                  O(want)])
    x, w = i8((2, 4)), i8((3, 4))
    good = [T(x), T(w), None, None, 0, 0, 0, IL([2 ** 30]), IL([-5]), 127, -128, O(empty((2, 3)))]
    for k, v in [(1, T(i8((3, 5)))), (1, T(i8((1, 3, 4)))), (2, T(i32(4))), (7, IL([])), (8, IL([40])),
                 (4, 129), (9, 128), (11, O(empty((2, 4)))), (2, T(i8(3)))]:
        bad = list(good)
        bad[k] = v
        case('quantized_linear', bad, err=True)


# ---------------------------------------------------------------- 3.9 softmax
def softmax_params(s_in):
    m, s = quantize_multiplier(min(s_in * 2 ** 26, 2 ** 31 - 1))
    return m, s, -math.floor(31 * 2 ** 26 / 2 ** s)


def gen_softmax():
    for i, (shp, s_in) in enumerate([((1, 10), 0.1), ((3, 7), 0.05), ((2, 2, 5), 0.2), ((4, 1), 0.1),
                                     ((2, 33), 0.02), ((1, 64), 0.5), ((2, 16), 1.0), ((3, 9), 0.0039),
                                     ((1, 300), 0.08), ((2, 12), 0.25), ((1, 1000), 0.1)]):
        x = i8(shp)
        if i == 3:
            x[:] = 5
        if i == 6:
            x[0, :] = -128
            x[0, 3] = 127
        if i == 10:  # a sum of 2^28.9: the final divide is by 2^32 (CMSIS leaves e >= 32 undefined;
            x[:] = 7  # rdiv_pot's rule carried on in 64 bits, see fixed_point.h)
        m, s, dmin = softmax_params(s_in)
        zi = int(rng.integers(-128, 128))
        want = np.array([softmax_row([int(v) for v in row], m, s, dmin)
                         for row in x.reshape(-1, shp[-1])], dtype=I8).reshape(shp)
        # sanity of the transcription itself: within 2 LSB of float softmax at scale 1/256
        xf = x.astype(np.float64) * s_in
        p = np.exp(xf - xf.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        assert np.abs(want.astype(np.int64) - np.clip(np.round(p * 256 - 128), -128, 127)).max() <= 2, shp
        case('softmax', [T(x), -1 if i % 2 else len(shp) - 1, zi, -128, m, s, dmin, O(want)])
    for i in range(30):  # random rows and scales (saturating exp, diff_min cut-off)
        n = int(rng.integers(2, 80))
        s_in = float(np.exp(rng.uniform(np.log(0.004), np.log(2.0))))
        x = i8((2, n), edges=i % 2 == 0)
        m, s, dmin = softmax_params(s_in)
        want = np.array([softmax_row([int(v) for v in row], m, s, dmin) for row in x], dtype=I8)
        case('softmax', [T(x), -1, 0, -128, m, s, dmin, O(want)])
    x = i8((2, 5))
    m, s, dmin = softmax_params(0.1)
    good = [T(x), -1, 0, -128, m, s, dmin, O(empty((2, 5)))]
    for k, v in [(1, 0), (3, 0), (6, 5), (5, -1), (7, O(empty((5, 2)))), (0, T(i8((1, 5000)))), (1, 2)]:
        bad = list(good)
        bad[k] = v
        if k == 0:
            bad[7] = O(empty((1, 5000)))
        case('softmax', bad, err=True)


# ---------------------------------------------------------------- 3.10 / 3.11
def gen_transpose():
    for shp in [(5,), (2, 3), (2, 3, 4), (2, 3, 1, 5), (3, 1, 2, 2)]:
        perms = list(itertools.permutations(range(len(shp))))
        for p in perms[:: max(1, len(perms) // 8)]:
            x = i8(shp)
            case('transpose', [T(x), IL(p), O(np.ascontiguousarray(x.transpose(p)))])
    x = i8((2, 3, 4, 5))
    # dim order is ignored: both tensors are read as contiguous in logical order
    case('transpose', [T(x), IL([0, 2, 3, 1]), O(np.ascontiguousarray(x.transpose(0, 2, 3, 1)))])
    case('transpose', [T(x), IL([-4, -1, 1, 2]), O(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))])
    for bad in [[T(x), IL([0, 1, 2]), O(empty((2, 3, 4)))], [T(x), IL([0, 0, 1, 2]), O(empty((2, 2, 3, 4)))],
                [T(x), IL([0, 1, 3, 2]), O(empty((2, 3, 4, 5)))], [T(i8((1, 1, 1, 1, 2))), IL([0, 1, 2, 3, 4]),
                                                                  O(empty((1, 1, 1, 1, 2)))]]:
        case('transpose', bad, err=True)


def gen_pad():
    for shp, order in [((5,), None), ((2, 3), None), ((2, 3, 4), None), ((1, 3, 4, 5), None),
                       ((2, 3, 4, 5), CL), ((1, 1, 3, 3), None)]:
        for _ in range(3):
            pre = [int(v) for v in rng.integers(0, 3, 4)]
            post = [int(v) for v in rng.integers(0, 3, 4)]
            r = len(shp)
            for d in range(4 - r):  # dims that do not exist are not padded
                pre[d] = post[d] = 0
            val = int(rng.choice([-128, 127, int(rng.integers(-128, 128))]))
            x = i8(shp)
            mem = x if order is None else x.transpose(order)
            pm = np.pad(mem, [(pre[4 - r + k], post[4 - r + k]) for k in range(r)], constant_values=val)
            case('pad', [T(x, order), IL(pre), IL(post), val, O(logical(pm, order), order)])
    x = i8((2, 3))
    for bad in [[T(x), IL([0, 0, 1]), IL([0, 0, 0, 0]), 0, O(empty((3, 3)))],
                [T(x), IL([0, 0, 0, -1]), IL([0, 0, 0, 1]), 0, O(empty((2, 3)))],
                [T(x), IL([0, 0, 0, 1]), IL([0, 0, 0, 0]), 0, O(empty((2, 3)))],
                [T(x), IL([0, 0, 0, 0]), IL([0, 0, 0, 0]), 200, O(empty((2, 3)))]]:
        case('pad', bad, err=True)


# ---------------------------------------------------------------- 3.12 - 3.14 convolutions
def conv_ref(x, w, bias, stride, pad, dil, io, groups):
    """x [N, C, H, W] int, w [OC, KH, KW, Cg]; padding taps skipped (= zeros of x + io)."""
    n, c, h, wd = x.shape
    oc, kh, kw, cg = w.shape
    xp = np.zeros((n, c, h + 2 * pad[0], wd + 2 * pad[1]), np.int64)
    xp[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + wd] = x.astype(np.int64) + io
    oh = (h + 2 * pad[0] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * pad[1] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    acc = np.zeros((n, oc, oh, ow), np.int64)
    per = oc // groups
    for ky in range(kh):
        for kx in range(kw):
            patch = xp[:, :, ky * dil[0]:ky * dil[0] + stride[0] * (oh - 1) + 1:stride[0],
                       kx * dil[1]:kx * dil[1] + stride[1] * (ow - 1) + 1:stride[1]]
            for g in range(groups):
                acc[:, g * per:(g + 1) * per] += np.einsum(
                    'nchw,oc->nohw', patch[:, g * cg:(g + 1) * cg], w[g * per:(g + 1) * per, ky, kx].astype(np.int64))
    if bias is not None:
        acc += bias.astype(np.int64).reshape(1, -1, 1, 1)
    return acc


def per_channel_requant(acc, m, s, oo, lo, hi):
    sh = (1, -1, 1, 1)
    return requant_out(acc, m.astype(np.int64).reshape(sh), s.astype(np.int64).reshape(sh), oo, lo, hi)


def conv_cases():
    # (N, C_in, H, W, C_out, groups, (KH, KW), stride, pad, dil)
    return [(1, 3, 5, 5, 4, 1, (3, 3), (1, 1), (1, 1), (1, 1)),
            (2, 5, 6, 7, 3, 1, (3, 2), (2, 1), (1, 0), (1, 1)),
            (1, 4, 7, 7, 6, 2, (3, 3), (2, 2), (1, 1), (1, 1)),
            (1, 1, 8, 6, 5, 1, (3, 3), (1, 2), (0, 1), (2, 1)),
            (1, 6, 4, 4, 6, 3, (1, 1), (1, 1), (0, 0), (1, 1)),
            (1, 7, 5, 3, 1, 1, (2, 3), (1, 1), (2, 1), (1, 2)),
            (1, 3, 1, 1, 7, 1, (1, 1), (1, 1), (0, 0), (1, 1)),
            (2, 8, 9, 5, 4, 4, (5, 1), (3, 1), (2, 0), (1, 1)),
            (1, 64, 3, 3, 5, 1, (3, 3), (1, 1), (1, 1), (1, 1))]


def gen_conv2d():
    for i, (n, c, h, wd, oc, g, (kh, kw), st, pd, dl) in enumerate(conv_cases()):
        for variant in range(3):
            x = i8((n, c, h, wd))
            w = i8((oc, kh, kw, c // g))
            bias = None if variant == 1 else i32(oc)
            if variant == 2 and i % 2:  # accumulator overflow
                bias = np.full(oc, INT32_MIN + 50, dtype=I32)
            io = [128, -127, int(rng.integers(-127, 129))][variant]
            oo = [-128, 127, int(rng.integers(-128, 128))][variant]
            m, s = rand_mult_shift(oc, lo=-14, hi=1)
            lo, hi = (-128, 127) if variant != 2 else (-100, 90)
            want = per_channel_requant(conv_ref(x, w, bias, st, pd, dl, io, g), m, s, oo, lo, hi)
            xo = None if c == 1 and variant == 1 else CL  # C == 1: contiguous is channels-last too
            oo_order = None if oc == 1 and variant == 1 else CL
            case('quantized_conv2d', [T(x, xo), T(w), None if bias is None else T(bias), IL(st), IL(pd), IL(dl),
                                      io, oo, T(m), T(s), lo, hi, T(np.zeros(4, np.uint8)), O(want, oo_order)])
    x, w = i8((1, 4, 5, 5)), i8((2, 3, 3, 4))
    m, s = rand_mult_shift(2)
    good = [T(x, CL), T(w), None, IL([1, 1]), IL([0, 0]), IL([1, 1]), 0, 0, T(m), T(s), -128, 127,
            T(np.zeros(0, np.uint8)), O(empty((1, 2, 3, 3)), CL)]
    for k, v in [(0, T(x)), (1, T(i8((2, 3, 3, 3)))), (13, O(empty((1, 2, 4, 4)), CL)), (3, IL([0, 1])),
                 (8, T(m[:1])), (9, T(np.array([0, 32], I32))), (2, T(i32(3))), (5, IL([1]))]:
        bad = list(good)
        bad[k] = v
        case('quantized_conv2d', bad, err=True)


def gen_depthwise():
    for (c, h, wd, dm, (kh, kw), st, pd, dl) in [(3, 5, 5, 1, (3, 3), (1, 1), (1, 1), (1, 1)),
                                                 (5, 6, 7, 2, (3, 2), (2, 1), (1, 0), (1, 1)),
                                                 (4, 9, 4, 3, (10, 4), (1, 1), (4, 1), (1, 1)),
                                                 (1, 8, 8, 4, (3, 3), (2, 2), (1, 1), (2, 2)),
                                                 (7, 4, 4, 1, (1, 1), (1, 1), (0, 0), (1, 1))]:
        for variant in range(3):
            oc = c * dm
            x = i8((1, c, h, wd))
            w = i8((1, kh, kw, oc))
            bias = None if variant == 1 else i32(oc)
            if variant == 2:
                bias = np.full(oc, INT32_MAX - 100, dtype=I32)
            io, oo = [(-68, -128), (128, 127), (-127, 5)][variant]
            m, s = rand_mult_shift(oc, lo=-12, hi=1)
            # reference: grouped convolution with one input channel per group
            wt = np.zeros((oc, kh, kw, 1), I8)
            for o in range(oc):
                wt[o, :, :, 0] = w[0, :, :, o]
            acc = conv_ref(x, wt, bias, st, pd, dl, io, c)
            want = per_channel_requant(acc, m, s, oo, -128, 127)
            case('quantized_depthwise_conv2d', [T(x, CL), T(w), None if bias is None else T(bias), IL(st), IL(pd),
                                                IL(dl), dm, io, oo, T(m), T(s), -128, 127, T(np.zeros(8, np.uint8)),
                                                O(want, CL)])
    x, w = i8((1, 2, 4, 4)), i8((1, 3, 3, 4))
    m, s = rand_mult_shift(4)
    good = [T(x, CL), T(w), None, IL([1, 1]), IL([0, 0]), IL([1, 1]), 2, 0, 0, T(m), T(s), -128, 127,
            T(np.zeros(0, np.uint8)), O(empty((1, 4, 2, 2)), CL)]
    for k, v in [(6, 3), (0, T(i8((2, 2, 4, 4)), CL)), (1, T(i8((2, 3, 3, 4)))), (11, 10)]:
        bad = list(good)
        bad[k] = v
        if k == 0:
            bad[14] = O(empty((2, 4, 2, 2)), CL)
        if k == 11:
            bad[12] = 0
        case('quantized_depthwise_conv2d', bad, err=True)


def tconv_ref(x, w, bias, stride, pad, io, oh, ow):
    """Scatter form of CORTEX_M.md §3.14; x [N, C_in, H, W], w [OC, KH, KW, C_in]."""
    n, c, h, wd = x.shape
    oc, kh, kw, _ = w.shape
    acc = np.zeros((n, oc, oh, ow), np.int64)
    xs = x.astype(np.int64) + io
    for iy in range(h):
        for ix in range(wd):
            for ky in range(kh):
                for kx in range(kw):
                    oy, ox = iy * stride[0] - pad[0] + ky, ix * stride[1] - pad[1] + kx
                    if 0 <= oy < oh and 0 <= ox < ow:
                        acc[:, :, oy, ox] += xs[:, :, iy, ix] @ w[:, ky, kx, :].astype(np.int64).T
    if bias is not None:
        acc += bias.astype(np.int64).reshape(1, -1, 1, 1)
    return acc


def gen_transpose_conv():
    for (n, c, h, wd, oc, (kh, kw), st, pd, op) in [(1, 3, 3, 3, 2, (3, 3), (1, 1), (0, 0), (0, 0)),
                                                    (2, 4, 3, 4, 5, (3, 3), (2, 2), (1, 1), (1, 0)),
                                                    (1, 5, 2, 3, 3, (2, 4), (2, 3), (0, 1), (1, 2)),
                                                    (1, 1, 4, 4, 1, (4, 4), (2, 2), (1, 1), (0, 0)),
                                                    (1, 16, 3, 3, 3, (3, 3), (2, 2), (1, 1), (1, 1))]:
        for variant in range(2):
            x = i8((n, c, h, wd))
            w = i8((oc, kh, kw, c))
            bias = None if variant else i32(oc)
            io, oo = [(128, -128), (-127, 127)][variant]
            m, s = rand_mult_shift(oc, lo=-12, hi=1)
            oh = (h - 1) * st[0] - 2 * pd[0] + kh + op[0]
            ow = (wd - 1) * st[1] - 2 * pd[1] + kw + op[1]
            want = per_channel_requant(tconv_ref(x, w, bias, st, pd, io, oh, ow), m, s, oo, -128, 127)
            case('quantized_transpose_conv2d', [T(x, CL), T(w), None if bias is None else T(bias), IL(st), IL(pd),
                                                IL(op), IL([1, 1]), io, oo, T(m), T(s), -128, 127,
                                                T(np.zeros(4, np.uint8)), T(np.zeros(4, np.uint8)), O(want, CL)])
    x, w = i8((1, 2, 3, 3)), i8((3, 3, 3, 2))
    m, s = rand_mult_shift(3)
    good = [T(x, CL), T(w), None, IL([1, 1]), IL([0, 0]), IL([0, 0]), IL([1, 1]), 0, 0, T(m), T(s), -128, 127,
            T(np.zeros(0, np.uint8)), T(np.zeros(0, np.uint8)), O(empty((1, 3, 5, 5)), CL)]
    for k, v in [(6, IL([2, 2])), (5, IL([1, 1])), (1, T(i8((3, 3, 3, 3)))), (15, O(empty((1, 3, 6, 6)), CL))]:
        bad = list(good)
        bad[k] = v
        case('quantized_transpose_conv2d', bad, err=True)


# ---------------------------------------------------------------- 3.15 / 3.16 pooling
def pool_out(i, k, s, p, ceil):
    o = (i + 2 * p - k) // s + 1
    if ceil and (i + 2 * p - k) % s != 0:
        o += 1
    if ceil and (o - 1) * s >= i + p:
        o -= 1
    return o


def pool_ref(x, k, s, p, ceil, red):
    n, c, h, w = x.shape
    oh, ow = pool_out(h, k[0], s[0], p[0], ceil), pool_out(w, k[1], s[1], p[1], ceil)
    out = np.zeros((n, c, oh, ow), I8)
    for oy in range(oh):
        for ox in range(ow):
            y0, x0 = oy * s[0] - p[0], ox * s[1] - p[1]
            win = x[:, :, max(y0, 0):min(y0 + k[0], h), max(x0, 0):min(x0 + k[1], w)].astype(np.int64)
            out[:, :, oy, ox] = red(win.reshape(n, c, -1))
    return out


def avg_red(win):
    cnt = win.shape[-1]
    sm = win.sum(axis=-1)
    # C's truncating division of (sum +- cnt/2) by cnt: round half away from zero
    num = np.where(sm > 0, sm + cnt // 2, sm - cnt // 2)
    avg = np.sign(num) * (np.abs(num) // cnt)
    return np.clip(avg, -128, 127)


def gen_avg_pool():
    for (n, c, h, w, k, s, p, ceil) in [(1, 3, 4, 4, (2, 2), (2, 2), (0, 0), False),
                                        (2, 5, 5, 7, (3, 3), (2, 2), (1, 1), False),
                                        (1, 4, 5, 5, (2, 3), (2, 2), (1, 1), True),
                                        (1, 1, 6, 6, (3, 3), (3, 3), (0, 0), True),
                                        (1, 7, 7, 3, (7, 3), (1, 1), (0, 1), False),
                                        (1, 2, 5, 6, (2, 2), (3, 2), (1, 1), True),
                                        (1, 6, 3, 3, (3, 3), (1, 1), (1, 1), False)]:
        for fill in [None, 127, -128, 'ties']:
            x = i8((n, c, h, w))
            if fill == 'ties':
                x = rng.choice(np.array([-3, -1, 1, 3], I8), size=(n, c, h, w)).astype(I8)
            elif fill is not None:
                x[:] = fill
            want = pool_ref(x, k, s, p, ceil, avg_red)
            case('quantized_avg_pool2d', [T(x, CL), IL(k), IL(s), IL(p), ceil, 3, 2 ** 30, -1,
                                          T(np.zeros(0, np.uint8)), O(want, CL)])
    x = i8((1, 2, 4, 4))
    good = [T(x, CL), IL([2, 2]), IL([2, 2]), IL([0, 0]), False, 0, 0, 0, T(np.zeros(0, np.uint8)),
            O(empty((1, 2, 2, 2)), CL)]
    for k, v in [(9, O(empty((1, 2, 3, 3)), CL)), (1, IL([2])), (2, IL([0, 1])), (9, O(empty((1, 3, 2, 2)), CL)),
                 (0, T(x))]:
        bad = list(good)
        bad[k] = v
        case('quantized_avg_pool2d', bad, err=True)
    # a window entirely in the padding
    case('quantized_avg_pool2d', [T(i8((1, 1, 2, 2))), IL([1, 1]), IL([1, 1]), IL([1, 1]), False, 0, 0, 0,
                                  T(np.zeros(0, np.uint8)), O(empty((1, 1, 4, 4)))], err=True)


def gen_max_pool():
    for (n, c, h, w, k, s, p) in [(1, 3, 4, 4, (2, 2), (2, 2), (0, 0)), (2, 5, 5, 7, (3, 3), (2, 2), (1, 1)),
                                  (1, 1, 6, 5, (3, 2), (1, 2), (1, 1)), (1, 8, 3, 3, (3, 3), (1, 1), (1, 1))]:
        for lo, hi in [(-128, 127), (-20, 40), (0, 127)]:
            x = i8((n, c, h, w))
            zp = int(rng.integers(-128, 128))
            want = np.clip(pool_ref(x, k, s, p, False, lambda win: win.max(axis=-1)), lo, hi).astype(I8)
            case('quantized_max_pool2d', [T(x, CL), IL(k), IL(s), IL(p), IL([1, 1]), False, zp, zp, lo, hi,
                                          O(want, CL)])
    x = i8((1, 2, 4, 4))
    good = [T(x, CL), IL([2, 2]), IL([2, 2]), IL([0, 0]), IL([1, 1]), False, 0, 0, -128, 127,
            O(empty((1, 2, 2, 2)), CL)]
    for k, v in [(4, IL([2, 2])), (5, True), (7, 1), (10, O(empty((1, 2, 3, 2)), CL)), (8, 10)]:
        bad = list(good)
        bad[k] = v
        if k == 8:
            bad[9] = 0
        case('quantized_max_pool2d', bad, err=True)


# ---------------------------------------------------------------- 3.17 batch matmul
def gen_bmm():
    for i, (b, m, k, n) in enumerate([(1, 1, 1, 1), (2, 3, 5, 4), (3, 2, 16, 7), (1, 5, 33, 3), (4, 1, 8, 1),
                                      (2, 7, 3, 9), (1, 4, 64, 4)]):
        for variant in range(3):
            x, y = i8((b, m, k)), i8((b, n, k))
            oa, ob = [(128, -127), (0, 0), (int(rng.integers(-127, 129)), int(rng.integers(-127, 129)))][variant]
            oo = [-128, 127, int(rng.integers(-128, 128))][variant]
            mult, sh = quantize_multiplier(float(rng.uniform(1e-4, 0.01))) if variant else rand_mult_shift(lo=-20, hi=2)
            acc = np.einsum('bmk,bnk->bmn', x.astype(np.int64) + oa, y.astype(np.int64) + ob)
            case('quantized_batch_matmul', [T(x), oa, T(y), ob, oo, mult, sh, T(np.zeros(0, np.uint8)),
                                            O(requant_out(acc, mult, sh, oo))])
    x, y = i8((2, 3, 4)), i8((2, 5, 4))
    good = [T(x), 0, T(y), 0, 0, 2 ** 30, -5, T(np.zeros(0, np.uint8)), O(empty((2, 3, 5)))]
    for k, v in [(2, T(i8((2, 5, 3)))), (2, T(i8((1, 5, 4)))), (8, O(empty((2, 5, 3)))), (1, 129), (6, 40),
                 (0, T(i8((3, 4))))]:
        bad = list(good)
        bad[k] = v
        case('quantized_batch_matmul', bad, err=True)


GENERATORS = [gen_quantize, gen_dequantize, gen_add, gen_mul, gen_div, gen_activation, gen_minmax, gen_linear,
              gen_softmax, gen_transpose, gen_pad, gen_conv2d, gen_depthwise, gen_transpose_conv, gen_avg_pool,
              gen_max_pool, gen_bmm]


def main(out_dir):
    global W
    W = Writer(out_dir)
    for g in GENERATORS:
        g()
    W.cases.close()
    W.data.close()
    print('gen_cortex_m.py: %d cases for %d ops' % (sum(W.count.values()), len(W.count)))
    for k in sorted(W.count):
        print('  %-48s %d' % (k, W.count[k]))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print('usage: gen_cortex_m.py OUT_DIR', file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
