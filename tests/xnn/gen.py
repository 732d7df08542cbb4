#!/usr/bin/python3
"""XNNPACK node cases for tests/xnn/runner.c (format there). References:
PyTorch (torch 1.13, /usr/bin/python3) for float nodes, computed in NCHW
and permuted to XNNPACK's NHWC where the node works in NHWC; numpy
implementing XNNPACK.md's formulas for quantized ones. fp16/bf16 cases:
inputs and constants rounded to the type (numpy float16; bf16 by
round-to-nearest-even on the fp32 bits), the PyTorch reference computed in
fp32 on the rounded values, the expected output rounded to the type.
Fixed seed.
Usage: gen.py OUT_DIR  (writes cases.txt and data.bin)."""
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

import gen_quant

rng = np.random.default_rng(20261201)
torch.manual_seed(20261201)
DATA = bytearray()
LINES = []

FP32, FP16, QINT8, QUINT8, INT32, BF16 = 1, 2, 3, 4, 12, 14
ET = {np.dtype('float32'): 6, np.dtype('float16'): 5, np.dtype('uint16'): 15, np.dtype('int8'): 1, np.dtype('uint8'): 0, np.dtype('int32'): 3, np.dtype('int64'): 4}
KIND = dict(Add=1, FullyConnected=2, Softmax=3, Sigmoid=4, StaticTranspose=5, Clamp=6, Conv2d=7, Div=8,
            StaticResizeBilinear2D=9, StaticConstantPad=10, AvgPooling2d=11, Minimum=12, DepthwiseConv2d=13,
            MaxPooling2d=14, Multiply=15, Subtract=16, Floor=17, Convert=18, GlobalAvgPooling2d=19,
            StaticReshape=20, ArgMaxPooling2d=21, SquareRoot=22, Ceiling=23, Hardswish=24, LeakyReLU=25,
            Maximum=26, Negate=27, Square=28, ELU=29, Abs=30, PReLU=31, Concatenate2=32, Concatenate3=33,
            Concatenate4=34, StaticSlice=35, BatchMatrixMultiply=37, Concatenate5=38, ConvTranspose2d=39,
            ReciprocalSquareRoot=40, Log=41, Gelu=42, Tanh=43, Exp=44, Sin=45, Copy=46, Cos=47)
NONE = 0xFFFFFFFF


def put(a):
    a = np.ascontiguousarray(a)
    while len(DATA) % 16:
        DATA.append(0)
    off = len(DATA)
    DATA.extend(a.tobytes())
    return off, a.nbytes


def f(x):
    return '%.9g' % x


class Case:
    def __init__(self, name, node, dtype='fp32'):
        self.head = 'c %s %s %s' % (name, 'XNN' + node, dtype)
        self.vals, self.nodes, self.ios, self.next = [], [], [], 0

    def value(self, shape, dt=FP32, const=None, io=None, q=None, qc=None, qb=None, nnbd=None, dq=0):
        """io: 'i' or 'o' (numbered in call order); q: (scale, zp) per tensor;
        qc: (channel_dim, scales) per channel (scales stored as constant data);
        qb: (group_size, bf16 scales as uint16) blockwise; nnbd: per-token
        dynamic quantization with that many non-batch dims; dq: legacy
        dq_datatype marker."""
        flags, ext = 0, NONE
        if io:
            flags, ext = (1 if io == 'i' else 2), self.next
            self.next += 1
        coff, cb = (-1, 0) if const is None else put(const)
        qt, sc, zp = (2, q[0], q[1]) if q else (0, 0.0, 0)
        chd, ns, soff = 0, 0, 0
        if qc:
            qt, chd, ns = 1, qc[0], len(qc[1])
            soff, _ = put(np.asarray(qc[1], np.float32))
        gs = 0
        if qb:
            qt, gs, ns = 4, qb[0], qb[1].size
            soff, _ = put(np.asarray(qb[1], np.uint16))
        if nnbd:
            qt = 3
        self.vals.append('v %d %d %d %d %s %d %d %d %s %d %d %d %d %d %d %d' % (
            dt, flags, ext, len(shape), ' '.join(str(d) for d in shape), coff, cb, qt, f(sc), zp, chd, ns, soff,
            nnbd or 0, gs, dq))
        return len(self.vals) - 1

    def node(self, kind, ins, outs, flags=0, mm=None, p=(), fv=0.0, v0=None, v1=None):
        ins = list(ins) + [0] * (5 - len(ins))
        outs = list(outs) + [0] * (2 - len(outs))
        p = list(p) + [0] * (15 - len(p))
        vs = ''
        for v in (v0, v1):
            v = v or []
            vs += ' %d %s' % (len(v), ' '.join(str(x) for x in v))
        self.nodes.append('n %d %s %d %d %d %s %s %s %s %s%s' % (
            KIND[kind], ' '.join(str(i) for i in ins), outs[0], outs[1], flags, 1 if mm else 0,
            f(mm[0] if mm else 0), f(mm[1] if mm else 0), ' '.join(str(x) for x in p), f(fv), vs))

    def io(self, tag, ext, arr, tol=1e-5):
        off, nb = put(arr)
        self.ios.append('%s %d %d %d %s %d %d%s' % (tag, ext, ET[arr.dtype], arr.ndim, ' '.join(str(d) for d in arr.shape),
                                                  off, nb, (' ' + f(tol)) if tag == 'o' else ''))

    def done(self):
        LINES.extend([self.head] + self.vals + self.nodes + self.ios + ['e'])


def rnd(*shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def nhwc(x):
    return x.permute(0, 2, 3, 1).contiguous().numpy()


DT = dict(fp32=FP32, fp16=FP16, bf16=BF16)
TOL = dict(fp16=2e-3, bf16=1e-2)  # about 4 ulps of the output type


def bf16_bits(a):
    """float32 -> bfloat16 bit patterns, round to nearest even."""
    u = np.ascontiguousarray(a, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def lowp(a, dt):
    """a rounded to dt, as float32 (what the graph's fp32 compute sees)."""
    if dt == 'fp16':
        with np.errstate(over='ignore'):  # past the fp16 range: inf, as intended
            return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)
    if dt == 'bf16':
        return (bf16_bits(a).astype(np.uint32) << 16).view(np.float32)
    return np.asarray(a, np.float32)


def store(a, dt):
    """a as the bytes of a dt tensor (bf16: uint16 bit patterns)."""
    if dt == 'fp16':
        with np.errstate(over='ignore'):
            return np.asarray(a, np.float32).astype(np.float16)
    if dt == 'bf16':
        return bf16_bits(a)
    return np.asarray(a, np.float32)


def simple(node, ins, ref, shape_out=None, tol=1e-5, dt='fp32', **kw):
    """One node over external inputs ins (numpy arrays); ref(torch inputs) -> torch output.
    dt fp16/bf16: inputs rounded to dt, ref in fp32 on them, output rounded to dt."""
    c = Case('%s_%d' % (node, len(LINES)), node, dt)
    ins = [lowp(a, dt) for a in ins]
    ids = [c.value(a.shape, dt=DT[dt], io='i') for a in ins]
    y = ref(*[t(a) for a in ins]).numpy().astype(np.float32)
    o = c.value(y.shape, dt=DT[dt], io='o')
    c.node(node, ids, [o], **kw)
    for k, a in enumerate(ins):
        c.io('i', k, store(a, dt))
    c.io('o', len(ins), store(y, dt), tol if dt == 'fp32' else TOL[dt])
    c.done()


def gen_binary():
    shapes = [((2, 3, 4), (2, 3, 4)), ((2, 3, 4), (4,)), ((1, 3, 1), (2, 1, 5)), ((5,), (1,))]
    ops = dict(Add=torch.add, Subtract=torch.sub, Multiply=torch.mul, Div=torch.div,
               Minimum=torch.minimum, Maximum=torch.maximum)
    for name, fn in ops.items():
        for sa, sb in shapes:
            a, b = rnd(*sa), rnd(*sb)
            if name == 'Div':
                b = np.where(np.abs(b) < 0.2, 0.5, b).astype(np.float32)
            simple(name, [a, b], fn)
        if name in ('Add', 'Subtract', 'Multiply', 'Div'):  # fused clamp (relu: min 0, max inf)
            a, b = rnd(3, 4), rnd(3, 4) + 3.0
            simple(name, [a, b], lambda x, y, fn=fn: torch.clamp(fn(x, y), -0.5, 1.0), mm=(-0.5, 1.0))
    # large enough to be split over the thread pool (rows of 130, outer broadcast)
    simple('Add', [rnd(4, 64, 130), rnd(64, 1)], torch.add)
    simple('Multiply', [rnd(3, 1, 70), rnd(1, 200, 70)], torch.mul)
    for c in (1, 4):
        x, s = rnd(2, 3, 3, 4), rnd(c)
        simple('PReLU', [x, s], lambda x, s: torch.where(x > 0, x, x * s))


def gen_unary():
    ops = dict(Sigmoid=torch.sigmoid, Tanh=torch.tanh, Exp=torch.exp, Sin=torch.sin, Cos=torch.cos,
               Floor=torch.floor, Ceiling=torch.ceil, Negate=torch.neg, Square=torch.square, Abs=torch.abs,
               Hardswish=F.hardswish, Gelu=F.gelu, Copy=lambda x: x.clone())
    for name, fn in ops.items():
        for shape in ((7,), (2, 3, 5)):
            simple(name, [rnd(*shape)], fn)
    for name, fn in dict(Log=torch.log, SquareRoot=torch.sqrt, ReciprocalSquareRoot=torch.rsqrt).items():
        simple(name, [rnd(3, 5, lo=0.1, hi=4.0)], fn)
    simple('Sigmoid', [rnd(5, 9000)], torch.sigmoid)  # split over the thread pool
    for lo, hi in ((-0.5, 0.5), (0.0, float('inf'))):
        simple('Clamp', [rnd(4, 6)], lambda x: torch.clamp(x, lo, None if hi == float('inf') else hi), mm=(lo, hi))
    for alpha in (1.0, 0.3):
        simple('ELU', [rnd(4, 5)], lambda x: F.elu(x, alpha), fv=alpha)
        simple('LeakyReLU', [rnd(4, 5)], lambda x: F.leaky_relu(x, alpha), fv=alpha)
    for shape in ((3, 7), (2, 2, 10)):
        simple('Softmax', [rnd(*shape)], lambda x: torch.softmax(x, -1))


def gen_shape_ops():
    x = rnd(2, 3, 4, 5)
    for perm in ((0, 2, 3, 1), (3, 1, 0, 2)):
        simple('StaticTranspose', [x], lambda a: a.permute(*perm), v0=perm)
    # contiguous runs (the last dim kept), merged dims, size-1 dims, the identity
    for shape, perm in (((2, 3, 4, 5), (1, 0, 2, 3)), ((2, 3, 4, 5), (2, 3, 0, 1)), ((3, 1, 4, 1, 6), (4, 1, 3, 0, 2)),
                        ((1, 3, 1, 5), (2, 0, 3, 1)), ((2, 3, 4), (0, 1, 2)), ((1, 1), (1, 0))):
        simple('StaticTranspose', [rnd(*shape)], lambda a: a.permute(*perm), v0=perm)
    for ns, ref in (((6, 20), (6, 20)), ((0, 5), (24, 5)), ((120,), (120,))):
        simple('StaticReshape', [x], lambda a: a.reshape(*ref), v0=ns)
    for off, sz in (((0, 1, 1, 0), (2, 2, 3, 5)), ((1, 0, 2, 3), (1, 3, 0, 2))):
        def ref(a, off=off, sz=sz):
            return a[tuple(slice(o, o + (s if s else a.shape[d] - o)) for d, (o, s) in enumerate(zip(off, sz)))]
        simple('StaticSlice', [x], ref, v0=off, v1=sz)
    for pre, post, val in (((0, 1, 0, 2), (1, 0, 2, 0), 0.0), ((1, 1, 1, 1), (0, 0, 0, 0), -1.5)):
        pads = []
        for d in reversed(range(4)):
            pads += [pre[d], post[d]]
        simple('StaticConstantPad', [x], lambda a: F.pad(a, pads, value=val), v0=pre, v1=post, fv=val)
    for n in (2, 3, 4, 5):
        for axis in (1, 3):
            ins = []
            for k in range(n):
                s = list(x.shape)
                s[axis] = k + 1
                ins.append(rnd(*s))
            simple('Concatenate%d' % n, ins, lambda *a: torch.cat(a, axis), p=(axis,))


def gen_matmul():
    for ic, oc, lead, bias, tw in ((5, 3, (4,), True, 0), (8, 6, (2, 3), False, 0), (7, 4, (3,), True, 1),
                                   (70, 33, (40,), True, 0), (64, 48, (3, 9), True, 1)):
        x, w, b = rnd(*lead, ic), rnd(oc, ic), rnd(oc)
        c = Case('FullyConnected_%d' % len(LINES), 'FullyConnected')
        xi = c.value(x.shape, io='i')
        wstore = w.T.copy() if tw else w
        wi = c.value(wstore.shape, const=wstore)
        bi = c.value(b.shape, const=b) if bias else NONE
        y = F.linear(t(x), t(w), t(b) if bias else None)
        mm = (-1.0, 1.0) if tw else None
        if mm:
            y = torch.clamp(y, *mm)
        y = y.numpy()
        o = c.value(y.shape, io='o')
        c.node('FullyConnected', [xi, wi, bi], [o], flags=tw, mm=mm)
        c.io('i', 0, x)
        c.io('o', 1, y)
        c.done()
    # M up to 8 reads b in place (pk_gemm_f32_rows: axpy rows, or dots when
    # transposed), more goes through the GEMM
    for tb, (B, M, K, N) in ((0, (2, 3, 4, 5)), (1, (2, 3, 4, 5)), (0, (3, 20, 33, 17)),
                             (1, (6, 1, 48, 70)), (0, (4, 8, 9, 33)), (0, (2, 9, 5, 7))):
        a, b = rnd(B, M, K), rnd(B, K, N)
        bs = b.transpose(0, 2, 1).copy() if tb else b
        c = Case('BatchMatrixMultiply_%d' % len(LINES), 'BatchMatrixMultiply')
        ai, bi = c.value(a.shape, io='i'), c.value(bs.shape, io='i')
        y = torch.bmm(t(a), t(b)).numpy()
        o = c.value(y.shape, io='o')
        c.node('BatchMatrixMultiply', [ai, bi], [o], flags=tb)
        c.io('i', 0, a)
        c.io('i', 1, bs)
        c.io('o', 2, y)
        c.done()
    # a StaticTranspose that only BMMs read as B is folded into them (they
    # read its input through the permutation): a K cache [1, S, H, D] as
    # [1, H, D, S] (batches one stride apart), [S, H, D] with its batch dim
    # moved (per-batch offsets), the last two swapped under TRANSPOSE_B, the
    # GEMM path (M > 8), and an output a second node reads (not folded)
    for xs, perm, tb, M, extra in (((1, 40, 3, 8), (0, 2, 3, 1), 0, 1, False), ((6, 4, 5), (1, 2, 0), 0, 2, False),
                                   ((2, 3, 7, 5), (1, 0, 3, 2), 1, 3, False), ((1, 33, 2, 6), (0, 2, 3, 1), 0, 12, False),
                                   ((1, 20, 3, 8), (0, 2, 3, 1), 0, 1, True)):
        x = rnd(*xs)
        bt = x.transpose(*perm)
        r = bt.ndim
        b = bt.swapaxes(r - 1, r - 2) if tb else bt  # [..., K, N]
        a = rnd(*b.shape[:-2], M, b.shape[-2])
        y = torch.matmul(t(a), t(b)).numpy()
        c = Case('BatchMatrixMultiply_%d' % len(LINES), 'BatchMatrixMultiply')
        xi, ai = c.value(x.shape, io='i'), c.value(a.shape, io='i')
        ti = c.value(bt.shape)
        o = c.value(y.shape, io='o')
        c.node('StaticTranspose', [xi], [ti], v0=perm)
        c.node('BatchMatrixMultiply', [ai, ti], [o], flags=tb)
        if extra:
            o2 = c.value(bt.shape, io='o')
            c.node('Clamp', [ti], [o2], mm=(-1.0, 1.0))
        c.io('i', 0, x)
        c.io('i', 1, a)
        c.io('o', 2, y)
        if extra:
            c.io('o', 3, np.clip(bt, -1.0, 1.0).astype(np.float32))
        c.done()
    # chains: transpose -> reshape to the same dims -> transpose -> BMM (a
    # decoder step's K cache [S, H, D] -> [H, S, D] -> [H, D, S], folded
    # whole), a reshape that changes the dims in the chain (only the
    # transpose after it folds), and a link's output a Clamp also reads
    # (the chain folds only past it)
    for S, H, D, M, keep, mid in ((40, 3, 8, 1, True, False), (24, 2, 6, 3, False, False), (16, 2, 4, 2, True, True)):
        x = rnd(S, H, D)
        t1 = x.transpose(1, 0, 2)
        r1 = t1 if keep else t1.reshape(H, D, S)
        b = r1.transpose(0, 2, 1)
        a = rnd(H, M, b.shape[1])
        y = torch.bmm(t(a), t(b)).numpy()
        c = Case('BatchMatrixMultiply_%d' % len(LINES), 'BatchMatrixMultiply')
        xi, ai = c.value(x.shape, io='i'), c.value(a.shape, io='i')
        v1, v2, v3 = c.value(t1.shape), c.value(r1.shape), c.value(b.shape)
        o = c.value(y.shape, io='o')
        c.node('StaticTranspose', [xi], [v1], v0=(1, 0, 2))
        c.node('StaticReshape', [v1], [v2], v0=r1.shape)
        c.node('StaticTranspose', [v2], [v3], v0=(0, 2, 1))
        c.node('BatchMatrixMultiply', [ai, v3], [o])
        if mid:
            o2 = c.value(t1.shape, io='o')
            c.node('Clamp', [v1], [o2], mm=(-1.0, 1.0))
        c.io('i', 0, x)
        c.io('i', 1, a)
        c.io('o', 2, y)
        if mid:
            c.io('o', 3, np.clip(t1, -1.0, 1.0).astype(np.float32))
        c.done()


def conv_case(node, x, w, b, stride, pad, dil, groups, mm=None, out_pad=(0, 0), pads=None, dt='fp32',
              from_nchw=False):
    """x NCHW, w PyTorch layout; the graph works in NHWC with OHWI weights.
    pads: explicit (t, r, b, l) instead of the symmetric pad; dt: 'fp32',
    'fp16' or 'bf16' (inputs, weights and bias rounded to it, the
    reference computed in fp32 from the rounded values, then rounded);
    from_nchw: the graph's input is x in NCHW, a StaticTranspose (0, 2, 3, 1)
    makes the convolution's NHWC input (as an exported CNN starts)."""
    c = Case('%s_%d' % (node, len(LINES)), node, dt)
    x, w, b = lowp(x, dt), lowp(w, dt), lowp(b, dt)
    t_, r_, b_, l_ = pads if pads else (pad[0], pad[1], pad[0], pad[1])
    xn = nhwc(t(x))
    xi = c.value(x.shape if from_nchw else xn.shape, dt=DT[dt], io='i')
    if from_nchw:
        xt = c.value(xn.shape, dt=DT[dt])
        c.node('StaticTranspose', [xi], [xt], v0=(0, 2, 3, 1))
        xi = xt
    if node == 'ConvTranspose2d':
        y = F.conv_transpose2d(t(x), t(w), t(b), stride, 0, out_pad, groups, dil)
        y = y[:, :, t_:y.shape[2] - b_, l_:y.shape[3] - r_]
        cin, goc, kh, kw = w.shape
        gic = cin // groups
        # [IC, OC/g, kh, kw] -> [g*goc, kh, kw, gic]
        wt = w.reshape(groups, gic, goc, kh, kw).transpose(0, 2, 3, 4, 1).reshape(groups * goc, kh, kw, gic)
    else:
        y = F.conv2d(F.pad(t(x), (l_, r_, t_, b_)), t(w), t(b), stride, 0, dil, groups)
        oc, gic, kh, kw = w.shape
        goc = oc // groups
        wt = w.transpose(0, 2, 3, 1)  # OHWI
        if node == 'DepthwiseConv2d':  # [1, kh, kw, C*m]
            wt = w.reshape(oc, kh, kw).transpose(1, 2, 0)[None]
    if mm:
        y = torch.clamp(y, *mm)
    wi = c.value(wt.shape, dt=DT[dt], const=store(np.ascontiguousarray(wt), dt))
    bi = c.value(b.shape, dt=DT[dt], const=store(b, dt))
    yn = nhwc(y)
    o = c.value(yn.shape, dt=DT[dt], io='o')
    p = [t_, r_, b_, l_, kh, kw, stride[0], stride[1], dil[0], dil[1], gic, goc, groups, out_pad[0], out_pad[1]]
    c.node(node, [xi, wi, bi], [o], mm=mm, p=p)
    c.io('i', 0, store(np.ascontiguousarray(x) if from_nchw else xn, dt))
    # fp32: within 2e-5 of the output's scale (Winograd F(4x4) rounds at
    # about 1e-5 of it; an element near zero carries the scale's error)
    c.io('o', 1, store(yn, dt), TOL[dt] if dt != 'fp32' else -2e-5)
    c.done()


def conv_chain_broadcast_case():
    """An Add between two convolutions' NCHW-resident outputs, planned at the
    stored 8x8 input where both are 4x4: a 3x3 input makes them 1x1 and 2x2,
    an Add that broadcasts, which the channels-first values cannot line up
    for; execution refuses it instead of computing on mismatched layouts."""
    c = Case('ConvChainBroadcast_%d' % len(LINES), 'Add', 'fp32/nchw-broadcast')
    xi = c.value((1, 8, 8, 4), io='i')

    def conv(inp, k, s_, oc, out_shape, kind='Conv2d'):
        ic = 4 if inp == xi else 8
        if kind == 'DepthwiseConv2d':
            wt, gic, goc, groups = rnd(1, k, k, ic), 1, 1, ic
        else:
            wt, gic, goc, groups = rnd(oc, k, k, ic), ic, oc, 1
        wi = c.value(wt.shape, const=wt)
        o = c.value(out_shape)
        c.node(kind, [inp, wi, NONE], [o], p=[0, 0, 0, 0, k, k, s_, s_, 1, 1, gic, goc, groups, 0, 0])
        return o
    v1 = conv(xi, 1, 1, 8, (1, 8, 8, 8))
    a = conv(v1, 2, 2, 8, (1, 4, 4, 8), 'DepthwiseConv2d')
    b = conv(v1, 1, 2, 8, (1, 4, 4, 8))
    v4 = c.value((1, 4, 4, 8))
    c.node('Add', [a, b], [v4])
    o = c.value((1, 4, 4, 3), io='o')
    wo = rnd(3, 1, 1, 8)
    c.node('Conv2d', [v4, c.value(wo.shape, const=wo), NONE], [o], p=[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 8, 3, 1, 0, 0])
    c.io('i', 0, rnd(1, 3, 3, 4))
    c.io('o', 1, np.zeros((1, 4, 4, 3), np.float32))
    c.ios.append('x NotSupported %d %s' % (c.next, "differs from the output's"))
    c.done()


def conv_chain_case(tag, with_gap):
    """A small MobileNet-style block, several nodes in one graph: the
    depthwise convolution makes the NCHW route preferred, so the 1x1
    convolutions take it too and the values between them (and the residual
    Add and Hardswish on them) stay NCHW inside the delegate
    (xnn_residency.c); with_gap: one of them is also read by a
    GlobalAvgPooling2d, which pools its NCHW planes."""
    c = Case('ConvChain_%d' % len(LINES), 'Conv2d', tag)
    x = rnd(1, 4, 6, 5)
    ws = [rnd(8, 4, 1, 1), rnd(8, 1, 3, 3), rnd(4, 8, 1, 1), rnd(4, 4, 1, 1), rnd(3, 4, 3, 3)]
    bs = [rnd(8), rnd(8), rnd(4), rnd(4), rnd(3)]
    tx = t(x)
    y1 = F.conv2d(tx, t(ws[0]), t(bs[0]))
    y2 = torch.clamp(F.conv2d(y1, t(ws[1]), t(bs[1]), 1, 1, 1, 8), 0.0, 6.0)
    y3 = F.conv2d(y2, t(ws[2]), t(bs[2]))
    y4 = F.conv2d(tx, t(ws[3]), t(bs[3]))
    y6 = F.hardswish(y3 + y4)
    y7 = F.conv2d(y6, t(ws[4]), t(bs[4]), 1, 1)
    xi = c.value(nhwc(tx).shape, io='i')

    def conv(inp, k, out_shape, kind='Conv2d', pad=0, mm=None):
        w = ws[k]
        oc, gic, kh, kw = w.shape
        if kind == 'DepthwiseConv2d':
            wt, groups, goc = w.reshape(oc, kh, kw).transpose(1, 2, 0)[None], oc, 1
        else:
            wt, groups, goc = w.transpose(0, 2, 3, 1), 1, oc
        wi = c.value(wt.shape, const=np.ascontiguousarray(wt))
        bi = c.value(bs[k].shape, const=bs[k])
        o = c.value(out_shape)
        c.node(kind, [inp, wi, bi], [o], mm=mm, p=[pad, pad, pad, pad, kh, kw, 1, 1, 1, 1, gic, goc, groups, 0, 0])
        return o
    v1 = conv(xi, 0, (1, 6, 5, 8))
    v2 = conv(v1, 1, (1, 6, 5, 8), 'DepthwiseConv2d', 1, (0.0, 6.0))
    v3 = conv(v2, 2, (1, 6, 5, 4))
    v4 = conv(xi, 3, (1, 6, 5, 4))
    v5 = c.value((1, 6, 5, 4))
    c.node('Add', [v3, v4], [v5])
    v6 = c.value((1, 6, 5, 4))
    c.node('Hardswish', [v5], [v6])
    y7n = nhwc(y7)
    o7 = c.value(y7n.shape, io='o')
    w = ws[4]
    wi = c.value((3, 3, 3, 4), const=np.ascontiguousarray(w.transpose(0, 2, 3, 1)))
    bi = c.value((3,), const=bs[4])
    c.node('Conv2d', [v6, wi, bi], [o7], p=[1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 4, 3, 1, 0, 0])
    ios = [('o', 1, y7n)]
    if with_gap:
        og = c.value((1, 1, 1, 4), io='o')
        c.node('GlobalAvgPooling2d', [v4], [og], flags=0x40)
        ios.append(('o', 2, y4.mean((2, 3), keepdim=True).permute(0, 2, 3, 1).numpy()))
    c.io('i', 0, nhwc(tx))
    for tag_, ext, arr in ios:
        c.io(tag_, ext, arr, 1e-4)
    c.done()


def conv_pool_case():
    """Pooling between NCHW-route convolutions (a ResNet stem): a 3x3
    stride-2 MaxPooling2d with a clamp, a padded AvgPooling2d (taps inside
    the input counted) and a GlobalAvgPooling2d read the NCHW-resident
    values they are given and pool the planes (node_pool.c, node_gap.c)."""
    c = Case('ConvPool_%d' % len(LINES), 'MaxPooling2d', 'fp32/nchw')
    x = rnd(2, 5, 9, 11)
    ws = [rnd(6, 5, 3, 3), rnd(6, 1, 3, 3), rnd(4, 6, 1, 1)]
    bs = [rnd(6), rnd(6), rnd(4)]
    tx = t(x)
    y1 = F.conv2d(tx, t(ws[0]), t(bs[0]), 1, 1)
    y2 = torch.clamp(F.max_pool2d(y1, 3, 2, 1), -0.5, 3.0)
    y3 = F.conv2d(y2, t(ws[1]), t(bs[1]), 1, 1, 1, 6)
    y4 = F.avg_pool2d(y3, 3, 1, 1, count_include_pad=False)
    y5 = F.conv2d(y4, t(ws[2]), t(bs[2]))
    yg = y4.mean((2, 3), keepdim=True)
    xi = c.value(nhwc(tx).shape, io='i')

    def conv(inp, k, out, kind, pad):
        w = ws[k]
        oc, gic, kh, kw = w.shape
        if kind == 'DepthwiseConv2d':
            wt, groups, goc = w.reshape(oc, kh, kw).transpose(1, 2, 0)[None], oc, 1
        else:
            wt, groups, goc = w.transpose(0, 2, 3, 1), 1, oc
        wi = c.value(wt.shape, const=np.ascontiguousarray(wt))
        bi = c.value(bs[k].shape, const=bs[k])
        c.node(kind, [inp, wi, bi], [out], p=[pad, pad, pad, pad, kh, kw, 1, 1, 1, 1, gic, goc, groups, 0, 0])
    v1, v2, v3, v4 = c.value((2, 9, 11, 6)), c.value((2, 5, 6, 6)), c.value((2, 5, 6, 6)), c.value((2, 5, 6, 6))
    o5, og = c.value((2, 5, 6, 4), io='o'), c.value((2, 1, 1, 6), io='o')
    conv(xi, 0, v1, 'Conv2d', 1)
    c.node('MaxPooling2d', [v1], [v2], mm=(-0.5, 3.0), p=(1, 1, 1, 1, 3, 3, 2, 2, 1, 1))
    conv(v2, 1, v3, 'DepthwiseConv2d', 1)
    c.node('AvgPooling2d', [v3], [v4], p=(1, 1, 1, 1, 3, 3, 1, 1, 0, 0))
    conv(v4, 2, o5, 'Conv2d', 0)
    c.node('GlobalAvgPooling2d', [v4], [og], flags=0x40)
    c.io('i', 0, nhwc(tx))
    c.io('o', 1, nhwc(y5), 1e-4)
    c.io('o', 2, nhwc(yg), 1e-4)
    c.done()


def fc_clamp_case(tag, mm_fc, mm_clamp, twice):
    """FullyConnected -> Clamp: the Clamp folds into the FullyConnected's
    range (xnn_fold_clamp.c) unless the value has another reader (twice:
    an Add of it with the Clamp's output)."""
    c = Case('FcClamp_%d' % len(LINES), 'FullyConnected', tag)
    x, w, b = rnd(5, 7), rnd(6, 7), rnd(6)
    y = torch.clamp(t(x) @ t(w).T + t(b), *mm_fc)
    z = torch.clamp(y, *mm_clamp)
    if twice:
        z = z + y
    xi = c.value(x.shape, io='i')
    wi, bi = c.value(w.shape, const=w), c.value(b.shape, const=b)
    v = c.value((5, 6))
    c.node('FullyConnected', [xi, wi, bi], [v], mm=mm_fc)
    o = c.value((5, 6), io='o')
    if twice:
        v2 = c.value((5, 6))
        c.node('Clamp', [v], [v2], mm=mm_clamp)
        c.node('Add', [v2, v], [o])
    else:
        c.node('Clamp', [v], [o], mm=mm_clamp)
    c.io('i', 0, x)
    c.io('o', 1, z.numpy(), 1e-5)
    c.done()


def gen_conv():
    fc_clamp_case('clamp-folded', (-1.0, 2.0), (0.0, 6.0), False)
    fc_clamp_case('clamp-disjoint', (-1.0, 0.5), (1.0, 6.0), False)
    fc_clamp_case('clamp-read-twice', (-1e30, 1e30), (0.0, 0.5), True)

    conv_chain_case('chain/nchw', False)
    conv_chain_case('chain/nchw+gap', True)
    conv_chain_broadcast_case()
    conv_pool_case()

    # 1x1 stride 1 unpadded (the input is the product's A), grouped too;
    # multi-tile gathers (400 and 1152 output pixels) under 2 threads
    conv_case('Conv2d', rnd(2, 8, 5, 4), rnd(6, 8, 1, 1), rnd(6), (1, 1), (0, 0), (1, 1), 1)
    conv_case('Conv2d', rnd(1, 8, 5, 4), rnd(6, 4, 1, 1), rnd(6), (1, 1), (0, 0), (1, 1), 2, (-1.0, 1.0))
    conv_case('Conv2d', rnd(1, 16, 20, 20), rnd(24, 16, 3, 3), rnd(24), (1, 1), (1, 1), (1, 1), 1)
    conv_case('Conv2d', rnd(2, 32, 24, 24), rnd(8, 32, 3, 3), rnd(8), (1, 1), (1, 1), (1, 1), 1, (0.0, float('inf')))
    conv_case('Conv2d', rnd(1, 3, 8, 7), rnd(4, 3, 3, 3), rnd(4), (2, 2), (0, 0), (1, 1), 1, pads=(0, 1, 1, 0))
    conv_case('DepthwiseConv2d', rnd(1, 4, 9, 9), rnd(4, 1, 5, 5), rnd(4), (1, 1), (2, 2), (1, 1), 4)
    # the NCHW graph input transposed to NHWC: the transpose's output is held
    # NCHW-resident (the input's bytes, aliased) for the NCHW-route convolution
    conv_case('DepthwiseConv2d', rnd(2, 6, 8, 7), rnd(6, 1, 3, 3), rnd(6), (1, 1), (1, 1), (1, 1), 6, from_nchw=True)
    conv_case('Conv2d', rnd(1, 3, 10, 9), rnd(5, 3, 3, 3), rnd(5), (2, 2), (1, 1), (1, 1), 1, from_nchw=True)
    conv_case('DepthwiseConv2d', rnd(1, 4, 9, 8), rnd(4, 1, 3, 3), rnd(4), (2, 2), (0, 0), (1, 1), 4,
              (-1.0, 1.0), pads=(0, 1, 1, 0))
    conv_case('DepthwiseConv2d', rnd(1, 3, 7, 7), rnd(3, 1, 3, 3), rnd(3), (1, 1), (2, 2), (2, 2), 3)
    conv_case('ConvTranspose2d', rnd(1, 4, 5, 4), rnd(4, 3, 4, 4), rnd(3), (2, 2), (0, 0), (1, 1), 1,
              pads=(1, 0, 2, 1))
    conv_case('ConvTranspose2d', rnd(1, 2, 4, 4), rnd(2, 3, 3, 3), rnd(3), (2, 2), (0, 0), (1, 1), 1,
              out_pad=(1, 1), pads=(0, 2, 1, 1))
    for (cin, cout, k, s, p, d, g, mm) in ((3, 4, 3, 1, 1, 1, 1, None), (4, 6, 3, 2, 0, 1, 2, (0.0, float('inf'))),
                                           (2, 3, 2, 1, 1, 2, 1, (-0.3, 0.3))):
        conv_case('Conv2d', rnd(2, cin, 7, 6), rnd(cout, cin // g, k, k), rnd(cout), (s, s), (p, p), (d, d), g, mm)
    for (c_, m, k, s, p) in ((3, 1, 3, 1, 1), (2, 2, 3, 2, 0)):
        conv_case('DepthwiseConv2d', rnd(1, c_, 6, 6), rnd(c_ * m, 1, k, k), rnd(c_ * m), (s, s), (p, p), (1, 1), c_)
    for (cin, cout, k, s, p, g, op) in ((3, 2, 3, 1, 0, 1, 0), (4, 4, 3, 2, 1, 2, 1)):
        conv_case('ConvTranspose2d', rnd(1, cin, 4, 5), rnd(cin, cout // g, k, k), rnd(cout), (s, s), (p, p), (1, 1), g,
                  out_pad=(op, op))


def gen_pool():
    x = rnd(2, 3, 7, 6)
    xn = nhwc(t(x))
    for k, s, p in ((2, 2, 0), (3, 1, 1), (3, 2, 1)):
        ref = F.avg_pool2d(t(x), k, s, p, count_include_pad=False)
        simple('AvgPooling2d', [xn], lambda a: t(nhwc(ref)), p=(p, p, p, p, k, k, s, s, 0, 0), flags=0x40)
        ref2 = F.max_pool2d(t(x), k, s, p)
        simple('MaxPooling2d', [xn], lambda a: t(nhwc(ref2)), p=(p, p, p, p, k, k, s, s, 1, 1), flags=0x40)
    # many channels and rows (split over the thread pool), dilated max, a clamp
    xb = rnd(2, 37, 23, 21)
    xbn = nhwc(t(xb))
    ref = F.avg_pool2d(t(xb), 3, 2, 1, count_include_pad=False)
    simple('AvgPooling2d', [xbn], lambda a: t(nhwc(ref)), p=(1, 1, 1, 1, 3, 3, 2, 2, 0, 0), flags=0x40)
    ref = torch.clamp(F.max_pool2d(t(xb), 3, 1, 1, dilation=2), -0.5, 0.6)
    simple('MaxPooling2d', [xbn], lambda a: t(nhwc(ref)), p=(1, 1, 1, 1, 3, 3, 1, 1, 2, 2), flags=0x40,
           mm=(-0.5, 0.6))
    simple('GlobalAvgPooling2d', [xn], lambda a: a.mean((1, 2), keepdim=True), flags=0x40)
    simple('GlobalAvgPooling2d', [xn], lambda a: torch.clamp(a.mean((1, 2), keepdim=True), 0.0, 0.05),
           flags=0x40, mm=(0.0, 0.05))
    # ArgMax over the whole H (aten.max.dim over H): window [H, 1]
    c = Case('ArgMaxPooling2d_%d' % len(LINES), 'ArgMaxPooling2d')
    xi = c.value(xn.shape, io='i')
    vals, idx = torch.max(t(xn), 1, keepdim=True)
    ov, oi = c.value(vals.shape, io='o'), c.value(idx.shape, dt=INT32, io='o')
    c.node('ArgMaxPooling2d', [xi], [ov, oi], p=(0, 0, 0, 0, xn.shape[1], 1))
    c.io('i', 0, xn)
    c.io('o', 1, vals.numpy())
    c.io('o', 2, idx.numpy().astype(np.int64), 0)
    c.done()
    for (h, w, ac) in ((10, 9, False), (5, 4, False), (10, 12, True)):
        ref = F.interpolate(t(x), size=(h, w), mode='bilinear', align_corners=ac)
        simple('StaticResizeBilinear2D', [xn], lambda a: t(nhwc(ref)), p=(h, w), flags=0x8 if ac else 0, tol=1e-4)


def gen_half():
    """fp16 and bf16 (XNNPACK.md §5): nodes compute in fp32 on the rounded
    values and round their outputs; bf16 FullyConnected with an fp32 bias (§8)."""
    for dt in ('fp16', 'bf16'):
        for name, fn in dict(Add=torch.add, Multiply=torch.mul, Subtract=torch.sub, Div=torch.div,
                             Maximum=torch.maximum, Minimum=torch.minimum).items():
            simple(name, [rnd(2, 3, 4), rnd(4, lo=0.5, hi=2.0)], fn, dt=dt)
        simple('Add', [rnd(3, 4), rnd(3, 4)], lambda x, y: torch.clamp(x + y, 0.0, 1.5), mm=(0.0, 1.5), dt=dt)
        simple('PReLU', [rnd(1, 3, 3, 4), rnd(4)], lambda x, s: torch.where(x > 0, x, x * s), dt=dt)
        # a constant fp16/bf16 operand (widened at every run like the others)
        a, b = lowp(rnd(2, 5), dt), lowp(rnd(5), dt)
        c = Case('Add_%d' % len(LINES), 'Add', dt + '/const')
        ai, bi = c.value(a.shape, dt=DT[dt], io='i'), c.value(b.shape, dt=DT[dt], const=store(b, dt))
        o = c.value(a.shape, dt=DT[dt], io='o')
        c.node('Add', [ai, bi], [o])
        c.io('i', 0, store(a, dt))
        c.io('o', 1, store(a + b, dt), TOL[dt])
        c.done()
        for name, fn in dict(Sigmoid=torch.sigmoid, Tanh=torch.tanh, Exp=torch.exp, Hardswish=F.hardswish,
                             Gelu=F.gelu, Negate=torch.neg, Abs=torch.abs, Square=torch.square,
                             Floor=torch.floor, Ceiling=torch.ceil, Sin=torch.sin, Cos=torch.cos,
                             Copy=lambda x: x.clone()).items():
            simple(name, [rnd(2, 3, 5)], fn, dt=dt)
        for name, fn in dict(Log=torch.log, SquareRoot=torch.sqrt, ReciprocalSquareRoot=torch.rsqrt).items():
            simple(name, [rnd(3, 5, lo=0.1, hi=4.0)], fn, dt=dt)
        simple('Clamp', [rnd(4, 6)], lambda x: torch.clamp(x, -0.5, 0.5), mm=(-0.5, 0.5), dt=dt)
        simple('ELU', [rnd(4, 5)], lambda x: F.elu(x, 0.3), fv=0.3, dt=dt)
        simple('LeakyReLU', [rnd(4, 5)], lambda x: F.leaky_relu(x, 0.3), fv=0.3, dt=dt)
        simple('Softmax', [rnd(3, 7)], lambda x: torch.softmax(x, -1), dt=dt)
        x = rnd(2, 3, 4, 5)
        simple('StaticTranspose', [x], lambda a: a.permute(0, 2, 3, 1), v0=(0, 2, 3, 1), dt=dt)
        simple('StaticReshape', [x], lambda a: a.reshape(6, 20), v0=(6, 20), dt=dt)
        simple('StaticSlice', [x], lambda a: a[:, 1:3, 1:4], v0=(0, 1, 1, 0), v1=(2, 2, 3, 5), dt=dt)
        simple('StaticConstantPad', [x], lambda a: F.pad(a, (2, 0, 0, 1), value=-1.5), v0=(0, 0, 0, 2),
               v1=(0, 0, 1, 0), fv=-1.5, dt=dt)
        simple('Concatenate2', [rnd(2, 3, 4, 1), rnd(2, 3, 4, 2)], lambda a, b: torch.cat((a, b), 3), p=(3,), dt=dt)
        xn = nhwc(t(rnd(2, 3, 7, 6)))
        simple('AvgPooling2d', [xn], lambda a: t(nhwc(F.avg_pool2d(a.permute(0, 3, 1, 2), 3, 2, 1,
                                                                    count_include_pad=False))),
               p=(1, 1, 1, 1, 3, 3, 2, 2, 0, 0), flags=0x40, dt=dt)
        simple('MaxPooling2d', [xn], lambda a: t(nhwc(F.max_pool2d(a.permute(0, 3, 1, 2), 3, 1, 1))),
               p=(1, 1, 1, 1, 3, 3, 1, 1, 1, 1), flags=0x40, dt=dt)
        simple('GlobalAvgPooling2d', [xn], lambda a: a.mean((1, 2), keepdim=True), flags=0x40, dt=dt)
        simple('StaticResizeBilinear2D', [xn], lambda a: t(nhwc(F.interpolate(a.permute(0, 3, 1, 2), size=(10, 9),
                                                                               mode='bilinear', align_corners=False))),
               p=(10, 9), dt=dt)
        a, b = rnd(2, 5, 6), rnd(2, 6, 3)
        simple('BatchMatrixMultiply', [a, b], torch.bmm, dt=dt)
        for ic, oc, lead, tw, fp32_bias in ((9, 5, (4,), 0, False), (40, 24, (3, 7), 1, False), (16, 8, (5,), 0, True)):
            if fp32_bias and dt != 'bf16':
                continue
            x, w, bb = lowp(rnd(*lead, ic), dt), lowp(rnd(oc, ic), dt), rnd(oc)
            bb = bb if fp32_bias else lowp(bb, dt)
            c = Case('FullyConnected_%d' % len(LINES), 'FullyConnected', dt + ('/fp32bias' if fp32_bias else ''))
            xi = c.value(x.shape, dt=DT[dt], io='i')
            ws = w.T.copy() if tw else w
            wi = c.value(ws.shape, dt=DT[dt], const=store(ws, dt))
            bi = c.value(bb.shape, dt=FP32 if fp32_bias else DT[dt], const=store(bb, 'fp32' if fp32_bias else dt))
            y = torch.clamp(F.linear(t(x), t(w), t(bb)), -2.0, 2.0).numpy()
            o = c.value(y.shape, dt=DT[dt], io='o')
            c.node('FullyConnected', [xi, wi, bi], [o], flags=tw, mm=(-2.0, 2.0))
            c.io('i', 0, store(x, dt))
            c.io('o', 1, store(y, dt), TOL[dt])
            c.done()
        conv_case('Conv2d', rnd(1, 4, 7, 6), rnd(6, 4, 3, 3), rnd(6), (1, 1), (1, 1), (1, 1), 1, dt=dt)
        conv_case('Conv2d', rnd(1, 8, 5, 4), rnd(6, 8, 1, 1), rnd(6), (1, 1), (0, 0), (1, 1), 1, dt=dt)
        conv_case('DepthwiseConv2d', rnd(1, 3, 6, 6), rnd(3, 1, 3, 3), rnd(3), (1, 1), (1, 1), (1, 1), 3, dt=dt)
        conv_case('ConvTranspose2d', rnd(1, 4, 4, 5), rnd(4, 2, 3, 3), rnd(4), (2, 2), (1, 1), (1, 1), 2,
                  out_pad=(1, 1), dt=dt)
    # Convert between the float types: fp32 -> fp16/bf16 rounds to nearest even
    x = rnd(3, 17, lo=-70000.0, hi=70000.0)
    x[0, :6] = np.array([1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -8, 1e-8, 65519.0, 65520.0], np.float32)
    for src, dst in (('fp32', 'fp16'), ('fp32', 'bf16'), ('fp16', 'fp32'), ('bf16', 'fp32'), ('fp16', 'bf16'),
                     ('bf16', 'fp16')):
        xs = lowp(x, src)
        c = Case('Convert_f_%d' % len(LINES), 'Convert', src + '->' + dst)
        xi = c.value(x.shape, dt=DT[src], io='i')
        o = c.value(x.shape, dt=DT[dst], io='o')
        c.node('Convert', [xi], [o])
        c.io('i', 0, store(xs, src))
        c.io('o', 1, store(xs, dst), 0)
        c.done()


def quantize(x, scale, zp, lo, hi):
    """XNNPACK.md §8 Convert: q = sat(rne(x * (1/scale)) + zp), 1/scale in fp32."""
    inv = np.float32(1.0) / np.float32(scale)
    return np.clip(np.rint(x.astype(np.float32) * inv) + zp, lo, hi)


def gen_convert():
    for dt, npdt, lo, hi, zp in ((QINT8, np.int8, -128, 127, 3), (QUINT8, np.uint8, 0, 255, 128)):
        scale = np.float32(0.02)
        x = rnd(3, 17)
        x[0, :4] = np.array([0.01, 0.03, -0.05, 10.0], np.float32)  # ties and saturation
        c = Case('Convert_q_%d' % len(LINES), 'Convert', 'fp32->' + ('qint8' if dt == QINT8 else 'quint8'))
        xi = c.value(x.shape, io='i')
        o = c.value(x.shape, dt=dt, io='o', q=(scale, zp))
        c.node('Convert', [xi], [o])
        c.io('i', 0, x)
        c.io('o', 1, quantize(x, scale, zp, lo, hi).astype(npdt), 0)
        c.done()
        q = rng.integers(lo, hi + 1, (4, 9)).astype(npdt)
        c = Case('Convert_dq_%d' % len(LINES), 'Convert', ('qint8' if dt == QINT8 else 'quint8') + '->fp32')
        xi = c.value(q.shape, dt=dt, io='i', q=(scale, zp))
        o = c.value(q.shape, io='o')
        c.node('Convert', [xi], [o])
        c.io('i', 0, q)
        c.io('o', 1, ((q.astype(np.int32) - zp).astype(np.float32) * scale).astype(np.float32), 0)
        c.done()


def gen_fc_quant():
    """Static quantized FullyConnected, XNNPACK.md §8.1:
    acc = sum (xq - zx)(wq - zw) + bq; y = sat(rne(acc * ((sx*sw)/so)) + zo), scales in fp32."""
    for dt, npdt, lo, hi, pc in ((QINT8, np.int8, -128, 127, False), (QINT8, np.int8, -128, 127, True),
                                 (QUINT8, np.uint8, 0, 255, False)):
        M, ic, oc = 3, 9, 5
        sx, so = np.float32(0.05), np.float32(0.2)
        zx, zo = (2, -3) if dt == QINT8 else (120, 130)
        zw = 0 if dt == QINT8 else 125
        xq = rng.integers(lo, hi + 1, (M, ic)).astype(npdt)
        wq = rng.integers(lo, hi + 1, (oc, ic)).astype(npdt)
        sw = (rng.uniform(0.01, 0.03, oc) if pc else np.full(oc, 0.02)).astype(np.float32)
        bq = rng.integers(-500, 500, oc).astype(np.int32)
        mm = (-1.5, 2.0)
        acc = ((xq.astype(np.int64) - zx) @ (wq.astype(np.int64) - zw).T + bq).astype(np.float32)
        s = ((sx * sw).astype(np.float32) / so).astype(np.float32)
        qlo = np.clip(np.rint(np.float32(mm[0]) / so + zo), lo, hi)
        qhi = np.clip(np.rint(np.float32(mm[1]) / so + zo), lo, hi)
        y = np.clip(np.rint((acc * s).astype(np.float32)) + zo, qlo, qhi).astype(npdt)
        label = ('qint8' if dt == QINT8 else 'quint8') + ('/qc8w' if pc else '')
        c = Case('FullyConnected_q_%d' % len(LINES), 'FullyConnected', label)
        xi = c.value(xq.shape, dt=dt, io='i', q=(sx, zx))
        if pc:
            wi = c.value(wq.shape, dt=6, const=wq, qc=(0, sw))
            bi = c.value(bq.shape, dt=7, const=bq, qc=(0, (sx * sw).astype(np.float32)))
        else:
            wi = c.value(wq.shape, dt=dt, const=wq, q=(sw[0], zw))
            bi = c.value(bq.shape, dt=5, const=bq, q=(sx * sw[0], 0))
        o = c.value(y.shape, dt=dt, io='o', q=(so, zo))
        c.node('FullyConnected', [xi, wi, bi], [o], mm=mm)
        c.io('i', 0, xq)
        c.io('o', 1, y, 0)
        c.done()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for g in (gen_binary, gen_unary, gen_shape_ops, gen_matmul, gen_conv, gen_pool, gen_convert, gen_fc_quant,
              gen_half):
        g()
    gen_quant.generate(sys.modules[__name__])
    open(os.path.join(out, 'cases.txt'), 'w').write('\n'.join(LINES) + '\n')
    open(os.path.join(out, 'data.bin'), 'wb').write(bytes(DATA))


if __name__ == '__main__':
    main()
