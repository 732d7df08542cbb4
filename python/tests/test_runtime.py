"""ptera.Program / Method (python/ptera/runtime.py, libptera through ctypes):
every zoo model (tests/zoo/models.py) exported with ptera.export and run
through ptera.Program equals eager PyTorch (max|ptera - ref| <= 1e-4 *
max|ref|), the Llama-style step keeps its KV cache across calls, errors are
PteraError with the status name, and the corpus's ExecuTorch outputs are
reproduced through the binding (external .ptd included).

PTERA_ZOO_SKIP_HEAVY=1 keeps the small models (as the zoo test does)."""
import copy
import os
import sys
import threading

import numpy as np
import pytest
import torch

import ptera

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "zoo"))
import models as zoo  # noqa: E402

CORPUS = os.environ.get("PTERA_CORPUS_DIR", os.path.join(REPO, "..", "shared", "corpus"))
TOL = 1e-4
SKIP_HEAVY = os.environ.get("PTERA_ZOO_SKIP_HEAVY") == "1"
ZOO = [n for n in zoo.NAMES if not (SKIP_HEAVY and n in zoo.HEAVY)]


def close(got, want):
    want = want.detach().numpy() if hasattr(want, "detach") else np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    scale = float(np.abs(want).max()) if want.size else 0.0
    err = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max()) if want.size else 0.0
    assert err <= TOL * max(scale, 1e-30), "max abs err %g, max|ref| %g" % (err, scale)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """name -> (path of the .pte, module, inputs of each execution), built once."""
    cache = {}

    def get(name):
        if name not in cache:
            module, inputs = zoo.get(name)
            pte = str(tmp_path_factory.mktemp(name) / (name + ".pte"))
            ptera.export(copy.deepcopy(module), inputs, pte)
            cache[name] = (pte, module, zoo.executions(name, inputs))
        return cache[name]
    return get


@pytest.mark.parametrize("name", ZOO)
def test_zoo_model_matches_eager(name, exported):
    pte, module, runs = exported(name)
    refs = zoo.eager_references(name, copy.deepcopy(module), runs)
    prog = ptera.Program(pte)
    assert "forward" in prog.methods
    fwd = prog.method("forward")
    assert len(fwd.inputs) == len(runs[0])
    for inputs, ref in zip(runs, refs):  # one instance: state carries over
        outs = fwd(*inputs)
        assert len(outs) == len(ref)
        for got, want in zip(outs, ref):
            close(got, want)


def test_llama_step_keeps_kv_cache(exported):
    pte, module, runs = exported("llama_step")
    assert len(runs) >= 2
    refs = zoo.eager_references("llama_step", copy.deepcopy(module), runs)
    fwd = ptera.Program(pte).method("forward")
    fwd(*runs[0])
    second = fwd(*runs[1])
    close(second[0], refs[1][0])
    # A fresh instance has an empty cache: its answer to the second step
    # alone is what eager gives without the first, not the stateful one.
    fresh = ptera.Program(pte).method("forward")(*runs[1])
    alone = zoo.eager_reference("llama_step", copy.deepcopy(module), runs[1])
    close(fresh[0], alone[0])
    assert not np.allclose(fresh[0], second[0]), "the second step did not use the first's cache"


def corpus(name):
    p = os.path.join(CORPUS, "pte", name)
    if not os.path.exists(p):
        pytest.fail("corpus file missing: %s (set PTERA_CORPUS_DIR)" % p)
    return p


def test_corpus_outputs_with_external_data():
    """ExecuTorch's own outputs for a program whose weights are in a .ptd;
    numpy and torch inputs give the same result; metadata is the program's."""
    stem = "barakugav+executorch-rs__examples_data_map_model_model"
    case = os.path.join(CORPUS, "expected", stem, "forward", "case0")
    prog = ptera.Program(corpus(stem + ".pte"),
                         data=[corpus("barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd")])
    fwd = prog.method()
    x = np.load(os.path.join(case, "input_0.npy"))
    info = fwd.inputs[0]
    assert info.kind == "Tensor" and info.dtype == np.float32 and info.shape == x.shape
    assert info.dtype_name == "Float" and info.dynamism == "static"
    want = np.load(os.path.join(case, "output_0.npy"))
    np.testing.assert_array_equal(fwd(x)[0], want)
    np.testing.assert_array_equal(fwd(torch.from_numpy(x))[0], want)


def test_errors_are_exceptions_with_status_names(tmp_path):
    with pytest.raises(ptera.PteraError) as e:
        ptera.Program(str(tmp_path / "missing.pte"))
    assert e.value.name == "AccessFailed" and "missing.pte" in e.value.message
    bad = tmp_path / "bad.pte"
    bad.write_bytes(b"\0\0\0\0ET12" + b"\xff" * 64)
    with pytest.raises(ptera.PteraError) as e:
        ptera.Program(str(bad))
    assert e.value.name == "InvalidProgram"
    # External weights not attached: the method fails to load, naming the key.
    prog = ptera.Program(corpus("barakugav+executorch-rs__examples_data_map_model_model.pte"))
    with pytest.raises(ptera.PteraError) as e:
        prog.method("forward")
    assert e.value.status != 0 and e.value.name in str(e.value)
    add = ptera.Program(corpus("pytorch+executorch__add.pte"))
    with pytest.raises(ptera.PteraError) as e:
        add.method("no_such_method")
    assert e.value.name == "NotFound"
    fwd = add.method()
    n = len(fwd.inputs)
    with pytest.raises(ptera.PteraError) as e:
        fwd(*([np.ones(1, np.float32)] * (n + 1)))
    assert e.value.name == "InvalidArgument"
    with pytest.raises(TypeError):
        fwd(*([np.ones(1, np.float64)] * n))
    with pytest.raises(ptera.PteraError) as e:
        fwd(*([np.ones((2, 3), np.float32)] * n))
    assert e.value.name in ("InvalidArgument", "NotSupported")


def test_version():
    assert ptera.version().count(".") == 2


@pytest.mark.parametrize("name", ["mlp", "digits"])
def test_threads_match_eager(name, exported):
    """threads=N: the program's methods share a pool of N threads (the
    kernels' parallel loops split over it); the outputs still equal eager."""
    pte, module, runs = exported(name)
    refs = zoo.eager_references(name, copy.deepcopy(module), runs)
    with ptera.Program(pte, threads=4) as prog:
        assert prog.threads in (1, 4)  # 1: a libptera built with PTERA_THREADS=OFF
        fwd = prog.method()
        for inputs, ref in zip(runs, refs):
            for got, want in zip(fwd(*inputs), ref):
                close(got, want)


def test_one_program_many_python_threads(exported):
    """One Program shared by four Python threads, each calling its own
    Method (libptera's thread contract; calls release the GIL)."""
    pte, module, runs = exported("digits")
    ref = zoo.eager_references("digits", copy.deepcopy(module), runs)[0]
    prog = ptera.Program(pte, threads=2)
    errors = []

    def work():
        try:
            fwd = prog.method()
            for _ in range(3):
                for got, want in zip(fwd(*runs[0]), ref):
                    close(got, want)
        except Exception as e:  # reported below, in the test's thread
            errors.append(e)

    workers = [threading.Thread(target=work) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    prog.close()
    assert not errors, errors


def test_thread_counts_are_checked():
    path = corpus("pytorch+executorch__add.pte")
    assert ptera.Program(path).threads == 1
    assert ptera.Program(path, threads=1).threads == 1
    assert ptera.Program(path, threads=0).threads >= 1  # one per online core
    for bad in (-1, 2.5, "4", True):
        with pytest.raises(ValueError):
            ptera.Program(path, threads=bad)
