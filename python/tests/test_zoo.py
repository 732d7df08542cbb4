"""The zoo models (tests/zoo/models.py) trace, map onto registered kernels
and, run by the reference PTG interpreter, reproduce eager; the Llama-style
step runs its executions in turn, so KV-cache state carries over. (The zoo
ctest runs the same models through `ptera compile` and `ptera run`.)"""

import copy
import importlib.util
import os

import pytest
import torch

import ptg_interp
from ptera.capture import capture
from ptera.opmap import decompositions, to_ptg


def _load_zoo_models():
    """tests/zoo/models.py, under its own name (python/tests has a models.py
    of its own)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "zoo",
                        "models.py")
    spec = importlib.util.spec_from_file_location("zoo_models", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


models = _load_zoo_models()


@pytest.fixture(scope="module")
def decomp():
    return decompositions()


@pytest.mark.parametrize("name", [n for n in models.NAMES if n != "digits"])
def test_zoo_maps_and_matches(name, decomp):
    module, inputs = models.get(name)
    runs = models.executions(name, inputs)
    refs = models.eager_references(name, copy.deepcopy(module), runs)
    data = to_ptg(capture(module, inputs, decompositions=decomp)).to_bytes()
    interp = ptg_interp.load(data)
    for step_inputs, ref in zip(runs, refs):
        got = interp.run(*step_inputs)
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            torch.testing.assert_close(g, r, rtol=1e-4, atol=1e-4 * max(1.0, float(r.abs().max())))
