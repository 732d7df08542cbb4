"""The larger models trace, map onto registered kernels and, run by the
reference PTG interpreter, reproduce eager (two steps: KV-cache state
persists)."""

import copy
import importlib.util

import pytest
import torch

import ptg_interp
from ptera.capture import capture
from ptera.opmap import decompositions, to_ptg
from zoo import ZOO

HAVE_TV = importlib.util.find_spec("torchvision") is not None


@pytest.fixture(scope="module")
def decomp():
    return decompositions()


@pytest.mark.parametrize("name", sorted(ZOO))
def test_zoo_maps_and_matches(name, decomp):
    if name in ("mobilenet_v2", "resnet18") and not HAVE_TV:
        pytest.skip("torchvision is not installed")
    module, inputs = ZOO[name]()
    eager = copy.deepcopy(module)
    data = to_ptg(capture(module, inputs, decompositions=decomp)).to_bytes()
    interp = ptg_interp.load(data)
    for step in range(2):
        step_inputs = inputs
        if name == "llama_step":
            step_inputs = (inputs[0], torch.tensor([3 + step]))
        with torch.no_grad():
            ref = eager(*step_inputs)
        ref = list(ref) if isinstance(ref, (tuple, list)) else [ref]
        got = interp.run(*step_inputs)
        for g, r in zip(got, ref):
            torch.testing.assert_close(g, r, rtol=1e-4, atol=1e-4)
