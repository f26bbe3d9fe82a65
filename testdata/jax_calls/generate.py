"""Generate JAX `shard_map` modules whose manual computations call helper functions.

Usage: `python testdata/jax_calls/generate.py` writes testdata/jax_calls/<name>.mlir;
`--check` only checks the files are up to date (exit 1 if one differs).

Each module has a `func.call` inside `sdy.manual_computation` (a region whose op sets no default
dialect, so MLIR prints the call in full). The first lines of each file are `//` comments: a RUN
line checking that `ttopt opt` keeps the prefix, then what the case covers. The rest is exactly
what `jax.jit(...).lower(...).as_text()` printed (jax 0.10.2, 8 fake CPU devices; `.debug` files
with `debug_info=True` and this script's path made repo-relative).
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REL_THIS_FILE = "testdata/jax_calls/generate.py"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
F32 = jnp.float32


@jax.jit
def scale(a):
    return jnp.tanh(a) * 2.0


@jax.jit
def two_results(a, b):
    return a + b, a * b


@jax.jit
def chained(a):
    return scale(a) + scale(a * a)


def _call_helper():
    def body(a):
        return jax.lax.psum(scale(a), "x")

    f = jax.shard_map(body, mesh=MESH, in_specs=P("x", "y"), out_specs=P(None, "y"))
    return jax.jit(f), (jax.ShapeDtypeStruct((8, 16), F32),)


def _nested_calls():
    def body(a, b):
        s, p = two_results(a, b)
        return chained(s) + p

    f = jax.shard_map(body, mesh=MESH, in_specs=(P("x"), P("x")), out_specs=P("x"))
    return jax.jit(lambda a, b: scale(f(a, b))), (jax.ShapeDtypeStruct((8, 4), F32),) * 2


def _call_in_loop():
    def body(a):
        return jax.lax.fori_loop(0, 3, lambda i, v: scale(v), a)

    f = jax.shard_map(body, mesh=MESH, in_specs=P("x"), out_specs=P("x"), axis_names={"x"})
    return jax.jit(f), (jax.ShapeDtypeStruct((8, 4), F32),)


CASES = {
    "shard_map_call_helper": (_call_helper, False, "a helper call, then a psum, in a manual computation"),
    "shard_map_nested_calls": (_nested_calls, False, "a two-result helper and a helper calling helpers; a call outside too"),
    "shard_map_call_in_loop": (_call_in_loop, False, "a call in a stablehlo.while body inside a manual computation over axis x only"),
    "shard_map_call_helper.debug": (_call_helper, True, "the helper-call case with locations"),
}

RUN = "// RUN: ttopt opt %s | FileCheck %s\n// CHECK: sdy.manual_computation\n// CHECK: func.call @\n"


def render(name: str) -> str:
    build, debug, what = CASES[name]
    fn, args = build()
    text = fn.lower(*args).as_text(debug_info=debug)
    text = text.replace(os.path.abspath(__file__), REL_THIS_FILE)
    return f"{RUN}// {what} (generate.py).\n{text}"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for name in [a for a in argv if not a.startswith("--")] or CASES:
        path = os.path.join(HERE, name + ".mlir")
        text = render(name)
        if check:
            with open(path) as f:
                if f.read() != text:
                    print(f"{path}: out of date")
                    bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
