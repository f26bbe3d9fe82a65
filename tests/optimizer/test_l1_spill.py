"""`ttnn-greedy-l1-spill-management`: the alias-aware L1 accounting, the farthest-last-use eviction,
and the rewrites (spill after the producer, reshards for consumers already visited, demotion of an
op that cannot fit alone, the function type following a spilled result)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.ir.diagnostics import Diagnostic
from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.l1_spill_tracker import L1Tracker
from ttopt.optimizer.l1_spill_views import is_aliasing_view
from ttopt.parse.parser import parse_module
from ttopt.testing.ttnn_outputs import run_pipeline

PIPELINE = "builtin.module(ttcore-register-device, ttcore-mark-functions-as-forward, ttnn-greedy-l1-spill-management)"
KIB64 = 64 * 1024
# An eltwise op on two of these tensors in L1 (tt-mlir's wormhole desc, per core): relu 64 KiB in +
# 64 KiB out + 8 KiB of CBs; add from DRAM 64 KiB out + 12 KiB of CBs. Usable L1 1498112 B x cap.
RELU_PEAK = 139264
ADD_PEAK = 77824

HEADER = """
#dram = #ttnn.buffer_type<dram>
#l1 = #ttnn.buffer_type<l1>
#d2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#l2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#l3 = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 2048 + d1, d2), <1x1>, memref<64x32x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
#c2 = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<128x16x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>
"""
T = "tensor<2048x1024xbf16, #d2>"
L = "tensor<2048x1024xbf16, #l2>"
ARGS = f"%a: {T}, %b: {T}, %c: {T}, %d: {T}"


def fork(view: bool, cap: str = "1.400000e-01") -> str:
    """p forks into relu r1 and a reshape v read again at the end; t is made while both are live.
    `view`: the reshape keeps the last dim (a view of p's buffer), else it is a copy."""
    if view:
        vt, shape = "tensor<1x2048x1024xbf16, #l3>", "[1 : i32, 2048 : i32, 1024 : i32]"
    else:
        vt, shape = "tensor<4096x512xbf16, #c2>", "[4096 : i32, 512 : i32]"
    return HEADER + f"""
module attributes {{ttnn.tensor_l1_usage_cap = {cap} : f32}} {{
  func.func @fork({ARGS}) -> ({L}, {L}, {vt}) {{
    %p = "ttnn.add"(%a, %b) : ({T}, {T}) -> {L} loc("p")
    %v = "ttnn.reshape"(%p) <{{shape = {shape}}}> : ({L}) -> {vt} loc("v")
    %t = "ttnn.add"(%c, %d) : ({T}, {T}) -> {L} loc("t")
    %r1 = "ttnn.relu"(%p) : ({L}) -> {L} loc("r1")
    %r2 = "ttnn.relu"(%t) : ({L}) -> {L} loc("r2")
    %r3 = "ttnn.relu"(%v) : ({vt}) -> {vt} loc("r3")
    return %r1, %r2, %r3 : {L}, {L}, {vt}
  }}
}}
"""


def ops(module: Any, name: str | None = None) -> list[Any]:
    fn = next(f for f in module.functions() if f.regions and f.regions[0].blocks)
    return [op for op in fn.regions[0].entry.ops if name is None or op.name == name]


def loc(op: Any) -> str | None:
    return op.location.name if op.location is not None else None


def buffer(v: Any) -> str:
    return current_layout(v.type.resolve()).buffer_type.value


# ---------------------------------------------------------------------------------------------
# The tracker: a view shares its source's buffer.


def test_a_view_is_counted_once_and_freed_with_its_last_holder() -> None:
    p, v, t = object(), object(), object()
    tr = L1Tracker()
    tr.add(p, KIB64)
    assert tr.add_view(v, p)
    tr.add(t, KIB64)
    assert tr.occupied == 2 * KIB64
    # relu(p) reads p's buffer: only t is additional.
    assert tr.additional_l1([p]) == KIB64
    # reading p and its view subtracts the buffer once.
    assert tr.additional_l1([p, v]) == KIB64
    assert tr.remove(p) == 0 and tr.occupied == 2 * KIB64  # v still holds it
    assert tr.remove(v) == KIB64 and tr.occupied == KIB64
    assert not tr.add_view(object(), p)  # p is dead: nothing to alias


def test_alias_aware_accounting_is_what_lets_the_forked_relu_fit() -> None:
    budget = int(0.14 * 1498112)
    aware, double = L1Tracker(), L1Tracker()
    p, v, t = object(), object(), object()
    for tr in (aware, double):
        tr.add(p, KIB64)
        tr.add(t, KIB64)
    aware.add_view(v, p)
    double.add(v, KIB64)  # the view counted as a buffer of its own
    assert RELU_PEAK + aware.additional_l1([p]) == 204800 <= budget
    assert RELU_PEAK + double.additional_l1([p]) == 270336 > budget


def test_the_victim_is_the_value_used_farthest_ahead() -> None:
    a, b, c = object(), object(), object()
    tr = L1Tracker()
    for x in (a, b, c):
        tr.add(x, KIB64)
    last = {id(a): 7, id(b): 9, id(c): 4}
    assert tr.farthest_victim(last) is b
    assert tr.farthest_victim(last, keep={id(b)}) is a
    tie = L1Tracker()
    tie.add(c, 1)
    tie.add(a, 1)
    assert tie.farthest_victim({id(a): 3, id(c): 3}) is c  # ties: the one live first
    assert L1Tracker().farthest_victim({}) is None


def test_views_as_tt_metal_runs_them() -> None:
    m = parse_module(fork(view=True), "v.mlir")
    assert [is_aliasing_view(op) for op in ops(m)[:2]] == [False, True]
    m = parse_module(fork(view=False), "c.mlir")
    assert not is_aliasing_view(ops(m)[1])


# ---------------------------------------------------------------------------------------------
# The pass.


def test_a_view_of_a_forked_producer_spills_nothing() -> None:
    m = run_pipeline(fork(view=True), "fork.mlir", PIPELINE)
    assert not ops(m, "ttnn.to_memory_config")
    assert all(buffer(op.results[0]) == "l1" for op in ops(m) if op.name != "func.return")


def test_a_copy_is_a_second_buffer_and_the_farthest_use_is_spilled() -> None:
    m = run_pipeline(fork(view=False), "fork.mlir", PIPELINE)
    names = [op.name.split(".")[1] for op in ops(m)]
    assert names == ["add", "reshape", "to_memory_config", "add", "relu", "relu", "relu", "return"]
    spill = ops(m, "ttnn.to_memory_config")[0]
    assert spill.operands[0].op.name == "ttnn.reshape" and buffer(spill.results[0]) == "dram"
    r3 = ops(m)[6]
    assert r3.operands[0] is spill.results[0] and buffer(r3.results[0]) == "l1"


def past_consumer(cap: str) -> str:
    return HEADER + f"""
module attributes {{ttnn.tensor_l1_usage_cap = {cap} : f32}} {{
  func.func @past({ARGS}) -> ({L}, {L}, {L}) {{
    %p = "ttnn.add"(%a, %b) : ({T}, {T}) -> {L} loc("p")
    %x = "ttnn.relu"(%p) : ({L}) -> {L} loc("x")
    %t = "ttnn.add"(%c, %d) : ({T}, {T}) -> {L} loc("t")
    %y = "ttnn.relu"(%p) : ({L}) -> {L} loc("y")
    return %x, %y, %t : {L}, {L}, {L}
  }}
}}
"""


def test_an_evicted_value_is_resharded_for_the_consumer_already_visited() -> None:
    # Budget 140822 B: relu(p) fits alone (139264) but add t next to p does not (77824 + 65536).
    m = run_pipeline(past_consumer("9.400000e-02"), "past.mlir", PIPELINE)
    p, spill, reshard, x, t, y, _ = ops(m)
    assert (spill.name, reshard.name) == ("ttnn.to_memory_config", "ttnn.to_memory_config")
    assert spill.operands[0] is p.results[0] and buffer(spill.results[0]) == "dram"
    assert reshard.operands[0] is spill.results[0] and x.operands[0] is reshard.results[0]
    assert reshard.results[0].type.resolve() == p.results[0].type.resolve()
    assert y.operands[0] is spill.results[0]  # a later consumer reads DRAM
    assert t.name == "ttnn.add" and buffer(t.results[0]) == "l1"


def test_with_room_for_both_nothing_moves() -> None:
    m = run_pipeline(past_consumer("1.000000e-01"), "past.mlir", PIPELINE)
    assert not ops(m, "ttnn.to_memory_config")


def test_an_op_that_cannot_fit_alone_is_demoted_and_the_function_type_follows() -> None:
    # Budget 74905 B: the add's own peak (77824) does not fit; relu from DRAM (73728) does.
    m = run_pipeline(past_consumer("5.000000e-02"), "alone.mlir", PIPELINE)
    assert not ops(m, "ttnn.to_memory_config")
    p, x, t, y, ret = ops(m)
    assert buffer(p.results[0]) == "dram" and buffer(t.results[0]) == "dram"
    assert buffer(x.results[0]) == "l1" and buffer(y.results[0]) == "l1"
    fn = next(iter(m.functions()))
    results = fn.properties["function_type"].type.results
    assert [current_layout(r).buffer_type.value for r in results] == ["l1", "l1", "dram"]


def test_a_bad_cap_is_an_error_at_the_module() -> None:
    with pytest.raises(Diagnostic) as e:
        run_pipeline(past_consumer("2.000000e+00"), "cap.mlir", PIPELINE)
    assert "ttnn.tensor_l1_usage_cap must be in (0, 1], got 2" in e.value.message
    assert e.value.pos is not None


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 4096), st.integers(0, 9)), min_size=1, max_size=30))
def test_occupied_is_the_distinct_buffers_of_the_live_values(steps: list[tuple[int, int, int]]) -> None:
    """Random adds, views and removals: `occupied` is always the bytes of the buffers some live
    value holds, each once, and `additional_l1` never exceeds it."""
    tr = L1Tracker()
    values: list[object] = []
    made: list[object] = []  # every value stays referenced: ids are never reused
    buffer_of: dict[int, int] = {}  # value -> the number of the buffer it holds
    size: list[int] = []
    for kind, n, pick in steps:
        if kind == 0 or not values:
            v = object()
            tr.add(v, n)
            buffer_of[id(v)] = len(size)
            size.append(n)
        elif kind == 1:
            src = values[pick % len(values)]
            v = object()
            assert tr.add_view(v, src)
            buffer_of[id(v)] = buffer_of[id(src)]
        else:
            tr.remove(values.pop(pick % len(values)))
            v = None
        if v is not None:
            values.append(v)
            made.append(v)
        held = {buffer_of[id(v)] for v in values}
        assert tr.occupied == sum(size[b] for b in held)
        assert 0 <= tr.additional_l1(values[:2]) <= tr.occupied
    for v in values:
        tr.remove(v)
    assert tr.occupied == 0 and len(tr) == 0
