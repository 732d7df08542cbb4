"""`ptera compile` shows its progress on a terminal only: with stderr a
pseudo-terminal the status lines ("\\r\\033[K ptera compile: ...") appear and
end cleared, with stderr a pipe there is not one escape byte; the result is
the same program either way.

usage: progress.py PTERA SCRATCH_DIR"""
import os
import subprocess
import sys

ptera, scratch = sys.argv[1:3]
os.makedirs(scratch, exist_ok=True)
ptg = os.path.join(scratch, "relu.ptg")
with open(ptg, "w") as f:
    f.write("ptg 1\nmethod forward\nvalue 0 tensor Float 4\nvalue 1 tensor Float 4\n"
            "inputs 0\noutputs 1\nnode aten::relu.out 0 !1\n")
failures = []


def compile_with(stderr_is_tty, out):
    if stderr_is_tty:
        master, slave = os.openpty()
        p = subprocess.run([ptera, "compile", ptg, out], stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO once the child has closed the terminal
                break
            if not chunk:
                break
            err += chunk
        os.close(master)
    else:
        p = subprocess.run([ptera, "compile", ptg, out], capture_output=True)
        err = p.stderr
    return p.returncode, err


rc, err = compile_with(True, os.path.join(scratch, "tty.pte"))
if rc != 0 or b"\r\x1b[Kptera compile: compiling" not in err or not err.endswith(b"\r\x1b[K"):
    failures.append("on a terminal: exit %d, stderr %r" % (rc, err))
rc, err = compile_with(False, os.path.join(scratch, "pipe.pte"))
if rc != 0 or b"\x1b" in err or b"\r" in err:
    failures.append("through a pipe: exit %d, stderr %r" % (rc, err))
with open(os.path.join(scratch, "tty.pte"), "rb") as a, open(os.path.join(scratch, "pipe.pte"), "rb") as b:
    if a.read() != b.read():
        failures.append("the programs written differ")
for f in failures:
    print("FAIL:", f)
print("progress: %d failures" % len(failures))
sys.exit(1 if failures else 0)
