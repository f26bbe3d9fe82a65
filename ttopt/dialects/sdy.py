"""The Shardy (sdy) dialect: op table with its custom formats (reference §1.3)."""

from ttopt.dialects.format_base import ConstantFormat, PrettyFormat
from ttopt.dialects.func_formats import SymEqFormat
from ttopt.dialects.sdy_formats import SdyCollectiveFormat, SdyKwFormat, SdyManualFormat, SdyNamedFormat, SdyShardingFormat
from ttopt.ir.opdef import CONSTANT_LIKE, PURE, TERMINATOR, OpDef, register, register_verifiers

register(
    OpDef("sdy.mesh", operands=0, results=0, format=SymEqFormat("mesh", "sdy.mesh"), summary="a named device mesh"),
    OpDef("sdy.sharding_constraint", operands=1, results=1, format=SdyShardingFormat()),
    OpDef("sdy.reshard", operands=1, results=1, traits=frozenset({PURE}), format=SdyShardingFormat()),
    OpDef("sdy.all_gather", operands=1, results=1, format=SdyCollectiveFormat("gathering_axes", "list_of_axis_ref_lists")),
    OpDef("sdy.all_slice", operands=1, results=1, format=SdyCollectiveFormat("slicing_axes", "list_of_axis_ref_lists")),
    OpDef("sdy.all_to_all", operands=1, results=1, format=SdyCollectiveFormat("params", "all_to_all_param_list")),
    OpDef("sdy.reduce_scatter", operands=1, results=1, format=SdyCollectiveFormat("reduce_scatter_axes", "list_of_axis_ref_lists")),
    OpDef("sdy.all_reduce", operands=1, results=1, format=SdyCollectiveFormat("reduction_axes", "axis_ref_list")),
    OpDef("sdy.collective_permute", operands=1, results=1, format=SdyCollectiveFormat(None, None)),
    OpDef("sdy.sharded_to_unreduced", operands=1, results=1, format=SdyCollectiveFormat("axes", "list_of_axis_ref_lists")),
    OpDef("sdy.replicated_to_unreduced", operands=1, results=1, format=SdyCollectiveFormat("axes", "axis_ref_list")),
    OpDef("sdy.manual_computation", regions=1, format=SdyManualFormat(), extra={"needs_terminator": True}),
    OpDef("sdy.named_computation", regions=1, format=SdyNamedFormat(), extra={"needs_terminator": True}),
    OpDef("sdy.return", results=0, traits=frozenset({TERMINATOR}), format=PrettyFormat(style="return")),
    OpDef("sdy.sharding_group", operands=1, results=0, format=SdyKwFormat({"group_id": "i64"})),
    OpDef(
        "sdy.propagation_barrier", operands=1, results=1,
        format=SdyKwFormat({"allowed_direction": "enum:propagation_direction"}),
    ),
    OpDef("sdy.data_flow_edge", operands=1, results=1, format=SdyKwFormat({"sharding": "sharding"})),
    OpDef("sdy.func_data_flow_edge", operands=1, results=1, format=SdyKwFormat({})),
    # No result name hint: Shardy's sdy.constant prints as `%0`, not `%cst` like stablehlo.constant.
    OpDef("sdy.constant", operands=0, results=1, traits=frozenset({PURE, CONSTANT_LIKE}), format=ConstantFormat()),
)

from ttopt.dialects.sdy_verify import VERIFIERS  # noqa: E402

register_verifiers(VERIFIERS)
