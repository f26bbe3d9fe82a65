"""The StableHLO ops of a CPU module, made into what the LLVM lowering takes. tt-mlir's CPU fallback
(`cpu-hoist-non-lowerable-shlo-ops`) hoists them as they are and lowers them through Linalg; here:

* `stablehlo.einsum` becomes TTIR the lowering already takes: labels of one operand only that the
  result drops are summed out (`ttir.sum`), then each operand is permuted to [batch, free,
  contracted] and reshaped to [B, M, K] / [B, K, N], one `ttir.matmul` contracts them, and the
  product is reshaped to [batch, lhs free, rhs free] and permuted to the result's label order.
  An ellipsis, a label twice in one operand or a result label no operand has is an error at the op.
* `stablehlo.dynamic_update_slice` stays: tensor_ops.py lowers it to loops (the start indices
  clamped as StableHLO specifies).
* any other StableHLO op gets the device conversion's lowering (stablehlo_to_ttir.py).
"""

from __future__ import annotations

import importlib
from math import prod
from typing import TYPE_CHECKING

from ttopt.ir.attributes import ArrayAttr, BoolAttr, IntegerAttr
from ttopt.ir.module import Module
from ttopt.ir.types import ScalarType, TensorType
from ttopt.lowering.stablehlo_to_ttir import Lowering, Unsupported

# The per-family lowerings register in the device conversion's table when its pass is looked up;
# this module reaches the conversion directly, so it loads them itself.
importlib.import_module("ttopt.lowering.stablehlo_ops")

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value

I32 = ScalarType("i32")


class HostLowering(Lowering):
    """The StableHLO-to-TTIR conversion of a CPU module's functions (the module doc)."""

    def lower(self, op: Operation) -> list[Value] | None:
        """TTIR values replacing `op`'s results; None for ops the LLVM lowering takes as they are."""
        if op.name == "stablehlo.einsum":
            return [einsum(self, op)]
        if op.name == "stablehlo.dynamic_update_slice":
            return None
        return super().lower(op)


def stablehlo_to_ttir(module: Module, inner: Operation) -> None:
    """Convert the StableHLO ops of one builtin.module of a CPU module (a diagnostic at an op it
    cannot take)."""
    if not any(op.name.startswith("stablehlo.") for op in inner.walk()):
        return
    view = Module(inner, module.aliases, module.source)
    low = HostLowering(view)
    for f in view.functions():
        for region in f.regions:
            for b in region.blocks:
                low.convert_block(b)


def _labels(config: str) -> tuple[str, str, str]:
    """The lhs, rhs and result labels of a two-operand einsum config."""
    spec = config.replace(" ", "")
    if "..." in spec:
        raise Unsupported("an ellipsis in the einsum config")
    ins, arrow, out = spec.partition("->")
    lhs, comma, rhs = ins.partition(",")
    if not arrow or not comma or "," in rhs:
        raise Unsupported(f"expected an einsum config 'lhs,rhs->result', got '{config}'")
    for labels in (lhs, rhs, out):
        if len(set(labels)) != len(labels):
            raise Unsupported(f"a label twice in '{labels}' (a diagonal)")
    if set(out) - set(lhs) - set(rhs):
        raise Unsupported("a result label no operand has")
    return lhs, rhs, out


def _sum_out(low: Lowering, v: Value, labels: str, keep: set[str]) -> tuple[Value, str]:
    """`v` summed over the labels not in `keep`; the remaining labels."""
    dims = [i for i, c in enumerate(labels) if c not in keep]
    if not dims:
        return v, labels
    t = v.type.resolve()
    assert isinstance(t, TensorType) and t.shape is not None
    rest = "".join(c for c in labels if c in keep)
    shape = tuple(int(n) for i, n in enumerate(t.shape) if i not in dims and n is not None)
    out = TensorType(shape, t.element_type)
    summed = low.emit("sum", [v], out, dim_arg=ArrayAttr(tuple(IntegerAttr(d, I32) for d in dims)), keep_dim=BoolAttr(False))
    return summed, rest


def einsum(low: Lowering, op: Operation) -> Value:
    """A two-operand einsum as sum / permute / reshape / matmul (the module doc)."""
    config = getattr(op.get_attr("einsum_config"), "value", None)
    if not isinstance(config, str):
        raise Unsupported("no einsum_config")
    lhs_l, rhs_l, out_l = _labels(config)
    x, y = op.operands
    res = op.results[0].type.resolve()
    assert isinstance(res, TensorType)
    size: dict[str, int] = {}
    for v, labels in ((x, lhs_l), (y, rhs_l)):
        shape = v.type.resolve().shape
        if len(shape) != len(labels):
            raise Unsupported(f"'{labels}' names {len(labels)} dimensions of a rank-{len(shape)} operand")
        for c, n in zip(labels, shape):
            if size.setdefault(c, n) != n:
                raise Unsupported(f"label '{c}' is {size[c]} and {n} long")
    x, lhs_l = _sum_out(low, x, lhs_l, set(rhs_l) | set(out_l))
    y, rhs_l = _sum_out(low, y, rhs_l, set(lhs_l) | set(out_l))
    batch = [c for c in out_l if c in lhs_l and c in rhs_l]
    contract = [c for c in lhs_l if c in rhs_l and c not in out_l]
    lfree = [c for c in lhs_l if c not in rhs_l]
    rfree = [c for c in rhs_l if c not in lhs_l]
    b, m, k, n = (prod(size[c] for c in g) for g in (batch, lfree, contract, rfree))
    lead = (b,) if batch else ()
    x = low.reshape(low.permute(x, [lhs_l.index(c) for c in batch + lfree + contract]), (*lead, m, k))
    y = low.reshape(low.permute(y, [rhs_l.index(c) for c in batch + contract + rfree]), (*lead, k, n))
    product = low.emit("matmul", [x, y], TensorType((*lead, m, n), res.element_type))
    order = batch + lfree + rfree
    product = low.reshape(product, tuple(size[c] for c in order))
    return low.permute(product, [order.index(c) for c in out_l])
