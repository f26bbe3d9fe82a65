"""The data types and page layouts tt-metal's kernels accept on their operands and produce, for the
TTNN ops that constrain them.

tt-mlir's `ttnn-operation-validation-and-fallback` learns these from the op model (tt-metal's
`getOpConstraints`); ttopt has no op model library, so the kernels' own checks are written down
here: embedding takes ui32 or bf16 indices and bf16 weights; max/avg pool take bf16 and write
row-major; upsample takes row-major bf16 or f32 and writes its input's page layout. Every other op
accepts any data type and page layout and writes its first tensor operand's (the elementwise rule
of `ttnn_op_validation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr


@dataclass(frozen=True, slots=True)
class OperandRule:
    """What one tensor operand must be: one of `dtypes` (None: any), tiled or row-major (None: either)."""

    dtypes: frozenset[DataType] | None = None
    tiled: bool | None = None

    def violation(self, layout: TTNNLayoutAttr) -> str | None:
        """Why `layout` is not accepted, None when it is."""
        if self.dtypes is not None and layout.dtype not in self.dtypes:
            names = ", ".join(sorted(d.value for d in self.dtypes))
            return f"data type {layout.dtype.value} is not one of {names}"
        if self.tiled is not None and layout.is_tiled != self.tiled:
            return f"needs {'tile' if self.tiled else 'row_major'} layout, got {'tile' if layout.is_tiled else 'row_major'}"
        return None


# (input layouts, declared output layout) -> (data type, tiled) of the output the kernel writes.
OutputRule = Callable[[list[TTNNLayoutAttr], TTNNLayoutAttr], tuple[DataType, bool]]


@dataclass(frozen=True, slots=True)
class OpRule:
    """An op's operand requirements (by tensor-operand position) and how its output comes out."""

    operands: tuple[OperandRule, ...]
    output: OutputRule


def _declared(ins: list[TTNNLayoutAttr], out: TTNNLayoutAttr) -> tuple[DataType, bool]:
    return out.dtype, out.is_tiled


def _row_major_of_input(ins: list[TTNNLayoutAttr], out: TTNNLayoutAttr) -> tuple[DataType, bool]:
    return ins[0].dtype, False


def _like_input(ins: list[TTNNLayoutAttr], out: TTNNLayoutAttr) -> tuple[DataType, bool]:
    return ins[0].dtype, ins[0].is_tiled


_BF16 = frozenset({DataType.BF16})
_POOL = OpRule((OperandRule(_BF16),), _row_major_of_input)

RULES: dict[str, OpRule] = {
    # The embedding kernel reads indices as ui32 or bf16 and copies bf16 weight rows; its output page
    # layout is the op's choice (the program's declared one).
    "ttnn.embedding": OpRule((OperandRule(frozenset({DataType.U32, DataType.BF16})), OperandRule(_BF16)), _declared),
    # Pooling reads bf16 sticks (tiled input is untilized by the halo step) and writes row-major.
    "ttnn.max_pool2d": _POOL,
    "ttnn.avg_pool2d": _POOL,
    # Nearest/bilinear upsample copies row-major sticks and keeps that layout on the output.
    "ttnn.upsample": OpRule((OperandRule(frozenset({DataType.BF16, DataType.F32}), tiled=False),), _like_input),
}


def check(name: str, inputs: list[TTNNLayoutAttr]) -> str | None:
    """Why op `name` rejects these input layouts (one per tensor operand), None when it accepts them."""
    rule = RULES.get(name)
    if rule is None:
        return None
    for i, (req, lay) in enumerate(zip(rule.operands, inputs)):
        why = req.violation(lay)
        if why is not None:
            return f"operand {i}: {why}"
    return None


def output_of(name: str, inputs: list[TTNNLayoutAttr], declared: TTNNLayoutAttr) -> tuple[DataType, bool] | None:
    """(data type, tiled) of the output op `name` writes from these inputs, None when no rule says."""
    rule = RULES.get(name)
    return rule.output(inputs, declared) if rule is not None else None
