"""The tile program of a fused chain (FPU binaries through scratch buffers, SFPU ops in DST,
in-tile broadcasts) and the compute kernel's EmitC body."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ttopt.dialects  # noqa: F401  (registers the ops)
from ttopt.ir.printer import print_module
from ttopt.lowering.d2m import kernels as K
from ttopt.lowering.d2m.compile import compute_grid, tile_dims
from ttopt.lowering.d2m.tile_program import TileProgramError, bcast_kind, plan_tiles
from ttopt.parse.parser import parse_module


def _chain(args: list[str], body: list[str], result_type: str) -> tuple[list, list, object]:
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    m = parse_module(f"module {{\n  func.func @f({params}) -> {result_type} {{\n" + "\n".join(body) + "\n  }\n}\n")
    fn = m.op.regions[0].entry.ops[0]
    block = fn.regions[0].entry
    ops = list(block.ops)[:-1]
    return ops, list(block.args), ops[-1].results[0]


T = "tensor<64x64xbf16>"


def test_fpu_binaries_read_circular_buffers_and_spill_intermediates() -> None:
    ops, args, res = _chain([T, T, T], [
        f'    %0 = "ttnn.add"(%a0, %a1) : ({T}, {T}) -> {T}',
        f'    %1 = "ttnn.multiply"(%0, %a2) : ({T}, {T}) -> {T}',
        f"    return %1 : {T}",
    ], T)  # fmt: skip
    prog = plan_tiles(ops, args, res)
    assert prog.calls() == ["add_tiles", "pack_tile", "mul_tiles", "pack_tile"]
    assert prog.num_scratch == 1
    assert [p.kind for p in prog.ports] == ["in", "in", "in", "scratch", "out"]


def test_sfpu_unaries_stay_in_dst() -> None:
    ops, args, res = _chain([T], [
        f'    %0 = "ttnn.abs"(%a0) : ({T}) -> {T}',
        f'    %1 = "ttnn.neg"(%0) : ({T}) -> {T}',
        f'    %2 = "ttnn.exp"(%1) : ({T}) -> {T}',
        f"    return %2 : {T}",
    ], T)  # fmt: skip
    prog = plan_tiles(ops, args, res)
    assert prog.calls() == ["copy_tile", "abs_tile", "negative_tile", "exp_tile", "pack_tile"]
    assert prog.num_scratch == 0


def test_in_tile_broadcasts_expand_into_dst_and_use_the_sfpu() -> None:
    big, col, row = "tensor<1x1x32x128xbf16>", "tensor<1x1x32x1xbf16>", "tensor<1x1x1x128xbf16>"
    ops, args, res = _chain([big, col, row], [
        f'    %0 = "ttnn.add"(%a0, %a1) : ({big}, {col}) -> {big}',
        f'    %1 = "ttnn.multiply"(%0, %a2) : ({big}, {row}) -> {big}',
        f"    return %1 : {big}",
    ], big)  # fmt: skip
    prog = plan_tiles(ops, args, res)
    assert prog.calls() == ["copy_tile", "unary_bcast", "add_binary_tile", "unary_bcast", "mul_binary_tile", "pack_tile"]
    assert [s.template for s in prog.steps if s.fn == "unary_bcast"] == ["BroadcastType::COL", "BroadcastType::ROW"]


def test_broadcast_kinds() -> None:
    assert bcast_kind((32, 1), (32, 128)) == "COL"
    assert bcast_kind((1, 128), (32, 128)) == "ROW"
    assert bcast_kind((1, 1), (32, 128)) == "SCALAR"
    assert bcast_kind((128,), (32, 128)) == "ROW"
    assert bcast_kind((4, 32, 128), (4, 32, 128)) is None


def test_clamp_tensor_is_max_then_min() -> None:
    ops, args, res = _chain(
        [T, T, T],
        [
            f'    %0 = "ttnn.clamp_tensor"(%a0, %a1, %a2) : ({T}, {T}, {T}) -> {T}',
            f"    return %0 : {T}",
        ],
        T,
    )
    assert plan_tiles(ops, args, res).calls() == ["copy_tile", "copy_tile", "binary_max_tile", "copy_tile", "binary_min_tile", "pack_tile"]


def test_an_op_without_a_tile_function_is_an_error() -> None:
    ops, args, res = _chain(
        [T],
        [
            f'    %0 = "ttnn.leaky_relu"(%a0) : ({T}) -> {T}',
            f"    return %0 : {T}",
        ],
        T,
    )
    with pytest.raises(TileProgramError, match="no tile op for ttnn.leaky_relu"):
        plan_tiles(ops, args, res)


def test_compute_kernel_body_runs_the_chain_per_tile_and_reparses() -> None:
    ops, args, res = _chain([T, T, T], [
        f'    %0 = "ttnn.add"(%a0, %a1) : ({T}, {T}) -> {T}',
        f'    %1 = "ttnn.multiply"(%0, %a2) : ({T}, {T}) -> {T}',
        f"    return %1 : {T}",
    ], T)  # fmt: skip
    text = K.compute_kernel("compute_kernel7", plan_tiles(ops, args, res), 4, 4)
    m = parse_module("module {\n" + text + "\n}")
    out = print_module(m)
    assert "func.func private @compute_kernel7() attributes {" in out
    assert "ttkernel.thread = #ttkernel.thread<compute>" in out
    assert out.count('"emitc.for"') == 1  # one loop over the core's tiles
    body = out[out.index('"emitc.for"') :]
    order = [body.index(s) for s in ('"add_tiles_init"', '"add_tiles"(', '"pack_tile"', '"mul_tiles"(', "cb_ctarg_4.push_back")]
    assert order == sorted(order)
    assert 'emitc.call_opaque "binary_op_init_common"' in out
    assert "{value = 4 : index}" in out  # the loop bound


def test_compute_grid_divides_the_tiles() -> None:
    assert tile_dims((64, 128)) == (2, 4)
    assert tile_dims((1, 1, 32, 1)) == (1, 1, 1, 1)
    assert compute_grid((2, 4), (8, 8)) == (2, 4)
    assert compute_grid((3, 3, 10), (8, 8)) == (3, 5)  # 9 tile rows -> 3, 10 tile columns -> 5
    assert compute_grid((256, 256), (8, 8)) == (8, 8)


UNARY = ["abs", "neg", "exp", "relu", "sigmoid", "sqrt"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum"]


def _random_chain(draw_ops: list[tuple[str, int, int]]) -> tuple[list, list, object]:
    """A chain over three inputs: each op reads the previous value and (binary) an earlier value."""
    body, prev = [], "%a0"
    values = ["%a0", "%a1", "%a2"]
    for i, (name, pick, _) in enumerate(draw_ops):
        if name in UNARY:
            body.append(f'    %{i} = "ttnn.{name}"({prev}) : ({T}) -> {T}')
        else:
            other = values[pick % len(values)]
            body.append(f'    %{i} = "ttnn.{name}"({prev}, {other}) : ({T}, {T}) -> {T}')
        prev = f"%{i}"
        values.append(prev)
    body.append(f"    return {prev} : {T}")
    return _chain([T, T, T], body, T)


@given(st.lists(st.tuples(st.sampled_from(UNARY + BINARY), st.integers(0, 20), st.just(0)), min_size=1, max_size=8))
def test_any_chain_plans_within_dst_and_its_kernel_reparses(ops_spec: list[tuple[str, int, int]]) -> None:
    ops, args, res = _random_chain(ops_spec)
    try:
        prog = plan_tiles(ops, args, res)
    except TileProgramError as e:  # more live tiles than DST holds
        assert "live tiles in DST" in str(e)
        return
    calls = prog.calls()
    assert calls[-1] == "pack_tile"
    # every op of the chain has its tile call, in order
    kinds = [c for c in calls if c not in ("copy_tile", "pack_tile", "unary_bcast", "copy_dest_values")]
    assert len(kinds) == len(ops)
    # the acquire/commit/wait/release protocol is balanced
    fns = [s.fn for s in prog.steps]
    assert fns.count("tile_regs_acquire") == fns.count("tile_regs_release") == fns.count("tile_regs_commit")
    text = K.compute_kernel("compute_kernel0", prog, 2, len(prog.ports) + 1)
    assert print_module(parse_module("module {\n" + text + "\n}")).count("emitc.call_opaque") >= len(ops)


def test_two_dst_operands_join_on_the_sfpu() -> None:
    # exp(x) + exp(y): both in DST, packing one for the FPU would lose the other
    ops, args, res = _chain(
        [T, T],
        [
            f'    %0 = "ttnn.exp"(%a0) : ({T}) -> {T}',
            f'    %1 = "ttnn.exp"(%a1) : ({T}) -> {T}',
            f'    %2 = "ttnn.add"(%0, %1) : ({T}, {T}) -> {T}',
            f"    return %2 : {T}",
        ],
        T,
    )
    prog = plan_tiles(ops, args, res)
    assert prog.calls() == ["copy_tile", "exp_tile", "copy_tile", "exp_tile", "add_binary_tile", "pack_tile"]
    assert prog.num_scratch == 0


def test_a_dst_value_read_again_is_copied_before_it_is_overwritten() -> None:
    # x * sigmoid(x) with x = a + b in DST: sigmoid works on a copy (copy_dest_values)
    ops, args, res = _chain(
        [T, T],
        [
            f'    %0 = "ttnn.add"(%a0, %a1) : ({T}, {T}) -> {T}',
            f'    %1 = "ttnn.sigmoid"(%0) : ({T}) -> {T}',
            f'    %2 = "ttnn.multiply"(%0, %1) : ({T}, {T}) -> {T}',
            f"    return %2 : {T}",
        ],
        T,
    )
    prog = plan_tiles(ops, args, res)
    assert prog.calls() == ["add_tiles", "copy_dest_values", "sigmoid_tile", "mul_binary_tile", "pack_tile"]
    copy = next(s for s in prog.steps if s.fn == "copy_dest_values")
    assert copy.args == (("dst", 0), ("dst", 1)) and copy.template == "DataFormat::Float16_b"
    sig = next(s for s in prog.steps if s.fn == "sigmoid_tile")
    assert sig.args == (("dst", 1),)
    mul = next(s for s in prog.steps if s.fn == "mul_binary_tile")
    assert mul.args == (("dst", 0), ("dst", 1), ("dst", 0))


def test_generic_verifier_reads_aliased_programs_and_rejects_missing_kernels() -> None:
    from ttopt.ir.verifier import verify

    lay = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <block_sharded>, core_ranges = <[#ttnn.core_range<(0, 0), (0, 0)>]>>"
    text = f"""#crs = #ttnn.core_range_set<[#ttnn.core_range<(0,0), (0,0)>]>
#k = #ttnn.compute_kernel<
  symbol_ref = @{{K}}, core_ranges = #crs, math_fidelity = hifi4, fp32_dest_acc_en = false, dst_full_sync_en = false,
  unpack_to_dest_modes = [default], bfp8_pack_precise = false, math_approx_mode = false,
  ct_args = [#ttnn.kernel_arg_cb_buffer_index<0>], common_rt_args = [], rt_args = []>
#program = #ttnn.program<kernels = [#k], cbs = [<total_size = 4096, core_ranges = #crs, formats = [<buffer_index = 0, dtype = f32, page_size = 4096>]>], semaphores = []>
module {{
  func.func @f(%a: tensor<32x32xf32, {lay}>, %b: tensor<32x32xf32, {lay}>) {{
    "ttnn.generic"(%a, %b) <{{program = #program, operandSegmentSizes = array<i32: 2, 0>}}> : (tensor<32x32xf32, {lay}>, tensor<32x32xf32, {lay}>) -> ()
    return
  }}
  func.func private @compute_kernel() attributes {{ttkernel.thread = #ttkernel.thread<compute>}} {{
    return
  }}
}}
"""
    verify(parse_module(text.replace("{K}", "compute_kernel")))
    with pytest.raises(Exception, match="compute_kernel @missing is not a function of the module"):
        verify(parse_module(text.replace("{K}", "missing")))
