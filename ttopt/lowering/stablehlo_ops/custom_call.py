"""`stablehlo.custom_call` by call target: the targets tt-mlir lowers register here with
`@lowers_target("mhlo.erf")`; any other target is a diagnostic naming it.

XLA's serialization turns the CHLO ops that have an MHLO counterpart into `mhlo.*` custom calls
(`mhlo.erf`, `mhlo.asinh`, `mhlo.topk`); tt-mlir lowers those forms, and so does ttopt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ttopt.ir.attributes import StringAttr
from ttopt.lowering.stablehlo_handlers import Unsupported, lowers
from ttopt.lowering.stablehlo_ops.building import emit_results
from ttopt.lowering.stablehlo_ops.frontend_attributes import frontend_attributes

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


@lowers_target("tt.tt_lang_op")
def _tt_lang_op(low: Lowering, op: Operation) -> list[Value]:
    """A tt-lang kernel call -> `ttir.tt_lang_op`, as HEAD lowers the functional form: the call's
    operands are the `in` tensors of `arg_roles`, a `ttir.empty` is added per result (the `out`
    tensors); `kernel_id`, `version_tag`, `arg_roles` and a non-empty `shard_spec` become its
    attributes."""
    attrs = frontend_attributes(op)
    for key in ("kernel_id", "version_tag", "arg_roles"):
        if not attrs.get(key):
            raise Unsupported(f"tt.tt_lang_op requires a non-empty `{key}` frontend attribute")
    roles = [r.strip() for r in attrs["arg_roles"].split(",")]
    if any(r not in ("in", "out") for r in roles):
        raise Unsupported('tt.tt_lang_op `arg_roles` tokens must be "in" or "out"')
    ins, outs = roles.count("in"), roles.count("out")
    if not op.results or outs != len(op.results):
        raise Unsupported('tt.tt_lang_op needs one "out" role per result')
    if len(op.operands) != ins or ins == 0:
        raise Unsupported('tt.tt_lang_op operands must be exactly its "in" tensors (the legacy destination-passing form is not supported)')
    empties = [low.emit("empty", [], r.type) for r in op.results]
    props = {k: StringAttr(attrs[k]) for k in ("arg_roles", "kernel_id", "version_tag")}
    if attrs.get("shard_spec"):
        props["shard_spec"] = StringAttr(attrs["shard_spec"])
    return emit_results(low, "tt_lang_op", [*op.operands, *empties], [r.type for r in op.results], **props)
