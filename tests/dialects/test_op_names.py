"""ttopt/dialects/op_names.py holds every op upstream defines in each registered dialect (a name
missing there would make valid upstream input an error), read by bench/gen/op_names.py."""

from __future__ import annotations

import pytest

from bench.gen.op_names import SHARDY_DIR, SHARDY_MIRROR, TTMLIR_DIRS, TTMLIR_MIRROR, jaxlib_op_names, mirror_op_names, td_op_names
from ttopt.dialects.op_names import OP_NAMES, SOURCES
from ttopt.ir.dialect_registry import DIALECT_OPS
from ttopt.ir.opdef import OP_DEFS

# Ops ttopt defines under names upstream no longer has (seed-era spellings ttopt still reads).
TTOPT_ONLY = {"ttnn.all_to_all", "ttnn.collective_permute", "ttnn.dispatch_d2m", "ttnn.mesh_shard", "ttnn.to_dtype"}


def test_the_registered_dialects_and_their_sources() -> None:
    assert set(OP_NAMES) == set(SOURCES) == {"arith", "builtin", "chlo", "emitc", "func", "llvm", "sdy", "stablehlo", "ttcore", "ttir", "ttnn"}
    assert DIALECT_OPS == OP_NAMES  # registered on import of ttopt.dialects
    for dialect, names in OP_NAMES.items():
        assert names and all(n.startswith(dialect + ".") for n in names), dialect


def test_every_op_ttopt_defines_in_a_registered_dialect_is_upstream_or_listed() -> None:
    mine = {n for n in OP_DEFS if n.split(".")[0] in OP_NAMES and n not in OP_NAMES[n.split(".")[0]]}
    assert mine == TTOPT_ONLY


@pytest.mark.skipif(not (TTMLIR_MIRROR / "HEAD").exists(), reason=f"no tenstorrent/tt-mlir mirror at {TTMLIR_MIRROR}")
def test_every_op_in_tt_mlir_ods_is_listed() -> None:
    found = mirror_op_names(TTMLIR_MIRROR, TTMLIR_DIRS)
    for dialect, names in found.items():
        assert not names - OP_NAMES[dialect], sorted(names - OP_NAMES[dialect])
    assert {"ttnn.relu", "ttnn.tt_lang_op", "ttir.add", "ttcore.load_cached"} <= found["ttnn"] | found["ttir"] | found["ttcore"]


@pytest.mark.skipif(not (SHARDY_MIRROR / "HEAD").exists(), reason=f"no openxla/shardy mirror at {SHARDY_MIRROR}")
def test_every_op_in_shardy_ods_is_listed() -> None:
    names = mirror_op_names(SHARDY_MIRROR, {"sdy": SHARDY_DIR})["sdy"]
    assert not names - OP_NAMES["sdy"], sorted(names - OP_NAMES["sdy"])
    assert "sdy.manual_computation" in names


@pytest.mark.oracle
@pytest.mark.parametrize("dialect", ["stablehlo", "chlo", "func", "arith", "builtin", "llvm", "sdy"])
def test_every_op_of_jaxlibs_bindings_is_listed(dialect: str) -> None:
    pytest.importorskip("jax._src.interpreters.mlir")
    names = jaxlib_op_names(dialect)
    assert not names - OP_NAMES[dialect], sorted(names - OP_NAMES[dialect])


def test_the_tablegen_reader_follows_op_classes_and_skips_descriptions() -> None:
    td = """
    def Foo_Dialect : Dialect { let name = "foo"; }
    class Foo_Op<string mnemonic, list<Trait> traits = []> : Op<Foo_Dialect, mnemonic, traits>;
    class Foo_Unary<string mnemonic, list<Trait> traits = []> : Foo_Op<mnemonic, [Pure] # traits> {
      let description = [{ Example: def Fake : Foo_Op<"fake"> }];
    }
    // def Commented : Foo_Op<"commented">;
    def Foo_A : Foo_Op<"a">;
    def Foo_B: Foo_Unary<"b", [Pure]> { let summary = "x"; }
    def Foo_C :
        Foo_Unary<"c.d">;
    def Foo_E : Op<Foo_Dialect, "e", []>;
    def Foo_Attr : AttrDef<Foo_Dialect, "NotAnOp">;
    """
    assert td_op_names([td]) == {"foo": {"foo.a", "foo.b", "foo.c.d", "foo.e"}}
    with pytest.raises(ValueError, match="multiclass"):
        td_op_names(["multiclass M<string n> { def : Foo_Op<n>; }"])
