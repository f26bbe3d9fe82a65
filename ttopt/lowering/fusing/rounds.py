"""The round loop both fusing passes share: patterns applied to a block until nothing more fuses."""

from __future__ import annotations

from typing import Any, Callable

from ttopt.ir.operation import Block, Operation
from ttopt.lowering.fusing.match import Rejected

MAX_ROUNDS = 8  # a fusion can expose another (an activation into a freshly fused linear)


def fuse_rounds(block: Block, patterns: dict[str, tuple[Callable[[Operation], Any], ...]], apply: Callable[[Any], bool],
                reject: Callable[[Operation, Rejected], None], not_static: type[Exception],
                before_round: Callable[[], None] | None = None, after_round: Callable[[], None] | None = None) -> None:  # fmt: skip
    """Match every op of `block` against its anchor's patterns, in order, for up to MAX_ROUNDS rounds.

    A matcher returns None (no match), a `Rejected` (passed to `reject`) or a candidate (passed to
    `apply`, true when it fused). After a fusion the op's other patterns are not tried; a round
    without one ends the loop. A matcher raising `not_static` (a dynamic shape) matches nothing.
    """
    for _ in range(MAX_ROUNDS):
        if before_round is not None:
            before_round()
        changed = False
        for op in list(block.ops):
            if op.parent is not block:
                continue
            for matcher in patterns.get(op.name, ()):
                try:
                    res = matcher(op)
                except not_static:
                    continue
                if res is None:
                    continue
                if isinstance(res, Rejected):
                    reject(op, res)
                    continue
                if apply(res):
                    changed = True
                    break
        if after_round is not None:
            after_round()
        if not changed:
            break
