"""Dynamic input shapes for export (ptera.export(..., dynamic_shapes=...)).

dynamic_shapes has one entry per example input, in order: None for a static
input, or a dict {dim: bound} where bound is (min, max), an int max (min 1),
or an object with .min and .max (torch.export.Dim). For example, a batch
dimension of 1 to 8 on the first input:

    ptera.export(model, (x,), "m.pte", dynamic_shapes=({0: (1, 8)},))

The program is captured with the dynamic dims at their maximum, at a second
size (max - 1) and at their minimum. Every tensor whose shape differs between the two is written
DYNAMIC_BOUND with the maximum-size shape as its bound (the runtime resizes
it within that bound, and plans its memory at the bound). The two captures
must be the same graph: control flow on a size, or a size baked into an
operator argument that cannot be expressed another way (a view's size is
rewritten with -1 for its one dynamic entry, an expand's with -1 where it
keeps a dynamic input dim; a view to its input's own shape is dropped),
fails with DynamicShapeError.

An operator whose output shape depends on the input *values* (nonzero,
masked_select, unique, ...) fails export whether or not shapes are dynamic:
its shape would otherwise be fixed silently at the example's result."""

import torch

from .errors import DynamicShapeError

# Output shape depends on the values, not only the shapes, of the inputs.
DATA_DEPENDENT = {
    "aten::nonzero", "aten::nonzero_numpy", "aten::masked_select", "aten::unique",
    "aten::_unique", "aten::_unique2", "aten::unique_consecutive", "aten::unique_dim",
    "aten::unique_dim_consecutive", "aten::repeat_interleave", "aten::argwhere",
}
# Expands whose size argument may take -1 (keep the input's dim) where it
# follows a dynamic input dim.
EXPANDS = {"aten::expand", "aten::expand_copy"}
# Views whose size argument may take -1 for one dynamic entry.
VIEWS = {"aten::view", "aten::view_copy", "aten::_unsafe_view", "aten::reshape",
         "aten::_reshape_alias", "aten::_reshape_alias_copy"}


def _op_name(target):
    return target._schema.name if hasattr(target, "_schema") else str(target)


def check_data_dependent(captured):
    """Raises DynamicShapeError on the first data-dependent-shape operator."""
    for n in captured.gm.graph.nodes:
        if n.op == "call_function" and _op_name(n.target) in DATA_DEPENDENT:
            raise DynamicShapeError(
                "node %s (%s): its output shape depends on the input values (here %s), not only "
                "on their shapes, so a program cannot fix it or bound it at export. Compute it "
                "outside the model, or use a fixed-size form (e.g. torch.where over a mask)."
                % (n.name, _op_name(n.target), _shape(captured.values.get(n.name))))


def _shape(v):
    if isinstance(v, torch.Tensor):
        return list(v.shape)
    if isinstance(v, (list, tuple)):
        return [_shape(x) for x in v]
    return None


def _bounds(b, where):
    if hasattr(b, "min") and hasattr(b, "max") and not isinstance(b, (tuple, list)):
        lo, hi = b.min, b.max
    elif isinstance(b, (tuple, list)) and len(b) == 2:
        lo, hi = b
    elif isinstance(b, int) and not isinstance(b, bool):
        lo, hi = 1, b
    else:
        raise DynamicShapeError("%s: a bound is (min, max), max or a torch.export.Dim, not %r"
                                % (where, b))
    if not (isinstance(lo, int) and isinstance(hi, int)) or lo < 1 or hi < lo:
        raise DynamicShapeError("%s: bounds must be integers with 1 <= min <= max, got (%r, %r)"
                                % (where, lo, hi))
    return lo, hi


def parse(dynamic_shapes, example_inputs):
    """[{dim: (min, max)}] per input (empty dicts for static inputs)."""
    if isinstance(dynamic_shapes, dict):
        dynamic_shapes = (dynamic_shapes,)
    specs = list(dynamic_shapes)
    if len(specs) != len(example_inputs):
        raise DynamicShapeError("dynamic_shapes has %d entries for %d example inputs"
                                % (len(specs), len(example_inputs)))
    out = []
    for i, (s, x) in enumerate(zip(specs, example_inputs)):
        dims = {}
        if s:
            if not isinstance(x, torch.Tensor):
                raise DynamicShapeError("input %d is not a tensor; only tensors have shapes" % i)
            for d, b in s.items():
                if not isinstance(d, int) or not -x.dim() <= d < x.dim():
                    raise DynamicShapeError("input %d has %d dims; no dim %r" % (i, x.dim(), d))
                dims[d % x.dim()] = _bounds(b, "input %d dim %d" % (i, d))
        out.append(dims)
    return out


def _resized(x, sizes):
    """x with dims resized ({dim: n}), repeating its own values cyclically."""
    for d, n in sizes.items():
        idx = torch.arange(n) % x.shape[d]
        x = x.index_select(d, idx)
    return x.contiguous()


def _same_args(a, b):
    if isinstance(a, torch.fx.Node) or isinstance(b, torch.fx.Node):
        return isinstance(a, torch.fx.Node) and isinstance(b, torch.fx.Node) and a.name == b.name
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_args(x, y) for x, y in zip(a, b))
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
                and a.shape == b.shape and bool((a == b).all()))
    return type(a) == type(b) and a == b


def _fix_view(n, m):
    """A view's size list with one dynamic entry: that entry becomes -1."""
    size_a, size_b = list(n.args[1]), list(m.args[1])
    diff = [i for i, (x, y) in enumerate(zip(size_a, size_b)) if x != y]
    if len(size_a) != len(size_b) or len(diff) != 1 or -1 in size_a:
        return False
    size_a[diff[0]] = -1
    # (_reshape_alias's strides differ too; it is written as view_copy, by size.)
    n.args = (n.args[0], size_a) + tuple(n.args[2:])
    return True


def _fix_expand(n, m, cap, probe):
    """An expand's size entries that keep a dynamic input dim become -1."""
    src_a, src_b = _shape(cap.values.get(n.args[0].name)), _shape(probe.values.get(m.args[0].name))
    size_a, size_b = list(n.args[1]), list(m.args[1])
    if src_a is None or len(size_a) != len(size_b) or len(src_a) > len(size_a):
        return False
    lead = len(size_a) - len(src_a)
    for i, (x, y) in enumerate(zip(size_a, size_b)):
        if x == y:
            continue
        if i < lead or src_a[i - lead] != x or src_b[i - lead] != y:
            return False  # a new or broadcast dim taking a dynamic size
        size_a[i] = -1
    n.args = (n.args[0], size_a) + tuple(n.args[2:])
    return True


def _same_graph(cap, probe):
    na, nb = list(cap.gm.graph.nodes), list(probe.gm.graph.nodes)
    if len(na) != len(nb) or any(a.target != b.target or a.op != b.op for a, b in zip(na, nb)):
        raise DynamicShapeError(
            "the model computes a different graph for another size of its dynamic dims "
            "(control flow on a size?); export it with static shapes, or once per size")
    return na, nb


def _identity_view(a, b, cap, probe):
    """A view to its input's own shape at both sizes: the input itself."""
    src_a, src_b = _shape(cap.values.get(a.args[0].name)), _shape(probe.values.get(b.args[0].name))
    return src_a == _shape(cap.values.get(a.name)) and src_b == _shape(probe.values.get(b.name))


def _compare(cap, probe):
    """Marks cap's nodes whose shapes differ from probe's; rewrites views."""
    na, nb = _same_graph(cap, probe)
    dynamic = set()
    for a, b in zip(na, nb):
        sa, sb = _shape(cap.values.get(a.name)), _shape(probe.values.get(b.name))
        if sa != sb:
            flat_a, flat_b = _flat_sizes(sa), _flat_sizes(sb)
            if len(flat_a) != len(flat_b) or any(y > x for x, y in zip(flat_a, flat_b)):
                raise DynamicShapeError(
                    "node %s: its shape %s at the smaller size exceeds %s at the maximum, so the "
                    "maximum is not its bound" % (a.name, sb, sa))
            dynamic.add(a.name)
        if a.op != "call_function":
            continue
        if _same_args(a.args, b.args) and _same_args(a.kwargs, b.kwargs):
            continue
        op = _op_name(a.target)
        if op in VIEWS and _identity_view(a, b, cap, probe):
            a.replace_all_uses_with(a.args[0])
            b.replace_all_uses_with(b.args[0])
            cap.gm.graph.erase_node(a)
            continue
        if op in VIEWS and _fix_view(a, b):
            continue
        if op in EXPANDS and _fix_expand(a, b, cap, probe):
            continue
        raise DynamicShapeError(
            "node %s (%s): an argument takes the value of a dynamic size (%s at the maximum, %s "
            "at the smaller size), which a program cannot express; make that dim static"
            % (a.name, op, _show(a.args, a.kwargs), _show(b.args, b.kwargs)))
    cap.gm.recompile()
    return dynamic


def _flat_sizes(s):
    if s is None:
        return []
    if s and isinstance(s[0], list):
        return [x for part in s for x in _flat_sizes(part)]
    return list(s)


def _show(args, kwargs):
    parts = [a.name if isinstance(a, torch.fx.Node) else repr(a) for a in args]
    parts += ["%s=%r" % kv for kv in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def capture_dynamic(capture, module, example_inputs, dynamic_shapes, **kw):
    """capture(module, inputs, **kw) with the dims dynamic_shapes names
    dynamic: the capture at their maxima, whose dynamic tensors are listed in
    .dynamic (node names)."""
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    specs = parse(dynamic_shapes, example_inputs)
    hi = [_resized(x, {d: b[1] for d, b in s.items()}) if s else x
          for x, s in zip(example_inputs, specs)]
    # The second size: max - 1 (or min, when that is below 2); the graph must
    # also be the same at min (no branch on the size between them).
    probe_sizes, min_sizes = [], []
    for s in specs:
        sizes, mins = {}, {}
        for d, (lo, top) in s.items():
            if top > lo:
                sizes[d] = top - 1 if top - 1 >= max(lo, 2) else lo
                if lo != sizes[d]:
                    mins[d] = lo
        probe_sizes.append(sizes)
        min_sizes.append(mins)
    cap = capture(module, tuple(hi), **kw)
    check_data_dependent(cap)
    if not any(probe_sizes):
        return cap  # every bound is min == max: static
    if any(min_sizes):
        at_min = [_resized(x, s) if s else x for x, s in zip(hi, min_sizes)]
        _same_graph(cap, capture(module, tuple(at_min), **kw))
    lo = [_resized(x, s) if s else x for x, s in zip(hi, probe_sizes)]
    probe = capture(module, tuple(lo), **kw)
    cap.dynamic = _compare(cap, probe)
    return cap
