"""NumPy semantics of the fused TTIR ops `ttir-fusing` makes, and of the fills and reductions its
patterns read, for the reference interpreter (ttir_interpreter.py): a fused program must compute
what its unfused form computes. Also the distributed layer and RMS norms, on the one device the
interpreter runs (their statistics gathered from that device alone).

`FUSED` maps an op name to `fn(op, inputs, result_type) -> array` (float64 math, rounded to the
result type by the interpreter); `FUSED_MULTI` maps a fused op of several results to
`fn(interpreter, op, inputs) -> [arrays]`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ttopt.ir.properties import int_values

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation

Array = Any
_ERF = np.vectorize(math.erf, otypes=[np.float64])


def _val(op: Operation, key: str, default: Any = None) -> Any:
    a = op.properties.get(key)
    v = getattr(a.resolve(), "value", None) if a is not None else None
    return default if v is None else v


def _f(x: Array) -> Array:
    return np.asarray(x, dtype=np.float64)


def _softmax(x: Array, axis: int) -> Array:
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _linear(op: Operation, ins: list[Array], t: Any) -> Array:
    a, b = _f(ins[0]), _f(ins[1])
    a = np.swapaxes(a, -1, -2) if _val(op, "transpose_a", False) else a
    b = np.swapaxes(b, -1, -2) if _val(op, "transpose_b", False) else b
    y = np.matmul(a, b)
    return y + _f(ins[2]) if len(ins) > 2 else y


def _rms_norm(op: Operation, ins: list[Array], t: Any) -> Array:
    """Over the trailing normalized_shape dimensions (the last one when it is absent), as HEAD's
    golden (torch's rms_norm); weight and bias by segment sizes."""
    x = _f(ins[0])
    axes = tuple(range(-len(int_values(op.properties.get("normalized_shape")) or (0,)), 0))
    y = x / np.sqrt(np.mean(x * x, axis=axes, keepdims=True) + float(_val(op, "epsilon", 1e-5)))
    return _weight_and_bias(op, y, ins)


def _distributed_rms_norm(op: Operation, ins: list[Array], t: Any) -> Array:
    """(input + residual?) RMS-normalized over the last dimension, times weight? (HEAD's golden on a
    one-device cluster axis)."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, int(len(ins) > 1), int(len(ins) > 2)))
    rest = iter(ins[1:])
    weight, residual = (_f(next(rest)) if n else None for n in seg[1:3])
    x = _f(ins[0]) if residual is None else _f(ins[0]) + residual
    y = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + float(_val(op, "epsilon", 1e-5)))
    return y if weight is None else y * weight


def _distributed_layer_norm(op: Operation, ins: list[Array], t: Any) -> Array:
    """(input + residual?) normalized over the last dimension, times weight?, plus bias? (HEAD's golden
    on a one-device cluster axis)."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 0, 0, 0))
    rest = iter(ins[1:])
    weight, bias, residual = (_f(next(rest)) if n else None for n in seg[1:4])
    x = _f(ins[0]) if residual is None else _f(ins[0]) + residual
    mean = np.mean(x, axis=-1, keepdims=True)
    y = (x - mean) / np.sqrt(np.var(x, axis=-1, keepdims=True) + float(_val(op, "epsilon", 1e-5)))
    y = y if weight is None else y * weight
    return y if bias is None else y + bias


def _sdpa(op: Operation, ins: list[Array], t: Any) -> Array:
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, 1, 1, int(len(ins) > 3), 0))
    q, k, v = (_f(x) for x in ins[:3])
    mask = _f(ins[3]) if seg[3] else None
    sink = _f(ins[3 + seg[3]]) if seg[4] else None
    rep = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    scale = float(_val(op, "scale", 1.0 / math.sqrt(q.shape[-1])))
    s = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    if mask is not None:
        s = s + mask
    elif _val(op, "is_causal", True):
        sq, sk = s.shape[-2:]
        s = np.where(np.tril(np.ones((sq, sk), dtype=bool)), s, -np.inf)
    if sink is not None:  # one more logit per head in the softmax's denominator, not in its weights
        column = np.broadcast_to(sink, s.shape[:-1] + (1,))
        return np.matmul(_softmax(np.concatenate([s, column], axis=-1), -1)[..., :-1], v)
    return np.matmul(_softmax(s, -1), v)


def _full(op: Operation, ins: list[Array], t: Any) -> Array:
    shape = tuple(t.resolve().shape)
    value = {"ttir.zeros": 0.0, "ttir.ones": 1.0}.get(op.name)
    return np.full(shape, _val(op, "fill_value") if value is None else value)


def _layer_norm(op: Operation, ins: list[Array], t: Any) -> Array:
    """Over the trailing normalized_shape dimensions (the last one when it is absent), weight and
    bias by segment sizes."""
    x = _f(ins[0])
    axes = tuple(range(-len(int_values(op.properties.get("normalized_shape")) or (0,)), 0))
    c = x - np.mean(x, axis=axes, keepdims=True)
    y = c / np.sqrt(np.mean(c * c, axis=axes, keepdims=True) + float(_val(op, "epsilon", 1e-5)))
    return _weight_and_bias(op, y, ins)


def _weight_and_bias(op: Operation, y: Array, ins: list[Array]) -> Array:
    """A norm's normalized `y` times its weight, plus its bias, each present by its operand segment."""
    seg = list(int_values(op.properties.get("operandSegmentSizes")) or (1, int(len(ins) > 1), int(len(ins) > 2)))
    rest = iter(ins[1:])
    if seg[1]:
        y = y * _f(next(rest))
    if seg[2]:
        y = y + _f(next(rest))
    return y


def _mean(op: Operation, ins: list[Array], t: Any) -> Array:
    dims = list(int_values(op.properties.get("dim_arg")) or range(ins[0].ndim))
    return np.mean(_f(ins[0]), axis=tuple(d % ins[0].ndim for d in dims), keepdims=bool(_val(op, "keep_dim", False)))


FUSED: dict[str, Callable[[Operation, list[Array], Any], Array]] = {
    "ttir.linear": _linear,
    "ttir.softmax": lambda op, ins, t: _softmax(_f(ins[0]), int(_val(op, "dimension", -1))),
    "ttir.rms_norm": _rms_norm,
    "ttir.layer_norm": _layer_norm,
    "ttir.distributed_layer_norm": _distributed_layer_norm,
    "ttir.distributed_rms_norm": _distributed_rms_norm,
    "ttir.relu": lambda op, ins, t: np.maximum(_f(ins[0]), 0.0),
    "ttir.relu6": lambda op, ins, t: np.clip(_f(ins[0]), 0.0, 6.0),
    "ttir.silu": lambda op, ins, t: _f(ins[0]) / (1 + np.exp(-_f(ins[0]))),
    "ttir.gelu": lambda op, ins, t: 0.5 * _f(ins[0]) * (1 + _ERF(_f(ins[0]) / math.sqrt(2))),
    "ttir.hardsigmoid": lambda op, ins, t: np.clip(_f(ins[0]) / 6.0 + 0.5, 0.0, 1.0),
    "ttir.mish": lambda op, ins, t: _f(ins[0]) * np.tanh(np.logaddexp(0.0, _f(ins[0]))),
    "ttir.scaled_dot_product_attention": _sdpa,
    "ttir.full": _full, "ttir.zeros": _full, "ttir.ones": _full,
    "ttir.mean": _mean,
    # [B, H, S, D] -> [B, S, H*D]: heads side by side per position.
    "ttir.concatenate_heads": lambda op, ins, t: np.transpose(_f(ins[0]), (0, 2, 1, 3)).reshape(tuple(t.shape)),
}  # fmt: skip


def _split_qkv(it: Any, op: Operation, ins: list[Array]) -> list[Array]:
    """tt-metal's split_query_key_value_and_split_heads: [B, S, (Hq + 2 Hkv) D] (or Q [B, S, Hq D]
    and KV [B, S, 2 Hkv D]) into Q, K, V [B, H, S, D], K as [B, H, D, S] with transpose_key."""
    hq = int(_val(op, "num_heads"))
    hkv = int(_val(op, "num_kv_heads", hq) or hq)
    x = _f(ins[0])
    b, s = x.shape[:2]
    parts = [x, _f(ins[1])] if len(ins) > 1 else [x]
    d = sum(p.shape[-1] for p in parts) // (hq + 2 * hkv)
    flat = np.concatenate(parts, axis=-1)
    out, at = [], 0
    for h in (hq, hkv, hkv):
        out.append(flat[..., at : at + h * d].reshape(b, s, h, d).transpose(0, 2, 1, 3))
        at += h * d
    if _val(op, "transpose_key", False):
        out[1] = out[1].transpose(0, 1, 3, 2)
    return out


FUSED_MULTI: dict[str, Callable[[Any, Operation, list[Array]], list[Array]]] = {
    "ttir.split_query_key_value_and_split_heads": _split_qkv,
}
