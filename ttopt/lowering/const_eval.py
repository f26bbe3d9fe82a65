"""`const-eval-hoist-transform`: what depends only on constants and on the parameters and constant
arguments of a function is computed once, in a const-eval function, and read back through
`ttcore.load_cached` (tt-mlir's ConstEvalHoistTransform, run on a TTNN program).

In order, per function with a body (not a const-eval function itself):

1. Conv2d weight preparation (when `prepare-conv2d-weights`, which the backend pipeline sets when
   the optimizer ran, as tt-mlir's TTNNPrepareConv2dWeightsAndBias runs inside it, with or without
   const-eval): in front of
   every `ttnn.conv2d` a `ttnn.prepare_conv2d_weights` (and `ttnn.prepare_conv2d_bias` for a bias)
   with the conv's geometry, its input's memory config and page layout, and its conv2d_config with
   `weights_dtype` the input's data type; the weight goes to the host, row-major, first (what the
   prepare ops read). The prepared weight is `1x1x(in/groups*kh*kw)xout`, tiled in DRAM. Every
   `ttnn.conv_transpose2d` gets `ttnn.prepare_conv_transpose2d_weights` (weights format `IOHW`,
   its `output_padding`, `mirror_kernel = true`; prepared as the conv2d weight it amounts to) and
   `prepare_conv_transpose2d_bias` the same way.
2. Dead constants: ops that depend only on constants and parameters and whose results nobody reads
   are erased (repeatedly, so whole dead chains go), as tt-mlir's canonicalizer erases them
   whether or not it hoists.
3. Hoisting (unless `hoist=false`: the backend pipeline's `enable-const-eval=false`): such ops are grouped into connected subgraphs (a union-find over the values they
   pass each other; arguments and the device are not edges). Each subgraph becomes a private
   `@<func>_const_eval_<N>` (`tt.function_type = "const_eval"`) taking the arguments it reads
   (in argument order) and returning the values read outside it; its `ttnn.get_device` is a copy
   of the function's. The function calls it with `ttcore.load_cached` at its start.

Hoistable: ops with results whose operands are all parameter / constant arguments
(`ttcore.argument_type`), the device, or hoistable results; never `ttnn.empty`, `ttnn.rand`,
`ttnn.dropout`, `ttnn.generic`, ops with regions, and (unlike tt-mlir, which stops with an error)
ops with a result in L1: const-eval results persist, and L1 is the forward function's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ttopt.dialects.errors import AttrError
from ttopt.dialects.ttnn_attrs import Conv2dConfigAttr
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import BoolAttr, DialectAttr, StringAttr, SymbolRefAttr, TypeAttr
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.ir.location import Location
from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.types import FunctionType, TensorType
from ttopt.lowering.function_types import CONST_EVAL, FUNCTION_TYPE
from ttopt.lowering.host_tensors import host_row_major
from ttopt.optimizer.analyses import current_layout, ranked_shape
from ttopt.optimizer.rewrite import LayoutAliaser, update_function_type
from ttopt.passes.base import Pass, option
from ttopt.passes.registry import register_pass
from ttopt.sharding.func_attrs import argument_kinds, func_name

if TYPE_CHECKING:
    from ttopt.ir.module import Module
    from ttopt.passes.context import PassContext

INFIX = "_const_eval_"
NON_CACHEABLE = frozenset({"ttnn.empty", "ttir.empty", "tensor.empty", "ttnn.rand", "ttir.rand", "ttnn.dropout", "ttir.dropout", "ttnn.generic", "ttnn.deallocate",
                           "ttcore.load_cached", "func.return", "func.call"})  # fmt: skip
SHARED = "ttnn.get_device"
LOAD_CACHED = "ttcore.load_cached"
CONST_ARG_TYPES = ("parameter", "constant")


def const_args(func: Any) -> set[int]:
    """Indices of the arguments typed parameter or constant (`ttcore.argument_type`)."""
    return {i for i, kind in enumerate(argument_kinds(func)) if kind in CONST_ARG_TYPES}


def reached_arguments(v: Any, avoid: Any = None) -> set[int] | None:
    """Indices of the function arguments `v`'s def chain reaches; None when it passes through `avoid`."""
    seen: set[int] = set()
    args: set[int] = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        p = getattr(x, "op", None)
        if p is None:
            args.add(x.index)
            continue
        if p is avoid:
            return None
        stack.extend(p.operands)
    return args


# -- 1. conv2d weight preparation ------------------------------------------------------------------
def _dtype_attr(dt: Any) -> DialectAttr:
    return DialectAttr("ttcore.supportedDataTypes", dt.value)


GEOMETRY = ("in_channels", "out_channels", "batch_size", "input_height", "input_width", "kernel_size", "stride",
            "padding", "dilation")  # fmt: skip


@dataclass(frozen=True)
class _Preparation:
    """How one conv op's weight and bias are prepared (HEAD's TTNNPrepareConv2dWeightsAndBias)."""

    weights: str
    bias: str
    weights_format: str
    transpose: bool  # weights [in, out/groups, kh, kw]; the weight op also takes output_padding and mirror_kernel

    def prepared_shape(self, w: tuple[int, ...], groups: int) -> tuple[int, ...]:
        """The prepared weight: `1x1x(in/groups*kh*kw)xout` of the conv2d weight it amounts to."""
        if self.transpose:
            cin, cout_g, kh, kw = w
            return (1, 1, cin // max(groups, 1) * kh * kw, cout_g * groups)
        o, i, kh, kw = w
        return (1, 1, i * kh * kw, o)


PREPARATIONS = {
    "ttnn.conv2d": _Preparation("ttnn.prepare_conv2d_weights", "ttnn.prepare_conv2d_bias", "OIHW", False),
    "ttnn.conv_transpose2d": _Preparation("ttnn.prepare_conv_transpose2d_weights", "ttnn.prepare_conv_transpose2d_bias", "IOHW", True),
}
PREPARE_OPS = frozenset(n for p in PREPARATIONS.values() for n in (p.weights, p.bias))


def prepare_conv2d(func: Any, aliaser: LayoutAliaser) -> int:
    """Put `ttnn.prepare_conv2d_weights` / `prepare_conv2d_bias` in front of each conv2d of `func`
    (`prepare_conv_transpose2d_*` in front of each conv_transpose2d) whose weight is not prepared
    yet; returns how many convs changed."""
    block = func.regions[0].entry
    out: list[Operation] = []
    count = 0
    for conv in block.ops:
        prep = PREPARATIONS.get(conv.name)
        if prep is None or len(conv.operands) not in (3, 4):
            out.append(conv)
            continue
        w = conv.operands[1]
        producer = getattr(w, "op", None)
        in_lay, out_lay = current_layout(conv.operands[0].type), current_layout(conv.results[0].type)
        wt = w.type.resolve()
        if (producer is not None and producer.name in PREPARE_OPS) or in_lay is None or out_lay is None \
                or not isinstance(wt, TensorType) or len(ranked_shape(wt)) != 4:  # fmt: skip
            out.append(conv)
            continue
        device = conv.operands[-1]
        cfg_attr = conv.properties.get("conv2d_config")
        cfg = getattr(cfg_attr.resolve(), "typed", None) if cfg_attr is not None else None
        params = [(k, v) for k, v in cfg.params if k != "weights_dtype"] if isinstance(cfg, Conv2dConfigAttr) else []
        cfg = Conv2dConfigAttr(params=(("weights_dtype", in_lay.dtype.value), *params))
        common: dict[str, Any] = {k: conv.properties[k] for k in GEOMETRY if k in conv.properties}
        common.update(input_memory_config=DialectAttr.of(in_lay.memory_config()),
                      input_tensor_layout=DialectAttr("ttnn.layout", "tile" if in_lay.is_tiled else "row_major"),
                      groups=conv.properties["groups"], input_dtype=_dtype_attr(in_lay.dtype),
                      output_dtype=_dtype_attr(out_lay.dtype), conv2d_config=DialectAttr.of(cfg))  # fmt: skip
        for k in ("compute_config", "conv2d_slice_config"):
            if k in conv.properties:
                common[k] = conv.properties[k]
        base = conv.location.name if conv.location is not None else None
        kind = conv.name.removeprefix("ttnn.")
        new: list[Operation] = []
        hw = host_row_major(w, conv, aliaser, new)
        groups = getattr(conv.properties["groups"].resolve(), "value", 1)
        shape = prep.prepared_shape(ranked_shape(wt), int(groups))
        prepared = TTNNLayoutAttr.build(shape, in_lay.dtype, buffer_type="dram", memory_layout="interleaved")
        wprops = {**common, "weights_format": StringAttr(prep.weights_format), "has_bias": BoolAttr(len(conv.operands) == 4)}
        if prep.transpose:
            if "output_padding" in conv.properties:
                wprops["output_padding"] = conv.properties["output_padding"]
            wprops["mirror_kernel"] = BoolAttr(True)
        pw = Operation(prep.weights, [hw, device], [aliaser.tensor_type(TensorType(shape, wt.element_type), prepared)],
                       properties=dict(sorted(wprops.items())),
                       location=Location.named(f"{base}_prepare_{kind}_weight") if base else conv.location)  # fmt: skip
        new.append(pw)
        conv.set_operand(1, pw.results[0])
        if len(conv.operands) == 4:
            b = conv.operands[2]
            bt = b.type.resolve()
            if isinstance(bt, TensorType) and len(ranked_shape(bt)) == 4:
                hb = host_row_major(b, conv, aliaser, new)
                blay = TTNNLayoutAttr.build(ranked_shape(bt), in_lay.dtype, buffer_type="dram",
                                            memory_layout="interleaved")  # fmt: skip
                pb = Operation(prep.bias, [hb, device], [aliaser.tensor_type(bt, blay)],
                               properties=dict(sorted(common.items())),
                               location=Location.named(f"{base}_prepare_{kind}_bias") if base else conv.location)  # fmt: skip
                new.append(pb)
                conv.set_operand(2, pb.results[0])
        conv.properties["conv2d_config"] = DialectAttr.of(cfg)
        out.extend(new)
        out.append(conv)
        count += 1
    for op in out:
        op.parent = block
    block.ops = out
    return count


# -- 2./3. const-eval analysis ----------------------------------------------------------------------
def _in_l1(op: Operation) -> bool:
    return any((lay := current_layout(r.type)) is not None and lay.is_l1 for r in op.results)


class _Analysis:
    """Which ops of one block are const-evaluable, and their connected subgraphs (union-find)."""

    def __init__(self, block: Block, consts: set[int]) -> None:
        self.block = block
        self.args = {id(a) for a in block.args if a.index in consts}
        self.hoistable: dict[int, Operation] = {}
        self.parent: dict[int, int] = {}
        for op in block.ops:
            self._visit(op)

    def _ok(self, v: Any) -> bool:
        if id(v) in self.args:
            return True
        p = getattr(v, "op", None)
        # A value an earlier hoist cached is as constant as a parameter (a later run of the pass,
        # after the optimizer, hoists the conv weight preparation that reads it).
        return p is not None and (p.name in (SHARED, LOAD_CACHED) or id(p) in self.hoistable)

    def _visit(self, op: Operation) -> None:
        if op.name == SHARED or op.name in NON_CACHEABLE or not op.results or op.regions:
            return
        if not all(self._ok(v) for v in op.operands) or _in_l1(op):
            return
        self.hoistable[id(op)] = op
        self.parent[id(op)] = id(op)
        for v in op.operands:
            p = getattr(v, "op", None)
            if p is not None and id(p) in self.hoistable:
                self._union(id(p), id(op))

    def _find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def _union(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[ra] = rb

    def subgraphs(self) -> list[list[Operation]]:
        """The hoistable ops grouped by subgraph, each in block order, subgraphs by first op."""
        groups: dict[int, list[Operation]] = {}
        for op in self.block.ops:
            if id(op) in self.hoistable:
                groups.setdefault(self._find(id(op)), []).append(op)
        return list(groups.values())


def remove_dead_constants(block: Block, consts: set[int]) -> int:
    """Erase hoistable ops nobody reads (and then the ones only they read); returns how many."""
    hoistable = _Analysis(block, consts).hoistable
    dead: set[int] = set()
    for op in reversed(block.ops):
        if id(op) in hoistable and all(all(id(u) in dead for u in r.users) for r in op.results):
            dead.add(id(op))
    if not dead:
        return 0
    gone = [op for op in block.ops if id(op) in dead]
    for op in gone:
        op.drop_all_references()
    block.remove_many(gone)
    for op in [o for o in block.ops if o.name == SHARED and not o.results[0].uses]:
        block.remove(op)
    return len(gone)


def _next_index(module: Any, name: str) -> int:
    """The first const-eval index free for function `name` (after the existing `name_const_eval_N`)."""
    used = [-1]
    for f in module.functions():
        n = getattr(f.properties.get("sym_name"), "value", "")
        if n.startswith(name + INFIX) and n[len(name + INFIX):].isdigit():
            used.append(int(n[len(name + INFIX):]))
    return max(used) + 1


def hoist(module: Any, func: Any, consts: set[int]) -> int:
    """Move each const-evaluable subgraph of `func` into its own const-eval function; returns how many."""
    block = func.regions[0].entry
    groups = _Analysis(block, consts).subgraphs()
    if not groups:
        return 0
    name = func_name(func)
    first = _next_index(module, name)
    shared = [op for op in block.ops if op.name == SHARED and op.results[0].uses]  # dropped if only hoisted ops read them
    calls: list[Operation] = []
    new_funcs: list[Operation] = []
    hoisted: set[int] = set()
    arg_ids = {id(a) for a in block.args}
    for n, ops in enumerate(groups):
        members = {id(op) for op in ops}
        args = sorted({cast(Any, v).index: v for op in ops for v in op.operands if id(v) in arg_ids}.items())
        cached = {id(v): v for op in ops for v in op.operands if getattr(getattr(v, "op", None), "name", "") == LOAD_CACHED}
        ins = [*args, *((-1, v) for v in cached.values())]
        outs = [r for op in ops for r in op.results if any(id(u) not in members for u in r.users)]
        body = Block([v.type for _, v in ins])
        mapping: dict[int, Any] = {id(v): a for (_, v), a in zip(ins, body.args)}
        devices = {id(p): p for op in ops for v in op.operands if (p := getattr(v, "op", None)) is not None and p.name == SHARED}
        for d in devices.values():  # each function has its own copy of the device (tt-mlir's shared op)
            body.append(d.clone(mapping))
        for op in ops:
            body.append(op.clone(mapping))
        body.append(Operation("func.return", [mapping[id(r)] for r in outs], []))
        fname = f"{name}{INFIX}{first + n}"
        ce = Operation("func.func", properties={
            "sym_name": StringAttr(fname),
            "function_type": TypeAttr(FunctionType(tuple(v.type for _, v in ins), tuple(r.type for r in outs))),
            "sym_visibility": StringAttr("private"),
        }, attributes={FUNCTION_TYPE: StringAttr(CONST_EVAL)}, regions=[Region([body])], location=func.location)  # fmt: skip
        new_funcs.append(ce)
        call = Operation("ttcore.load_cached", [v for _, v in ins], [r.type for r in outs],
                         properties={"callee": SymbolRefAttr(fname)}, location=func.location)  # fmt: skip
        calls.append(call)
        for r, c in zip(outs, call.results):
            r.replace_all_uses_with(c)
        hoisted |= members
    gone = [op for op in block.ops if id(op) in hoisted]
    for op in gone:
        op.drop_all_references()
    block.remove_many(gone)
    block.remove_many([op for op in shared if not op.results[0].uses])
    # After the calls whose results they may read (not always first in the block: a TTIR hoisting's
    # calls stay where they were while convert-ttir-to-ttnn puts the device before them).
    start = max((i + 1 for i, op in enumerate(block.ops) if op.name == LOAD_CACHED), default=0)
    for i, call_op in enumerate(calls):
        block.insert(start + i, call_op)
    parent = func.parent
    assert parent is not None
    at = parent.index(func)
    for i, ce in enumerate(new_funcs):
        parent.insert(at + i, ce)
    return len(new_funcs)


@register_pass
@dataclass
class ConstEvalHoistTransform(Pass):
    """Hoist constant / parameter subgraphs into const-eval functions (tt-mlir's const-eval-hoist-transform)."""

    name = "const-eval-hoist-transform"
    summary = ("Move what depends only on constants, parameters and constant arguments into @<func>_const_eval_N "
               "functions read through ttcore.load_cached; erase dead constants; optionally prepare conv2d weights")  # fmt: skip

    prepare_conv2d_weights: bool = option(False, "Insert ttnn.prepare_conv2d_weights / prepare_conv2d_bias before every ttnn.conv2d (prepare_conv_transpose2d_* before every conv_transpose2d) first")
    hoist: bool = option(True, "Hoist into const-eval functions (false: only prepare conv2d weights and erase dead constants)")

    def run(self, module: Module, ctx: PassContext) -> None:
        aliaser = LayoutAliaser(module)
        stats = {"prepared-convs": 0, "dead-constants": 0, "const-eval-functions": 0}
        # A composite's decomposition runs only once the composite is resolved (inlined or replaced)
        # on TTNN; hoisting inside it first would leave const-eval functions for a body that may go.
        decompositions = {getattr(op.properties.get("decomposition"), "root", None) for op in module.walk() if op.name == "ttcore.composite"}
        for func in list(module.functions()):
            kind = getattr(func.attributes.get(FUNCTION_TYPE), "value", None)
            if not func.regions or not func.regions[0].blocks or kind in (CONST_EVAL, "kernel"):
                continue  # kernels return non-tensors, which load_cached cannot (as tt-mlir skips them)
            if func_name(func) in decompositions:
                continue
            if len(func.regions[0].blocks) != 1:
                raise Diagnostic(f"{self.name}: function with {len(func.regions[0].blocks)} blocks",
                                 op_position(module.source, func))  # fmt: skip
            try:
                if self.prepare_conv2d_weights:
                    stats["prepared-convs"] += prepare_conv2d(func, aliaser)
            except (AttrError, KeyError, ValueError) as e:
                raise Diagnostic(f"{self.name}: cannot prepare conv2d weights: {e}", op_position(module.source, func)) from None
            consts = const_args(func)
            block = func.regions[0].entry
            stats["dead-constants"] += remove_dead_constants(block, consts)
            if self.hoist:
                stats["const-eval-functions"] += hoist(module, func, consts)
            update_function_type(func)
        ctx.stats.setdefault(self.name, {}).update(stats)



# -- const-eval inputs in system memory ---------------------------------------------------------
def _host_type(t: Any, aliaser: LayoutAliaser) -> Any:
    """`t` in system memory, row-major (what the host hands over)."""
    lay = current_layout(t)
    rt = t.resolve()
    if lay is None or not isinstance(rt, TensorType):
        return t
    return aliaser.tensor_type(rt, lay.relayout(ranked_shape(rt), buffer_type="system_memory", tiled=False))


def _folds_to_host(arg: Any, host: Any) -> Operation | None:
    """The op ending `arg`'s only use chain when that chain just brings it to `host` (from_device,
    then a to_layout to row-major), else None: such an argument needs no transfer to the device."""
    users = arg.users
    if len(users) != 1 or users[0].name != "ttnn.from_device":
        return None
    last = users[0]
    if last.results[0].type.resolve() != host.resolve():
        nxt = last.results[0].users
        if len(nxt) != 1 or nxt[0].name != "ttnn.to_layout" or nxt[0].results[0].type.resolve() != host.resolve():
            return None
        last = nxt[0]
    return last


def _to_device_in(module: Any, func: Any, index: int, host: Any, aliaser: LayoutAliaser) -> None:
    """Const-eval function `func` takes argument `index` as `host` and brings it back to its layout
    (`ttnn.to_device`, then `ttnn.to_layout` when tiled) after its `ttnn.get_device`."""
    from ttopt.lowering.trace import get_or_insert_device

    block = func.regions[0].entry
    arg = block.args[index]
    if arg.type.resolve() == host.resolve():
        return
    device_type = arg.type
    end = _folds_to_host(arg, host)
    if end is not None:
        chain = [arg.users[0]] + ([end] if end is not arg.users[0] else [])
        end.results[0].replace_all_uses_with(arg)
        for op in reversed(chain):
            op.drop_all_references()
            block.remove(op)
    else:
        users = list(arg.users)
        device = get_or_insert_device(module, block)
        at = block.index(device.op) + 1
        lay = current_layout(device_type)
        rt = device_type.resolve()
        assert lay is not None and isinstance(rt, TensorType)
        rm = aliaser.tensor_type(rt, lay.relayout(ranked_shape(rt), tiled=False))
        new = [Operation("ttnn.to_device", [arg, device], [rm if lay.is_tiled else device_type], location=func.location)]
        if lay.is_tiled:
            new.append(Operation("ttnn.to_layout", [new[0].results[0]], [device_type], location=func.location))
        for i, op in enumerate(new):
            block.insert(at + i, op)
        value = new[-1].results[0]
        for u in users:
            for k, v in enumerate(u.operands):
                if v is arg:
                    u.set_operand(k, value)
    arg.type = host
    update_function_type(func)


def inputs_to_system_memory(module: Any, func: Any, aliaser: LayoutAliaser) -> int:
    """Arguments of `func` read only by `ttcore.load_cached` arrive in system memory, row-major, and
    the const-eval functions move them to the device themselves; returns how many moved."""
    block = func.regions[0].entry
    converted = []
    for a in block.args:
        lay = current_layout(a.type)
        if lay is None or lay.is_system_memory or not a.uses or any(u.name != LOAD_CACHED for u in a.users):
            continue
        a.type = _host_type(a.type, aliaser)
        converted.append(a)
    if not converted:
        return 0
    update_function_type(func)
    funcs = {func_name(f): f for f in module.functions()}
    for a in converted:
        for call in dict.fromkeys(a.users):
            callee = funcs.get(getattr(call.properties.get("callee"), "root", ""))
            if callee is not None:
                _to_device_in(module, callee, next(i for i, v in enumerate(call.operands) if v is a), a.type, aliaser)
    return len(converted)


@register_pass
@dataclass
class ConstEvalInputsToSystemMemory(Pass):
    """Hand const-eval-only arguments over in system memory (tt-mlir's ttnn-const-eval-inputs-to-system-memory)."""

    name = "ttnn-const-eval-inputs-to-system-memory"
    summary = ("Arguments read only by ttcore.load_cached become row-major system-memory tensors; each const-eval "
               "function moves them to the device (ttnn.to_device, ttnn.to_layout)")  # fmt: skip

    def run(self, module: Module, ctx: PassContext) -> None:
        from ttopt.lowering.trace import is_forward

        aliaser = LayoutAliaser(module)
        count = sum(inputs_to_system_memory(module, f, aliaser) for f in list(module.functions()) if is_forward(f))
        ctx.stats.setdefault(self.name, {})["host-arguments"] = count
