"""MLIR reads ttopt's output of JAX `shard_map` modules with helper calls as the module it reads
from the input: `func.call` inside `sdy.manual_computation` keeps its prefix (MLIR's
default-dialect rule), in every printing mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.parser import parse_module

DATA = Path(__file__).resolve().parents[2] / "testdata" / "jax_calls"
FILES = sorted(p.name for p in DATA.glob("*.mlir"))
MODES = {
    "default": PrintOptions(),
    "generic": PrintOptions(generic=True),
    "local_scope": PrintOptions(local_scope=True),
    "debuginfo": PrintOptions(debuginfo=True),
}


def _reading(ir, jmlir, text: str, debuginfo: bool) -> str:
    """What jaxlib reads from `text` (parsed and verified), printed generic with inline locations."""
    module = ir.Module.parse(text, context=jmlir.make_ir_context())
    assert module.operation.verify()
    return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=debuginfo, use_local_scope=True)


def test_corpus_has_calls_in_manual_computations() -> None:
    assert len(FILES) >= 4
    for name in FILES:
        text = (DATA / name).read_text()
        assert "sdy.manual_computation" in text and "= func.call @" in text, name


@pytest.mark.oracle
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", FILES)
def test_jaxlib_reads_the_same_module(name: str, mode: str) -> None:
    jmlir = pytest.importorskip("jax._src.interpreters.mlir")
    from jax._src.lib.mlir import ir

    source = (DATA / name).read_text()
    opts = MODES[mode]
    ours = print_module(parse_module(source), opts)
    if not opts.generic:
        assert "= func.call @" in ours
    # Without debuginfo neither side keeps locations; with it, the input's are the ones to keep.
    debug = opts.debuginfo and ".debug" in name
    assert _reading(ir, jmlir, ours, debug) == _reading(ir, jmlir, source, debug)
