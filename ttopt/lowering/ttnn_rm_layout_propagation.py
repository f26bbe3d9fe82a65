"""`ttnn-rm-layout-propagation`: integer inputs stay row-major as far as the ops reading them keep
row-major (tt-mlir's TTNNRowMajorLayoutPropagation).

In each forward function (`tt.function_type = "forward_device"`), every row-major integer argument
typed `#ttcore.argument_type<input>` (not a KV cache) loses the `ttnn.to_tensor_spec` that only
tiles it; then, breadth first from those arguments, each op reading a row-major value gets the
row-major output it writes when its kernel takes row-major on that operand:

* a result data type other than the program's gets a row-major `ttnn.to_tensor_spec` to it after
  the op (`<name>_dtype_conversion`), and propagation continues from there;
* an op that does not keep row-major stops the propagation; one tt-mlir's op model does not cover
  (collectives, device and trace ops, generic kernels), or a `ttnn.d2m_subgraph` (its D2M kernels
  read tiles), gets its operand tiled back first (`<name>_stop_propagation_conversion`);
* a row-major value returned where the signature says tiled is tiled before the return
  (`_return_conversion`).

tt-mlir asks the op model which ops keep row-major; ttopt's answer is the data-movement ops whose
tt-metal kernels copy row-major sticks (reshape, permute, slices, concat, repeat, pad), typecast,
and the kernels `ttnn_op_constraints` writes down (upsample).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.location import Location, suffixed_location
from ttopt.ir.operation import Block, Operation
from ttopt.ir.types import TensorType
from ttopt.lowering import ttnn_op_constraints
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass
from ttopt.passes.registry import register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

FORWARD_ATTR, FORWARD_VALUE = "tt.function_type", "forward_device"
KV_CACHE = "ttcore.kv_cache"
# Ops tt-mlir's op model does not cover (TTNNOps.td's OpModelExempt trait).
OP_MODEL_EXEMPT = frozenset(f"ttnn.{n}" for n in (
    "get_device", "to_device", "from_device", "sparse_matmul", "all_to_all_dispatch", "all_to_all_dispatch_metadata",
    "all_to_all_combine", "selective_reduce_combine", "moe_expert_token_remap", "moe_compute", "distributed_rms_norm",
    "distributed_layer_norm", "alloc", "all_gather", "reduce_scatter", "all_reduce", "all_reduce_async", "point_to_point",
    "write_tensor", "copy", "begin_trace_capture", "end_trace_capture", "execute_trace", "capture_or_execute_trace",
    "generic", "dump_tensor", "load_tensor", "distribute_tensor", "aggregate_tensor", "create_global_semaphore",
    "reset_global_semaphore", "allocate_moe_compute_semaphore", "tt_lang_op",
))  # fmt: skip
# Subgraphs compiled into D2M kernels, which read device tiles: like an exempt op, an operand is
# tiled back first (D2M cannot compile a row-major tensor).
TILES_ONLY = OP_MODEL_EXEMPT | {"ttnn.d2m_subgraph"}
# Kernels that read and write row-major sticks (their output keeps the input's page layout).
ROW_MAJOR_OPS = frozenset(f"ttnn.{n}" for n in (
    "reshape", "permute", "slice_static", "concat", "repeat", "pad", "typecast", "upsample",
))  # fmt: skip
CONVERTS_DTYPE = frozenset({"ttnn.typecast"})


def _layout(t: Any) -> TTNNLayoutAttr | None:
    t = t.resolve() if hasattr(t, "resolve") else t
    if not isinstance(t, TensorType) or t.encoding is None:
        return None
    lay = getattr(t.encoding.resolve(), "typed", None)
    return lay if isinstance(lay, TTNNLayoutAttr) else None


def _shape(t: TensorType) -> tuple[int, ...]:
    return tuple(int(d) for d in t.shape or () if d is not None)


def _same_but_page_layout(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> bool:
    return (a.dtype, a.buffer_type, a.memory_layout, a.grid) == (b.dtype, b.buffer_type, b.memory_layout, b.grid)


def _block_of(op: Operation) -> Block:
    block = op.parent
    assert block is not None  # every op the propagation reaches sits in the function's block
    return block


def row_major_output(op: Operation) -> tuple[DataType, TTNNLayoutAttr] | None:
    """The data type and row-major layout `op` writes from its current (row-major) operands, None
    when it does not take row-major there or does not write row-major."""
    if op.name not in ROW_MAJOR_OPS or len(op.results) != 1:
        return None
    ins = [lay for v in op.operands if (lay := _layout(v.type)) is not None]
    declared = op.results[0].type.resolve()
    out = _layout(declared)
    if out is None or not ins or not isinstance(declared, TensorType):
        return None
    if len({lay.is_tiled for lay in ins}) != 1 or ttnn_op_constraints.check(op.name, ins) is not None:
        return None  # mixed page layouts, or a kernel rule the operands break
    rule = ttnn_op_constraints.output_of(op.name, ins, out)
    dtype, tiled = rule if rule is not None else (out.dtype if op.name in CONVERTS_DTYPE else ins[0].dtype, ins[0].is_tiled)
    if tiled:
        return None
    try:
        return dtype, out.relayout(_shape(declared), dtype=dtype, tiled=False)
    except (ValueError, TypeError):
        return None


@dataclass
class _Propagation:
    """One function's propagation."""

    func: Operation
    aliaser: LayoutAliaser
    changed: int = 0

    def input_arguments(self) -> list[Any]:
        """Integer arguments typed input (not KV caches) in row-major layout."""
        from ttopt.sharding.func_attrs import arg_attrs, argument_kinds

        out = []
        entry = self.func.regions[0].entry
        for arg, attrs, kind in zip(entry.args, arg_attrs(self.func), argument_kinds(self.func)):
            t = arg.type.resolve()
            lay = _layout(t)
            if KV_CACHE in attrs or kind != "input" or lay is None or lay.is_tiled:
                continue
            if isinstance(t, TensorType) and getattr(t.element_type, "is_integer", False):
                out.append(arg)
        return out

    def drop_tilizing_specs(self, args: list[Any]) -> list[Any]:
        """Bypass each `ttnn.to_tensor_spec` that only tiles an argument; the arguments it read."""
        rm_args = []
        for arg in args:
            lay = _layout(arg.type)
            for user in list(arg.users):
                target = _layout(user.results[0].type) if user.name == "ttnn.to_tensor_spec" and user.results else None
                if lay is None or target is None or not target.is_tiled or not _same_but_page_layout(lay, target):
                    continue
                user.results[0].replace_all_uses_with(arg)
                user.drop_all_references()
                _block_of(user).remove(user)
                rm_args.append(arg)
                self.changed += 1
        return rm_args

    def spec(self, value: Any, layout: TTNNLayoutAttr, loc: Location | None) -> Operation:
        t = value.type.resolve()
        return Operation("ttnn.to_tensor_spec", [value], [self.aliaser.tensor_type(t, layout)], location=loc)

    def run(self) -> None:
        """Propagate row-major from the function's row-major integer inputs."""
        block = self.func.regions[0].entry
        expected = [r for r in block.ops[-1].operands] if block.ops else []
        expected_types = [v.type for v in expected]
        work = deque(self.drop_tilizing_specs(self.input_arguments()))
        while work:
            current = work.popleft()
            for user in list(current.users):
                indices = [i for i, v in enumerate(user.operands) if v is current]
                if user.name == "func.return":
                    for i in indices:
                        self.tile_for_return(user, i, current, expected_types[i] if i < len(expected_types) else None)
                    continue
                if user.name == "ttnn.to_tensor_spec" or not user.results:
                    continue
                got = row_major_output(user)
                if got is None:
                    if user.name in TILES_ONLY:
                        for i in indices:
                            self.tile_operand(user, i, current)
                    continue
                work.append(self.set_output(user, *got))
        update_function_type(self.func)

    def set_output(self, op: Operation, dtype: DataType, layout: TTNNLayoutAttr) -> Any:
        """`op`'s result in `layout`; a row-major conversion to the program's data type when they differ."""
        r = op.results[0]
        declared = r.type.resolve()
        r.type = self.aliaser.tensor_type(declared, layout)
        self.changed += 1
        want = _layout(declared)
        if want is None or want.dtype is dtype:
            return r
        conv = self.spec(
            r, layout.relayout(_shape(declared), dtype=want.dtype, tiled=False), suffixed_location(op.location, "_dtype_conversion")
        )
        r.replace_all_uses_with(conv.results[0], except_in=conv)
        block = _block_of(op)
        block.insert(block.index(op) + 1, conv)
        return conv.results[0]

    def tile_operand(self, consumer: Operation, index: int, value: Any) -> None:
        """Tile `value` back right before `consumer` for its operand `index` only."""
        lay = _layout(value.type)
        t = value.type.resolve()
        if lay is None or lay.is_tiled or not isinstance(t, TensorType):
            return
        fix = self.spec(value, lay.relayout(_shape(t), tiled=True), suffixed_location(consumer.location, "_stop_propagation_conversion"))
        block = _block_of(consumer)
        block.insert(block.index(consumer), fix)
        consumer.set_operand(index, fix.results[0])
        self.changed += 1

    def tile_for_return(self, ret: Operation, index: int, value: Any, expected: Any) -> None:
        """A row-major value returned where the signature says tiled: tiled before the return."""
        want = _layout(expected) if expected is not None else None
        if want is None or not want.is_tiled:
            return
        fix = self.spec(value, want, suffixed_location(ret.location, "_return_conversion"))
        block = _block_of(ret)
        block.insert(block.index(ret), fix)
        ret.set_operand(index, fix.results[0])
        self.changed += 1


def propagate(module: Module) -> int:
    """Row-major propagation in every forward function; how many types and ops it changed."""
    aliaser = LayoutAliaser(module)
    changed = 0
    for func in module.functions():
        if getattr(func.attributes.get(FORWARD_ATTR), "value", None) != FORWARD_VALUE:
            continue
        if not func.regions or len(func.regions[0].blocks) != 1:
            continue
        p = _Propagation(func, aliaser)
        p.run()
        changed += p.changed
    return changed


@register_pass
@dataclass
class TTNNRowMajorLayoutPropagation(Pass):
    """Keep row-major integer inputs row-major through the ops that take and write row-major."""

    name = "ttnn-rm-layout-propagation"
    summary = "Row-major integer inputs stay row-major through the ops whose kernels keep it (tt-mlir's TTNNRowMajorLayoutPropagation)"

    def run(self, module: Module, ctx: PassContext) -> None:
        ctx.stats.setdefault(self.name, {})["changed"] = propagate(module)
