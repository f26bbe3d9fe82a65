"""Verifying after a pass re-checks only what the pass wrote (the edit journal, `ir/edit_journal.py`).

The first verification of a module checks everything, then tracks every op, block, region and
value in it: from then on each write to them is journaled. The next verification reads the
journal since the last one and re-checks:
- each op written (its operands, properties, attributes, results, successors ...), and the ops
  built since, found as untracked ops in the blocks written (with everything nested in them);
  an op whose only write is an `sdy.sharding` attribute has only that attribute's check run
  (`ATTRIBUTE_ONLY_VERIFIERS`, given all such ops at once), and
  one whose only write replaced operands by values of the very same type objects only has those
  uses checked (no check outside the sdy dialect reads an operand's definer, only its type);
- the ops around each of those (their checks read their bodies: terminators, returned types);
- the users of a value whose type changed, and the op defining it (or owning its block);
- whatever is nested in an op that moved, was renamed or had its regions replaced, in a region
  whose blocks changed, in a block that moved, or in a manual computation whose axes changed;
- the previous last op of a block whose op list changed (a terminator no longer last);
- the sdy ops reading a changed op's results or a changed function's or manual computation's
  arguments (collectives check their operand's sharding, read from its definer);
- visibility of the operands of the ops written, built or moved, and of the users of ops moved
  or taken out of their block; over the whole module instead when a block's remaining ops changed
  order, a block's arguments or a region's blocks changed, or an op got new results or regions or
  was renamed while holding regions (isolation). The symbol checks when a symbol, a call or a symbol table changed.
A change to the module's meshes or alias table (read by every sharded op's checks), a different
module, or a record given up (see `_MAX_JOURNAL`) verifies everything again. Any problem found
re-verifies the whole module, so diagnostics are those of a full verification.
"""

from __future__ import annotations

from itertools import compress, filterfalse
from operator import is_, not_
from typing import TYPE_CHECKING, Any, Iterable

from ttopt.ir.attributes import ATTRIBUTE_ONLY_VERIFIERS
from ttopt.ir.edit_journal import (
    JOURNAL,
    NO_KEY,
    TrackedBlock,
    TrackedBlockArgument,
    TrackedOperation,
    TrackedOpResult,
    TrackedRegion,
    track_block,
    track_new_ops,
    track_op,
    track_region,
)
from ttopt.ir.opdef import SYMBOL_TABLE
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.verifier import Changes, verify, verify_changes

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value

# Journal entries past which the readers give up their records (a reader left alive and unread,
# holding the journal): they verify in full next time.
_MAX_JOURNAL = 2_000_000

# The share of the module's ops past which a verification checks the whole module in one walk.
_MOST = 0.5
_FEW = 1000  # below this many changed ops, checking them one by one is cheap whatever the module

# Property / attribute keys the symbol checks read (None: a write of several keys at once).
_SYMBOL_KEYS = frozenset(("sym_name", "sym_visibility", "function_type", "callee", None))
# Op attributes whose write changes what is nested in the op (scopes, enclosing ops), and those
# that change which values are defined where or how scopes nest (checked over the whole module).
_MOVES = frozenset(("parent", "name", "regions"))
_SCOPES = frozenset(("name", "regions", "results"))
# Op attributes holding the lists and dicts tracking replaces by tracked copies.
_CONTAINERS = frozenset(("operands", "results", "properties", "attributes", "regions", "successors"))
# Ops whose block arguments (and, for a data-flow edge, operands) sdy ops read shardings through.
_ARGUMENT_OWNERS = frozenset(("func.func", "sdy.manual_computation", "sdy.data_flow_edge"))


class VerifiedOps:
    """The record of one module verified: its journal position and what the checks read globally."""

    def __init__(self) -> None:
        self._module: Module | None = None
        self._state: tuple[Any, ...] = ()
        self._pos: int | None = None  # journal position read up to; None: no record
        self._ops_of: dict[Block, tuple[Operation, ...]] = {}  # each tracked block's ops when verified
        self.checked: list[Operation] = []  # ops whose (attribute) checks ran in the last verification
        self.full = False  # the last verification checked the whole module
        self._size = 0  # ops in the module when last verified in full

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
            # When most of the module changed (a pass that moved or retyped everything), one full
            # verification walks it once instead of once per change.
            most = max(_MOST * self._size, _FEW)
            # Visibility of the uses is checked use by use (`verifier._visible`): each costs a few
            # lookups in its block's position index, never more than the whole-module walk would.
            changes, new, retrack, whole = self._changes(module, JOURNAL.entries(pos), most)
            try:
                if whole:
                    verify(module)
                else:
                    verify_changes(module, changes)
            except BaseException:
                self._drop()
                raise
            self.checked = [*changes.ops, *changes.attributes]
            self.full = whole
            self._track(new, retrack)
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
        self._ops_of = {}
        JOURNAL.readers.discard(self)
        JOURNAL.on = bool(JOURNAL.readers)

    def _read_up_to_end(self) -> None:
        JOURNAL.readers.add(self)
        JOURNAL.on = True
        readers = list(JOURNAL.readers)
        self._pos = len(JOURNAL)
        low = min((r._pos for r in readers if r._pos is not None), default=len(JOURNAL))
        if low:
            JOURNAL.drop_before(low)
            for r in readers:
                if r._pos is not None:
                    r._pos -= low
        if len(JOURNAL) > _MAX_JOURNAL:
            for r in readers:
                if r is not self:
                    r._drop()
            JOURNAL.drop_before(len(JOURNAL))
            self._pos = 0
            JOURNAL.readers.add(self)
            JOURNAL.on = True

    def __del__(self) -> None:
        try:
            JOURNAL.readers.discard(self)
            JOURNAL.on = bool(JOURNAL.readers)
            if not JOURNAL.on:
                JOURNAL.drop_before(len(JOURNAL))
        except Exception:  # at interpreter shutdown JOURNAL may already be gone: nothing left to release
            pass

    def _track_all(self, module: Module) -> None:
        self._ops_of = {}
        self._size = self._track_subtree(module.op)
        self.checked = []

    def _track_subtree(self, root: Operation) -> int:
        """Track `root`, every op nested in it and their regions and blocks; the number of ops."""
        if not root.regions:  # most new ops (no walk needed)
            track_op(root)
            return 1
        ops_of = self._ops_of
        n = 0
        for op in root.walk():
            n += 1
            track_op(op)
            for region in op.regions:
                track_region(region)
                for block in region.blocks:
                    track_block(block)
                    ops_of[block] = tuple(block.ops)
        return n

    def _track(self, new: list[Any], retrack: list[Operation]) -> None:
        """Track what this verification looked at: new subtrees, written blocks and regions, ops
        whose lists or dicts were replaced."""
        ops_of = self._ops_of
        for op in retrack:
            track_op(op)
        built: list[Operation] = []  # most: new ops of a pass
        for x in new:
            if type(x) is Operation and not x.regions:
                built.append(x)
            elif isinstance(x, Block):
                track_block(x)
                ops_of[x] = tuple(x.ops)
            elif isinstance(x, Region):
                track_region(x)
            else:
                self._track_subtree(x)
        track_new_ops(built)

    # -- what changed -------------------------------------------------------------------------
    def _changes(self, module: Module, written: Iterable[tuple[Any, str, Any]],
                 most: float) -> tuple[Changes, list[Any], list[Operation], bool]:  # fmt: skip
        """The checks the journal entries call for; what to track once they pass (blocks, regions
        and subtrees; ops whose lists or dicts were replaced); whether more than `most` ops changed
        (then the checks are not worked out further: the whole module is verified)."""
        root = module.op
        attached: dict[Operation, bool] = {root: True}  # ops (and blocks) hash by identity
        in_block: dict[Block, bool] = {}  # per block reached: its ops are in the module

        def inside(op: Operation | None) -> bool:
            """`op` is in the module (answers kept for every op and block on the way up)."""
            if op is None:
                return False
            b = op.parent
            if b is not None:  # most ops asked about share a few blocks
                known = in_block.get(b)
                if known is not None:
                    return known
            path: list[Operation] = []
            blocks: list[Block] = []
            ans = False
            while op is not None:
                known = attached.get(op)
                if known is not None:
                    ans = known
                    break
                path.append(op)
                b = op.parent
                if b is not None:
                    blocks.append(b)
                r = b.parent if b is not None else None
                op = r.parent if r is not None else None
            attached.update(dict.fromkeys(path, ans))
            in_block.update(dict.fromkeys(blocks, ans))
            return ans

        check: dict[Operation, Operation] = {}  # keyed by the ops themselves (identity)
        light: dict[Operation, Operation] = {}  # ops whose only writes are in ATTRIBUTE_ONLY_VERIFIERS
        uses: dict[Operation, Operation] = {}
        subtrees: list[Operation] = []  # ops whose nested ops are all checked again
        new: list[Any] = []  # blocks and regions to track again, subtrees to track (new ops ...)
        retrack: dict[Operation, Operation] = {}  # tracked ops whose lists or dicts were replaced
        scopes = False
        symbols = False
        seen: set[tuple[Any, str, Any]] = set()  # entries read

        for obj, name, key in written:
            if type(obj) is TrackedOperation:
                # The most frequent entries first: an op taken out of its block (its block's
                # write covers it), one operand replaced by a value of the same type, a sharding
                # written (a propagation writes thousands).
                b = obj.parent
                if b is None:
                    if obj is not root:
                        continue
                elif in_block.get(b) is not True and not inside(obj):
                    continue
                if name == "operand" and key is NO_KEY:  # an operand replaced by one of the same type object
                    uses[obj] = obj
                    if obj.name[:4] == "sdy.":  # sdy ops read their operands' definers
                        check[obj] = obj
                    continue
                # An attribute only its dialect's attribute check reads: only that check runs again.
                if key in ATTRIBUTE_ONLY_VERIFIERS and name == "attributes":
                    light[obj] = obj
                    continue
            elif name == "typed":  # a new value wired in as an operand of the same type: retyped since?
                if obj.type is not key:
                    for u in obj.uses:
                        if inside(u):
                            check[u] = u
                continue
            elif type(obj) is Operation:  # a write to the lists of an op no longer tracked (`untrack_op`)
                continue
            # The entries above may repeat (they only mark ops, in dicts); the others are read once.
            entry = (obj, name, key)
            if entry in seen:
                continue
            seen.add(entry)
            where: str | None = None
            if key is not NO_KEY:  # a dict write: `name` is the dict, `key` its key
                where, name = name, key
            if type(obj) is TrackedOperation:
                if where is not None:  # a key of its properties or attributes
                    check[obj] = obj
                    if where == "properties" and name in _SYMBOL_KEYS:
                        symbols = True
                    if obj.name == "sdy.manual_computation" and where == "properties" and name in ("manual_axes", None):
                        subtrees.append(obj)
                    continue
                check[obj] = obj
                if name in _CONTAINERS:
                    retrack[obj] = obj
                    if name == "regions":
                        new.append(obj)  # its regions may be new: the whole subtree is tracked
                if name == "operands":
                    uses[obj] = obj
                if name in _SCOPES and (name != "name" or obj.regions):  # a name sets isolation, of regions
                    scopes = symbols = True
                if name in _MOVES:
                    subtrees.append(obj)
                    for r in obj.results:  # its users may now come before it
                        for u in r.uses:
                            if inside(u):
                                uses[u] = u
                elif name == "properties":
                    symbols = True
                    if obj.name == "sdy.manual_computation":
                        subtrees.append(obj)
            elif type(obj) is TrackedBlock:
                owner = obj.parent.parent if obj.parent is not None else None
                if owner is None or not inside(owner):
                    continue
                check[owner] = owner
                new.append(obj)
                d = owner.opdef
                if d is not None and d.has(SYMBOL_TABLE):
                    symbols = True
                before = self._ops_of.get(obj)
                if before is None:
                    scopes = symbols = True
                    before = ()
                elif before:
                    check[before[-1]] = before[-1]  # a terminator that may no longer be last
                ops = obj.ops
                if ops:
                    check[ops[-1]] = ops[-1]
                came, gone, reordered = _block_diff(before, ops)
                if name != "ops" or reordered:
                    scopes = symbols = True  # moved, arguments changed or ops reordered: every use is checked
                for op in gone:  # gone: its users must not see its results any more
                    for r in op.results:
                        for u in r.uses:
                            if inside(u):
                                uses[u] = u
                if name == "parent":
                    for op in ops:
                        if type(op) is not TrackedOperation:
                            new.append(op)
                        subtrees.append(op)
                else:
                    fresh = [op for op in came if type(op) is not TrackedOperation]
                    new += fresh
                    subtrees += fresh
            elif type(obj) is TrackedRegion:
                owner = obj.parent
                if owner is None or not inside(owner):
                    continue
                scopes = symbols = True
                check[owner] = owner
                new.append(obj)
                for block in obj.blocks:
                    new.append(block)
                    for op in block.ops:
                        new.append(op)
                        subtrees.append(op)
                        check[op] = op
            elif type(obj) is TrackedOpResult or type(obj) is TrackedBlockArgument:
                if isinstance(obj, TrackedOpResult):
                    owner = obj.op
                else:
                    region = obj.block.parent if obj.block is not None else None
                    owner = region.parent if region is not None else None
                if owner is None or not inside(owner):
                    continue
                check[owner] = owner
                for u in obj.uses:
                    if inside(u):
                        check[u] = u

        for op in subtrees:
            if not op.regions:  # most new ops
                check[op] = uses[op] = op
                if "sym_name" in op.properties or op.name == "func.call":
                    symbols = True  # a symbol or call moved or new
                continue
            for inner in op.walk():
                check[inner] = inner
                uses[inner] = inner
                if inner.name == "func.call" or "sym_name" in inner.properties:
                    symbols = True
        if len(check) > most:
            return Changes(ops=list(check.values())), new, list(retrack.values()), True
        # Readers of a changed op: sdy ops read their operands' definers (shardings), a function's
        # or manual computation's arguments; an op with regions reads its bodies.
        for op in [*check.values(), *light.values()]:
            name = op.name
            if name == "func.call":
                symbols = True
            for r in op.results:
                for u in r.uses:
                    if u not in check and u.name[:4] == "sdy." and inside(u):
                        check[u] = u
            if name in _ARGUMENT_OWNERS:
                values: list[Value] = [v for region in op.regions for block in region.blocks for v in block.args]
                if name == "sdy.data_flow_edge":
                    values += op.operands
                for v in values:
                    for u in v.uses:
                        if u not in check and u.name[:4] == "sdy." and inside(u):
                            check[u] = u
        # The ops around are the same for all the ops of a block: walked up from the first op of each
        # run of ops of one block (an op whose block was walked before stops at its first step up).
        walked: Block | None = None
        for op in [*check.values(), *light.values()]:
            b = op.parent
            if b is walked:
                continue
            walked = b
            up = op.parent_op
            while up is not None and up not in check:
                check[up] = up
                up = up.parent_op
        attributes = [op for k, op in light.items() if k not in check]
        changes = Changes(ops=list(check.values()), attributes=attributes, uses=list(uses.values()),
                          scopes=scopes, symbols=symbols)  # fmt: skip
        return changes, new, list(retrack.values()), False


def _block_diff(before: tuple[Operation, ...], ops: list[Operation]) -> tuple[list[Operation], list[Operation], bool]:
    """The ops of a block that came (new, or moved in) and that went since it held `before`, and
    whether the ops it kept changed order."""
    # Most often a pass only built ops (untracked) and took out ops it untracked (`untrack_op`):
    # then the tracked ops are as they were, and the untracked ones are what came and went. A few
    # comprehensions over the block cost much less than the set operations below (a block may
    # hold 100k ops).
    came = [op for op in ops if type(op) is not TrackedOperation]
    gone = [op for op in before if type(op) is not TrackedOperation]
    if len(ops) - len(came) == len(before) - len(gone) and (not came or not gone or set(came).isdisjoint(gone)):
        kept_now = [op for op in ops if type(op) is TrackedOperation] if came else ops
        kept_before = [op for op in before if type(op) is TrackedOperation] if gone else list(before)
        if kept_now == kept_before:
            return came, gone, False
    # Set and list operations over the whole block run in C (ops hash by identity: they define no
    # __eq__); the Python loops go over the ops that came or went only.
    was = set(before)
    stayed = list(map(was.__contains__, ops))
    came = [] if all(stayed) else list(compress(ops, map(not_, stayed)))  # new, or moved in
    kept_now = list(compress(ops, stayed)) if came else ops
    gone = []
    reordered = False
    if kept_now != list(before):  # ops gone, or reordered
        now = set(ops)
        kept_before = list(filter(now.__contains__, before))
        if len(kept_before) != len(before):
            gone = list(filterfalse(now.__contains__, before))
        reordered = kept_before != kept_now
    return came, gone, reordered
