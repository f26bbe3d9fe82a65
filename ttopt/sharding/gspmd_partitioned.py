"""GSPMD-partitioned modules: the `custom_call @Sharding` + `@SPMDFullToShardShape` /
`@SPMDShardToFullShape` pairs JAX (GSPMD mode) and torch-xla put around a manually partitioned body.

```
%0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[8,1]<=[8]}"}
%1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"}  // local type
...  local body, collectives with replica_groups ...
%5 = stablehlo.custom_call @Sharding(%4) {mhlo.sharding = "{manual}"}
%6 = stablehlo.custom_call @SPMDShardToFullShape(%5) {mhlo.sharding = "{devices=[8,1]<=[8]}"}
```

The body is already local, so the pipeline leaves it alone, as tt-mlir does (its
wrap-under-manual-computation and update-global-to-local-shapes skip GSPMD modules); each pair is
the boundary a Shardy manual computation has, and `convert-to-ttir` makes it the same
`ttir.mesh_shard` (gspmd_to_ttir.py). This module finds the pairs and reads their global sharding
as an sdy sharding on the module's mesh; a pair it cannot read is an error at its op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from ttopt.ir.values import OpResult
from ttopt.sharding import gspmd
from ttopt.sharding.diagnostics import fail
from ttopt.sharding.func_attrs import MHLO_SHARDING, functions
from ttopt.sharding.ir_views import str_value

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.operation import Operation
    from ttopt.sharding.mesh import Mesh

SHARDING = "Sharding"
FULL_TO_SHARD = "SPMDFullToShardShape"
SHARD_TO_FULL = "SPMDShardToFullShape"
SPMD_TARGETS = (FULL_TO_SHARD, SHARD_TO_FULL)


def call_target(op: Operation) -> str | None:
    """The `call_target_name` of a `stablehlo.custom_call`, None for any other op."""
    if op.name != "stablehlo.custom_call":
        return None
    target = op.properties.get("call_target_name")
    return str_value(target) if target is not None else None


def sharding_text(module: Module, op: Operation) -> str:
    """The op's `mhlo.sharding` string (an error at the op when it has none)."""
    attr = op.attributes.get(MHLO_SHARDING)
    if attr is None:
        raise fail(module, op, f"custom_call @{call_target(op)} has no mhlo.sharding")
    return str(getattr(attr, "value", attr.text))


def spmd_ops(module: Module) -> Iterator[Operation]:
    """Every `@SPMDFullToShardShape` / `@SPMDShardToFullShape` custom call, in walk order."""
    for f in functions(module):
        for op in f.walk():
            if call_target(op) in SPMD_TARGETS:
                yield op


def is_partitioned(module: Module) -> bool:
    """A GSPMD-partitioned module: it has SPMD shape custom calls (its body is local already)."""
    return next(spmd_ops(module), None) is not None


@dataclass(frozen=True)
class Pair:
    """One boundary of a manual region: `@Sharding` then an SPMD shape call (direction
    `full_to_shard` or `shard_to_full`), and the global side's parsed string."""

    sharding_op: Operation
    spmd_op: Operation
    direction: str
    global_text: str
    global_sharding: gspmd.GspmdSharding

    @property
    def full_value(self) -> Any:
        """The global-shaped tensor: the `@Sharding` input (full_to_shard) or the SPMD result."""
        return self.sharding_op.operands[0] if self.direction == "full_to_shard" else self.spmd_op.results[0]

    @property
    def local_value(self) -> Any:
        """The per-device tensor: the SPMD result (full_to_shard) or the `@Sharding` input."""
        return self.spmd_op.results[0] if self.direction == "full_to_shard" else self.sharding_op.operands[0]


def read_pair(module: Module, spmd_op: Operation) -> Pair:
    """The pair ending at `spmd_op`; errors at the op for a missing `@Sharding` operand, a side that
    is not `{manual}`, or a string ttopt cannot read (maximal, tuple, subgroups)."""
    direction = "full_to_shard" if call_target(spmd_op) == FULL_TO_SHARD else "shard_to_full"
    if len(spmd_op.operands) != 1 or len(spmd_op.results) != 1:
        raise fail(module, spmd_op, f"custom_call @{call_target(spmd_op)} must have one operand and one result")
    v = spmd_op.operands[0]
    src = v.owner if isinstance(v, OpResult) else None
    if src is None or call_target(src) != SHARDING:
        raise fail(module, spmd_op, f"custom_call @{call_target(spmd_op)} must read the result of a custom_call @Sharding")
    own, other = sharding_text(module, spmd_op), sharding_text(module, src)
    global_text, manual_text, manual_op = (other, own, spmd_op) if direction == "full_to_shard" else (own, other, src)
    try:
        manual = gspmd.parse_gspmd(manual_text)
        if manual.kind != "manual":
            raise fail(module, manual_op, f"custom_call @{call_target(manual_op)}: mhlo.sharding \"{manual_text}\" "
                       f"must be \"{{manual}}\" on the local side of @{call_target(spmd_op)}")
        g = gspmd.parse_gspmd(global_text)
    except gspmd.GspmdError as e:
        raise fail(module, spmd_op, f"custom_call @{call_target(spmd_op)}: {e}") from None
    if g.kind in ("maximal", "manual"):
        raise fail(module, spmd_op, f"custom_call @{call_target(spmd_op)}: mhlo.sharding \"{global_text}\": "
                   f"'{g.kind}' shardings are not supported on the global side")
    return Pair(src, spmd_op, direction, global_text, g)


def pairs(module: Module) -> list[Pair]:
    """Every pair of the module, in walk order."""
    return [read_pair(module, op) for op in spmd_ops(module)]


def pair_sharding(module: Module, pair: Pair, mesh: Mesh) -> Any:
    """The global side of `pair` as an sdy TensorShardingAttr on `mesh` (an error at the SPMD op
    when no assignment of whole mesh axes has the string's device order)."""
    from ttopt.dialects.sdy_attrs import TensorShardingAttr

    rank = getattr(pair.full_value.type, "rank", None)
    if rank is None:
        raise fail(module, pair.spmd_op, f"custom_call @{call_target(pair.spmd_op)}: needs a ranked tensor")
    try:
        dims = gspmd.to_dim_axes(pair.global_sharding, rank, list(zip(mesh.axis_names, mesh.shape)))
    except gspmd.GspmdError as e:
        raise fail(module, pair.spmd_op, f"custom_call @{call_target(pair.spmd_op)}: mhlo.sharding "
                   f"\"{pair.global_text}\": {e}") from None
    return TensorShardingAttr.of(mesh.name, dims)
