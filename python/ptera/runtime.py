"""Running ExecuTorch programs with libptera, through ctypes (no compiled
extension, no dependency but numpy; torch tensors are accepted as inputs).

    prog = ptera.Program("model.pte", data=["weights.ptd"])
    prog.methods                      # ["forward", ...]
    fwd = prog.method("forward")      # loads the method once
    fwd.inputs, fwd.outputs           # [IOInfo(kind, dtype, shape, ...)]
    y0, y1 = fwd(x, 3)                # numpy arrays (logical order, copies)

A Method keeps its memory between calls, so mutable state (a KV cache in
buffers) carries over from one call to the next; call prog.method() again for
a fresh instance. Every failure raises PteraError with the status name
(ExecuTorch's numbering) and the library's message.

threads: Program(path, threads=N) starts one libptera thread pool
(ptera_threadpool_create) of N threads, the caller's included, that every
method of the program shares: None or 1 runs kernels on the calling thread
only, 0 takes one thread per online core. A libptera built with
PTERA_THREADS=OFF runs every loop inline whatever N is.

Threads (libptera's contract, ptera/ptera.h): a Program may be used from
several Python threads at once, each calling its own Method; one Method must
not be called from two threads at the same time (calls release the GIL)."""
import ctypes
import threading
import weakref

import numpy as np

from .locate import find_library

MAX_DIM = 16
TAGS = {0: "None", 1: "Tensor", 2: "String", 3: "Double", 4: "Int", 5: "Bool", 6: "BoolList",
        7: "DoubleList", 8: "IntList", 9: "TensorList", 11: "OptionalTensorList"}
DYNAMISM = {0: "static", 1: "dynamic_bound", 2: "dynamic_unbound"}
# ptera_dtype (ExecuTorch ScalarType) -> numpy dtype; BFloat16 travels as its
# raw uint16 bits, the quantized dtypes as their integer storage.
NUMPY = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
         6: np.float32, 7: np.float64, 11: np.bool_, 12: np.int8, 13: np.uint8, 14: np.int32,
         15: np.uint16, 27: np.uint16, 28: np.uint32, 29: np.uint64}
TENSOR_PLANNED, TENSOR_CONST = 1, 2


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("numel", ctypes.c_size_t), ("capacity", ctypes.c_size_t),
                ("sizes", ctypes.c_int32 * MAX_DIM), ("strides", ctypes.c_int32 * MAX_DIM),
                ("dim_order", ctypes.c_uint8 * MAX_DIM), ("dim", ctypes.c_uint8),
                ("dtype", ctypes.c_uint8), ("dynamism", ctypes.c_uint8), ("flags", ctypes.c_uint8)]


class _Str(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p), ("len", ctypes.c_size_t)]


class _ValueU(ctypes.Union):
    _fields_ = [("i", ctypes.c_int64), ("d", ctypes.c_double), ("b", ctypes.c_bool),
                ("tensor", ctypes.POINTER(_Tensor)), ("str", _Str)]


class _Value(ctypes.Structure):
    _fields_ = [("tag", ctypes.c_uint8), ("u", _ValueU)]


# Sized structs (ptera/export.h): struct_size first, set to the size this
# binding was written for; the library reads or fills only that much.
class _Sized(ctypes.Structure):
    def __init__(self, **kw):
        super().__init__(struct_size=ctypes.sizeof(self), **kw)


class _MethodInfo(_Sized):
    _fields_ = [("struct_size", ctypes.c_size_t), ("name", ctypes.c_char_p),
                ("num_inputs", ctypes.c_size_t),
                ("num_outputs", ctypes.c_size_t), ("num_planned_buffers", ctypes.c_size_t),
                ("num_instructions", ctypes.c_size_t), ("num_operators", ctypes.c_size_t),
                ("num_delegates", ctypes.c_size_t), ("num_values", ctypes.c_size_t)]


class _IOInfo(_Sized):
    _fields_ = [("struct_size", ctypes.c_size_t), ("tag", ctypes.c_int), ("dtype", ctypes.c_int),
                ("dim", ctypes.c_size_t),
                ("sizes", ctypes.c_int32 * MAX_DIM), ("dim_order", ctypes.c_uint8 * MAX_DIM),
                ("dynamism", ctypes.c_int), ("memory_planned", ctypes.c_bool),
                ("nbytes", ctypes.c_uint64)]


class _MethodOptions(_Sized):
    _fields_ = [("struct_size", ctypes.c_size_t), ("allocator", ctypes.c_void_p),
                ("planned_buffers", ctypes.c_void_p), ("num_planned_buffers", ctypes.c_size_t),
                ("temp_size", ctypes.c_size_t), ("threadpool", ctypes.c_void_p),
                ("flags", ctypes.c_uint32)]


_lib = None
_lib_lock = threading.Lock()


def _load():
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        lib = ctypes.CDLL(find_library())
        P, S, C = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p
        st = ctypes.c_int
        sigs = {
            "ptera_version": (C, []),
            "ptera_status_name": (C, [st]),
            "ptera_dtype_name": (C, [ctypes.c_int]),
            "ptera_program_load_file": (st, [C, P, ctypes.POINTER(P)]),
            "ptera_program_destroy": (None, [P]),
            "ptera_program_errmsg": (C, [P]),
            "ptera_program_attach_data_file": (st, [P, C]),
            "ptera_program_method_count": (S, [P]),
            "ptera_program_method_name": (C, [P, S]),
            "ptera_program_method_info": (st, [P, C, ctypes.POINTER(_MethodInfo)]),
            "ptera_program_method_input": (st, [P, C, S, ctypes.POINTER(_IOInfo)]),
            "ptera_program_method_output": (st, [P, C, S, ctypes.POINTER(_IOInfo)]),
            "ptera_method_create": (st, [P, C, ctypes.POINTER(_MethodOptions), ctypes.POINTER(P)]),
            "ptera_threadpool_create": (st, [S, P, ctypes.POINTER(P)]),
            "ptera_threadpool_destroy": (None, [P]),
            "ptera_threadpool_size": (S, [P]),
            "ptera_method_destroy": (None, [P]),
            "ptera_method_errmsg": (C, [P]),
            "ptera_method_input_count": (S, [P]),
            "ptera_method_output_count": (S, [P]),
            "ptera_method_set_input_tensor": (st, [P, S, ctypes.c_int, S, ctypes.POINTER(ctypes.c_int32),
                                                   P, S]),
            "ptera_method_set_input_int": (st, [P, S, ctypes.c_int64]),
            "ptera_method_set_input_double": (st, [P, S, ctypes.c_double]),
            "ptera_method_set_input_bool": (st, [P, S, ctypes.c_bool]),
            "ptera_method_set_input_none": (st, [P, S]),
            "ptera_method_set_output_buffer": (st, [P, S, P, S]),
            "ptera_method_execute": (st, [P]),
            "ptera_method_output": (ctypes.POINTER(_Value), [P, S]),
            "ptera_method_input": (ctypes.POINTER(_Value), [P, S]),
        }
        for name, (res, args) in sigs.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
        return lib


def version():
    """The loaded libptera's version string (ptera_version())."""
    return _load().ptera_version().decode()


class PteraError(RuntimeError):
    """A libptera failure: .status (ExecuTorch's error code), .name
    ("InvalidArgument", ...) and .message (what the library said)."""

    def __init__(self, status, message):
        self.status = int(status)
        self.name = _load().ptera_status_name(self.status).decode()
        self.message = message
        super().__init__("%s: %s" % (self.name, message))


def _text(b):
    return b.decode("utf-8", "backslashreplace") if b else ""


class IOInfo:
    """An input or output of a method: kind ("Tensor", "Int", ...), and for
    tensors dtype (numpy dtype, None when numpy has none), dtype_name
    ("Float", ...), shape (the upper bound for a dynamic one), dim_order,
    dynamism ("static", "dynamic_bound", "dynamic_unbound"), memory_planned
    and nbytes."""

    def __init__(self, raw):
        self.kind = TAGS.get(raw.tag, "Unknown")
        self.dtype = self.dtype_name = self.shape = self.dim_order = self.dynamism = None
        self.memory_planned, self.nbytes = False, 0
        if raw.tag == 1:
            self.dtype = np.dtype(NUMPY[raw.dtype]) if raw.dtype in NUMPY else None
            self.dtype_name = _load().ptera_dtype_name(raw.dtype).decode()
            self.shape = tuple(raw.sizes[:raw.dim])
            self.dim_order = tuple(raw.dim_order[:raw.dim])
            self.dynamism = DYNAMISM.get(raw.dynamism, "unknown")
            self.memory_planned, self.nbytes = bool(raw.memory_planned), int(raw.nbytes)

    def __repr__(self):
        if self.kind != "Tensor":
            return "IOInfo(%s)" % self.kind
        return "IOInfo(Tensor %s%s, dim_order=%s, %s%s)" % (
            self.dtype_name, list(self.shape), list(self.dim_order), self.dynamism,
            ", planned" if self.memory_planned else "")


class Program:
    """A loaded .pte (data: .ptd files to attach, in order; threads: the
    size of the thread pool its methods share, see the module's note)."""

    def __init__(self, path, data=(), threads=None):
        lib = _load()
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or threads < 0):
            raise ValueError("threads must be None or an int >= 0, not %r" % (threads,))
        self._lib = lib
        self._h = ctypes.c_void_p()
        self._pool = ctypes.c_void_p()
        self._methods = weakref.WeakSet()
        if threads not in (None, 1):
            st = lib.ptera_threadpool_create(threads, None, ctypes.byref(self._pool))
            if st != 0:
                raise PteraError(st, "cannot start a pool of %d threads" % threads)
        self.threads = lib.ptera_threadpool_size(self._pool)
        st = lib.ptera_program_load_file(str(path).encode(), None, ctypes.byref(self._h))
        if st != 0:
            msg = _text(lib.ptera_program_errmsg(self._h))
            self.close()
            raise PteraError(st, "%s: %s" % (path, msg))
        if isinstance(data, (str, bytes)) or hasattr(data, "__fspath__"):
            data = [data]
        for d in data:
            st = lib.ptera_program_attach_data_file(self._h, str(d).encode())
            if st != 0:
                msg = _text(lib.ptera_program_errmsg(self._h))
                self.close()
                raise PteraError(st, msg)
        self.path = str(path)

    @property
    def methods(self):
        """The method names, in file order."""
        n = self._lib.ptera_program_method_count(self._h)
        return [_text(self._lib.ptera_program_method_name(self._h, i)) for i in range(n)]

    def _io(self, name, outputs):
        info = _MethodInfo()
        st = self._lib.ptera_program_method_info(self._h, name.encode(), ctypes.byref(info))
        if st != 0:
            raise PteraError(st, _text(self._lib.ptera_program_errmsg(self._h)))
        get = self._lib.ptera_program_method_output if outputs else self._lib.ptera_program_method_input
        out = []
        for i in range(info.num_outputs if outputs else info.num_inputs):
            raw = _IOInfo()
            st = get(self._h, name.encode(), i, ctypes.byref(raw))
            if st != 0:
                raise PteraError(st, _text(self._lib.ptera_program_errmsg(self._h)))
            out.append(IOInfo(raw))
        return out

    def method_inputs(self, name="forward"):
        """[IOInfo] of a method's inputs, without loading it."""
        return self._io(name, False)

    def method_outputs(self, name="forward"):
        return self._io(name, True)

    def method(self, name="forward"):
        """Loads a method instance (its own memory and state)."""
        return Method(self, name)

    def close(self):
        """Closes the methods loaded from this program, then the program and
        its thread pool."""
        for m in list(getattr(self, "_methods", ())):
            m.close()
        if getattr(self, "_h", None) and self._h.value:
            self._lib.ptera_program_destroy(self._h)
        self._h = ctypes.c_void_p()
        if getattr(self, "_pool", None) and self._pool.value:
            self._lib.ptera_threadpool_destroy(self._pool)
        self._pool = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if _lib is not None:
            self.close()


def _as_numpy(x):
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach") and hasattr(x, "numpy"):  # a torch tensor
        return x.detach().cpu().contiguous().numpy()
    return None


class Method:
    """One loaded method; call it with the inputs in order."""

    def __init__(self, program, name="forward"):
        lib = program._lib
        self._lib, self.program, self.name = lib, program, name
        self.inputs = program.method_inputs(name)
        self.outputs = program.method_outputs(name)
        self._h = ctypes.c_void_p()
        opts = _MethodOptions(threadpool=program._pool.value)
        st = lib.ptera_method_create(program._h, name.encode(), ctypes.byref(opts), ctypes.byref(self._h))
        if st != 0:
            msg = _text(lib.ptera_method_errmsg(self._h))
            self.close()
            raise PteraError(st, msg)
        program._methods.add(self)
        self._keep = []  # inputs the method points at until the next call
        self._out_buffers = []
        for k in range(lib.ptera_method_output_count(self._h)):
            v = lib.ptera_method_output(self._h, k).contents
            if v.tag != 1:
                continue
            t = v.u.tensor.contents
            if t.data or t.flags & (TENSOR_PLANNED | TENSOR_CONST):
                continue
            buf = np.empty(max(int(t.capacity), 1) + 64, dtype=np.uint8)
            addr = buf.ctypes.data + (-buf.ctypes.data) % 64
            self._check(lib.ptera_method_set_output_buffer(self._h, k, addr, int(t.capacity)))
            self._out_buffers.append(buf)

    def _check(self, st):
        if st != 0:
            raise PteraError(st, _text(self._lib.ptera_method_errmsg(self._h)))

    def _set_input(self, i, x):
        lib = self._lib
        v = lib.ptera_method_input(self._h, i).contents
        if v.tag == 0:
            if x is not None:
                raise TypeError("input %d of %s is None in the program" % (i, self.name))
            return self._check(lib.ptera_method_set_input_none(self._h, i))
        if v.tag in (3, 4, 5):  # Double, Int, Bool
            arr = _as_numpy(x)
            if arr is not None:
                x = arr.item()
            if v.tag == 4:
                return self._check(lib.ptera_method_set_input_int(self._h, i, int(x)))
            if v.tag == 3:
                return self._check(lib.ptera_method_set_input_double(self._h, i, float(x)))
            return self._check(lib.ptera_method_set_input_bool(self._h, i, bool(x)))
        if v.tag != 1:
            raise TypeError("input %d of %s is a %s, which this binding cannot set"
                            % (i, self.name, TAGS.get(v.tag, "Unknown")))
        t = v.u.tensor.contents
        arr = _as_numpy(x)
        if arr is None:
            arr = np.asarray(x)
        want = NUMPY.get(t.dtype)
        if want is None:
            raise TypeError("input %d of %s has dtype %s, which has no numpy form"
                            % (i, self.name, lib.ptera_dtype_name(t.dtype).decode()))
        if arr.dtype != np.dtype(want):
            raise TypeError("input %d of %s must be %s (numpy %s), not %s"
                            % (i, self.name, lib.ptera_dtype_name(t.dtype).decode(),
                               np.dtype(want).name, arr.dtype.name))
        if arr.ndim != t.dim:
            raise PteraError(0x12, "input %d of %s must have %d dims, not shape %s"
                             % (i, self.name, t.dim, list(arr.shape)))
        order = list(t.dim_order[:t.dim])
        mem = np.ascontiguousarray(arr.transpose(order) if order else arr)
        self._keep.append(mem)
        sizes = (ctypes.c_int32 * max(t.dim, 1))(*arr.shape)
        self._check(lib.ptera_method_set_input_tensor(self._h, i, t.dtype, t.dim, sizes,
                                                      mem.ctypes.data, mem.nbytes))

    def _get_output(self, k):
        v = self._lib.ptera_method_output(self._h, k).contents
        if v.tag == 1:
            t = v.u.tensor.contents
            dtype = NUMPY.get(t.dtype)
            if dtype is None:
                raise TypeError("output %d of %s has dtype %s, which has no numpy form"
                                % (k, self.name, self._lib.ptera_dtype_name(t.dtype).decode()))
            order = list(t.dim_order[:t.dim])
            sizes = list(t.sizes[:t.dim])
            nbytes = int(t.numel) * np.dtype(dtype).itemsize
            raw = ctypes.string_at(t.data, nbytes) if nbytes else b""
            mem = np.frombuffer(raw, dtype=dtype).reshape([sizes[d] for d in order])
            return np.ascontiguousarray(mem.transpose(np.argsort(order)) if order else mem)
        if v.tag == 4:
            return v.u.i
        if v.tag == 3:
            return v.u.d
        if v.tag == 5:
            return bool(v.u.b)
        if v.tag == 2:
            return ctypes.string_at(v.u.str.ptr, v.u.str.len)
        if v.tag == 0:
            return None
        raise TypeError("output %d of %s is a %s, which this binding cannot read"
                        % (k, self.name, TAGS.get(v.tag, "Unknown")))

    def __call__(self, *inputs):
        """Binds inputs (numpy arrays, torch tensors, Python scalars), executes
        and returns the outputs as a list (numpy arrays for tensors)."""
        n = self._lib.ptera_method_input_count(self._h)
        if len(inputs) != n:
            raise PteraError(0x12, "method %s takes %d inputs; %d given" % (self.name, n, len(inputs)))
        self._keep = []
        for i, x in enumerate(inputs):
            self._set_input(i, x)
        self._check(self._lib.ptera_method_execute(self._h))
        return [self._get_output(k) for k in range(self._lib.ptera_method_output_count(self._h))]

    def close(self):
        if getattr(self, "_h", None) and self._h.value:
            self._lib.ptera_method_destroy(self._h)
        self._h = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if _lib is not None:
            self.close()
