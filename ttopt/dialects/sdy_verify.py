"""Shardy (sdy) per-op verifiers: attribute bodies that parse, sharding counts and ranks that match
the op, and manual_computation local shapes consistent with the global ones (Shardy's
`verifiers.cc`, the subset ttopt's passes rely on). Failures are ValueErrors; the IR verifier
reports them at the op.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ttopt.dialects.sdy_collectives import check_collective
from ttopt.ir.attributes import ATTRIBUTE_ONLY_VERIFIERS, DIALECT_ATTR_CHECKS, OP_ATTRIBUTE_VERIFIERS, DialectAttr
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.ir.values import BlockArgument, OpResult, Value
from ttopt.ir.verifier import verification_run


def _typed(op: Operation, name: str, kind: str) -> Any:
    """The typed model of property `name` (AttrError, a ValueError, when its body is malformed)."""
    a = op.properties.get(name)
    if a is None:
        raise ValueError(f"requires property '{name}' ({kind})")
    a = a.resolve()
    try:
        model = a.typed
    except ValueError as e:
        raise _attr_error(e, name) from None
    if model is None or type(model).__name__ != kind:
        raise ValueError(f"property '{name}' must be a {kind}, got {a.text}")
    return model


def _rank(v: Any) -> int | None:
    t = v.type.resolve()
    return t.rank if isinstance(t, TensorType) and t.shape is not None else None


def _shape(v: Any) -> tuple[int | None, ...] | None:
    t = v.type.resolve()
    return tuple(t.shape) if isinstance(t, TensorType) and t.shape is not None else None


def _mesh(op: Operation) -> None:
    _typed(op, "mesh", "MeshAttr")


def _with_sharding(op: Operation) -> None:
    """sdy.sharding_constraint / sdy.reshard: the sharding must fit the operand (Shardy's words)."""
    run = verification_run()
    key = None
    if run:
        # What the check reads: the sharding's model, the operand's type, the manual axes around
        # (the same for every op of a block); the meshes are the run's.
        a = op.properties.get("sharding")
        t = getattr(a, "_typed", None)
        key = (id(t if t is not None else _model(a)), id(op.operands[0].type) if op.operands else 0, id(op.parent))
        passed = _WITH_SHARDING_PASSED
        if passed.run != run:
            passed.start(run)
        elif key in passed.keys:
            return
    s = _typed(op, "sharding", "TensorShardingAttr")
    vtype = op.operands[0].type if op.operands else None
    problem = sharding_problem(s, vtype, _mesh_of(s, _meshes(op)), _manual_axes(op))
    if problem:
        raise ValueError(problem)
    if key is not None:
        _WITH_SHARDING_PASSED.keys.add(key)


def _named_mesh(op: Operation, name: str) -> Any:
    """The MeshAttr of `sdy.mesh @name` in the enclosing module, or None (passes report unknown meshes)."""
    root = op
    while root.parent_op is not None:
        root = root.parent_op
    for top in root.regions[0].blocks[0].ops if root.regions and root.regions[0].blocks else ():
        sym = top.properties.get("sym_name")
        if top.name == "sdy.mesh" and getattr(sym, "value", None) == name:
            try:
                return top.properties["mesh"].resolve().typed
            except (KeyError, ValueError):
                return None
    return None


def _manual_split(sharding: Any, manual: set[str], meshes: dict[str, Any]) -> list[int] | None:
    """Per dimension, into how many pieces the manual axes split it (None: mesh or axes unknown)."""
    from ttopt.dialects.sdy_attrs import MeshAttr

    mesh = sharding.mesh
    if not isinstance(mesh, MeshAttr):
        if mesh not in meshes:
            meshes[mesh] = None
        mesh = meshes[mesh]
    if mesh is None:
        return None
    out = []
    for dim in sharding.dim_shardings:
        n = 1
        for ref in dim.axes:
            if ref.name in manual:
                if not mesh.has_axis(ref.name):
                    return None
                n *= ref.size(mesh)
        out.append(n)
    return out


def _manual_computation(op: Operation) -> None:
    ins = _typed(op, "in_shardings", "TensorShardingPerValueAttr").shardings
    outs = _typed(op, "out_shardings", "TensorShardingPerValueAttr").shardings
    manual = set(_typed(op, "manual_axes", "ManualAxesAttr").names)
    for kind, shardings, values in (("operand", ins, op.operands), ("result", outs, op.results)):
        if shardings or values:
            problem = _per_value_problem(op, shardings, [v.type for v in values], kind)
            if problem:
                raise ValueError(problem)
    if len(ins) != len(op.operands):
        raise ValueError(f"has {len(ins)} in_shardings for {len(op.operands)} operand(s)")
    if len(outs) != len(op.results):
        raise ValueError(f"has {len(outs)} out_shardings for {len(op.results)} result(s)")
    if not op.regions or not op.regions[0].blocks:
        return
    block = op.regions[0].blocks[0]
    if len(block.args) != len(op.operands):
        raise ValueError(f"body has {len(block.args)} argument(s) for {len(op.operands)} operand(s)")
    ret = block.ops[-1] if block.ops else None
    locals_out = ret.operands if ret is not None and ret.name == "sdy.return" else None
    if locals_out is not None and len(locals_out) != len(op.results):
        raise ValueError(f"body returns {len(locals_out)} value(s) for {len(op.results)} result(s)")
    meshes: dict[str, Any] = {}
    pairs: list[tuple[str, int, Any, Value, Value, str]] = [
        ("in_shardings", i, s, op.operands[i], block.args[i], "body argument") for i, s in enumerate(ins)
    ]
    if locals_out is not None:
        pairs += [("out_shardings", j, s, op.results[j], locals_out[j], "returned value") for j, s in enumerate(outs)]
    for label, i, s, global_v, local_v, what in pairs:
        g, loc = _shape(global_v), _shape(local_v)
        if g is None:
            continue
        if s.rank != len(g):
            raise ValueError(f"{label}[{i}] {s.op_text()} has {s.rank} dimension shardings but {global_v.type.text} has rank {len(g)}")
        if isinstance(s.mesh, str) and s.mesh not in meshes:
            meshes[s.mesh] = _named_mesh(op, s.mesh)
        split = _manual_split(s, manual, meshes)
        if split is None or loc is None:
            continue
        if len(loc) != len(g):
            raise ValueError(f"{what} #{i} has type {local_v.type.text}, but the global type is {global_v.type.text}")
        for d, (gd, ld, n) in enumerate(zip(g, loc, split)):
            if gd is None or ld is None:
                continue
            if gd % n:
                raise ValueError(f"{label}[{i}]: dimension {d} of size {gd} is not divisible into {n} shards (manual axes)")
            if ld != gd // n:
                raise ValueError(
                    f"{what} #{i} dimension {d} has local size {ld}, but {label}[{i}] {s.op_text()} "
                    f"splits the global size {gd} into {n}: expected {gd // n}"
                )


# ---- the `sdy.*` attributes of any op (Shardy's SdyDialect::verifyOperationAttribute and
# verifyRegionArg/ResultAttribute), in Shardy's words --------------------------------------------

SDY_ATTR_MNEMONICS = frozenset({
    "mesh_axis", "mesh", "sub_axis_info", "axis_ref", "dimension_sharding", "sharding", "sharding_per_value",
    "dim_mapping", "tensor_mapping", "op_sharding_rule", "all_to_all_param", "edge_value_ref",
    "axis_to_propagation_details", "propagation_one_step", "manual_axes", "axis_ref_list",
    "list_of_axis_ref_lists", "all_to_all_param_list", "propagation_edges",
})  # fmt: skip


def check_sdy_attr(name: str, body: str | None) -> tuple[int, str] | None:
    """What Shardy's attribute parser refuses at once (registered as sdy's DIALECT_ATTR_CHECKS):
    an unknown `#sdy.<mnemonic>`, a malformed op sharding rule. (offset in `#name<body>`, message)."""
    from ttopt.dialects.errors import AttrError
    from ttopt.dialects.sdy_rule import parse_rule

    mnemonic = name[4:]
    if not mnemonic:
        return None
    if mnemonic not in SDY_ATTR_MNEMONICS:
        return len("#sdy."), f"unknown attribute `{mnemonic}` in dialect `sdy`"
    if mnemonic == "op_sharding_rule" and body is not None:
        try:
            parse_rule(body)
        except AttrError as e:
            return len(name) + 2 + (e.offset or 0), e.message
    return None


def _axis_text(ref: Any) -> str:
    return ref.print_body()


def _type_text(t: Any) -> str:
    return f"'{t.text}'"


# Verifying after each pass checks the same few (sharding, type, mesh) triples on thousands of
# ops: sharding models are frozen and shared, tensor types are interned, so the answer is kept
# per triple (and the enclosing manual axes), with the objects themselves to guard the ids.
_PROBLEMS: dict[tuple, tuple[Any, Any, Any, str | None]] = {}


def sharding_problem(s: Any, vtype: Any, mesh: Any, manual: Mapping[str, Any]) -> str | None:
    """Why the sharding `s` of a value of type `vtype` (None: no value) is invalid on `mesh` (None:
    its named mesh does not exist), in Shardy's words (verifyTensorShardingAttr); None when valid.
    `manual` maps the axes enclosing manual computations bind."""
    if vtype is not None and type(vtype) is not TensorType:  # an alias means something per module
        return _sharding_problem(s, vtype, mesh, manual)
    key = (id(s), id(vtype), id(mesh), *manual)
    hit = _PROBLEMS.get(key)
    if hit is not None and hit[0] is s and hit[1] is vtype and hit[2] is mesh:
        return hit[3]
    problem = _sharding_problem(s, vtype, mesh, manual)
    if len(_PROBLEMS) > 100_000:
        _PROBLEMS.clear()
    _PROBLEMS[key] = (s, vtype, mesh, problem)
    return problem


def _sharding_problem(s: Any, vtype: Any, mesh: Any, manual: Mapping[str, Any]) -> str | None:
    if mesh is None:
        return f"unknown mesh: @{s.mesh}"
    fully_replicated = all(not d.axes for d in s.dim_shardings)
    if (not mesh.axes and mesh.device_ids) or (vtype is None and fully_replicated):
        if s.rank or s.replicated or s.unreduced:
            return "a maximal sharding can only have a sharding with rank 0 and no replicated or unreduced axes."
        return None
    t = vtype.resolve() if vtype is not None else None
    if not isinstance(t, TensorType):
        if s.rank or s.replicated or s.unreduced:
            return (
                "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes. "
                f"type: {_type_text(t) if t is not None else 'none'}, sharding: #sdy.sharding<{s.print_body()}>"
            )
        return None
    if t.shape is None:
        return f"only ranked tensors can have a sharding. type: {_type_text(t)}"
    if s.rank != len(t.shape):
        return f"sharding doesn't match tensor rank: {s.rank} != {len(t.shape)}"
    sizes = {a.name: a.size for a in mesh.axes}
    seen: list[Any] = []
    seen_keys: set[tuple[str, Any]] = set()  # of `seen`: an axis ref's fields (its equality)
    sub_axes: dict[str, list[Any]] = {}

    def refs_problem(refs: Any) -> str | None:
        prev = None
        for ref in refs:
            if ref.name not in sizes:
                return f'unknown axis name: "{ref.name}"'
            key = (ref.name, ref.sub_axis)
            if key in seen_keys:
                return f"duplicate axis ref: {_axis_text(ref)}"
            seen.append(ref)
            seen_keys.add(key)
            if ref.sub_axis is None:
                prev = ref
                continue
            sub_axes.setdefault(ref.name, []).append(ref)
            if (
                prev is not None and prev.sub_axis is not None and prev.name == ref.name
                and prev.sub_axis[0] * prev.sub_axis[1] == ref.sub_axis[0]
            ):  # fmt: skip
                return f"two consecutive sub-axes can be merged: {_axis_text(prev)}, {_axis_text(ref)}"
            prev = ref
        return None

    def order(ref: Any) -> tuple[int, int, int]:
        pre, size = ref.sub_axis if ref.sub_axis is not None else (1, sizes.get(ref.name, 1))
        return (mesh.axis_names.index(ref.name) if ref.name in sizes else -1, pre, size)

    for i, d in enumerate(s.dim_shardings):
        if d.priority is not None:
            if d.priority < 0:
                return f"dim {i} has a negative priority"
            if d.is_closed and not d.axes:
                return f"dim {i} is empty and closed but has a priority"
        problem = refs_problem(d.axes)
        if problem:
            return problem
    for field, refs in (("replicated", s.replicated), ("unreduced", s.unreduced)):
        keys = [order(r) for r in refs]
        if all(r.name in sizes for r in refs) and keys != sorted(keys):
            return f"{field} axes are not ordered w.r.t. mesh"
        problem = refs_problem(refs)
        if problem:
            return problem
    for name, subs in sub_axes.items():
        full = sizes[name]
        if any(r.sub_axis is None and r.name == name for r in seen):
            return f'both sub-axis and full-axis are used for axis name: "{name}"'
        prev = None
        for ref in sorted(subs, key=order):
            pre, size = ref.sub_axis
            if pre < 1:
                return f"sub-axis pre-size must be at least 1: {_axis_text(ref)}"
            if size <= 1:
                return f"sub-axis sizes must be greater than 1: {_axis_text(ref)}"
            if full % (pre * size):
                return f"sub-axis next pre-size {pre * size} doesn't divide the size of the full axis {full}: {_axis_text(ref)}"
            if size == full:
                return f"sub-axis size is equal to the full axis size: {_axis_text(ref)}"
            if prev is not None and prev.sub_axis[0] * prev.sub_axis[1] > pre:
                return f"overlapping sub-axes: {_axis_text(prev)}, {_axis_text(ref)}"
            prev = ref
    for ref in seen:
        if ref.name in manual:
            return f'operates on axis "{ref.name}" which is already bound by a parent sdy.manual_computation op'
    return None


def _value_prefix(kind: str, n: int, i: int) -> str:
    """Shardy's getEmitValueInRangeErrorFn: `result - ` for one value, `result 1 - ` for several."""
    return f"{kind} - " if n == 1 else f"{kind} {i} - "


# The mesh table of the module being verified, and the manual axes around each block, kept for
# the verification run that read them (`verification_run`): every sharded op asks for them.
_run_meshes: tuple[int, dict[str, Any]] = (0, {})
_run_manual: tuple[int, dict[int, dict[str, Operation]]] = (0, {})


def _meshes(op: Operation) -> dict[str, Any]:
    """The module's `sdy.mesh` ops by name (their MeshAttr, None when malformed)."""
    global _run_meshes
    run = verification_run()
    if run and _run_meshes[0] == run:
        return _run_meshes[1]
    root = op
    while (up := root.parent_op) is not None:
        root = up
    tops = root.regions[0].blocks[0].ops if root.regions and root.regions[0].blocks else ()
    out: dict[str, Any] = {}
    for top in tops:
        if top.name == "sdy.mesh":
            sym = str(getattr(top.properties.get("sym_name"), "value", ""))
            try:
                out[sym] = top.properties["mesh"].resolve().typed
            except (KeyError, ValueError):
                out[sym] = None
    _run_meshes = (run, out)
    return out


def _manual_axes(op: Operation) -> dict[str, Operation]:
    """Axes made manual by the sdy.manual_computation ops around `op`."""
    global _run_manual
    run = verification_run()
    if not run or op.parent is None:
        return _manual_axes_around(op)
    if _run_manual[0] != run:
        _run_manual = (run, {})
    known = _run_manual[1]
    found = known.get(id(op.parent))
    if found is None:
        found = known[id(op.parent)] = _manual_axes_around(op)
    return found


def _manual_axes_around(op: Operation) -> dict[str, Operation]:
    out: dict[str, Operation] = {}
    p = op.parent_op
    while p is not None:
        if p.name == "sdy.manual_computation":
            try:
                names = _typed(p, "manual_axes", "ManualAxesAttr").names
            except ValueError:
                names = ()
            for n in names:
                out.setdefault(n, p)
        p = p.parent_op
    return out


def _mesh_of(s: Any, meshes: dict[str, Any]) -> Any:
    mesh = s.mesh  # a MeshAttr, or the name of an `sdy.mesh`
    return meshes.get(mesh) if isinstance(mesh, str) else mesh


def _attr_error(e: ValueError, name: str) -> ValueError:
    """A malformed attribute body (AttrError) as `invalid <name>: ...`; other errors as they are.

    Imported here, when a body fails, not per op verified."""
    from ttopt.dialects.errors import AttrError

    return ValueError(f"invalid {name}: {e.message}") if isinstance(e, AttrError) else e


def _typed_as(attr: Any, name: str) -> Any:
    """The typed model of `attr` when it is the dialect attribute `#name<...>`, else None."""
    a = attr.resolve()
    if not isinstance(a, DialectAttr) or a.name != name:
        return None
    try:
        return a.typed
    except ValueError as e:
        raise _attr_error(e, name) from None


def verify_sdy_attributes(op: Operation) -> None:
    """Shardy's checks of an op's `sdy.sharding` and `sdy.sharding_rule` attributes and of a
    function's argument and result `sdy.sharding`s: ValueError in Shardy's words."""
    attrs = op.attributes
    if op.name == "func.func":
        _verify_func_shardings(op)
    if not attrs or ("sdy.sharding" not in attrs and "sdy.sharding_rule" not in attrs):
        return
    if "sdy.sharding" in attrs:
        verify_shardings((op,))
    a = attrs.get("sdy.sharding_rule")
    if a is not None:
        from ttopt.dialects.sdy_rule import rule_problem, special_factor_lists

        t = a.resolve()
        if getattr(t, "name", None) != "sdy.op_sharding_rule" or t.body is None:
            raise ValueError("should have a sharding rule attribute of type OpShardingRuleAttr for attr named 'sdy.sharding_rule'")
        from ttopt.dialects.sdy_rule import parse_rule

        problem = rule_problem(parse_rule(t.body), special_factor_lists(t.body),
                               [v.type for v in op.operands], [r.type for r in op.results])  # fmt: skip
        if problem:
            raise ValueError(problem)


class _PassedInRun:
    """Keys of checks that passed within one verification run (the module does not change during
    it, so identities of objects it holds name what a check read); forgotten when a run starts."""

    def __init__(self) -> None:
        self.run = 0
        self.keys: set[tuple] = set()  # of run `run`

    def start(self, run: int) -> None:
        """Forget the keys of an earlier run."""
        self.run, self.keys = run, set()


# The `sdy.sharding` attributes that passed, by attribute object, result type objects and
# enclosing manual axes: the ops a propagation writes share one attribute per distinct sharding
# list, and each distinct use is checked once (`verify_shardings`).
_PER_VALUE_PASSED = _PassedInRun()


def verify_shardings(ops: Iterable[Operation]) -> None:
    """The checks of the `sdy.sharding` of each of `ops` (`verify_sdy_attributes`'s): ValueError
    in Shardy's words. Within a verification run, each distinct use of an attribute is checked once."""
    run = verification_run()
    passed = _PER_VALUE_PASSED
    if run and passed.run != run:
        passed.start(run)
    if not run:
        for op in ops:
            a = op.attributes.get("sdy.sharding")
            if a is not None:
                _check_per_value(op, a)
        return
    seen = passed.keys
    block: Any = _NO_BLOCK
    manual: dict[str, Operation] = {}
    for op in ops:
        a = op.attributes.get("sdy.sharding")
        if a is None:
            continue
        # What the checks read: the attribute, the results' types, the names of the manual axes
        # around (the meshes are the run's). Most ops have one result and no manual axes; the
        # manual axes are those of the block of the op before most often (ops come in block order).
        if op.parent is not block:
            block = op.parent
            manual = _manual_axes(op)
        results = op.results
        if len(results) == 1 and not manual:
            key: tuple = (id(a), id(results[0].type))
        else:
            key = (id(a), *[id(r.type) for r in results], *manual)
        if key not in seen:
            _check_per_value(op, a)
            seen.add(key)


_NO_BLOCK = object()  # no block yet (an op's parent may be None)


def _check_per_value(op: Operation, a: Any) -> None:
    """The checks of `verify_shardings` of one op's `sdy.sharding` attribute `a`."""
    per_value = _typed_as(a, "sdy.sharding_per_value")
    if per_value is None:
        raise ValueError("should have a sharding attribute of type TensorShardingPerValueAttr")
    problem = _per_value_problem(op, per_value.shardings, [r.type for r in op.results])
    if problem:
        raise ValueError(problem)


def _per_value_problem(op: Operation, shardings: Any, types: list[Any], kind: str = "result") -> str | None:
    """Shardy's verifyTensorShardingPerValueAttr: one valid sharding per value (`kind`: result / operand)."""
    meshes = _meshes(op)
    manual = _manual_axes(op)
    if not types and len(shardings) == 1:
        s = shardings[0]
        mesh = _mesh_of(s, meshes)
        if (mesh is not None and not mesh.axes and mesh.device_ids) or all(not d.axes for d in s.dim_shardings):
            problem = sharding_problem(s, None, mesh, manual)
            return f"{kind} - {problem}" if problem else None
    if len(shardings) != len(types):
        return f"{kind} shardings don't match number of values: {len(shardings)} shardings vs {len(types)} values"
    for i, (s, t) in enumerate(zip(shardings, types)):
        problem = sharding_problem(s, t, _mesh_of(s, meshes), manual)
        if problem:
            return _value_prefix(kind, len(types), i) + problem
    return None


def _verify_func_shardings(op: Operation) -> None:
    from ttopt.ir.attributes import ArrayAttr, DictAttr

    ftype = op.properties.get("function_type")
    ft = getattr(ftype, "type", None)
    if ft is None:
        return
    meshes: dict[str, Any] | None = None
    for kind, key, types in (("arg", "arg_attrs", ft.inputs), ("result", "res_attrs", ft.results)):
        dicts = op.properties.get(key)
        if not isinstance(dicts, ArrayAttr):
            continue
        for i, (d, t) in enumerate(zip(dicts.items, types)):
            a = d.entries.get("sdy.sharding") if isinstance(d, DictAttr) else None
            if a is None:
                continue
            s = _typed_as(a, "sdy.sharding")
            if s is None:
                raise ValueError(f"{kind} {i} - should have a sharding attribute of type TensorShardingAttr")
            if meshes is None:
                meshes = _meshes(op)
            problem = sharding_problem(s, t, _mesh_of(s, meshes), _manual_axes(op))
            if problem:
                raise ValueError(f"{kind} {i} - {problem}")


def _collective(op: Operation) -> None:
    """An sdy collective's out_sharding must fit its result (Shardy's verifyCollectiveOp, step 2),
    and its own axes must turn the operand's sharding into it (the collective's verifySymbolUses)."""
    run = verification_run()
    keys = _passed_keys(op, run) if run else None
    if keys is None:
        _check_collective_op(op)
        return
    fits, moves = keys
    passed = _COLLECTIVES_PASSED
    if passed.run != run:
        passed.start(run)
    seen = passed.keys
    fitted = fits in seen
    moved = moves in seen
    if fitted and moved:
        return
    _check_collective_op(op, fitted, moved)
    seen.add(fits)
    seen.add(moves)


# The sdy.reshard / sdy.sharding_constraint checks that passed in this run (`_with_sharding`).
_WITH_SHARDING_PASSED = _PassedInRun()

# The collectives' checks that passed in this run, by what they read (`_passed_keys`): a pass that
# lowers many reshards alike builds chains of collectives sharing their attribute models, and
# each distinct check runs once.
_COLLECTIVES_PASSED = _PassedInRun()


def _passed_keys(op: Operation, run: int) -> tuple[tuple, tuple] | None:
    """What `_check_collective_op` reads of `op`, as identities of objects the module holds (fixed
    while it does not change): for the check that the out_sharding fits the result, and for the
    check of the collective's own axes against its operand's sharding. None when the operand's
    sharding may come from elsewhere than its definer (then it is checked every time). The meshes
    are the run's (`run`).

    An attribute stands for its typed model when it has one (the checks read the model: the models
    of equal shardings built by the sharding passes are shared by their attributes)."""
    operands = op.operands
    if len(operands) != 1 or not op.results:
        return None
    v = operands[0]
    uses = v.uses
    if len(uses) > 1:  # the collective is a user: another may be a data-flow edge
        for u in uses:
            if u.name == "sdy.data_flow_edge":
                return None
    if not isinstance(v, OpResult):
        block = getattr(v, "block", None)
        region = block.parent if block is not None else None
        parent = region.parent if region is not None else None
        if parent is None:
            return None
        if parent.name == "func.func":  # its `arg_attrs` entry, or replicated
            source: Any = (id(parent.properties.get("arg_attrs")), v.index, id(v.type))  # type: ignore[attr-defined]
        elif parent.name == "sdy.manual_computation":  # its in_sharding without the manual axes
            props = parent.properties
            source = (id(props.get("in_shardings")), id(props.get("manual_axes")), v.index, id(v.type), 0)  # type: ignore[attr-defined]
        else:
            return None
    else:
        owner = v.op
        own = _OWN_SHARDING.get(owner.name)
        if own is not None:  # an sdy op's sharding property: its model, read by `_typed`
            a = owner.properties.get(own)
            t = getattr(a, "_typed", None)
            source = id(t if t is not None else _model(a))
        elif owner.name in ("sdy.named_computation", "sdy.manual_computation"):
            return None
        else:  # the definer's `sdy.sharding` at the value's index (replicated without one, of its rank)
            a = owner.attributes.get("sdy.sharding")
            t = getattr(a, "_typed", None)
            if t is not None and a.name == "sdy.sharding_per_value" and len(t.shardings) == len(owner.results):  # type: ignore[union-attr]
                # The model's sharding at the value's index. By the attribute's spelling: the ops
                # a pass lowers each hold their own parsed attribute, and a spelling has one model
                # (sdy bodies name no aliases; a model given to an attribute is what it spells).
                source = (a._text or a.text, v.index)  # type: ignore[union-attr]
            else:  # possibly a replicated sharding of the value's rank
                source = (id(a), v.index, len(owner.results), id(v.type))
    props = op.properties
    out = props.get("out_sharding")
    t = getattr(out, "_typed", None)
    out_id = id(t if t is not None else _model(out))
    name = op.name
    param = _PARAM_OF.get(name)
    if param is not None:
        a = props.get(param)
        t = getattr(a, "_typed", None)
        params = id(t if t is not None else _model(a))
    else:
        params = 0
    b = op.parent  # `_manual_axes`, its per-block answers read here first: one call less per op
    manual = _run_manual[1].get(id(b)) if _run_manual[0] == run and b is not None else None
    if manual is None:
        manual = _manual_axes(op)
    fits = (out_id, id(op.results[0].type), *manual) if manual else (out_id, id(op.results[0].type))
    return fits, (name, out_id, params, source)


def _model(a: Any) -> Any:
    """The typed model of dialect attribute `a` (worked out now if it was not yet), else `a` itself
    (its checks report it): what stands for an attribute in `_passed_keys`."""
    if type(a) is DialectAttr:
        try:
            t = a.typed
        except ValueError:
            return a
        if t is not None:
            return t
    return a


def _check_collective_op(op: Operation, fitted: bool = False, moved: bool = False) -> None:
    """The checks of `_collective`; `fitted`: the out_sharding is known to fit the result, `moved`:
    the collective's axes are known to turn its operand's sharding into it."""
    s = _typed(op, "out_sharding", "TensorShardingAttr")
    meshes = _meshes(op)
    mesh = s.mesh  # a MeshAttr, or the name of an `sdy.mesh` (`_mesh_of`, inlined: one call per collective)
    if isinstance(mesh, str):
        mesh = meshes.get(mesh)
    if not fitted:
        vtype = op.results[0].type if op.results else None
        problem = sharding_problem(s, vtype, mesh, _manual_axes(op))
        if problem:
            raise ValueError(problem)
    kind = op.name[4:]
    if moved or mesh is None or not op.operands or kind == "replicated_to_unreduced":
        return
    operand = _operand_sharding(op.operands[0], s)
    if operand is None:
        return  # a sharding Shardy reads from a region op's edges: not checked here
    operand_mesh = operand.mesh
    if isinstance(operand_mesh, str):
        operand_mesh = meshes.get(operand_mesh)
    if operand_mesh is not mesh and operand_mesh != mesh:
        return  # another mesh: not checked here
    params = None
    attr_kind = _COLLECTIVE_PARAMS.get(kind)
    if attr_kind is not None:
        params = _typed(op, attr_kind[0], attr_kind[1])
    check_collective(kind, params, operand, s, mesh)


_COLLECTIVE_PARAMS = {
    "all_gather": ("gathering_axes", "ListOfAxisRefListsAttr"),
    "all_slice": ("slicing_axes", "ListOfAxisRefListsAttr"),
    "reduce_scatter": ("reduce_scatter_axes", "ListOfAxisRefListsAttr"),
    "sharded_to_unreduced": ("axes", "ListOfAxisRefListsAttr"),
    "all_to_all": ("params", "AllToAllParamListAttr"),
    "all_reduce": ("reduction_axes", "AxisRefListAttr"),
}
_PARAM_OF = {f"sdy.{kind}": name for kind, (name, _) in _COLLECTIVE_PARAMS.items()}  # op name -> its axes property


def _operand_sharding(v: Value, result: Any) -> Any:
    """The sharding Shardy's getOrCreateSharding gives a collective's operand, or None where it
    would read it from a data-flow edge ttopt does not model here (a loop's or named computation's)."""
    edge = None
    for u in v.uses:  # the first data_flow_edge among the users, in use order
        if u.name == "sdy.data_flow_edge":
            edge = u
            break
    found: Any = None
    if edge is not None:
        found = _typed(edge, "sharding", "TensorShardingAttr") if "sharding" in edge.properties else None
    elif isinstance(v, OpResult):  # checked first: most collectives read another op's result
        owner = v.op
        name = owner.name
        own = _OWN_SHARDING.get(name)
        if own is not None:
            found = _typed(owner, own, "TensorShardingAttr")
        elif name == "sdy.named_computation":
            return None
        elif name == "sdy.manual_computation":
            outs = _typed(owner, "out_shardings", "TensorShardingPerValueAttr")
            found = outs[v.index] if v.index < len(outs) else None
        else:
            a = owner.attributes.get("sdy.sharding")
            per_value = _typed_as(a, "sdy.sharding_per_value") if a is not None else None
            found = per_value[v.index] if per_value is not None and len(per_value) == len(owner.results) else None
    elif isinstance(v, BlockArgument):
        region = v.block.parent if v.block is not None else None
        parent = region.parent if region is not None else None
        if parent is not None and parent.name == "func.func":
            found = _arg_sharding(parent, v.index)
        elif parent is not None and parent.name == "sdy.manual_computation":
            ins = _typed(parent, "in_shardings", "TensorShardingPerValueAttr")
            manual = _typed(parent, "manual_axes", "ManualAxesAttr").names
            found = _free_part(ins[v.index], manual) if v.index < len(ins) else None
        else:
            return None  # a loop's or named computation's argument: its edge owner is modelled elsewhere
    else:
        return None
    if found is not None:
        return found
    return _replicated(v, result)


def _replicated(v: Any, result: Any) -> Any:
    """A fully replicated sharding of `v` on `result`'s mesh (None when `v` is unranked)."""
    from ttopt.dialects.sdy_attrs import TensorShardingAttr

    rank = _rank(v)
    return None if rank is None else TensorShardingAttr.fully_replicated(result.mesh, rank)


def _free_part(s: Any, manual: Sequence[str]) -> Any:
    """A manual computation's in_sharding as its body sees it: each dimension's leading manual axes
    and the manual replicated / unreduced axes erased (Shardy's eraseManualAxes)."""
    from ttopt.dialects.sdy_attrs import DimensionSharding

    def free(d: Any) -> Any:
        k = 0
        while k < len(d.axes) and d.axes[k].name in manual:
            k += 1
        return DimensionSharding(axes=d.axes[k:], is_closed=d.is_closed, priority=d.priority)

    return s.model_copy(
        update={
            "dim_shardings": tuple(free(d) for d in s.dim_shardings),
            "replicated": tuple(r for r in s.replicated if r.name not in manual),
            "unreduced": tuple(r for r in s.unreduced if r.name not in manual),
        }
    )


def _arg_sharding(func: Operation, i: int) -> Any:
    from ttopt.ir.attributes import ArrayAttr, DictAttr

    dicts = func.properties.get("arg_attrs")
    d = dicts.items[i] if isinstance(dicts, ArrayAttr) and i < len(dicts.items) else None
    a = d.entries.get("sdy.sharding") if isinstance(d, DictAttr) else None
    return _typed_as(a, "sdy.sharding") if a is not None else None


_COLLECTIVES = ("all_gather", "all_slice", "all_to_all", "reduce_scatter", "all_reduce", "collective_permute",
                "sharded_to_unreduced", "replicated_to_unreduced")  # fmt: skip

# The ops that hold their one result's sharding in a property, by op name.
_OWN_SHARDING = {
    **{f"sdy.{name}": "out_sharding" for name in _COLLECTIVES},
    "sdy.sharding_constraint": "sharding",
    "sdy.reshard": "sharding",
}

VERIFIERS = {
    "sdy.mesh": _mesh,
    "sdy.sharding_constraint": _with_sharding,
    "sdy.reshard": _with_sharding,
    "sdy.manual_computation": _manual_computation,
    **{f"sdy.{name}": _collective for name in _COLLECTIVES},
}
DIALECT_ATTR_CHECKS["sdy"] = check_sdy_attr
OP_ATTRIBUTE_VERIFIERS.append(verify_sdy_attributes)
ATTRIBUTE_ONLY_VERIFIERS["sdy.sharding"] = verify_shardings
