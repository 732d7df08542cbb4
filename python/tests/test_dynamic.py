"""ptera.export(..., dynamic_shapes=...) (python/ptera/dynamic.py): the
dynamic dims' tensors are DYNAMIC_BOUND in the program, which then runs at
any size within the bounds and equals eager PyTorch (max|ptera - ref| <=
1e-4 max|ref|); sizes past the bound are refused; graphs that cannot be
written with those bounds, and data-dependent output shapes, fail at export
with DynamicShapeError."""
import numpy as np
import pytest
import torch

import ptera

TOL = 1e-4


def close(got, want):
    want = want.detach().numpy()
    assert got.shape == want.shape, (got.shape, want.shape)
    err = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max())
    assert err <= TOL * max(float(np.abs(want).max()), 1e-30), err


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(12, 16), torch.nn.Linear(16, 3)

    def forward(self, x):
        x = x.reshape(x.shape[0], -1)
        return torch.softmax(self.b(torch.relu(self.a(x))), dim=-1)


class CNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        y = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        return self.fc(torch.flatten(y, 1))


class Mixer(torch.nn.Module):
    """A dynamic sequence length (dim 1) through layer_norm, matmul, sum."""

    def __init__(self):
        super().__init__()
        self.norm, self.proj = torch.nn.LayerNorm(6), torch.nn.Linear(6, 6)

    def forward(self, x):
        h = self.proj(self.norm(x))
        return torch.matmul(h, h.transpose(1, 2)).sum(dim=-1), h.mean(dim=1)


def export(tmp_path, module, example, dynamic_shapes):
    torch.manual_seed(0)
    path = str(tmp_path / "m.pte")
    ptera.export(module, example, path, dynamic_shapes=dynamic_shapes)
    return ptera.Program(path).method()


@pytest.mark.parametrize("make,example,spec,sizes", [
    (MLP, (torch.randn(4, 3, 4),), ({0: (1, 8)},), [(1, 3, 4), (3, 3, 4), (8, 3, 4), (5, 3, 4)]),
    (CNN, (torch.randn(2, 3, 8, 8),), ({0: 6},), [(1, 3, 8, 8), (6, 3, 8, 8), (4, 3, 8, 8)]),
    (Mixer, (torch.randn(2, 5, 6),), ({1: (2, 9)},), [(2, 2, 6), (2, 9, 6), (2, 7, 6)]),
])
def test_dynamic_dims_run_at_every_size_within_the_bound(tmp_path, make, example, spec, sizes):
    torch.manual_seed(1)
    module = make().eval()
    fwd = export(tmp_path, module, example, spec)
    info = fwd.inputs[0]
    assert info.dynamism == "dynamic_bound"
    (dim, bound), = spec[0].items()
    top = bound if isinstance(bound, int) else bound[1]
    assert info.shape[dim] == top and info.shape[:dim] + info.shape[dim + 1:] == \
        tuple(example[0].shape[:dim] + example[0].shape[dim + 1:])
    assert fwd.outputs[0].dynamism == "dynamic_bound"
    if make is Mixer:  # the mean over the dynamic dim has a static shape
        assert fwd.outputs[1].dynamism == "static" and fwd.outputs[1].shape == (2, 6)
    for shape in sizes:
        x = torch.randn(*shape)
        with torch.no_grad():
            refs = module(x)
        refs = refs if isinstance(refs, tuple) else (refs,)
        for got, want in zip(fwd(x), refs):
            close(got, want)
    over = list(sizes[0])
    over[dim] = top + 1
    with pytest.raises(ptera.PteraError):
        fwd(torch.randn(*over))


def test_static_inputs_stay_static(tmp_path):
    fwd = export(tmp_path, MLP().eval(), (torch.randn(4, 3, 4),), (None,))
    assert fwd.inputs[0].dynamism == "static" and fwd.outputs[0].dynamism == "static"


class NonZero(torch.nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0).float().sum(dim=0)


class MaskedSelect(torch.nn.Module):
    def forward(self, x):
        return torch.masked_select(x, x > 0) * 2


@pytest.mark.parametrize("module", [NonZero(), MaskedSelect()])
@pytest.mark.parametrize("spec", [None, ({0: (1, 8)},)])
def test_data_dependent_shapes_fail_at_export(tmp_path, module, spec):
    with pytest.raises(ptera.DynamicShapeError) as e:
        ptera.export(module, (torch.randn(4, 5),), str(tmp_path / "m.pte"), dynamic_shapes=spec)
    assert "depends on the input values" in str(e.value)
    assert not (tmp_path / "m.pte").exists()


class SizeBranch(torch.nn.Module):
    def forward(self, x):
        return x * 2 if x.shape[0] > 4 else x + 1


class SizeInArgument(torch.nn.Module):
    def forward(self, x):
        return x + torch.ones(x.shape[0], 1)


def test_graphs_the_bounds_cannot_express_fail_at_export(tmp_path):
    out = str(tmp_path / "m.pte")
    with pytest.raises(ptera.DynamicShapeError, match="different graph"):
        ptera.export(SizeBranch(), (torch.randn(4, 3),), out, dynamic_shapes=({0: (2, 8)},))
    with pytest.raises(ptera.DynamicShapeError, match="value of a dynamic size"):
        ptera.export(SizeInArgument(), (torch.randn(4, 3),), out, dynamic_shapes=({0: (2, 8)},))


@pytest.mark.parametrize("spec,message", [
    (({0: (1, 8)}, {0: 2}), "2 entries for 1 example inputs"),
    (({3: (1, 8)},), "no dim 3"),
    (({0: (5, 2)},), "1 <= min <= max"),
    (({0: "big"},), "a bound is"),
])
def test_bad_dynamic_shapes_are_reported(tmp_path, spec, message):
    with pytest.raises(ptera.DynamicShapeError, match=message):
        ptera.export(MLP(), (torch.randn(4, 3, 4),), str(tmp_path / "m.pte"), dynamic_shapes=spec)
