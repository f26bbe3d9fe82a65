"""Verifying after a pass re-checks only what the pass wrote (the edit journal, `ir/edit_journal.py`).

The first verification of a module checks everything, then tracks every op, block, region and
value in it: from then on each write to them is journaled. The next verification reads the
journal since the last one and re-checks:
- each op written (its operands, properties, attributes, results, successors ...), and the ops
  built since, found as untracked ops in the blocks written (with everything nested in them);
- the ops around each of those (their checks read their bodies: terminators, returned types);
- the users of a value whose type changed, and the op defining it (or owning its block);
- whatever is nested in an op that moved, was renamed or had its regions replaced, in a region
  whose blocks changed, in a block that moved, or in a manual computation whose axes changed;
- the previous last op of a block whose op list changed (a terminator no longer last);
- the sdy ops reading a changed op's results or a changed function's or manual computation's
  arguments (collectives check their operand's sharding, read from its definer);
- visibility over the whole module when a block or region changed or an op moved, else of the
  written ops' operands only; the symbol checks when a symbol, a call or a symbol table changed.
A change to the module's meshes or alias table (read by every sharded op's checks), a different
module, or a record given up (see `_MAX_JOURNAL`) verifies everything again. Any problem found
re-verifies the whole module, so diagnostics are those of a full verification.
"""

from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING, Any

from ttopt.ir.edit_journal import (
    JOURNAL,
    TrackedBlock,
    TrackedBlockArgument,
    TrackedOperation,
    TrackedOpResult,
    TrackedRegion,
    track_block,
    track_op,
    track_region,
)
from ttopt.ir.operation import Block, Region
from ttopt.ir.verifier import Changes, verify, verify_changes

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation

# Journal entries past which the readers give up their records (a reader left alive and unread,
# holding the journal): they verify in full next time.
_MAX_JOURNAL = 2_000_000

# Property / attribute keys the symbol checks read (None: a write of several keys at once).
_SYMBOL_KEYS = frozenset(("sym_name", "sym_visibility", "function_type", "callee", None))
# Op attributes whose write changes what is nested in the op (scopes, enclosing ops), and those
# that change which values are defined where.
_MOVES = frozenset(("parent", "name", "regions"))
_SCOPES = frozenset(("parent", "name", "regions", "results"))


class VerifiedOps:
    """The record of one module verified: its journal position and what the checks read globally."""

    def __init__(self) -> None:
        self._module: Module | None = None
        self._state: tuple[Any, ...] = ()
        self._pos: int | None = None  # journal position read up to; None: no record
        self._last: dict[Block, Operation | None] = {}  # each tracked block's last op when verified
        self.checked: list[Operation] = []  # ops whose own checks ran in the last verification
        self.full = False  # the last verification checked the whole module

    def verify(self, module: Module, allow_unregistered_dialect: bool = True) -> None:
        """Verify `module` (raises Diagnostic), re-checking only what changed since the last time."""
        state = self._global_state(module)
        pos = self._pos
        if (pos is None or module is not self._module or len(state) != len(self._state)
                or not all(map(is_, state, self._state))):  # fmt: skip
            self._drop()
            verify(module, allow_unregistered_dialect=allow_unregistered_dialect)
            self._track_all(module)
            self.full = True
        else:
            changes, new = self._changes(module, JOURNAL.written[pos:])
            try:
                verify_changes(module, changes)
            except BaseException:
                self._drop()
                raise
            self.checked = changes.ops
            self.full = False
            self._track(new, changes.ops)
        self._module = module
        self._state = state
        self._read_up_to_end()

    # -- the record ---------------------------------------------------------------------------
    @staticmethod
    def _global_state(module: Module) -> tuple[Any, ...]:
        """What every op's checks may read besides the op: the meshes and the alias table."""
        top = module.op.regions[0].blocks[0].ops if module.op.regions and module.op.regions[0].blocks else []
        scope = module.aliases
        return (module.op, scope, scope.defs.version,
                *(x for op in top if op.name == "sdy.mesh" for x in (op, *op.properties.values())))  # fmt: skip

    def _drop(self) -> None:
        self._pos = None
        self._module = None
        self._last = {}
        JOURNAL.readers.discard(self)
        JOURNAL.on = bool(JOURNAL.readers)

    def _read_up_to_end(self) -> None:
        JOURNAL.readers.add(self)
        JOURNAL.on = True
        readers = list(JOURNAL.readers)
        written = JOURNAL.written
        self._pos = len(written)
        low = min((r._pos for r in readers if r._pos is not None), default=len(written))
        if low:
            del written[:low]
            for r in readers:
                if r._pos is not None:
                    r._pos -= low
        if len(written) > _MAX_JOURNAL:
            for r in readers:
                if r is not self:
                    r._drop()
            written.clear()
            self._pos = 0
            JOURNAL.readers.add(self)
            JOURNAL.on = True

    def __del__(self) -> None:
        try:
            JOURNAL.readers.discard(self)
            JOURNAL.on = bool(JOURNAL.readers)
            if not JOURNAL.on:
                JOURNAL.written.clear()
        except Exception:  # interpreter shutdown
            pass

    def _track_all(self, module: Module) -> None:
        last = self._last = {}
        for op in module.op.walk():
            track_op(op)
            for region in op.regions:
                track_region(region)
                for block in region.blocks:
                    track_block(block)
                    last[block] = block.ops[-1] if block.ops else None
        self.checked = []

    def _track(self, new: list[Any], checked: list[Operation]) -> None:
        """Track what this verification looked at: new ops' subtrees, written blocks and regions."""
        last = self._last
        for op in checked:
            track_op(op)
        for x in new:
            if isinstance(x, Block):
                track_block(x)
                last[x] = x.ops[-1] if x.ops else None
            elif isinstance(x, Region):
                track_region(x)
            else:
                for inner in x.walk():
                    track_op(inner)
                    for region in inner.regions:
                        track_region(region)
                        for block in region.blocks:
                            track_block(block)
                            last[block] = block.ops[-1] if block.ops else None

    # -- what changed -------------------------------------------------------------------------
    def _changes(self, module: Module, written: list[Any]) -> tuple[Changes, list[Any]]:
        """The checks the journal entries call for, and what to track once they pass."""
        root = module.op
        attached: dict[int, bool] = {id(root): True}

        def inside(op: Operation | None) -> bool:
            """`op` is in the module (answers kept for every op on the way up)."""
            path: list[int] = []
            ans = False
            while op is not None:
                known = attached.get(id(op))
                if known is not None:
                    ans = known
                    break
                path.append(id(op))
                b = op.parent
                r = b.parent if b is not None else None
                op = r.parent if r is not None else None
            for k in path:
                attached[k] = ans
            return ans

        check: dict[int, Operation] = {}
        uses: dict[int, Operation] = {}
        subtrees: list[Operation] = []  # ops whose nested ops are all checked again
        new: list[Any] = []  # blocks and regions to track again, untracked ops (new subtrees)
        scopes = False
        symbols = False
        seen: set[Any] = set()

        for entry in written:
            if type(entry) is tuple:
                obj, name = entry
            else:
                obj, name = entry, None
            key = (id(obj), name)
            if key in seen:
                continue
            seen.add(key)
            if type(obj) is TrackedOperation:
                if not inside(obj):
                    continue
                check[id(obj)] = obj
                uses[id(obj)] = obj
                if name in _SCOPES:
                    scopes = symbols = True
                if name in _MOVES:
                    subtrees.append(obj)
                elif name in _SYMBOL_KEYS or name == "properties":
                    symbols = True
                if obj.name == "sdy.manual_computation" and name in ("properties", "manual_axes", None):
                    subtrees.append(obj)
            elif type(obj) is TrackedBlock:
                owner = obj.parent.parent if obj.parent is not None else None
                if owner is None or not inside(owner):
                    continue
                scopes = symbols = True
                check[id(owner)] = owner
                new.append(obj)
                prev = self._last.get(obj)
                if prev is not None and prev.parent is obj:
                    check[id(prev)] = prev
                for op in obj.ops:
                    if type(op) is not TrackedOperation:
                        new.append(op)
                        subtrees.append(op)
                        check[id(op)] = op
                    elif name == "parent":
                        subtrees.append(op)
                        check[id(op)] = op
                if obj.ops:
                    check[id(obj.ops[-1])] = obj.ops[-1]
            elif type(obj) is TrackedRegion:
                owner = obj.parent
                if owner is None or not inside(owner):
                    continue
                scopes = symbols = True
                check[id(owner)] = owner
                new.append(obj)
                for block in obj.blocks:
                    new.append(block)
                    for op in block.ops:
                        new.append(op)
                        subtrees.append(op)
                        check[id(op)] = op
            elif type(obj) is TrackedOpResult or type(obj) is TrackedBlockArgument:
                if type(obj) is TrackedOpResult:
                    owner = obj.op
                else:
                    region = obj.block.parent if obj.block is not None else None
                    owner = region.parent if region is not None else None
                if owner is None or not inside(owner):
                    continue
                check[id(owner)] = owner
                for u in obj.uses:
                    if inside(u):
                        check[id(u)] = u

        for op in subtrees:
            for inner in op.walk():
                check[id(inner)] = inner
                uses[id(inner)] = inner
        # Readers of a changed op: sdy ops read their operands' definers (shardings), a function's
        # or manual computation's arguments; an op with regions reads its bodies.
        for op in list(check.values()):
            name = op.name
            if name == "func.call":
                symbols = True
            for r in op.results:
                for u in r.uses:
                    if u.name.startswith("sdy.") and id(u) not in check and inside(u):
                        check[id(u)] = u
            if name == "func.func" or name == "sdy.manual_computation" or name == "sdy.data_flow_edge":
                values = [v for region in op.regions for block in region.blocks for v in block.args]
                values += op.operands if name == "sdy.data_flow_edge" else ()
                for v in values:
                    for u in v.uses:
                        if u.name.startswith("sdy.") and id(u) not in check and inside(u):
                            check[id(u)] = u
        for op in list(check.values()):
            up = op.parent_op
            while up is not None and id(up) not in check:
                check[id(up)] = up
                up = up.parent_op
        changes = Changes(ops=list(check.values()), uses=list(uses.values()), scopes=scopes, symbols=symbols)
        return changes, new
