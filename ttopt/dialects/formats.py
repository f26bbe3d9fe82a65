"""Custom assembly formats: the grammar rule -> builder table the parser reads.

One module per dialect holds the format classes (format_base.py, stablehlo_formats.py,
sdy_formats.py, func_formats.py); this module registers the builders of their grammar rules with
`ir.opdef.register_format_rules` (importing `ttopt.dialects` does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ttopt.dialects.format_base import kwarg, typed_values
from ttopt.dialects.func_formats import func_arg, func_args, func_decl_arg, func_result, result_list, single_result
from ttopt.dialects.sdy_formats import sdy_kw
from ttopt.dialects.stablehlo_formats import (
    dot_angle,
    dot_dims,
    dot_enum_list,
    reduce_input,
    reducer,
    reducer_pair,
    slice_dim,
    while_arg,
    while_args,
    while_types,
)
from ttopt.ir.opdef import register_format_rules
from ttopt.parse.opspec import OpSpec

if TYPE_CHECKING:
    from ttopt.parse.parser import IRBuilder





def _family_rule(b: IRBuilder, c: list) -> OpSpec:
    return b._format(c[0]).build(b, c)


RULE_BUILDERS: dict[str, Callable[[Any, list], Any]] = {
    **{
        rule: _family_rule
        for rule in (
            "module_op", "func_op", "pretty_op", "constant_op", "compare_op", "kwargs_op", "slice_op",
            "dot_op", "reduce_op", "conv_op", "callee_op", "sym_eq_op", "sdy_sharding_op",
            "sdy_collective_op", "sdy_kw_op", "sdy_manual_op", "d2m_op", "while_op", "indexed_op", "composite_op", "barrier_op", "barrier_op_empty",
            "sdy_named_op", "nullary_op",
        )
    },
    "kwarg": kwarg,
    "slice_dim": slice_dim,
    "dot_dims": dot_dims,
    "dot_enum_list": dot_enum_list,
    "dot_angle": dot_angle,
    "reduce_input": reduce_input,
    "reducer_pair": reducer_pair,
    "reducer": reducer,
    "sdy_kw": sdy_kw,
    "typed_values": typed_values,
    "while_args": while_args,
    "while_arg": while_arg,
    "while_types": while_types,
    "func_args": func_args,
    "func_arg": func_arg,
    "func_decl_arg": func_decl_arg,
    "single_result": single_result,
    "result_list": result_list,
    "func_result": func_result,
}

register_format_rules(RULE_BUILDERS)

__all__ = ["RULE_BUILDERS"]
