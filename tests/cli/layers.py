"""The build's layers (cmake/layers.cmake): each layer's include directories
let it include the public headers and its own layer's, and not another
layer's internals (a probe `#include` compiled with the layer's -I flags
must fail); the CLI (tools/ptera, target ptera_cli) sees the public headers
alone, and its sources include nothing else (cmd_compile.c, the compiler's
front end, excepted: it includes the compiler's compile.h); and
PTERA_BUILD_COMPILER=OFF configures a build of the runtime and CLI with no
compiler source in it.

usage: layers.py CC BUILD_DIR SOURCE_DIR CMAKE SCRATCH_DIR"""
import os
import re
import shutil
import subprocess
import sys

CC, BUILD, SRC, CMAKE, SCRATCH = sys.argv[1:6]

# layer target -> (headers it may include, headers it must not see)
RULES = {
    "ptera_core": (["ptera/ptera.h", "core/core.h"],
                   ["format/pte.h", "runtime/runtime.h", "builtin.h", "compile.h"]),
    "ptera_format": (["core/core.h", "format/pte.h"],
                     ["runtime/runtime.h", "builtin.h", "xnnpack/xnn.h", "compile.h"]),
    "ptera_runtime": (["core/core.h", "format/pte.h", "runtime/runtime.h", "runtime/tables.h"],
                      ["builtin.h", "xnnpack/xnn_backend.h", "cpu/gemm.h", "compile.h"]),
    "ptera_kernels_portable": (["ptera/kernel.h", "core/core.h", "builtin.h", "cpu/gemm.h"],
                               ["runtime/runtime.h", "runtime/kernel_ctx.h", "format/pte.h",
                                "xnnpack/xnn.h", "compile.h"]),
    "ptera_kernels_cpu": (["core/core.h", "cpu/gemm.h"],
                          ["runtime/runtime.h", "format/pte.h", "compile.h"]),
    "ptera_backend_xnnpack": (["ptera/backend.h", "core/core.h", "format/xnngraph.h",
                               "xnnpack/xnn.h", "cpu/gemm.h", "runtime/kernel_ctx.h"],
                              ["runtime/runtime.h", "compile.h"]),
    "ptera_compiler": (["core/core.h", "format/pte.h", "compile.h", "runtime/kernel_ctx.h"],
                       ["xnnpack/xnn_backend.h"]),
    "ptera_cli": (["ptera/ptera.h", "ptera/inspect.h", "ptera/npy.h"],
                  ["core/core.h", "format/pte.h", "format/npy.h", "format/xnngraph.h", "runtime/runtime.h",
                   "builtin.h", "cpu/gemm.h", "xnnpack/xnn.h", "compile.h"]),
}

failures = []


def compiles(includes, header):
    probe = os.path.join(SCRATCH, "probe.c")
    with open(probe, "w") as f:
        f.write('#include "%s"\nint layers_probe;\n' % header)
    cmd = [CC, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-fsyntax-only"]
    cmd += ["-I" + d for d in includes] + [probe]
    return subprocess.run(cmd, capture_output=True).returncode == 0


os.makedirs(SCRATCH, exist_ok=True)
for target, (allowed, forbidden) in RULES.items():
    path = os.path.join(BUILD, "layers", target + ".includes")
    if not os.path.exists(path):
        failures.append("%s: no include list (%s)" % (target, path))
        continue
    includes = [line for line in open(path).read().splitlines() if line]
    for h in allowed:
        if not compiles(includes, h):
            failures.append("%s cannot include %s, which its layer may use" % (target, h))
    for h in forbidden:
        if compiles(includes, h):
            failures.append("%s can include %s, another layer's internals" % (target, h))

# The CLI's sources: quoted includes are its own header or public ones.
CLI = os.path.join(SRC, "tools", "ptera")
for name in sorted(os.listdir(CLI)):
    if not name.endswith((".c", ".h")):
        continue
    for n, line in enumerate(open(os.path.join(CLI, name)), 1):
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        if not m:
            continue
        inc = m.group(1)
        if inc == "cli.h" or (inc.startswith("ptera/") and ".." not in inc) or (
                name == "cmd_compile.c" and inc == "compile.h"):
            continue
        failures.append("tools/ptera/%s:%d includes \"%s\", not a public header (include/ptera)" % (name, n, inc))

# The runtime alone: configure only (a full second build is the lead's CI job).
off = os.path.join(SCRATCH, "no_compiler")
shutil.rmtree(off, ignore_errors=True)
r = subprocess.run([CMAKE, "-S", SRC, "-B", off, "-G", "Ninja", "-DPTERA_BUILD_COMPILER=OFF",
                    "-DCMAKE_C_COMPILER=" + CC], capture_output=True, text=True)
if r.returncode != 0:
    failures.append("PTERA_BUILD_COMPILER=OFF does not configure:\n" + r.stdout + r.stderr)
else:
    t = subprocess.run(["ninja", "-C", off, "-t", "targets", "all"], capture_output=True, text=True)
    objs = t.stdout
    if "/compiler/" in objs or "ptera_compiler" in objs:
        failures.append("PTERA_BUILD_COMPILER=OFF still builds compiler sources")
    for need in ("src/runtime/method.c.o", "tools/ptera/cmd_compile_off.c.o", "libptera.a"):
        if need not in objs:
            failures.append("PTERA_BUILD_COMPILER=OFF does not build %s" % need)
    if "tools/ptera/cmd_compile.c.o" in objs:
        failures.append("PTERA_BUILD_COMPILER=OFF still builds ptera compile")
    if "test_api" in objs:
        failures.append("PTERA_BUILD_COMPILER=OFF builds the test suite, which needs the compiler")
shutil.rmtree(off, ignore_errors=True)

for f in failures:
    print("FAIL:", f)
print("layers: %d rules over %d layers, %d failures" % (
    sum(len(a) + len(b) for a, b in RULES.values()), len(RULES), len(failures)))
sys.exit(1 if failures else 0)
