"""Complex tensors as float pairs, the step of `stablehlo-to-ttir-pipeline` that tt-mlir runs as its
complex math expander and complex data type conversion: TTIR has no complex element types.

A `tensor<Sxcomplex<fN>>` becomes `tensor<Sx2xfN>` (real part at index 0 of the new last
dimension, imaginary part at 1), in function signatures and block arguments alike, and

* `stablehlo.complex(re, im)` -> each part reshaped to `1xS`, concatenated along dimension 0 and
  permuted to `Sx2`;
* `stablehlo.real(x)` / `stablehlo.imag(x)` -> `x` permuted to `2xS`, the slice of part 0 / 1,
  reshaped to `S`; of a `stablehlo.complex` they are its operand (StableHLO's simplification);
* a splat complex constant `dense<(re, im)>` -> a `2`-element constant broadcast to `Sx2`.

Any other op on complex values (complex arithmetic, FFT, ...) is a diagnostic at the op: ttopt does
not expand complex math.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, DenseElementsAttr, IntegerAttr, TypeAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.operation import Operation
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.lowering.dense_values import float_text
from ttopt.passes.base import Pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.ir.values import Value
    from ttopt.passes.context import PassContext

I32, SI32 = ScalarType("i32"), ScalarType("si32")
PARTS = ("stablehlo.complex", "stablehlo.real", "stablehlo.imag")


def part_type(t: Any) -> str | None:
    """The float type of a complex tensor type's parts (`f32` for `tensor<4xcomplex<f32>>`), else None."""
    t = t.resolve()
    if not isinstance(t, TensorType) or t.shape is None:
        return None
    e = t.element_type.resolve().text
    return e[len("complex<") : -1] if e.startswith("complex<") and e.endswith(">") else None


def _pairs(t: Any) -> Any:
    """`tensor<Sxcomplex<fN>>` -> `tensor<Sx2xfN>`; other types unchanged."""
    part = part_type(t)
    if part is None:
        return t
    r = t.resolve()
    return TensorType((*r.shape, 2), ScalarType(part), r.encoding)


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


@dataclass
class ComplexToFloatPairs(Pass):
    """Complex tensors -> float pairs (`Sx2`), complex/real/imag/constant expanded (see module doc)."""

    name = "stablehlo-complex-math-expander"

    def run(self, module: Module, ctx: PassContext) -> None:
        _Expander(module).run()


class _Expander:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.parts: dict[int, tuple[Value, Value]] = {}  # complex(re, im) result -> its operands
        self.anchor: Operation | None = None

    def run(self) -> None:
        for f in self.module.functions():
            ft = f.properties.get("function_type")
            sig = ft.resolve().type.resolve() if ft is not None else None
            if isinstance(sig, FunctionType):
                f.properties["function_type"] = TypeAttr(FunctionType(tuple(_pairs(t) for t in sig.inputs),
                                                                      tuple(_pairs(t) for t in sig.results)))  # fmt: skip
            for region in f.regions:
                for block in region.blocks:
                    self._block(block)

    def _block(self, block: Any) -> None:
        for a in block.args:
            a.type = _pairs(a.type)
        for op in list(block.ops):
            if op.parent is not block:
                continue
            for region in op.regions:
                for b in region.blocks:
                    self._block(b)
            if op.name in PARTS or (op.name == "stablehlo.constant" and part_type(op.results[0].type) is not None):
                self.anchor = op
                new = self._expand(op)
                for r, v in zip(op.results, new):
                    r.replace_all_uses_with(v)
                op.erase()
            elif any(part_type(v.type) is not None for v in op.results) and op.name != "func.return":
                raise Diagnostic(f"stablehlo-to-ttir-pipeline: '{op.name}' on complex values is not supported "
                                 "(ttopt expands complex, real, imag and splat complex constants only)",
                                 op_position(self.module.source, op))  # fmt: skip

    def _emit(self, name: str, ins: list[Value], t: Any, **props: Any) -> Value:
        anchor = self.anchor
        assert anchor is not None and anchor.parent is not None
        op = Operation(name, ins, [t], properties=dict(sorted(props.items())), location=anchor.location)
        op.pos = anchor.pos
        block = anchor.parent
        block.insert(block.index(anchor), op)
        return op.results[0]

    def _reshape(self, v: Value, shape: tuple[int, ...]) -> Value:
        t = v.type.resolve()
        return self._emit("ttir.reshape", [v], TensorType(shape, t.element_type, t.encoding), shape=_i32s(shape))

    def _permute(self, v: Value, perm: list[int]) -> Value:
        t = v.type.resolve()
        shape = tuple(t.shape[p] for p in perm)
        return self._emit("ttir.permute", [v], TensorType(shape, t.element_type, t.encoding), permutation=DenseArrayAttr("i64", tuple(perm)))

    def _expand(self, op: Operation) -> list[Value]:
        if op.name == "stablehlo.complex":
            re, im = op.operands
            shape = tuple(re.type.resolve().shape)
            n = len(shape)
            halves = [self._reshape(v, (1, *shape)) for v in (re, im)]
            t = halves[0].type.resolve()
            both = self._emit("ttir.concat", halves, TensorType((2, *shape), t.element_type, t.encoding), dim=IntegerAttr(0, SI32))
            out = self._permute(both, [*range(1, n + 1), 0])
            self.parts[id(out)] = (re, im)
            return [out]
        if op.name == "stablehlo.constant":
            return [self._constant(op)]
        x = op.operands[0]
        index = 0 if op.name == "stablehlo.real" else 1
        known = self.parts.get(id(x))
        if known is not None:
            return [known[index]]
        shape = tuple(x.type.resolve().shape)
        n = len(shape) - 1
        moved = self._permute(x, [n, *range(n)])
        t = moved.type.resolve()
        part = self._emit("ttir.slice_static", [moved], TensorType((1, *shape[:n]), t.element_type, t.encoding),
                          begins=_i32s((index, *[0] * n)), ends=_i32s((index + 1, *shape[:n])), step=_i32s([1] * (n + 1)))  # fmt: skip
        return [self._reshape(part, shape[:n])]

    def _constant(self, op: Operation) -> Value:
        a = op.properties["value"].resolve()
        body = a.body.strip() if isinstance(a, DenseElementsAttr) else ""
        if not (body.startswith("(") and body.endswith(")") and body.count(",") == 1):
            raise Diagnostic("stablehlo-to-ttir-pipeline: only splat complex constants (`dense<(re, im)>`) are supported",
                             op_position(self.module.source, op))  # fmt: skip
        part = part_type(op.results[0].type)
        assert part is not None
        re, im = (float(v) for v in body[1:-1].split(","))
        pair_t = TensorType((2,), ScalarType(part), None)
        pair = self._emit("ttir.constant", [], pair_t,
                          value=DenseElementsAttr(f"[{float_text(re, part)}, {float_text(im, part)}]", pair_t))  # fmt: skip
        out = _pairs(op.results[0].type)
        shape = tuple(out.shape)
        if shape == (2,):
            return pair
        v = self._reshape(pair, (*[1] * (len(shape) - 1), 2))
        return self._emit("ttir.broadcast", [v], out, broadcast_dimensions=DenseArrayAttr("i64", (*shape[:-1], 1)))
