"""IR core: use lists, rewriter API, value naming as MLIR prints it, alias handling."""

from __future__ import annotations

import pytest

from ttopt.ir import rewriter
from ttopt.ir.attributes import AliasRef, DialectAttr, IntegerAttr
from ttopt.ir.location import Location
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.types import ScalarType, TensorType
from ttopt.parse.parser import parse_module

SRC = """func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def _func_body(m):
    return m.functions()[0].regions[0].entry


def test_use_lists_and_replace() -> None:
    m = parse_module(SRC)
    abs_op, add_op, ret = _func_body(m).ops
    assert abs_op.result.uses == [add_op, add_op]
    neg = rewriter.create("stablehlo.negate", [abs_op.result], [abs_op.result.type], after=abs_op)
    abs_op.result.replace_all_uses_with(neg.result, except_in=neg)
    assert add_op.operands == [neg.result, neg.result]
    assert abs_op.result.uses == [neg]
    assert "%1 = stablehlo.negate %0" in print_module(m)


def test_insert_before_erase_and_set_operand() -> None:
    m = parse_module(SRC)
    abs_op, add_op, ret = _func_body(m).ops
    t = TensorType((4,), ScalarType("f32"))
    c = rewriter.create("x.new", [], [t], before=abs_op, location=Location.named("made"))
    add_op.set_operand(1, c.result)
    assert c.result.uses == [add_op] and abs_op.result.uses == [add_op]
    with pytest.raises(ValueError):
        abs_op.erase()  # still used
    rewriter.replace_op(add_op, [c.result])
    assert ret.operands == [c.result]
    abs_op.erase()
    text = print_module(m, PrintOptions(debuginfo=True))
    assert '%0 = "x.new"() : () -> tensor<4xf32> loc("made")' in text
    assert "return %0" in text


def test_reorder_block_checks_permutation() -> None:
    m = parse_module(SRC)
    block = _func_body(m)
    with pytest.raises(ValueError):
        rewriter.reorder_block(block, block.ops[:1])
    rewriter.reorder_block(block, list(block.ops))


def test_names_follow_mlir() -> None:
    """Source names are not kept (MLIR renumbers); op-provided names are uniqued with one counter."""
    m = parse_module(
        "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n"
        "  %c = stablehlo.constant dense<1> : tensor<i32>\n"
        "  %z = stablehlo.constant dense<1.0> : tensor<f32>\n"
        "  %w = stablehlo.constant dense<2> : tensor<i32>\n"
        "  %v = stablehlo.add %x, %z : tensor<f32>\n"
        "  return %v : tensor<f32>\n}\n"
    )
    out = print_module(m)
    assert "%c = stablehlo.constant dense<1>" in out
    assert "%cst = stablehlo.constant dense<1.000000e+00>" in out
    assert "%c_0 = stablehlo.constant dense<2>" in out
    assert "%0 = stablehlo.add %arg0, %cst" in out


def test_alias_kept_and_new_alias_added() -> None:
    m = parse_module("#l1 = #ttnn.buffer_type<l1>\nfunc.func @f(%a: tensor<4xf32, #l1>) {\n  return\n}\n")
    ref = m.aliases.add_attr("l1", DialectAttr("ttnn.buffer_type", "l1", "#ttnn.buffer_type<l1>"))
    assert isinstance(ref, AliasRef) and ref.name == "l1"  # same text: reused
    ref2 = m.aliases.add_attr("l1", IntegerAttr(3))
    assert ref2.name == "l11"
    out = print_module(m)
    assert out.startswith("#l1 = #ttnn.buffer_type<l1>\n#l11 = 3\n")
    assert "#ttnn.buffer_type<l1>>" in print_module(m, PrintOptions(local_scope=True))


def test_type_equality_sees_through_aliases() -> None:
    m = parse_module(
        "#l = #ttnn.buffer_type<l1>\n"
        "func.func @f(%a: tensor<4xf32, #l>) -> tensor<4xf32, #ttnn.buffer_type<l1>> {\n"
        "  return %a : tensor<4xf32, #ttnn.buffer_type<l1>>\n}\n"
    )
    arg = m.functions()[0].regions[0].entry.args[0]
    ret = m.functions()[0].regions[0].entry.ops[-1]
    assert arg.type.text != ret.operands[0].type.text or arg.type == ret.operands[0].type


def test_location_names_follow_aliases() -> None:
    m = parse_module('"x.y"() : () -> () loc(#loc1)\n#loc0 = loc("inner")\n#loc1 = loc(callsite(#loc0 at "f.py":1:2))\n')
    op = m.body.ops[0]
    assert op.location.name == "inner"


def test_parsed_and_built_layouts_compare_equal() -> None:
    """Equality expands aliases, also inside dialect bodies (`#dram` in the memref)."""
    from ttopt.dialects.ttnn_attrs import BufferType
    from ttopt.dialects.ttnn_layout import TTNNLayoutAttr

    m = parse_module(
        "#dram = #ttnn.buffer_type<dram>\n"
        "#lay = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<2x2x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>\n"
        "func.func @f(%a: tensor<64x64xbf16, #lay>) {\n  return\n}\n"
    )
    parsed = m.functions()[0].regions[0].entry.args[0].type
    built = TTNNLayoutAttr.build((64, 64), "bf16", buffer_type=BufferType.DRAM)
    assert parsed.encoding.typed == built
    assert parsed == parsed.with_encoding(DialectAttr.of(built))
    assert hash(parsed) == hash(parsed.with_encoding(DialectAttr.of(built)))


def test_successors_resolve_to_blocks_and_print() -> None:
    text = (
        '"test.op"() ({\n'
        '  "test.br"()[^bb1] : () -> ()\n'
        "^bb1:\n"
        '  "test.cond"()[^bb1, ^bb2] : () -> ()\n'
        "^bb2:\n"
        '  "test.ret"() : () -> ()\n'
        "}) : () -> ()\n"
    )
    m = parse_module(text)
    region = m.body.ops[0].regions[0]
    br = region.blocks[0].ops[0]
    assert br.successors == [region.blocks[1]]
    out = print_module(m)
    assert '"test.br"()[^bb1] : () -> ()' in out and '"test.cond"()[^bb1, ^bb2]' in out
    assert print_module(parse_module(out)) == out


def test_undefined_successor_is_a_diagnostic() -> None:
    from ttopt.ir.diagnostics import Diagnostic

    with pytest.raises(Diagnostic, match="undefined block '\\^bb7'"):
        parse_module('"test.op"() ({\n  "test.br"()[^bb7] : () -> ()\n}) : () -> ()\n')


def test_verifier_rejects_values_that_are_not_visible() -> None:
    from ttopt.ir.diagnostics import Diagnostic
    from ttopt.ir.verifier import verify

    m = parse_module(
        "func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
        "func.func @b(%y: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.abs %y : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n"
    )
    a, b = m.functions()
    abs_op = b.regions[0].entry.ops[0]
    abs_op.set_operand(0, a.regions[0].entry.args[0])  # a value of another function
    with pytest.raises(Diagnostic, match="not visible"):
        verify(m)


def test_verifier_checks_entry_args_against_function_type() -> None:
    from ttopt.ir.diagnostics import Diagnostic
    from ttopt.ir.verifier import verify

    m = parse_module("func.func @a(%x: tensor<2xf32>) {\n  return\n}\n")
    m.functions()[0].regions[0].entry.args[0].type = TensorType((4,), ScalarType("f32"))
    with pytest.raises(Diagnostic, match="entry block arguments"):
        verify(m)


def test_use_lists_stay_exact_through_edits() -> None:
    from ttopt.ir.verifier import verify

    m = parse_module(SRC)
    block = _func_body(m)
    abs_op, add_op, ret = block.ops
    clone = abs_op.clone()
    rewriter.insert_after(abs_op, clone)
    add_op.set_operands([clone.result, abs_op.result])
    new_order = [clone, abs_op, add_op, ret]
    rewriter.rebuild_block(block, new_order)
    verify(m, check_uses=True)
    assert [o.name for o in block.ops] == ["stablehlo.abs", "stablehlo.abs", "stablehlo.add", "func.return"]


def test_unranked_tensors_and_hex_floats() -> None:
    m = parse_module(
        '"t.op"() {a = 0xFF800000 : f32, b = 0x3F80 : bf16, c = 0x10 : i64, d = 1 : i1} : () -> ()\n'
        "func.func @u(%a: tensor<*xf32>) -> tensor<*xf32> {\n  return %a : tensor<*xf32>\n}\n"
    )
    attrs = m.body.ops[0].attributes
    assert attrs["a"].value == float("-inf") and attrs["b"].value == 1.0
    out = print_module(m)
    assert "c = 16 : i64" in out and "d = true" in out
    t = m.functions()[0].regions[0].entry.args[0].type
    assert t.rank == -1 and t.text == "tensor<*xf32>"
    assert t != TensorType((None,), ScalarType("f32"))


def test_aliases_written_after_the_module_print_before_it() -> None:
    m = parse_module('"test.op"() {x = tensor<4xf32>} : () -> ()\n#enc = #test.x<1>\n')
    out = print_module(m)
    assert out.startswith("#enc = #test.x<1>\n")
    assert print_module(parse_module(out)) == out
    from ttopt.ir.diagnostics import Diagnostic

    # MLIR resolves an attribute alias where it is used: it must be defined before
    with pytest.raises(Diagnostic, match="undefined symbol alias id 'enc'"):
        parse_module('"test.op"() {x = tensor<4xf32, #enc>} : () -> ()\n#enc = #test.x<1>\n')


def test_array_elements_elide_default_types() -> None:
    out = print_module(parse_module('"t.op"() {a = [3, 1.5, 2 : i32]} : () -> ()\n'))
    assert "a = [3, 1.500000e+00, 2 : i32]" in out
