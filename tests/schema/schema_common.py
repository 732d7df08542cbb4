"""Shared helpers for the schema checks: finding flatc, decoding a binary
with one of tests/schema/*.fbs, and building the C++ verifier (verify.cc)
from flatc --cpp output and the FlatBuffers headers (libflatbuffers-dev).
Anything missing is a failure (sys.exit with a message), never a skip."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The flags that reproduce the corpus reference dumps (check_corpus.py).
FLAGS = ["--json", "--strict-json", "--raw-binary"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def find_flatc():
    exe = os.environ.get("FLATC") or shutil.which("flatc")
    if not exe or not os.path.exists(exe):
        fail("flatc not found (apt package flatbuffers-compiler; scripts/deps.sh installs it)")
    return exe


def flatc_json(flatc, schema, data, tmp, flags=FLAGS):
    """Decodes `data` (bytes) with tests/schema/<schema>; returns the parsed
    JSON. Raises RuntimeError if flatc fails (or crashes)."""
    d = tempfile.mkdtemp(dir=tmp)
    src = os.path.join(d, "in.bin")
    with open(src, "wb") as f:
        f.write(data)
    p = subprocess.run([flatc] + list(flags) + ["-o", d, os.path.join(HERE, schema), "--", src],
                       capture_output=True, text=True)
    out = os.path.join(d, "in.json")
    if p.returncode != 0 or not os.path.exists(out):
        raise RuntimeError("flatc failed (rc %d): %s" % (p.returncode, (p.stdout + p.stderr).strip()))
    with open(out) as f:
        # flatc writes non-finite floats (an XNNPACK clamp's +inf) bare.
        return json.loads(re.sub(r"(?<=[:\[,\s])(-?)inf\b", r"\1Infinity", f.read()))


def root_vtable_fields(data):
    root = struct.unpack_from("<I", data, 0)[0]
    vt = root - struct.unpack_from("<i", data, root)[0]
    return (struct.unpack_from("<H", data, vt)[0] - 4) // 2


def schema_for(data):
    """The schema for a file, by identifier (bytes 4..8); None if unknown."""
    ident = data[4:8]
    if ident == b"ET12":
        return "program.fbs"
    if ident == b"FT01":
        # The current FlatTensor has 3 fields, the legacy one 5; writers trim
        # absent trailing fields (corpus linear.ptd has no named_data, so its
        # root vtable lists 4), hence ">= 4" rather than PTD.md 8's ">= 5".
        return "flat_tensor_legacy.fbs" if root_vtable_fields(data) >= 4 else "flat_tensor.fbs"
    return None


def build_verifier(flatc, tmp):
    """Compiles verify.cc against flatc --cpp output; returns the binary."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        fail("no C++ compiler for the FlatBuffers verifier")
    d = tempfile.mkdtemp(dir=tmp)
    schemas = [os.path.join(HERE, s)
               for s in ("scalar_type.fbs", "program.fbs", "flat_tensor.fbs", "xnnpack.fbs")]
    p = subprocess.run([flatc, "--cpp", "-o", d] + schemas, capture_output=True, text=True)
    if p.returncode != 0:
        fail("flatc --cpp: " + p.stdout + p.stderr)
    exe = os.path.join(d, "verify")
    p = subprocess.run([cxx, "-std=c++17", "-O1", "-I", d, "-o", exe, os.path.join(HERE, "verify.cc")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("building the FlatBuffers verifier failed (needs libflatbuffers-dev; "
             "scripts/deps.sh installs it):\n" + (p.stdout + p.stderr)[-2000:])
    return exe


def verify(exe, paths):
    """Runs the verifier; returns {path: None if OK else reason}."""
    p = subprocess.run([exe] + list(paths), capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        if line.startswith("OK "):
            res[line[3:]] = None
        elif line.startswith("FAIL "):
            path, _, why = line[5:].partition(": ")
            res[path] = why
    for path in paths:
        res.setdefault(path, "no verdict (verifier rc %d: %s)" % (p.returncode, p.stderr.strip()))
    return res
