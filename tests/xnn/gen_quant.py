"""Quantized XNNPACK node cases for gen.py: numpy implementations of
XNNPACK.md's formulas (§6.4 dynamic quantization, §8 Convert and quantized
nodes, §8.1 static FullyConnected), fp32 wherever the spec computes in fp32
(each step one float32 operation, in the order the C code documents); integer
sums exact (int64 matmuls, or float64 convolutions of small integers, which
are exact). generate(g) appends the cases through gen.py's Case."""
import numpy as np
import torch
import torch.nn.functional as F

F32 = np.float32
FP32, QINT8, QUINT8, QINT32, QCINT8, QCINT32, QCINT4, QDINT8, QBINT4 = 1, 3, 4, 5, 6, 7, 8, 9, 10
RANGE = {QINT8: (-128, 127, np.int8), QUINT8: (0, 255, np.uint8)}
NAME = {QINT8: 'qint8', QUINT8: 'quint8', QCINT8: 'qcint8', QCINT4: 'qcint4', QBINT4: 'qbint4'}
INF = float('inf')
G = None  # gen.py


def qd8(x, nnbd):
    """Convert fp32 -> qdint8 (§6.4): q, zero point per row, scale (1/m) per row."""
    lead = max(0, x.ndim - nnbd)
    rows = int(np.prod(x.shape[:lead])) if lead else 1
    xr = x.reshape(rows, -1)
    q = np.empty(xr.shape, np.int8)
    zps, scales = [], []
    for r in range(rows):
        lo, hi = min(F32(0), xr[r].min()), max(F32(0), xr[r].max())
        m = F32(1) if lo == hi else F32(255) / (hi - lo)
        dlo, dhi = lo * m, hi * m
        zp = (F32(-128) - dlo) if (F32(-128) + dlo) + (F32(127) + dhi) > 0 else (F32(127) - dhi)
        zp = int(np.rint(min(max(zp, F32(-128)), F32(127))))
        q[r] = np.rint(np.clip(xr[r] * m, F32(-128 - zp), F32(127 - zp))) + zp
        zps.append(zp)
        scales.append(F32(1) / m)
    return q.reshape(x.shape), np.array(zps, np.int64), np.array(scales, F32)


def pack4(w):
    """qcint4/qbint4 storage (§6.2): u = w + 8, rows padded to even, even element low."""
    u = (w + 8).astype(np.uint8)
    if u.shape[1] % 2:
        u = np.concatenate([u, np.full((u.shape[0], 1), 8, np.uint8)], 1)
    return (u[:, 0::2] | (u[:, 1::2] << 4)).astype(np.uint8)


def bf16(a):
    """float32 -> (bf16 bits, the float32 value they hold), by truncation."""
    bits = (np.asarray(a, F32).view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(F32)


def clampf(v, mm):
    return np.clip(v, F32(mm[0]), F32(mm[1])).astype(F32) if mm else v


def qbound(v, so, zo, dt):
    lo, hi, _ = RANGE[dt]
    if v == -INF:
        return F32(lo)
    if v == INF:
        return F32(hi)
    return F32(np.clip(np.rint(F32(v) / F32(so) + F32(zo)), lo, hi))


def requant(acc, r, zo, dt, mm, so):
    """§8.1: sat(rne(float(acc) * r) + zo), clamped to the quantized output_min/max."""
    lo, hi, npdt = RANGE[dt]
    qlo, qhi = (qbound(mm[0], so, zo, dt), qbound(mm[1], so, zo, dt)) if mm else (F32(lo), F32(hi))
    y = np.rint(acc.astype(F32) * r) + F32(zo)
    return np.clip(y, qlo, qhi).astype(npdt)


def real_requant(y, so, zo, dt, mm):
    """§8 for real-valued results: clamp to output_min/max, then sat(rne(y / so) + zo)."""
    lo, hi, npdt = RANGE[dt]
    y = clampf(y.astype(F32), mm)
    return np.clip(np.rint(y / F32(so)) + F32(zo), lo, hi).astype(npdt)


def randq(dt, shape):
    lo, hi, npdt = RANGE[dt]
    return G.rng.integers(lo, hi + 1, shape).astype(npdt)


# ---- dynamic quantization: Convert fp32 -> qdint8, FullyConnected qd8 ----

def fc_qd8_case(label, x, nnbd, wkind, w, scales, bias, mm=None, tw=False, gs=0, node='FullyConnected', legacy=False):
    """Convert(x) -> qdint8 -> FullyConnected(w) -> fp32. w: int [oc, ic];
    scales: [oc] per channel or [oc, ic/gs] float32 holding bf16 values.
    legacy: no Convert; x is marked dq_datatype = qint8 (§6.4, per token)."""
    oc, ic = w.shape
    q, zps, scs = qd8(x, nnbd)
    M = x.size // ic
    rowlen = x.size // len(zps)
    ridx = (np.arange(M) * ic) // rowlen
    xz = q.reshape(M, ic).astype(np.int64) - zps[ridx][:, None]
    wi = w.astype(np.int64)
    if wkind == QBINT4:
        s = np.zeros((M, oc), F32)
        for b in range(ic // gs):
            acc = xz[:, b * gs:(b + 1) * gs] @ wi[:, b * gs:(b + 1) * gs].T
            s = s + acc.astype(F32) * scales[:, b][None, :]
        v = s * scs[ridx][:, None]
    else:
        v = ((xz @ wi.T).astype(F32) * scs[ridx][:, None]) * scales[None, :]
    v = v + (bias[None, :] if bias is not None else F32(0))
    y = clampf(v, mm).reshape(x.shape[:-1] + (oc,))
    c = G.Case('%s_qd8_%d' % (node, len(G.LINES)), node, label)
    xi = c.value(x.shape, io='i', dq=QINT8 if legacy else 0)
    qi = xi if legacy else c.value(x.shape, dt=QDINT8, nnbd=nnbd)
    wstore = w.T if tw else w
    if wkind == QCINT8:
        wi_ = c.value(wstore.shape, dt=QCINT8, const=np.ascontiguousarray(wstore.astype(np.int8)),
                      qc=(1 if tw else 0, scales))
    elif wkind == QCINT4:
        wi_ = c.value(wstore.shape, dt=QCINT4, const=pack4(np.ascontiguousarray(wstore)), qc=(1 if tw else 0, scales))
    else:
        wi_ = c.value(w.shape, dt=QBINT4, const=pack4(w), qb=(gs, bf16(scales)[0]))
    bi = c.value(bias.shape, const=bias) if bias is not None else G.NONE
    o = c.value(y.shape, io='o')
    if not legacy:
        c.node('Convert', [xi], [qi])
    c.node('FullyConnected', [qi, wi_, bi], [o], flags=1 if tw else 0, mm=mm)
    c.io('i', 0, x)
    c.io('o', 1, y.astype(F32), 0)
    c.done()


def gen_convert_qd8():
    """Convert fp32 -> qdint8 seen through an identity qcint8 FullyConnected:
    y = (float(q - zp) * scale) * 1 + 0 shows every q and each row's zp and scale."""
    rows = [np.zeros(8, F32), G.rnd(8, lo=0.1, hi=3.0), G.rnd(8, lo=-3.0, hi=-0.1), G.rnd(8),
            np.array([1e-3, -1e-3, 0.5, -0.25, 100.0, -0.01, 0.02, 7.0], F32),
            np.array([-5.0, 1.0, 2.5, -2.5, 0.0, 3.0, -4.0, 5.0], F32)]
    x = np.stack(rows)
    eye = np.eye(8, dtype=np.int8)
    for nnbd, xs in ((1, x), (1, x.reshape(2, 3, 8)), (2, x.reshape(2, 3, 8)), (3, x.reshape(2, 3, 8))):
        fc_qd8_case('fp32->qdint8', xs, nnbd, QCINT8, eye, np.ones(8, F32), None, node='Convert')


def gen_fc_qd8():
    for lead, ic, oc, bias, mm, tw, nnbd in (((3,), 9, 5, True, None, False, 1), ((2, 3), 16, 4, False, (-0.5, 0.7), False, 1),
                                             ((2, 3), 8, 6, True, None, False, 2), ((4,), 7, 3, True, (0.0, INF), True, 1),
                                             ((2,), 300, 9, True, None, False, 1), ((2,), 100, 6, False, None, True, 1)):
        w = G.rng.integers(-128, 128, (oc, ic)).astype(np.int8)
        fc_qd8_case('qdint8/qcint8', G.rnd(*lead, ic), nnbd, QCINT8, w, G.rng.uniform(0.005, 0.03, oc).astype(F32),
                    G.rnd(oc) if bias else None, mm, tw)
    for lead, ic, oc in (((3,), 8, 4), ((2, 3), 16, 5)):  # legacy dq_datatype inputs
        w = G.rng.integers(-128, 128, (oc, ic)).astype(np.int8)
        fc_qd8_case('legacy-dq/qcint8', G.rnd(*lead, ic), 1, QCINT8, w, G.rng.uniform(0.005, 0.03, oc).astype(F32),
                    G.rnd(oc), legacy=True)
    for lead, ic, oc, bias, mm, tw, nnbd in (((3,), 9, 5, True, None, False, 1), ((2, 2), 12, 6, False, (-1.0, 1.0), False, 1),
                                             ((3,), 6, 5, True, None, True, 1), ((2, 3), 10, 4, True, None, False, 2),
                                             ((2,), 301, 6, True, None, False, 1)):
        w = G.rng.integers(-8, 8, (oc, ic)).astype(np.int8)
        fc_qd8_case('qdint8/qcint4', G.rnd(*lead, ic), nnbd, QCINT4, w, G.rng.uniform(0.05, 0.3, oc).astype(F32),
                    G.rnd(oc) if bias else None, mm, tw)
    for lead, ic, oc, gs, bias, mm, nnbd in (((3,), 64, 5, 32, True, None, 1), ((2, 2), 96, 4, 32, False, (-2.0, 2.0), 1),
                                             ((2,), 128, 3, 64, True, None, 2), ((2,), 512, 5, 256, True, None, 1),
                                             ((1,), 320, 6, 32, False, None, 1)):
        w = G.rng.integers(-8, 8, (oc, ic)).astype(np.int8)
        scales = bf16(G.rng.uniform(0.02, 0.2, (oc, ic // gs)).astype(F32))[1]
        fc_qd8_case('qdint8/qbint4', G.rnd(*lead, ic), nnbd, QBINT4, w, scales, G.rnd(oc) if bias else None, mm, gs=gs)
    # the GEMM micro-kernel's tile edges: 16-channel tiles (oc 37: two and a
    # part), 4-row groups (6 rows), inputs not a multiple of 4 (padded rows)
    for wkind, lo, hi, ic, tw in ((QCINT8, -128, 128, 1003, False), (QCINT8, -128, 128, 130, True),
                                  (QCINT4, -8, 8, 131, False), (QCINT4, -8, 8, 64, True)):
        w = G.rng.integers(lo, hi, (37, ic)).astype(np.int8)
        fc_qd8_case('qdint8/%s' % ('qcint8' if wkind == QCINT8 else 'qcint4'), G.rnd(6, ic), 1, wkind, w,
                    G.rng.uniform(0.005, 0.03, 37).astype(F32), G.rnd(37), None, tw)
    w = G.rng.integers(-8, 8, (21, 192)).astype(np.int8)
    scales = bf16(G.rng.uniform(0.02, 0.2, (21, 3)).astype(F32))[1]
    fc_qd8_case('qdint8/qbint4', G.rnd(5, 192), 1, QBINT4, w, scales, G.rnd(21), (-3.0, 3.0), gs=64)


def gen_fc_static():
    """Static qint8 FullyConnected (§8.1) over longer rows than gen.py's cases (the dot micro-kernel path)."""
    for M, ic, oc, pc, tw, mm in ((3, 40, 8, True, False, None), (2, 300, 6, False, False, (-1.0, 1.0)),
                                  (2, 33, 5, True, True, None)):
        sx, so, zx, zo = F32(0.05), F32(0.5), 3, -2
        xq = randq(QINT8, (M, ic))
        wq = randq(QINT8, (oc, ic))
        sw = (G.rng.uniform(0.01, 0.03, oc) if pc else np.full(oc, 0.02)).astype(F32)
        bq = G.rng.integers(-500, 500, oc).astype(np.int32)
        acc = (xq.astype(np.int64) - zx) @ wq.astype(np.int64).T + bq
        y = requant(acc, ((sx * sw).astype(F32) / so).astype(F32), zo, QINT8, mm, so)
        c = G.Case('FullyConnected_q_%d' % len(G.LINES), 'FullyConnected', 'qint8' + ('/qc8w' if pc else ''))
        xi = c.value(xq.shape, dt=QINT8, io='i', q=(sx, zx))
        ws = np.ascontiguousarray(wq.T) if tw else wq
        if pc:
            wi = c.value(ws.shape, dt=QCINT8, const=ws, qc=(1 if tw else 0, sw))
            bi = c.value(bq.shape, dt=QCINT32, const=bq, qc=(0, (sx * sw).astype(F32)))
        else:
            wi = c.value(ws.shape, dt=QINT8, const=ws, q=(sw[0], 0))
            bi = c.value(bq.shape, dt=QINT32, const=bq, q=(sx * sw[0], 0))
        o = c.value(y.shape, dt=QINT8, io='o', q=(so, zo))
        c.node('FullyConnected', [xi, wi, bi], [o], flags=1 if tw else 0, mm=mm)
        c.io('i', 0, xq)
        c.io('o', 1, y, 0)
        c.done()


# ---- convolutions ----

def xnn_filter(node, w, groups):
    """PyTorch filter layout -> XNNPACK's (§7)."""
    if node == 'ConvTranspose2d':
        cin, goc, kh, kw = w.shape
        gic = cin // groups
        return w.reshape(groups, gic, goc, kh, kw).transpose(0, 2, 3, 4, 1).reshape(groups * goc, kh, kw, gic)
    if node == 'DepthwiseConv2d':
        oc, _, kh, kw = w.shape
        return w.reshape(oc, kh, kw).transpose(1, 2, 0)[None]
    return w.transpose(0, 2, 3, 1)


def conv_acc(node, xz, wz, stride, pad, dil, groups, out_pad):
    """Exact integer convolution sums (float64 of small integers), NCHW."""
    tx, tw = torch.from_numpy(xz.astype(np.float64)), torch.from_numpy(wz.astype(np.float64))
    if node == 'ConvTranspose2d':
        y = F.conv_transpose2d(tx, tw, None, stride, pad, out_pad, groups, dil)
    else:
        y = F.conv2d(tx, tw, None, stride, pad, dil, groups)
    return np.rint(y.numpy()).astype(np.int64)


def conv_params(node, w, stride, pad, dil, groups, out_pad):
    if node == 'ConvTranspose2d':
        cin, goc, kh, kw = w.shape
        gic = cin // groups
    else:
        oc, gic, kh, kw = w.shape
        goc = oc // groups
    return [pad[0], pad[1], pad[0], pad[1], kh, kw, stride[0], stride[1], dil[0], dil[1], gic, goc, groups,
            out_pad[0], out_pad[1]]


def conv_static_case(node, dt, pc, N, cin, cout, H, W, k, stride, pad, dil, groups, mm=None, out_pad=(0, 0), bias=True):
    sx, so = F32(0.04), F32(0.25)
    zx, zo = (3, -5) if dt == QINT8 else (120, 131)
    x = randq(dt, (N, cin, H, W))
    wshape = (cin, cout // groups, k, k) if node == 'ConvTranspose2d' else (cout, cin // groups, k, k)
    if pc:
        w = G.rng.integers(-128, 128, wshape).astype(np.int8)
        sw, zw = G.rng.uniform(0.005, 0.05, cout).astype(F32), 0
    else:
        zw = 0 if dt == QINT8 else 128
        w = randq(dt, wshape)
        sw = np.full(cout, 0.02, F32)
    bq = G.rng.integers(-2000, 2000, cout).astype(np.int32)
    acc = conv_acc(node, x.astype(np.int64) - zx, w.astype(np.int64) - zw, stride, pad, dil, groups, out_pad)
    acc = acc + (bq[None, :, None, None] if bias else 0)
    r = ((sx * sw).astype(F32) / so).astype(F32)
    y = requant(acc, r[None, :, None, None], zo, dt, mm, so).transpose(0, 2, 3, 1)
    label = NAME[dt] + ('/qcint8' if pc else '')
    c = G.Case('%s_q_%d' % (node, len(G.LINES)), node, label)
    xn = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    xi = c.value(xn.shape, dt=dt, io='i', q=(sx, zx))
    wt = np.ascontiguousarray(xnn_filter(node, w, groups))
    if pc:
        wi = c.value(wt.shape, dt=QCINT8, const=wt, qc=(3 if node == 'DepthwiseConv2d' else 0, sw))
        bi = c.value(bq.shape, dt=QCINT32, const=bq, qc=(0, (sx * sw).astype(F32))) if bias else G.NONE
    else:
        wi = c.value(wt.shape, dt=dt, const=wt, q=(sw[0], zw))
        bi = c.value(bq.shape, dt=QINT32, const=bq, q=(sx * sw[0], 0)) if bias else G.NONE
    o = c.value(y.shape, dt=dt, io='o', q=(so, zo))
    c.node(node, [xi, wi, bi], [o], mm=mm, p=conv_params(node, w, stride, pad, dil, groups, out_pad))
    c.io('i', 0, xn)
    c.io('o', 1, np.ascontiguousarray(y), 0)
    c.done()


def conv_qd8_case(node, N, cin, cout, H, W, k, stride, pad, dil, groups, mm=None, out_pad=(0, 0)):
    """Convert(x, per image) -> qdint8 -> conv(qcint8 filter, fp32 bias) -> fp32."""
    x = G.rnd(N, H, W, cin)  # NHWC
    q, zps, scs = qd8(x, 3)
    wshape = (cin, cout // groups, k, k) if node == 'ConvTranspose2d' else (cout, cin // groups, k, k)
    w = G.rng.integers(-128, 128, wshape).astype(np.int8)
    sw, bias = G.rng.uniform(0.005, 0.05, cout).astype(F32), G.rnd(cout)
    xz = q.astype(np.int64).transpose(0, 3, 1, 2) - zps[:, None, None, None]
    acc = conv_acc(node, xz, w.astype(np.int64), stride, pad, dil, groups, out_pad).transpose(0, 2, 3, 1)
    v = (acc.astype(F32) * scs[:, None, None, None]) * sw + bias
    y = clampf(v, mm)
    c = G.Case('%s_qd8_%d' % (node, len(G.LINES)), node, 'qdint8/qcint8')
    xi = c.value(x.shape, io='i')
    qi = c.value(x.shape, dt=QDINT8, nnbd=3)
    wt = np.ascontiguousarray(xnn_filter(node, w, groups))
    wi = c.value(wt.shape, dt=QCINT8, const=wt, qc=(3 if node == 'DepthwiseConv2d' else 0, sw))
    bi = c.value(bias.shape, const=bias)
    o = c.value(y.shape, io='o')
    c.node('Convert', [xi], [qi])
    c.node(node, [qi, wi, bi], [o], mm=mm, p=conv_params(node, w, stride, pad, dil, groups, out_pad))
    c.io('i', 0, x)
    c.io('o', 1, np.ascontiguousarray(y.astype(F32)), 0)
    c.done()


def gen_conv_quant():
    for dt, pc in ((QINT8, True), (QINT8, False), (QUINT8, False)):
        conv_static_case('Conv2d', dt, pc, 2, 3, 4, 6, 5, 3, (1, 1), (1, 1), (1, 1), 1)
        conv_static_case('Conv2d', dt, pc, 1, 4, 6, 7, 7, 3, (2, 2), (0, 0), (1, 1), 2, mm=(-1.0, 1.5))
        conv_static_case('Conv2d', dt, pc, 1, 2, 3, 6, 6, 2, (1, 1), (1, 1), (2, 2), 1, mm=(0.0, INF), bias=False)
        conv_static_case('DepthwiseConv2d', dt, pc, 1, 3, 3, 6, 6, 3, (1, 1), (1, 1), (1, 1), 3)
        conv_static_case('DepthwiseConv2d', dt, pc, 2, 2, 4, 7, 6, 3, (2, 2), (1, 1), (1, 1), 2, mm=(-0.5, 0.5))
        conv_static_case('ConvTranspose2d', dt, pc, 1, 3, 2, 4, 5, 3, (1, 1), (0, 0), (1, 1), 1)
        conv_static_case('ConvTranspose2d', dt, pc, 1, 4, 4, 3, 4, 3, (2, 2), (1, 1), (1, 1), 2, out_pad=(1, 1))
    for dt, pc in ((QINT8, True), (QINT8, False)):  # rows long enough for the dot micro-kernels' main loop
        conv_static_case('Conv2d', dt, pc, 1, 40, 10, 5, 5, 3, (1, 1), (1, 1), (1, 1), 1)
        conv_static_case('ConvTranspose2d', dt, pc, 1, 36, 8, 3, 3, 3, (2, 2), (1, 1), (1, 1), 2, out_pad=(1, 1))
    conv_qd8_case('Conv2d', 1, 32, 9, 5, 4, 3, (1, 1), (1, 1), (1, 1), 1)
    conv_qd8_case('Conv2d', 1, 40, 8, 4, 4, 1, (1, 1), (0, 0), (1, 1), 2)
    conv_qd8_case('Conv2d', 2, 3, 4, 6, 5, 3, (1, 1), (1, 1), (1, 1), 1)
    conv_qd8_case('Conv2d', 1, 4, 6, 7, 7, 3, (2, 2), (0, 0), (1, 1), 2, mm=(0.0, INF))
    conv_qd8_case('DepthwiseConv2d', 2, 3, 3, 5, 6, 3, (1, 1), (1, 1), (1, 1), 3)
    conv_qd8_case('ConvTranspose2d', 1, 4, 4, 3, 4, 3, (2, 2), (1, 1), (1, 1), 2, out_pad=(1, 1))


# ---- elementwise and pooling ----

def gen_binary_quant():
    ops = dict(Add=np.add, Subtract=np.subtract, Multiply=np.multiply, Minimum=np.minimum, Maximum=np.maximum)
    for name, fn in ops.items():
        for dt in (QINT8, QUINT8):
            for sa, sb, mm in (((2, 3, 4), (2, 3, 4), None), ((2, 3, 4), (4,), (-1.0, 1.0)), ((1, 3, 1), (2, 1, 5), None)):
                if name in ('Minimum', 'Maximum'):
                    mm = None  # no clamp parameters
                (fa, za), (fb, zb), (fo, zo) = ((F32(0.03), 2), (F32(0.05), -7), (F32(0.08), 1)) if dt == QINT8 else \
                    ((F32(0.03), 128), (F32(0.05), 100), (F32(0.08), 140))
                a, b = randq(dt, sa), randq(dt, sb)
                ra = fa * (a.astype(np.int32) - za).astype(F32)
                rb = fb * (b.astype(np.int32) - zb).astype(F32)
                y = real_requant(fn(ra, rb).astype(F32), fo, zo, dt, mm)
                c = G.Case('%s_q_%d' % (name, len(G.LINES)), name, NAME[dt])
                ai = c.value(a.shape, dt=dt, io='i', q=(fa, za))
                bi = c.value(b.shape, dt=dt, io='i', q=(fb, zb))
                o = c.value(y.shape, dt=dt, io='o', q=(fo, zo))
                c.node(name, [ai, bi], [o], mm=mm)
                c.io('i', 0, a)
                c.io('i', 1, b)
                c.io('o', 2, y, 0)
                c.done()


def pool_case(name, dt, x, k, s, p, dil, mm, sx, zx, so, zo):
    """x NHWC quantized; reference on real values per §8."""
    N, H, W, C = x.shape
    xr = (x.astype(np.int64) - zx)
    mx = name == 'MaxPooling2d'
    eh, ew = dil * (k - 1) + 1, dil * (k - 1) + 1
    OH, OW = (H + 2 * p - eh) // s + 1, (W + 2 * p - ew) // s + 1
    y = np.zeros((N, OH, OW, C), F32)
    for oy in range(OH):
        for ox in range(OW):
            taps = [(oy * s + ky * dil - p, ox * s + kx * dil - p) for ky in range(k) for kx in range(k)]
            taps = [(iy, ix) for iy, ix in taps if 0 <= iy < H and 0 <= ix < W]
            vals = np.stack([xr[:, iy, ix, :] for iy, ix in taps])
            if mx:
                y[:, oy, ox, :] = sx * vals.max(0).astype(F32)
            else:
                y[:, oy, ox, :] = (sx * vals.sum(0).astype(F32)) / F32(len(taps) if p else k * k)
    yq = real_requant(y, so, zo, dt, mm)
    c = G.Case('%s_q_%d' % (name, len(G.LINES)), name, NAME[dt])
    xi = c.value(x.shape, dt=dt, io='i', q=(sx, zx))
    o = c.value(yq.shape, dt=dt, io='o', q=(so, zo))
    c.node(name, [xi], [o], mm=mm, p=(p, p, p, p, k, k, s, s, dil if mx else 0, dil if mx else 0), flags=0x40)
    c.io('i', 0, x)
    c.io('o', 1, yq, 0)
    c.done()


def gen_pool_quant():
    for dt in (QINT8, QUINT8):
        sx, zx = (F32(0.05), -4) if dt == QINT8 else (F32(0.05), 125)
        x = randq(dt, (2, 7, 6, 3))
        for k, s, p in ((2, 2, 0), (3, 1, 1), (3, 2, 1)):
            pool_case('AvgPooling2d', dt, x, k, s, p, 1, None, sx, zx, F32(0.04), zx + 3)
            pool_case('MaxPooling2d', dt, x, k, s, p, 1, None, sx, zx, sx, zx)
        pool_case('AvgPooling2d', dt, x, 3, 1, 0, 1, (-0.5, 0.5), sx, zx, F32(0.01), zx)
        pool_case('MaxPooling2d', dt, x, 2, 1, 1, 2, (0.0, INF), sx, zx, F32(0.03), zx - 2)
        for keep, mm in ((True, None), (True, (0.0, 0.2)), (False, None)):
            so, zo = F32(0.01), zx + 1
            acc = (x.astype(np.int64) - zx).sum((1, 2))
            y = real_requant((sx * acc.astype(F32)) / F32(7 * 6), so, zo, dt, mm)
            if keep:
                y = y[:, None, None, :]
            c = G.Case('GlobalAvgPooling2d_q_%d' % len(G.LINES), 'GlobalAvgPooling2d', NAME[dt])
            xi = c.value(x.shape, dt=dt, io='i', q=(sx, zx))
            o = c.value(y.shape, dt=dt, io='o', q=(so, zo))
            c.node('GlobalAvgPooling2d', [xi], [o], mm=mm, flags=0x40 if keep else 0)
            c.io('i', 0, x)
            c.io('o', 1, np.ascontiguousarray(y), 0)
            c.done()


def gen_unary_quant():
    """Every input code of each quantized unary node (256-entry tables)."""
    f64 = np.float64
    ops = dict(Clamp=lambda r: np.clip(r, F32(-0.6), F32(1.2)),
               LeakyReLU=lambda r: np.where(r > 0, r, r * F32(0.1)),
               ELU=lambda r: np.where(r > 0, r, (f64(F32(0.7)) * np.expm1(r.astype(f64))).astype(F32)),
               Hardswish=lambda r: (r * np.clip(r + F32(3), F32(0), F32(6))) / F32(6),
               Sigmoid=lambda r: (1.0 / (1.0 + np.exp(-r.astype(f64)))).astype(F32),
               Tanh=lambda r: np.tanh(r.astype(f64)).astype(F32),
               Negate=lambda r: -r, Abs=np.abs, Square=lambda r: r * r)
    for name, fn in ops.items():
        for dt in (QINT8, QUINT8):
            lo, hi, npdt = RANGE[dt]
            x = np.arange(lo, hi + 1).reshape(16, 16).astype(npdt)
            sx, zx = F32(0.03), (5 if dt == QINT8 else 131)
            so, zo = {'Sigmoid': (F32(1 / 256), lo), 'Tanh': (F32(1 / 128), (lo + hi + 1) // 2)}.get(
                name, (F32(0.02), (-20 if dt == QINT8 else 100)))
            r = sx * (x.astype(np.int32) - zx).astype(F32)
            y = np.clip(np.rint(fn(r).astype(F32) / so) + F32(zo), lo, hi).astype(npdt)
            c = G.Case('%s_q_%d' % (name, len(G.LINES)), name, NAME[dt])
            xi = c.value(x.shape, dt=dt, io='i', q=(sx, zx))
            o = c.value(y.shape, dt=dt, io='o', q=(so, zo))
            c.node(name, [xi], [o], mm=(-0.6, 1.2) if name == 'Clamp' else None,
                   fv={'LeakyReLU': 0.1, 'ELU': 0.7}.get(name, 0.0))
            c.io('i', 0, x)
            c.io('o', 1, y, 0)
            c.done()


def gen_convert_q8():
    """Requantizing Convert, every input code: q' = sat(rne((float(q - zx) * sx) * (1/so)) + zo)."""
    for dx, dy in ((QINT8, QINT8), (QINT8, QUINT8), (QUINT8, QINT8), (QUINT8, QUINT8)):
        lo, hi, npdt = RANGE[dx]
        ylo, yhi, ynp = RANGE[dy]
        x = np.arange(lo, hi + 1).reshape(4, 64).astype(npdt)
        sx, zx = F32(0.037), (7 if dx == QINT8 else 120)
        so, zo = F32(0.021), (-9 if dy == QINT8 else 133)
        yr = (x.astype(np.int32) - zx).astype(F32) * sx
        y = np.clip(np.rint(yr * (F32(1) / so)) + F32(zo), ylo, yhi).astype(ynp)
        c = G.Case('Convert_q8_%d' % len(G.LINES), 'Convert', NAME[dx] + '->' + NAME[dy])
        xi = c.value(x.shape, dt=dx, io='i', q=(sx, zx))
        o = c.value(y.shape, dt=dy, io='o', q=(so, zo))
        c.node('Convert', [xi], [o])
        c.io('i', 0, x)
        c.io('o', 1, y, 0)
        c.done()


def gen_pad_quant():
    for dt in (QINT8, QUINT8):
        lo, hi, npdt = RANGE[dt]
        s, z = F32(0.05), (-3 if dt == QINT8 else 140)
        x = randq(dt, (2, 3, 4, 5))
        for pre, post, val in (((0, 1, 0, 2), (1, 0, 2, 0), 0.0), ((1, 1, 1, 1), (0, 0, 0, 0), -1.5),
                               ((0, 0, 1, 0), (0, 2, 0, 1), 100.0)):
            fill = np.clip(np.rint(F32(val) / s) + F32(z), lo, hi).astype(npdt)
            y = np.full([d + a + b for d, a, b in zip(x.shape, pre, post)], fill, npdt)
            y[tuple(slice(a, a + d) for a, d in zip(pre, x.shape))] = x
            c = G.Case('StaticConstantPad_q_%d' % len(G.LINES), 'StaticConstantPad', NAME[dt])
            xi = c.value(x.shape, dt=dt, io='i', q=(s, z))
            o = c.value(y.shape, dt=dt, io='o', q=(s, z))
            c.node('StaticConstantPad', [xi], [o], v0=pre, v1=post, fv=val)
            c.io('i', 0, x)
            c.io('o', 1, y, 0)
            c.done()


def reject(node, label, status, text, build):
    """A graph init must refuse with status and a message holding text;
    build(c) adds its values and nodes."""
    c = G.Case('%s_reject_%d' % (node, len(G.LINES)), node, label + '-reject')
    build(c)
    c.ios.append('x %s %d %s' % (status, c.next, text))
    c.done()


def gen_rejections():
    def fc_unconverted(c):  # a qdint8 input a node other than Convert wrote
        xi = c.value((2, 8), io='i')
        q1 = c.value((2, 8), dt=QDINT8, nnbd=1)
        qi = c.value((2, 8), dt=QDINT8, nnbd=1)
        wi = c.value((3, 8), dt=QCINT8, const=np.ones((3, 8), np.int8), qc=(0, np.ones(3, F32)))
        o = c.value((2, 3), io='o')
        c.node('Convert', [xi], [q1])
        c.node('Copy', [q1], [qi])
        c.node('FullyConnected', [qi, wi, G.NONE], [o])

    def fc_qb4_group(gs, nsc):
        def build(c):
            xi = c.value((2, 64), io='i')
            qi = c.value((2, 64), dt=QDINT8, nnbd=1)
            wi = c.value((3, 64), dt=QBINT4, const=np.zeros((3, 32), np.uint8), qb=(gs, np.ones(nsc, np.uint16)))
            o = c.value((2, 3), io='o')
            c.node('Convert', [xi], [qi])
            c.node('FullyConnected', [qi, wi, G.NONE], [o])
        return build

    def convert_nnbd(c):
        xi = c.value((2, 8), io='i')
        qi = c.value((2, 8), dt=QDINT8, nnbd=-1)
        o = c.value((2, 3), io='o')
        c.node('Convert', [xi], [qi])
        c.node('Copy', [xi], [o])

    def conv_requant(c):  # (sx * sw) / so >= 256
        xi = c.value((1, 3, 3, 2), dt=QINT8, io='i', q=(1.0, 0))
        wi = c.value((2, 1, 1, 2), dt=QINT8, const=np.ones((2, 1, 1, 2), np.int8), q=(1.0, 0))
        o = c.value((1, 3, 3, 2), dt=QINT8, io='o', q=(0.001, 0))
        c.node('Conv2d', [xi, wi, G.NONE], [o], p=[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 1])

    def conv_qd8_pixel_rows(c):  # per-pixel dynamic parameters cannot factor out of a conv sum
        xi = c.value((1, 3, 3, 2), io='i')
        qi = c.value((1, 3, 3, 2), dt=QDINT8, nnbd=1)
        wi = c.value((2, 1, 1, 2), dt=QCINT8, const=np.ones((2, 1, 1, 2), np.int8), qc=(0, np.ones(2, F32)))
        o = c.value((1, 3, 3, 2), io='o')
        c.node('Convert', [xi], [qi])
        c.node('Conv2d', [qi, wi, G.NONE], [o], p=[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 1])

    def div_q8(c):
        ai = c.value((4,), dt=QINT8, io='i', q=(0.1, 0))
        bi = c.value((4,), dt=QINT8, io='i', q=(0.1, 0))
        o = c.value((4,), dt=QINT8, io='o', q=(0.1, 0))
        c.node('Div', [ai, bi], [o])

    # Graph order (any datatype): a value has one writer, and it runs before
    # the value is read. An output written twice, first by a FullyConnected
    # of 4096 rows, then by a Copy whose shape the output tensor took, once
    # made the FullyConnected overrun that tensor (fuzz_xnn_delegate, ASan;
    # tests/fuzz/regressions/xnn_delegate/output-written-twice-overrun).
    def two_writers(c):
        xi = c.value((64, 64, 4), io='i')
        wi = c.value((64, 4), const=np.ones((64, 4), F32))
        zi = c.value((4, 64), io='i')
        o = c.value((4, 64), io='o')
        c.node('FullyConnected', [xi, wi, G.NONE], [o])
        c.node('Copy', [zi], [o])

    def read_before_write(c):
        xi = c.value((4,), io='i')
        t = c.value((4,))
        o = c.value((4,), io='o')
        c.node('Copy', [t], [o])
        c.node('Copy', [xi], [t])

    reject('Copy', 'fp32', 'InvalidProgram', 'which node 0 already writes', two_writers)
    reject('Copy', 'fp32', 'InvalidProgram', 'reads value id 1 before any node writes it', read_before_write)
    reject('FullyConnected', 'qdint8', 'InvalidProgram', 'not the output of an earlier Convert', fc_unconverted)
    reject('FullyConnected', 'qdint8/qbint4', 'InvalidProgram', 'multiple of 32', fc_qb4_group(16, 12))
    reject('FullyConnected', 'qdint8/qbint4', 'InvalidProgram', 'has 5 block scales, needs 3 x 2', fc_qb4_group(32, 5))
    reject('Convert', 'fp32->qdint8', 'InvalidProgram', 'num_nonbatch_dims >= 1', convert_nnbd)
    reject('Conv2d', 'qint8', 'InvalidProgram', 'outside (0, 256)', conv_requant)
    reject('Conv2d', 'qdint8/qcint8', 'NotImplemented', 'split 18-element images', conv_qd8_pixel_rows)
    reject('Div', 'qint8', 'NotImplemented', 'input 1 has datatype qint8; this node supports fp32', div_q8)


def generate(gen):
    global G
    G = gen
    for fn in (gen_convert_qd8, gen_fc_qd8, gen_fc_static, gen_conv_quant, gen_binary_quant, gen_pool_quant, gen_unary_quant,
               gen_pad_quant, gen_convert_q8, gen_rejections):
        fn()
