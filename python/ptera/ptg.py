"""Writer of the PTG graph interchange (docs/PTG.md).

Pure Python, no torch: tensors are given as a dtype name (ExecuTorch
ScalarType name, e.g. "Float"), sizes and, for CONST/BUFFER tensors, their
raw little-endian bytes. Value ids are handed out in declaration order.
"""

import math

DTYPE_NAMES = (
    "Byte", "Char", "Short", "Int", "Long", "Half", "Float", "Double",
    "ComplexHalf", "ComplexFloat", "ComplexDouble", "Bool", "QInt8", "QUInt8",
    "QInt32", "BFloat16", "QUInt4x2", "QUInt2x4", "Bits1x8", "Bits2x4",
    "Bits4x2", "Bits8", "Bits16", "Float8_e5m2", "Float8_e4m3fn",
    "Float8_e5m2fnuz", "Float8_e4m3fnuz", "UInt16", "UInt32", "UInt64",
)
DTYPE_SIZES = dict(zip(DTYPE_NAMES, (
    1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 1, 1, 4, 2,
    1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 4, 8)))

ALIGN = 16


def escape(s):
    """`str`/`fqn` token escaping: bytes outside '!'..'~' and '%' become %XX."""
    out = []
    for b in s.encode("utf-8"):
        if b < 0x21 or b > 0x7E or b == 0x25:
            out.append("%%%02X" % b)
        else:
            out.append(chr(b))
    return "".join(out)


def unescape(tok):
    raw = bytearray()
    i = 0
    while i < len(tok):
        if tok[i] == "%":
            raw.append(int(tok[i + 1:i + 3], 16))
            i += 3
        else:
            raw.extend(tok[i].encode("utf-8"))
            i += 1
    return raw.decode("utf-8")


def fmt_double(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%.17g" % v


def _join(items, fmt=str):
    items = list(items)
    return ",".join(fmt(x) for x in items) if items else "-"


class Method:
    """One method: values, inputs, outputs, aliases and nodes, in order."""

    def __init__(self, ptg, name):
        self._ptg = ptg
        self.name = name
        self._values = []   # text payloads ("kind payload")
        self.kinds = []     # kind per value id
        self.tensor_info = {}  # id -> (dtype, sizes)
        self._nodes = []    # text lines (node/begin/end)
        self._aliases = []
        self.inputs = []
        self.outputs = []

    # -- values -----------------------------------------------------------
    def _add(self, kind, payload=""):
        vid = len(self._values)
        self._values.append(kind + (" " + payload if payload else ""))
        self.kinds.append(kind)
        return vid

    def none(self):
        return self._add("none")

    def int(self, v):
        return self._add("int", str(int(v)))

    def double(self, v):
        return self._add("double", fmt_double(v))

    def bool(self, v):
        return self._add("bool", "1" if v else "0")

    def str(self, s):
        return self._add("str", escape(s))

    def ints(self, items):
        return self._add("ints", _join(items, lambda x: str(int(x))))

    def doubles(self, items):
        return self._add("doubles", _join(items, fmt_double))

    def bools(self, items):
        return self._add("bools", _join(items, lambda x: "1" if x else "0"))

    def tensors(self, ids):
        for i in ids:
            self._check_tensor(i)
        return self._add("tensors", _join(ids))

    def opt_tensors(self, ids):
        for i in ids:
            if i != -1:
                self._check_tensor(i)
        return self._add("opt_tensors", _join(ids))

    def _check_tensor(self, vid):
        if not (0 <= vid < len(self._values)) or self.kinds[vid] != "tensor":
            raise ValueError("value %r is not a tensor declared before use" % (vid,))

    def tensor(self, dtype, sizes, const=None, buffer=None, fqn=None, dim_order=None,
               dyn=None):
        """Declares a tensor. const/buffer: its raw bytes (dense, little-endian)."""
        if dtype not in DTYPE_SIZES:
            raise ValueError("unknown dtype name %r" % (dtype,))
        sizes = [int(s) for s in sizes]
        attrs = []
        data = const if const is not None else buffer
        if const is not None and buffer is not None:
            raise ValueError("a tensor is const or buffer, not both")
        if data is not None:
            numel = 1
            for s in sizes:
                numel *= s
            nbytes = numel * DTYPE_SIZES[dtype]
            if len(data) != nbytes:
                raise ValueError("tensor data is %d bytes, expected %d" % (len(data), nbytes))
            off = self._ptg._add_data(data)
            attrs.append("%s=%d:%d" % ("const" if const is not None else "buffer", off, nbytes))
        if fqn is not None:
            attrs.append("fqn=" + escape(fqn))
        if dim_order is not None and list(dim_order) != list(range(len(sizes))):
            attrs.append("dim_order=" + ",".join(str(int(d)) for d in dim_order))
        if dyn is not None:
            attrs.append("dyn=" + dyn)
        payload = dtype + " " + _join(sizes)
        if attrs:
            payload += " " + " ".join(attrs)
        vid = self._add("tensor", payload)
        self.tensor_info[vid] = (dtype, sizes)
        return vid

    # -- structure --------------------------------------------------------
    def alias(self, a, b):
        self._aliases.append((a, b))

    def node(self, op, args, written=(), scope=()):
        """A kernel call; args are value ids, `written` the set of written ones
        (by position: an index into args). scope: the modules the call was
        made from, outermost first, as (fully qualified name, class name)."""
        toks = []
        for i, a in enumerate(args):
            if not (0 <= a < len(self._values)):
                raise ValueError("%s: argument %d refers to undeclared value %r" % (op, i, a))
            toks.append(("!%d" if i in written else "%d") % a)
        for path, type_name in scope:
            if not path or not type_name:
                raise ValueError("%s: a module scope needs a name and a type, got %r"
                                 % (op, (path, type_name)))
            toks.append("scope=%s:%s" % (escape(path), escape(type_name).replace(":", "%3A")))
        self._nodes.append("node " + op + (" " + " ".join(toks) if toks else ""))

    def begin(self, kind):
        self._nodes.append("begin " + kind)

    def end(self):
        self._nodes.append("end")

    def lines(self):
        out = ["method " + escape(self.name)]
        for i, v in enumerate(self._values):
            out.append("value %d %s" % (i, v))
        out.append("inputs" + "".join(" %d" % i for i in self.inputs))
        out.append("outputs" + "".join(" %d" % i for i in self.outputs))
        for a, b in self._aliases:
            out.append("alias %d %d" % (a, b))
        out.extend(self._nodes)
        return out


class Ptg:
    """A .ptg file: methods plus one shared data section."""

    def __init__(self):
        self.methods = []
        self._data = bytearray()

    def method(self, name):
        if any(m.name == name for m in self.methods):
            raise ValueError("duplicate method name %r" % (name,))
        m = Method(self, name)
        self.methods.append(m)
        return m

    def _add_data(self, data):
        pad = (-len(self._data)) % ALIGN
        self._data.extend(b"\0" * pad)
        off = len(self._data)
        self._data.extend(data)
        return off

    def to_bytes(self):
        if not self.methods:
            raise ValueError("a .ptg needs at least one method")
        lines = ["ptg 1"]
        for m in self.methods:
            lines.extend(m.lines())
        text = "\n".join(lines) + "\n"
        out = text.encode("utf-8")
        if self._data:
            data = bytes(self._data) + b"\0" * ((-len(self._data)) % ALIGN)
            out += ("data %d\n" % len(data)).encode("ascii") + data
        return out

    def write(self, path):
        with open(path, "wb") as f:
            f.write(self.to_bytes())
