"""numpy references of the quantizers' formulas (compiler/quant.h) and of
the XNNPACK delegate's dynamically quantized FullyConnected (XNNPACK.md
6.3, 6.4), in float32 with one rounding per operation."""

import numpy as np

f32 = np.float32


def q8_weight(w):
    """int8 per output channel, symmetric: q [oc, ic], scales [oc]."""
    s = np.maximum(np.abs(w).max(axis=1) / f32(127), np.finfo(f32).eps).astype(f32)
    return np.clip(np.rint((w / s[:, None]).astype(f32)), -127, 127).astype(np.int64), s


def q4_weight(w, gs):
    """int4 per group of gs inputs, symmetric (torchao's 4-bit group
    formula: max |w| / 7.5): q [oc, ic] in [-8, 7], scales [oc, ic / gs]."""
    oc, ic = w.shape
    g = w.reshape(oc, ic // gs, gs)
    s = np.maximum(np.abs(g).max(axis=2) / f32(7.5), np.finfo(f32).eps).astype(f32)
    q = np.clip(np.rint((g / s[:, :, None]).astype(f32)), -8, 7).astype(np.int64)
    return q.reshape(oc, ic), s


def bf16(x):
    """float32 -> bfloat16 (round to nearest even) -> float32."""
    u = np.asarray(x, dtype=f32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return (u.astype(np.uint32) << 16).view(f32)


def q8_row(r):
    """One row quantized at run time (XNNPACK.md 6.4): values, zero point, scale."""
    rmin, rmax = f32(min(0.0, r.min())), f32(max(0.0, r.max()))
    inv = f32(1) if rmin == rmax else f32(255) / f32(rmax - rmin)
    zp = (f32(-128) - rmin * inv) if (f32(-128) + rmin * inv) + (f32(127) + rmax * inv) > 0 \
        else (f32(127) - rmax * inv)
    zp = int(np.rint(np.clip(zp, -128, 127)))
    return np.clip(np.rint((r * inv).astype(f32)) + zp, -128, 127).astype(np.int64), zp, f32(1) / inv


def qd8_linear(x, w, b, gs=None):
    """A linear layer as the delegate runs it: 8da8w, or with gs 8da4w
    (blocks summed in order: y = (sum_b float(acc_b) * bf16(scale_b)) * s_row + b)."""
    if gs:
        wq, ws = q4_weight(w, gs)
        ws = bf16(ws)
    else:
        wq, ws = q8_weight(w)
    rows = []
    for r in x:
        q, zp, sr = q8_row(r)
        d = (q - zp)[None, :] * wq
        if gs:
            acc = d.reshape(w.shape[0], -1, gs).sum(axis=2)
            v = np.zeros(w.shape[0], dtype=f32)
            for blk in range(acc.shape[1]):
                v = (v + (acc[:, blk].astype(f32) * ws[:, blk]).astype(f32)).astype(f32)
            y = (v * sr).astype(f32)
        else:
            y = ((d.sum(axis=1).astype(f32) * sr).astype(f32) * ws).astype(f32)
        rows.append(y + (b if b is not None else f32(0)))
    return np.array(rows, dtype=f32)


def dequantized_weight(w, bits, gs=None):
    """The float weight weight-only quantization computes with (scale * q, fp32)."""
    if bits == 8:
        q, s = q8_weight(w)
        return (q.astype(f32) * s[:, None]).astype(f32)
    q, s = q4_weight(w, gs)
    return (q.reshape(w.shape[0], -1, gs).astype(f32) * s[:, :, None]).astype(f32).reshape(w.shape)


def rel_error(got, ref):
    """(max, mean) of |got - ref| relative to max |ref|."""
    d = np.abs(got.astype(np.float64) - ref.astype(np.float64))
    m = float(np.abs(ref).max()) or 1.0
    return float(d.max()) / m, float(d.mean()) / m
