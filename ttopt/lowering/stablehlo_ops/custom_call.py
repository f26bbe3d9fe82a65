"""`stablehlo.custom_call` by call target: the targets tt-mlir lowers register here with
`@lowers_target("mhlo.erf")`; any other target is a diagnostic naming it.

XLA's serialization turns the CHLO ops that have an MHLO counterpart into `mhlo.*` custom calls
(`mhlo.erf`, `mhlo.asinh`, `mhlo.topk`); tt-mlir lowers those forms, and so does ttopt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ttopt.lowering.stablehlo_handlers import Unsupported, lowers

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

Handler = Callable[["Lowering", "Operation"], "list[Value]"]
TARGETS: dict[str, Handler] = {}


def lowers_target(*targets: str) -> Callable[[Handler], Handler]:
    """Register the lowering of `stablehlo.custom_call`s to the call targets `targets`."""

    def register(fn: Handler) -> Handler:
        for t in targets:
            TARGETS[t] = fn
        return fn

    return register


def target_of(op: Operation) -> str:
    """The op's call target name (`mhlo.topk`)."""
    a = op.properties.get("call_target_name") or op.attributes.get("call_target_name")
    return str(getattr(a.resolve(), "value", "")) if a is not None else ""


@lowers("stablehlo.custom_call")
def _custom_call(low: Lowering, op: Operation) -> list[Value]:
    target = target_of(op)
    fn = TARGETS.get(target)
    if fn is None:
        raise Unsupported(f"custom call target '{target}' is not one tt-mlir lowers")
    return fn(low, op)


@lowers_target("tt.mark_argument")
def _mark_argument(low: Lowering, op: Operation) -> list[Value]:
    """The frontend's argument marker (argument type and name for tt-xla) is an identity: its
    operand. tt-mlir's conversion leaves it in place (its single-operand custom-call pattern
    succeeds without rewriting) and its auto-sharding strips it; TTIR has no op for it."""
    if len(op.operands) != 1 or len(op.results) != 1:
        raise Unsupported("tt.mark_argument takes one operand and has one result")
    return [op.operands[0]]
