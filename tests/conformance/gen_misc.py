"""Conformance cases for miscellaneous ops (batch norm variants, in-place copies,
dim-order ops, backward ops, sampling, prim ops, random/uninitialised ops).

Imported by gen.py, which calls groups(module) and runs the returned
generator functions like its own (PTERA_CONF_ONLY matches their names).
References are torch 1.13 where it has the op; otherwise a formula written
independently in numpy/torch from OPS.md / EXECUTION.md / ExecuTorch's
documented semantics (said in a comment next to each). Uses the runner's
extensions (runner.c, "Extensions"): tensor dim orders ("DO"), in/out tensors
("A M", for ops that mutate an input), "R X" (no return slot) and property
cases ("prop": outputs checked for shape/dtype/ranges, not values).
"""
import numpy as np
import torch

G = None  # the gen module (its W, mk, emit, enc_value, ...)

U8, I8, I16, I32, I64 = torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64
F16, F32, F64, BF16, BOOL = torch.float16, torch.float32, torch.float64, torch.bfloat16, torch.bool
C64, C128 = torch.complex64, torch.complex128
CL = [0, 2, 3, 1]  # channels-last dim order of a 4-d tensor


# ---------------------------------------------------------------- case writing
def tline(kind, t, order=None):
    """A tensor line; order: the dim order its data is stored (and the tensor laid out) in."""
    if order is None or list(order) == list(range(t.dim())):
        return G.W.tensor_line(kind, t)
    line = G.W.tensor_line(kind, t.permute(*order))
    # tensor_line wrote the permuted sizes: rewrite them as the logical ones
    parts = line.split()
    n = t.dim()
    parts[3:3 + n] = [str(s) for s in t.shape]
    return ' '.join(parts) + ' DO ' + ' '.join(str(d) for d in order)


def T(t, order=None):
    return ['A ' + tline('T', t, order)]


def O(want, order=None):
    return ['A ' + tline('O', want, order)]


def M(init, want):
    """An input tensor the op updates in place: init before, want after."""
    off = G.W.blob(want)
    return ['A M %d %s' % (off, G.W.tensor_line('T', init)[2:])]


def V(v, ty=''):
    lines = []
    G.enc_value(lines, v, ty)
    return lines


def case(op, body, ret='R O', mode='ok', rtol=-1, atol=-1):
    cid = G.W.count.get(op, 0)
    G.W.count[op] = cid + 1
    lines = ['C %s %d %s 0 %s %s' % (op, cid, mode, repr(float(rtol)), repr(float(atol)))]
    for b in body:
        lines.extend(b)
    lines.append(ret)
    lines.append('E')
    G.W.cases.write('\n'.join(lines) + '\n')


# ---------------------------------------------------------------- batch norm
def bn_ref(x, w, b, rm, rv, training, momentum, eps):
    """torch 1.13's native_batch_norm (CPU); running stats updated in place when given."""
    return torch.ops.aten.native_batch_norm(x, w, b, rm, rv, training, momentum, eps)


def gen_misc_batch_norm():
    shapes = [(2, 3), (4, 3, 5), (2, 3, 4, 5), (3, 1, 2, 2), (2, 4, 3, 3, 2)]
    for dt in [F32, F64]:
        for shp in shapes:
            C = shp[1]
            for affine in [True, False]:
                w = G.mk((C,), dt, edges=False) if affine else None
                b = G.mk((C,), dt, edges=False) if affine else None
                for momentum, eps in [(0.1, 1e-5), (0.5, 1e-3)]:
                    rm = G.mk((C,), dt, edges=False)
                    rv = G.mk((C,), dt, edges=False, positive=True)
                    # no_training: elementwise in the running stats, so edge values are fine
                    x = G.mk(shp, dt)
                    o, sm, si = bn_ref(x, w, b, rm, rv, False, momentum, eps)
                    case('aten::_native_batch_norm_legit_no_training.out',
                         [T(x), V(w), V(b), T(rm), T(rv), V(momentum), V(eps), O(o), O(sm), O(si)])
                    # legit.out, eval: running stats normalize, save_mean/save_invstd are [0]
                    case('aten::_native_batch_norm_legit.out',
                         [T(x), V(w), V(b), M(rm, rm), M(rv, rv), V(False), V(momentum), V(eps),
                          O(o), O(sm), O(si)])
                    # training: batch statistics (finite inputs; NaN would poison whole channels),
                    # running stats updated in place with the unbiased batch variance
                    x = G.mk(shp, dt, edges=False)
                    rm2, rv2 = rm.clone(), rv.clone()
                    o, sm, si = bn_ref(x, w, b, rm2, rv2, True, momentum, eps)
                    case('aten::_native_batch_norm_legit.out',
                         [T(x), V(w), V(b), M(rm, rm2), M(rv, rv2), V(True), V(momentum), V(eps),
                          O(o), O(sm), O(si)])
                    # no_stats: batch statistics, no running stats.
                    # SKIP: training=False. torch 1.13 has no reference (native_batch_norm
                    # without running stats needs training); ptera uses batch statistics.
                    o, sm, si = bn_ref(x, w, b, None, None, True, momentum, eps)
                    case('aten::_native_batch_norm_legit.no_stats_out',
                         [T(x), V(w), V(b), V(True), V(momentum), V(eps), O(o), O(sm), O(si)])


# ---------------------------------------------------------------- copies
def gen_misc_copy():
    pairs = [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 3, 4), (3, 1)), ((2, 3), ()), ((0, 3), (3,)),
             ((), ()), ((1, 5, 1), (1, 5, 1))]
    dts = [(d, d) for d in G.ALL + [F16, BF16]] + [(F32, I32), (I64, F64), (F32, F16), (BOOL, F32),
                                                   (I8, BOOL), (F64, BF16), (U8, I16)]
    for ss, rs in pairs:
        for sd, rd in dts:
            self = G.mk(ss, sd)
            src = G.mk(rs, rd)
            if not rd.is_floating_point or sd.is_floating_point or sd == BOOL:
                pass
            else:
                # float -> int conversion of NaN/inf/out-of-range is undefined in C and in torch
                src = torch.nan_to_num(src, nan=1.0, posinf=50.0, neginf=-50.0).clamp(-100, 100)
            want = self.clone().copy_(src)  # torch 1.13
            case('aten::copy_', [M(self, want), T(src), V(False)], ret='R N')
    # et_copy::_h2d_copy.out / _d2h_copy.out: plain copies (ptera has one memory space);
    # reference: self itself.
    for dt in G.ALL + [F16, BF16]:
        for shp in G.SHAPES_1:
            x = G.mk(shp, dt)
            for op in ['et_copy::_h2d_copy.out', 'et_copy::_d2h_copy.out']:
                case(op, [T(x), O(x)])
    # view_as_real_copy.out: torch 1.13's view_as_real
    G.DTYPE_CODE.setdefault(C64, 9)
    G.DTYPE_CODE.setdefault(C128, 10)
    for dt, rt in [(C64, F32), (C128, F64)]:
        for shp in G.SHAPES_1:
            z = torch.complex(G.mk(shp, rt), G.mk(shp, rt)).to(dt)
            G.emit('aten::view_as_real_copy.out', {'self': z}, [rt])


# ---------------------------------------------------------------- dim order ops
def gen_misc_dim_order():
    # reference: torch 1.13's tensor.to(dtype, memory_format=...) / clone(memory_format=...);
    # the out's data is written in its dim order, the out tensor laid out in it.
    for shp in [(2, 3, 4, 5), (1, 3, 1, 2), (2, 1, 3, 3), (0, 2, 3, 3)]:
        for sd, od in [(F32, F32), (F32, F64), (I32, F32), (F64, F16), (U8, I64), (BOOL, F32),
                       (F16, F32), (BF16, F32), (I64, I8)]:
            x = G.mk(shp, sd)
            if sd.is_floating_point and not od.is_floating_point:
                x = torch.nan_to_num(x, nan=0.0, posinf=100.0, neginf=-100.0).clamp(-100, 100)
            for in_order in [None, CL]:
                for out_order, give in [(None, False), ([0, 1, 2, 3], True), (CL, True)]:
                    eff_out = out_order if out_order is not None else (in_order or [0, 1, 2, 3])
                    mf = torch.channels_last if eff_out == CL else torch.contiguous_format
                    want = x.to(od, memory_format=mf)  # torch 1.13 (values; layout is eff_out)
                    body = [T(x, in_order), V(False), V(eff_out if give else None, 'List[int]'),
                            O(want, eff_out)]
                    case('dim_order_ops::_to_dim_order_copy.out', body)
                    if sd == od:
                        want = x.clone(memory_format=mf)
                        case('dim_order_ops::_clone_dim_order.out',
                             [T(x, in_order), V(False), V(eff_out if give else None, 'List[int]'),
                              O(want, eff_out)])
    for dt in G.ALL:
        for shp in G.SHAPES_1:
            x = G.mk(shp, dt)
            case('dim_order_ops::_to_dim_order_copy.out', [T(x), V(False), V(None), O(x)])
            case('dim_order_ops::_clone_dim_order.out', [T(x), V(False), V(None), O(x)])
    # _empty_dim_order.out: shape/dtype/dim order only (property case)
    for shp, order in [((2, 3), None), ((2, 3, 4, 5), CL), ((2, 3, 4, 5), [0, 1, 2, 3]), ((0, 4), None),
                       ((), None)]:
        for dt in [F32, I64, BOOL, F16]:
            z = torch.zeros(shp, dtype=dt)
            case('dim_order_ops::_empty_dim_order.out',
                 [V(list(shp), 'List[int]'), V(order, 'List[int]'), O(z, order)], mode='prop')


# ---------------------------------------------------------------- backward ops
def gen_misc_backward():
    # convolution_backward.out: torch 1.13
    convs = [  # input, weight, stride, padding, dilation, transposed, output_padding, groups
        ((2, 3, 7), (4, 3, 3), [1], [0], [1], False, [0], 1),
        ((1, 4, 6, 5), (6, 2, 3, 2), [2, 1], [1, 0], [1, 2], False, [0, 0], 2),
        ((2, 2, 5, 5), (3, 2, 1, 1), [1, 1], [0, 0], [1, 1], False, [0, 0], 1),
        ((2, 4, 5, 3), (4, 1, 3, 3), [1, 1], [2, 1], [1, 1], False, [0, 0], 4),  # depthwise
    ]
    # SKIP: transposed convolutions. ExecuTorch's convolution_backward rejects them
    # ("not supported yet") and so does ptera.
    for dt in [F32, F64]:
        for ish, wsh, st, pd, dl, tr, op_, gr in convs:
            x = G.mk(ish, dt, edges=False)
            w = G.mk(wsh, dt, edges=False)
            y = torch.ops.aten.convolution(x, w, None, st, pd, dl, tr, op_, gr)
            go = G.mk(y.shape, dt, edges=False)
            bias_sizes = [y.shape[1]]
            tol = (1e-4, 1e-5) if dt == F32 else (-1, -1)
            G.emit('aten::convolution_backward.out',
                   {'grad_output': go, 'input': x, 'weight': w, 'bias_sizes': bias_sizes, 'stride': st,
                    'padding': pd, 'dilation': dl, 'transposed': tr, 'output_padding': op_,
                    'groups': gr, 'output_mask': [True, True, True]}, None, *tol)
            # partial masks: torch 1.13's out overload cannot leave outs undefined, so the
            # reference is the functional op's; a masked-off out is left alone (given as [0]).
            full = torch.ops.aten.convolution_backward(go, x, w, bias_sizes, st, pd, dl, tr, op_, gr,
                                                       [True, True, True])
            for mask in [[True, False, False], [False, True, True], [True, True, False], [False, False, True]]:
                outs = [O(r if m else torch.empty(0, dtype=dt)) for r, m in zip(full, mask)]
                case('aten::convolution_backward.out',
                     [T(go), T(x), T(w), V(bias_sizes, 'List[int]'), V(st, 'List[int]'), V(pd, 'List[int]'),
                      V(dl, 'List[int]'), V(tr), V(op_, 'List[int]'), V(gr), V(mask, 'List[bool]')] + outs,
                     rtol=tol[0], atol=tol[1])
    # max_pool2d_with_indices_backward.grad_input: torch 1.13
    pools = [((1, 2, 6, 6), [2, 2], [2, 2], [0, 0], [1, 1], False),
             ((2, 3, 7, 5), [3, 2], [2, 1], [1, 0], [1, 1], False),
             ((1, 1, 7, 7), [3, 3], [2, 2], [1, 1], [2, 1], True),
             ((2, 5, 5), [2, 2], [1, 1], [0, 0], [1, 1], False),
             ((1, 1, 5, 5), [3, 3], [1, 1], [1, 1], [1, 1], False)]  # overlapping windows accumulate
    for dt in [F32, F64]:
        for shp, k, s, p, d, ceil in pools:
            x = G.mk(shp, dt, edges=False)
            y, idx = torch.ops.aten.max_pool2d_with_indices(x, k, s, p, d, ceil)
            go = G.mk(y.shape, dt, edges=False)
            G.emit('aten::max_pool2d_with_indices_backward.grad_input',
                   {'grad_output': go, 'self': x, 'kernel_size': k, 'stride': s, 'padding': p, 'dilation': d,
                    'ceil_mode': ceil, 'indices': idx})


# ---------------------------------------------------------------- index_put_
def gen_misc_index_put():
    # reference: torch 1.13's index_put_ on a clone
    for dt in [F32, F64, I32, I64, U8, BOOL, F16]:
        for shp, ix_fn, vshape in [
            ((5,), lambda: [torch.tensor([0, 3, -1])], (3,)),
            ((5,), lambda: [torch.tensor([4, 1])], ()),
            ((4, 3), lambda: [torch.tensor([2, 0])], (2, 3)),
            ((4, 3), lambda: [torch.tensor([2, 0]), torch.tensor([1, 2])], (2,)),
            ((4, 3), lambda: [None, torch.tensor([0, 2])], (4, 2)),
            ((4, 3), lambda: [torch.tensor([True, False, True, True])], (3,)),
            ((2, 3, 4), lambda: [torch.tensor([[0], [1]]), None, torch.tensor([1, 3])], (2, 2, 3)),
            ((3, 4), lambda: [torch.tensor([[True, False, True, False]] * 3)], (6,)),
        ]:
            for acc in [False, True]:
                if acc and dt == BOOL:
                    continue
                self = G.mk(shp, dt)
                vals = G.mk(vshape, dt)
                ix = ix_fn()
                want = torch.ops.aten.index_put_(self.clone(), ix, vals, acc)
                case('aten::index_put_', [M(self, want), V(ix, 'List[Optional[Tensor]]'), T(vals), V(acc)],
                     ret='R N')
        # repeated indices: accumulate only (without it the winner is unspecified)
        if dt != BOOL:
            self = G.mk((6,), dt, lo=-20, hi=20)
            vals = G.mk((5,), dt, lo=-20, hi=20)
            ix = [torch.tensor([1, 1, 4, 1, 4])]
            want = torch.ops.aten.index_put_(self.clone(), ix, vals, True)
            case('aten::index_put_', [M(self, want), V(ix, 'List[Optional[Tensor]]'), T(vals), V(True)],
                 ret='R N')


# ---------------------------------------------------------------- sampling
def gen_misc_sampling():
    # grid_sampler_2d.out: torch 1.13 (grid Float, so input Float)
    for shp, gsh in [((1, 2, 4, 5), (1, 3, 4, 2)), ((2, 1, 3, 3), (2, 5, 2, 2)), ((1, 1, 1, 4), (1, 2, 2, 2))]:
        for interp in [0, 1]:
            for pad in [0, 1, 2]:
                for align in [False, True]:
                    if pad == 2 and not align:
                        # SKIP: reflection padding without align_corners. ptera follows ExecuTorch,
                        # which reflects each integer corner index; torch reflects the continuous
                        # coordinate about -0.5 and size-0.5 first (different taps and weights).
                        continue
                    for inside in [True, False]:
                        x = G.mk(shp, F32, edges=False)
                        g = G.mk(gsh, F32, lo=-0.95 if inside else -1.6, hi=0.95 if inside else 1.6, edges=False)
                        if interp == 1:
                            g = nudge_nearest(g, shp, align)
                        G.emit('aten::grid_sampler_2d.out',
                               {'input': x, 'grid': g, 'interpolation_mode': interp, 'padding_mode': pad,
                                'align_corners': align}, None, 1e-5, 1e-5)
    # _upsample_bilinear2d_aa.out: torch 1.13
    for dt in [F32, F64]:
        for shp, osz, scales in [((1, 2, 4, 4), [8, 8], None), ((1, 1, 8, 8), [4, 4], None),
                                 ((2, 2, 9, 7), [3, 5], None), ((1, 1, 5, 6), [5, 6], None),
                                 ((1, 1, 6, 6), [3, 9], None), ((1, 1, 4, 4), [6, 2], [1.5, 0.5]),
                                 ((1, 1, 10, 10), [3, 3], None)]:
            for align in [False, True]:
                x = G.mk(shp, dt, edges=False)
                G.emit('aten::_upsample_bilinear2d_aa.out',
                       {'self': x, 'output_size': osz, 'align_corners': align,
                        'scales_h': scales[0] if scales else None, 'scales_w': scales[1] if scales else None},
                       # the tap weights are computed in float (as ExecuTorch does), also for Double
                       None, *((1e-4, 1e-5) if dt == F32 else (1e-5, 1e-6)))


def nudge_nearest(g, shp, align):
    """Moves grid points off exact .5 source coordinates.

    SKIP: nearest-mode ties. ptera rounds as ExecuTorch does (nearbyint of a coordinate
    unnormalized in float); at a tie, a last-bit difference in that float arithmetic
    decides the pixel, so tie inputs are not a stable comparison with torch."""
    H, W = shp[2], shp[3]
    out = g.clone()
    for k, size in [(0, W), (1, H)]:
        c = out[..., k].double()
        u = ((c + 1) / 2 * (size - 1)) if align else (((c + 1) * size - 1) / 2)
        frac = u - torch.floor(u)
        near = (frac - 0.5).abs() < 0.05
        out[..., k] = torch.where(near, c + 0.2 / size, c).float()
    return out


# ---------------------------------------------------------------- prim ops
def gen_misc_prim():
    ints = [0, 1, -1, 7, -7, 3, 2**62, -2**62, 13, -13]

    def cmod(a, b):  # C '%': the sign follows the dividend (EXECUTION.md 7.4)
        r = abs(a) % abs(b)
        return -r if a < 0 else r
    for a in ints:
        for b in ints:
            if b != 0:
                G.emit_prim('executorch_prim::mod.int', [a, b], cmod(a, b))
                G.emit_prim('executorch_prim::mod.Scalar', [a, b], cmod(a, b))
    for a in [True, False]:
        G.emit_prim('executorch_prim::sym_not.Scalar', [a], not a)
        for t, f in [(3, -4), (1.5, 2.5), (True, False)]:
            G.emit_prim('executorch_prim::sym_ite.Scalar', [a, t, f], t if a else f)
    for shp in [(), (3,), (2, 0, 5), (1, 4, 1, 6)]:
        x = G.mk(shp, F32)
        G.emit_prim('aten::sym_numel', [x], x.numel())
        for d in range(-len(shp), len(shp)):
            G.emit_prim('aten::sym_size.int', [x, d], x.shape[d])
    # _local_scalar_dense: the first element, Int/Double/Bool by dtype (torch 1.13's item())
    for dt in G.ALL + [F16, BF16]:
        for shp in [(), (1,), (1, 1)]:
            for _ in range(3):
                x = G.mk(shp, dt, edges=False)
                G.emit_prim('aten::_local_scalar_dense', [x], x.item())
    for v in [float('inf'), -0.0, 1e-30]:
        x = torch.tensor(v)
        G.emit_prim('aten::_local_scalar_dense', [x], x.item())
    for v in [2**63 - 1, -2**63]:
        G.emit_prim('aten::_local_scalar_dense', [torch.tensor(v)], v)
    # et_copy_index.tensor (EXECUTION.md 7.4; numpy formula): copy_to resized to
    # [index+1, *copy_from.sizes] (here its size already), row `index` = copy_from,
    # earlier rows untouched. Exactly three args: no return slot.
    for dt in [F32, I64, U8, BOOL, F16]:
        for fshape in [(3,), (2, 3), ()]:
            for index in [0, 2]:
                to = G.mk((index + 1,) + fshape, dt)
                frm = G.mk(fshape, dt)
                want = to.clone()
                want[index] = frm
                case('executorch_prim::et_copy_index.tensor', [M(to, want), T(frm), V(index)], ret='R X')
    # et_view.default (EXECUTION.md 7.4): out aliases self's data with sizes `size` (one -1
    # inferred). Reference: self.reshape(size). Exactly three args: no return slot.
    for dt in [F32, I32, BOOL, F64]:
        for shp, size in [((2, 3), [3, 2]), ((2, 3), [-1]), ((4, 3, 2), [2, -1, 3]), ((6,), [1, 6, 1]),
                          ((0, 3), [3, 0]), ((), [1]), ((1,), [])]:
            x = G.mk(shp, dt)
            case('executorch_prim::et_view.default', [T(x), V(size, 'List[int]'), O(x.reshape(size))], ret='R X')

    # rejected inputs (EXECUTION.md 7.4): a size whose numel differs, a second -1, an empty
    # tensor's scalar, a dim out of range, an index row past the copy_to bound
    x = G.mk((2, 3), F32)
    case('executorch_prim::et_view.default', [T(x), V([4, 2], 'List[int]'), O(torch.zeros(4, 2))],
         ret='R X', mode='err')
    case('executorch_prim::et_view.default', [T(x), V([-1, -1], 'List[int]'), O(torch.zeros(2, 3))],
         ret='R X', mode='err')
    G.emit_prim('aten::_local_scalar_dense', [torch.zeros(0)], None, expect_err=True)
    G.emit_prim('aten::sym_size.int', [x, 2], None, expect_err=True)
    G.emit_prim('aten::sym_size.int', [x, -3], None, expect_err=True)
    to = G.mk((2, 3), F32)
    case('executorch_prim::et_copy_index.tensor', [M(to, to), T(G.mk((4,), F32)), V(0)], ret='R X', mode='err')


# ---------------------------------------------------------------- random / uninitialised
def gen_misc_random():
    # property cases: values are ptera's own generator's (or uninitialised), so the runner
    # checks shape/dtype (empty), [0, 1) (rand), mean/std near 0/1 over >= 10k samples (randn)
    for shp in [(), (0,), (3, 4), (2, 3, 4, 5)]:
        for dt in [F32, I64, BOOL, F16, U8]:
            case('aten::empty.out', [V(list(shp), 'List[int]'), V(None), O(torch.zeros(shp, dtype=dt))],
                 mode='prop')
    for shp in [(), (0,), (3, 4), (100, 120)]:
        for dt in [F32, F64, F16, BF16]:
            z = torch.zeros(shp, dtype=dt)
            case('aten::rand.out', [V(list(shp), 'List[int]'), O(z)], mode='prop')
            case('aten::randn.out', [V(list(shp), 'List[int]'), O(z)], mode='prop')
    # native_dropout.out: kept elements equal x/(1-p), dropped are 0, the mask says which;
    # p=0 keeps all, p=1 drops all, train=False is the identity with an all-true mask.
    for dt in [F32, F64, F16, BF16]:
        for shp in [(50, 50), (3, 4), (0,), ()]:
            for p in [0.0, 0.3, 0.5, 1.0]:
                for train in [True, None, False]:
                    x = G.mk(shp, dt, edges=False)  # NaN/inf: torch keeps NaN*0 = NaN for dropped
                    case('aten::native_dropout.out',
                         [T(x), V(p), V(train), O(torch.zeros(shp, dtype=dt)), O(torch.zeros(shp, dtype=BOOL))],
                         mode='prop')
    # p outside [0, 1] is rejected (torch 1.13 raises too)
    x = G.mk((3, 4), F32)
    for p in [-0.1, 1.5]:
        case('aten::native_dropout.out', [T(x), V(p), V(True), O(torch.zeros(3, 4)),
                                          O(torch.zeros(3, 4, dtype=BOOL))], ret='R N', mode='err')


def groups(gen_module):
    global G
    G = gen_module
    return [gen_misc_batch_norm, gen_misc_copy, gen_misc_dim_order, gen_misc_backward, gen_misc_index_put,
            gen_misc_sampling, gen_misc_prim, gen_misc_random]
