"""L1InterleavedFallbackAnalysis (reference §2.11): DRAM ops upgraded to L1 interleaved after the
policy, under upstream's conditions, checked with the op model (and the L1 alive across them)."""

from __future__ import annotations

from ttnn_graphs import HEAD, T, module  # tests/optimizer/ttnn_graphs.py (on sys.path via conftest)

from ttopt.optimizer.analyses import current_layout
from ttopt.optimizer.l1_interleaved_fallback import is_conv2d_as_matmul, is_view_reshape, run_l1_interleaved_fallback
from ttopt.optimizer.policies import LayoutDecisions
from ttopt.optimizer.rewrite import LayoutAliaser, apply_decisions


def fallback(make_fn, text: str, cap: float | None = None, decisions: LayoutDecisions | None = None):
    """The analyses, the default (all-DRAM) decisions written into the IR, then the fallback."""
    fn = make_fn(text, cap=cap)
    aliaser = LayoutAliaser(fn.module)
    apply_decisions(fn.module, fn, decisions or LayoutDecisions(), aliaser)
    out = run_l1_interleaved_fallback(fn, aliaser)
    where = {fn.labels[op]: ("l1" if current_layout(op.results[0].type).is_l1 else "dram") for op in fn.ops}
    return fn, {fn.labels[d.op]: d for d in out}, where


def test_chain_of_adds_all_but_the_returned(make_fn) -> None:
    text = module(["a1 = add(x0, x1)", "a2 = add(a1, x1)", "a3 = add(a2, x1)", "a4 = add(a3, x1)"], 2, ["a4"])
    fn, out, where = fallback(make_fn, text)
    assert where == {"a1": "l1", "a2": "l1", "a3": "l1", "a4": "dram"}
    assert out["a4"].reason == "its result is returned"
    # Upgraded ops only changed their result types: no op was inserted.
    assert [op.name for op in fn.block.ops] == ["ttnn.add"] * 4 + ["func.return"]
    # a2 was validated with a1 already in L1, and a3 reads a2 from L1.
    assert current_layout(fn.block.ops[2].operands[0].type).is_l1


def test_operand_and_result_do_not_fit(make_fn) -> None:
    """Usable 200 KiB: r1's L1 output (128 KiB) fits next to its DRAM input, but r2 would need its
    L1 input and its own L1 output (256 KiB): r2 stays in DRAM, r1 is upgraded."""
    text = module(["r1 = relu(x0)", "r2 = exp(r1)", "r3 = neg(r2)"], 1, ["r3"])
    fn, out, where = fallback(make_fn, text, cap=0.1367)
    assert fn.analyses.device.usable_l1 < 2 * 131072
    assert where == {"r1": "l1", "r2": "dram", "r3": "dram"}
    assert "does not validate with an L1-interleaved output" in out["r2"].reason
    assert "exceeds usable" in out["r2"].reason


def test_fork_stays_dram(make_fn) -> None:
    """a has two uses; b's user is not the next op (c runs in between); c feeds the join next."""
    text = module(["a = relu(x0)", "b = exp(a)", "c = neg(a)", "d = add(b, c)", "e = relu(d)"], 1, ["e"])
    fn, out, where = fallback(make_fn, text)
    assert where == {"a": "dram", "b": "dram", "c": "l1", "d": "l1", "e": "dram"}
    assert out["a"].reason == "2 uses (needs exactly one)"
    assert out["b"].reason == "its user is not the next op"


def test_excluded_ops_and_users(make_fn) -> None:
    """matmul is never upgraded, nor an op feeding a matmul or a typecast."""
    text = module(["m = matmul(x0, x1)", "g = gelu(m)", "h = relu(g)", "k = matmul(h, x1)", "o = relu(k)"], 2, ["o"])
    text = text.replace('"ttnn.matmul"(%x0, %x1)', '"ttnn.matmul"(%x0, %x1) <{transpose_a = false, transpose_b = false}>')
    text = text.replace('"ttnn.matmul"(%h, %x1)', '"ttnn.matmul"(%h, %x1) <{transpose_a = false, transpose_b = false}>')
    fn, out, where = fallback(make_fn, text)
    assert where["m"] == "dram" and out["m"].reason == "ttnn.matmul is excluded"
    assert where["g"] == "l1"
    assert where["h"] == "dram" and out["h"].reason == "its user ttnn.matmul is excluded"


def test_view_reshape(make_fn) -> None:
    """A reshape keeping the last dim (2048 and 1x2048 rows, both tile aligned) is a view: it is not
    moved off DRAM, and its producer stays in DRAM so the view is free."""
    R = "tensor<1x2048x2048xbf16, #R>"
    text = HEAD + f"""module {{
  func.func @forward(%x: {T}) -> {R} attributes {{tt.function_type = "forward_device"}} {{
    %0 = "ttnn.relu"(%x) : ({T}) -> {T} loc("r")
    %1 = "ttnn.reshape"(%0) <{{shape = [1 : i32, 2048 : i32, 2048 : i32]}}> : ({T}) -> {R} loc("v")
    %2 = "ttnn.relu"(%1) : ({R}) -> {R} loc("s")
    return %2 : {R}
  }}
}}
"""
    fn, out, where = fallback(make_fn, text)
    reshape = next(op for op in fn.ops if op.name == "ttnn.reshape")
    assert is_view_reshape(reshape)
    assert where["r"] == "dram" and out["r"].reason == "feeds a view-like reshape with a DRAM output"
    assert where["v"] == "dram" and out["v"].reason == "a view-like reshape of a DRAM tensor"


def test_conv2d_as_matmul(make_fn, root) -> None:
    fn = make_fn((root / "testdata/optimizer/conv2d_chain.mlir").read_text())
    conv = next(op for op in fn.ops if op.name == "ttnn.conv2d")
    assert not is_conv2d_as_matmul(conv)  # 3x3 kernel


def test_after_dfsharding_spill(make_fn, root) -> None:
    """With a DFSharding plan in the IR, the walk counts the sharded tensors alive across each op
    and never touches the chain's L1 ops or its spill."""
    from ttopt.optimizer.policies.df_sharding import DFShardingPolicy

    text = (root / "testdata/optimizer/linear_chain.mlir").read_text()
    fn = make_fn(text)
    decisions = DFShardingPolicy().run(fn)
    aliaser = LayoutAliaser(fn.module)
    apply_decisions(fn.module, fn, decisions, aliaser)
    before = [str(op.results[0].type) for op in fn.block.ops if op.results]
    out = run_l1_interleaved_fallback(fn, aliaser)
    assert not any(d.upgraded for d in out)
    assert [str(op.results[0].type) for op in fn.block.ops if op.results] == before
