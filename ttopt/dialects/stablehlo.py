"""The StableHLO dialect: op table with the custom formats JAX prints (reference §1.4)."""

from ttopt.dialects.format_base import ConstantFormat, KwargsFormat, PrettyFormat, constant_result_name
from ttopt.dialects.func_formats import CalleeFormat
from ttopt.dialects.stablehlo_formats import (
    BarrierFormat,
    CompareFormat,
    CompositeFormat,
    ConvFormat,
    DotFormat,
    IndexedFormat,
    ReduceFormat,
    SliceFormat,
    WhileFormat,
)
from ttopt.ir.opdef import CONSTANT_LIKE, PURE, TERMINATOR, OpDef, register

_P = frozenset({PURE})
# Regions of stablehlo ops print `func.call`, not `call`, and end with stablehlo.return.
_NO_DEFAULT = {"default_dialect": "", "needs_terminator": True, "terminator_name": "stablehlo.return"}

UNARY_ELEMENTWISE = (
    "abs", "cbrt", "ceil", "cosine", "count_leading_zeros", "exponential", "exponential_minus_one",
    "floor", "imag", "is_finite", "log", "log_plus_one", "logistic", "negate", "not", "popcnt", "real",
    "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh",
    "convert", "bitcast_convert", "uniform_quantize", "uniform_dequantize",
)
BINARY_ELEMENTWISE: tuple[str, ...] = (
    "add", "and", "atan2", "complex", "divide", "maximum", "minimum", "multiply", "or", "power",
    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "xor",
)
BINARY_ELEMENTWISE = tuple(n for n in BINARY_ELEMENTWISE if n != "complex")
# Generic-form ops with regions or no custom syntax; listed for arity checks and traits.
GENERIC = {
    "case": ((1, 1), None),
    "if": ((1, 1), None),
    "sort": ((1, None), None),
    "scatter": ((3, None), None),
    "gather": ((2, 2), 1),
    "dynamic_gather": ((3, 3), 1),
    "reduce_window": ((2, None), None),
    "select_and_scatter": ((3, 3), 1),
    "all_reduce": ((1, None), None),
    "all_gather": ((1, None), None),
    "reduce_scatter": ((1, 1), 1),
    "all_to_all": ((1, None), None),
    "collective_permute": ((1, 1), 1),
    "collective_broadcast": ((1, 1), 1),
    "map": ((1, None), 1),
    "triangular_solve": ((2, 2), 1),
    "batch_norm_inference": ((5, 5), 1),
    "batch_norm_training": ((3, 3), 3),
    "batch_norm_grad": ((5, 5), 3),
    "dynamic_pad": ((5, 5), 1),
    "dynamic_conv": ((3, 3), 1),
    "infeed": ((1, 1), None),
    "outfeed": ((1, None), 1),
    "send": ((1, None), 1),
    "recv": ((1, 1), None),
}

register(
    *(OpDef(f"stablehlo.{n}", operands=1, results=1, traits=_P, format=PrettyFormat()) for n in UNARY_ELEMENTWISE),
    *(OpDef(f"stablehlo.{n}", operands=2, results=1, traits=_P, format=PrettyFormat()) for n in BINARY_ELEMENTWISE),
    OpDef("stablehlo.complex", operands=2, results=1, traits=_P, format=PrettyFormat(style="result_only")),
    OpDef("stablehlo.select", operands=3, results=1, traits=_P, format=PrettyFormat(style="select")),
    OpDef("stablehlo.clamp", operands=3, results=1, traits=_P, format=PrettyFormat()),
    OpDef("stablehlo.reshape", operands=1, results=1, traits=_P, format=PrettyFormat(style="functional")),
    OpDef("stablehlo.dynamic_update_slice", operands=(3, None), results=1, traits=_P, format=PrettyFormat(style="functional")),
    OpDef("stablehlo.optimization_barrier", format=BarrierFormat()),
    OpDef("stablehlo.partition_id", operands=0, results=1, format=PrettyFormat()),
    OpDef("stablehlo.replica_id", operands=0, results=1, format=PrettyFormat()),
    OpDef("stablehlo.return", results=0, traits=frozenset({TERMINATOR}), format=PrettyFormat(style="return")),
    OpDef(
        "stablehlo.constant",
        operands=0,
        results=1,
        traits=frozenset({PURE, CONSTANT_LIKE}),
        format=ConstantFormat(),
        result_name=constant_result_name,
    ),
    OpDef("stablehlo.compare", operands=2, results=1, traits=_P, format=CompareFormat(style="functional")),
    OpDef(
        "stablehlo.broadcast_in_dim", operands=1, results=1, traits=_P,
        format=KwargsFormat({"dims": ("broadcast_dimensions", "i64_array")}),
    ),
    OpDef("stablehlo.transpose", operands=1, results=1, traits=_P, format=KwargsFormat({"dims": ("permutation", "i64_array")})),
    OpDef("stablehlo.reverse", operands=1, results=1, traits=_P, format=KwargsFormat({"dims": ("dimensions", "i64_array")}, style="same")),
    OpDef("stablehlo.concatenate", operands=(1, None), results=1, traits=_P, format=KwargsFormat({"dim": ("dimension", "i64")})),
    OpDef("stablehlo.iota", operands=0, results=1, traits=_P, format=KwargsFormat({"dim": ("iota_dimension", "i64")}, style="same")),
    OpDef(
        "stablehlo.pad", operands=2, results=1, traits=_P,
        format=KwargsFormat({
            "low": ("edge_padding_low", "i64_array"),
            "high": ("edge_padding_high", "i64_array"),
            "interior": ("interior_padding", "i64_array"),
        }),
    ),
    OpDef("stablehlo.dynamic_slice", operands=(1, None), results=1, traits=_P, format=KwargsFormat({"sizes": ("slice_sizes", "i64_array")})),
    OpDef("stablehlo.get_dimension_size", operands=1, results=1, traits=_P, format=KwargsFormat({"dim": ("dimension", "i64")})),
    OpDef(
        "stablehlo.rng_bit_generator", operands=1, results=2,
        format=KwargsFormat({"algorithm": ("rng_algorithm", "enum:stablehlo:rng_algorithm")}),
        result_name=lambda op: ["output_state", "output"],
    ),
    OpDef(
        "stablehlo.fft", operands=1, results=1, traits=_P,
        format=KwargsFormat({"type": ("fft_type", "enum:stablehlo:fft_type"), "length": ("fft_length", "i64_array")}),
    ),
    OpDef("stablehlo.tuple", results=1, traits=_P, format=PrettyFormat(style="result_only")),
    OpDef("stablehlo.after_all", results=1, format=PrettyFormat()),
    OpDef("stablehlo.create_token", operands=0, results=1, format=PrettyFormat()),
    OpDef("stablehlo.dynamic_reshape", operands=2, results=1, traits=_P, format=PrettyFormat(style="functional")),
    OpDef(
        "stablehlo.dynamic_broadcast_in_dim", operands=(2, None), results=1, traits=_P,
        format=KwargsFormat({"dims": ("broadcast_dimensions", "i64_array")}),
    ),
    OpDef("stablehlo.dynamic_iota", operands=1, results=1, traits=_P, format=KwargsFormat({"dim": ("iota_dimension", "i64")})),
    OpDef("stablehlo.cholesky", operands=1, results=1, traits=_P, format=KwargsFormat({"lower": ("lower", "bool")}, style="same")),
    OpDef("stablehlo.einsum", operands=2, results=1, traits=_P, format=KwargsFormat({"config": ("einsum_config", "string")})),
    OpDef(
        "stablehlo.rng", operands=3, results=1,
        format=KwargsFormat({"distribution": ("rng_distribution", "enum:stablehlo:rng_distribution")}),
    ),
    OpDef(
        "stablehlo.reduce_precision", operands=1, results=1, traits=_P,
        format=KwargsFormat({"format": ("exponent_bits", "float_format")}, style="same"),
    ),
    OpDef("stablehlo.slice", operands=1, results=1, traits=_P, format=SliceFormat(style="functional")),
    OpDef("stablehlo.dot_general", operands=2, results=1, traits=_P, format=DotFormat(style="functional")),
    OpDef("stablehlo.dot", operands=2, results=1, traits=_P, format=DotFormat(style="functional")),
    OpDef("stablehlo.reduce", operands=(2, None), traits=_P, regions=1, format=ReduceFormat(style="functional"), extra=_NO_DEFAULT),
    OpDef(
        "stablehlo.convolution", operands=2, results=1, traits=_P,
        format=ConvFormat(style="functional", inherent=("batch_group_count", "feature_group_count", "precision_config")),
    ),
    OpDef(
        "stablehlo.custom_call",
        format=CalleeFormat("call_target_name", inherent=(
            "api_version", "backend_config", "called_computations", "has_side_effect", "operand_layouts",
            "output_operand_aliases", "result_layouts",
        )),
    ),
    OpDef("stablehlo.get_tuple_element", operands=1, results=1, traits=_P, format=IndexedFormat()),
    OpDef("stablehlo.composite", format=CompositeFormat()),
    OpDef("stablehlo.while", regions=2, format=WhileFormat(), extra={**_NO_DEFAULT, "arg_name": "iterArg"}),
    *(
        OpDef(f"stablehlo.{n}", operands=ops, results=res, extra=_NO_DEFAULT)
        for n, (ops, res) in GENERIC.items()
    ),
)
