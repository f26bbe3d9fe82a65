"""Multi-device oracle for GSPMD-partitioned JAX modules (testdata/jax_gspmd): the module goes
through `stablehlo-pipeline` and `convert-to-ttir`, and its program runs on every device of the tt
mesh with the SPMD simulator of test_spmd_simulation.py, extended by `ttir.mesh_shard` (pieces by
`shard_dims` / `shard_shape`, as the hardware splits and joins them) and the TTIR collectives
(groups along `cluster_axis`). Its outputs must equal what jax itself computes on 8 CPU devices
(a child process runs generate.reference, so the 8-device setting never meets this process's jax).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("jax")

from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.registry import get_pass  # noqa: E402
from ttopt.sharding.func_attrs import func_name, functions  # noqa: E402

pytestmark = pytest.mark.oracle
ROOT = Path(__file__).resolve().parents[2]
GSPMD = ROOT / "testdata" / "jax_gspmd"
CASES = sorted(p.stem for p in GSPMD.glob("*.mlir"))

_spec = importlib.util.spec_from_file_location("spmd_simulation", Path(__file__).with_name("test_spmd_simulation.py"))
assert _spec is not None and _spec.loader is not None
sim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sim)


class TTMachine(sim.Machine):
    """The simulator on a 2-D tt mesh `rows x cols`, with the TTIR sharding ops."""

    def __init__(self, module, rows: int, cols: int) -> None:
        super().__init__(module, rows * cols, False)
        self.rows, self.cols = rows, cols

    def coord(self, d: int) -> tuple[int, int]:
        return divmod(d, self.cols)

    def block_of(self, op, d: int, shape: tuple[int, ...]) -> tuple[slice, ...]:
        """Device `d`'s block of a global tensor of `shape` under the op's shard_dims/shard_shape."""
        dims = list(op.properties["shard_dims"].values)
        parts = list(op.properties["shard_shape"].values)
        sel = [slice(None)] * len(shape)
        if str(op.properties["shard_type"].body).strip() != "devices":
            return tuple(sel)
        dims = [-1] * (2 - len(dims)) + dims
        for axis, dim in enumerate(dims):
            if dim < 0:
                continue
            size = shape[dim] // parts[dim]
            i = self.coord(d)[axis]
            sel[dim] = slice(i * size, (i + 1) * size)
        return tuple(sel)

    def op(self, op, ins, env):
        if op.name == "ttir.mesh_shard":
            x = ins[0]
            direction = op.properties["shard_direction"].body.strip()
            if direction == "full_to_shard":
                return [[x[d][self.block_of(op, d, x[d].shape)] for d in range(self.n)]]
            full = np.zeros(op.results[0].type.shape, x[0].dtype)
            for d in range(self.n):
                full[self.block_of(op, d, full.shape)] = x[d]
            for d in range(self.n):  # replicas must agree
                np.testing.assert_allclose(full[self.block_of(op, d, full.shape)], x[d], rtol=1e-5, atol=1e-5)
            return [[full] * self.n]
        if op.name == "ttir.all_reduce":
            axis = op.properties["cluster_axis"].value
            f = sim.COMBINE[op.properties["reduce_type"].body.strip()]
            out = [None] * self.n
            for d in range(self.n):
                r, c = self.coord(d)
                group = [g for g in range(self.n) if self.coord(g)[1 - axis] == (c if axis == 0 else r)]
                acc = ins[0][group[0]]
                for g in group[1:]:
                    acc = f(acc, ins[0][g])
                out[d] = acc
            return [out]
        if op.name.startswith("ttir."):
            raise sim.Unsupported(op.name)
        return super().op(op, ins, env)


def _reference(name: str) -> tuple[list, list]:
    """jax's inputs and outputs for the case, computed in a child process."""
    code = ("import sys, numpy as np; sys.path.insert(0, sys.argv[1]); import generate; "
            "ins, outs = generate.reference(sys.argv[2]); "
            "np.savez(sys.argv[3], *ins, *outs, n_in=len(ins))")
    out = GSPMD / f".{name}.ref.npz"
    try:
        subprocess.run([sys.executable, "-c", code, str(GSPMD), name, str(out)], check=True, capture_output=True, timeout=300)
        data = np.load(out)
        n_in = int(data["n_in"])
        arrays = [data[f"arr_{i}"] for i in range(len(data.files) - 1)]
    finally:
        out.unlink(missing_ok=True)
    return arrays[:n_in], arrays[n_in:]


@pytest.mark.parametrize("name", CASES)
def test_gspmd_module_computes_what_jax_computes(name: str) -> None:
    m = parse_module((GSPMD / f"{name}.mlir").read_text())
    ctx = PassContext()
    for p in ("stablehlo-pipeline", "convert-to-ttir"):
        cls = get_pass(p)
        assert cls is not None
        cls().run(m, ctx)
    rows, cols = m.op.attributes["ttcore.meshes"].typed.meshes[0].shape
    main = next(f for f in functions(m) if func_name(f) == "main")
    ins, want = _reference(name)
    machine = TTMachine(m, rows, cols)
    entry = main.regions[0].blocks[0]
    args = []
    for a, x in zip(entry.args, ins):
        if tuple(a.type.shape) == x.shape:
            args.append([x] * machine.n)
        else:  # a pre-sharded argument: each device holds its block (dim 0 over all devices here)
            args.append([np.split(x, machine.n, 0)[d] for d in range(machine.n)])
    got = machine.block(entry, args)
    for j, (g, w) in enumerate(zip(got, want)):
        for d in range(machine.n):
            np.testing.assert_allclose(g[d], w if g[d].shape == w.shape else np.split(w, machine.n, 0)[d],
                                       rtol=1e-4, atol=1e-4, err_msg=f"result {j}, device {d}")
