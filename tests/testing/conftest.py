"""Fixtures of tests/testing: `toy`, a small dialect written in ODS style for the ODS reader and
checker tests (not tt-mlir text): attribute and type defs, an op base class that passes traits on,
ops that take their arguments from a base class, and every wrapper the reader interprets."""

from __future__ import annotations

import pytest

from ttopt.testing.ods_specs import OdsSet, ods_from_records
from ttopt.testing.tablegen import read_records

TOY_TD = '''
include "mlir/IR/OpBase.td"

def Toy_Dialect : Dialect { let name = "toy"; }
def Other_Dialect : Dialect { let name = "other"; }

class Toy_Attr<string name, string attrMnemonic> : AttrDef<Toy_Dialect, name> {
  let mnemonic = attrMnemonic;
  let attrName = "toy." # attrMnemonic;
}
def Toy_ShapeAttr : Toy_Attr<"Shape", "shape">;
def Toy_Mode : I32EnumAttr<"Mode", "modes", []>;
def Toy_ModeAttr : EnumAttr<Toy_Dialect, Toy_Mode, "mode">;
def Toy_NumberAttr : AnyAttrOf<[F32Attr, I32Attr]>;
def Toy_Device : TypeDef<Toy_Dialect, "Device"> { let mnemonic = "device"; }

class Toy_Op<string mnemonic, list<Trait> traits = []> : Op<Toy_Dialect, mnemonic, [Pure] # traits>;

class Toy_Unary<string mnemonic> : Toy_Op<mnemonic> {
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
}
def Toy_NegOp : Toy_Unary<"neg">;
def Toy_ScaleOp : Toy_Unary<"scale"> {
  let arguments = (ins AnyRankedTensor:$input, F32Attr:$factor);
}

def Toy_MixOp : Toy_Op<"mix", [AttrSizedOperandSegments]> {
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs,
                       Arg<Optional<AnyRankedTensor>, "bias", [MemRead]>:$bias,
                       Toy_Device:$device,
                       OptionalAttr<SI32Attr>:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$flag,
                       ConfinedAttr<I64Attr, [IntMinValue<0>]>:$count,
                       Toy_ShapeAttr:$shape,
                       OptionalAttr<Toy_ModeAttr>:$mode,
                       Toy_NumberAttr:$fill,
                       DenseI32ArrayAttr:$pads,
                       OptionalAttr<I32ArrayAttr>:$dims,
                       UnitAttr:$fast);
  let results = (outs AnyRankedTensor:$out, Optional<AnyRankedTensor>:$extra);
}

def Toy_MakeOp : Toy_Op<"make"> {
  let arguments = (ins Optional<Toy_Device>:$device, ElementsAttr:$value, FlatSymbolRefAttr:$callee);
  let results = (outs AnyRankedTensor:$result);
}

def Toy_LaterOp : Toy_Op<"later"> {
  let arguments = (ins DefinedLaterAttr:$late, MysteryConstraint:$odd);
}
def DefinedLaterAttr : Toy_Attr<"Later", "later">;

def Other_ThingOp : Op<Other_Dialect, "thing">;
'''


@pytest.fixture(scope="session")
def toy() -> OdsSet:
    """The toy dialect's ops, as `load_ods` would return tt-mlir's."""
    return ods_from_records(read_records("toy.td", {"toy.td": TOY_TD}.get), "toy", "toy-rev", "toy.td")
