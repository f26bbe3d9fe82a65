"""The `{-# ... #-}` resource section: data access, and agreement with MLIR's own printer."""

from __future__ import annotations

import struct

import pytest

from ttopt.ir.attributes import DenseResourceAttr
from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module

TEXT = """module {
  func.func @main() -> tensor<2xf32> {
    %cst = stablehlo.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    return %cst : tensor<2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F00000040"
    }
  }
#-}
"""


def test_dense_resource_resolves_to_its_blob() -> None:
    module = parse_module(TEXT)
    const = next(op for op in module.walk() if op.name == "stablehlo.constant")
    value = const.properties["value"]
    assert isinstance(value, DenseResourceAttr) and value.key == "torch_tensor_2_torch.float32"
    assert value.type.text == "tensor<2xf32>"
    assert module.metadata is not None
    blob = module.metadata.blob(value.key)
    assert blob is not None and struct.unpack("<2f", blob) == (1.0, 2.0)
    assert module.metadata.blob("missing") is None


def test_printed_like_mlir() -> None:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    ctx = jmlir.make_ir_context()
    theirs = ir.Module.parse(TEXT.replace("%cst", "%0"), context=ctx).operation.get_asm()
    ours = print_module(parse_module(TEXT.replace("%cst", "%0")))
    assert ours == TEXT == theirs
