"""Single-op and small-pattern captures, run by the reference interpreter."""

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils import _pytree as pytree

import ptg_interp
from ptera.capture import capture
from ptera.opmap import decompositions, to_ptg

X = torch.randn(2, 4, 6, 6, generator=torch.Generator().manual_seed(0))

CASES = {
    "where_scalar": lambda x: torch.where(x > 0, x, 0.0),
    "masked_fill": lambda x: x.masked_fill(x > 0.5, -1.0),
    "argmax_casts": lambda x: x.argmax(1).to(torch.float32) + x.half().float().sum(),
    "permute_expand": lambda x: x.permute(0, 2, 3, 1).expand(2, 6, 6, 4) * x[:, :1].permute(0, 2, 3, 1),
    "hardswish": lambda x: F.hardswish(x) + F.hardsigmoid(x),
    "gelu_layer_norm": lambda x: F.layer_norm(F.gelu(x, approximate="tanh"), (6,)),
    "pools": lambda x: F.avg_pool2d(x, 2) + F.max_pool2d(x, 2),
    "upsample_nearest": lambda x: F.interpolate(x, scale_factor=2, mode="nearest"),
    "upsample_bilinear": lambda x: F.interpolate(x, size=(9, 9), mode="bilinear", align_corners=False),
    "pad": lambda x: F.pad(x, (1, 2, 0, 1)),
    "cumsum_topk": lambda x: (x.cumsum(-1), x.flatten(1).topk(3)),
    "chunk_var": lambda x: (x.chunk(2, 1)[1].var(-1), x.std(), x.mean()),
    "log_softmax": lambda x: F.log_softmax(x, -1),
    "activations": lambda x: F.leaky_relu(x, 0.1) + F.elu(x) + torch.tanh(x) + torch.exp(x.clamp(max=1)),
    "arange": lambda x: x + torch.arange(6),
    "factories": lambda x: x + torch.zeros(6) + torch.ones_like(x) + torch.full((6,), 2.0) + x.new_ones(6),
    "baddbmm": lambda x: torch.baddbmm(x[0], x[0], x[0].transpose(1, 2), beta=0.5),
    "max_dim": lambda x: x.max(-1),
    "min_all": lambda x: x.min() + x.amax(),
    "squeeze_unsqueeze": lambda x: x[:, :1].squeeze(1).unsqueeze(0),
    "rsub_tensor": lambda x: x - (1 - x),
    "floor_div": lambda x: torch.div(x, 2, rounding_mode="floor") + x // 3,
    "flip_roll": lambda x: x.flip(-1).roll(1, -1),
    "matmul_4d": lambda x: x @ x,
    "bool_ops": lambda x: ((x > 0) & (x < 1)) | ~(x == 0),
    "index_select_gather": lambda x: x.index_select(1, torch.tensor([0, 2])).gather(
        2, torch.zeros(2, 2, 1, 6, dtype=torch.long)),
    "contiguous_view": lambda x: x.transpose(2, 3).contiguous().view(2, -1),
    "mish_erf_softplus": lambda x: F.mish(x) + torch.erf(x) + F.softplus(x),
    "group_norm": nn.GroupNorm(2, 4),
    "conv_transpose": nn.ConvTranspose2d(4, 2, 3, stride=2),
    "dropout_eval": nn.Dropout(0.5),
    "pixel_shuffle": nn.PixelShuffle(2),
    "linear_3d": nn.Linear(6, 3),
}


class _Fn(nn.Module):
    def __init__(self, f):
        super().__init__()
        self.f = f

    def forward(self, x):
        return self.f(x)


@pytest.fixture(scope="module")
def decomp():
    return decompositions()


@pytest.mark.parametrize("name", sorted(CASES))
def test_op(name, decomp):
    torch.manual_seed(0)
    f = CASES[name]
    m = f if isinstance(f, nn.Module) else _Fn(f)
    data = to_ptg(capture(m, (X,), decompositions=decomp)).to_bytes()
    got = ptg_interp.load(data).run(X)
    with torch.no_grad():
        ref = pytree.tree_flatten(m(X))[0]
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        assert g.dtype == r.dtype
        torch.testing.assert_close(g, r, rtol=1e-4, atol=1e-4)


def test_ops_def_prepared_entries():
    # kernels/ops.def lists kernels with a prepare step as PTERA_OP_PREPARED;
    # they are registered overloads like any PTERA_OP line.
    from ptera.opmap import parse_ops_def
    text = ('/* PTERA_OP("commented::out.x", f) */\n'
            'PTERA_OP("aten::add.out", pk_add_out)\n'
            'PTERA_OP_PREPARED("aten::convolution.out", pk_convolution_out, pk_convolution_prepare)\n')
    assert parse_ops_def(text) == {"aten::add.out", "aten::convolution.out"}
