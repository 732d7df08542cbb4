#!/usr/bin/env python3
"""ptera as a dependency: `cmake --install` into a temporary prefix, then,
from outside the source tree, examples/c_api/run_model.c built
  (a) with only `pkg-config --cflags --libs ptera` (shared) and `--static`,
  (b) by a CMake project with find_package(ptera) (ptera::ptera and
      ptera::ptera_static),
  (c) by a CMake project with add_subdirectory(<ptera source>),
and each run on corpus programs, the printed values checked against
ExecuTorch's outputs in the corpus (expected/<file>/forward/case0), and
ptera_version() against the CMake project version. The CMake projects also
build examples/c_api/custom_kernel.c, run on a program calling a custom op.

usage: consumers.py SOURCE_DIR BUILD_DIR CORPUS_DIR VERSION C_COMPILER
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

SRC, BUILD, CORPUS, VERSION, CC = sys.argv[1:6]
EXAMPLE = os.path.join(SRC, "examples", "c_api")
# (model, data file or None): a two-input add; a program with constants.
CASES = [
    ("pytorch+executorch__add.pte", None),
    ("pytorch+executorch__test_models_deprecated_ModuleLinear-no-constant-segment.pte", None),
    ("barakugav+executorch-rs__examples_data_map_model_model.pte",
     "barakugav+executorch-rs__examples_data_map_model__default_external_constant.ptd"),
]
failures = []


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    if r.returncode != 0:
        raise SystemExit(f"command failed ({r.returncode}): {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
    return r.stdout


def check_runs(label, exe, tmp):
    env = dict(os.environ)
    for model, data in CASES:
        stem = os.path.splitext(model)[0]
        case = os.path.join(CORPUS, "expected", stem, "forward", "case0")
        args = [exe, os.path.join(CORPUS, "pte", model)]
        if data:
            args += ["--data", os.path.join(CORPUS, "pte", data)]
        k = 0
        while os.path.exists(os.path.join(case, f"input_{k}.npy")):
            raw = os.path.join(tmp, f"input_{k}.raw")
            np.ascontiguousarray(np.load(os.path.join(case, f"input_{k}.npy"))).tofile(raw)
            args.append(raw)
            k += 1
        for extra in ([], ["--own-memory"]):
            r = subprocess.run(args[:2] + extra + args[2:], capture_output=True, text=True, timeout=120,
                               env=env)
            if r.returncode != 0:
                failures.append(f"{label} {model} {extra}: exit {r.returncode}: {r.stderr}")
                continue
            lines = r.stdout.splitlines()
            if not lines or not lines[0].startswith(f"ptera {VERSION} (headers {VERSION})"):
                failures.append(f"{label}: version line {lines[:1]}, want ptera {VERSION}")
            outs = [l for l in lines if l.startswith("output ")]
            j = 0
            while os.path.exists(os.path.join(case, f"output_{j}.npy")):
                want = np.load(os.path.join(case, f"output_{j}.npy"))
                if j >= len(outs):
                    failures.append(f"{label} {model}: output {j} missing")
                    break
                got = np.array([float(v) for v in outs[j].split("=", 1)[1].split()])
                if got.shape != (want.size,) or not np.allclose(got, want.astype(np.float64).ravel(),
                                                                rtol=1e-6, atol=1e-7):
                    failures.append(f"{label} {model}: output {j} = {got[:6]} ... want {want.ravel()[:6]}")
                j += 1
            if j == 0:
                failures.append(f"{label} {model}: the corpus has no expected output")
    print(f"{label}: ran {len(CASES)} programs x 2 memory modes")


def main():
    tmp = tempfile.mkdtemp(prefix="ptera_install_")
    try:
        prefix = os.path.join(tmp, "prefix")
        sh(["cmake", "--install", BUILD, "--prefix", prefix])
        ptera = os.path.join(prefix, "bin", "ptera")
        out = sh([ptera, "--version"]).strip()
        if out != f"ptera {VERSION}":
            failures.append(f"installed ptera --version: {out!r}, want 'ptera {VERSION}'")
        libdir = os.path.dirname(sh(["find", prefix, "-name", "ptera.pc"]).split()[0])
        pkg_env = dict(os.environ, PKG_CONFIG_PATH=libdir)
        libroot = os.path.dirname(libdir)
        soname = sh(["readelf", "-d", os.path.join(libroot, "libptera.so")])
        if "Library soname: [libptera.so.0]" not in soname:
            failures.append("libptera.so has no soname libptera.so.0")
        src = os.path.join(EXAMPLE, "run_model.c")
        work = os.path.join(tmp, "work")  # outside the source tree
        os.makedirs(work)

        # (a) pkg-config, shared and static.
        cflags = sh(["pkg-config", "--cflags", "ptera"], env=pkg_env).split()
        libs = sh(["pkg-config", "--libs", "ptera"], env=pkg_env).split()
        exe = os.path.join(work, "run_model_pc")
        sh([CC, src, *cflags, "-o", exe, *libs, f"-Wl,-rpath,{libroot}"])
        check_runs("pkg-config (shared)", exe, work)
        static_libs = sh(["pkg-config", "--libs", "--static", "ptera"], env=pkg_env).split()
        if "-lm" not in static_libs:
            failures.append(f"pkg-config --static --libs ptera lacks -lm: {static_libs}")
        exe = os.path.join(work, "run_model_pc_static")
        sh([CC, src, *cflags, "-static", "-o", exe, *static_libs])
        if "libptera" in sh(["readelf", "-d", exe]):
            failures.append("the --static build still needs libptera.so")
        check_runs("pkg-config (static)", exe, work)

        # The Python package, pip-installed from a copy of python/ (so the
        # source tree stays clean), finds the installed library and CLI with
        # no PTERA_LIB/PTERA_BIN: through pkg-config's prefix.
        pysrc = os.path.join(work, "pysrc")
        shutil.copytree(os.path.join(SRC, "python"), pysrc,
                        ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info", "build"))
        site = os.path.join(work, "site")
        sh([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps",
            "--no-index", "--target", site, pysrc])
        py_env = {k: v for k, v in pkg_env.items() if k not in ("PTERA_LIB", "PTERA_BIN", "PYTHONPATH")}
        py_env["PYTHONPATH"] = site
        stem = "pytorch+executorch__add"
        case = os.path.join(CORPUS, "expected", stem, "forward", "case0")
        script = (
            "import sys, numpy as np, ptera\n"
            "print(ptera.find_library()); print(ptera.find_ptera()); print(ptera.version())\n"
            "m = ptera.Program(sys.argv[1]).method('forward')\n"
            "xs = [np.load(sys.argv[2] + '/input_%d.npy' % i) for i in range(len(m.inputs))]\n"
            "np.testing.assert_allclose(m(*xs)[0], np.load(sys.argv[2] + '/output_0.npy'), rtol=1e-6)\n"
            "print('values ok')\n")
        r = subprocess.run([sys.executable, "-c", script, os.path.join(CORPUS, "pte", stem + ".pte"), case],
                           capture_output=True, text=True, env=py_env, cwd=work, timeout=300)
        lines = r.stdout.split()
        if r.returncode != 0 or len(lines) < 4 or lines[3] != "values":
            failures.append(f"pip-installed ptera: exit {r.returncode}\n{r.stdout}\n{r.stderr}")
        elif not (lines[0].startswith(prefix) and lines[1].startswith(prefix) and lines[2] == VERSION):
            failures.append(f"pip-installed ptera found {lines[:3]}, not the install in {prefix}")
        else:
            print("pip-installed package: found the installed library and CLI, values ok")

        # (b) find_package(ptera); (c) add_subdirectory(ptera sources).
        common = ["-G", "Ninja", f"-DCMAKE_C_COMPILER={CC}"]
        custom = []
        for label, args in (
            ("find_package", [f"-DCMAKE_PREFIX_PATH={prefix}"]),
            # Built unoptimized: this checks the build system, not the code.
            ("add_subdirectory", [f"-DPTERA_SOURCE_DIR={SRC}", "-DCMAKE_BUILD_TYPE=Plain",
                                  "-DCMAKE_C_FLAGS=-O0"]),
        ):
            b = os.path.join(work, label)
            sh(["cmake", "-S", EXAMPLE, "-B", b, *common, *args])
            sh(["cmake", "--build", b, "-j2"])
            check_runs(f"{label} (ptera::ptera)", os.path.join(b, "run_model"), work)
            check_runs(f"{label} (ptera::ptera_static)", os.path.join(b, "run_model_static"), work)
            custom.append(os.path.join(b, "custom_kernel"))
        # The custom-kernel example of both projects (tests/install/custom_kernel.py).
        r = subprocess.run([sys.executable, os.path.join(SRC, "tests", "install", "custom_kernel.py"),
                            os.path.join(BUILD, "make_custom_op_pte"), custom[0],
                            os.path.join(work, "custom"), *custom[1:]],
                           capture_output=True, text=True, timeout=300)
        print(r.stdout, end="")
        if r.returncode != 0:
            failures.append(f"custom_kernel example: {r.stdout}{r.stderr}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    if failures:
        sys.exit(1)
    print("OK")


main()
