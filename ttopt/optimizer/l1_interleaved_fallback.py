"""L1InterleavedFallbackAnalysis (`--l1-interleaved-fallback-analysis-enabled`, reference §2.11).

Runs after the policy's decisions are written into the IR (`rewrite.apply_decisions`), walking the
function in IR order, and upgrades an op's output from DRAM to L1 interleaved when all hold:

* the op is not max_pool2d / upsample / slice_static / typecast / matmul / linear / a conv2d that is
  a matmul (1x1 kernel, stride 1, no padding, dilation 1), and its user is none of slice_static /
  typecast / matmul / linear / conv2d-as-matmul, nor a dispatch op (whose callee types only
  follow dispatch configs);
* it has an L1-interleaved legal config and its output is DRAM now;
* its result has exactly one use, by the next op in IR order (buffer ops `ttnn.get_device` /
  `ttnn.empty` in between are skipped), which is not the function's return;
* it is not a view-like reshape (same last dim and, tiled, the same or both tile-aligned
  second-to-last dims) of a DRAM input, and it does not feed such a reshape with a DRAM output
  (either would turn a free view into a copy);
* the op model accepts the op with its current inputs (already-upgraded producers included) and the
  L1-interleaved output, producing exactly that layout, and accepts the consumer with the new input
  and its current config, producing its current layout.

Both validations carry, as `additional_l1`, every other L1 tensor alive across the op in the final
IR order (a chain's sharded tensors, L1-interleaved outputs of the interleaved policies); upstream
validates without them. Since the consumer is the next op, an upgraded output is alive across no
other op, so the walk never invalidates an earlier answer. Upgrades only change result types (and
re-state the op's conv2d config); no op is inserted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.markup import escape

from ttopt.device import OpConfig, layout_info
from ttopt.device.conv2d_config import Conv2dConfig
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.properties import int_values
from ttopt.ir.types import TensorType
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.dispatch import is_dispatch
from ttopt.optimizer.liveness import alive_across
from ttopt.optimizer.policies import FunctionContext
from ttopt.optimizer.policies.interleaved import l1_interleaved_config
from ttopt.optimizer.scheduler import ATTACHED_OPS

EXCLUDED_OPS = frozenset({"ttnn.max_pool2d", "ttnn.upsample", "ttnn.slice_static", "ttnn.typecast", "ttnn.matmul", "ttnn.linear"})
EXCLUDED_USERS = frozenset({"ttnn.slice_static", "ttnn.typecast", "ttnn.matmul", "ttnn.linear"})
CONV_OPS = frozenset({"ttnn.conv2d", "ttnn.conv_transpose2d"})


@dataclass
class FallbackDecision:
    """One op looked at by the analysis: upgraded, or why not."""

    op: Any
    upgraded: bool
    reason: str = ""
    layout: TTNNLayoutAttr | None = None


def _ints(op: Any, name: str) -> tuple[int, ...] | None:
    return int_values(op.get_attr(name))


def is_conv2d_as_matmul(op: Any) -> bool:
    """A conv2d with a 1x1 kernel, stride 1, no padding and dilation 1 (run as a matmul)."""
    if op.name != "ttnn.conv2d":
        return False
    k, s, p, d = (_ints(op, n) for n in ("kernel_size", "stride", "padding", "dilation"))
    return (
        k is not None and all(x == 1 for x in k)
        and (s is None or all(x == 1 for x in s))
        and (p is None or all(x == 0 for x in p))
        and (d is None or all(x == 1 for x in d))
    )  # fmt: skip


def is_view_reshape(op: Any) -> bool:
    """A reshape tt-metal can do as a view: same last dim and, tiled, the same second-to-last dim
    or both multiples of 32."""
    if op.name != "ttnn.reshape" or not op.operands or len(op.results) != 1:
        return False
    ti, to = op.operands[0].type.resolve(), op.results[0].type.resolve()
    if not (isinstance(ti, TensorType) and isinstance(to, TensorType)) or not ti.shape or not to.shape:
        return False
    a, b = ranked_shape(ti), ranked_shape(to)
    if a[-1] != b[-1]:
        return False
    lay = current_layout(to)
    if lay is not None and not lay.is_tiled:
        return True
    a2 = a[-2] if len(a) >= 2 else 1
    b2 = b[-2] if len(b) >= 2 else 1
    return a2 == b2 or (a2 % 32 == 0 and b2 % 32 == 0)


def _is_dram(t: Any) -> bool:
    lay = current_layout(t)
    return lay is not None and lay.is_dram


def _current_config(op: Any, layout: TTNNLayoutAttr | None) -> OpConfig:
    conv = None
    if op.name in CONV_OPS:
        a = op.get_attr("conv2d_config")
        try:
            conv = Conv2dConfig.from_attr(a.resolve().typed if a is not None else None)
        except Exception:  # noqa: BLE001  (an unreadable attribute: the op model reads it itself)
            conv = None
    return OpConfig(output=layout, conv2d=conv)


def _live_l1(seq: list[Any]) -> tuple[list[int], dict[Any, tuple[int, int]]]:
    """Per position in `seq`, L1 bytes per core of values alive strictly across it; and each L1
    value's (def, last use) positions (block arguments defined at -1)."""
    pos = {id(op): i for i, op in enumerate(seq)}
    spans: dict[Any, tuple[int, int]] = {}
    sized: list[tuple[int, int, int]] = []
    values: list[tuple[Any, int]] = []
    seen: set[int] = set()
    for i, op in enumerate(seq):
        for v in op.operands:
            if id(v) not in seen and getattr(v, "op", None) is None:
                seen.add(id(v))
                values.append((v, -1))
        for r in op.results:
            values.append((r, i))
    for v, s in values:
        t = v.type.resolve() if hasattr(v.type, "resolve") else v.type
        lay = current_layout(t) if isinstance(t, TensorType) else None
        if lay is None or not lay.is_l1:
            continue
        ends = [pos[id(u)] for u in v.uses if id(u) in pos]
        if not ends:
            continue
        spans[v] = (s, max(ends))
        sized.append((s, max(ends), layout_info(lay).per_core_bytes))
    live = alive_across(len(seq), sized)
    return live, spans


def _additional(op: Any, i: int, live: list[int], spans: dict[Any, tuple[int, int]]) -> int:
    """L1 alive across position `i` that is not one of `op`'s operands (those the op model counts)."""
    own = 0
    counted: set[int] = set()
    for v in op.operands:
        sp = spans.get(v)
        if sp is not None and id(v) not in counted and sp[0] < i < sp[1]:
            counted.add(id(v))
            lay = current_layout(v.type.resolve())
            assert lay is not None  # spans hold only values with an L1 layout
            own += layout_info(lay).per_core_bytes
    return live[i] - own


def run_l1_interleaved_fallback(fn: FunctionContext, aliaser: Any) -> list[FallbackDecision]:
    """Upgrade eligible DRAM ops of `fn` to L1 interleaved in place; one record per op considered
    (ops whose output is already in L1, or that have no legal configs, are not listed)."""
    from ttopt.optimizer.rewrite import apply_config

    analyses = fn.analyses
    model = analyses.model
    block = fn.block
    seq = [op for op in block.ops if op.name not in ATTACHED_OPS]
    term = seq[-1] if seq and seq[-1].opdef is not None and seq[-1].opdef.has("terminator") else None
    live, spans = _live_l1(seq)
    out: list[FallbackDecision] = []
    for i, op in enumerate(seq):
        info = analyses.legal.get(op)
        if info is None or info.fixed or len(op.results) != 1:
            continue
        r = op.results[0]
        if not _is_dram(r.type):
            continue

        def skip(reason: str, op: Any = op) -> None:
            out.append(FallbackDecision(op, False, reason))

        if op.name in EXCLUDED_OPS or is_conv2d_as_matmul(op):
            skip(f"{op.name} is excluded" + (" (conv2d as matmul)" if op.name == "ttnn.conv2d" else ""))
            continue
        if len(r.uses) != 1:
            skip(f"{len(r.uses)} uses (needs exactly one)")
            continue
        user = r.uses[0]
        if user is term:
            skip("its result is returned")
            continue
        if i + 1 >= len(seq) or seq[i + 1] is not user:
            skip("its user is not the next op")
            continue
        if user.name in EXCLUDED_USERS or is_conv2d_as_matmul(user):
            skip(f"its user {user.name} is excluded")
            continue
        if is_dispatch(user):  # its callee / body types follow only dispatch configs
            skip("its user is a dispatch op")
            continue
        if is_view_reshape(op) and op.operands and _is_dram(op.operands[0].type):
            skip("a view-like reshape of a DRAM tensor")
            continue
        if is_view_reshape(user) and _is_dram(user.results[0].type):
            skip("feeds a view-like reshape with a DRAM output")
            continue
        cur = _current_config(op, None)
        cfg = l1_interleaved_config(info.configs, cur if cur.conv2d is not None else None)
        if cfg is None:
            skip("no L1-interleaved legal config")
            continue
        ins = model.current_inputs(op)
        if ins is None:
            skip("an operand has no ttnn layout")
            continue
        res = model.validate(op, list(ins), cfg, _additional(op, i, live, spans))
        want = layout_info(cfg.layout).uid  # an L1-interleaved legal config has a full layout
        if not res.ok or res.output_info is None or res.output_info.uid != want:
            skip(f"op does not validate with an L1-interleaved output: {res.reason if not res.ok else 'different output layout'}")
            continue
        current_uins = model.current_inputs(user)
        ulay = current_layout(user.results[0].type) if len(user.results) == 1 else None
        if current_uins is None or ulay is None:
            skip("the user has no ttnn layouts")
            continue
        uins = list(current_uins)
        k = 0
        for v in user.operands:
            if not isinstance(v.type.resolve(), TensorType):
                continue
            if v is r:
                uins[k] = cfg.layout
            k += 1
        ures = model.validate(user, uins, _current_config(user, ulay), _additional(user, i + 1, live, spans))
        if not ures.ok or ures.output_info is None or ures.output_info.uid != layout_info(ulay).uid:
            skip(f"user {fn.labels.get(user, user.name)} does not validate with it: {ures.reason if not ures.ok else 'different output layout'}")
            continue
        apply_config(op, cfg, aliaser)
        model.invalidate(op)
        model.invalidate(user)
        out.append(FallbackDecision(op, True, "", cfg.layout))
    if fn.trace is not None:
        for d in out:
            name = fn.labels.get(d.op, d.op.name)
            if d.upgraded:
                assert d.layout is not None  # an upgrade records its layout
                fn.trace.print(f"[bold]l1-interleaved fallback[/bold] {escape(name)}: DRAM -> {layout_info(d.layout).short()}")
            else:
                fn.trace.print(f"[dim]l1-interleaved fallback {escape(name)}: stays in DRAM ({escape(d.reason)})[/dim]")
    return out
