"""quantized_decomposed:: conformance cases (imported by gen.py; see gen_quant.generators).

torch 1.13 has neither the schemas nor reference implementations of these ops
(torch/ao/quantization/fx/_decomposed.py arrived later), so every reference here
is the formula of OPS.md section 3 / ExecuTorch's documented semantics
(kernels/quantized/cpu), written independently in numpy:
  * quantize: q = clamp(zero_point + round_half_even(float32(x) * float32(1 / float32(scale))),
    quant_min, quant_max), all in float32 (ExecuTorch: inv_scale = 1.0f / (float)scale);
  * dequantize: float32(q - zero_point) * float32(scale);
  * choose_qparams: fbgemm's ChooseQuantizationParams as ExecuTorch uses it;
  * embedding_{byte,2bit,4bit}: (w - zp) * scale per row / group, packed 2/4-bit weights
    stored unsigned with an offset of 2^(nbit-1);
  * mixed_mm / mixed_linear: float64 matmul of input with the dequantized int8 weight
    (compared with a tolerance: ptera sums in float32).
SKIP classes (not generated), with reasons:
  * NaN / +-inf inputs to the quantizing ops: ExecuTorch casts nearbyint(inf/NaN) to an
    integer, which is undefined behaviour in C++; there is no reference value.
  * weight_zero_points for mixed_mm / mixed_linear: ExecuTorch rejects them (unsupported).
"""
import sys

import numpy as np
import torch

G = None  # the gen module (emit, mk, SCHEMAS, EXTRA, dtypes), set by generators()
rng = np.random.default_rng(20240607)

QD = 'quantized_decomposed::'
U8, I8, I16, I32, I64 = torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, F32, F64 = torch.float16, torch.float32, torch.float64
QRANGES = [(U8, 0, 255), (I8, -128, 127), (I16, -32768, 32767), (I32, -2**31, 2**31 - 1)]


# ---------------------------------------------------------------- numpy formulas
def np_quant(x, scale, zp, qmin, qmax):
    """x float array (float32 or float64), scale / zp broadcastable arrays."""
    inv = (np.float32(1.0) / np.asarray(scale, dtype=np.float64).astype(np.float32)).astype(np.float32)
    if x.dtype == np.float64:
        prod = (inv.astype(np.float64) * x).astype(np.float32)
    else:
        prod = (inv * x.astype(np.float32)).astype(np.float32)
    # zero_point + nearbyint(...) is int64 + float in ExecuTorch: the sum is rounded to float32
    q = (np.rint(prod) + np.asarray(zp, dtype=np.int64).astype(np.int32).astype(np.float32)).astype(np.float32)
    return np.clip(q.astype(np.float64), qmin, qmax).astype(np.int64)


def np_dequant(q, scale, zp):
    c = (q.astype(np.int64) - np.asarray(zp, dtype=np.int64)).astype(np.float32)
    return (c * np.asarray(scale, dtype=np.float64).astype(np.float32)).astype(np.float32)


def np_qparams(mn, mx, qmin, qmax):
    """fbgemm ChooseQuantizationParams (asymmetric, not preserve_sparsity) as ExecuTorch's
    choose_qparams uses it: range widened to include 0, double scale."""
    small = np.float32(6.1e-5)
    mn = np.float32(min(np.float32(mn), np.float32(0)))
    mx = np.float32(max(np.float32(mx), np.float32(0)))
    scale = (float(mx) - float(mn)) / float(qmax - qmin)
    if np.float32(scale) == 0 or np.isinf(np.float32(1) / np.float32(scale)):
        scale = 0.1
    if scale < float(small):
        org = np.float32(scale)
        scale = float(small)
        if mn == 0:
            mx = np.float32(small * np.float32(qmax - qmin))
        elif mx == 0:
            mn = np.float32(-small * np.float32(qmax - qmin))
        else:
            amp = np.float32(small / org)
            mn, mx = np.float32(mn * amp), np.float32(mx * amp)
    zmin = qmin - float(mn) / scale
    zmax = qmax - float(mx) / scale
    emin = abs(qmin) - abs(float(mn) / scale)
    emax = abs(qmax) - abs(float(mx) / scale)
    z0 = zmin if emin < emax else zmax
    if z0 < qmin:
        zp = qmin
    elif z0 > qmax:
        zp = qmax
    else:
        zp = int(np.rint(z0))
    return scale, zp


def t(a, dt=None):
    a = np.asarray(a)
    r = torch.from_numpy(a.copy() if a.ndim else a.reshape(()).copy())
    return r.to(dt) if dt is not None else r


# ---------------------------------------------------------------- references (EXTRA)
def ref_q_tensor(input, scale, zero_point, quant_min, quant_max, dtype):
    return t(np_quant(input.numpy(), scale.double().numpy().reshape(()), zero_point.numpy().reshape(()),
                      quant_min, quant_max), dtype)


def ref_dq_tensor(input, scale, zero_point, quant_min, quant_max, dtype, out_dtype):
    return t(np_dequant(input.numpy(), scale.double().numpy().reshape(()), zero_point.numpy().reshape(())),
             out_dtype or F32)


def axis_shape(x, axis):
    s = [1] * x.dim()
    s[axis % x.dim()] = x.shape[axis % x.dim()]
    return s


def ref_q_channel(input, scales, zero_points, axis, quant_min, quant_max, dtype):
    s = axis_shape(input, axis)
    return t(np_quant(input.numpy(), scales.double().numpy().reshape(s), zero_points.numpy().reshape(s),
                      quant_min, quant_max), dtype)


def ref_dq_channel(input, scales, zero_points, axis, quant_min, quant_max, dtype, out_dtype):
    s = axis_shape(input, axis)
    zp = zero_points.numpy().reshape(s) if zero_points is not None else 0
    return t(np_dequant(input.numpy(), scales.double().numpy().reshape(s), zp), out_dtype or F32)


def ref_q_token(input, scales, zero_points, quant_min, quant_max, dtype):
    s = list(input.shape[:-1]) + [1]
    return t(np_quant(input.numpy(), scales.double().numpy().reshape(s), zero_points.numpy().reshape(s),
                      quant_min, quant_max), dtype)


def ref_dq_token(input, scales, zero_points, quant_min, quant_max, dtype, output_dtype):
    s = list(input.shape[:-1]) + [1]
    return t(np_dequant(input.numpy(), scales.double().numpy().reshape(s), zero_points.numpy().reshape(s)),
             output_dtype)


def ref_choose(input, quant_min, quant_max, eps, dtype):
    x = input.numpy()
    mn, mx = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    s, z = np_qparams(mn, mx, quant_min, quant_max)
    return torch.tensor([s], dtype=F64), torch.tensor([z], dtype=I64)


def ref_choose_token(input, dtype):
    x = input.numpy()
    rows = x.reshape(-1, x.shape[-1])
    ss, zz = [], []
    for r in rows:
        s, z = np_qparams(float(r.min()), float(r.max()), -128, 127)
        ss.append(s)
        zz.append(z)
    shp = list(x.shape[:-1]) + [1]
    return (torch.tensor(ss, dtype=F64).reshape(shp), torch.tensor(zz, dtype=I64).reshape(shp))


def ref_add(a, a_scale, a_zero_point, a_quant_min, a_quant_max, b, b_scale, b_zero_point, b_quant_min,
            b_quant_max, out_scale, out_zero_point, out_quant_min, out_quant_max):
    av, bv = np.broadcast_arrays(a.numpy(), b.numpy())
    s = (np_dequant(av, a_scale, a_zero_point) + np_dequant(bv, b_scale, b_zero_point)).astype(np.float32)
    return t(np_quant(s, out_scale, out_zero_point, out_quant_min, out_quant_max), a.dtype)


def unpack(w, nbit):
    """Packed Byte [V, P] -> int values [V, P * 8/nbit] (ExecuTorch's packing)."""
    w = w.astype(np.int64)
    if nbit == 8:
        return w
    if nbit == 4:  # even column: high nibble, odd: low nibble; stored value - 8
        return np.stack([w >> 4, w & 15], axis=-1).reshape(w.shape[0], -1) - 8
    # 2-bit: column j of a byte at bits 2*(j % 4); stored value - 2
    return np.stack([(w >> (2 * k)) & 3 for k in range(4)], axis=-1).reshape(w.shape[0], -1) - 2


def emb_ref(nbit):
    def f(weight, weight_scales, weight_zero_points, weight_quant_min, weight_quant_max, indices, dtype=None):
        q = unpack(weight.numpy(), nbit).astype(np.float32)
        V, D = q.shape
        sc = weight_scales.float().numpy().reshape(V, -1)
        gs = D // sc.shape[1]
        sc = np.repeat(sc, gs, axis=1)
        zp = (np.repeat(weight_zero_points.float().numpy().reshape(V, -1), gs, axis=1)
              if weight_zero_points is not None else np.float32(0))
        table = ((q - zp) * sc).astype(np.float32)
        out = table[indices.numpy().astype(np.int64)]
        return t(out, dtype or weight_scales.dtype)
    return f


def no_zero_points(weight_zero_points):
    if weight_zero_points is not None:  # ExecuTorch: zero points are not supported (an error)
        raise ValueError('weight_zero_points unsupported')


def ref_mixed_mm(input, weight, weight_scales, weight_zero_points):
    no_zero_points(weight_zero_points)
    x = input.double().numpy()
    w = weight.numpy().astype(np.float64) * weight_scales.double().numpy()[:, None]
    return t(x @ w, input.dtype)


def ref_mixed_linear(input, weight, weight_scales, weight_zero_points, dtype=None):
    no_zero_points(weight_zero_points)
    x = input.double().numpy()
    P, N = weight.shape
    sc = weight_scales.double().numpy().reshape(P, -1)
    g = -(-N // sc.shape[1])
    scol = np.repeat(sc, g, axis=1)[:, :N]
    w = weight.numpy().astype(np.float64) * scol
    return t(x @ w.T, dtype or input.dtype)


EMB_SIG = ('(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min, '
           'int weight_quant_max, Tensor indices, *, Tensor(a!) out) -> Tensor(a!)')
EMB_DSIG = ('(Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, int weight_quant_min, '
            'int weight_quant_max, Tensor indices, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)')
EXTRA = {
    'quantize_per_tensor.Tensor_out': (
        '(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *, '
        'Tensor(a!) out) -> Tensor(a!)', ref_q_tensor),
    'dequantize_per_tensor.Tensor_out': (
        '(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *, '
        'ScalarType? out_dtype=None, Tensor(a!) out) -> Tensor(a!)', ref_dq_tensor),
    'quantize_per_channel.out': (
        '(Tensor input, Tensor scales, Tensor zero_points, int axis, int quant_min, int quant_max, '
        'ScalarType dtype, *, Tensor(a!) out) -> Tensor(a!)', ref_q_channel),
    'dequantize_per_channel.out': (
        '(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min, int quant_max, '
        'ScalarType dtype, *, ScalarType? out_dtype=None, Tensor(a!) out) -> Tensor(a!)', ref_dq_channel),
    'quantize_per_token.out': (
        '(Tensor input, Tensor scales, Tensor zero_points, int quant_min, int quant_max, ScalarType dtype, *, '
        'Tensor(a!) out) -> Tensor(a!)', ref_q_token),
    'dequantize_per_token.out': (
        '(Tensor input, Tensor scales, Tensor zero_points, int quant_min, int quant_max, ScalarType dtype, '
        'ScalarType output_dtype, *, Tensor(a!) out) -> Tensor(a!)', ref_dq_token),
    'choose_qparams.Tensor_out': (
        '(Tensor input, int quant_min, int quant_max, float eps, ScalarType dtype, *, Tensor(a!) scale_out, '
        'Tensor(b!) zero_point_out) -> (Tensor(a!), Tensor(b!))', ref_choose),
    'choose_qparams_per_token_asymmetric.out': (
        '(Tensor input, ScalarType dtype, *, Tensor(a!) scale_out, Tensor(b!) zero_point_out) '
        '-> (Tensor(a!), Tensor(b!))', ref_choose_token),
    'add.out': (
        '(Tensor a, float a_scale, int a_zero_point, int a_quant_min, int a_quant_max, Tensor b, float b_scale, '
        'int b_zero_point, int b_quant_min, int b_quant_max, float out_scale, int out_zero_point, '
        'int out_quant_min, int out_quant_max, *, Tensor(a!) out) -> Tensor(a!)', ref_add),
    'embedding_byte.out': (EMB_SIG, emb_ref(8)),
    'embedding_byte.dtype_out': (EMB_DSIG, emb_ref(8)),
    'embedding_2bit.out': (EMB_SIG, emb_ref(2)),
    'embedding_2bit.dtype_out': (EMB_DSIG.replace('indices, *, ScalarType? dtype=None',
                                                  'indices, ScalarType? dtype=None, *'), emb_ref(2)),
    'embedding_4bit.out': (EMB_SIG, emb_ref(4)),
    'embedding_4bit.dtype_out': (EMB_DSIG.replace('indices, *, ScalarType? dtype=None',
                                                  'indices, ScalarType? dtype=None, *'), emb_ref(4)),
    'mixed_mm.out': ('(Tensor input, Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, *, '
                     'Tensor(a!) out) -> Tensor(a!)', ref_mixed_mm),
    'mixed_linear.out': ('(Tensor input, Tensor weight, Tensor weight_scales, Tensor? weight_zero_points, '
                         'ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)', ref_mixed_linear),
}


# ---------------------------------------------------------------- inputs
def fx(shape, dt=F32, mag=5.0, scale=None):
    """Finite float inputs (NaN/inf skipped, see above) with edge values: +-0, exact ties
    (k + 0.5) * scale when scale is a power of two, values far outside the range."""
    n = int(np.prod(shape)) if shape else 1
    a = rng.standard_normal(n) * mag
    edges = [0.0, -0.0, 1e6, -1e6, 1e-30]
    if scale is not None:  # ties first: round half to even decides them
        edges = [(k + 0.5) * scale for k in (-3, 2, -1, 0, 1, -2)] + edges
    idx = rng.permutation(n)[:min((2 * n) // 3, len(edges))]
    for i, j in enumerate(idx):
        a[int(j)] = edges[i]
    return torch.from_numpy(a).to(dt).reshape(shape)


def qx(shape, dt, qmin, qmax, zp=0):
    """Quantized values with the range's ends as edges. SKIP: q - zero_point outside int32
    (only reachable for Int storage): ExecuTorch subtracts in int32 (signed overflow, UB in
    C++; ptera wraps), so there is no reference; those ends are pulled in by |zp|."""
    lo, hi = max(qmin, -1000), min(qmax, 1000)
    n = int(np.prod(shape)) if shape else 1
    a = rng.integers(lo, hi + 1, n, dtype=np.int64)
    if n >= 3:
        a[0], a[-1] = max(qmin, -2**31 + max(zp, 0)), min(qmax, 2**31 - 1 + min(zp, 0))
    return torch.from_numpy(a).to(dt).reshape(shape)


def qtensor_params(scale, zp, sdt=F64, zdt=I64):
    return torch.tensor([scale], dtype=sdt), torch.tensor([zp], dtype=zdt)


# ---------------------------------------------------------------- generators
def gen_quant_per_tensor():
    emit = G.emit
    for qdt, qmin, qmax in QRANGES:
        for scale, zp in [(0.1, 0), (0.25, 3), (1.0, -2), (0.007843, 1)]:
            zp = max(qmin, min(qmax, zp))
            for sdt, zdt in [(F64, I64), (F32, I32)]:
                st, zt = qtensor_params(scale, zp, sdt, zdt)
                for shp in [(7,), (3, 4), (0,), ()]:
                    for xdt in [F32, F64]:
                        emit(QD + 'quantize_per_tensor.Tensor_out',
                             {'input': fx(shp, xdt, scale=scale), 'scale': st, 'zero_point': zt,
                              'quant_min': qmin, 'quant_max': qmax, 'dtype': qdt}, [qdt])
                    for odt in [None, F32]:
                        emit(QD + 'dequantize_per_tensor.Tensor_out',
                             {'input': qx(shp, qdt, qmin, qmax, zp), 'scale': st, 'zero_point': zt,
                              'quant_min': qmin, 'quant_max': qmax, 'dtype': qdt, 'out_dtype': odt}, [F32])
    # a narrower range than the dtype's (e.g. 4-bit values in int8 storage)
    st, zt = qtensor_params(0.5, 1)
    emit(QD + 'quantize_per_tensor.Tensor_out', {'input': fx((4, 5), scale=0.5), 'scale': st, 'zero_point': zt,
                                                 'quant_min': -8, 'quant_max': 7, 'dtype': I8}, [I8])


def gen_quant_per_channel():
    emit = G.emit
    for qdt, qmin, qmax in QRANGES[:3]:
        for shp, axis in [((4,), 0), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 1), ((2, 3, 4), -1), ((2, 0, 3), 2),
                          ((0, 3), 0)]:
            c = shp[axis]
            scales = torch.from_numpy(rng.choice([0.5, 0.1, 0.03, 1.0, 0.25], c))
            zps = torch.from_numpy(rng.integers(max(qmin, -5), min(qmax, 5) + 1, c, dtype=np.int64))
            for xdt in [F32, F64]:
                emit(QD + 'quantize_per_channel.out',
                     {'input': fx(shp, xdt, scale=0.5), 'scales': scales, 'zero_points': zps, 'axis': axis,
                      'quant_min': qmin, 'quant_max': qmax, 'dtype': qdt}, [qdt])
            emit(QD + 'quantize_per_channel.out',
                 {'input': fx(shp), 'scales': scales.float(), 'zero_points': zps.int(), 'axis': axis,
                  'quant_min': qmin, 'quant_max': qmax, 'dtype': qdt}, [qdt])
            q = qx(shp, qdt, qmin, qmax)
            for z in [zps, zps.int(), None]:
                emit(QD + 'dequantize_per_channel.out',
                     {'input': q, 'scales': scales, 'zero_points': z, 'axis': axis, 'quant_min': qmin,
                      'quant_max': qmax, 'dtype': qdt, 'out_dtype': None}, [F32])


def gen_quant_per_token():
    emit = G.emit
    for qdt, qmin, qmax in QRANGES[:3]:
        for shp in [(5,), (3, 4), (2, 3, 4), (1, 1, 6), (0, 4)]:
            s = list(shp[:-1]) + [1]
            n = int(np.prod(s))
            scales = torch.from_numpy(rng.choice([0.5, 0.1, 0.03, 2.0], n)).reshape(s)
            zps = torch.from_numpy(rng.integers(max(qmin, -5), min(qmax, 5) + 1, n, dtype=np.int64)).reshape(s)
            for xdt in [F32, F64]:
                emit(QD + 'quantize_per_token.out',
                     {'input': fx(shp, xdt, scale=0.5), 'scales': scales, 'zero_points': zps,
                      'quant_min': qmin, 'quant_max': qmax, 'dtype': qdt}, [qdt])
            q = qx(shp, qdt, qmin, qmax)
            emit(QD + 'dequantize_per_token.out',
                 {'input': q, 'scales': scales, 'zero_points': zps, 'quant_min': qmin, 'quant_max': qmax,
                  'dtype': qdt, 'output_dtype': F32}, [F32])
            emit(QD + 'dequantize_per_token.out',
                 {'input': q, 'scales': scales.float(), 'zero_points': zps.int(), 'quant_min': qmin,
                  'quant_max': qmax, 'dtype': qdt, 'output_dtype': F32}, [F32])


def gen_quant_choose_qparams():
    emit = G.emit
    inputs = [fx((7,)), fx((3, 4), mag=0.01), torch.zeros(5), torch.full((4,), 3.0), torch.full((4,), -2.0),
              torch.tensor([1e-6, 2e-6, -1e-6]), torch.tensor([1e-6, 2e-6]), torch.tensor([-1e-7, -3e-6]),
              fx((2, 3, 4), mag=100.0), torch.tensor([0.5]), torch.tensor([-1.0, 1.0])]
    for x in inputs:
        x = x.float()
        for qdt, qmin, qmax in [(U8, 0, 255), (I8, -128, 127), (I8, -8, 7), (I16, -32768, 32767)]:
            emit(QD + 'choose_qparams.Tensor_out',
                 {'input': x, 'quant_min': qmin, 'quant_max': qmax, 'eps': 1e-7, 'dtype': qdt}, [F64, I64])
    for x in inputs[:8] + [fx((2, 3, 4), mag=100.0), torch.tensor([[0.0, 0.0], [1e-7, 5.0]])]:
        x = x.float()
        if x.dim() == 0 or x.shape[-1] == 0:
            continue
        for xdt in [F32, F64]:
            emit(QD + 'choose_qparams_per_token_asymmetric.out', {'input': x.to(xdt), 'dtype': I8}, [F64, I64])


def gen_quant_add():
    emit = G.emit
    for qdt, qmin, qmax in QRANGES[:2]:
        for an, bn in [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 1, 4), (3, 1)), ((), (2, 3)), ((0, 3), (3,))]:
            for (sa, za), (sb, zb), (so, zo) in [((0.1, 0), (0.1, 0), (0.2, 0)),
                                                 ((0.05, 3), (0.5, -2), (0.25, 1)),
                                                 ((1.0, 0), (1.0, 0), (0.5, 0)),
                                                 ((0.007843, 1), (0.02, 5), (0.03, -1))]:
                zs = [max(qmin, min(qmax, z)) for z in (za, zb, zo)]
                emit(QD + 'add.out',
                     {'a': qx(an, qdt, qmin, qmax), 'a_scale': sa, 'a_zero_point': zs[0], 'a_quant_min': qmin,
                      'a_quant_max': qmax, 'b': qx(bn, qdt, qmin, qmax), 'b_scale': sb, 'b_zero_point': zs[1],
                      'b_quant_min': qmin, 'b_quant_max': qmax, 'out_scale': so, 'out_zero_point': zs[2],
                      'out_quant_min': qmin, 'out_quant_max': qmax}, [qdt])


def gen_quant_embedding():
    emit = G.emit
    for nbit in [8, 4, 2]:
        name = {8: 'embedding_byte', 4: 'embedding_4bit', 2: 'embedding_2bit'}[nbit]
        V, D = 6, 8
        per = 8 // nbit
        for wdt in ([U8, I8] if nbit == 8 else [U8]):
            if nbit == 8:
                w = torch.from_numpy(rng.integers(torch.iinfo(wdt).min, torch.iinfo(wdt).max + 1, (V, D),
                                                  dtype=np.int64)).to(wdt)
                w[0, 0], w[0, 1] = torch.iinfo(wdt).min, torch.iinfo(wdt).max
                qmin, qmax = torch.iinfo(wdt).min, torch.iinfo(wdt).max
            else:
                w = torch.from_numpy(rng.integers(0, 256, (V, D // per), dtype=np.int64)).to(U8)
                w[0, 0], w[0, 1] = 0, 255
                qmin, qmax = -(1 << (nbit - 1)), (1 << (nbit - 1)) - 1
            for groups in [None, 1, 2, 4]:
                for sdt in [F32, F16]:
                    sshape = (V,) if groups is None else (V, groups)
                    sc = torch.from_numpy(rng.uniform(0.01, 0.5, sshape)).to(sdt)
                    zp_opts = [None, torch.from_numpy(rng.integers(-3, 4, sshape)).to(sdt)]
                    if sdt == F32:
                        zp_opts.append(torch.from_numpy(rng.integers(-3, 4, sshape, dtype=np.int64)))
                    for zp in zp_opts:
                        for ix in [torch.tensor([0, 5, 2, 2]), torch.tensor([[1, 0], [3, 4]], dtype=I32),
                                   torch.tensor(3), torch.zeros(0, dtype=I64)]:
                            kw = {'weight': w, 'weight_scales': sc, 'weight_zero_points': zp,
                                  'weight_quant_min': qmin, 'weight_quant_max': qmax, 'indices': ix}
                            emit(QD + name + '.out', kw, [sdt])
                            for odt in [None, F32] if sdt == F32 else [None, F16]:
                                emit(QD + name + '.dtype_out', dict(kw, dtype=odt), [odt or sdt])


def gen_quant_mixed():
    emit = G.emit
    for xdt in [F32, F16]:
        for M, N, P in [(3, 4, 5), (1, 8, 2), (4, 1, 3), (0, 3, 2), (2, 16, 3)]:
            x = torch.from_numpy(rng.standard_normal((M, N))).to(xdt)
            w = torch.from_numpy(rng.integers(-128, 128, (N, P), dtype=np.int64)).to(I8)
            if w.numel():
                w.view(-1)[0] = -128
            sc = torch.from_numpy(rng.uniform(0.001, 0.05, N)).to(xdt)
            emit(QD + 'mixed_mm.out', {'input': x, 'weight': w, 'weight_scales': sc, 'weight_zero_points': None},
                 [xdt], rtol=1e-4 if xdt == F32 else -1, atol=1e-4 if xdt == F32 else 1e-2)
            wl = w.t().contiguous()
            for groups in [None, 1, 2, 3]:
                sc2 = torch.from_numpy(rng.uniform(0.001, 0.05, (P,) if groups is None else (P, groups))).to(xdt)
                for odt in [None, xdt]:
                    emit(QD + 'mixed_linear.out',
                         {'input': x, 'weight': wl, 'weight_scales': sc2, 'weight_zero_points': None, 'dtype': odt},
                         [xdt], rtol=1e-4 if xdt == F32 else -1, atol=1e-4 if xdt == F32 else 1e-2)


def gen_quant_errors():
    """Inputs ExecuTorch rejects; each reference raises too."""
    emit = G.emit
    x = torch.from_numpy(rng.standard_normal((2, 4))).float()
    w = torch.from_numpy(rng.integers(-128, 128, (4, 3), dtype=np.int64)).to(I8)
    zp = torch.zeros(4)
    emit(QD + 'mixed_mm.out', {'input': x, 'weight': w, 'weight_scales': torch.ones(4), 'weight_zero_points': zp},
         [F32], expect_err=True)
    emit(QD + 'mixed_linear.out', {'input': x, 'weight': w.t().contiguous(), 'weight_scales': torch.ones(3),
                                   'weight_zero_points': torch.zeros(3), 'dtype': None}, [F32], expect_err=True)
    wb = torch.from_numpy(rng.integers(0, 256, (4, 8), dtype=np.int64)).to(U8)
    for name, wt in [('embedding_byte', wb), ('embedding_4bit', wb[:, :4].contiguous()),
                     ('embedding_2bit', wb[:, :2].contiguous())]:
        for ix in [torch.tensor([0, 4]), torch.tensor([-5, 1])]:  # out of range (V = 4)
            emit(QD + name + '.out', {'weight': wt, 'weight_scales': torch.ones(4), 'weight_zero_points': None,
                                      'weight_quant_min': 0, 'weight_quant_max': 255 if name == 'embedding_byte'
                                      else 3, 'indices': ix}, [F32], expect_err=True)


def generators(gen_module):
    """Registers the quantized_decomposed schemas / references with gen.py and returns
    the generator functions (filtered by PTERA_CONF_ONLY like gen.py's own)."""
    global G
    G = gen_module
    for k, (sig, f) in EXTRA.items():
        G.EXTRA[QD + k] = (QD + k + sig, f)
        G.SCHEMAS.setdefault(QD + k, torch._C.parse_schema(QD + k + sig))
    return [gen_quant_per_tensor, gen_quant_per_channel, gen_quant_per_token, gen_quant_choose_qparams,
            gen_quant_add, gen_quant_embedding, gen_quant_mixed, gen_quant_errors]
