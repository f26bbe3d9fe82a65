"""Running a TTIR function through `convert-cpu-module-to-llvm` and both interpreters, for tests:
`same_numbers(func_text, inputs)` checks that the lowered function (called directly and through its
`_helper` wrapper) computes what the TTIR interpreter computes, frees what it does not return, and
that the printed LLVM module reads back to the same text."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ttopt.ir.module import Module
from ttopt.ir.operation import Operation
from ttopt.ir.printer import print_module
from ttopt.lowering.cpu_llvm.convert import ConvertCPUModuleToLLVM, cpu_modules
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.passes.manager import PassManager
from ttopt.testing.llvm_interpreter import LLVMInterpreter
from ttopt.testing.ttir_interpreter import dtype_of, run


def in_cpu_module(func_text: str) -> str:
    """A module holding `func_text` in a ttcore.cpu_module, as the hoisting pass writes it."""
    return "module {\n  ttcore.cpu_module {\n    builtin.module {\n" + func_text + "\n    }\n  }\n}\n"


def lower(text: str) -> Module:
    """`text` parsed and run through convert-cpu-module-to-llvm."""
    module = parse_module(text)
    PassManager([ConvertCPUModuleToLLVM()], PassContext()).run(module)
    return module


def inner_module(module: Module) -> Operation:
    """The (first) builtin.module inside the module's ttcore.cpu_module."""
    return next(iter(cpu_modules(module)))


def lowered_text(func_text: str) -> str:
    """The printed module after lowering the CPU function `func_text`."""
    return print_module(lower(in_cpu_module(func_text)))


def same_numbers(func_text: str, inputs: Sequence[np.ndarray], name: str = "f", rtol: float = 2e-6, atol: float = 1e-6,
                 want: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """Check the lowered `@name` against the TTIR interpreter on `inputs` (numpy arrays, views allowed),
    or against `want` where HEAD's host lowering differs from the interpreter; the results."""
    ttir = parse_module("module {\n" + func_text + "\n}\n")
    if want is None:
        want = run(ttir, name, [np.ascontiguousarray(x) for x in inputs])
    func = next(f for f in ttir.functions() if getattr(f.properties.get("sym_name"), "value", None) == name)
    dtypes = [dtype_of(r.type) for r in func.regions[0].blocks[0].ops[-1].operands]
    text = print_module(lower(in_cpu_module(func_text)))
    again = parse_module(text)
    assert print_module(again) == text, "the lowered module does not read back to the same text"
    got: list[Any] = []
    for via_helper in (False, True):
        interp = LLVMInterpreter(inner_module(again))
        call = interp.call_helper if via_helper else interp.call_memref
        got = call(name, list(inputs), dtypes)
        if not via_helper:  # every buffer the function made is freed or returned
            assert len(interp.memory.live) == len(dtypes), f"{len(interp.memory.live)} live blocks for {len(dtypes)} results"
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
            if g.dtype == np.float32:
                np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
            else:
                np.testing.assert_array_equal(g, w)
    return got
