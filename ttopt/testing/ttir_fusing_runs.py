"""Running ttir-fusing on a module's text in tests: the fused text and the pass (its trace counts)."""

from __future__ import annotations

import re

import numpy as np

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.testing.ttir_interpreter import run


def fuse_ttir(text: str, verified: bool = True) -> tuple[str, TTIRFusing]:
    """`text` after ttir-fusing (verified, uses included, unless `verified` is false), and the pass that ran."""
    module = parse_module(text, "f.mlir")
    p = TTIRFusing()
    p.run(module, PassContext())
    if verified:
        verify(module, check_uses=True)
    return print_module(module), p


def op_names(text: str, dialect: str = "ttir") -> list[str]:
    """The generic-form op names of `dialect` in printed `text`, in order."""
    return re.findall(rf"\"({dialect}\.[a-z_0-9]+)\"", text)


def same_numbers(before: str, after: str, *, seed: int = 0, rtol: float = 2e-4, atol: float = 1e-5, scale: float = 1.0,
                 decomposed: bool = False) -> None:  # fmt: skip
    """Assert `@f` of `before` and of `after` agree on random inputs (numpy TTIR interpreter);
    `decomposed`: `before` first through ttir-to-ttir-decomposition (channel-last convs, as the
    fusing pass sees them)."""
    a, b = parse_module(before, "a.mlir"), parse_module(after, "b.mlir")
    if decomposed:
        from ttopt.lowering.ttir_decomposition import decompose

        decompose(a)
    rng = np.random.default_rng(seed)
    args = [(scale * rng.standard_normal(tuple(x.type.resolve().shape))).astype(np.float32) for x in a.functions()[0].regions[0].entry.args]
    for x, y in zip(run(a, "f", args), run(b, "f", args)):
        np.testing.assert_allclose(np.asarray(y, np.float64), np.asarray(x, np.float64), rtol=rtol, atol=atol)
