"""The scalar computation of each elementwise TTIR op, as LLVM-dialect ops on one element."""

from __future__ import annotations

from typing import Callable

from ttopt.ir.attributes import Attribute, IntegerAttr
from ttopt.ir.values import Value
from ttopt.lowering.cpu_llvm.builder import BF16, F32, I1, I32, Builder

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
FLT_MAX = 3.4028234663852886e38  # TosaToLinalg starts a float max / min reduction from -FLT_MAX / FLT_MAX
_NO_POISON: dict[str, Attribute] = {"is_int_min_poison": IntegerAttr(0, I1, "false")}


def _intr(name: str) -> Callable[[Builder, Value], Value]:
    return lambda b, x: b.op(f"llvm.intr.{name}", [x], x.type)


def _libm(name: str) -> Callable[[Builder, Value], Value]:
    """A call of the C library's float function `name` (HEAD's ConvertMathToLibm takes the math ops
    no LLVM intrinsic computes)."""
    return lambda b, x: b.call(name, [x], F32)


# The C functions the lowering calls: declared in the module as `llvm.func @<name>(f32) -> f32`.
LIBM = ("erff", "erfcf", "cbrtf", "asinhf")


def _sigmoid(b: Builder, x: Value) -> Value:
    """TosaToLinalg's tosa.sigmoid: 1 / (1 + exp(-x))."""
    e = b.op("llvm.intr.exp", [b.op("llvm.fneg", [x], F32)], F32)
    return b.binary("fdiv", b.const(1.0, F32), b.binary("fadd", b.const(1.0, F32), e))


def _gelu(b: Builder, x: Value) -> Value:
    """HEAD's GeluOpConversionPattern: (0.5 * x) * (1 + erf(x * 0.7071067811865475)), erf by libm's erff."""
    erf = b.call("erff", [b.binary("fmul", x, b.const(0.7071067811865475, F32))], F32)
    return b.binary("fmul", b.binary("fmul", b.const(0.5, F32), x), b.binary("fadd", b.const(1.0, F32), erf))


def _mish(b: Builder, x: Value) -> Value:
    """HEAD's MishOpConversionPattern: x * tanh(max(x, 0) + log(1 + exp(-|x|)))."""
    soft = b.op("llvm.intr.log", [b.binary("fadd", b.const(1.0, F32),
                                           b.op("llvm.intr.exp", [b.op("llvm.fneg", [b.op("llvm.intr.fabs", [x], F32)], F32)], F32))], F32)  # fmt: skip
    softplus = b.binary("fadd", b.binary("intr.maximum", x, b.const(0.0, F32)), soft)
    return b.binary("fmul", x, b.op("llvm.intr.tanh", [softplus], F32))


def _hardsigmoid(b: Builder, x: Value) -> Value:
    """HEAD's HardsigmoidOpConversionPattern: clamp((x + 3) * (1/6 as f32), 0, 1)."""
    scaled = b.binary("fmul", b.binary("fadd", x, b.const(3.0, F32)), b.const(1.0 / 6.0, F32))
    return clamp(b, "f32", scaled, 0.0, 1.0)


def _isfinite(b: Builder, x: Value) -> Value:
    """HEAD's IsFiniteOpConversionPattern: (x - x) == 0 (ordered: NaN and inf give NaN), as 1.0 / 0.0."""
    return b.cast("uitofp", b.fcmp("oeq", b.binary("fsub", x, x), b.const(0.0, F32)), F32)


def _sign(b: Builder, x: Value, zero: Value, one: Value, minus: Value, float_: bool) -> Value:
    """HEAD's SignOpConversionPattern: select(x == 0, 0, select(x > 0, 1, -1)), ordered compares: NaN
    is -1 and -0.0 is +0.0."""
    gt = b.fcmp("ogt", x, zero) if float_ else b.icmp("sgt", x, zero)
    eq = b.fcmp("oeq", x, zero) if float_ else b.icmp("eq", x, zero)
    return b.select(eq, zero, b.select(gt, one, minus))


FLOAT_UNARY: dict[str, Callable[[Builder, Value], Value]] = {
    "neg": lambda b, x: b.op("llvm.fneg", [x], F32),
    "abs": _intr("fabs"), "exp": _intr("exp"), "log": _intr("log"), "sqrt": _intr("sqrt"), "floor": _intr("floor"),
    "ceil": _intr("ceil"), "sin": _intr("sin"), "cos": _intr("cos"), "tan": _intr("tan"), "tanh": _intr("tanh"),
    "rsqrt": lambda b, x: b.binary("fdiv", b.const(1.0, F32), b.op("llvm.intr.sqrt", [x], F32)),
    "reciprocal": lambda b, x: b.binary("fdiv", b.const(1.0, F32), x),
    "relu": lambda b, x: b.binary("intr.maximum", x, b.const(0.0, F32)),
    "sigmoid": _sigmoid,
    "sign": lambda b, x: _sign(b, x, b.const(0.0, F32), b.const(1.0, F32), b.const(-1.0, F32), True),
    # HEAD: math ops in a linalg.generic; MathToLLVM makes intrinsics of atan / asin / acos and
    # expands expm1 and log1p (exp(x) - 1, log(1 + x)); MathToLibm calls libm for the rest.
    "atan": _intr("atan"), "asin": _intr("asin"), "acos": _intr("acos"),
    "erf": _libm("erff"), "erfc": _libm("erfcf"), "cbrt": _libm("cbrtf"), "asinh": _libm("asinhf"),
    "expm1": lambda b, x: b.binary("fsub", b.op("llvm.intr.exp", [x], F32), b.const(1.0, F32)),
    "log1p": lambda b, x: b.op("llvm.intr.log", [b.binary("fadd", b.const(1.0, F32), x)], F32),
    # HEAD's compound patterns (EltwiseUnary.cpp), op for op.
    "silu": lambda b, x: b.binary("fmul", x, _sigmoid(b, x)),
    "gelu": _gelu, "mish": _mish, "hardsigmoid": _hardsigmoid, "isfinite": _isfinite,
    "relu6": lambda b, x: clamp(b, "f32", x, 0.0, 6.0),
}  # fmt: skip
INT_UNARY: dict[str, Callable[[Builder, Value], Value]] = {
    "neg": lambda b, x: b.binary("sub", b.const(0, I32), x),
    "abs": lambda b, x: b.op("llvm.intr.abs", [x], I32, dict(_NO_POISON)),
    "relu": lambda b, x: b.binary("intr.smax", x, b.const(0, I32)),
    "sign": lambda b, x: _sign(b, x, b.const(0, I32), b.const(1, I32), b.const(-1, I32), False),
    "relu6": lambda b, x: clamp(b, "i32", x, 0, 6),
    "bitwise_not": lambda b, x: b.binary("xor", x, b.const(-1, I32)),
}
FLOAT_BINARY = {"add": "fadd", "subtract": "fsub", "multiply": "fmul", "div": "fdiv", "maximum": "intr.maximum",
                "minimum": "intr.minimum", "pow": "intr.pow", "atan2": "intr.atan2"}  # fmt: skip
# The shifts are LLVM's: an amount outside 0..31 is poison, as after HEAD's arith.shli / shrui.
INT_BINARY = {"add": "add", "subtract": "sub", "multiply": "mul", "maximum": "intr.smax", "minimum": "intr.smin",
              "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor", "logical_left_shift": "shl",
              "logical_right_shift": "lshr"}  # fmt: skip
FLOAT_COMPARE = {"eq": "oeq", "ne": "une", "gt": "ogt", "ge": "oge", "lt": "olt", "le": "ole"}
INT_COMPARE = {"eq": "eq", "ne": "ne", "gt": "sgt", "ge": "sge", "lt": "slt", "le": "sle"}


def unary(b: Builder, name: str, element: str, x: Value, parameter: float = 0.0) -> Value:
    """`ttir.<name>` of one element (`parameter`: leaky_relu's slope)."""
    if name == "leaky_relu":  # HEAD: select(x > 0, x, parameter * x), the slope an f32 constant
        return b.select(b.fcmp("ogt", x, b.const(0.0, F32)), x, b.binary("fmul", b.const(parameter, F32), x))
    return (FLOAT_UNARY if element == "f32" else INT_UNARY)[name](b, x)


def binary(b: Builder, name: str, element: str, x: Value, y: Value) -> Value:
    """`ttir.<name>` of two elements of one type."""
    if element == "f32":
        return _float_remainder(b, x, y) if name == "remainder" else b.binary(FLOAT_BINARY[name], x, y)
    if name in INT_BINARY:
        return b.binary(INT_BINARY[name], x, y)
    # div and remainder: x / 0 is 0 (as the reference interpreter), never LLVM's undefined behaviour
    zero = b.icmp("eq", y, b.const(0, I32))
    q = b.binary("sdiv" if name == "div" else "srem", x, b.select(zero, b.const(1, I32), y))
    if name == "remainder":
        q = _floor_remainder(b, q, y)
    return b.select(zero, b.const(0, I32), q)


def _float_remainder(b: Builder, x: Value, y: Value) -> Value:
    """HEAD's host remainder (RemainderOpToLinalgGenericPattern): `x - floor(x / y) * y`, the sign of `y`."""
    return b.binary("fsub", x, b.binary("fmul", b.op("llvm.intr.floor", [b.binary("fdiv", x, y)], F32), y))


def _floor_remainder(b: Builder, rem: Value, y: Value) -> Value:
    """HEAD's integer remainder: the C remainder plus `y` when it is non-zero and its sign is not `y`'s."""
    zero = b.const(0, I32)
    differ = b.binary("and", b.icmp("ne", rem, zero), b.icmp("slt", b.binary("xor", rem, y), zero))
    return b.select(differ, b.binary("add", rem, y), rem)


def logical(b: Builder, name: str, xs: list[Value]) -> Value:
    """`ttir.logical_*` of i1 elements."""
    if name == "logical_not":
        return b.binary("xor", xs[0], b.const(True, I1))
    return b.binary(name[len("logical_") :], xs[0], xs[1])


def clamp(b: Builder, element: str, x: Value, lo: float | int, hi: float | int) -> Value:
    """`min(max(x, lo), hi)` (NaN stays NaN, as numpy's clip)."""
    if element == "f32":
        return b.binary("intr.minimum", b.binary("intr.maximum", x, b.const(float(lo), F32)), b.const(float(hi), F32))
    return b.binary("intr.smin", b.binary("intr.smax", x, b.const(int(lo), I32)), b.const(int(hi), I32))


def clamp_values(b: Builder, element: str, x: Value, lo: Value, hi: Value) -> Value:
    """`min(max(x, lo), hi)` of three elements."""
    mx, mn = ("intr.maximum", "intr.minimum") if element == "f32" else ("intr.smax", "intr.smin")
    return b.binary(mn, b.binary(mx, x, lo), hi)


def compare(b: Builder, name: str, element: str, x: Value, y: Value) -> Value:
    """The i1 of `ttir.<name>` on two elements (NaN compares unequal to everything)."""
    if element == "f32":
        return b.fcmp(FLOAT_COMPARE[name], x, y)
    return b.icmp(INT_COMPARE[name], x, y)


def convert(b: Builder, x: Value, src: str, dst: str) -> Value:
    """`ttir.typecast` of one element as HEAD's `tosa.cast`: float to int rounds half to even and
    saturates, anything to i1 is `!= 0`, i1 widens unsigned."""
    if src == dst:
        return x
    if dst == "bf16":  # from f32 (lowerable.py): arith.truncf, rounding to nearest even
        return b.cast("fptrunc", x, BF16)
    if src == "bf16":
        return b.cast("fpext", x, F32)
    if dst == "i1":
        return b.fcmp("une", x, b.const(0.0, F32)) if src == "f32" else b.icmp("ne", x, b.const(0, I32))
    if src == "i1":
        return b.cast("uitofp", x, F32) if dst == "f32" else b.cast("zext", x, I32)
    return _float_to_int(b, x) if dst == "i32" else b.cast("sitofp", x, F32)


def _float_to_int(b: Builder, x: Value) -> Value:
    """MLIR's tosa.cast f32 -> i32 (TosaToLinalg): `roundeven`, then below -2^31 is INT32_MIN and at or
    above 2^31 (or NaN, the unordered compare) INT32_MAX. The value `fptosi` sees is always in range:
    a bare `fptosi` of an out-of-range float is poison."""
    rounded = b.op("llvm.intr.roundeven", [x], F32)
    over = b.fcmp("uge", rounded, b.const(2.0**31, F32))
    safe = b.select(over, b.const(0.0, F32), b.binary("intr.maximum", rounded, b.const(-(2.0**31), F32)))
    return b.select(over, b.const(INT32_MAX, I32), b.cast("fptosi", safe, I32))


REDUCE_INIT = {("reduce_and", "i1"): True, ("reduce_or", "i1"): False, ("prod", "f32"): 1.0, ("prod", "i32"): 1, ("sum", "f32"): 0.0, ("mean", "f32"): 0.0, ("max", "f32"): -FLT_MAX, ("min", "f32"): FLT_MAX,
               ("sum", "i32"): 0, ("max", "i32"): INT32_MIN, ("min", "i32"): INT32_MAX,
               ("reduce_and", "i32"): 1, ("reduce_or", "i32"): 0, ("reduce_and", "f32"): 1.0, ("reduce_or", "f32"): 0.0}  # fmt: skip
REDUCE_STEP = {("reduce_and", "i1"): "and", ("reduce_or", "i1"): "or", ("prod", "f32"): "fmul", ("prod", "i32"): "mul", ("sum", "f32"): "fadd", ("mean", "f32"): "fadd", ("max", "f32"): "intr.maximum", ("min", "f32"): "intr.minimum",
               ("sum", "i32"): "add", ("max", "i32"): "intr.smax", ("min", "i32"): "intr.smin",
               # Over 32-bit elements (booleans on the host) HEAD's CPU-fallback decomposition makes
               # reduce_and a product and reduce_or a sum compared with 0 (`tensor_ops._reduce`).
               ("reduce_and", "i32"): "mul", ("reduce_or", "i32"): "add",
               ("reduce_and", "f32"): "fmul", ("reduce_or", "f32"): "fadd"}  # fmt: skip
