"""Maps a captured ATen graph onto the runtime's registered out-variant
kernels and writes it as one PTG method.

For every call the mapper picks the overload of the same operator packet
whose schema has out arguments, whose non-out arguments match the call's, and
whose name is registered (kernels/ops.def, or `ptera ops`). Arguments follow
that schema (defaults filled in), out arguments last as fresh written
activation tensors with the dtype and shape the node produced. Ops without a
registered out variant are decomposed while tracing (decompositions()); what
still does not map raises UnsupportedOp naming the op.

No optimisation happens here: no folding, no dedup, no planning.
"""

import operator
import os
import re
import subprocess

import torch

from . import ptg as ptg_mod

aten = torch.ops.aten


class UnsupportedOp(Exception):
    pass


# torch.dtype -> ExecuTorch ScalarType (value, name)
_DTYPES = [
    (torch.uint8, 0, "Byte"), (torch.int8, 1, "Char"), (torch.int16, 2, "Short"),
    (torch.int32, 3, "Int"), (torch.int64, 4, "Long"), (torch.float16, 5, "Half"),
    (torch.float32, 6, "Float"), (torch.float64, 7, "Double"),
    (torch.complex64, 9, "ComplexFloat"), (torch.complex128, 10, "ComplexDouble"),
    (torch.bool, 11, "Bool"), (torch.bfloat16, 15, "BFloat16"),
]
if hasattr(torch, "complex32"):
    _DTYPES.append((torch.complex32, 8, "ComplexHalf"))
DTYPE_CODE = {d: c for d, c, _ in _DTYPES}
DTYPE_NAME = {d: n for d, _, n in _DTYPES}
MEMORY_FORMAT_CODE = {torch.contiguous_format: 0, torch.preserve_format: 1,
                      torch.channels_last: 2, torch.channels_last_3d: 3}
LAYOUT_CODE = {torch.strided: 0, torch.sparse_coo: 1}

# Schemas of registered overloads the installed torch may not know.
ET_SCHEMAS = {
    "aten::_native_batch_norm_legit_no_training.out":
        "aten::_native_batch_norm_legit_no_training.out(Tensor input, Tensor? weight, "
        "Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps, *, "
        "Tensor(a!) out0, Tensor(b!) out1, Tensor(c!) out2) -> "
        "(Tensor(a!), Tensor(b!), Tensor(c!))",
    "dim_order_ops::_to_dim_order_copy.out":
        "dim_order_ops::_to_dim_order_copy.out(Tensor self, *, bool non_blocking=False, "
        "int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)",
    "aten::mean.dtype_out":
        "aten::mean.dtype_out(Tensor self, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
    "aten::squeeze_copy.dims_out":
        "aten::squeeze_copy.dims_out(Tensor self, int[] dim, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::any.dims_out":
        "aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, "
        "Tensor(a!) out) -> Tensor(a!)",
    "aten::max.unary_out": "aten::max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
    "aten::min.unary_out": "aten::min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
}

# Functional arguments an out variant expresses through its out tensor.
_DROPPABLE = {"dtype", "layout", "device", "pin_memory"}


# ---------------------------------------------------------------------------
# The registered set

def _package_root():
    return os.path.dirname(os.path.abspath(__file__))


def find_ops_def():
    p = os.path.join(_package_root(), "..", "..", "kernels", "ops.def")
    return os.path.normpath(p) if os.path.exists(p) else None


def parse_ops_def(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r'PTERA_OP(?:_PREPARED)?\(\s*"([^"]+)"', text))


_REGISTERED = None


def registered_ops(ptera_bin=None):
    """The registered overload names: kernels/ops.def next to this package,
    else the output of `ptera ops`."""
    global _REGISTERED
    if _REGISTERED is not None:
        return _REGISTERED
    p = find_ops_def()
    if p:
        with open(p) as f:
            _REGISTERED = parse_ops_def(f.read())
        return _REGISTERED
    from . import find_ptera
    exe = ptera_bin or find_ptera()
    out = subprocess.run([exe, "ops"], check=True, capture_output=True, text=True).stdout
    _REGISTERED = set(re.findall(r"[A-Za-z_][\w]*::[\w.]+", out))
    return _REGISTERED


def op_name(op):
    """'aten::add.Tensor' for an OpOverload (default overload: no suffix)."""
    s = op._schema
    return s.name + ("." + s.overload_name if s.overload_name else "")


_SCHEMA_CACHE = {}


def get_schema(name):
    if name in _SCHEMA_CACHE:
        return _SCHEMA_CACHE[name]
    sch = None
    if name in ET_SCHEMAS:
        sch = torch._C.parse_schema(ET_SCHEMAS[name])
    else:
        ns, rest = name.split("::", 1)
        base, _, ov = rest.partition(".")
        try:
            sch = getattr(getattr(getattr(torch.ops, ns), base), ov or "default")._schema
        except (AttributeError, RuntimeError):
            sch = None
    _SCHEMA_CACHE[name] = sch
    return sch


def is_out(arg):
    if getattr(arg, "is_out", False):
        return True
    ai = arg.alias_info
    return bool(arg.kwarg_only and ai is not None and ai.is_write)


def _candidates(op):
    """Registered out-variant overload names of op's packet."""
    s = op._schema
    prefix = s.name + "."
    reg = registered_ops()
    out = []
    for name in sorted(reg):
        if name.startswith(prefix) or name == s.name:
            sch = get_schema(name)
            if sch is not None and any(is_out(a) for a in sch.arguments):
                out.append(name)
    return out


def _is_tensor_type(t):
    return str(t) in ("Tensor", "Optional[Tensor]")


def _match(fs, cand, bound=None):
    """Does out schema cand take exactly fs's arguments (modulo dtype/layout/
    device/pin_memory)? Returns a score (higher is better) or None."""
    ins = [a for a in cand.arguments if not is_out(a)]
    fargs = {a.name: a for a in fs.arguments}
    names = {a.name for a in ins}
    for n in fargs:
        if n not in names and n not in _DROPPABLE and n != "memory_format":
            return None
        if n == "memory_format" and n not in names and bound is not None:
            mf = bound.get(n)
            if mf not in (None, torch.preserve_format, torch.contiguous_format):
                return None
    score = 0
    for a in ins:
        if a.name not in fargs:
            if not a.has_default_value():
                return None
            continue
        ft, ct = str(fargs[a.name].type), str(a.type)
        if ft == ct:
            score += 2
            continue
        if _is_tensor_type(ft) and ct == "number":
            # a Python number passed where the functional op takes a Tensor
            if bound is None or not isinstance(bound.get(a.name), (int, float, bool)):
                return None
            score += 3
            continue
        if ft == "number" and _is_tensor_type(ct):
            continue  # a Scalar passed as a 0-d constant tensor
        if _is_tensor_type(ft) != _is_tensor_type(ct):
            return None
        score += 1
    return score


def find_out_variant(op, bound=None):
    """(name, schema) of the registered out variant for OpOverload op, or None."""
    fs = op._schema
    best = None
    for name in _candidates(op):
        sch = get_schema(name)
        sc = _match(fs, sch, bound)
        if sc is not None and (best is None or sc > best[0]):
            best = (sc, name, sch)
    return None if best is None else best[1:]


# ---------------------------------------------------------------------------
# Renames: functional ops whose runtime kernel is another operator.
# Each returns (target name, {arg name: value}) from the bound functional args.

def _r_view(b):
    return "aten::view_copy.out", {"self": b["self"], "size": b.get("size", b.get("shape"))}


def _r_to_copy(b):
    mf = b.get("memory_format")
    if mf not in (None, torch.preserve_format, torch.contiguous_format):
        raise UnsupportedOp("_to_copy with memory_format=%s" % (mf,))
    return "dim_order_ops::_to_dim_order_copy.out", {
        "self": b["self"], "non_blocking": bool(b.get("non_blocking", False)), "dim_order": None}


def _r_bn_no_training(b):
    if b.get("training"):
        raise UnsupportedOp("aten::native_batch_norm in training mode")
    return "aten::_native_batch_norm_legit_no_training.out", {
        k: b[k] for k in ("input", "weight", "bias", "running_mean", "running_var",
                          "momentum", "eps")}


def _r_sum(b):
    return "aten::sum.IntList_out", {"self": b["self"], "dim": None, "keepdim": False,
                                     "dtype": b.get("dtype")}


def _r_mean(b):
    return "aten::mean.dtype_out", {"self": b["self"], "dtype": b.get("dtype")}


def _r_max(b):
    return "aten::max.unary_out", {"self": b["self"]}


def _r_min(b):
    return "aten::min.unary_out", {"self": b["self"]}


def _r_squeeze_dims(b):
    return "aten::squeeze_copy.dims_out", {"self": b["self"], "dim": b["dim"]}


def _r_like(value):
    def r(b):
        return "aten::full_like.out", {"self": b["self"], "fill_value": value,
                                       "memory_format": b.get("memory_format")}
    return r


def _r_new(target, value=None):
    def r(b):
        a = {"size": b["size"]}
        if target == "aten::full.out":
            a["fill_value"] = b["fill_value"] if value is None else value
        return target, a
    return r


RENAMES = {
    "aten::ones_like": _r_like(1), "aten::zeros_like": _r_like(0),
    "aten::new_zeros": _r_new("aten::zeros.out"), "aten::new_ones": _r_new("aten::ones.out"),
    "aten::new_full": _r_new("aten::full.out"), "aten::new_empty": _r_new("aten::empty.out"),
    "aten::view": _r_view, "aten::view_copy": _r_view, "aten::_unsafe_view": _r_view,
    "aten::reshape": _r_view, "aten::_reshape_alias_copy": _r_view,
    "aten::_reshape_alias": _r_view, "aten::_unsafe_view_copy": _r_view,
    "aten::_to_copy": _r_to_copy,
    "aten::native_batch_norm": _r_bn_no_training,
    "aten::_native_batch_norm_legit_no_training": _r_bn_no_training,
    "aten::sum": _r_sum,
    "aten::mean": _r_mean,
    "aten::max": _r_max,
    "aten::min": _r_min,
    "aten::squeeze_copy.dims": _r_squeeze_dims,
}
# Renames that only apply to one overload (the packet's others map generically).
_RENAME_OVERLOADS = {"aten::sum": "default", "aten::mean": "default", "aten::max": "default",
                     "aten::min": "default", "aten::view": "default"}


def _rename_for(op):
    full = op_name(op)
    if full in RENAMES:
        return RENAMES[full]
    base = op._schema.name
    if base in RENAMES:
        only = _RENAME_OVERLOADS.get(base)
        if only is None or (op._schema.overload_name or "default") == only:
            return RENAMES[base]
    return None


def _copy_twin(op):
    s = op._schema
    ns, base = s.name.split("::", 1)
    try:
        pk = getattr(getattr(torch.ops, ns), base + "_copy")
        return getattr(pk, s.overload_name or "default")
    except (AttributeError, RuntimeError):
        return None


def is_mappable(op):
    if op in (aten.copy_.default,):
        return True
    if _rename_for(op) is not None:
        return True
    twin = _copy_twin(op)
    if twin is not None and twin is not op and is_mappable(twin):
        return True
    # A call with Python numbers may need the .Scalar_out overload: accept
    # the op when any candidate matches either way.
    fs = op._schema
    for name in _candidates(op):
        if _match(fs, get_schema(name)) is not None:
            return True
        fake = {a.name: 1.0 for a in fs.arguments if _is_tensor_type(a.type)}
        if _match(fs, get_schema(name), fake) is not None:
            return True
    return False


def _baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    r = torch.bmm(batch1, batch2)
    if alpha != 1:
        r = r * alpha
    if beta == 0:
        return r
    return r + (self if beta == 1 else self * beta)


def _addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    r = torch.bmm(batch1, batch2).sum(0)
    if alpha != 1:
        r = r * alpha
    if beta == 0:
        return r
    return r + (self if beta == 1 else self * beta)


# Decompositions of our own, for unregistered ops torch._decomp lacks here.
EXTRA_DECOMPOSITIONS = {
    aten.baddbmm.default: _baddbmm,
    aten.addbmm.default: _addbmm,
}


def decompositions():
    """torch._decomp decompositions for exactly the ops that do not map."""
    from torch._decomp import decomposition_table
    table = {op: fn for op, fn in EXTRA_DECOMPOSITIONS.items() if not is_mappable(op)}
    for op, fn in decomposition_table.items():
        if not isinstance(op, torch._ops.OpOverload):
            continue
        try:
            ok = is_mappable(op)
        except Exception:
            ok = False
        if not ok and op not in table:
            table[op] = fn
    return table


# ---------------------------------------------------------------------------
# Lowering one captured graph into a ptg.Method

_KIND_RE = re.compile(r"(ScalarType|MemoryFormat|Layout|Device)\??\s+(\w+)")


def _enum_args(schema):
    """Argument name -> 'ScalarType' / 'MemoryFormat' / ... from the schema text."""
    return {m.group(2): m.group(1) for m in _KIND_RE.finditer(str(schema))}


def _tensor_bytes(t):
    t = t.detach().contiguous().cpu()
    if t.numel() == 0:
        return b""
    return t.reshape(-1).view(torch.uint8).numpy().tobytes()


def _bind(fs, args, kwargs):
    bound = {}
    pos = [a for a in fs.arguments if not a.kwarg_only]
    for a, v in zip(pos, args):
        bound[a.name] = v
    for k, v in kwargs.items():
        bound[k] = v
    return bound


class Lowerer:
    def __init__(self, captured, method):
        self.c = captured
        self.m = method
        self.env = {}

    # -- value helpers ------------------------------------------------------
    def _new_tensor(self, t, **kw):
        if not isinstance(t, torch.Tensor):
            raise UnsupportedOp("expected a tensor result, got %r" % (type(t),))
        if t.dtype not in DTYPE_NAME:
            raise UnsupportedOp("dtype %s has no ExecuTorch ScalarType" % (t.dtype,))
        return self.m.tensor(DTYPE_NAME[t.dtype], list(t.shape), **kw)

    def _const_tensor(self, t, fqn=None):
        return self._new_tensor(t, const=_tensor_bytes(t), fqn=fqn)

    def _scalar_tensor(self, v, like):
        if isinstance(like, torch.Tensor):
            dt = torch.result_type(like, v)
        else:
            dt = torch.bool if isinstance(v, bool) else (
                torch.int64 if isinstance(v, int) else torch.get_default_dtype())
        return self._const_tensor(torch.tensor(v, dtype=dt))

    def _tensor_id(self, v):
        if isinstance(v, torch.fx.Node):
            r = self.env[v.name]
            if isinstance(r, list):
                raise UnsupportedOp("a multi-output value used as one tensor")
            return r
        if isinstance(v, torch.Tensor):
            return self._const_tensor(v)
        raise UnsupportedOp("expected a tensor argument, got %r" % (v,))

    def _encode(self, v, arg, kinds, like):
        t = str(arg.type)
        kind = kinds.get(arg.name)
        if v is None:
            return self.m.none()
        if isinstance(v, torch.dtype):
            return self.m.int(DTYPE_CODE[v])
        if isinstance(v, torch.memory_format):
            return self.m.int(MEMORY_FORMAT_CODE[v])
        if isinstance(v, torch.layout):
            return self.m.int(LAYOUT_CODE.get(v, 0))
        if isinstance(v, torch.device):
            return self.m.int(0)
        if "Tensor" in t and "List" in t:
            ids = [-1 if x is None else self._tensor_id(x) for x in v]
            if "Optional[Tensor]" in t:
                return self.m.opt_tensors(ids)
            return self.m.tensors(ids)
        if _is_tensor_type(t):
            if isinstance(v, (bool, int, float)):
                return self._scalar_tensor(v, like)
            return self._tensor_id(v)
        if isinstance(v, torch.fx.Node):
            raise UnsupportedOp("a computed value (%s) where %s takes a %s"
                                % (v.name, arg.name, t))
        if isinstance(v, (list, tuple)):
            if "float" in t:
                return self.m.doubles([float(x) for x in v])
            if "bool" in t:
                return self.m.bools([bool(x) for x in v])
            return self.m.ints([int(x) for x in v])
        if "List" in t and isinstance(v, int) and not isinstance(v, bool):
            return self.m.ints([v])  # int[1] dim given as an int
        if isinstance(v, bool):
            return self.m.bool(v)
        if isinstance(v, int):
            return self.m.int(v)
        if isinstance(v, float):
            if kind is None and t in ("int", "Optional[int]"):
                return self.m.int(int(v))
            return self.m.double(v)
        if isinstance(v, str):
            return self.m.str(v)
        raise UnsupportedOp("cannot encode %r for argument %s (%s)" % (v, arg.name, t))

    # -- the graph ----------------------------------------------------------
    def lower(self):
        c = self.c
        inputs = {}
        for n in c.gm.graph.nodes:
            if n.op == "placeholder":
                role, key, t = c.roles[n.name]
                if role == "input":
                    vid = self._new_tensor(t, dyn="bound" if n.name in c.dynamic else None)
                    inputs[key] = vid
                elif role in ("param", "buffer") and n.name in c.mutated:
                    vid = self._new_tensor(t, buffer=_tensor_bytes(t), fqn=key)
                elif role in ("param", "buffer"):
                    vid = self._const_tensor(t, fqn=key)
                else:  # lifted constant (torch.export)
                    vid = self._const_tensor(t)
                self.env[n.name] = vid
            elif n.op == "get_attr":
                self.env[n.name] = self._const_tensor(c.constants[n.target])
            elif n.op == "call_function":
                self._call(n)
            elif n.op == "output":
                outs = n.args[0]
                if not isinstance(outs, (list, tuple)):
                    outs = [outs]
                self.m.outputs = [self._tensor_id(o) for o in outs]
            else:
                raise UnsupportedOp("fx node kind %s" % (n.op,))
        self.m.inputs = [inputs[k] for k in sorted(inputs)]

    def _call(self, n):
        tgt = n.target
        if tgt is operator.getitem:
            src = self.env[n.args[0].name]
            self.env[n.name] = src[n.args[1]]
            return
        if not isinstance(tgt, torch._ops.OpOverload):
            raise UnsupportedOp("call to %r (not an ATen operator)" % (tgt,))
        if tgt.overloadpacket is aten._assert_async and not n.users:
            # A runtime check (torch._assert_async; .msg on newer torch) is
            # dropped like upstream's RemoveAssertAsyncPass; `ptera compile`
            # removes the condition's now-dead nodes.
            return
        if tgt is aten.copy_.default:
            dst = self._tensor_id(n.args[0])
            src = self._tensor_id(n.args[1])
            nb = self.m.bool(bool(n.kwargs.get("non_blocking", n.args[2] if len(n.args) > 2
                                               else False)))
            self.m.node("aten::copy_", [dst, src, nb], written={0},
                        scope=self.c.scopes.get(n.name, ()))
            self.env[n.name] = dst
            return
        fs = tgt._schema
        bound = _bind(fs, n.args, n.kwargs)
        name = op_name(tgt)
        if (name in registered_ops() and fs.arguments and not any(is_out(a) for a in fs.arguments)
                and fs.arguments[0].alias_info is not None and fs.arguments[0].alias_info.is_write):
            # a registered in-place kernel (index_put_ from a decomposition)
            kinds = _enum_args(fs)
            like = self.c.values.get(n.args[0].name)
            args = []
            for a in fs.arguments:
                v = bound[a.name] if a.name in bound else a.default_value
                args.append(self._encode(v, a, kinds, like))
            self.m.node(name, args, written={0}, scope=self.c.scopes.get(n.name, ()))
            self.env[n.name] = args[0]
            return
        rename = _rename_for(tgt)
        if rename is not None:
            target, bound = rename(bound)
            schema = get_schema(target)
            if target not in registered_ops():
                raise UnsupportedOp("%s maps to %s, which the runtime does not register"
                                    % (op_name(tgt), target))
        else:
            found = find_out_variant(tgt, bound)
            if found is None:
                # A view op a decomposition emitted below functionalization:
                # its *_copy twin computes the same values.
                twin = _copy_twin(tgt)
                if twin is not None:
                    found = find_out_variant(twin, bound)
            if found is None:
                raise UnsupportedOp(
                    "no registered out variant for %s (node %s); add a kernel or a "
                    "decomposition" % (op_name(tgt), n.name))
            target, schema = found
        kinds = _enum_args(schema)
        like = None
        for v in bound.values():
            if isinstance(v, torch.fx.Node):
                t = self.c.values.get(v.name)
                if isinstance(t, torch.Tensor) and (like is None or like.dtype == torch.bool):
                    like = t
        args = []
        for a in schema.arguments:
            if is_out(a):
                continue
            if a.name in bound:
                v = bound[a.name]
            elif a.has_default_value():
                v = a.default_value
            else:
                raise UnsupportedOp("%s: no value for argument %s of %s"
                                    % (op_name(tgt), a.name, target))
            args.append(self._encode(v, a, kinds, like))
        outs = [a for a in schema.arguments if is_out(a)]
        result = self.c.values[n.name]
        dyn = "bound" if n.name in self.c.dynamic else None
        written = set()
        if len(outs) == 1 and "List" in str(outs[0].type):
            ids = [self._new_tensor(r, dyn=dyn) for r in result]
            written.add(len(args))
            args.append(self.m.tensors(ids))
            self.env[n.name] = ids
        else:
            res = list(result) if isinstance(result, (tuple, list)) else [result]
            if len(res) != len(outs):
                raise UnsupportedOp("%s returns %d tensors but %s has %d out arguments"
                                    % (op_name(tgt), len(res), target, len(outs)))
            ids = [self._new_tensor(r, dyn=dyn) for r in res]
            for i in ids:
                written.add(len(args))
                args.append(i)
            self.env[n.name] = ids if isinstance(result, (tuple, list)) else ids[0]
        self.m.node(target, args, written=written, scope=self.c.scopes.get(n.name, ()))


def to_ptg(captured, method_name="forward", ptg=None):
    """Writes captured as a method of a ptg.Ptg (a new one unless given)."""
    ptg = ptg or ptg_mod.Ptg()
    m = ptg.method(method_name)
    Lowerer(captured, m).lower()
    return ptg
