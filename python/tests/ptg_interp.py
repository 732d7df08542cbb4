"""A reference PTG interpreter for the tests only: parses a .ptg and runs
each node with torch's own out-variant ops, resolved by name. Operators
torch does not have (ExecuTorch-only overloads) have small Python fallbacks.
Not part of the package: the runtime is `ptera run`."""

import re

import torch

from ptera import ptg as P
from ptera.opmap import ET_SCHEMAS, get_schema, is_out

# The enum codes a .ptg carries, written out here from ExecuTorch's
# ScalarType (runtime/core/portable_type/scalar_type.h, the c10 numbering) and
# c10::MemoryFormat rather than taken from ptera.opmap: the interpreter is the
# reference the captures are checked against, so a wrong code in the code
# under test must show up as a mismatch, not be decoded back the same way.
CODE_DTYPE = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
              5: torch.float16, 6: torch.float32, 7: torch.float64, 9: torch.complex64,
              10: torch.complex128, 11: torch.bool,
              15: torch.bfloat16}
CODE_MF = {0: torch.contiguous_format, 1: torch.preserve_format, 2: torch.channels_last,
           3: torch.channels_last_3d}
NAME_DTYPE = {
    "Byte": torch.uint8, "Char": torch.int8, "Short": torch.int16, "Int": torch.int32,
    "Long": torch.int64, "Half": torch.float16, "Float": torch.float32,
    "Double": torch.float64, "Bool": torch.bool, "BFloat16": torch.bfloat16,
    "ComplexFloat": torch.complex64, "ComplexDouble": torch.complex128,
}


def _ints(tok):
    return [] if tok == "-" else [int(x) for x in tok.split(",")]


class Method:
    def __init__(self, name):
        self.name = name
        self.values = []   # (kind, payload python object)
        self.inputs = []
        self.outputs = []
        self.aliases = []
        self.nodes = []    # (op, [(id, written)]) or ("begin"/"end", kind)


def parse(data):
    nl_data = data.find(b"\ndata ")
    if nl_data >= 0:
        end = data.index(b"\n", nl_data + 1)
        text = data[:nl_data + 1].decode("utf-8")
        dline = data[nl_data + 1:end].decode()
        nbytes = int(dline.split()[1])
        blob = data[end + 1:]
        assert len(blob) == nbytes, (len(blob), nbytes)
    else:
        text, blob = data.decode("utf-8"), b""
    lines = [l for l in text.split("\n") if l and not l.startswith("#")]
    assert lines[0] == "ptg 1", lines[0]
    methods = []
    m = None
    for line in lines[1:]:
        t = line.split(" ")
        if t[0] == "method":
            m = Method(P.unescape(t[1]))
            methods.append(m)
        elif t[0] == "value":
            assert int(t[1]) == len(m.values), line
            kind = t[2]
            if kind == "none":
                v = None
            elif kind == "int":
                v = int(t[3])
            elif kind == "double":
                v = float(t[3])
            elif kind == "bool":
                v = t[3] == "1"
            elif kind == "str":
                v = P.unescape(t[3])
            elif kind in ("ints", "tensors", "opt_tensors"):
                v = _ints(t[3])
            elif kind == "doubles":
                v = [] if t[3] == "-" else [float(x) for x in t[3].split(",")]
            elif kind == "bools":
                v = [] if t[3] == "-" else [x == "1" for x in t[3].split(",")]
            elif kind == "tensor":
                attrs = dict(a.split("=", 1) for a in t[5:])
                v = {"dtype": NAME_DTYPE[t[3]], "sizes": _ints(t[4]), **attrs}
                for k in ("const", "buffer"):
                    if k in attrs:
                        off, n = (int(x) for x in attrs[k].split(":"))
                        assert off % 16 == 0
                        v["data"] = blob[off:off + n]
                        v["store"] = k
            else:
                raise ValueError(line)
            m.values.append((kind, v))
        elif t[0] == "inputs":
            m.inputs = [int(x) for x in t[1:]]
        elif t[0] == "outputs":
            m.outputs = [int(x) for x in t[1:]]
        elif t[0] == "alias":
            m.aliases.append((int(t[1]), int(t[2])))
        elif t[0] == "node":
            args = [(int(a.lstrip("!")), a.startswith("!")) for a in t[2:]
                    if not a.startswith("scope=")]
            m.nodes.append((t[1], args))
        elif t[0] in ("begin", "end"):
            m.nodes.append((t[0], t[1:]))
        else:
            raise ValueError(line)
    return methods


def _fallback(name, a):
    """ExecuTorch-only overloads, by name; a: argument dict."""
    if name == "aten::_native_batch_norm_legit_no_training.out":
        r = torch.nn.functional.batch_norm(a["input"], a["running_mean"], a["running_var"],
                                           a["weight"], a["bias"], False, a["momentum"],
                                           a["eps"])
        a["out0"].resize_(r.shape).copy_(r)
        a["out1"].resize_(0)
        a["out2"].resize_(0)
        return
    if name == "dim_order_ops::_to_dim_order_copy.out":
        a["out"].resize_(a["self"].shape).copy_(a["self"])
        return
    if name == "aten::mean.dtype_out":
        a["out"].resize_(()).copy_(a["self"].mean(dtype=a["dtype"]))
        return
    if name == "aten::squeeze_copy.dims_out":
        r = a["self"]
        for d in sorted((d % max(r.dim(), 1) for d in a["dim"]), reverse=True):
            if r.dim() and r.shape[d] == 1:
                r = r.squeeze(d)
        a["out"].resize_(r.shape).copy_(r)
        return
    if name in ("aten::max.unary_out", "aten::min.unary_out"):
        r = a["self"].max() if "max" in name else a["self"].min()
        a["out"].resize_(()).copy_(r)
        return
    raise NotImplementedError(name)


class Interpreter:
    def __init__(self, method):
        self.m = method
        self.state = {}  # buffer values persist across runs
        for i, (kind, v) in enumerate(method.values):
            if kind == "tensor" and v.get("store") == "buffer":
                self.state[i] = self._from_bytes(v)

    @staticmethod
    def _from_bytes(v):
        raw = bytearray(v["data"])
        t = torch.empty(v["sizes"], dtype=v["dtype"])
        if raw:
            t.reshape(-1).view(torch.uint8).copy_(torch.frombuffer(raw, dtype=torch.uint8))
        return t

    def run(self, *inputs):
        m = self.m
        env = {}
        for i, (kind, v) in enumerate(m.values):
            if kind == "tensor":
                if v.get("store") == "const":
                    env[i] = self._from_bytes(v)
                elif v.get("store") == "buffer":
                    env[i] = self.state[i]
                else:
                    env[i] = torch.empty(v["sizes"], dtype=v["dtype"])
            elif kind in ("tensors", "opt_tensors"):
                env[i] = ("list", v)
            else:
                env[i] = v
        assert len(inputs) == len(m.inputs)
        for i, x in zip(m.inputs, inputs):
            kind, v = m.values[i]
            assert x.dtype == v["dtype"] and list(x.shape) == v["sizes"], (x.dtype, x.shape, v)
            env[i] = x.clone()

        def get(i):
            x = env[i]
            if isinstance(x, tuple) and x and x[0] == "list":
                return [None if j == -1 else env[j] for j in x[1]]
            return x

        for op, args in m.nodes:
            if op in ("begin", "end"):
                continue
            schema = get_schema(op)
            assert schema is not None, op
            enum = dict((mm.group(2), mm.group(1)) for mm in
                        re.finditer(r"(ScalarType|MemoryFormat|Layout)\??\s+(\w+)", str(schema)))
            assert len(args) == len(schema.arguments), (op, len(args), str(schema))
            named = {}
            for sa, (vid, w) in zip(schema.arguments, args):
                x = get(vid)
                if enum.get(sa.name) == "ScalarType" and isinstance(x, int):
                    x = CODE_DTYPE[x]
                if enum.get(sa.name) == "MemoryFormat" and isinstance(x, int):
                    x = CODE_MF[x]
                named[sa.name] = x
                if w:
                    assert is_out(sa) or sa.name == "self", (op, sa.name)
            if op in ET_SCHEMAS:
                _fallback(op, named)
                continue
            ns, rest = op.split("::", 1)
            base, _, ov = rest.partition(".")
            fn = getattr(getattr(getattr(torch.ops, ns), base), ov or "default")
            pos = [named[a.name] for a in schema.arguments if not a.kwarg_only]
            kw = {a.name: named[a.name] for a in schema.arguments if a.kwarg_only}
            fn(*pos, **kw)
        return [env[i] for i in m.outputs]


def load(path_or_bytes, method="forward"):
    data = path_or_bytes
    if isinstance(data, str):
        with open(data, "rb") as f:
            data = f.read()
    for m in parse(data):
        if m.name == method:
            return Interpreter(m)
    raise KeyError(method)
