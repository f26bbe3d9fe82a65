"""L1 reservation timeline and the --verify-l1-budget checker."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttopt.device import OpModel, load_device
from ttopt.ir.diagnostics import Diagnostic
from ttopt.optimizer.l1_budget_check import check_l1_budget, verify_l1_budget
from ttopt.optimizer.l1_reservations import L1Reservation, L1ReservationTimeline
from ttopt.optimizer.pass_ import TTNNOptimizer
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext

ROOT = Path(__file__).resolve().parents[2]


def test_active_reservations_per_position() -> None:
    t = L1ReservationTimeline()
    t.add(L1Reservation("a", 1, 3, 100))
    t.add(L1Reservation("b", 2, 5, 10))
    assert [t.active(p) for p in range(7)] == [0, 100, 110, 110, 10, 10, 0]
    assert t.active(2, frozenset({"a"})) == 10


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "testdata/optimizer").glob("merge_*.mlir")))
@pytest.mark.parametrize("merging", [True, False])
def test_merged_output_fits_budget(name: str, merging: bool) -> None:
    text = (ROOT / "testdata/optimizer" / name).read_text()
    cap = 0.6 if "fragmentation" in name else 0.5 if "rejected_l1" in name else None
    module = parse_module(text, name)
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding", chain_merging=merging, tensor_l1_usage_cap=cap).run(module, PassContext())
    device = load_device(None, module, cap=cap)
    func = next(op for op in module.walk() if op.name == "func.func")
    assert check_l1_budget(func.regions[0].entry, OpModel(device)) is None


def test_checker_reports_first_violating_position() -> None:
    text = (ROOT / "testdata/optimizer/merge_3way_fragmentation.mlir").read_text()
    module = parse_module(text, "t.mlir")
    TTNNOptimizer(memory_layout_analysis_enabled=True, memory_layout_analysis_policy="DFSharding", tensor_l1_usage_cap=0.6).run(module, PassContext())
    # The same IR replayed against a much smaller budget: the first op over it is named.
    device = load_device(None, module, cap=0.2)
    block = next(op for op in module.walk() if op.name == "func.func").regions[0].entry
    v = check_l1_budget(block, OpModel(device))
    assert v is not None and v.used > v.budget
    with pytest.raises(Diagnostic, match=r"--verify-l1-budget: L1 budget exceeded at schedule position \d+ \('"):
        verify_l1_budget(block, OpModel(device))


@given(st.lists(st.tuples(st.integers(-1, 300), st.integers(0, 60), st.sampled_from("abcde"), st.integers(1, 4096)), max_size=40),
       st.lists(st.tuples(st.integers(-3, 400), st.frozensets(st.sampled_from("abcde"), max_size=2)), max_size=20))  # fmt: skip
def test_timeline_sums_match_a_scan(adds: list, queries: list) -> None:
    """The Fenwick-tree timeline answers what a scan over every reservation answers."""
    t = L1ReservationTimeline()
    rs = []
    for start, length, src, size in adds:
        r = L1Reservation(src, start, start + length, size)
        t.add(r)
        rs.append(r)
        for pos, exclude in queries:
            want = sum(x.bytes for x in rs if x.start <= pos <= x.end and x.source not in exclude)
            assert t.active(pos, exclude) == want
