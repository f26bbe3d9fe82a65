"""Which ops a pass left as they were, so verifying after it re-checks only the ops it touched.

An op's own checks (arity, properties, its dialect's verifier, the sdy attribute checks) read
the op's name, operands and their types, result types, properties and discardable attributes,
whether it ends its block, the `manual_axes` of the manual computations around it, and the
module's `sdy.mesh` ops and alias definitions. After each verification the pass manager records,
per op, those inputs as the objects they are (attributes and types are never changed in place,
so the same objects mean the same values); an op whose record matches object for object was
verified with exactly these inputs and would pass again, so its checks are skipped. Anything
else is checked: a new op, an op a pass edited. An op with regions (whose checks read its
nested bodies) also records its regions, their blocks, the blocks' arguments and their types and
the blocks' op lists, and counts as unchanged only when every op nested in it does too (each
nested op is looked at once, ahead of its turn, and the answer kept for it). A change to the
module's meshes or aliases drops the record. Comparison is by identity only: an equal but
rebuilt attribute counts as changed, which costs a check, never a missed one.
"""

from __future__ import annotations

from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation

_type = attrgetter("type")


class VerifiedOps:
    """The inputs each op was last verified with; `unchanged` is the verifier's skip test."""

    def __init__(self) -> None:
        # Keyed by the op (ops and blocks hash by identity): a record keeps its op alive, so a key
        # never stands for a later object at the same address.
        self._done: dict[Operation, tuple[tuple[Any, ...], tuple[int, ...]]] = {}
        self._pending: dict[Operation, tuple[tuple[Any, ...], tuple[int, ...]]] = {}
        self._module: tuple[Any, ...] = ()
        self._enclosing: dict[Block, tuple[Any, ...]] = {}
        self._ahead: dict[Operation, bool] = {}  # nested ops answered while looking at their region's owner

    def start(self, module: Module) -> None:
        """Begin a verification of `module` (call `commit` once it has passed)."""
        top = module.op.regions[0].blocks[0].ops if module.op.regions and module.op.regions[0].blocks else []
        # Also the alias table (its version changes with every edit): an alias an op names may
        # have been redefined.
        scope = module.aliases
        state = (module.op, scope, scope.defs.version,
                 *(x for op in top if op.name == "sdy.mesh" for x in (op, *op.properties.values())))  # fmt: skip
        if len(state) != len(self._module) or not all(map(is_, state, self._module)):
            self._done = {}
        self._module = state
        self._pending = {}
        self._enclosing = {}
        self._ahead = {}

    def unchanged(self, op: Operation) -> bool:
        """True when `op` was verified before with the very same inputs (see the module docstring)."""
        known = self._ahead.pop(op, None)
        return self._look(op) if known is None else known

    def _look(self, op: Operation) -> bool:
        block = op.parent
        if block is None:
            return False
        operands = op.operands
        results = op.results
        props = op.properties
        attrs = op.attributes
        around = self._enclosing.get(block)
        if around is None:
            around = self._around(block)
        key = (op.name, block, block.ops[-1] is op, *around, len(operands), *operands,
               *map(_type, operands), len(results), *map(_type, results), len(props), *props,
               *props.values(), len(attrs), *attrs, *attrs.values(), len(op.successors), *op.successors)  # fmt: skip
        nested = True
        counts: tuple[int, ...] = ()
        if op.regions:
            # Counts compare by value (ints above 256 are new objects each time), objects by identity.
            sizes: list[int] = [len(op.regions)]
            parts: list[Any] = []
            for region in op.regions:
                sizes.append(len(region.blocks))
                parts += (region, *region.blocks)
                for b in region.blocks:
                    sizes += (len(b.args), len(b.ops))
                    parts += (*b.args, *map(_type, b.args), *b.ops)
                    for inner in b.ops:
                        # Every nested op is looked at (no early exit): each needs its record.
                        same = self._ahead[inner] = self._look(inner)
                        nested = nested and same
            key = (*key, *parts)
            counts = tuple(sizes)
        self._pending[op] = (key, counts)
        old = self._done.get(op)
        return nested and old is not None and old[1] == counts and len(old[0]) == len(key) and all(map(is_, old[0], key))

    def commit(self) -> None:
        """The verification passed: its records are the ones to compare with next time."""
        self._done = self._pending
        self._pending = {}
        self._enclosing = {}
        self._ahead = {}

    def _around(self, block: Block) -> tuple[Any, ...]:
        """The ops enclosing `block`, each manual computation with its `manual_axes`."""
        found = self._enclosing.get(block)
        if found is None:
            owner = block.parent.parent if block.parent is not None else None
            if owner is None:
                found = ()
            else:
                outer = self._around(owner.parent) if owner.parent is not None else ()
                axes = owner.properties.get("manual_axes") if owner.name == "sdy.manual_computation" else None
                found = (*outer, owner, axes)
            self._enclosing[block] = found
        return found
