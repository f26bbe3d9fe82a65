"""`apply-argument-shard-status` (seed 004 step 3; ref §2.3).

An argument is pre-sharded by the frontend iff it carries a sharding: `sdy.sharding` when the module
has sdy annotations, otherwise a GSPMD `mhlo.sharding`. Every argument of every function gets
`ttcore.shard_status = #ttcore.shard_status<sharded|unsharded>` (the seed's spelling; upstream's
`presharded` is read as `sharded`).

Results: the seed's walkthrough shows no status on results (cases 1-4, 6), so results are only
annotated with `--annotate-results` (upstream 72cb's behaviour, the same rule as arguments).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttopt.ir.attributes import DialectAttr
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import (
    MHLO_SHARDING,
    SDY_SHARDING,
    SHARD_STATUS,
    arg_attrs,
    functions,
    res_attrs,
    set_arg_attrs,
    set_res_attrs,
)
from ttopt.sharding.sdy_ir import sdy_annotations

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext


@register_pass
@dataclass
class ApplyArgumentShardStatus(Pass):
    """Mark each argument sharded (the frontend pre-sharded it) or unsharded."""

    name = "apply-argument-shard-status"
    summary = "Set ttcore.shard_status<sharded|unsharded> on function arguments (and, optionally, results)"

    annotate_results: bool = option(False, "Also set ttcore.shard_status on function results (upstream 72cb behaviour)")

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.dialects.ttcore_attrs import ShardStatus, ShardStatusAttr

        key = SDY_SHARDING if next(sdy_annotations(module), None) is not None else MHLO_SHARDING
        sharded = DialectAttr.of(ShardStatusAttr(value=ShardStatus.SHARDED))
        unsharded = DialectAttr.of(ShardStatusAttr(value=ShardStatus.UNSHARDED))
        counts = {"sharded": 0, "unsharded": 0}

        def mark(dicts: list[dict]) -> list[dict]:
            for d in dicts:
                is_sharded = key in d
                d[SHARD_STATUS] = sharded if is_sharded else unsharded
                counts["sharded" if is_sharded else "unsharded"] += 1
            return dicts

        for f in functions(module):
            set_arg_attrs(f, mark(arg_attrs(f)))
            if self.annotate_results:
                set_res_attrs(f, mark(res_attrs(f)))
        ctx.stats.setdefault(self.name, {}).update(counts)
