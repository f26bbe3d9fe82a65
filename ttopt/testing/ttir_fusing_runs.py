"""Running ttir-fusing on a module's text in tests: the fused text and the pass (its trace counts)."""

from __future__ import annotations

import re

from ttopt.ir.printer import print_module
from ttopt.ir.verifier import verify
from ttopt.lowering.ttir_fusing import TTIRFusing
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext


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
