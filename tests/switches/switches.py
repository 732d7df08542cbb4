#!/usr/bin/env python3
"""The small-target build switches on the host: ptera built from outside its
tree (tests/switches/CMakeLists.txt) with PTERA_NO_FS, PTERA_NO_HEAP,
PTERA_STRIP_MESSAGES and PTERA_THREADS=OFF all at once (one build: the
combination the firmware uses, so each switch is checked next to the
others), warnings as errors. Then
  - NO_FS / NO_HEAP / THREADS=OFF: libptera.a references no file, heap or
    thread function (nm -u);
  - STRIP_MESSAGES: no object of the library references vsnprintf, and
    known messages of each layer, which the hosted build's libptera.a does
    hold, are not in it (strings). The XNNPACK delegate (backends/xnnpack,
    src/format/xnngraph.c) still formats its messages and is left out of
    this check;
  - run_pool (tests/switches/run_pool.c) runs corpus programs from one static
    pool sized by ptera_program_memory_needed / ptera_method_memory_needed,
    its outputs checked against ExecuTorch's (tests/install/caller_memory.py),
    after checking the switches' behaviour (a path load is NotSupported, a
    load without an allocator fails, messages are status names).
The build directory is kept between runs (an incremental build).

usage: switches.py SOURCE_DIR HOSTED_LIBPTERA CORPUS_DIR SCRATCH_DIR C_COMPILER [LAUNCHER]"""
import glob
import os
import subprocess
import sys

SRC, HOSTED_LIB, CORPUS, SCRATCH, CC = sys.argv[1:6]
LAUNCHER = sys.argv[6] if len(sys.argv) > 6 else ""
BUILD = os.path.join(SCRATCH, "build")
failures = []

# Symbols a build with these switches must not reference.
FORBIDDEN = {
    "PTERA_NO_FS": ["fopen", "fread", "fclose", "open", "close", "read", "mmap", "munmap", "fstat", "stat"],
    "PTERA_NO_HEAP": ["malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign"],
    "PTERA_THREADS=OFF": ["pthread_create", "pthread_join", "pthread_mutex_lock", "pthread_cond_wait"],
}
# One message of each layer, as written in the sources (the start of a
# format string, up to its first conversion).
MESSAGES = [
    ("src/runtime/method.c", "the program has no method '"),
    ("src/runtime/method.c", "cannot allocate planned buffer "),
    ("src/format/pte.c", "out of memory decoding the program"),
    ("kernels/portable/op_cat.c", ": 'tensors' is empty"),
    ("kernels/cortex_m/cm_util.c", "' must be channels-last (dim order 0, 2, 3, 1)"),
]
NO_FS_MESSAGE = ("src/platform/no_fs.c", "this build has no file system")
# Objects of the XNNPACK delegate, which formats its messages in every build.
XNNPACK_OBJECTS = ("/ptera_backend_xnnpack.dir/", "/xnngraph.c.o")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise SystemExit("FAIL: %s exited %d\n%s\n%s" % (" ".join(cmd), r.returncode, r.stdout[-4000:],
                                                        r.stderr[-4000:]))
    return r.stdout


def strings(paths):
    return run(["strings", "-a", "-n", "6"] + list(paths))


os.makedirs(SCRATCH, exist_ok=True)
if not os.path.exists(os.path.join(BUILD, "build.ninja")):
    cfg = ["cmake", "-S", os.path.join(SRC, "tests", "switches"), "-B", BUILD, "-G", "Ninja",
           "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_C_COMPILER=" + CC, "-DPTERA_SOURCE_DIR=" + SRC]
    if LAUNCHER:
        cfg.append("-DCMAKE_C_COMPILER_LAUNCHER=" + LAUNCHER)
    run(cfg)
run(["cmake", "--build", BUILD, "-j", str(os.cpu_count() or 2)])
lib = os.path.join(BUILD, "ptera", "libptera.a")
exe = os.path.join(BUILD, "run_pool")

config = open(os.path.join(BUILD, "ptera", "include", "ptera", "config_build.h")).read()
for want in ("PTERA_NO_FS 1", "PTERA_NO_HEAP 1", "PTERA_STRIP_MESSAGES 1", "PTERA_THREADS 0"):
    if want not in config:
        failures.append("config_build.h lacks #define %s" % want)

undefined = set()
for line in run(["nm", "-u", lib]).splitlines():
    parts = line.split()
    if len(parts) == 2 and parts[0] == "U":
        undefined.add(parts[1])
for switch, names in FORBIDDEN.items():
    bad = sorted(undefined.intersection(names))
    if bad:
        failures.append("%s: libptera.a references %s" % (switch, ", ".join(bad)))

objects = sorted(glob.glob(os.path.join(BUILD, "ptera", "CMakeFiles", "*.dir", "**", "*.o"), recursive=True))
checked = [o for o in objects if not any(x in o for x in XNNPACK_OBJECTS)]
if len(checked) < 100 or len(checked) == len(objects):
    failures.append("found %d library objects, %d outside the XNNPACK delegate" % (len(objects), len(checked)))
for line in run(["nm", "-u", "-A"] + checked).splitlines():
    if line.split()[-1:] == ["vsnprintf"]:
        failures.append("PTERA_STRIP_MESSAGES: %s references vsnprintf" % os.path.relpath(line.split(":")[0], BUILD))
stripped, hosted = strings(checked), strings([HOSTED_LIB])
for path, msg in MESSAGES + [NO_FS_MESSAGE]:
    if msg not in open(os.path.join(SRC, path)).read():
        failures.append("%s no longer says %r: update MESSAGES" % (path, msg))
    if (path, msg) != NO_FS_MESSAGE and msg not in hosted:
        failures.append("the hosted %s lacks %r, so its absence proves nothing" % (HOSTED_LIB, msg))
    if msg in stripped:
        failures.append("PTERA_STRIP_MESSAGES: the library holds %r (%s)" % (msg, path))
print("switches build: %d objects (%d checked for messages), %d undefined symbols, none forbidden%s"
      % (len(objects), len(checked), len(undefined), "" if not failures else " (see failures)"))

scratch = os.path.join(SCRATCH, "runs")
r = subprocess.run([sys.executable, os.path.join(SRC, "tests", "install", "caller_memory.py"), exe, CORPUS, scratch],
                   capture_output=True, text=True, timeout=300)
sys.stdout.write(r.stdout)
if r.returncode != 0:
    failures.append("run_pool on the corpus: %s" % r.stderr.strip()[-2000:])

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
