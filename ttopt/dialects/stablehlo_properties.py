"""The properties of StableHLO (and chlo) ops, as StablehloOps.td declares them (name, kind,
required or default): the one declaration the verifier, the parser and `props(op)` read.

The verifier checks them at the op's position (`'stablehlo.iota' op requires attribute
'iota_dimension'`), the parser promotes them from a generic op's attribute dictionary as MLIR
does, and passes read them through `ttopt.ir.properties.props(op)`.
"""

from __future__ import annotations

from ttopt.ir.opdef import register_properties
from ttopt.ir.properties import Prop


def _opt(name: str, kind: str = "attr", default: object = None) -> Prop:
    return Prop(name, kind, required=False, default=default)


_CHANNEL = _opt("channel_handle")
_GROUPS = Prop("replica_groups", "groups")
_GLOBAL_IDS = _opt("use_global_device_ids", "bool", False)
_PRECISION = _opt("precision_config")
_CONV = (
    _opt("window_strides", "ints"),
    _opt("padding", "ints"),
    _opt("lhs_dilation", "ints"),
    _opt("rhs_dilation", "ints"),
    _opt("window_reversal"),
    Prop("dimension_numbers", "stablehlo.conv"),
    Prop("feature_group_count", "int"),
    Prop("batch_group_count", "int"),
    _PRECISION,
)

STABLEHLO_PROPERTIES: dict[str, tuple[Prop, ...]] = {
    "stablehlo.iota": (Prop("iota_dimension", "int"),),
    "stablehlo.dynamic_iota": (Prop("iota_dimension", "int"),),
    "stablehlo.transpose": (Prop("permutation", "ints"),),
    "stablehlo.broadcast_in_dim": (Prop("broadcast_dimensions", "ints"),),
    "stablehlo.dynamic_broadcast_in_dim": (
        Prop("broadcast_dimensions", "ints"),
        _opt("known_expanding_dimensions", "ints"),
        _opt("known_nonexpanding_dimensions", "ints"),
    ),
    "stablehlo.reduce": (Prop("dimensions", "ints"),),
    "stablehlo.reverse": (Prop("dimensions", "ints"),),
    "stablehlo.map": (Prop("dimensions", "ints"),),
    "stablehlo.concatenate": (Prop("dimension", "int"),),
    "stablehlo.slice": (Prop("start_indices", "ints"), Prop("limit_indices", "ints"), Prop("strides", "ints")),
    "stablehlo.dynamic_slice": (Prop("slice_sizes", "ints"),),
    "stablehlo.pad": (Prop("edge_padding_low", "ints"), Prop("edge_padding_high", "ints"), Prop("interior_padding", "ints")),
    "stablehlo.dot_general": (Prop("dot_dimension_numbers", "stablehlo.dot"), _PRECISION, _opt("algorithm")),
    "stablehlo.dot": (_PRECISION,),
    "stablehlo.gather": (Prop("dimension_numbers", "stablehlo.gather"), Prop("slice_sizes", "ints"), _opt("indices_are_sorted", "bool", False)),
    "stablehlo.dynamic_gather": (Prop("dimension_numbers", "stablehlo.gather"), _opt("indices_are_sorted", "bool", False)),
    "stablehlo.scatter": (
        Prop("scatter_dimension_numbers", "stablehlo.scatter"),
        _opt("indices_are_sorted", "bool", False),
        _opt("unique_indices", "bool", False),
    ),
    "stablehlo.convolution": _CONV,
    "stablehlo.dynamic_conv": _CONV,
    "stablehlo.compare": (Prop("comparison_direction", "enum:stablehlo.comparison_direction"), _opt("compare_type")),
    "stablehlo.constant": (Prop("value", "dense"),),
    "stablehlo.reduce_window": (
        Prop("window_dimensions", "ints"),
        _opt("window_strides", "ints"),
        _opt("base_dilations", "ints"),
        _opt("window_dilations", "ints"),
        _opt("padding", "ints"),
    ),
    "stablehlo.select_and_scatter": (_opt("window_dimensions", "ints"), _opt("window_strides", "ints"), _opt("padding", "ints")),
    "stablehlo.all_gather": (Prop("all_gather_dim", "int"), _GROUPS, _CHANNEL, _GLOBAL_IDS),
    "stablehlo.all_reduce": (_GROUPS, _CHANNEL, _GLOBAL_IDS),
    "stablehlo.reduce_scatter": (Prop("scatter_dimension", "int"), _GROUPS, _CHANNEL, _GLOBAL_IDS),
    "stablehlo.all_to_all": (
        Prop("split_dimension", "int"),
        Prop("concat_dimension", "int"),
        Prop("split_count", "int"),
        _GROUPS,
        _CHANNEL,
    ),
    "stablehlo.collective_permute": (Prop("source_target_pairs", "groups"), _CHANNEL),
    "stablehlo.collective_broadcast": (_GROUPS, _CHANNEL),
    "stablehlo.custom_call": (
        Prop("call_target_name", "str"),
        _opt("has_side_effect", "bool", False),
        _opt("backend_config"),
        _opt("api_version"),
        _opt("called_computations", "array"),
        _opt("operand_layouts", "array"),
        _opt("result_layouts", "array"),
        _opt("output_operand_aliases", "array"),
    ),
    "stablehlo.composite": (
        Prop("name", "str"),
        _opt("composite_attributes", "dict"),
        Prop("decomposition", "symbol"),
        _opt("version", "int", 0),
    ),
    "stablehlo.get_tuple_element": (Prop("index", "int"),),
    "stablehlo.get_dimension_size": (Prop("dimension", "int"),),
    "stablehlo.sort": (_opt("dimension", "int", -1), _opt("is_stable", "bool", False)),
    "stablehlo.rng": (Prop("rng_distribution"),),
    "stablehlo.rng_bit_generator": (Prop("rng_algorithm"),),
    "stablehlo.reduce_precision": (Prop("exponent_bits", "int"), Prop("mantissa_bits", "int")),
    "stablehlo.batch_norm_inference": (Prop("epsilon", "float"), Prop("feature_index", "int")),
    "stablehlo.batch_norm_training": (Prop("epsilon", "float"), Prop("feature_index", "int")),
    "stablehlo.batch_norm_grad": (Prop("epsilon", "float"), Prop("feature_index", "int")),
    "stablehlo.cholesky": (_opt("lower", "bool", False),),
    "stablehlo.triangular_solve": (Prop("left_side", "bool"), Prop("lower", "bool"), Prop("unit_diagonal", "bool"), Prop("transpose_a")),
    "stablehlo.fft": (Prop("fft_type", "enum:stablehlo.fft_type"), Prop("fft_length", "ints")),
    "stablehlo.einsum": (Prop("einsum_config", "str"),),
    "stablehlo.send": (Prop("channel_handle"), _opt("is_host_transfer", "bool", False)),
    "stablehlo.recv": (Prop("channel_handle"), _opt("is_host_transfer", "bool", False)),
    "stablehlo.infeed": (_opt("infeed_config", "str", ""), _opt("layout", "array")),
    "stablehlo.outfeed": (_opt("outfeed_config", "str", ""),),
    "chlo.top_k": (Prop("k", "int"),),
}

register_properties(STABLEHLO_PROPERTIES)
