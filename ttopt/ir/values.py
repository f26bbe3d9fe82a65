"""SSA values with use lists: results of operations and block arguments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from ttopt.ir.location import Location
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.types import Type


class Value:
    """An SSA value. `uses` lists each using operation once per operand slot it occupies."""

    # `scope_tag`: the verifier's mark of the region visit that defined the value (0: none yet);
    # a tag on the value, not a table keyed by it, keeps the visibility check's memory local.
    __slots__ = ("type", "uses", "name_hint", "scope_tag")

    def __init__(self, type: Type, name_hint: str | None = None) -> None:
        self.type = type
        self.uses: list[Operation] = []
        # Source spelling without '%' (kept for printing when not a plain number).
        self.name_hint = name_hint
        self.scope_tag = 0

    @property
    def users(self) -> list[Operation]:
        """Distinct users in first-use order."""
        seen: dict[int, Operation] = {}
        for op in self.uses:
            seen.setdefault(id(op), op)
        return list(seen.values())

    @property
    def has_one_use(self) -> bool:
        return len(self.uses) == 1

    def replace_all_uses_with(self, new: Value, *, except_in: Any = None) -> None:
        """Rewire every use of this value to `new` (optionally sparing one user)."""
        if new is self:
            return
        keep = []
        seen: set[int] = set()
        for op in self.uses:
            if op is except_in:
                keep.append(op)
                continue
            if id(op) in seen:
                continue  # an op using the value k times is listed k times: rewire it once
            seen.add(id(op))
            ops = op.operands
            for i, v in enumerate(ops):
                if v is self:
                    ops[i] = new
                    new.uses.append(op)
        self.uses = keep

    @property
    def owner(self) -> Any:
        raise NotImplementedError


class OpResult(Value):
    """Result `index` of operation `op`."""

    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: Operation, index: int, name_hint: str | None = None) -> None:
        # Value.__init__ inlined: parsing creates one result per op (a tenth of a 10k-op parse).
        # Operation.parsed sets the same slots itself, without this call: keep the two in step.
        self.type = type
        self.uses: list[Operation] = []
        self.name_hint = name_hint
        self.scope_tag = 0
        self.op = op
        self.index = index

    @property
    def owner(self) -> Operation:
        return self.op

    def __repr__(self) -> str:
        return f"<OpResult #{self.index} of {self.op.name}: {self.type.text}>"


class BlockArgument(Value):
    """Argument `index` of `block`, with its own location."""

    __slots__ = ("block", "index", "location")

    def __init__(
        self,
        type: Type,
        block: Block | None,
        index: int,
        name_hint: str | None = None,
        location: Location | None = None,
    ) -> None:
        super().__init__(type, name_hint)
        self.block = block
        self.index = index
        self.location = location

    @property
    def owner(self) -> Block | None:
        return self.block

    def __repr__(self) -> str:
        return f"<BlockArgument #{self.index}: {self.type.text}>"


def replace_all_uses(pairs: Iterable[tuple[Value, Value]]) -> None:
    """Rewire every use of each old value to its new one, visiting each user's operands once.

    Replacing many values used by one op one at a time rescans that op's operand list per value,
    quadratic for one op with many operands (a 32k-operand concatenate took 30 s): batch them here."""
    olds: list[Value] = []
    mapping: dict[int, Value] = {}
    for old, new in pairs:
        if old is not new:
            olds.append(old)
            mapping[id(old)] = new
    users: dict[int, Operation] = {}
    for old in olds:
        for op in old.uses:
            users.setdefault(id(op), op)
    for op in users.values():
        ops = op.operands
        for i, v in enumerate(ops):
            repl = mapping.get(id(v))
            if repl is not None:
                ops[i] = repl
                repl.uses.append(op)
    for old in olds:
        old.uses = []
