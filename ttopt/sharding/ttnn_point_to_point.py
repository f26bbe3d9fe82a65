"""TTIR `collective_permute`, `collective_broadcast` and `all_to_all` -> `ttnn.point_to_point`
exchanges, as tt-mlir HEAD's TTIRToTTNN converts them (HEAD has no TTNN op of those names):

* `collective_permute`: a `ttnn.assign` copy of the input is the result buffer; each pair
  (source, target) with source != target is a `point_to_point(input, buffer)` from the source's
  mesh coordinate to the target's. Devices no pair targets receive zeros (a `clamp_scalar` of the
  input to [0, 0]) from device 0 (device 1 for device 0). No pairs at all: the zeros are the result.
* `collective_broadcast`: a `ttnn.assign` copy of the input is the result buffer; in each replica
  group the first device sends the input to every other member (`point_to_point(input, buffer)`).
  No groups, or groups of one device, broadcast nothing: the result is the input (HEAD's folder).
  HEAD's TTIR verifier's checks on the groups (2-D, ids in [0, number of ids - 1], no repeats) are
  errors at the op.
* `all_to_all`: the input is sliced into `split_count` parts along `split_dim`; part i is copied
  (`assign`) and, for each group of the replica groups, sender i sends part j of every other member
  j into it; the parts are concatenated along `concat_dim`.

Coordinates are row-major on the program's mesh. HEAD's PointToPointOpRewritePattern then splits a
transfer whose sender and receiver differ in both row and column into two, through
(sender row, receiver column).
"""

from __future__ import annotations

from typing import Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, DenseArrayAttr, FloatAttr, IntegerAttr
from ttopt.ir.types import ScalarType, TensorType
from ttopt.sharding.ttnn_collectives import Emitter, linear_to_coord, module_mesh

F32, I32, SI32 = ScalarType("f32"), ScalarType("i32"), ScalarType("si32")


def _rows(attr: Any, what: str) -> list[list[int]]:
    """A dense `NxM` integer attribute as rows."""
    a = attr.resolve()
    shape = tuple(a.type.shape)
    if len(shape) != 2:
        raise ValueError(f"has {what} of shape {'x'.join(map(str, shape))}; expected a 2-D tensor")
    if 0 in shape:  # `dense<>`: no values to read
        return [[] for _ in range(shape[0])]
    vals = a.values
    if not isinstance(vals, list):
        vals = [[int(vals)] * shape[1] for _ in range(shape[0])]
    flat = [int(v) for row in vals for v in (row if isinstance(row, list) else [row])]
    return [flat[i * shape[1] : (i + 1) * shape[1]] for i in range(shape[0])] if shape[1] else [[] for _ in range(shape[0])]


def _coord(c: tuple[int, int]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(c))


def point_to_point(lw: Emitter, op: Any, x: Any, sender: tuple[int, int], receiver: tuple[int, int], into: Any, t: Any) -> Any:
    """A transfer of `x` from `sender` to `receiver` written into `into` (two when the coordinates
    share neither row nor column)."""

    def p2p(src: Any, s: tuple[int, int], r: tuple[int, int], out: Any) -> Any:
        props = {"receiver_coord": _coord(r), "sender_coord": _coord(s)}
        return lw.emit("ttnn.point_to_point", [src] + ([out] if out is not None else []), t, props, op.location)

    if sender[0] != receiver[0] and sender[1] != receiver[1]:
        middle = (sender[0], receiver[1])
        return p2p(p2p(x, sender, middle, None), middle, receiver, into)
    return p2p(x, sender, receiver, into)


def _zeros(lw: Emitter, op: Any, x: Any, t: Any) -> Any:
    zero = FloatAttr(0.0, F32)
    return lw.emit("ttnn.clamp_scalar", [x], t, {"max": zero, "min": zero}, op.location)


def _collective_permute(lw: Emitter, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 1 or "source_target_pairs" not in op.properties:
        raise ValueError("takes one operand and the attribute source_target_pairs")
    x = ins[0]
    t = lw.layout_type(op.results[0].type, op)
    pairs = _rows(op.properties["source_target_pairs"], "source_target_pairs")
    if not pairs:
        return _zeros(lw, op, x, t)
    mesh = module_mesh(lw.module)
    devices = mesh[0] * mesh[1]
    for p in pairs:
        if len(p) != 2 or not all(0 <= d < devices for d in p):
            raise ValueError(f"has the pair {p}; pairs are two device ids of the {'x'.join(map(str, mesh))} mesh")
    result = lw.emit("ttnn.assign", [x], t, {}, op.location)
    unvisited = set(range(devices))
    for src, dst in pairs:
        unvisited.discard(dst)
        if src != dst:
            result = point_to_point(lw, op, x, linear_to_coord(src, mesh), linear_to_coord(dst, mesh), result, t)
    if unvisited:
        zeros = _zeros(lw, op, x, t)
        for idx in sorted(unvisited):
            result = point_to_point(lw, op, zeros, linear_to_coord(0 if idx else 1, mesh), linear_to_coord(idx, mesh), result, t)
    return result


def _collective_broadcast(lw: Emitter, op: Any) -> Any:
    ins = inputs(op)
    if len(ins) != 1 or "replica_groups" not in op.properties:
        raise ValueError("takes one operand and the attribute replica_groups")
    x = ins[0]
    xt, rt = x.type.resolve(), op.results[0].type.resolve()
    # The input may already carry its TTNN layout: compare what the TTIR types hold.
    if tuple(xt.shape) != tuple(rt.shape) or xt.element_type.resolve().text != rt.element_type.resolve().text:
        raise ValueError("input and output must have the same type")
    groups = _rows(op.properties["replica_groups"], "replica_groups")
    _check_replica_groups(groups)
    if not groups or len(groups[0]) <= 1:
        return x
    t = lw.layout_type(op.results[0].type, op)
    mesh = module_mesh(lw.module)
    devices = mesh[0] * mesh[1]
    if any(d >= devices for g in groups for d in g):
        raise ValueError(f"has the replica groups {groups}; groups are device ids of the {'x'.join(map(str, mesh))} mesh")
    result = lw.emit("ttnn.assign", [x], t, {}, op.location)
    for source, *targets in groups:
        for target in targets:
            result = point_to_point(lw, op, x, linear_to_coord(source, mesh), linear_to_coord(target, mesh), result, t)
    return result


def _check_replica_groups(groups: list[list[int]]) -> None:
    """HEAD's verifyReplicaGroups (TTIROps.cpp), its messages."""
    ids = [d for g in groups for d in g]
    seen: set[int] = set()
    for d in ids:
        if d < 0:
            raise ValueError("replica_groups values must be positive")
        if d > len(ids) - 1:
            raise ValueError(f"replica_groups values must be in the range [0, {len(ids) - 1}], got {d}")
        if d in seen:
            raise ValueError("replica_groups must not contain duplicate values")
        seen.add(d)


def _all_to_all(lw: Emitter, op: Any) -> Any:
    ins = inputs(op)
    keys = ("split_dim", "concat_dim", "replica_groups")
    missing = [k for k in keys if k not in op.properties]
    if len(ins) != 1 or missing:
        raise ValueError(f"takes one operand and the attributes {', '.join(keys)}")
    x = ins[0]
    xt = x.type.resolve()
    shape = [int(d) for d in xt.shape]
    split_dim = int(op.properties["split_dim"].value)
    groups = _rows(op.properties["replica_groups"], "replica_groups")
    if not groups or not groups[0]:
        raise ValueError("has no replica groups")
    count = len(groups[0])
    if not 0 <= split_dim < len(shape) or shape[split_dim] % count:
        raise ValueError(f"splits dimension {split_dim} of {'x'.join(map(str, shape))} into {count} parts")
    size = shape[split_dim] // count
    part_shape = list(shape)
    part_shape[split_dim] = size
    t = lw.layout_type(TensorType(tuple(part_shape), xt.element_type), op)
    parts = []
    for i in range(count):
        begins, ends = [0] * len(shape), list(shape)
        begins[split_dim], ends[split_dim] = i * size, (i + 1) * size
        props = {"begins": _i32s(begins), "ends": _i32s(ends), "step": _i32s([1] * len(shape))}
        parts.append(lw.emit("ttnn.slice_static", [x], t, props, op.location))
    buffers = [lw.emit("ttnn.assign", [p], t, {}, op.location) for p in parts]
    mesh = module_mesh(lw.module)
    for group in groups:
        for s, sender in enumerate(group):
            for r, receiver in enumerate(group):
                if s != r:
                    buffers[s] = point_to_point(lw, op, parts[r], linear_to_coord(sender, mesh), linear_to_coord(receiver, mesh), buffers[s], t)
    concat_dim = IntegerAttr(int(op.properties["concat_dim"].value), SI32)
    return lw.emit("ttnn.concat", buffers, lw.layout_type(op.results[0].type, op), {"dim": concat_dim}, op.location)


def _i32s(values: list[int]) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


POINT_TO_POINT_RULES = {"collective_permute": _collective_permute, "collective_broadcast": _collective_broadcast, "all_to_all": _all_to_all}
