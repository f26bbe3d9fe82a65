"""Whether a rewrite keeps what a function computes: random arguments for one function of a module,
and its results before and after the rewrite compared (numpy TTIR interpreter)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ttopt.testing.ttir_interpreter import dtype_of, run, shape_of


def function_named(module: Any, name: str) -> Any:
    """The `func.func` of `module` called `name`."""
    return next(op for op in module.walk() if op.name == "func.func" and op.properties["sym_name"].resolve().value == name)


def random_args(func: Any, seed: int = 0) -> list[np.ndarray]:
    """One argument per parameter of `func`: uniform in [-2, 2), of its shape and element type
    (booleans: the values above 0)."""
    rng = np.random.default_rng(seed)
    out = []
    for a in func.regions[0].blocks[0].args:
        dt = dtype_of(a.type)
        x = rng.uniform(-2, 2, shape_of(a.type))
        out.append(x > 0 if dt == np.bool_ else x.astype(dt))
    return out


def assert_same_results(before: Any, after: Any, name: str, seed: int = 0, rtol: float = 0.0, atol: float = 0.0) -> None:
    """`name` of `before` and of `after` give as many results, each of one shape and element type,
    on the same random arguments: equal, or within `rtol` / `atol` when given (a rewrite that
    reorders a reduction's sum)."""
    args = random_args(function_named(before, name), seed)
    want, got = run(before, name, args), run(after, name, args)
    assert len(want) == len(got)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        if rtol or atol:
            np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64), rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(w, g)
