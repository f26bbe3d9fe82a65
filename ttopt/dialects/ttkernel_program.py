"""`ttnn.generic` and the kernel program it runs (TTNNOps.td GenericOp, TTNNOpsAttrs.td ProgramAttr).

`"ttnn.generic"(%ins..., %outs..., %extra...) <{operandSegmentSizes = array<i32: n, m>, program =
#ttnn.program<kernels = [...], cbs = [...], semaphores = [...]>}>`: no results, the outputs are
written into their operand tensors. The verifier checks what tt-mlir's GenericOp and ProgramAttr
verifiers check and what the flatbuffer translation relies on: every kernel names a function of
the module (a `ttkernel.thread` kernel), circular-buffer ports and tensor indices are in range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ttopt.ir.attributes import OP_ATTRIBUTE_VERIFIERS
from ttopt.ir.opdef import OpDef, register

KERNEL_KINDS = ("compute_kernel", "data_movement_kernel", "read_kernel", "write_kernel")
_KERNEL = re.compile(r"#ttnn\.(" + "|".join(KERNEL_KINDS) + r")<\s*symbol_ref\s*=\s*@([\w$.]+)")
_CB_ARG = re.compile(r"#ttnn\.kernel_arg_cb_buffer_index<\s*(\d+)\s*>")
_TENSOR_ARG = re.compile(r"#ttnn\.kernel_arg_(?:address_of_tensor|tensor_accessor_args)<\s*(\d+)\s*>")
_CB_TENSOR = re.compile(r"#ttnn\.kernel_cb_global_buffer_address_of_tensor<\s*(\d+)\s*>")
_CB_FORMAT = re.compile(r"<\s*buffer_index\s*=\s*(\d+)\s*,\s*dtype\s*=\s*\w+\s*,\s*page_size\s*=\s*(\d+)\s*>")


@dataclass(frozen=True)
class ProgramSummary:
    """What a `#ttnn.program` names: kernels (kind, symbol), CB ports, tensor indices read."""

    kernels: tuple[tuple[str, str], ...]
    cb_ports: tuple[int, ...]
    cb_bytes: int  # total_size of every circular buffer not aliased to a tensor (per core)
    cb_args: tuple[int, ...]
    tensor_args: tuple[int, ...]


def summarize(body: str) -> ProgramSummary:
    """Read a `#ttnn.program<...>` body."""
    totals = [int(x) for x in re.findall(r"total_size\s*=\s*(\d+)", body)]
    cbs_text = re.split(r"cbs\s*=\s*\[", body, maxsplit=1)[1] if re.search(r"cbs\s*=\s*\[", body) else ""
    aliased = [bool(_CB_TENSOR.search(part)) for part in re.split(r"(?=total_size\s*=)", cbs_text) if part.startswith("total_size")]
    own = sum(t for t, a in zip(totals, aliased) if not a)
    return ProgramSummary(
        kernels=tuple(_KERNEL.findall(body)),
        cb_ports=tuple(int(m.group(1)) for m in _CB_FORMAT.finditer(body)),
        cb_bytes=own,
        cb_args=tuple(int(x) for x in _CB_ARG.findall(body)),
        tensor_args=tuple(int(x) for x in (*_TENSOR_ARG.findall(body), *_CB_TENSOR.findall(body))),
    )


def program_body(op: Any) -> str | None:
    """The body text of a generic's `#ttnn.program<...>`, or None when it has another kind."""
    a = op.get_attr("program")
    if a is None:
        return None
    text = a.canonical()  # aliases (`#program`, `#in_cb`, ...) expanded
    if not text.startswith("#ttnn.program<"):
        return None
    return text[len("#ttnn.program<") : -1]


def _module_func(op: Any, name: str) -> Any:
    """The function `@name` of the innermost module holding `op` (kernels live at its top level; once
    the program is wrapped in `ttcore.device_module`, that is the inner `builtin.module`, not the root)."""
    top = op.parent_op
    while top is not None and top.name != "builtin.module" and top.parent_op is not None:
        top = top.parent_op
    if top is None:
        return None
    for region in top.regions:
        for block in region.blocks:
            for o in block.ops:
                if o.name == "func.func" and getattr(o.properties.get("sym_name"), "value", None) == name:
                    return o
    return None


def verify_generic(op: Any) -> None:
    """Operand segments, the program's kind, kernels that exist, ports and tensor indices in range."""
    seg = op.properties.get("operandSegmentSizes")
    sizes = getattr(seg, "values", None)
    if sizes is None or len(sizes) != 2 or sum(sizes) != len(op.operands):
        raise ValueError("needs operandSegmentSizes = array<i32: tensors, extra args> covering its operands")
    a = op.get_attr("program")
    if a is None:
        raise ValueError("requires attribute 'program'")
    text = a.canonical()
    if text.startswith(("#ttnn.mesh_program_descriptor<", "#ttnn.mesh_program<")):
        return
    body = program_body(op)
    if body is None:
        raise ValueError(f"attribute 'program' must be #ttnn.program or #ttnn.mesh_program_descriptor, got {text[:40]}")
    s = summarize(body)
    if not s.kernels:
        raise ValueError("program has no kernel")
    for kind, sym in s.kernels:
        f = _module_func(op, sym)
        if f is None:
            raise ValueError(f"{kind} @{sym} is not a function of the module")
        if f.get_attr("ttkernel.thread") is None:
            raise ValueError(f"{kind} @{sym} is not a kernel (no ttkernel.thread)")
    if list(s.cb_ports) != list(range(len(s.cb_ports))):
        raise ValueError(f"circular buffer ports must be 0..{len(s.cb_ports) - 1} in order, got {list(s.cb_ports)}")
    for p in s.cb_args:
        if p >= len(s.cb_ports):
            raise ValueError(f"a kernel reads circular buffer {p}; the program has {len(s.cb_ports)}")
    for t in s.tensor_args:
        if t >= sizes[0]:
            raise ValueError(f"a kernel or buffer names tensor {t}; the op has {sizes[0]}")


THREADS = ("noc", "compute", "ethernet")  # TTKernelOpsEnums.td ThreadType
ARG_TYPES = ("cb_port", "buffer_address", "local_semaphore", "named_argument", "global_semaphore", "scalar", "tensor_accessor_args")
_ARG = re.compile(r"arg_type\s*=\s*(\w+)")


def verify_kernel_attributes(op: Any) -> None:
    """A kernel function's `ttkernel.thread` and `ttkernel.arg_spec` (TTKernel's attribute forms)."""
    thread = op.attributes.get("ttkernel.thread")
    if thread is not None:
        text = thread.canonical()
        m = re.fullmatch(r"#ttkernel\.thread<(\w+)>", text)
        if m is None or m.group(1) not in THREADS:
            raise ValueError(f"ttkernel.thread must be #ttkernel.thread<{'|'.join(THREADS)}>, got {text}")
    spec = op.attributes.get("ttkernel.arg_spec")
    if spec is not None:
        text = spec.canonical()
        if not text.startswith("#ttkernel.arg_spec<"):
            raise ValueError(f"ttkernel.arg_spec must be #ttkernel.arg_spec<...>, got {text[:40]}")
        for m in _ARG.finditer(text):
            if m.group(1) not in ARG_TYPES:
                raise ValueError(f"ttkernel.arg_spec: unknown arg_type {m.group(1)} (one of {', '.join(ARG_TYPES)})")


register(OpDef("ttnn.generic", results=0, summary="run a program of custom kernels", verify=verify_generic))
OP_ATTRIBUTE_VERIFIERS.append(verify_kernel_attributes)
