"""The analysis pipeline (seed 002 §3.1, reference §2.1-2.4) on small functions."""

from __future__ import annotations

from ttopt.device import layout_info
from ttopt.dialects.ttcore_attrs import DataType
from ttopt.optimizer.analyses import forward_functions, op_labels
from ttopt.optimizer.overrides import parse_output_layout_overrides
from ttopt.parse.parser import parse_module

D = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
T = f"tensor<64x64xbf16, {D}>"


def _fn(make_fn, body: str, args: int = 2, **kw):
    params = ", ".join(f"%a{i}: {T}" for i in range(args))
    text = f'func.func @f({params}) -> {T} attributes {{tt.function_type = "forward_device"}} {{\n{body}\n}}\n'
    return make_fn(text, **kw)


MATMUL = f"""  %0 = "ttnn.matmul"(%a0, %a1) : ({T}, {T}) -> {T} loc("mm")
  %1 = "ttnn.rms_norm"(%0) <{{epsilon = 1.000000e-05 : f32}}> : ({T}) -> {T} loc("norm")
  return %1 : {T}"""


def _short(cfgs) -> list[str]:
    return [layout_info(c.output).short().split(" [")[0] for c in cfgs]


def test_legal_configs_order_and_defaults(make_fn) -> None:
    fn = _fn(make_fn, MATMUL)
    a = fn.analyses
    assert a.scalar_types == {DataType.BF16}
    assert ((64, 64), DataType.BF16) in a.tensor_types
    mm = a.legal[fn.ops[0]]
    # Reference §2.2's 64x64 pool: DRAM, L1, then B2x2, B1x2, B2x1, H2x1, W1x2, B1x1, H1x1, W1x1.
    assert _short(mm.configs[:2]) == ["dram interleaved 1x1", "l1 interleaved 8x8"]
    assert _short(mm.sharded)[:4] == ["l1 block_sharded 2x2", "l1 block_sharded 1x2", "l1 block_sharded 2x1", "l1 height_sharded 2x1"]
    assert all(c.matmul is not None for c in mm.sharded)  # one derived program config per sharded layout
    assert mm.configs[0].matmul is None
    assert layout_info(mm.default_layout()).short().startswith("dram interleaved")
    # rms_norm: a sharded output must copy a sharded input, so its sharded configs are legal only
    # mid-chain (operand 0 in the same spec); the analysis keeps them.
    norm = a.legal[fn.ops[1]]
    assert norm.sharded and all(layout_info(c.output).memory_layout.value in ("width_sharded", "block_sharded") for c in norm.sharded)


def test_max_legal_layouts(make_fn) -> None:
    assert len(_fn(make_fn, MATMUL, max_legal_layouts=3).analyses.legal.values().__iter__().__next__().sharded) == 3
    fn0 = _fn(make_fn, MATMUL, max_legal_layouts=0)
    assert all(not info.sharded for info in fn0.analyses.legal.values())
    # As in tt-mlir's LegalOpLayoutAnalysis, 0 caps only the sharded layouts: both interleaved stay legal.
    assert _short(fn0.analyses.legal[fn0.ops[0]].configs) == ["dram interleaved 1x1", "l1 interleaved 8x8"]


def test_overrides_pin_or_filter(make_fn) -> None:
    ov = parse_output_layout_overrides(["mm=2x2:l1:block_sharded:tile", "norm=width_sharded"])
    fn = _fn(make_fn, MATMUL, overrides=ov)
    mm, norm = (fn.analyses.legal[op] for op in fn.ops)
    assert _short(mm.configs) == ["l1 block_sharded 2x2"]
    assert _short(norm.configs) == ["l1 width_sharded 1x2", "l1 width_sharded 1x1"] and norm.sharded == norm.configs
    assert norm.default_config() is norm.configs[0]
    # rms_norm cannot turn the pinned block-sharded input into an L1-interleaved output: no config.
    ov = parse_output_layout_overrides(["mm=2x2:l1:block_sharded:tile", "norm=l1:interleaved"])
    norm = _fn(make_fn, MATMUL, overrides=ov).analyses.legal
    assert [i.note for i in norm.values()][1] == "no legal layout matches override norm=l1:interleaved"


def test_effective_inputs_use_producers_default_layout(make_fn) -> None:
    fn = _fn(make_fn, MATMUL)
    (norm_in,) = fn.analyses.effective_inputs(fn.ops[1])
    assert layout_info(norm_in).short().startswith("dram interleaved")


def test_conv_configs_enumerate_conv_configs_outermost(root, make_fn) -> None:
    fn = make_fn((root / "testdata/optimizer/conv2d_chain.mlir").read_text())
    conv = next(op for op in fn.ops if op.name == "ttnn.conv2d")
    cfgs = fn.analyses.legal[conv].configs
    blocks = [c.conv2d.act_block_h_override for c in cfgs]
    n = len(cfgs) // 3
    assert blocks == [0] * n + [64] * n + [32] * n  # reference §2.4: for each conv config, all layouts
    assert all(c.conv2d.deallocate_activation and c.conv2d.weights_dtype == "bf16" for c in cfgs)


def test_forward_functions_marked_else_public() -> None:
    text = f"""func.func @a(%x: {T}) -> {T} {{
  return %x : {T}
}}
func.func private @b(%x: {T}) -> {T} {{
  return %x : {T}
}}
"""
    m = parse_module(text, "t.mlir")
    assert [f.properties["sym_name"].value for f in forward_functions(m)] == ["a"]
    marked = text.replace("func.func private @b", 'func.func @c(%y: ' + T + ') -> ' + T + ' attributes {tt.function_type = "forward_device"} {\n  return %y : ' + T + '\n}\nfunc.func private @b')
    m2 = parse_module(marked, "t.mlir")
    assert [f.properties["sym_name"].value for f in forward_functions(m2)] == ["c"]


def test_op_labels() -> None:
    m = parse_module(f'func.func @f(%x: {T}) -> {T} {{\n  %0 = "ttnn.relu"(%x) : ({T}) -> {T} loc("r")\n  %1 = "ttnn.exp"(%0) : ({T}) -> {T}\n  return %1 : {T}\n}}\n', "t.mlir")
    ops = m.functions()[0].regions[0].entry.ops
    assert list(op_labels(ops).values()) == ["r", "exp#1", "return#2"]


def test_a_row_major_op_on_a_row_major_operand_keeps_its_layout(make_fn) -> None:
    rm = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64xsi32, #ttnn.buffer_type<dram>>, <interleaved>>"
    t = f"tensor<64x64xsi32, {rm}>"
    text = (f'func.func @f(%a0: {t}) -> {t} attributes {{tt.function_type = "forward_device"}} {{\n'
            f'  %0 = "ttnn.reshape"(%a0) <{{shape = [64 : i32, 64 : i32]}}> : ({t}) -> {t}\n'
            f"  return %0 : {t}\n}}\n")  # fmt: skip
    fn = make_fn(text)
    legal = fn.analyses.legal[fn.ops[0]]
    assert legal.fixed and "row-major" in legal.note  # its kernel keeps the operand's page layout


def test_a_const_eval_result_reads_as_its_type_layout(make_fn) -> None:
    # A load_cached with two results (a conv's weight and bias, say) has no single layout of its own.
    text = (f'func.func private @f_const_eval_0(%a: {T}) -> ({T}, {T}) attributes {{tt.function_type = "const_eval"}} {{\n'
            f'  %0 = "ttnn.relu"(%a) : ({T}) -> {T}\n  return %0, %0 : {T}, {T}\n}}\n'
            f'func.func @f(%a0: {T}, %a1: {T}) -> {T} attributes {{tt.function_type = "forward_device"}} {{\n'
            f'  %0:2 = ttcore.load_cached(@f_const_eval_0, [%a1]) : ({T}) -> ({T}, {T})\n'
            f'  %1 = "ttnn.matmul"(%a0, %0#0) : ({T}, {T}) -> {T}\n'
            f"  return %1 : {T}\n}}\n")  # fmt: skip
    fn = make_fn(text)
    mm = next(op for op in fn.ops if op.name == "ttnn.matmul")
    assert fn.analyses.effective_inputs(mm) is not None  # the cached weight's layout is its type's
    assert not fn.analyses.legal[mm].fixed
