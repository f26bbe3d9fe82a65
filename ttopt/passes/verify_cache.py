"""Which ops a pass left as they were, so verifying after it re-checks only the ops it touched.

An op's own checks (arity, properties, its dialect's verifier, the sdy attribute checks) read
the op's name, operands and their types, result types, properties and discardable attributes,
whether it ends its block, the `manual_axes` of the manual computations around it, and the
module's `sdy.mesh` ops and alias definitions. After each verification the pass manager records,
per op, those inputs as the objects they are (attributes and types are never changed in place,
so the same objects mean the same values); an op whose record matches object for object was
verified with exactly these inputs and would pass again, so its checks are skipped. Anything
else is checked: a new op, an op a pass edited, and every op with regions (their checks read
nested bodies). A change to the module's meshes or aliases drops the record. Comparison is by
identity only: an equal but rebuilt attribute counts as changed, which costs a check, never a
missed one.
"""

from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Block, Operation


class VerifiedOps:
    """The inputs each op was last verified with; `unchanged` is the verifier's skip test."""

    def __init__(self) -> None:
        self._done: dict[int, tuple[Operation, tuple[Any, ...]]] = {}
        self._pending: dict[int, tuple[Operation, tuple[Any, ...]]] = {}
        self._module: tuple[Any, ...] = ()
        self._enclosing: dict[int, tuple[Any, ...]] = {}

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

    def unchanged(self, op: Operation) -> bool:
        """True when `op` was verified before with the very same inputs (see the module docstring)."""
        if op.regions or op.parent is None:
            return False
        block = op.parent
        operands = op.operands
        results = op.results
        props = op.properties
        attrs = op.attributes
        key = (op.name, block, block.ops[-1] is op, *self._around(block), len(operands), *operands,
               *[v.type for v in operands], len(results), *[r.type for r in results], len(props), *props,
               *props.values(), len(attrs), *attrs, *attrs.values(), len(op.successors), *op.successors)  # fmt: skip
        self._pending[id(op)] = (op, key)
        old = self._done.get(id(op))
        return old is not None and old[0] is op and len(old[1]) == len(key) and all(map(is_, old[1], key))

    def commit(self) -> None:
        """The verification passed: its records are the ones to compare with next time."""
        self._done = self._pending
        self._pending = {}
        self._enclosing = {}

    def _around(self, block: Block) -> tuple[Any, ...]:
        """The ops enclosing `block`, each manual computation with its `manual_axes`."""
        found = self._enclosing.get(id(block))
        if found is None:
            owner = block.parent.parent if block.parent is not None else None
            if owner is None:
                found = ()
            else:
                outer = self._around(owner.parent) if owner.parent is not None else ()
                axes = owner.properties.get("manual_axes") if owner.name == "sdy.manual_computation" else None
                found = (*outer, owner, axes)
            self._enclosing[id(block)] = found
        return found
