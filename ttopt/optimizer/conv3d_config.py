"""The ttnn-optimizer's choice of each `ttnn.conv3d`'s `#ttnn.conv3d_config`, as tt-mlir HEAD's
LegalOpConfigAnalysis makes it:

* heuristic: when tt-metal's `_DEFAULT_BLOCKINGS` table (models/tt_dit/utils/conv3d.py) has an
  entry for the op's (in_channels, out_channels, kernel), its five blocking fields replace the
  conversion default; weights_dtype and the grid are kept;
* `override-conv3d-config=NAME=key#value:key#value,...`: the keys given for the conv3d whose
  location name is NAME win over the heuristic, field by field.

The weights are prepared for the chosen `c_in_block`, so a `ttnn.prepare_conv3d_weights` feeding
the op (directly or through `ttnn.to_layout`) gets the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.ir.attributes import DialectAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType
from ttopt.optimizer.overrides import OverrideError, override_entries

BLOCK_KEYS = ("t_out_block", "w_out_block", "h_out_block", "c_out_block", "c_in_block")
CONV3D_KEYS = ("weights_dtype", *BLOCK_KEYS)

# tt-metal's _DEFAULT_BLOCKINGS: (in, out, (kd, kh, kw)) -> (C_in, C_out, T_out, H_out, W_out) blocks.
DEFAULT_BLOCKINGS: dict[tuple[int, int, tuple[int, int, int]], tuple[int, int, int, int, int]] = {
    (96, 3, (3, 3, 3)): (96, 32, 1, 16, 8),
    (96, 32, (3, 3, 3)): (96, 32, 1, 16, 8),
    (192, 96, (1, 3, 3)): (192, 96, 1, 4, 8),
    (96, 96, (3, 3, 3)): (96, 96, 1, 8, 8),
    (384, 192, (1, 3, 3)): (192, 96, 1, 32, 4),
    (192, 192, (3, 3, 3)): (96, 96, 1, 8, 4),
    (32, 384, (3, 3, 3)): (32, 96, 1, 2, 32),
    (192, 384, (3, 3, 3)): (64, 128, 1, 8, 4),
    (384, 384, (3, 3, 3)): (96, 96, 1, 8, 4),
    (384, 768, (3, 3, 3)): (96, 96, 1, 8, 4),
    (1024, 4096, (3, 3, 3)): (256, 32, 1, 1, 1),
    (512, 4096, (3, 3, 3)): (256, 32, 1, 1, 1),
    (256, 512, (3, 3, 3)): (256, 32, 1, 4, 4),
    (128, 128, (3, 3, 3)): (128, 32, 1, 8, 8),
    (128, 48, (3, 3, 3)): (128, 32, 1, 8, 8),
    (1024, 4096, (1, 3, 3)): (256, 32, 1, 1, 1),
    (1024, 128, (3, 3, 3)): (256, 32, 1, 1, 1),
}


@dataclass(frozen=True)
class Conv3dOverride:
    """The conv3d_config keys given for one op name (unset keys are absent)."""

    name: str
    keys: tuple[tuple[str, str], ...]


def lookup_blocking(in_channels: int, out_channels: int, kernel: tuple[int, ...]) -> dict[str, int] | None:
    """The table's blocking for these shapes, keyed by Conv3dConfig field, or None on a miss."""
    entry = DEFAULT_BLOCKINGS.get((in_channels, out_channels, tuple(kernel)))  # type: ignore[arg-type]
    if entry is None:
        return None
    c_in, c_out, t, h, w = entry
    return {"t_out_block": t, "w_out_block": w, "h_out_block": h, "c_out_block": c_out, "c_in_block": c_in}


def parse_conv3d_config_overrides(values: Iterable[str]) -> dict[str, Conv3dOverride]:
    """Parse `override-conv3d-config` values: `NAME=key#value:key#value`, comma-separated."""
    out: dict[str, Conv3dOverride] = {}
    for name, body in override_entries("override-conv3d-config", values, "NAME=key#value"):
        kv: dict[str, str] = {}
        for part in (p.strip() for p in body.split(":")):
            key, hash_, val = part.partition("#")
            if not hash_ or not key or not val:
                raise OverrideError(f"--override-conv3d-config: '{name}': expected key#value, got '{part}'")
            if key not in CONV3D_KEYS:
                raise OverrideError(f"--override-conv3d-config: '{name}': unknown key '{key}' (expected one of {', '.join(CONV3D_KEYS)})")
            if key in kv:
                raise OverrideError(f"--override-conv3d-config: '{name}': key '{key}' given twice")
            if key == "weights_dtype" and val not in {d.value for d in DataType}:
                raise OverrideError(f"--override-conv3d-config: '{name}': unknown weights_dtype '{val}'")
            if key != "weights_dtype" and (not val.isdigit() or int(val) < 1):
                raise OverrideError(f"--override-conv3d-config: '{name}': {key} must be a positive integer, got '{val}'")
            kv[key] = val
        out[name] = Conv3dOverride(name, tuple(kv.items()))
    return out


def _config_fields(text: str) -> dict[str, str]:
    """`key = value` fields of a `#ttnn.conv3d_config<...>` body, the grid kept whole."""
    fields: dict[str, str] = {}
    depth, start = 0, 0
    parts: list[str] = []
    for i, ch in enumerate(text):
        depth += ch in "<(["
        depth -= ch in ">)]"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    for part in parts:
        key, eq, val = part.partition("=")
        if eq:
            fields[key.strip()] = val.strip()
    return fields


def chosen_config(op: Any, override: Conv3dOverride | None) -> DialectAttr | None:
    """The op's conv3d_config after the heuristic and its override, or None when it has none."""
    attr = op.get_attr("conv3d_config")
    body = getattr(attr.resolve(), "body", None) if attr is not None else None
    if not isinstance(body, str):
        return None
    fields = _config_fields(body)
    kernel = int_values(op.get_attr("kernel_size"))
    ins, outs = op.get_attr("in_channels"), op.get_attr("out_channels")
    if kernel is not None and ins is not None and outs is not None:
        blocking = lookup_blocking(int(ins.resolve().value), int(outs.resolve().value), tuple(int(k) for k in kernel))
        if blocking is not None:
            fields.update({k: str(v) for k, v in blocking.items()})
    if override is not None:
        fields.update(dict(override.keys))
    order = [k for k in (*CONV3D_KEYS, "compute_with_storage_grid_size") if k in fields]
    return DialectAttr("ttnn.conv3d_config", ", ".join(f"{k} = {fields[k]}" for k in order))


def _prepare_op(op: Any) -> Any:
    """The `ttnn.prepare_conv3d_weights` that produced op's weight operand, through to_layout, if any."""
    v = op.operands[1] if len(op.operands) > 1 else None
    for _ in range(2):
        producer = getattr(v, "op", None)
        if producer is None:
            return None
        if producer.name == "ttnn.prepare_conv3d_weights":
            return producer
        if producer.name != "ttnn.to_layout":
            return None
        v = producer.operands[0]
    return None


def apply_conv3d_configs(block: Any, overrides: dict[str, Conv3dOverride]) -> None:
    """Set every ttnn.conv3d's conv3d_config in block (and its weights' c_in_block) as HEAD's optimizer does."""
    for op in list(block.ops):
        if op.name != "ttnn.conv3d":
            continue
        name = op.location.name if op.location is not None else None
        config = chosen_config(op, overrides.get(name) if name else None)
        if config is None:
            continue
        op.properties["conv3d_config"] = config
        prepare = _prepare_op(op)
        c_in = _config_fields(config.body or "").get("c_in_block")
        if prepare is not None and c_in is not None:
            prepare.properties["c_in_block"] = IntegerAttr(int(c_in), ScalarType("i32"))
