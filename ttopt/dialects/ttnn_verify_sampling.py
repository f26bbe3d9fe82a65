"""Verifier of `ttnn.sampling` (top-k / top-p token sampling; HEAD's SamplingOp::verify), with
HEAD's messages."""

from __future__ import annotations

from typing import Any

from ttopt.dialects.verify_common import shape


def verify_sampling(op: Any) -> None:
    """Values and indices [batch, candidates] (or [1, 1, batch, candidates]), per-row k, p and
    temperature, one sampled token per row; tt-metal's kernel takes 32 rows at most."""
    if len(op.operands) < 5:
        return
    values, indices, k, p, temp = (shape(v) for v in op.operands[:5])
    out = shape(op.results[0]) if op.results else None
    if values is None or indices is None or k is None or p is None or temp is None or out is None:
        return
    rank = len(values)
    if rank not in (2, 4):
        raise ValueError("input_values must be 2D [batch, candidates] or 4D [1, 1, batch, candidates]")
    if len(indices) != rank:
        raise ValueError("input_indices rank must match input_values rank")
    if values != indices:
        raise ValueError("input_values and input_indices must have the same shape")
    if rank == 2:
        batch, want_rank = values[0], 1
    else:
        if values[0] != 1 or values[1] != 1:
            raise ValueError("rank-4 input_values leading dims must be [1, 1, batch, candidates]")
        batch, want_rank = values[2], 4
    if batch < 1 or batch > 32:
        raise ValueError(f"batch ({batch}) must be in [1, 32] (kernel limit)")
    if len(out) != want_rank:
        raise ValueError(f"result rank ({len(out)}) must match expected rank ({want_rank}) for input_values rank {rank}")
    for s, name in ((k, "k"), (p, "p"), (temp, "temp")):
        if len(s) != 1:
            raise ValueError(f"{name} must be 1D [batch]")
        if s[0] != batch:
            raise ValueError(f"{name} batch dimension ({s[0]}) must match input_values batch ({batch})")
    if any(d != 1 for d in out[:-1]) or out[-1] != batch:
        raise ValueError(f"result must be {want_rank}D [{'batch' if want_rank == 1 else '1, 1, 1, batch'}]")


VERIFIERS = {"ttnn.sampling": verify_sampling}
