"""SSA values with use lists: results of operations and block arguments."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttopt.ir.location import Location
    from ttopt.ir.operation import Block, Operation
    from ttopt.ir.types import Type


class Value:
    """An SSA value. `uses` lists each using operation once per operand slot it occupies."""

    __slots__ = ("type", "uses", "name_hint")

    def __init__(self, type: Type, name_hint: str | None = None) -> None:
        self.type = type
        self.uses: list[Operation] = []
        # Source spelling without '%' (kept for printing when not a plain number).
        self.name_hint = name_hint

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
        for op in self.uses:
            if op is except_in:
                keep.append(op)
                continue
            ops = op.operands
            for i, v in enumerate(ops):
                if v is self:
                    ops[i] = new
                    new.uses.append(op)
                    break
        self.uses = keep

    @property
    def owner(self) -> Any:
        raise NotImplementedError


class OpResult(Value):
    """Result `index` of operation `op`."""

    __slots__ = ("op", "index")

    def __init__(self, type: Type, op: Operation, index: int, name_hint: str | None = None) -> None:
        super().__init__(type, name_hint)
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
