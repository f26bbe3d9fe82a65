"""`ttnn-operation-validation-and-fallback` as tt-mlir runs it: each TTNN op is validated with its
input layouts; an op its kernels reject gets the nearest input layouts they accept (a
`ttnn.to_tensor_spec` before it per changed operand, `ttnn_op_fallbacks` gives the order, at most
`max-fallback-attempts` failed combinations), and an op whose result type is not what it writes gets
the type it writes and a `ttnn.to_tensor_spec` back to the type the program expects (its location
named `<name>_revert_layout`). No combination works: an error at the op.

tt-mlir asks the op model; ttopt has no op model library, so the kernels' requirements are the
ones `ttnn_op_constraints` writes down (embedding, pooling, upsample), and every other op accepts
its inputs and writes the data type (binary ops: the declared one, which tt-mlir passes them) and
page layout (tile or row-major) of its first tensor operand, in the memory the result type names; sort and top-k indices come out as ui16 (ui32 past
65535 padded elements), argmax as ui32, as `ttnn-workaround` knows them. Creation,
layout-conversion, device and conv ops (whose output the op decides from its attributes) are left
alone, as are ops whose result already matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.device.device import Device, load_device
from ttopt.device.tensor import element_dtype
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.location import suffixed_location
from ttopt.ir.operation import Operation
from ttopt.ir.types import TensorType
from ttopt.lowering import ttnn_conv_fallbacks, ttnn_op_constraints, ttnn_op_fallbacks
from ttopt.lowering.ttnn_workarounds import WORKAROUNDS, target_dtype
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.options import option
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

# Ops whose output the op's attributes decide (or that move data between layouts): not validated.
SKIPPED = frozenset({
    "ttnn.get_device", "ttnn.deallocate", "ttnn.to_layout", "ttnn.to_memory_config", "ttnn.to_device", "ttnn.from_device",
    "ttnn.typecast", "ttnn.to_dtype", "ttnn.to_tensor_spec", "ttnn.empty", "ttnn.zeros", "ttnn.ones", "ttnn.full",
    "ttnn.constant", "ttnn.arange", "ttnn.rand", "ttnn.conv2d", "ttnn.conv_transpose2d", "ttnn.conv3d", "ttnn.prepare_conv2d_weights",
    "ttnn.prepare_conv2d_bias", "ttnn.update_cache",
    "ttnn.fill_cache", "ttnn.paged_update_cache", "ttnn.paged_fill_cache",
    # the ttml training ops: the conversion's workarounds already typed them for their kernels
    # (bf16 data, f32 log-sum-exp intermediates, which are not their first operand's type)
    "ttnn.sdpa_fw", "ttnn.sdpa_bw", "ttnn.adamw",
})  # fmt: skip
INDEX_RESULTS = {"ttnn.sort": 1, "ttnn.topk": 1, "ttnn.argmax": 0}
# Binary kernels take the output data type as a parameter: tt-mlir's op model passes the result's, so
# they write the declared data type (unary kernels write their input's).
DECLARED_DTYPE = frozenset(f"ttnn.{n}" for n in (
    "add", "multiply", "logical_right_shift", "subtract", "maximum", "minimum", "divide", "eq", "ne", "ge", "gt", "le",
    "lt", "logical_and", "logical_or", "logical_xor", "pow_tensor", "remainder",
))  # fmt: skip
# Ops whose output follows an operand other than the first: embedding_bw writes its gradient's data
# type, where its values'.
DATA_OPERAND = {"ttnn.embedding_bw": 2, "ttnn.where": 1}


def _layout(t: Any) -> TTNNLayoutAttr | None:
    enc = t.encoding if isinstance(t, TensorType) else None
    lay = getattr(enc.resolve(), "typed", None) if enc is not None else None
    return lay if isinstance(lay, TTNNLayoutAttr) else None


def _produced(op: Operation, index: int, aliaser: LayoutAliaser) -> TensorType | None:
    """The type result `index` of `op` comes out in, None when it is the declared one or unknown."""
    declared = op.results[index].type.resolve()
    tensors = [v.type.resolve() for v in op.operands if _layout(v.type.resolve()) is not None]
    k = DATA_OPERAND.get(op.name, 0)
    src = tensors[k] if k < len(tensors) else None
    out_lay, in_lay = _layout(declared), _layout(src)
    if out_lay is None or in_lay is None:
        return None
    dtype: DataType | None = element_dtype(declared if op.name in DECLARED_DTYPE else src)
    if op.name in INDEX_RESULTS and index == INDEX_RESULTS[op.name]:
        rule = WORKAROUNDS.get(op.name)
        dtype = target_dtype(rule(op)[1][index]) if rule is not None else None
        dtype = dtype or element_dtype(declared)
    if dtype is None:
        return None
    tiled = in_lay.is_tiled
    if dtype is element_dtype(declared) and tiled == out_lay.is_tiled:
        return None
    shape = tuple(int(d) for d in declared.shape or () if d is not None)
    try:
        produced = out_lay.relayout(shape, dtype=dtype, tiled=tiled)
    except (ValueError, TypeError):
        # A row-major result cannot be L1 interleaved (or sharded as declared): the op writes DRAM.
        try:
            produced = out_lay.relayout(shape, dtype=dtype, tiled=tiled, buffer_type=BufferType.DRAM,
                                        memory_layout=TensorMemoryLayout.INTERLEAVED)  # fmt: skip
        except (ValueError, TypeError):
            return None
    return aliaser.tensor_type(declared, produced)


def _tensor_operands(op: Operation) -> list[tuple[int, TensorType, TTNNLayoutAttr]] | None:
    """(operand index, type, layout) of each tensor operand; None when one has no ttnn layout."""
    out = []
    for i, v in enumerate(op.operands):
        t = v.type.resolve()
        if not isinstance(t, TensorType):
            continue
        lay = _layout(t)
        if lay is None:
            return None
        out.append((i, t, lay))
    return out


def _shape(t: TensorType) -> tuple[int, ...]:
    return tuple(int(d) for d in t.shape or () if d is not None)


def _differs(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> bool:
    """A change the IR must express: page layout, data type, buffer or memory layout (not the grid)."""
    return (a.is_tiled, a.dtype, a.buffer_type, a.memory_layout) != (b.is_tiled, b.dtype, b.buffer_type, b.memory_layout)


class _Validator:
    """Validates one op at a time, recording the ops to insert around it."""

    def __init__(self, module: Module, aliaser: LayoutAliaser, max_attempts: int) -> None:
        self.source = module.source
        self.module = module
        self._device: Device | None = None
        self.aliaser = aliaser
        self.max_attempts = max_attempts
        self.reverted = 0
        self.fixed = 0

    def outputs(self, op: Operation, ins: list[TTNNLayoutAttr], dram: bool) -> list[TensorType | None]:
        """Per result: the type the op writes from these inputs (None: the declared one or unknown).
        With `dram` the output is asked for in DRAM interleaved, as the fallbacks ask for it."""
        out: list[TensorType | None] = []
        for i, r in enumerate(op.results):
            declared = r.type.resolve()
            lay = _layout(declared)
            if lay is None or not isinstance(declared, TensorType):
                out.append(None)
                continue
            given = ttnn_op_constraints.output_of(op.name, ins, lay)
            if given is None and not dram:
                out.append(_produced(op, i, self.aliaser))
                continue
            if given is None:
                given = (lay.dtype, lay.is_tiled)
            dtype, tiled = given
            actual = None
            for to_dram in (True,) if dram else (False, True):
                try:
                    if to_dram:
                        actual = lay.relayout(_shape(declared), dtype=dtype, tiled=tiled, buffer_type=BufferType.DRAM,
                                              memory_layout=TensorMemoryLayout.INTERLEAVED)  # fmt: skip
                    else:
                        actual = lay.relayout(_shape(declared), dtype=dtype, tiled=tiled)
                    break
                except (ValueError, TypeError):
                    continue  # the declared memory cannot hold it (a row-major shard grid, a block float row-major): the op writes DRAM
            if actual is None:
                out.append(None)  # a layout the builder cannot express: leave the result as it is
                continue
            out.append(self.aliaser.tensor_type(declared, actual) if _differs(actual, lay) else None)
        return out

    def device(self) -> Device:
        """The module's device (its system desc, else the default preset)."""
        if self._device is None:
            self._device = load_device(None, self.module)
        return self._device

    def run_conv(self, op: Operation) -> None:
        """A conv that does not fit in L1 gets the first slice config and act_block_h that fit."""
        if ttnn_conv_fallbacks.current_fits(op, self.device()) is not False:
            return
        found, tested = ttnn_conv_fallbacks.search(op, self.device(), self.max_attempts)
        if found is None:
            raise self._failure(op, "out of L1 memory with its slice config", tested)
        ttnn_conv_fallbacks.apply(op, *found)
        self.fixed += 1

    def run(self, op: Operation) -> tuple[list[Operation], list[Operation]]:
        """The ops to insert before and after `op` (its operands and results rewired to them)."""
        if op.name in ttnn_conv_fallbacks.CONV_OPS:
            self.run_conv(op)
            return [], []
        operands = _tensor_operands(op)
        if operands is None:
            return [], []
        ins = [lay for _, _, lay in operands]
        why = ttnn_op_constraints.check(op.name, ins)
        if why is None:
            return [], self._revert(op, self.outputs(op, ins, dram=False))
        if len(operands) > ttnn_op_fallbacks.MAX_OPERANDS:
            raise self._failure(op, why, 0)
        failed = 0
        for combo in ttnn_op_fallbacks.combinations(ins, [_shape(t) for _, t, _ in operands]):
            if ttnn_op_constraints.check(op.name, list(combo.layouts)) is not None:
                failed += 1
                if 0 < self.max_attempts <= failed:
                    break
                continue
            self.fixed += 1
            before = []
            for (index, t, lay), new in zip(operands, combo.layouts):
                if new == lay:
                    continue
                spec = Operation("ttnn.to_tensor_spec", [op.operands[index]], [self.aliaser.tensor_type(t, new)],
                                 location=op.location)  # fmt: skip
                spec.pos = op.pos
                op.set_operand(index, spec.results[0])
                before.append(spec)
            return before, self._revert(op, self.outputs(op, list(combo.layouts), dram=True))
        raise self._failure(op, why, failed)

    def _failure(self, op: Operation, why: str, tested: int) -> Diagnostic:
        return Diagnostic(
            f"OperationValidationAndFallback: Operation {op.name} failed validation (original error: {why}). "
            f"No fallback configuration worked (tested up to {tested} combinations).",
            op_position(self.source, op),
        )

    def _revert(self, op: Operation, types: list[TensorType | None]) -> list[Operation]:
        """Retype results to what the op writes; a `ttnn.to_tensor_spec` after the op gives each
        consumer the declared type back (the last result's revert comes first, as tt-mlir inserts
        each right after the op)."""
        after: list[Operation] = []
        for r, t in zip(op.results, types):
            if t is None:
                continue
            declared = r.type
            r.type = t
            spec = Operation("ttnn.to_tensor_spec", [r], [declared], location=suffixed_location(op.location, "_revert_layout"))
            spec.pos = op.pos
            r.replace_all_uses_with(spec.results[0], except_in=spec)
            after.insert(0, spec)
            self.reverted += 1
        return after


def validate(module: Module, max_attempts: int = 0) -> tuple[int, int]:
    """Fix every op the kernels reject with the nearest input fallback, and retype every op whose
    result is not what it writes, reverting through `ttnn.to_tensor_spec`; (reverted, fixed)."""
    v = _Validator(module, LayoutAliaser(module), max_attempts)
    for func in module.functions():
        if not func.regions or not func.regions[0].blocks:
            continue
        for block in func.regions[0].blocks:
            out: list[Operation] = []
            for op in block.ops:
                if not op.name.startswith("ttnn.") or (op.name in SKIPPED and op.name not in ttnn_conv_fallbacks.CONV_OPS):
                    out.append(op)
                    continue
                before, after = v.run(op)
                out.extend(before)
                out.append(op)
                out.extend(after)
            for op in out:
                op.parent = block
            block.ops = out
        update_function_type(func)
    return v.reverted, v.fixed


@register_pass
@dataclass
class TTNNOperationValidationAndFallback(Pass):
    """Give each TTNN op the output type it produces and revert to the expected one through ttnn.to_tensor_spec."""

    name = "ttnn-operation-validation-and-fallback"
    summary = (
        "TTNN ops get the output data type and page layout their kernels produce, with a ttnn.to_tensor_spec back to the expected type"
    )

    max_fallback_attempts: int = option(0, "Fallback combinations tried per failing op before giving up (0: all)")

    def run(self, module: Module, ctx: PassContext) -> None:
        reverted, fixed = validate(module, self.max_fallback_attempts)
        stats = ctx.stats.setdefault(self.name, {})
        stats["reverted"], stats["fixed"] = reverted, fixed
