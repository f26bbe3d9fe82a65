"""Structural verification: arity of known ops, terminators, dominance within blocks, returns.

Run after parsing and after every pass (as mlir-opt does), so a pass that breaks the IR is
caught at the pass that broke it, with the op named in the diagnostic. After a pass only what it
wrote is checked again (`verify_changes`, fed by the pass manager's edit journal).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ttopt.ir.attributes import ATTRIBUTE_ONLY_VERIFIERS, OP_ATTRIBUTE_VERIFIERS, SymbolRefAttr, TypeAttr
from ttopt.ir.diagnostics import BareOpError, Diagnostic, SourcePos
from ttopt.ir.dialect_registry import UNREGISTERED_DIALECT, dialect_of, is_registered_dialect, unregistered_op_message
from ttopt.ir.opdef import ISOLATED, OP_DEFS, SYMBOL_TABLE, TERMINATOR, arity_ok, count_message
from ttopt.ir.properties import check_properties, int_values
from ttopt.ir.types import FunctionType
from ttopt.ir.values import BlockArgument, OpResult, Value

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation, Region


def _where(op: Operation, module: Module) -> SourcePos | None:
    pos = op.pos
    if isinstance(pos, int) and module.source is not None:
        return SourcePos(module.source, pos)
    return None


def _fail(op: Operation, module: Module, message: str) -> Diagnostic:
    loc_name = op.location.name if op.location is not None else None
    suffix = f" (at {loc_name})" if loc_name and _where(op, module) is None else ""
    return Diagnostic(f"'{op.name}' op {message}{suffix}", _where(op, module))


def verify(module: Module, check_uses: bool = False, allow_unregistered_dialect: bool = True) -> None:
    """Raise a Diagnostic for the first structural problem found.

    `check_uses` also checks that every value's use list matches the operands that refer to it
    (costs a pass over all uses; tests and debugging turn it on). Without
    `allow_unregistered_dialect` an op of a dialect ttopt does not register is an error, as in
    mlir-opt without --allow-unregistered-dialect: the CLI checks its input so; passes create
    only registered ops, so verifying after them needs no second look. (After a pass the pass
    manager re-checks only what the pass wrote: `verify_changes`.)
    """
    _current_run[0] = next(_runs)
    try:
        if not allow_unregistered_dialect:
            _verify_dialects(module.op.walk_list(), module)
        walked = _walk(module, check_ops=True)
        if walked.errors:
            first, *rest = walked.errors
            first.also = (*first.also, *rest)
            raise first
        _raise_hidden(walked, module)
        _verify_symbols(walked.tables, walked.calls, module)
        if check_uses:
            _verify_use_lists(module)
    finally:
        _current_run[0] = 0


@dataclass
class Changes:
    """What a verification after an edit must look at again (the rest passed before, unedited)."""

    ops: list[Operation] = field(default_factory=list)  # ops whose own checks run again
    # Ops whose only change is a discardable attribute only its dialect's attribute check reads
    # (`ATTRIBUTE_ONLY_VERIFIERS`: `sdy.sharding`): only those checks run again.
    attributes: list[Operation] = field(default_factory=list)
    uses: list[Operation] = field(default_factory=list)  # ops whose operands' visibility is checked
    scopes: bool = False  # blocks or regions changed: visibility is checked over the whole module
    symbols: bool = False  # a symbol, a call or a symbol table changed: the symbol checks run


def verify_changes(module: Module, changes: Changes) -> None:
    """Verify `module`, known valid before the edits `changes` describes, by re-checking only them.

    Any problem found makes it verify the whole module instead, so the diagnostic is the one a full
    verification gives (the first problem in module order), word for word."""
    _current_run[0] = next(_runs)
    try:
        for op in changes.ops:
            _verify_op(op, module)
            if op.name == "func.func" and op.regions:
                # A changed signature is checked against returns the edit did not touch.
                for block in op.regions[0].blocks:
                    if block.ops and block.ops[-1].name == "func.return":
                        _verify_return(block.ops[-1], module)
        if changes.attributes:
            for check in ATTRIBUTE_ONLY_VERIFIERS.values():
                check(changes.attributes)
        if changes.scopes:
            _verify_visibility(module)
        else:
            _check_uses(changes.uses)
        if changes.symbols:
            _verify_symbols(*_symbol_ops(module.op.walk_list()), module)
    except Exception:
        # The full verification raises the module's first problem; should it find none, the local
        # check was stricter than the module-wide rule (a stale parent link) and nothing is wrong.
        _current_run[0] = 0
        verify(module)
    finally:
        _current_run[0] = 0


def _check_uses(users: list[Operation]) -> None:
    """Raise when an operand of one of `users` is not visible to it (`_visible`; the blocks'
    position indexes are built once for all of them)."""
    positions: dict[Block, dict[Operation, int]] = {}
    pos: dict[Operation, int] = {}
    j = -1
    for op in users:
        # The user's block's index and the user's place in it (most users have an operand defined
        # earlier in their block: the index is built once per block, looked up once per user).
        b: Any = op.parent
        if b is not None and b.parent is not None:
            known = positions.get(b)
            if known is None:
                known = positions[b] = _positions(b.ops)
            pos, j = known, known.get(op, -1)
        else:
            b = _NO_BLOCK  # no definer's block is it: every operand goes to `_visible`
        for v in op.operands:
            # Most uses: a result of an earlier op of the user's own block (`_visible`'s first rule).
            if isinstance(v, OpResult):
                d = v.op
                if d.parent is b and d is not op and pos.get(d, j) < j:
                    continue
            if not _visible(v, op, positions):
                raise Diagnostic("not visible")


_NO_BLOCK = object()  # the block of a user outside any region: no op is in it


def _positions(ops: list[Operation]) -> dict[Operation, int]:
    """Each op's index in `ops` (built in C: a block may hold 100k ops; ops hash by identity, they
    define no __eq__)."""
    return dict(zip(ops, range(len(ops))))


def _visible(v: Value, user: Operation, positions: dict[Block, dict[Operation, int]]) -> bool:
    """The visibility rule of `_verify_visibility` for one use, by walking up from the user: the
    value's block must hold the user (or an op around it) after the value's definition, or be an
    earlier block of the same region, with no isolated-from-above op crossed on the way."""
    if isinstance(v, OpResult):
        definer: Operation | None = v.op
        home = definer.parent if definer is not None else None
    elif isinstance(v, BlockArgument):
        definer, home = None, v.block
    else:
        return False
    region = home.parent if home is not None else None
    if home is None or region is None:
        return False
    a = user
    while True:
        b = a.parent
        if b is None:
            return False
        if b.parent is region:
            if b is home:
                if definer is None:
                    return True
                if a is definer:
                    return False
                pos = positions.get(home)
                if pos is None:
                    pos = positions[home] = _positions(home.ops)
                i, j = pos.get(definer), pos.get(a)
                return i is not None and j is not None and i < j
            blocks = region.blocks
            return any(x is home for x in blocks[: _block_index(blocks, b)])
        r = b.parent
        owner = r.parent if r is not None else None
        if owner is None:
            return False
        d = owner.opdef
        if d is not None and d.has(ISOLATED):
            return False
        a = owner


def _block_index(blocks: list[Any], block: Any) -> int:
    for i, x in enumerate(blocks):
        if x is block:
            return i
    return 0


_runs = itertools.count(1)
_current_run = [0]


def verification_run() -> int:
    """The number of the `verify` call in progress, 0 outside one. The module does not change while
    it stays the same, so per-op checks may share what they read from the module (its meshes)."""
    return _current_run[0]


def _verify_dialects(ops: list[Operation], module: Module) -> None:
    """Every op ttopt does not define belongs to a registered dialect.

    A pass of its own, before any other check: MLIR rejects such an op while parsing, so it is
    reported before any verifier error of an earlier op."""
    for op in ops:
        if op.opdef is None and not is_registered_dialect(dialect_of(op.name)):
            raise Diagnostic(UNREGISTERED_DIALECT, _after_name(op, module))


def _after_name(op: Operation, module: Module) -> SourcePos | None:
    """The position of the token after the op's quoted name, where MLIR reports a dialect it does
    not know (it finds out when the name has been read)."""
    where = _where(op, module)
    if where is None:
        return None
    text, i = where.source.text, where.offset
    if text.startswith('"', i):
        i += 1
        while i < len(text) and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        i += 1
    while i < len(text):
        if text[i] in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end == -1 else end
        else:
            break
    return SourcePos(where.source, min(i, len(text)))


def _verify_op(op: Operation, module: Module) -> None:
    d = op._opdef  # `op.opdef` without the property call (this runs on every op checked)
    if d is False:
        d = op._opdef = OP_DEFS.get(op.name)
    if d is None:
        # An op ttopt does not define may still be one of its registered dialects' (ttopt
        # knows every name, not every op); a name the dialect lacks is an error, flag or no flag.
        message = unregistered_op_message(op.name)
        if message is not None:
            raise Diagnostic(message, _where(op, module))
    else:
        # Exact counts (most ops) are compared inline: the checks run on every op a pass builds.
        spec = d.operands
        if spec is not None and (len(op.operands) != spec if type(spec) is int else not arity_ok(spec, len(op.operands))):
            raise _fail(op, module, count_message("operand", spec, len(op.operands)))
        spec = d.results
        if spec is not None and (len(op.results) != spec if type(spec) is int else not arity_ok(spec, len(op.results))):
            raise _fail(op, module, count_message("result", spec, len(op.results)))
        if d.regions is not None and len(op.regions) != d.regions:
            raise _fail(op, module, f"expects {d.regions} region(s), got {len(op.regions)}")
        if TERMINATOR in d.traits and op.parent is not None and op.parent.ops[-1] is not op:
            raise _fail(op, module, "must be the last operation of its block")
        if d.extra.get("needs_terminator"):
            for region in op.regions:
                for block in region.blocks:
                    last = block.ops[-1] if block.ops else None
                    ld = last.opdef if last is not None else None
                    # An unregistered op may be a terminator (mlir-opt assumes so too).
                    if last is None or (ld is not None and not ld.has(TERMINATOR)):
                        raise _fail(op, module, "region block must end with a terminator (e.g. return)")
                    want = d.extra.get("terminator_name")
                    if want is not None and last.name != want:  # SingleBlockImplicitTerminator<want>
                        raise _fail(op, module, f"expects regions to end with '{want}', found '{last.name}'")
        if op.name == "func.func" and op.regions:
            _verify_entry_block(op, module)
        elif op.name == "func.return":
            _verify_return(op, module)
        segments = op.properties.get("operandSegmentSizes") if op.properties else None
        if segments is not None:
            _verify_segments(op, module, segments)
        if d.props or d.verify is not None:
            try:
                if d.props:
                    check_properties(op, d.props)
                if d.verify is not None:
                    d.verify(op)
            except Diagnostic as e:
                if e.pos is not None:
                    raise
                raise _fail(op, module, e.message) from None
            except BareOpError as e:
                raise Diagnostic(str(e), _where(op, module)) from None
            except ValueError as e:
                raise _fail(op, module, str(e)) from None
    if op.attributes or "arg_attrs" in op.properties or "res_attrs" in op.properties:  # not most ops a pass builds
        _verify_attributes(op, module)


def _verify_attributes(op: Operation, module: Module) -> None:
    """The dialects' checks of an op's discardable attributes (`sdy.sharding` ...) and of a
    function's argument and result attributes (`OP_ATTRIBUTE_VERIFIERS`; an op with neither has
    nothing they check)."""
    for check in OP_ATTRIBUTE_VERIFIERS:
        try:
            check(op)
        except ValueError as e:
            raise _fail(op, module, str(e)) from None


def _symbol_ops(ops: list[Operation]) -> tuple[list[Operation], list[Operation]]:
    """The symbol tables with regions and the calls among `ops`: what `_verify_symbols` reads."""
    tables = [op for op in ops if op.regions and _is_symbol_table(op)]
    return tables, [op for op in ops if op.name == "func.call"]


def _is_symbol_table(op: Operation) -> bool:
    d = op.opdef
    return d is not None and d.has(SYMBOL_TABLE)


def _verify_symbols(symbol_tables: list[Operation], calls: list[Operation], module: Module) -> None:
    """Symbols are unique in their table, declarations are private, calls name a function.

    `symbol_tables` are the module's symbol tables that have regions (one without holds no symbol
    and encloses no call) and `calls` its `func.call`s, each in pre-order. As MLIR: a flat reference
    resolves in the nearest enclosing symbol table only.
    """
    tables: dict[int, dict[str, Operation]] = {}
    for table in symbol_tables:
        names: dict[str, Operation] = {}
        for region in table.regions:
            for block in region.blocks:
                for op in block.ops:
                    sym = op.properties.get("sym_name")
                    name = getattr(sym, "value", None)
                    if not isinstance(name, str):
                        continue
                    if name in names:
                        raise _fail(op, module, f"redefinition of symbol named '{name}'")
                    names[name] = op
                    if op.name == "func.func" and not op.regions and _visibility(op) == "public":
                        raise _fail(op, module, "symbol declaration cannot have public visibility")
        tables[id(table)] = names
    for op in calls:
        _verify_call(op, module, tables)


def _visibility(op: Operation) -> str:
    v = op.properties.get("sym_visibility")
    return getattr(v, "value", None) or "public"


def _verify_call(call: Operation, module: Module, tables: dict[int, dict[str, Operation]]) -> None:
    ref = call.properties.get("callee")
    if not isinstance(ref, SymbolRefAttr):
        raise _fail(call, module, "requires a 'callee' symbol reference attribute")
    root = ref.root
    table = call.parent_op
    while table is not None and id(table) not in tables:
        table = table.parent_op
    target = tables[id(table)].get(root) if table is not None else None
    for nested in ref.nested:
        inner = tables.get(id(target)) if target is not None else None
        target = inner.get(nested) if inner is not None else None
    if target is None or target.name != "func.func":
        raise _fail(call, module, f"'{ref.print()[1:]}' does not reference a valid function")
    ft = _function_type(target)
    got_in = [v.type for v in call.operands]
    got_out = [r.type for r in call.results]
    if len(got_in) != len(ft.inputs) or len(got_out) != len(ft.results):
        raise _fail(call, module, "incorrect number of operands or results for callee")
    for i, (a, b) in enumerate(zip(got_in, ft.inputs)):
        if a != b:
            raise _fail(call, module, f"operand type mismatch: expected operand type {b.text}, but provided {a.text} for operand number {i}")
    for i, (a, b) in enumerate(zip(got_out, ft.results)):
        if a != b:
            raise _fail(call, module, f"result type mismatch at index {i}")


def _function_type(func: Operation) -> FunctionType:
    """A func.func's signature (its format guarantees a `function_type` of a function type)."""
    a = func.properties.get("function_type")
    t = a.type.resolve() if isinstance(a, TypeAttr) else None
    if not isinstance(t, FunctionType):
        raise ValueError(f"{func.name} has no function_type")
    return t


def _verify_segments(op: Operation, module: Module, segments: Any) -> None:
    """MLIR's AttrSizedOperandSegments check: the segment sizes cover the operands exactly (the
    verifiers and lowerings that split operands by them rely on it)."""
    sizes = int_values(segments)
    if sizes is None:
        return
    if any(n < 0 for n in sizes):
        raise _fail(op, module, "'operandSegmentSizes' attribute cannot have negative elements")
    if sum(sizes) != len(op.operands):
        raise _fail(op, module, f"operand count ({len(op.operands)}) does not match with the total size ({sum(sizes)}) specified in attribute 'operandSegmentSizes'")


def _verify_entry_block(func: Operation, module: Module) -> None:
    ft = _function_type(func)
    entry = func.regions[0].blocks[0] if func.regions[0].blocks else None
    if entry is not None:
        got = [a.type for a in entry.args]
        if len(got) != len(ft.inputs) or any(a != b for a, b in zip(got, ft.inputs)):
            have = ", ".join(t.text for t in got)
            want = ", ".join(t.text for t in ft.inputs)
            raise _fail(func, module, f"entry block arguments ({have}) do not match the function type's inputs ({want})")


def _verify_return(ret: Operation, module: Module) -> None:
    """A func.return against its function's result types (checked at the return, in program
    order, as MLIR's ReturnOp::verify: an invalid op before it is reported first)."""
    func = ret.parent_op
    if func is None or func.name != "func.func":
        return
    ft = _function_type(func)
    got = [v.type for v in ret.operands]
    if len(got) != len(ft.results) or any(a != b for a, b in zip(got, ft.results)):
        want = ", ".join(t.text for t in ft.results) or "nothing"
        have = ", ".join(t.text for t in got) or "nothing"
        raise _fail(ret, module, f"returns ({have}) but the function's result types are ({want})")


@dataclass
class _Walked:
    """What one walk of a module found: the first use of a value where it is not visible, the
    symbol checks' operands, and the scope-table operations it made."""

    hidden: tuple[Operation, Value] | None = None
    tables: list[Operation] = field(default_factory=list)  # symbol tables with regions, pre-order
    calls: list[Operation] = field(default_factory=list)  # func.call ops, pre-order
    work: int = 0
    # One problem per isolated-from-above op (a function) whose body failed, in module order: as
    # MLIR's verifier, a bad op stops its function's verification, not the other functions'.
    errors: list[Diagnostic] = field(default_factory=list)


_tags = itertools.count(1)  # one per region visit, never reused: a value's stale tag matches no open region
# The slot's own setter: a tracked value's __setattr__ (edit_journal) would journal the write.
_tag: Callable[[Value, int], None] = vars(Value)["scope_tag"].__set__


def _walk(module: Module, check_ops: bool) -> _Walked:
    """One pre-order walk of the module: each op's own checks (`_verify_op`, when `check_ops`, raising
    the first failure), the visibility of every operand, and the symbol tables and calls.

    Visibility: every operand is defined before its use in its block, or in an enclosing region.
    Regions of isolated-from-above ops (func.func) see nothing from outside. Blocks after the first
    of a multi-block region see values of earlier blocks (a conservative stand-in for dominance,
    which ttopt's inputs — structured control flow — never need in full). Scoped, as MLIR's verifier
    is: a region's visit tags each value it defines with the visit's number, and an operand is
    visible when its tag belongs to a region still open in the same isolation scope. Nothing is
    copied or removed, and one walk does every check, so each op and value is read once (on a 100k-op
    module memory traffic, not instructions, is what grows).
    """
    out = _Walked()
    tables, calls = out.tables, out.calls
    open_scopes: dict[int, int] = {}  # tag of each region being visited -> its isolation scope
    get = open_scopes.get
    scopes = itertools.count(1)
    tag = _tag

    def visit_region(region: Region, scope: int) -> None:
        t = next(_tags)
        open_scopes[t] = scope
        try:
            visit_blocks(region, scope, t)
        finally:
            del open_scopes[t]

    def visit_blocks(region: Region, scope: int, t: int) -> None:
        work = 0
        for block in region.blocks:
            for a in block.args:
                tag(a, t)
            work += len(block.args)
            for op in block.ops:
                if check_ops:
                    _verify_op(op, module)
                # The op's operands, then its regions, then its results come into scope.
                operands = op.operands
                work += len(operands)
                for v in operands:
                    if get(v.scope_tag) != scope and out.hidden is None:
                        out.hidden = (op, v)
                if op.regions:
                    d = op.opdef
                    if d is not None and d.has(SYMBOL_TABLE):
                        tables.append(op)
                    isolated = d is not None and d.has(ISOLATED)
                    inner = next(scopes) if isolated else scope
                    if isolated and check_ops:
                        try:
                            for nested in op.regions:
                                visit_region(nested, inner)
                        except Diagnostic as e:
                            out.errors.append(e)
                    else:
                        for nested in op.regions:
                            visit_region(nested, inner)
                elif op.name == "func.call":
                    calls.append(op)
                results = op.results
                work += len(results)
                for r in results:
                    tag(r, t)
        out.work += work

    root = module.op
    if check_ops:
        _verify_op(root, module)
    if root.regions and _is_symbol_table(root):
        tables.append(root)
    for region in root.regions:
        visit_region(region, 0)
    return out


def _raise_hidden(walked: _Walked, module: Module) -> None:
    if walked.hidden is not None:
        _not_visible(*walked.hidden, module)


def _verify_visibility(module: Module) -> int:
    """Raise when an operand is not visible where it is used (`_walk`'s rule), else return the
    number of scope-table operations made (tags and lookups: linear in values and operands)."""
    walked = _walk(module, check_ops=False)
    _raise_hidden(walked, module)
    return walked.work


def _not_visible(op: Operation, v: Value, module: Module) -> None:
    owner = v.op.name if isinstance(v, OpResult) else "a block argument"
    where = "later in the block" if isinstance(v, OpResult) and v.op.parent is op.parent else "where it is not visible"
    raise _fail(op, module, f"uses a value (from {owner}) defined {where}")


def visibility_work(module: Module) -> int:
    """The scope-table operations the visibility check makes on `module` (raises as `verify`
    does: each value tagged once, each operand looked up once): what tests count to show verification is linear without timing it."""
    return _verify_visibility(module)


def _verify_use_lists(module: Module) -> None:
    """Use lists agree with operand lists (no stale or missing entries)."""
    from collections import Counter

    expected: Counter[tuple[int, int]] = Counter()
    values: dict[int, Value] = {}
    for op in module.op.walk():
        for v in op.operands:
            expected[(id(v), id(op))] += 1
            values[id(v)] = v
    for vid, v in values.items():
        have = Counter((vid, id(u)) for u in v.uses)
        for key, n in have.items():
            if expected.get(key, 0) != n:
                raise Diagnostic(f"internal: stale use list entry for a value used by {n} operand(s)")
    for key, n in expected.items():
        v = values[key[0]]
        if sum(1 for u in v.uses if id(u) == key[1]) != n:
            raise Diagnostic("internal: an operand is missing from its value's use list")
