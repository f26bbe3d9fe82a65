"""The aliases ttopt's passes create are named when printed, as MLIR's printer names them
(ttopt/ir/alias_names.py): numbered per prefix in the order the print meets them (a function's
argument types, its result types, its attributes, then its body; a generic op's regions, operand
types, result types, then attributes by name), shallower ones first. Aliases read from the input,
and the created ones of a prefix the input also uses, keep their names.

A pass's result is simulated by parsing a module whose aliases then count as created
(`_created`): the creation order is the order of their definitions."""

from __future__ import annotations

import importlib.util

import pytest

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module

M = "memref<4xf32"


def _created(text: str, prefixes: dict[str, str] | None = None) -> str:
    """`text` printed after marking some of its aliases as created by a pass: those `prefixes`
    names (alias -> its creation prefix), else every attribute alias, its prefix its name
    without the number."""
    module = parse_module(text)
    scope = module.aliases
    for d in scope:
        if prefixes is None and not d.is_location and d.kind == "attr":
            d.prefix = d.name.rstrip("0123456789")
        elif prefixes is not None and d.name in prefixes:
            d.prefix = prefixes[d.name]
        else:
            continue
        scope.created.append(d)
    return print_module(module)


def _alias_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("#")]


def _mlir(text: str) -> str:  # pragma: no cover - depends on jax being installed
    """MLIR's own print of `text` (jax's context: func and the other dialects registered)."""
    from jax._src.interpreters import mlir as jax_mlir
    from jax._src.lib.mlir import ir

    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return str(ir.Module.parse(text, ctx))


# Imported only by the test that uses it: jax takes seconds to import.
HAS_MLIR = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib") is not None

# Created in an order unlike the print's: the body's first, the result's, the argument's, then
# the function's attribute and the generic op's ones (its attributes listed out of name order).
ORDER = f"""#map = affine_map<(d0) -> (d0 + 7)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#map2 = affine_map<(d0) -> (d0 + 1)>
#map3 = affine_map<(d0) -> (d0 + 3)>
#map4 = affine_map<(d0) -> (d0 + 5)>
#map5 = affine_map<(d0) -> (d0 + 6)>
#map6 = affine_map<(d0) -> (d0 + 4)>
#map7 = affine_map<(d0) -> (d0 + 9)>
module {{
  func.func @f(%arg0: {M}, #map2>) -> {M}, #map1> attributes {{x = #map3}} {{
    %0 = "foo.op"(%arg0) ({{
      "foo.inner"() {{y = #map6}} : () -> ()
    }}) {{b = #map4, a = #map5}} : ({M}, #map2>) -> {M}, #map>
    %1 = "foo.op2"(%0) {{z = [#map7]}} : ({M}, #map>) -> {M}, #map1>
    return %1 : {M}, #map1>
  }}
}}
"""

# What MLIR's printer (jaxlib 0.10.2) prints for ORDER: its aliases renumbered in print order.
ORDER_MLIR = f"""#map = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#map2 = affine_map<(d0) -> (d0 + 3)>
#map3 = affine_map<(d0) -> (d0 + 4)>
#map4 = affine_map<(d0) -> (d0 + 7)>
#map5 = affine_map<(d0) -> (d0 + 6)>
#map6 = affine_map<(d0) -> (d0 + 5)>
#map7 = affine_map<(d0) -> (d0 + 9)>
module {{
  func.func @f(%arg0: {M}, #map>) -> {M}, #map1> attributes {{x = #map2}} {{
    %0 = "foo.op"(%arg0) ({{
      "foo.inner"() {{y = #map3}} : () -> ()
    }}) {{a = #map5, b = #map6}} : ({M}, #map>) -> {M}, #map4>
    %1 = "foo.op2"(%0) {{z = [#map7]}} : ({M}, #map4>) -> {M}, #map1>
    return %1 : {M}, #map1>
  }}
}}
"""


def test_created_aliases_are_numbered_in_print_order() -> None:
    # argument, result, function attribute, the generic op's region, its result type, then its
    # attributes by name (a before b), then the next op's
    assert _created(ORDER) == ORDER_MLIR


def test_aliases_read_from_the_input_keep_their_names() -> None:
    # (the dictionary prints sorted, as MLIR's)
    assert print_module(parse_module(ORDER)) == ORDER.replace("{b = #map4, a = #map5}", "{a = #map5, b = #map4}")


# A generic op's region (its block's argument type), then its result type, then its attribute.
GENERIC = f"""#map = affine_map<(d0) -> (d0 + 3)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#map2 = affine_map<(d0) -> (d0 + 1)>
%0 = "foo.op"() ({{
^bb0(%a: {M}, #map2>):
  "foo.use"(%a) : ({M}, #map2>) -> ()
}}) {{p = #map}} : () -> {M}, #map1>
"""


@pytest.mark.skipif(not HAS_MLIR, reason="jax (MLIR's printer) is not installed")
@pytest.mark.parametrize("text", [ORDER, GENERIC], ids=["func", "generic"])
def test_print_order_is_mlirs(text: str) -> None:
    mlir = _mlir(text)
    assert _created(text) == mlir
    if text is ORDER:
        assert mlir == ORDER_MLIR


def test_a_generic_op_meets_its_regions_then_operand_types_then_result_types() -> None:
    out = _created(GENERIC)
    assert "^bb0(%arg0: memref<4xf32, #map>):" in out
    assert '}) {p = #map2} : () -> memref<4xf32, #map1>' in out


def test_deeper_aliases_number_after_shallower_ones() -> None:
    # Created (and met) deepest first: MLIR sorts by depth, 1 + the deepest value inside, each
    # value between an alias and the one it holds adding one (here the array).
    text = """#x = #foo.x<1>
#w = #foo.w<[#x]>
#w1 = #foo.w<#x>
#w2 = #foo.w<2>
"foo.op"() {a = #w, b = #w1, c = #w2} : () -> ()
"""
    out = _created(text, {"w": "w", "w1": "w", "w2": "w"})
    assert _alias_lines(out) == ["#x = #foo.x<1>", "#w = #foo.w<2>", "#w1 = #foo.w<#x>", "#w2 = #foo.w<[#x]>"]
    assert '"foo.op"() {a = #w2, b = #w1, c = #w} : () -> ()' in out


def test_a_prefix_the_input_uses_keeps_creation_names() -> None:
    # The optimizer adds #ttnn_layout2 to an input with #ttnn_layout and #ttnn_layout1: MLIR
    # would renumber all three, and the input's keep their names, so the new one keeps its own.
    # #l1 is ttopt's alone: named as MLIR names it (one l1 alias: `#l1`; a second: `#l1_1`).
    text = """#dram = #foo.buffer<dram>
#ttnn_layout = #foo.layout<0, #dram>
#ttnn_layout1 = #foo.layout<1, #dram>
#l1 = #foo.buffer<l1>
#l1_1 = #foo.buffer<l1x>
#ttnn_layout2 = #foo.layout<2, #l1_1>
#ttnn_layout3 = #foo.layout<3, #l1>
"foo.op"() {a = #ttnn_layout2, b = #ttnn_layout3, c = #ttnn_layout1, d = #ttnn_layout} : () -> ()
"""
    out = _created(text, {"l1": "l1", "l1_1": "l1", "ttnn_layout2": "ttnn_layout", "ttnn_layout3": "ttnn_layout"})
    assert _alias_lines(out) == [
        "#dram = #foo.buffer<dram>",
        "#ttnn_layout = #foo.layout<0, #dram>",
        "#ttnn_layout1 = #foo.layout<1, #dram>",
        "#l1 = #foo.buffer<l1x>",  # met first (in #ttnn_layout2): the first name
        "#ttnn_layout2 = #foo.layout<2, #l1>",
        "#l1_1 = #foo.buffer<l1>",
        "#ttnn_layout3 = #foo.layout<3, #l1_1>",
    ]


def test_an_unused_created_alias_is_not_printed() -> None:
    text = f"""#map = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0) -> (d0 + 2)>
%0 = "foo.op"() : () -> {M}, #map1>
"""
    assert _alias_lines(_created(text)) == ["#map = affine_map<(d0) -> (d0 + 2)>"]


def test_local_scope_prints_no_alias() -> None:
    module = parse_module(ORDER)
    for d in module.aliases:
        d.prefix = "map"
        module.aliases.created.append(d)
    out = print_module(module, PrintOptions(local_scope=True))
    assert "#map" not in out
    assert "x = affine_map<(d0) -> (d0 + 3)>" in out


def test_the_printed_text_reads_back_to_itself() -> None:
    out = _created(ORDER)
    assert print_module(parse_module(out)) == out


def test_ttir_to_ttnn_numbers_layouts_as_tt_mlir() -> None:
    # The lowering creates the arguments' layouts, then the body's, the result's last; MLIR (and
    # so tt-mlir) numbers the function's result type right after its argument types.
    from ttopt.passes.context import PassContext
    from ttopt.passes.manager import PassManager
    from ttopt.passes.pipeline import instantiate, parse_pipeline

    mm = "tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>"
    module = parse_module(f"""module {{
  func.func @f(%a: tensor<32x64xbf16>, %b: tensor<64x128xbf16>, %c: tensor<128x32xbf16>) -> tensor<32x32xbf16> {{
    %0 = "ttir.matmul"(%a, %b) : ({mm}
    %1 = "ttir.matmul"(%0, %c) : (tensor<32x128xbf16>, tensor<128x32xbf16>) -> tensor<32x32xbf16>
    return %1 : tensor<32x32xbf16>
  }}
}}
""")
    pipeline = "builtin.module(ttir-to-ttnn-backend-pipeline)"
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    out = print_module(module)
    assert [line.split(" =")[0] for line in _alias_lines(out)] == [
        "#dram", "#system_desc", "#ttnn_layout", "#ttnn_layout1", "#ttnn_layout2", "#ttnn_layout3", "#ttnn_layout4",
    ]  # fmt: skip
    assert "tensor<128x32xbf16, #ttnn_layout2>) -> tensor<32x32xbf16, #ttnn_layout3>" in out
    assert "-> tensor<32x128xbf16, #ttnn_layout4>" in out
    assert print_module(parse_module(out)) == out


# A generic op's properties and attributes are met as one dictionary, by name.
PROPS = """#map = affine_map<(d0) -> (d0 + 3)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#map2 = affine_map<(d0) -> (d0 + 1)>
"func.func"() <{function_type = (memref<4xf32, #map2>) -> (), sym_name = "g", sym_visibility = "private"}> ({
}) {a = #map1, zz = #map} : () -> ()
"""


def test_properties_and_attributes_are_met_by_name() -> None:
    module = parse_module(PROPS)
    for d in module.aliases:
        d.prefix = "map"
        module.aliases.created.append(d)
    out = print_module(module, PrintOptions(generic=True))
    assert _alias_lines(out) == [
        "#map = affine_map<(d0) -> (d0 + 2)>", "#map1 = affine_map<(d0) -> (d0 + 1)>", "#map2 = affine_map<(d0) -> (d0 + 3)>",
    ]  # fmt: skip
    if HAS_MLIR:  # pragma: no cover - depends on jax being installed
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib.mlir import ir

        assert out == ir.Module.parse(PROPS, jax_mlir.make_ir_context()).operation.get_asm(print_generic_op_form=True)
