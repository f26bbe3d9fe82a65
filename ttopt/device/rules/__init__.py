"""The rule of each op family (OP-MODEL.md §3): legality, the real output layout, CB bytes.

Each rule takes an `OpContext` and returns a `RuleResult` or raises `Illegal` / `NotModelled`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Mapping

from ttopt.device.op_families import Family
from ttopt.device.rules.common import Illegal, NotModelled, OpContext, RuleResult
from ttopt.device.rules.concat import concat
from ttopt.device.rules.conv import conv
from ttopt.device.rules.data_movement import data_movement, layout_conversion
from ttopt.device.rules.dispatch import dispatch
from ttopt.device.rules.eltwise import eltwise_binary, eltwise_unary
from ttopt.device.rules.matmul import matmul
from ttopt.device.rules.norm import norm
from ttopt.device.rules.transformer import split_heads

RULES: Mapping[Family, Callable[[OpContext], RuleResult]] = MappingProxyType({
    Family.ELTWISE_UNARY: eltwise_unary,
    Family.ELTWISE_BINARY: eltwise_binary,
    Family.MATMUL: matmul,
    Family.CONV: conv,
    Family.NORM: norm,
    Family.CONCAT: concat,
    Family.DATA_MOVEMENT: data_movement,
    Family.LAYOUT: layout_conversion,
    Family.DISPATCH: dispatch,
    Family.TRANSFORMER: split_heads,
})  # fmt: skip

__all__ = ["RULES", "Illegal", "NotModelled", "OpContext", "RuleResult"]
