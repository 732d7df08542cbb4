"""Captures a torch.nn.Module into an ATen-level, functional FX graph.

torch >= 2 with torch.export: torch.export.export, then run_decompositions.
torch 1.13: make_fx over functorch's functionalize(remove="mutations_and_views"),
with parameters and buffers lifted to explicit graph inputs.

The result (Captured) lists the graph's placeholders with their role:
  ("param", fqn, tensor)  a parameter                      -> CONST
  ("buffer", fqn, tensor) a buffer                         -> CONST, or BUFFER when written
  ("input", index, tensor) a user input
plus the real value every node produced on the example inputs (used for
dtypes and shapes), the set of placeholders the graph writes back
(functionalization's trailing copy_), and per call the modules it was made
from (outermost first, as (fully qualified name, class name); the
quantizers' scope, compiler/quant_scope.h). torch 1.13's make_fx records no
module stack: forward hooks keep one while tracing and every graph node
created meanwhile takes it; torch.export's nn_module_stack gives it there.
"""

import contextlib

import torch
import torch.fx
from torch.utils import _pytree as pytree


class Captured:
    def __init__(self, gm, roles, values, mutated, constants, num_outputs):
        self.gm = gm                  # torch.fx.GraphModule
        self.roles = roles            # placeholder node name -> (role, key, tensor)
        self.values = values          # node name -> real value (tensor / tuple / list / number)
        self.mutated = mutated        # placeholder node names written by a trailing copy_
        self.constants = constants    # get_attr target -> tensor (lifted constants)
        self.num_outputs = num_outputs
        self.dynamic = set()          # node names whose tensors are DYNAMIC_BOUND (dynamic.py)
        self.scopes = {}              # node name -> ((module fqn, class name), ...) outermost first


class _Recorder(torch.fx.Interpreter):
    """Runs the graph on real tensors and keeps every node's result."""

    def __init__(self, gm):
        super().__init__(gm)
        self.results = {}

    def run_node(self, n):
        r = super().run_node(n)
        self.results[n.name] = r
        return r


@contextlib.contextmanager
def _no_fused_fast_paths():
    """nn.TransformerEncoderLayer / MultiheadAttention in eval take fused
    kernels (_transformer_encoder_layer_fwd, _native_multi_head_attention)
    unless some argument 'has_torch_function'. Claim so while tracing so the
    graph holds the decomposed ops the runtime has."""
    import torch.overrides as ov
    saved = ov.has_torch_function
    ov.has_torch_function = lambda args: True
    try:
        yield
    finally:
        ov.has_torch_function = saved


@contextlib.contextmanager
def _setitem_as_index_put():
    """torch 1.13's functionalization fails on `t[:, :, idx] = v` (Python
    __setitem__ with full slices before a tensor index: 'sym_strides() called
    on an undefined Tensor'), while aten::index_put_ with None indices works.
    Route such assignments (keys made only of full slices and tensors)
    through index_put_ while tracing."""
    orig = torch.Tensor.__setitem__

    def setitem(self, key, value):
        k = key if isinstance(key, tuple) else (key,)
        full = slice(None, None, None)
        if (any(isinstance(x, torch.Tensor) for x in k)
                and all(isinstance(x, torch.Tensor) or x == full for x in k)):
            idx = [x if isinstance(x, torch.Tensor) else None for x in k]
            while idx and idx[-1] is None:
                idx.pop()
            if not isinstance(value, torch.Tensor):
                value = torch.tensor(value, dtype=self.dtype)
            torch.ops.aten.index_put_(self, idx, value)
            return
        orig(self, key, value)

    torch.Tensor.__setitem__ = setitem
    try:
        yield
    finally:
        torch.Tensor.__setitem__ = orig


@contextlib.contextmanager
def _module_scopes(module, scopes):
    """While tracing, every fx node created inside a submodule's forward
    gets the stack of modules being run, outermost first: scopes[node] =
    ((fqn, class name), ...). The root module is no entry."""
    names = {}
    for name, mod in module.named_modules():
        if name:
            names.setdefault(id(mod), (name, type(mod).__name__))
    stack = []
    handles = []

    def enter(mod, args):
        stack.append(names[id(mod)])

    def leave(mod, args, out):
        stack.pop()

    for mod in module.modules():  # each module once
        if id(mod) in names:
            handles.append(mod.register_forward_pre_hook(enter))
            handles.append(mod.register_forward_hook(leave))
    create_node = torch.fx.Graph.create_node

    def create_with_scope(graph, *args, **kwargs):
        n = create_node(graph, *args, **kwargs)
        if stack:
            scopes[n] = tuple(stack)
        return n

    torch.fx.Graph.create_node = create_with_scope
    try:
        yield
    finally:
        torch.fx.Graph.create_node = create_node
        for h in handles:
            h.remove()


def _export_scopes(gm):
    """torch.export's nn_module_stack of each node as capture's scopes."""
    out = {}
    for n in gm.graph.nodes:
        stack = n.meta.get("nn_module_stack") or {}
        entries = []
        for path, cls in stack.values():
            name = cls if isinstance(cls, str) else getattr(cls, "__name__", str(cls))
            if path:
                entries.append((path, name.rsplit(".", 1)[-1]))
        if entries:
            out[n.name] = tuple(entries)
    return out


def _state(module):
    """Unique parameter/buffer tensors: list of (role, fqn, tensor, [names])."""
    seen = {}
    out = []
    for mname, mod in module.named_modules(remove_duplicate=False):
        for role, d in (("param", mod._parameters), ("buffer", mod._buffers)):
            for n, t in d.items():
                if t is None:
                    continue
                fqn = mname + "." + n if mname else n
                if id(t) in seen:
                    out[seen[id(t)]][3].append(fqn)
                    continue
                seen[id(t)] = len(out)
                out.append([role, fqn, t, [fqn]])
    return out


def capture(module, example_inputs, method="forward", decompositions=None):
    """Captures module.<method>(*example_inputs). decompositions: a dict
    {OpOverload: fn} applied during tracing (ops the runtime lacks)."""
    module.eval()
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    if hasattr(torch, "export") and hasattr(getattr(torch, "export"), "export"):
        return _capture_export(module, example_inputs, method, decompositions)
    return _capture_make_fx(module, example_inputs, method, decompositions)


def _capture_make_fx(module, example_inputs, method, decompositions):
    from torch.fx.experimental.proxy_tensor import make_fx
    from functorch.experimental import functionalize
    from torch.nn.utils.stateless import _reparametrize_module

    state = _state(module)
    flat_in, in_spec = pytree.tree_flatten(example_inputs)
    tensor_pos = [i for i, x in enumerate(flat_in) if isinstance(x, torch.Tensor)]
    nstate = len(state)
    out_spec = []

    def flat_fn(*flat):
        swap = {}
        for (role, fqn, t, names), v in zip(state, flat[:nstate]):
            for n in names:
                swap[n] = v
        leaves = list(flat_in)
        for p, v in zip(tensor_pos, flat[nstate:]):
            leaves[p] = v
        args = pytree.tree_unflatten(leaves, in_spec)
        with _reparametrize_module(module, swap):
            out = getattr(module, method)(*args)
        outs, spec = pytree.tree_flatten(out)
        out_spec[:] = [spec]
        for o in outs:
            if not isinstance(o, torch.Tensor):
                raise TypeError("ptera: method outputs must be tensors, got %r" % (type(o),))
        return tuple(outs)

    real_state = [t.detach().clone() for (_, _, t, _) in state]
    real_inputs = [flat_in[p] for p in tensor_pos]
    scope_of = {}
    with torch.no_grad(), _no_fused_fast_paths(), _setitem_as_index_put(), \
            _module_scopes(module, scope_of):
        gm = make_fx(functionalize(flat_fn, remove="mutations_and_views"),
                     decomposition_table=decompositions or {})(*real_state, *real_inputs)

    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    roles = {}
    for i, n in enumerate(placeholders):
        if i < nstate:
            role, fqn, t, _ = state[i]
            roles[n.name] = (role, fqn, t.detach())
        else:
            roles[n.name] = ("input", i - nstate, real_inputs[i - nstate])
    constants = {}
    for n in gm.graph.nodes:
        if n.op == "get_attr":
            constants[n.target] = getattr(gm, n.target)
    mutated = set()
    for n in gm.graph.nodes:
        if n.op == "call_function" and n.target is torch.ops.aten.copy_.default:
            dst = n.args[0]
            if isinstance(dst, torch.fx.Node) and dst.op == "placeholder":
                mutated.add(dst.name)
    # Run on fresh copies so the caller's module state is untouched.
    rec = _Recorder(gm)
    with torch.no_grad():
        outs = rec.run(*[t.detach().clone() for (_, _, t, _) in state],
                       *[x.clone() for x in real_inputs])
    c = Captured(gm, roles, rec.results, mutated, constants, len(outs))
    c.scopes = {n.name: scope_of[n] for n in gm.graph.nodes if n in scope_of}
    return c


def _capture_export(module, example_inputs, method, decompositions):
    """torch >= 2.1: torch.export. Buffers the program mutates are written
    back with an explicit copy_ node so the mapping sees the same form as the
    make_fx path."""
    if method != "forward":
        raise NotImplementedError("ptera: methods other than forward need torch 1.13 capture")
    with torch.no_grad(), _no_fused_fast_paths():
        ep = torch.export.export(module, example_inputs)
        ep = ep.run_decompositions(decompositions or {})
    gm = ep.graph_module
    sig = ep.graph_signature
    params = dict(module.named_parameters(remove_duplicate=False))
    buffers = dict(module.named_buffers(remove_duplicate=False))
    inputs_to_params = dict(sig.inputs_to_parameters)
    inputs_to_buffers = dict(sig.inputs_to_buffers)
    inputs_to_consts = dict(getattr(sig, "inputs_to_lifted_tensor_constants", {}) or {})
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    roles = {}
    flat_in = [x for x in pytree.tree_flatten(example_inputs)[0] if isinstance(x, torch.Tensor)]
    k = 0
    constants = {}
    for n in placeholders:
        if n.name in inputs_to_params:
            fqn = inputs_to_params[n.name]
            roles[n.name] = ("param", fqn, params[fqn].detach())
        elif n.name in inputs_to_buffers:
            fqn = inputs_to_buffers[n.name]
            t = buffers[fqn] if fqn in buffers else ep.constants[fqn]
            roles[n.name] = ("buffer", fqn, t.detach())
        elif n.name in inputs_to_consts:
            roles[n.name] = ("const", inputs_to_consts[n.name],
                             ep.constants[inputs_to_consts[n.name]].detach())
        else:
            roles[n.name] = ("input", k, flat_in[k])
            k += 1
    # Rewrite mutated-buffer outputs into trailing copy_ nodes.
    mutations = dict(sig.buffers_to_mutate)
    user_inputs_to_mutate = dict(getattr(sig, "user_inputs_to_mutate", {}) or {})
    out_node = next(n for n in gm.graph.nodes if n.op == "output")
    outs = list(out_node.args[0])
    by_fqn = {v[1]: name for name, v in roles.items() if v[0] == "buffer"}
    by_input = {n.name: n for n in placeholders}
    keep = []
    mutated = set()
    with gm.graph.inserting_before(out_node):
        for o in outs:
            name = o.name if isinstance(o, torch.fx.Node) else None
            if name in mutations or name in user_inputs_to_mutate:
                if name in mutations:
                    dst = by_input[by_fqn[mutations[name]]]
                else:
                    dst = by_input[user_inputs_to_mutate[name]]
                gm.graph.call_function(torch.ops.aten.copy_.default, (dst, o))
                mutated.add(dst.name)
            else:
                keep.append(o)
    out_node.args = (tuple(keep),)
    gm.recompile()
    rec = _Recorder(gm)
    real = []
    for n in placeholders:
        real.append(roles[n.name][2].clone())
    with torch.no_grad():
        rec.run(*real)
    c = Captured(gm, roles, rec.results, mutated, constants, len(keep))
    c.scopes = _export_scopes(gm)
    return c
