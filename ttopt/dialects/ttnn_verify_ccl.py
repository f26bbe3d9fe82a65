"""Verifiers of the TTNN collectives and MoE dispatch / combine ops (HEAD's AllGatherOp,
ReduceScatterOp, AllReduceOp, AllReduceAsyncOp, PointToPointOp, AllToAllDispatchOp,
AllToAllDispatchMetadataOp, AllToAllCombineOp, MoeExpertTokenRemapOp, MoeComputeOp and
PrepareMoEComputeW0W1WeightsOp::verify), with HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import attr, element, int_attr, ints_attr, layout, operands_named, shape
from ttopt.ir.attributes import DialectAttr


def _reduce_type(op: Any) -> str | None:
    """The body of `#ttcore.reduce_type<sum>` (or `#ttcore<reduce_type sum>`)."""
    a = attr(op, "reduce_type")
    if not isinstance(a, DialectAttr):
        return None
    body = str(a.body or "").strip()
    return body.split()[-1] if body else None


def verify_all_gather(op: Any) -> None:
    """An in-range gather dim; layout-preserving (tile stays tile, row-major row-major)."""
    x = shape(op.operands[0])
    dim = int_attr(op, "all_gather_dim")
    if x is not None and dim is not None and (dim >= len(x) or dim < -len(x)):
        raise ValueError(
            "Invalid gather dimension for all reduce op. Gather dimension must be >= to input tensor rank or < -input "
            f"tensor rank, got gather_dim = {dim}"
        )
    a, b = layout(op.operands[0]), (layout(op.results[0]) if op.results else None)
    if a is not None and b is not None and a.is_tiled != b.is_tiled:
        name = {True: "tile", False: "row_major"}
        raise ValueError(
            f"Input and output layouts must agree, but got input layout {name[a.is_tiled]} and output layout "
            f"{name[b.is_tiled]}. all_gather is layout-preserving and cannot convert between tiled and row-major layouts."
        )


def verify_reduce_scatter(op: Any) -> None:
    """An in-range scatter dim and a sum."""
    x = shape(op.operands[0])
    dim = int_attr(op, "scatter_dim")
    if x is not None and dim is not None and (dim >= len(x) or dim < -len(x)):
        raise ValueError(
            "Invalid scatter dimension for reduce scatter op. Scatter dimension must be >= to input tensor rank or < "
            f"-input tensor rank, got scatter_dim = {dim}"
        )
    kind = _reduce_type(op)
    if kind is not None and kind != "sum":
        raise ValueError("Invalid reduction type for reduce scatter op.")


def verify_all_reduce(op: Any) -> None:
    """TTNN's all-reduce sums."""
    kind = _reduce_type(op)
    if kind is not None and kind != "sum":
        raise ValueError("Invalid reduction type for all reduce op.")


def verify_all_reduce_async(op: Any) -> None:
    """TTNN's async all-reduce sums."""
    kind = _reduce_type(op)
    if kind is not None and kind != "sum":
        raise ValueError("Invalid reduction type for all reduce async op.")


def verify_point_to_point(op: Any) -> None:
    """An output tensor given to write into has the input's shape and element type, and the
    sender is not the receiver."""
    if len(op.operands) < 2:
        return
    x, out = op.operands[0], op.operands[1]
    if shape(x) != shape(out) or element(x) != element(out):
        raise ValueError("Optional output tensor must match input tensor in shape and element type.")
    if ints_attr(op, "receiver_coord") == ints_attr(op, "sender_coord"):
        raise ValueError("Can't send/receive to the same device")


def _ranks(values: list[tuple[Any, int, str]]) -> None:
    for v, rank, message in values:
        s = shape(v) if v is not None else None
        if s is not None and len(s) != rank:
            raise ValueError(message)


def _devices_and_axis(op: Any) -> None:
    n = int_attr(op, "num_devices")
    if n is not None and n <= 0:
        raise ValueError("num_devices must be positive")
    axis = int_attr(op, "cluster_axis")
    if axis is not None and axis not in (0, 1):
        raise ValueError("cluster_axis must be 0 or 1")


def verify_all_to_all_dispatch(op: Any) -> None:
    """Tokens, top-k indices and the expert mapping 4-D; dispatched tokens and metadata 4-D."""
    ins, outs = list(op.operands) + [None] * 3, list(op.results) + [None] * 2
    _ranks([
        (ins[0], 4, "input_tensor must be a 4D tensor [B, S, 1, H]"),
        (ins[1], 4, "expert_indices must be a 4D tensor [B, S, 1, K]"),
        (ins[2], 4, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
        (outs[0], 4, "dispatched output must be a 4D tensor [1, B*D, S, H]"),
        (outs[1], 4, "metadata output must be a 4D tensor [1, B*D, S, K]"),
    ])  # fmt: skip
    _devices_and_axis(op)


def verify_all_to_all_dispatch_metadata(op: Any) -> None:
    """[1, 1, M, *] tokens, indices and scores, a 2-D [D, E] mapping; 3-D outputs; the three
    output buffers all bound or none."""
    names = ("input_tensor", "expert_indices", "expert_scores", "expert_mapping", "dispatched_buffer", "indices_buffer",
             "scores_buffer", "cross_device_semaphore")  # fmt: skip
    named = operands_named(op, names)
    outs = list(op.results) + [None] * 3
    _ranks([
        (named.get("input_tensor"), 4, "input_tensor must be a 4D tensor [1, 1, M, H]"),
        (named.get("expert_indices"), 4, "expert_indices must be a 4D tensor [1, 1, M, K]"),
        (named.get("expert_scores"), 4, "expert_scores must be a 4D tensor [1, 1, M, K]"),
        (named.get("expert_mapping"), 2, "expert_mapping must be a 2D tensor [D, E]"),
        (outs[0], 3, "dispatched output must be a 3D tensor [1, tokens_global, H]"),
        (outs[1], 3, "indices output must be a 3D tensor [1, tokens_global, K]"),
        (outs[2], 3, "scores output must be a 3D tensor [1, tokens_global, K]"),
    ])  # fmt: skip
    _devices_and_axis(op)
    bound = sum(1 for n in ("dispatched_buffer", "indices_buffer", "scores_buffer") if n in named)
    if bound not in (0, 3):
        raise ValueError("dispatched_buffer, indices_buffer and scores_buffer must be all bound or all unbound")


def verify_all_to_all_combine(op: Any) -> None:
    """4-D expert outputs, metadata, mapping and result; positive top-k; shard dim 1 or 2."""
    ins = list(op.operands) + [None] * 3
    _ranks([
        (ins[0], 4, "input_tensor must be a 4D tensor [E_local, B*D, S, H]"),
        (ins[1], 4, "expert_metadata must be a 4D tensor [1, B*D, S, K]"),
        (ins[2], 4, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
        (op.results[0] if op.results else None, 4, "result must be a 4D tensor [K, B, S, H]"),
    ])  # fmt: skip
    _devices_and_axis(op)
    k = int_attr(op, "num_experts_per_tok")
    if k is not None and k <= 0:
        raise ValueError("num_experts_per_tok must be positive")
    shard = int_attr(op, "output_shard_dim", 1)
    if shard not in (1, 2):
        raise ValueError(f"output_shard_dim must be 1 or 2, got {shard}")


def verify_moe_expert_token_remap(op: Any) -> None:
    """4-D top-k, mapping and metadata in, 4-D mapping and reduced out, a positive reduction size."""
    ins, outs = list(op.operands) + [None] * 3, list(op.results) + [None] * 2
    _ranks([
        (ins[0], 4, "topk_tensor must be a 4D tensor [D, B, S, E]"),
        (ins[1], 4, "expert_mapping must be a 4D tensor [1, 1, E, D]"),
        (ins[2], 4, "expert_metadata must be a 4D tensor [D, B, S, K]"),
        (outs[0], 4, "mapping output must be a 4D tensor"),
        (outs[1], 4, "reduced output must be a 4D tensor"),
    ])  # fmt: skip
    size = int_attr(op, "reduction_size")
    if size is not None and size <= 0:
        raise ValueError("reduction_size must be positive")


def _multiple_of_32(op: Any, name: str) -> None:
    v = int_attr(op, name)
    if v is not None and (v == 0 or v % 32):
        raise ValueError(f"{name} must be a positive multiple of 32")


def verify_moe_compute(op: Any) -> None:
    """Tile-aligned intermediate and hidden sizes, a positive output shard height."""
    _multiple_of_32(op, "intermediate_size")
    if int_attr(op, "output_height_shard_dim") == 0:
        raise ValueError("output_height_shard_dim must be positive")
    x = shape(op.operands[0]) if op.operands else None
    if x is None:
        return
    if len(x) < 2:
        raise ValueError("tilize_input_tensor must have rank >= 2")
    if x[-1] <= 0 or x[-1] % 32:
        raise ValueError("tilize_input_tensor last dim (hidden_size) must be a positive multiple of 32")


def verify_prepare_moe_compute_w0_w1_weights(op: Any) -> None:
    """Tile-aligned sizes; the two biases come together."""
    _multiple_of_32(op, "hidden_size")
    _multiple_of_32(op, "intermediate_size")
    named = operands_named(op, ("w0", "w1", "bias_0", "bias_1", "device"))
    if ("bias_0" in named) != ("bias_1" in named):
        raise ValueError("bias_0 and bias_1 must be both present or both absent")


VERIFIERS = {
    "ttnn.all_gather": verify_all_gather,
    "ttnn.reduce_scatter": verify_reduce_scatter,
    "ttnn.all_reduce": verify_all_reduce,
    "ttnn.all_reduce_async": verify_all_reduce_async,
    "ttnn.point_to_point": verify_point_to_point,
    "ttnn.all_to_all_dispatch": verify_all_to_all_dispatch,
    "ttnn.all_to_all_dispatch_metadata": verify_all_to_all_dispatch_metadata,
    "ttnn.all_to_all_combine": verify_all_to_all_combine,
    "ttnn.moe_expert_token_remap": verify_moe_expert_token_remap,
    "ttnn.moe_compute": verify_moe_compute,
    "ttnn.prepare_moe_compute_w0_w1_weights": verify_prepare_moe_compute_w0_w1_weights,
}
