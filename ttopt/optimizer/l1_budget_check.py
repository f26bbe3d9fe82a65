"""L1 budget checker: replay a function's schedule and find the first position
whose L1 use exceeds the budget according to the op model.

At each top-level op (in block order) the L1 in use per core is the op's own peak from the op model
(circular buffers + its L1 inputs + its output, `validate_current`) plus every *other* L1 tensor
that is live across it: block arguments and earlier results that are in L1 and still have a user at
or after this position (or are returned). Ops the model cannot evaluate count their L1 operands and
result only. Used by tests and by `--verify-l1-budget`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttopt.device import layout_info
from ttopt.device.rules.transformer import has_one_config
from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout

IGNORED = frozenset({"ttnn.get_device", "ttnn.deallocate", "func.return"})


@dataclass(frozen=True)
class BudgetViolation:
    position: int
    op: Any
    label: str
    used: int
    budget: int
    detail: str

    def message(self) -> str:
        return (f"L1 budget exceeded at schedule position {self.position} ('{self.label}', {self.op.name}): "
                f"{self.used} B/core in use > usable {self.budget} B/core ({self.detail})")  # fmt: skip


def _l1_bytes(value: Any) -> int:
    t = value.type.resolve()
    if not isinstance(t, TensorType):
        return 0
    lay = current_layout(t)
    if lay is None or not lay.is_l1:
        return 0
    try:
        return layout_info(lay).per_core_bytes
    except Exception:  # noqa: BLE001  (a layout the model cannot size)
        return 0


def check_l1_budget(block: Any, model: Any, labels: dict[Any, str] | None = None) -> BudgetViolation | None:
    """The first violating position of `block`, or None."""
    labels = labels or {}
    ops = list(block.ops)
    pos = {op: i for i, op in enumerate(ops)}
    budget = model.usable_l1
    n = len(ops)

    def last_use(value: Any) -> int:
        last = -1
        for u in value.users:
            top = u.ancestor_in(pos)
            p = pos.get(top, n) if top is not None else n
            last = max(last, n if u.name == "func.return" else p)
        return last

    live: list[tuple[Any, int, int, int]] = []  # value, start, end, bytes
    for a in block.args:
        b = _l1_bytes(a)
        if b:
            live.append((a, -1, last_use(a), b))
    for i, op in enumerate(ops):
        for r in op.results:
            b = _l1_bytes(r)
            if b:
                live.append((r, i, last_use(r), b))
    for i, op in enumerate(ops):
        if op.name in IGNORED:
            continue
        operands = set(map(id, op.operands))
        results = set(map(id, op.results))
        others = sum(b for v, s, e, b in live if s < i <= e and id(v) not in operands and id(v) not in results)
        own = 0
        detail = ""
        if has_one_config(op) and isinstance(op.results[0].type.resolve(), TensorType):
            r = model.validate_current(op)
            if r.l1.peak or r.ok:
                own = r.l1.peak
                detail = f"op peak {own} + live {others}"
        if not detail:
            seen = set()
            for v in list(op.operands) + list(op.results):
                if id(v) not in seen:
                    seen.add(id(v))
                    own += _l1_bytes(v)
            detail = f"op tensors {own} + live {others}"
        used = own + others
        if used > budget:
            return BudgetViolation(i, op, labels.get(op, op.name), used, budget, detail)
    return None


def verify_l1_budget(block: Any, model: Any, labels: dict[Any, str] | None = None) -> None:
    """Raise a Diagnostic naming the first op whose position exceeds the L1 budget."""
    v = check_l1_budget(block, model, labels)
    if v is not None:
        raise Diagnostic(f"ttnn-optimizer: --verify-l1-budget: {v.message()}")
