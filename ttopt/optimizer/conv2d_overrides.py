"""`--override-conv2d-config NAME=key#value:key#value...` (reference §2.14, §2.4).

`overrides.parse_conv2d_config_overrides` splits the option into entries and checks the keys;
this module checks every value against the key's type (table `CONV2D_OVERRIDE_KEYS`), turns an
entry into a `Conv2dOverride`, and applies it in LegalOpConfigAnalysis:

* base config = the op's `conv2d_config` (or an empty one) with the override's keys set on top;
  `weights_dtype` then defaults to the weight tensor's dtype;
* the search space (`act_block_h_override` in {0, 64, 32} x `deallocate_activation` in {true}) only
  varies the fields the override does not set (tt-mlir's `Conv2dConfigGenerator` searches unset
  fields only), so a pinned `act_block_h_override#64` is what the solver sees;
* an override giving every key (a "full" override) short-circuits the search: one config per layout.

Values print into `#ttnn.conv2d_config<...>` as tt-mlir prints them (`activation = <op_type = relu>`,
`shard_layout = height_sharded`, `core_grid = #ttnn.core_range_set<[...]>`, `output_layout = tile`).
Every error is an `OverrideError` naming the op, the key and what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from ttopt.device.conv2d_config import CONV2D_SEARCH_SPACE, Conv2dConfig
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.optimizer.overrides import CONV2D_KEYS, Conv2dConfigOverride, OverrideError

CONV_OPS = frozenset({"ttnn.conv2d", "ttnn.conv_transpose2d"})
# Unary ops a conv2d can fuse (tt-metal's conv activation: UnaryWithParam op types).
CONV_ACTIVATIONS = ("relu", "relu6", "silu", "gelu", "sigmoid", "tanh", "hardsigmoid", "mish", "leaky_relu")
SHARD_LAYOUTS = ("height_sharded", "width_sharded", "block_sharded")
_GRID = re.compile(r"(\d+)x(\d+)")


def _bool(v: str) -> str:
    if v not in ("true", "false"):
        raise ValueError("true or false")
    return v


def _uint(v: str) -> int:
    if not v.isdigit():
        raise ValueError("a non-negative integer")
    return int(v)


def _act_block_h(v: str) -> str:
    n = _uint(v) if v.isdigit() else None
    if n is None or n % 32:
        raise ValueError("0 (let the op choose) or a multiple of 32")
    return str(n)


def _act_block_w_div(v: str) -> str:
    if not v.isdigit() or int(v) < 1:
        raise ValueError("a positive integer")
    return str(int(v))


def _dtype(v: str) -> str:
    try:
        return DataType.of(v).value
    except Exception:  # noqa: BLE001  (AttrError: an unknown name)
        raise ValueError(f"a data type ({', '.join(d.value for d in DataType)})") from None


def _activation(v: str) -> str:
    if v not in CONV_ACTIVATIONS:
        raise ValueError(f"one of {', '.join(CONV_ACTIVATIONS)}")
    return f"<op_type = {v}>"


def _shard_layout(v: str) -> str:
    if v not in SHARD_LAYOUTS:
        raise ValueError(f"one of {', '.join(SHARD_LAYOUTS)}")
    return v


def _core_grid(v: str) -> str:
    m = _GRID.fullmatch(v)
    if m is None or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError("a grid RxC of cores (rows x columns, e.g. 8x8)")
    rows, cols = int(m.group(1)), int(m.group(2))
    return f"#ttnn.core_range_set<[#ttnn.core_range<(0, 0), ({cols - 1}, {rows - 1})>]>"


def _page(v: str) -> str:
    if v not in ("tile", "row_major"):
        raise ValueError("tile or row_major")
    return v


# Key -> value check returning the MLIR text (tt-mlir's Conv2dConfigOverrideParser keys).
CONV2D_OVERRIDE_KEYS: Mapping[str, Callable[[str], str]] = MappingProxyType({
    "weights_dtype": _dtype,
    "activation": _activation,
    "deallocate_activation": _bool,
    "reallocate_halo_output": _bool,
    "act_block_h_override": _act_block_h,
    "act_block_w_div": _act_block_w_div,
    "reshard_if_not_optimal": _bool,
    "override_sharding_config": _bool,
    "shard_layout": _shard_layout,
    "core_grid": _core_grid,
    "transpose_shards": _bool,
    "output_layout": _page,
    "enable_act_double_buffer": _bool,
    "enable_weights_double_buffer": _bool,
})  # fmt: skip
assert tuple(CONV2D_OVERRIDE_KEYS) == CONV2D_KEYS


@dataclass(frozen=True, slots=True)
class Conv2dOverride:
    """One validated `override-conv2d-config` entry: key -> MLIR value text, in the user's order."""

    name: str
    values: tuple[tuple[str, str], ...]
    grid: tuple[int, int] | None = None  # core_grid as rows x cols (checked against the device)

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(k for k, _ in self.values)

    @property
    def is_full(self) -> bool:
        """Every key given: the search is skipped (reference §2.4)."""
        return self.keys == frozenset(CONV2D_KEYS)

    def apply(self, base: Conv2dConfig) -> Conv2dConfig:
        """`base` with the overridden keys set."""
        v = dict(self.values)
        modelled: dict[str, Any] = {}
        if "act_block_h_override" in v:
            modelled["act_block_h_override"] = int(v["act_block_h_override"])
        for k in ("deallocate_activation", "reshard_if_not_optimal"):
            if k in v:
                modelled[k] = v[k] == "true"
        for k in ("shard_layout", "weights_dtype"):
            if k in v:
                modelled[k] = v[k]
        extra = dict(base.extra)
        extra.update((k, x) for k, x in self.values if k not in Conv2dConfig.__slots__)
        if v.get("reshard_if_not_optimal") == "false":
            extra["reshard_if_not_optimal"] = "false"  # to_attr prints the field only when true
        return replace(base, **modelled, extra=tuple(extra.items()))

    def search_space(self, space: Mapping[str, Any] = CONV2D_SEARCH_SPACE) -> dict[str, Any]:
        """The search space without the overridden fields (empty for a full override)."""
        if self.is_full:
            return {}
        return {k: vals for k, vals in space.items() if k not in self.keys}

    def text(self) -> str:
        return f"{self.name}=" + ":".join(f"{k}#{x}" for k, x in self.values)


def validate_conv2d_overrides(parsed: Mapping[str, Conv2dConfigOverride]) -> dict[str, Conv2dOverride]:
    """Check every value of the parsed entries; OverrideError names the op, key and expectation."""
    out: dict[str, Conv2dOverride] = {}
    for name, ov in parsed.items():
        values = []
        grid = None
        for key, raw in ov.values:
            try:
                values.append((key, CONV2D_OVERRIDE_KEYS[key](raw)))
            except ValueError as e:
                raise OverrideError(f"--override-conv2d-config: '{name}': bad value '{raw}' for {key} (expected {e})") from None
            if key == "core_grid":
                m = _GRID.fullmatch(raw)
                assert m is not None  # _core_grid accepted it just above
                grid = (int(m.group(1)), int(m.group(2)))
        out[name] = Conv2dOverride(name, tuple(values), grid)
    return out


def parse_conv2d_overrides(values: Iterable[str]) -> dict[str, Conv2dOverride]:
    """Parse and validate `override-conv2d-config` values."""
    from ttopt.optimizer.overrides import parse_conv2d_config_overrides

    return validate_conv2d_overrides(parse_conv2d_config_overrides(values))


def check_conv2d_targets(overrides: Mapping[str, Conv2dOverride], blocks: Iterable[Any],
                         worker_grid: tuple[int, int]) -> None:  # fmt: skip
    """Every overridden name is a conv2d / conv_transpose2d's NameLoc name, and a core_grid fits the
    worker grid. tt-mlir looks each conv's own name up, so a name other ops share (the reshapes a conv
    lowers with) still reaches the conv."""
    ops_by_name: dict[str, list[Any]] = {}
    for block in blocks:
        for op in block.ops:
            n = op.location.name if op.location is not None else None
            if n:
                ops_by_name.setdefault(n, []).append(op)
    for name, ov in overrides.items():
        named = ops_by_name.get(name)
        if not named:
            continue  # unknown names are reported by overrides.check_names
        if not any(op.name in CONV_OPS for op in named):
            raise OverrideError(f"--override-conv2d-config: '{name}' is a {named[0].name}, not a ttnn.conv2d or ttnn.conv_transpose2d")
        if ov.grid is not None and (ov.grid[0] > worker_grid[0] or ov.grid[1] > worker_grid[1]):
            raise OverrideError(
                f"--override-conv2d-config: '{name}': core_grid {ov.grid[0]}x{ov.grid[1]} does not fit the "
                f"{worker_grid[0]}x{worker_grid[1]} worker grid"
            )
