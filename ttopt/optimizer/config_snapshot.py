"""What a function's ops look like before a rewrite that only re-configures them, so the driver can
put it back when the rewrite is estimated slower than the function it was given.

Without memory-layout analysis (optimization level 1) every op takes its first legal config, as
tt-mlir does; on IR whose layouts were already chosen (an input placed in L1, or a reshard written
as `ttnn.to_memory_config`) that plan can cost more than the input, and no level may be slower than
level 0. Such a rewrite inserts no ops, so restoring each op's attributes and result types, the
function's type, and dropping the aliases it defined restores the function exactly."""

from __future__ import annotations

from typing import Any

from ttopt.optimizer.rewrite import LayoutAliaser


def _restore_dict(d: Any, old: dict[str, Any]) -> None:
    # Key by key: the IR's dicts may be journalled for verification, which sees only item writes.
    for k in [k for k in d if k not in old]:
        d.pop(k)
    for k, v in old.items():
        if d.get(k) is not v:
            d[k] = v


class ConfigSnapshot:
    """Attributes and result types of every op of a block, the function's own, and the alias count."""

    def __init__(self, func: Any, block: Any, aliaser: LayoutAliaser) -> None:
        self._func = (func, dict(func.properties), dict(func.attributes))
        self._ops = [(op, dict(op.properties), dict(op.attributes), [r.type for r in op.results]) for op in block.ops]
        self._aliaser = aliaser
        self._mark = aliaser.mark()

    def restore(self) -> None:
        """Put every op, the function and the alias table back as they were when taken."""
        func, props, attrs = self._func
        _restore_dict(func.properties, props)
        _restore_dict(func.attributes, attrs)
        for op, props, attrs, types in self._ops:
            _restore_dict(op.properties, props)
            _restore_dict(op.attributes, attrs)
            for r, t in zip(op.results, types):
                if r.type is not t:
                    r.type = t
        self._aliaser.rollback(self._mark)
