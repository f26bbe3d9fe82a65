"""TTIR -> TTNN for ops tt-mlir converts one to one (TTIRToTTNN.cpp patterns that pass the adaptor's
operands and attributes on): the TTNN op of the same name, the same operands in the same order
without the destination operand some TTIR ops still carry (`output`), the listed attributes copied,
and HEAD's default-valued attributes written out when the TTIR op leaves them out (HEAD's
conversion sets them, so they print).

| TTIR | TTNN attributes |
|---|---|
| `repeat_interleave` | `repeats`, `dim` |
| `global_avg_pool2d`, `concatenate_heads` | none |
| `dropout` | `prob` (0.0), `scale` (1.0), `seed` (0), `use_per_device_seed` (true) |
| `gelu_bw` | `approximate` ("none") |
| `split_query_key_value_and_split_heads` (3 results) | `num_heads`, `num_kv_heads`, `transpose_key` |
| `scaled_dot_product_attention_decode` | `is_causal` (true), `scale`, operand segments |
| `paged_scaled_dot_product_attention_decode` | `is_causal` (true), `scale`, `sliding_window_size`, operand segments without `output` |
| `chunked_scaled_dot_product_attention` | `scale`; page_table and chunk_start_idx row-major (HEAD's workaround) |
| `paged_flash_multi_latent_attention_decode` | `head_dim_v`, `is_causal` (true), `scale`, operand segments |
| `topk_router_gpt` (2 results) | `k`, `num_experts` |
| `sampling` | `seed` |
| `to_layout` | none: `ttnn.to_tensor_spec`, the aggregate layout change |
| `group_norm` | `num_groups`, `epsilon` (1e-12), operand segments |
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import Attribute, BoolAttr, DenseArrayAttr, FloatAttr, IntegerAttr, StringAttr, mlir_float_attr
from ttopt.ir.operation import Operation
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

F32, UI32 = ScalarType("f32"), ScalarType("ui32")
SEGMENTS = "operandSegmentSizes"
RENAMED = {"to_layout": "to_tensor_spec"}


@dataclass(frozen=True)
class Direct:
    """One TTIR op's TTNN counterpart: its operand names in TTIR order (`?` marks an optional one,
    `output` a destination the TTNN op does not take), the attributes to copy and their defaults."""

    operands: tuple[str, ...]
    attrs: tuple[str, ...] = ()
    defaults: dict[str, Attribute] = field(default_factory=dict)
    results: int = 1
    row_major: tuple[str, ...] = ()  # operands HEAD's workaround makes row-major (ttnn.to_layout)

    @property
    def segmented(self) -> bool:
        """Whether the TTNN op sizes its operand groups (more than one optional operand)."""
        return sum(n.endswith("?") for n in self.operands) > 1


def _groups(spec: Direct, op: Operation) -> list[tuple[str, list[Any]]]:
    """The op's operands grouped by name, from its operand segments or, without them, positionally."""
    operands = list(op.operands)
    seg = int_values(op.properties.get(SEGMENTS))
    if seg is not None:
        if len(seg) != len(spec.operands) or sum(seg) != len(operands):
            raise ValueError(f"operandSegmentSizes {list(seg)} does not describe its {len(operands)} operands "
                             f"({', '.join(n.rstrip('?') for n in spec.operands)})")  # fmt: skip
        out, i = [], 0
        for name, n in zip(spec.operands, seg):
            out.append((name.rstrip("?"), operands[i : i + n]))
            i += n
        return out
    required = [n for n in spec.operands if not n.endswith("?")]
    if len(operands) == len(required):
        return [(n, [v]) for n, v in zip(required, operands)]
    if len(operands) == len(spec.operands) or sum(n.endswith("?") for n in spec.operands) == 1:
        # One optional operand (or all of them there): the operands are in declaration order.
        names = [n for n in spec.operands if not n.endswith("?") or len(operands) > len(required)]
        if len(names) == len(operands):
            return [(n.rstrip("?"), [v]) for n, v in zip(names, operands)]
    raise ValueError(f"has {len(operands)} operands and no operandSegmentSizes; expected {', '.join(spec.operands)}")


def row_major(lw: _Lowering, op: Operation, v: Any) -> Any:
    """`v` as a row-major DRAM-interleaved tensor (HEAD's layout workaround: a `ttnn.to_layout`)."""
    t = lw.layout_type(v.type, op).resolve()
    typed = t.encoding.resolve().typed
    rm = TTNNLayoutAttr.build(tuple(t.shape), typed.dtype.value, tiled=False, buffer_type="dram", memory_layout="interleaved")
    new = Operation("ttnn.to_layout", [v], [lw.aliaser.tensor_type(TensorType(tuple(t.shape), t.element_type), rm)], location=op.location)
    lw.out.append(new)
    return new.results[0]


def direct_rule(name: str, spec: Direct) -> Any:
    """The conversion of TTIR op `name` to `ttnn.<name>` as `spec` describes it."""

    def rule(lw: _Lowering, op: Operation) -> Any:
        groups = [(n, [row_major(lw, op, v) if n in spec.row_major else v for v in vs]) for n, vs in _groups(spec, op) if n != "output"]
        operands = [v for _, vs in groups for v in vs]
        properties: dict[str, Any] = {}
        for key in spec.attrs:
            value = op.get_attr(key) or spec.defaults.get(key)
            if value is not None:
                properties[key] = mlir_float_attr(value)
        if spec.segmented:
            properties[SEGMENTS] = DenseArrayAttr("i32", tuple(len(vs) for _, vs in groups))
        types = [lw.layout_type(r.type, op) for r in op.results]
        new = Operation(f"ttnn.{RENAMED.get(name, name)}", operands, types, properties=dict(sorted(properties.items())), location=op.location)
        lw.out.append(new)
        return list(new.results) if spec.results > 1 else new.results[0]

    return rule


_SDPA_DECODE = ("query", "key", "value", "attention_mask?", "cur_pos_tensor?", "attention_sink?")
DIRECT: dict[str, Direct] = {
    "repeat_interleave": Direct(("input",), ("repeats", "dim")),
    "global_avg_pool2d": Direct(("input",)),
    "concatenate_heads": Direct(("input",)),
    "dropout": Direct(("input",), ("prob", "scale", "seed", "use_per_device_seed"),
                      {"prob": FloatAttr(0.0, F32), "scale": FloatAttr(1.0, F32), "seed": IntegerAttr(0, UI32),
                       "use_per_device_seed": BoolAttr(True)}),
    "gelu_bw": Direct(("lhs", "rhs"), ("approximate",), {"approximate": StringAttr("none")}),
    "split_query_key_value_and_split_heads": Direct(("input_tensor", "kv_input_tensor?"), ("num_heads", "num_kv_heads", "transpose_key"),
                                                    results=3),
    "scaled_dot_product_attention_decode": Direct(_SDPA_DECODE, ("is_causal", "scale"), {"is_causal": BoolAttr(True)}),
    "paged_scaled_dot_product_attention_decode": Direct(
        ("query", "key", "value", "page_table", "output", "attention_mask?", "cur_pos_tensor?", "attention_sink?"),
        ("is_causal", "scale", "sliding_window_size"), {"is_causal": BoolAttr(True)}),
    "chunked_scaled_dot_product_attention": Direct(("query", "key", "value", "page_table", "chunk_start_idx", "output"), ("scale",),
                                                   row_major=("page_table", "chunk_start_idx")),
    "paged_flash_multi_latent_attention_decode": Direct(
        ("query", "key", "value?", "page_table", "attention_mask?", "cur_pos_tensor?", "attention_sink?"),
        ("head_dim_v", "is_causal", "scale"), {"is_causal": BoolAttr(True)}),
    "topk_router_gpt": Direct(("input", "weight", "bias"), ("k", "num_experts"), results=2),
    "sampling": Direct(("input_values", "input_indices", "k", "p", "temp"), ("seed",)),
    "to_layout": Direct(("input", "output")),
    "group_norm": Direct(("input", "input_mask?", "weight?", "bias?"), ("num_groups", "epsilon"), {"epsilon": FloatAttr(1e-12, F32)}),
}  # fmt: skip

DIRECT_RULES = {name: direct_rule(name, spec) for name, spec in DIRECT.items()}
DIRECT_MULTI_RESULT = frozenset(name for name, spec in DIRECT.items() if spec.results > 1)
