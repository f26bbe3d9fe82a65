"""Printer: the one-piece line of a region-less generic op, and the per-print text caches."""

from __future__ import annotations

import itertools

import pytest

from ttopt.ir import rewriter
from ttopt.ir.attributes import IntegerAttr, StringAttr, UnitAttr
from ttopt.ir.location import Location
from ttopt.ir.printer import Printer, PrintOptions, print_module
from ttopt.ir.types import FunctionType, ScalarType, TensorType
from ttopt.parse.parser import parse_module

SRC = """!t = tensor<4xf32>
#a = #ttnn.buffer_type<dram>
func.func @f(%x: !t, %s: tensor<2xui64>) {
  %0:2 = "t.two"(%x) {"quoted key" = 1 : i32, k = #a, u} : (!t) -> (tensor<4xf32>, i32) loc("n")
  %1 = "t.fn"() : () -> ((i32) -> i32)
  %2 = "t.three"(%x, %0#0, %0#1) <{p = 2 : i64}> : (!t, tensor<4xf32>, i32) -> !t loc(fused["a", "b"])
  "t.none"(%2, %2) : (!t, !t) -> ()
  %3 = "t.q\\22x"(%2, %x) : (!t, tensor<4xf32>) -> tensor<4xf32>
  %a, %b = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = 1 : i32} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  return
}
"""

OPTIONS = [PrintOptions(*flags) for flags in itertools.product((False, True), repeat=3)]


def _body(m):
    return m.functions()[0].regions[0].entry


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: f"local{o.local_scope:d}-debug{o.debuginfo:d}-generic{o.generic:d}")
def test_inline_line_equals_generic_pieces(opts: PrintOptions) -> None:
    """Every op `print_ops` writes in one piece reads as `result_prefix + generic + loc`."""
    m = parse_module(SRC)
    body = _body(m)
    # An operand defined nowhere in the module prints as MLIR's placeholder.
    stray = rewriter.create("t.stray", [], [ScalarType("i32")])
    rewriter.create("t.use", [stray.result], [], before=body.ops[-1])
    p = Printer(m, opts)
    lines = p.print_module().splitlines()
    checked = 0
    for op in body.ops:
        d = op.opdef
        if d is not None and d.format is not None and p.custom(op, d.format, "    ") is not None and not opts.generic:
            continue
        want = "    " + p.result_prefix(op) + p.generic(op, "    ") + p.loc(op.location)
        assert want in lines
        checked += 1
    assert checked >= 7
    text = "\n".join(lines)
    assert '"t.use"(%<<UNKNOWN>>) : (i32) -> ()' in text
    assert ('%output_state, %output = "stablehlo.rng_bit_generator"' in text) != opts.generic


def test_edits_between_prints_show_up() -> None:
    """Caches live for one print: attributes, properties and types changed after a print print new."""
    m = parse_module(SRC)
    body = _body(m)
    before = print_module(m, PrintOptions(debuginfo=True))
    three = body.ops[2]
    assert '<{p = 2 : i64}>' in before
    three.properties["p"] = IntegerAttr(7)
    three.properties["r"] = StringAttr("s")
    two = body.ops[0]
    two.attributes["k"] = UnitAttr()
    two.results[1].type = ScalarType("i64")
    three.location = Location.named("moved")
    after = print_module(m, PrintOptions(debuginfo=True))
    assert '%2 = "t.three"(%arg0, %0#0, %0#1) <{p = 7, r = "s"}> : (!t, tensor<4xf32>, i64) -> !t loc("moved")' in after
    assert '{k, "quoted key" = 1 : i32, u} : (!t) -> (tensor<4xf32>, i64) loc("n")' in after


def test_caches_never_serve_a_dead_objects_text() -> None:
    """Keys are object ids: a temporary type or attribute must not lend its id to the next one."""
    p = Printer(parse_module(SRC))
    f32 = ScalarType("f32")
    for n in range(1, 300):
        t = TensorType((n,), f32)
        assert p.fn_type([t], [t]) == f"(tensor<{n}xf32>) -> tensor<{n}xf32>"
        assert p.fn_type([t, t], [FunctionType((t,), ())]) == f"(tensor<{n}xf32>, tensor<{n}xf32>) -> ((tensor<{n}xf32>) -> ())"
        assert p.dict_body({"v": IntegerAttr(n), "a b": UnitAttr()}) == f'"a b", v = {n}'
