"""TTIR `distributed_rms_norm` -> TTNN as tt-mlir HEAD leaves it after its TTNN decomposition
(DistributedRMSNormDecompositionRewritePattern):

* The fused kernel takes a weight and an input of shape `(1, ..., 1, 32, M)` with M a multiple of
  32: the op stays `ttnn.distributed_rms_norm` (input, weight?, residual?, device; stats buffer and
  semaphore unbound, HEAD allocates them later), its 1-D weight `(N,)` reshaped to `(N/32, 32)`
  and an input of another rank reshaped to `(1, 1, 32, M)` and back.
* Anything else is computed from the per-device statistics: an input below rank 4 is padded to
  rank 4 with leading 1s (reshaped back after); the residual is added first; then
  `rms_norm_pre_all_gather` (per-device sum of squares in column 0 of a 32-wide tile row),
  `all_gather` of those over the cluster axis (none over a one-device axis), the valid column
  picked out (`reshape`, `slice_static`, `reshape`), `mean` over the devices, times 1/N
  (`full`, `multiply`), plus epsilon (`full`, `add`), `rsqrt`, times the input and times the weight.

HEAD's later workaround for the fused kernel (an L1 width-sharded input, a row-major weight, its
LayerNormShardedMultiCoreProgramConfig and compute config) is not applied: the fused op reads
DRAM-interleaved tensors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.dialects.ttir import inputs
from ttopt.ir.attributes import ArrayAttr, BoolAttr, DenseArrayAttr, DialectAttr, FloatAttr, IntegerAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import ScalarType, TensorType
from ttopt.sharding.ttnn_collectives import module_mesh

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

TILE = 32
F32, I32, SI32 = ScalarType("f32"), ScalarType("i32"), ScalarType("si32")


def _i32s(values: Any) -> ArrayAttr:
    return ArrayAttr(tuple(IntegerAttr(int(v), I32) for v in values))


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in v.type.resolve().shape)


def fused_kernel_shape(shape: tuple[int, ...], has_weight: bool) -> bool:
    """Whether the fused kernel takes this input: a weight, and `(1, ..., 1, 32, M)` with M % 32 == 0."""
    return has_weight and len(shape) >= 2 and shape[-2] == TILE and shape[-1] % TILE == 0 and all(d == 1 for d in shape[:-2])


class _Norm:
    """One distributed_rms_norm's conversion."""

    def __init__(self, lw: _Lowering, op: Any) -> None:
        self.lw = lw
        self.op = op
        self.elem = op.results[0].type.resolve().element_type

    def t(self, shape: tuple[int, ...]) -> Any:
        return self.lw.layout_type(TensorType(tuple(shape), self.elem), self.op)

    def emit(self, name: str, operands: list[Any], shape: tuple[int, ...], props: dict[str, Any] | None = None) -> Any:
        return self.lw.emit(name, operands, self.t(shape), dict(sorted((props or {}).items())), self.op.location)

    def reshape(self, v: Any, shape: tuple[int, ...]) -> Any:
        return v if _shape(v) == tuple(shape) else self.emit("ttnn.reshape", [v], shape, {"shape": _i32s(shape)})

    def fused(self, x: Any, weight: Any, residual: Any) -> Any:
        shape = _shape(x)
        if weight is not None and len(_shape(weight)) == 1 and _shape(weight)[0] % TILE == 0:
            weight = self.reshape(weight, (_shape(weight)[0] // TILE, TILE))
        canonical = (1, 1, TILE, shape[-1])
        x4 = self.reshape(x, canonical)
        r4 = self.reshape(residual, canonical) if residual is not None else None
        operands = [x4] + [v for v in (weight, r4) if v is not None] + [self.lw.get_device()]
        seg = (1, int(weight is not None), int(r4 is not None), 0, 0, 1)
        props = {k: self.op.properties[k] for k in ("cluster_axis", "epsilon") if k in self.op.properties}
        props["operandSegmentSizes"] = DenseArrayAttr("i32", seg)
        y = self.emit("ttnn.distributed_rms_norm", operands, canonical, props)
        return self.reshape(y, shape)

    def composite(self, x: Any, weight: Any, residual: Any) -> Any:
        shape = _shape(x)
        if len(shape) < 4:
            padded = (1,) * (4 - len(shape)) + shape
            x4 = self.reshape(x, padded)
            r4 = self.reshape(residual, padded) if residual is not None else None
            return self.reshape(self.composite(x4, weight, r4), shape)
        rank = len(shape)
        axis = int(self.op.properties["cluster_axis"].value)
        mesh = module_mesh(self.lw.module)
        if not 0 <= axis < len(mesh):
            raise ValueError(f"has cluster_axis {axis}; the {'x'.join(map(str, mesh))} mesh has axes 0 and 1")
        devices = mesh[axis]
        if residual is not None:
            x = self.emit("ttnn.add", [x, residual], shape)
        stats_shape = (*shape[:-1], TILE)
        stats = self.emit("ttnn.rms_norm_pre_all_gather", [x], stats_shape)
        gathered_shape = (*shape[:-1], TILE * devices)
        if devices != 1:  # an all_gather over one device is its input (HEAD's folder)
            stats = self.emit("ttnn.all_gather", [stats], gathered_shape,
                              {"all_gather_dim": IntegerAttr(rank - 1, SI32), "cluster_axis": self.op.properties["cluster_axis"]})  # fmt: skip
        per_device = self.reshape(stats, (*shape[:-1], devices, TILE))
        col0_shape = (*shape[:-1], devices, 1)
        col0 = self.emit("ttnn.slice_static", [per_device], col0_shape,
                         {"begins": _i32s([0] * (rank + 1)), "ends": _i32s(col0_shape), "step": _i32s([1] * (rank + 1))})  # fmt: skip
        flat = self.reshape(col0, (*shape[:-1], devices))
        row = (*shape[:-1], 1)
        mean = self.emit("ttnn.mean", [flat], row, {"dim_arg": _i32s([rank - 1]), "keep_dim": BoolAttr(True)})
        inv_n = self.full(row, 1.0 / shape[-1])
        ex2 = self.emit("ttnn.multiply", [mean, inv_n], row)
        eps_attr = self.op.properties.get("epsilon")
        eps = self.full(row, float(eps_attr.value) if eps_attr is not None else 1e-12)
        stable = self.emit("ttnn.add", [ex2, eps], row)
        inv_rms = self.emit("ttnn.rsqrt", [stable], row)
        y = self.emit("ttnn.multiply", [x, inv_rms], shape)
        return self.emit("ttnn.multiply", [y, weight], shape) if weight is not None else y

    def full(self, shape: tuple[int, ...], value: float) -> Any:
        props = {"fill_value": FloatAttr(_f32(value), F32), "shape": DialectAttr("ttnn.shape", "x".join(map(str, shape)))}
        return self.lw.emit("ttnn.full", [self.lw.get_device()], self.t(shape), props, self.op.location)


def _f32(value: float) -> float:
    """`value` rounded to f32, as HEAD builds the fill value (getF32FloatAttr of a float)."""
    import struct

    return float(struct.unpack("f", struct.pack("f", value))[0])


def lower_distributed_rms_norm(lw: _Lowering, op: Any) -> Any:
    """The fused `ttnn.distributed_rms_norm` or its decomposition, as HEAD's TTNN decomposition leaves it."""
    ins = inputs(op)
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or ())
    if len(seg) != 3 or seg[0] != 1 or sum(seg) != len(ins) or max(seg) > 1:
        raise ValueError("needs operandSegmentSizes (input, weight, residual) matching its operands")
    if "cluster_axis" not in op.properties:
        raise ValueError("needs the attribute cluster_axis")
    x = ins[0]
    weight = ins[1] if seg[1] else None
    residual = ins[1 + seg[1]] if seg[2] else None
    norm = _Norm(lw, op)
    if fused_kernel_shape(_shape(x), weight is not None):
        return norm.fused(x, weight, residual)
    return norm.composite(x, weight, residual)
