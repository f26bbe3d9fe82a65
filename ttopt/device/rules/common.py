"""Shared pieces of the op-family rules: the per-validation context, the rejection exceptions,
and output-layout resolution (full / partial / no hint, OP-MODEL.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ttopt.device.layout_info import INTERLEAVED, L1, LayoutInfo, is_whole_tensor_interleaved, layout_info, make_layout
from ttopt.device.op_config import OpConfig, PartialLayout
from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

if TYPE_CHECKING:
    from ttopt.device.device import Device
    from ttopt.ir.operation import Operation


class Illegal(Exception):
    """The op cannot run with these layouts/config; `reason` says which rule failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotModelled(Exception):
    """The op model has no rule for this case (status not_implemented)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class RuleResult:
    """What a family rule decides: the real output layout and the op's circular-buffer bytes.

    `extra_tensor_bytes` counts op-internal L1 buffers (e.g. a conv halo); `freed_inputs` lists
    tensor-operand indices whose L1 buffer is released before the op's peak (deallocate_activation).
    """

    output: LayoutInfo
    cb_bytes: int
    extra_tensor_bytes: int = 0
    freed_inputs: tuple[int, ...] = ()
    # Dispatch ops report their inner L1 peak as CBs; set to override the summed peak.
    peak_override: int | None = None


class OpContext:
    """Everything one (uncached) validation reads: op facts, input layouts, the config, the device."""

    __slots__ = (
        "op", "name", "short", "device", "model", "in_shapes", "in_dtypes", "inputs", "out_shape", "out_dtype",
        "out_tiled", "current_output", "config", "hint",
    )  # fmt: skip

    def __init__(
        self,
        op: Operation,
        device: Device,
        model: Any,
        in_shapes: Sequence[tuple[int, ...]],
        in_dtypes: Sequence[DataType | None],
        inputs: Sequence[LayoutInfo],
        out_shape: tuple[int, ...],
        out_dtype: DataType,
        out_tiled: bool | None,
        current_output: TTNNLayoutAttr | None,
        config: OpConfig,
    ) -> None:
        self.op = op
        self.name = op.name
        self.short = op.name.split(".", 1)[-1]
        self.device = device
        self.model = model
        self.in_shapes = tuple(in_shapes)
        self.in_dtypes = tuple(in_dtypes)
        self.inputs = tuple(inputs)
        self.out_shape = out_shape
        self.out_dtype = out_dtype
        self.out_tiled = out_tiled
        self.current_output = current_output
        self.config = config
        hint = config.output
        if isinstance(hint, TTNNLayoutAttr) and hint.ignore_physical_layout:
            hint = PartialLayout.of(hint)
        self.hint: LayoutInfo | PartialLayout | None = layout_info(hint) if isinstance(hint, TTNNLayoutAttr) else hint

    # -- attributes --------------------------------------------------------------------------
    def attr(self, name: str) -> Any:
        """The op's attribute `name` (properties first), resolved, or None."""
        a = self.op.get_attr(name)
        return a.resolve() if a is not None else None

    def int_attr(self, name: str, default: int | None = None) -> int | None:
        """An integer attribute, or `default`."""
        v = getattr(self.attr(name), "value", None)
        return v if isinstance(v, int) and not isinstance(v, bool) else default

    def bool_attr(self, name: str, default: bool = False) -> bool:
        """A boolean attribute (BoolAttr / unit), or `default`."""
        a = self.attr(name)
        if a is None:
            return default
        v = getattr(a, "value", True)
        return bool(v)

    def ints_attr(self, name: str) -> tuple[int, ...] | None:
        """An `array<i32: ...>` or `[1 : i32, ...]` attribute as ints, or None."""
        a = self.attr(name)
        if a is None:
            return None
        vals = getattr(a, "values", None)
        if vals is None:
            items = getattr(a, "items", None)
            if items is None:
                return None
            vals = tuple(getattr(i.resolve(), "value", None) for i in items)
        if any(not isinstance(v, int) for v in vals):
            return None
        return tuple(vals)

    def typed_attr(self, name: str) -> Any:
        """The typed dialect model of attribute `name`, or None (a malformed one is Illegal)."""
        a = self.attr(name)
        if a is None:
            return None
        try:
            return getattr(a, "typed", None)
        except AttrError as e:
            raise Illegal(f"attribute {name}: {e.message}") from None

    # -- layouts -----------------------------------------------------------------------------
    def build(
        self,
        buffer: BufferType,
        memory_layout: TensorMemoryLayout | None,
        grid: tuple[int, int] | None = None,
        tiled: bool | None = None,
        core_ranges: Any = None,
        shape: tuple[int, ...] | None = None,
        dtype: DataType | None = None,
    ) -> LayoutInfo:
        """The canonical layout of the result (or `shape`) in this memory; Illegal when it cannot exist."""
        shape = shape or self.out_shape
        dtype = dtype or self.out_dtype
        if tiled is None:
            tiled = self.default_tiled()
        try:
            lay = make_layout(shape, dtype, tiled, buffer, memory_layout, grid, self.device.worker_grid, core_ranges)
        except AttrError as e:
            raise Illegal(f"no {buffer.value} {memory_layout.value if memory_layout else ''} layout for the result: {e.message}") from None
        return layout_info(lay)

    def default_tiled(self, source: LayoutInfo | None = None) -> bool:
        """Page layout when nothing fixes it: the result's current one, else `source`'s, else tiled."""
        if self.out_tiled is not None:
            return self.out_tiled
        if source is not None:
            return source.tiled
        return True

    def copy_config(self, src: LayoutInfo) -> LayoutInfo:
        """The result in `src`'s memory config (shard spec included when the shapes agree)."""
        if not src.sharded:
            return self.build(src.buffer, src.memory_layout, tiled=self.default_tiled(src))
        same_shape = any(s == self.out_shape and i is src for s, i in zip(self.in_shapes, self.inputs))
        crs = src.layout.core_ranges if same_shape else None
        return self.build(src.buffer, src.memory_layout, src.grid, tiled=self.default_tiled(src), core_ranges=crs)

    def check_full_hint(self, hint: LayoutInfo) -> LayoutInfo:
        """A full output layout, after checking it was built for the result's shape."""
        lay = hint.layout
        if hint.system or lay.buffer_type in (BufferType.L1_SMALL, BufferType.TRACE):
            return hint
        try:
            canon = make_layout(
                self.out_shape, hint.dtype, hint.tiled, hint.buffer, hint.memory_layout,
                hint.grid if hint.sharded else None, self.device.worker_grid, lay.core_ranges,
            )  # fmt: skip
        except AttrError as e:
            raise Illegal(f"output layout {hint.short()} cannot hold the result: {e.message}") from None
        if is_whole_tensor_interleaved(lay) and canon.grid != lay.grid:
            # tt-mlir's L1-interleaved form: a 1x1 grid whose memref is the whole tensor, laid out
            # exactly as the DRAM-interleaved layout of the result is.
            canon = make_layout(
                self.out_shape, hint.dtype, hint.tiled, BufferType.DRAM, INTERLEAVED, None, self.device.worker_grid,
            )  # fmt: skip
        # The map's multipliers are not compared: hand-written IR has non-canonical ones (ref §1.2).
        if canon.shard_shape != lay.shard_shape or canon.grid != lay.grid or lay.map_rank != len(self.out_shape):
            raise Illegal(
                f"output layout {hint.short()} was built for another shape (the result "
                f"{'x'.join(map(str, self.out_shape))} needs shard {canon.shard_shape[0]}x{canon.shard_shape[1]})"
            )
        return hint

    def resolve_output(self, default: Callable[[], LayoutInfo]) -> LayoutInfo:
        """The output layout: the full hint, a partial hint completed by the op, or `default()`."""
        h = self.hint
        if h is None:
            return default()
        if isinstance(h, LayoutInfo):
            return self.check_full_hint(h)
        return self.complete_partial(h)

    def complete_partial(self, h: PartialLayout) -> LayoutInfo:
        """Pick the grid for a partial hint: a sharded input with that memory layout lends its grid,
        else the largest candidate of the result's layout pool."""
        tiled = h.tiled if h.tiled is not None else self.default_tiled(self.inputs[0] if self.inputs else None)
        if h.memory_layout is INTERLEAVED:
            return self.build(h.buffer, INTERLEAVED, tiled=tiled)
        for info, shape in zip(self.inputs, self.in_shapes):
            if info.sharded and info.memory_layout is h.memory_layout and info.buffer is h.buffer:
                try:
                    crs = info.layout.core_ranges if shape == self.out_shape else None
                    return self.build(h.buffer, h.memory_layout, info.grid, tiled=tiled, core_ranges=crs)
                except Illegal:
                    continue
        if h.buffer is L1:
            from ttopt.device.layout_pool import layout_pool

            pool = layout_pool(self.out_shape, self.out_dtype, self.device.worker_grid, row_major_enabled=not tiled)
            cands = pool.sharded if tiled else pool.sharded_row_major
            for lay in cands:
                if lay.memory_layout is h.memory_layout:
                    return layout_info(lay)
        raise Illegal(f"no {h.buffer.value} {h.memory_layout.value} layout fits the result")


def value_layout(v: Any, what: str) -> TTNNLayoutAttr:
    """The `#ttnn.ttnn_layout` on `v`'s tensor type (ValueError naming `what` without one)."""
    enc = v.type.resolve().encoding
    typed = getattr(enc.resolve(), "typed", None) if enc is not None else None
    if not isinstance(typed, TTNNLayoutAttr):
        raise ValueError(f"{what} has no TTNN layout")
    return typed


def describe(info: LayoutInfo) -> str:
    """Short text of a layout for reasons."""
    return info.short()


def shape_text(shape: Sequence[int]) -> str:
    """`64x64`."""
    return "x".join(str(d) for d in shape)


def broadcast_ok(shapes: Sequence[Sequence[int]], out: Sequence[int]) -> bool:
    """Numpy broadcasting of every shape to `out`."""
    for s in shapes:
        if len(s) > len(out):
            return False
        for a, b in zip(reversed(s), reversed(out)):
            if a != b and a != 1:
                return False
    return True
