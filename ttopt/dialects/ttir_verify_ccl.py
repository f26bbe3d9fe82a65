"""Collective-op verifiers, as HEAD's verify() of all_gather, all_reduce, reduce_scatter,
collective_permute, all_to_all, collective_broadcast and the MoE all_to_all_dispatch /
_dispatch_metadata / _combine: dimensions in range, reduce kinds TTIR supports, replica groups and
source-target pairs well formed, results shaped as the collective defines. The messages are HEAD's.
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import int_attr, join, result_shape, shape
from ttopt.ir.properties import int_values


def _reduce_kind(op: Any) -> str:
    a = op.get_attr("reduce_type")
    text = a.resolve().text if a is not None else ""
    return text.rsplit("<", 1)[-1].rstrip(">").strip() if "<" in text else text


def _matrix(op: Any, name: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A dense integer attribute's shape and flattened values."""
    a = op.get_attr(name)
    if a is None:
        return None
    values = int_values(a)
    shape = getattr(a.resolve().type.resolve(), "shape", None) if hasattr(a.resolve(), "type") else None
    if values is None or shape is None:
        return None
    return tuple(shape), values


def _replica_groups(op: Any) -> tuple[int, ...] | None:
    """HEAD's verifyReplicaGroups; the groups' shape when they are well formed."""
    m = _matrix(op, "replica_groups")
    if m is None:
        return None
    shape, ids = m
    if len(shape) != 2:
        raise ValueError("replica_groups must be a 2D array")
    top, seen = len(ids) - 1, set()
    for i in ids:
        if i < 0:
            raise ValueError("replica_groups values must be positive")
        if i > top:
            raise ValueError(f"replica_groups values must be in the range [0, {top}], got {i}")
        if i in seen:
            raise ValueError("replica_groups must not contain duplicate values")
        seen.add(i)
    return shape


def all_gather(op: Any, x: Any) -> None:
    """HEAD's AllGatherOp::verify."""
    a, dim = shape(x), int_attr(op, "all_gather_dim")
    if a is not None and dim is not None and not -len(a) <= dim < len(a):
        raise ValueError("Invalid dimension for all gather op. Gather dimension must be >= to input tensor rank or < -input tensor rank, "
                         f"got gather_dim = {dim}")  # fmt: skip


def all_reduce(op: Any, x: Any) -> None:
    """HEAD's AllReduceOp::verify, with max and min allowed besides sum: HEAD's StableHLO conversion
    emits them for pmax / pmin (and its verifier then rejects them); ttopt lowers them to TTNN."""
    if op.get_attr("reduce_type") is not None and _reduce_kind(op) not in ("sum", "max", "min"):
        raise ValueError("Invalid reduction type for all reduce op.")


def reduce_scatter(op: Any, x: Any) -> None:
    """HEAD's ReduceScatterOp::verify: sum, max or min, over a dimension of the input."""
    if op.get_attr("reduce_type") is not None and _reduce_kind(op) not in ("sum", "max", "min"):
        raise ValueError("Invalid reduction type for reduce scatter op.")
    a, dim = shape(x), int_attr(op, "scatter_dim")
    if a is not None and dim is not None and not -len(a) <= dim < len(a):
        raise ValueError("Invalid dimension for reduce scatter op. Scatter dimension must be >= to input tensor rank or < -input tensor rank, "
                         f"got scatter_dim = {dim}")  # fmt: skip


def collective_permute(op: Any, x: Any) -> None:
    """HEAD's CollectivePermuteOp::verify: (source, target) rows, each source and target once."""
    m = _matrix(op, "source_target_pairs")
    if m is None:
        return
    shape, pairs = m
    if len(shape) != 2:
        raise ValueError(f"The rank of source target pairs must be 2, got rank = {len(shape)}")
    # HEAD compares each entry with those 2, 4, ... places on: sources with sources, targets with targets.
    if any(pairs[i] == pairs[j] for i in range(len(pairs)) for j in range(i + 2, len(pairs), 2)):
        raise ValueError("There are duplicate 'src' or 'dest' devices in source target pairs")


def all_to_all(op: Any, x: Any) -> None:
    """HEAD's AllToAllOp::verify: split and concat dims in range, the split even, the result the
    input split along one and concatenated along the other, one replica group column per split."""
    a, out = shape(x), result_shape(op)
    split_dim, count, concat_dim = (int_attr(op, n) for n in ("split_dim", "split_count", "concat_dim"))
    if a is None or out is None or split_dim is None or count is None or concat_dim is None:
        return
    if not 0 <= split_dim < len(a):
        raise ValueError(f"splitDim must be in the range [0, {len(a) - 1}], got {split_dim}")
    if count <= 0:
        raise ValueError("splitCount must be a positive integer")
    if a[split_dim] % count:
        raise ValueError("splitDim size must be divisible by splitCount")
    if not 0 <= concat_dim < len(a):
        raise ValueError(f"concatDim must be in the range [0, {len(a) - 1}], got {concat_dim}")
    want = list(a)
    want[split_dim] //= count
    want[concat_dim] *= count
    if list(out) != want:
        raise ValueError(f"Output shape mismatch: expected = <{join(want, ', ')}> output = <{join(out, ', ')}>")
    if getattr(x.type.resolve(), "element_type", None) != getattr(op.results[0].type.resolve(), "element_type", None):
        raise ValueError("Input and output element types must match")
    groups = _replica_groups(op)
    if groups is not None and groups[1] != count:
        raise ValueError("replicaGroup count must match splitCount")


def collective_broadcast(op: Any, x: Any) -> None:
    """HEAD's CollectiveBroadcastOp::verify: the result typed as the input, groups well formed."""
    if op.results and x.type.resolve() != op.results[0].type.resolve():
        raise ValueError("input and output must have the same type")
    _replica_groups(op)


def _ranks(checks: list[tuple[Any, int, str]]) -> None:
    for v, rank, message in checks:
        s = shape(v) if v is not None else None
        if s is not None and len(s) != rank:
            raise ValueError(message)


def _devices_and_axis(op: Any) -> None:
    if (int_attr(op, "num_devices", 1) or 0) <= 0:
        raise ValueError("num_devices must be positive")
    if not 0 <= (int_attr(op, "cluster_axis", 0) or 0) <= 1:
        raise ValueError("cluster_axis must be 0 or 1")


def all_to_all_dispatch(op: Any, operands: list[Any]) -> None:
    """HEAD's AllToAllDispatchOp::verify: 4-D tensors, devices, cluster axis."""
    x, idx, mapping = (operands + [None] * 3)[:3]
    res = list(op.results) + [None] * 2
    _ranks([(x, 4, "input_tensor must be a 4D tensor [B, S, 1, H]"), (idx, 4, "expert_indices must be a 4D tensor [B, S, 1, K]"),
            (mapping, 4, "expert_mapping must be a 4D tensor [1, 1, E, D]"), (res[0], 4, "dispatched output must be a 4D tensor [1, B*D, S, H]"),
            (res[1], 4, "metadata output must be a 4D tensor [1, B*D, S, K]")])  # fmt: skip
    _devices_and_axis(op)


def all_to_all_dispatch_metadata(op: Any, operands: list[Any]) -> None:
    """HEAD's AllToAllDispatchMetadataOp::verify: 4-D inputs, 3-D outputs, devices, cluster axis."""
    x, idx, scores, mapping = (operands + [None] * 4)[:4]
    res = list(op.results) + [None] * 3
    _ranks([(x, 4, "input_tensor must be a 4D tensor [1, 1, M, H]"), (idx, 4, "expert_indices must be a 4D tensor [1, 1, M, K]"),
            (scores, 4, "expert_scores must be a 4D tensor [1, 1, M, K]"), (mapping, 4, "expert_mapping must be a 4D tensor [1, 1, D, E]"),
            (res[0], 3, "dispatched output must be a 3D tensor [1, tokens_global, H]"),
            (res[1], 3, "indices output must be a 3D tensor [1, tokens_global, K]"),
            (res[2], 3, "scores output must be a 3D tensor [1, tokens_global, K]")])  # fmt: skip
    _devices_and_axis(op)


def all_to_all_combine(op: Any, operands: list[Any]) -> None:
    """HEAD's AllToAllCombineOp::verify: 4-D tensors, devices, cluster axis, experts per token."""
    x, meta, mapping = (operands + [None] * 3)[:3]
    _ranks([(x, 4, "input_tensor must be a 4D tensor [E_local, B*D, S, H]"), (meta, 4, "expert_metadata must be a 4D tensor [1, B*D, S, K]"),
            (mapping, 4, "expert_mapping must be a 4D tensor [1, 1, E, D]"), (op.results[0] if op.results else None, 4, "result must be a 4D tensor [K, B, S, H]")])  # fmt: skip
    _devices_and_axis(op)
    if (int_attr(op, "num_experts_per_tok", 1) or 0) <= 0:
        raise ValueError("num_experts_per_tok must be positive")
