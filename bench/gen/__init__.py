"""Deterministic generators of large, realistic MLIR modules for the parser benchmark.

Two kinds are provided, each modelled on the hand-written / JAX-captured files in testdata/:

* ``ttnn``: TTNN in generic form (testdata/ttnn/*.mlir): ``#system_desc``/``#dram``/``#l1`` and
  ``#ttnn_layoutN`` aliases, ``func.func @forward`` with ``tt.function_type = "forward_device"``,
  ``ttnn.get_device`` and a mix of generic ``"ttnn.*"(...)`` ops, each with ``loc(#locN)`` and the
  ``#locN = loc(...)`` aliases after the module.
* ``stablehlo``: StableHLO + Shardy in pretty form (testdata/jax/*.mlir): ``module @jit_f``,
  ``sdy.mesh``, sharded func arguments, dot_general/elementwise/broadcast/reshape/transpose/reduce/
  compare/select/convert, ``sdy.sharding_per_value`` on some ops and ``sdy.manual_computation``
  blocks with collectives inside.

Both build the function body as a DAG over a small pool of tensor types, so every operand is
defined before use and carries exactly the type of its defining value. The output depends only on
``(n_ops, seed)`` (``random.Random(seed)``). ``n_ops`` is the number of operations ttopt's
``module.walk()`` yields: the module, func and terminators, ops nested in regions, and the
implicit body (op + return) of a compact ``stablehlo.reduce ... applies`` all count; the generators
hit it exactly for ``n_ops >= 10``.
"""

from __future__ import annotations

from typing import Callable

from .stablehlo import generate_stablehlo
from .ttnn import ATTR_STYLES, generate_ttnn

GENERATORS: dict[str, Callable[[int, int], str]] = {
    "ttnn": generate_ttnn,
    "stablehlo": generate_stablehlo,
}
KINDS = tuple(GENERATORS)


def generate(kind: str, n_ops: int, seed: int = 0, attrs: str = "default") -> str:
    """The MLIR text of a `kind` module with about `n_ops` operations (deterministic in `seed`).
    `attrs="heavy"` puts `dtype` / `memory_config` properties on every TTNN op with a result
    (StableHLO modules carry their attributes either way)."""
    if attrs not in ATTR_STYLES:
        raise ValueError(f"unknown attribute style {attrs!r}; expected one of {', '.join(ATTR_STYLES)}")
    if kind == "ttnn":
        return generate_ttnn(n_ops, seed, attrs)
    try:
        gen = GENERATORS[kind]
    except KeyError:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}") from None
    return gen(n_ops, seed)


__all__ = ["ATTR_STYLES", "GENERATORS", "KINDS", "generate", "generate_stablehlo", "generate_ttnn"]
