"""A few small JAX programs lowered to StableHLO + Shardy text, fresh from the installed JAX.

They feed the differential against jaxlib (ttopt/testing/differential.py) with what JAX prints
today, not only what the checked-in corpus holds: plain and `debug_info=True` text of an MLP, a
reduction, a while loop, and a `shard_map` whose body calls a helper function (`func.call`
inside `sdy.manual_computation`). Lowering needs 8 host devices, which XLA only gives a process
that sets `XLA_FLAGS` before it starts, so `generate()` runs this module in a child process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

DEVICE_FLAGS = "--xla_force_host_platform_device_count=8"


def lowered() -> dict[str, str]:
    """name -> module text, for every program, plain and with debug info (needs 8 devices)."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
    from jax.sharding import Mesh, NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("x", "y"))
    f32 = jnp.float32

    def mlp(x, w1, b1, w2):
        return jnp.tanh(jax.nn.relu(x @ w1 + b1) @ w2)

    def reduce(x):
        return jnp.sum(x, axis=0), jnp.max(x, axis=1), jnp.argmin(x[0])

    def loop(x):
        return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 2 - 1), (0, x))[1]

    @jax.jit
    def helper(a):
        return jnp.sin(a) * 3.0

    def body(a, w):
        return lax.psum(helper(a) @ w, "y")

    smap = jax.shard_map(body, mesh=mesh, in_specs=(P("x", "y"), P("y", None)), out_specs=P("x", None))

    programs = {
        "mlp": (jax.jit(mlp), (jax.ShapeDtypeStruct((8, 16), f32), jax.ShapeDtypeStruct((16, 32), f32),
                               jax.ShapeDtypeStruct((32,), f32), jax.ShapeDtypeStruct((32, 4), f32))),
        "reduce": (jax.jit(reduce), (jax.ShapeDtypeStruct((4, 6), f32),)),
        "while_loop": (jax.jit(loop), (jax.ShapeDtypeStruct((3,), jnp.int32),)),
        "shard_map_helper_call": (
            jax.jit(smap, in_shardings=(NamedSharding(mesh, P("x", "y")), NamedSharding(mesh, P("y")))),
            (jax.ShapeDtypeStruct((8, 16), f32), jax.ShapeDtypeStruct((16, 8), f32)),
        ),
    }
    out: dict[str, str] = {}
    for name, (fn, args) in programs.items():
        low = fn.lower(*args)
        out[name] = low.as_text()
        out[f"{name}.debug"] = low.as_text(debug_info=True)
    return out


def generate(timeout: float = 300) -> dict[str, str]:
    """`lowered()` run in a child process with 8 host devices; {} if JAX is missing or fails."""
    env = dict(os.environ, XLA_FLAGS=DEVICE_FLAGS, JAX_PLATFORMS="cpu")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "ttopt.testing.jax_programs"], capture_output=True, text=True, env=env,
                          timeout=timeout)
    if proc.returncode != 0:
        return {}
    return json.loads(proc.stdout)


if __name__ == "__main__":
    print(json.dumps(lowered()))
