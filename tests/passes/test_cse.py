"""`cse`: duplicate side-effect-free ops go, the first one's results take their uses; ops in other
functions, ops with regions and ops that differ in an attribute or type stay."""

from __future__ import annotations

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.cse import CSE
from ttopt.passes.manager import PassManager


def _cse(text: str) -> tuple[str, int]:
    m = parse_module(text, "c.mlir")
    ctx = PassContext()
    PassManager([CSE()], ctx).run(m)
    return print_module(m), ctx.stats["cse"]["removed"]


def test_duplicates_merge_and_differences_stay() -> None:
    out, removed = _cse("""func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.add %a, %c0 : tensor<4xf32>
  %1 = stablehlo.add %a, %c1 : tensor<4xf32>
  %2 = stablehlo.add %0, %c2 : tensor<4xf32>
  %3 = stablehlo.multiply %1, %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.add %a, %c0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
""")
    assert removed == 2  # %c1, then %1 (same operands once %c1 is %c0)
    f = out.split("func.func @g")[0]
    assert f.count("stablehlo.constant") == 2 and f.count("stablehlo.add") == 2
    assert "stablehlo.multiply %0, %1" in f
    assert out.split("func.func @g")[1].count("stablehlo.constant") == 1  # functions are separate scopes


def test_ops_with_regions_are_not_merged() -> None:
    body = """%{r} = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>"""
    out, removed = _cse(f"""func.func @f(%a: tensor<4xf32>) -> tensor<f32> {{
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  {body.format(r=0)}
  {body.format(r=1)}
  %2 = stablehlo.add %0, %1 : tensor<f32>
  return %2 : tensor<f32>
}}
""")
    assert removed == 0 and out.count("stablehlo.reduce") == 2


def test_unused_side_effect_free_ops_go_as_in_mlir() -> None:
    """MLIR's cse erases trivially dead ops it reaches; one used only by a later dead op stays."""
    m = parse_module("""func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  %1 = stablehlo.abs %0 : tensor<4xf32>
  %2 = stablehlo.exponential %a : tensor<4xf32>
  return %2 : tensor<4xf32>
}
""", "c.mlir")
    ctx = PassContext()
    PassManager([CSE()], ctx).run(m)
    out = print_module(m)
    assert ctx.stats["cse"]["dead"] == 1
    assert "stablehlo.abs" not in out and "stablehlo.negate" in out and "stablehlo.exponential" in out


def test_a_cache_op_ends_the_reads_of_its_cache_only() -> None:
    """A read of the cache after an update is another expression than the same read before it; a
    read of the update index or input is the same (only the cache is written, HEAD's MemWrite)."""
    out, removed = _cse("""func.func @f(%cache: tensor<1x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>, %pos: tensor<1xi32>) -> (tensor<1x8x16x128xbf16>, tensor<1x8x16x128xbf16>, tensor<1xi32>, tensor<1xi32>) {
  %0 = "ttir.neg"(%cache) : (tensor<1x8x16x128xbf16>) -> tensor<1x8x16x128xbf16>
  %1 = "ttir.neg"(%pos) : (tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %pos) <{batch_offset = 0 : i32}> : (tensor<1x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %2 = "ttir.neg"(%cache) : (tensor<1x8x16x128xbf16>) -> tensor<1x8x16x128xbf16>
  %3 = "ttir.neg"(%pos) : (tensor<1xi32>) -> tensor<1xi32>
  return %0, %2, %1, %3 : tensor<1x8x16x128xbf16>, tensor<1x8x16x128xbf16>, tensor<1xi32>, tensor<1xi32>
}
""")
    assert removed == 1
    assert out.count('"ttir.neg"(%arg0)') == 2 and out.count('"ttir.neg"(%arg2)') == 1
