"""Conv2d configs and their search space (seed 002 §3.1.4, reference §2.4).

The search space is a table of field -> candidate values; configs are enumerated by an odometer
over the fields in table order (the first field turns fastest, like tt-mlir's
`Conv2dConfigGenerator`), each applied on top of the op's own `conv2d_config` (or an empty one).
Configs with `reshard_if_not_optimal = true` but no `shard_layout` are filtered out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Iterator, Mapping, Sequence

# Field -> values tried (seed 002 §3.1.4: act_block_h_override {0, 64, 32} x deallocate_activation {true}).
CONV2D_SEARCH_SPACE: Mapping[str, tuple[Any, ...]] = MappingProxyType({
    "act_block_h_override": (0, 64, 32),
    "deallocate_activation": (True,),
})  # fmt: skip

# tt-mlir's parameter order of #ttnn.conv2d_config (reference §2.14 override keys).
_KEY_ORDER = (
    "weights_dtype", "activation", "deallocate_activation", "reallocate_halo_output", "act_block_h_override",
    "act_block_w_div", "reshard_if_not_optimal", "override_sharding_config", "shard_layout", "core_grid",
    "transpose_shards", "output_layout", "enable_act_double_buffer", "enable_weights_double_buffer",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Conv2dConfig:
    """The conv2d knobs the op model reads; every other key of the op's attribute rides in `extra`."""

    act_block_h_override: int = 0
    deallocate_activation: bool = False
    reshard_if_not_optimal: bool = False
    shard_layout: str | None = None  # height_sharded / width_sharded / block_sharded
    weights_dtype: str | None = None
    extra: tuple[tuple[str, str], ...] = ()

    def to_attr(self) -> Any:
        """The `#ttnn.conv2d_config<...>` typed attribute (keys in tt-mlir's order)."""
        from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr, format_value

        values: dict[str, str] = dict(self.extra)
        if self.weights_dtype is not None:
            values["weights_dtype"] = self.weights_dtype
        values["deallocate_activation"] = format_value(self.deallocate_activation)
        values["act_block_h_override"] = str(self.act_block_h_override)
        if self.reshard_if_not_optimal:
            values["reshard_if_not_optimal"] = "true"
        if self.shard_layout is not None:
            values["shard_layout"] = self.shard_layout
        order = {k: i for i, k in enumerate(_KEY_ORDER)}
        items = sorted(values.items(), key=lambda kv: order.get(kv[0], len(order)))
        return Conv2dConfigAttr.of(items)

    @classmethod
    def from_attr(cls, attr: Any) -> Conv2dConfig:
        """From a typed `Conv2dConfigAttr` (None -> the default config)."""
        if attr is None:
            return cls()
        modelled = {"act_block_h_override", "deallocate_activation", "reshard_if_not_optimal", "shard_layout", "weights_dtype"}
        return cls(
            act_block_h_override=attr.get_int("act_block_h_override") or 0,
            deallocate_activation=bool(attr.get_bool("deallocate_activation")),
            reshard_if_not_optimal=bool(attr.get_bool("reshard_if_not_optimal")),
            shard_layout=attr.get("shard_layout"),
            weights_dtype=attr.get("weights_dtype"),
            extra=tuple((k, v) for k, v in attr.params if k not in modelled),
        )


def odometer(space: Mapping[str, Sequence[Any]]) -> Iterator[dict[str, Any]]:
    """Every combination of the space's values; the first field changes fastest."""
    fields = [(k, tuple(v)) for k, v in space.items()]
    if any(not v for _, v in fields):
        return
    digits = [0] * len(fields)
    while True:
        yield {k: v[d] for (k, v), d in zip(fields, digits)}
        i = 0
        while i < len(fields):
            digits[i] += 1
            if digits[i] < len(fields[i][1]):
                break
            digits[i] = 0
            i += 1
        if i == len(fields):
            return


def conv2d_search_space(
    base: Conv2dConfig | None = None, space: Mapping[str, Sequence[Any]] = CONV2D_SEARCH_SPACE
) -> list[Conv2dConfig]:
    """The configs to try for one conv2d: `base` with each odometer combination applied, filtered."""
    base = base or Conv2dConfig()
    out = []
    for combo in odometer(space):
        cfg = replace(base, **combo)
        if cfg.reshard_if_not_optimal and cfg.shard_layout is None:
            continue
        out.append(cfg)
    return out
