"""Finding libptera and the ptera CLI.

Order, for both: the environment (PTERA_LIB / PTERA_BIN), then the build tree
of the repository this package sits in (<repo>/build), then the install
prefix (pkg-config's libdir/prefix for ptera, the dynamic loader's search
path, /usr/local and /usr). A pip-installed package has no build tree beside
it and finds an installed ptera (`cmake --install build`)."""
import ctypes.util
import os
import shutil
import subprocess

_HERE = os.path.dirname(os.path.abspath(__file__))
_BUILD = os.path.normpath(os.path.join(_HERE, "..", "..", "build"))


class PteraNotFound(RuntimeError):
    pass


def _pkg_config(variable):
    try:
        r = subprocess.run(["pkg-config", "--variable=" + variable, "ptera"], capture_output=True,
                           text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    v = r.stdout.strip()
    return v if r.returncode == 0 and v else None


def _prefixes():
    prefix = _pkg_config("prefix")
    out = [prefix] if prefix else []
    return out + ["/usr/local", "/usr"]


def find_library():
    """Path of libptera.so (see the module docstring for the order)."""
    env = os.environ.get("PTERA_LIB")
    if env:
        if not os.path.isfile(env):
            raise PteraNotFound("PTERA_LIB=%s does not exist" % env)
        return env
    cands = [os.path.join(_BUILD, "libptera.so")]
    libdir = _pkg_config("libdir")
    if libdir:
        cands.append(os.path.join(libdir, "libptera.so"))
    for c in cands:
        if os.path.isfile(c):
            return c
    name = ctypes.util.find_library("ptera")  # ldconfig's cache
    if name:
        return name
    for p in _prefixes():
        for sub in ("lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu"):
            c = os.path.join(p, sub, "libptera.so")
            if os.path.isfile(c):
                return c
    raise PteraNotFound("no libptera.so: set PTERA_LIB, build the repository (build/libptera.so) "
                        "or install ptera (cmake --install build)")


def find_ptera():
    """Path of the ptera binary (see the module docstring for the order)."""
    env = os.environ.get("PTERA_BIN")
    if env:
        if not os.path.exists(env):
            raise PteraNotFound("PTERA_BIN=%s does not exist" % env)
        return env
    cand = os.path.join(_BUILD, "ptera")
    if os.path.isfile(cand) and os.access(cand, os.X_OK):
        return cand
    p = shutil.which("ptera")
    if p:
        return p
    for prefix in _prefixes():
        cand = os.path.join(prefix, "bin", "ptera")
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    raise PteraNotFound("no ptera binary: set PTERA_BIN, build the repository (build/ptera), "
                        "put ptera on PATH or install it (cmake --install build)")
