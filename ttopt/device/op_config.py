"""What the optimizer asks the op model about: an output layout (full, partial or none) plus the
op-specific knobs (OP-MODEL.md §2, reference §4.1 `OpConfig`). Frozen and hashable."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ttopt.device.conv2d_config import Conv2dConfig
from ttopt.device.matmul_config import MatmulProgramConfig
from ttopt.dialects.ttnn_attrs import BufferType, TensorMemoryLayout
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr


@dataclass(frozen=True, slots=True)
class PartialLayout:
    """Only buffer + memory layout fixed (upstream: a layout with `ignorePhysicalLayout = true`)."""

    buffer: BufferType
    memory_layout: TensorMemoryLayout
    tiled: bool | None = None  # None: keep what the op would choose

    @classmethod
    def of(cls, layout: TTNNLayoutAttr) -> PartialLayout:
        """The partial hint a layout with `ignorePhysicalLayout = true` stands for."""
        mem = layout.memory_layout or TensorMemoryLayout.INTERLEAVED
        return cls(layout.buffer_type, mem, layout.is_tiled)

    def text(self) -> str:
        """`l1 height_sharded (any grid)`."""
        page = "" if self.tiled is None else (" tile" if self.tiled else " row_major")
        return f"{self.buffer.value} {self.memory_layout.value}{page} (grid chosen by the op)"


OutputHint = Union[TTNNLayoutAttr, PartialLayout, None]


@dataclass(frozen=True, slots=True)
class OpConfig:
    """Output hint + op-specific attributes; `OpConfig()` means "let the op decide"."""

    output: OutputHint = None
    conv2d: Conv2dConfig | None = None
    matmul: MatmulProgramConfig | None = None

    @property
    def layout(self) -> TTNNLayoutAttr:
        """The full output layout of a resolved config (policies hold resolved ones); a partial or
        missing hint here is a programming error."""
        o = self.output
        if not isinstance(o, TTNNLayoutAttr):
            raise ValueError(f"config has no full output layout ({o!r})")
        return o

    @property
    def is_partial(self) -> bool:
        """True when only buffer + memory layout are fixed."""
        o = self.output
        return isinstance(o, PartialLayout) or (isinstance(o, TTNNLayoutAttr) and o.ignore_physical_layout)


NO_HINT = OpConfig()
