"""Generate real GSPMD-partitioned StableHLO from JAX (`jax_use_shardy_partitioner=False`).

Usage (from anywhere):

    python testdata/jax_gspmd/generate.py            # writes testdata/jax_gspmd/<name>.mlir
    python testdata/jax_gspmd/generate.py --check    # exit 1 if a file is not what jax prints now

Like testdata/jax/generate.py (8 fake CPU devices, deterministic output, written with jax 0.10.2),
but in GSPMD mode: `mhlo.sharding` strings on arguments/results and, for shard_map,
`custom_call @Sharding` + `@SPMDFullToShardShape` / `@SPMDShardToFullShape` around a local
`@shmap_body`. Each file is a `//` comment, the case's `// RUN:` and `// CHECK` lines (kept here,
so a regenerated file keeps them), then exactly what `jax.jit(f).lower(*args).as_text()` printed.
`reference(name, seed)` evaluates a case with jax on the 8 devices (the multi-device oracle of
tests/sharding/test_gspmd_simulation.py).
"""

import os
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P

jax.config.update("jax_use_shardy_partitioner", False)

HERE = os.path.dirname(os.path.abspath(__file__))
assert len(jax.devices()) == 8, jax.devices()

DEVS = np.array(jax.devices())
MESH_B8 = Mesh(DEVS.reshape(8), ("batch",))
MESH_XY = Mesh(DEVS.reshape(2, 4), ("x", "y"))
TTIR = "// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline | FileCheck %s"
TTNN = ("// RUN: ttopt opt %s --stablehlo-pipeline --stablehlo-to-ttir-pipeline --ttir-to-ttnn-backend-pipeline"
        " | FileCheck %s --check-prefix=TTNN")


def S(shape):
    return jax.ShapeDtypeStruct(shape, jnp.float32)


def mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def dp_mlp_body(x, w1, w2, y):
    """Per-device MLP and squared error; the mean over the batch axis is a psum."""
    err = mlp(x, w1, w2) - y
    return jax.lax.psum(jnp.sum(err * err), "batch") / 32.0


def tp_matmul_body(x, w):
    """x's columns and w's rows split over "y": partial products summed over "y"."""
    return jax.lax.psum(x @ w, "y")


CASES = {
    # name: (description, function, argument shapes, CHECK lines)
    "mlp_data_parallel": (
        "jit with in/out shardings, no shard_map: strings on arguments/results only (the Shardy path)",
        jax.jit(mlp, in_shardings=(NamedSharding(MESH_B8, P("batch", None)), NamedSharding(MESH_B8, P()),
                                   NamedSharding(MESH_B8, P())),
                out_shardings=NamedSharding(MESH_B8, P("batch", None))),
        [(32, 16), (16, 64), (64, 8)],
        [TTIR,
         "// CHECK: ttcore.meshes = #ttcore.meshes<[<\"mesh\" = 1x8>]>",
         "// Arguments with an mhlo.sharding are pre-sharded: the function takes the local tensors.",
         "// CHECK: func.func public @main(%arg0: tensor<4x16xf32> {{.*}}, %arg1: tensor<16x64xf32> {{.*}}, %arg2: tensor<64x8xf32>",
         "// CHECK: \"ttir.dot_general\"(%arg0, %arg1)",
         "// CHECK: \"ttir.mesh_shard\"{{.*}}shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 8, 1>{{.*}} : (tensor<4x8xf32>) -> tensor<32x8xf32>",
         TTNN,
         "// TTNN: \"ttnn.matmul\"",
         "// TTNN: \"ttnn.aggregate_tensor\""]),
    "shard_map_dp_mlp": (
        "data-parallel MLP loss in shard_map: the batch split over 8 devices, psum of the squared error",
        jax.jit(jax.shard_map(dp_mlp_body, mesh=MESH_B8, in_specs=(P("batch"), P(), P(), P("batch")), out_specs=P())),
        [(32, 16), (16, 64), (64, 8), (32, 8)],
        [TTIR,
         "// CHECK: ttcore.meshes = #ttcore.meshes<[<\"mesh\" = 1x8>]>",
         "// CHECK: \"ttir.mesh_shard\"(%arg0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 8, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x16xf32>) -> tensor<4x16xf32>",
         "// CHECK: \"ttir.mesh_shard\"(%arg1) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}>",
         "// CHECK: \"ttir.all_reduce\"({{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<f32>) -> tensor<f32>",
         "// CHECK: \"ttir.mesh_shard\"{{.*}}shard_to_full{{.*}}shard_type = #ttcore.shard_type<replicate>",
         TTNN,
         "// TTNN: \"ttnn.distribute_tensor\"",
         "// TTNN: \"ttnn.all_reduce\"",
         "// TTNN: \"ttnn.aggregate_tensor\""]),
    "shard_map_tp_matmul": (
        "tensor-parallel matmul on a 2x4 mesh: rows over x, the contraction over y (a transposed device list for w), psum over y",
        jax.jit(jax.shard_map(tp_matmul_body, mesh=MESH_XY, in_specs=(P("x", "y"), P("y", None)), out_specs=P("x", None))),
        [(16, 32), (32, 8)],
        [TTIR,
         "// CHECK: ttcore.meshes = #ttcore.meshes<[<\"mesh\" = 2x4>]>",
         "// CHECK: \"ttir.mesh_shard\"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<8x8xf32>",
         "// CHECK: \"ttir.mesh_shard\"(%arg1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x8xf32>) -> tensor<8x8xf32>",
         "// CHECK: \"ttir.all_reduce\"({{.*}}) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}>",
         "// CHECK: \"ttir.mesh_shard\"({{.*}}) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x8xf32>) -> tensor<16x8xf32>",
         TTNN,
         "// TTNN: \"ttnn.distribute_tensor\"",
         "// TTNN: \"ttnn.all_reduce\"",
         "// TTNN: \"ttnn.aggregate_tensor\""]),
}


def text(name):
    """The file for case `name`: header, RUN/CHECK lines, the module jax prints."""
    desc, fn, shapes, checks = CASES[name]
    module = fn.lower(*(S(s) for s in shapes)).as_text()
    head = f"// {name}: {desc} (generate.py, jax {jax.__version__}, GSPMD)\n"
    return head + "\n".join(checks) + "\n\n" + module


def reference(name, seed=0):
    """(inputs, outputs) of case `name` run by jax on the 8 devices, inputs drawn from `seed`."""
    _, fn, shapes, _ = CASES[name]
    rng = np.random.default_rng(seed)
    ins = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    outs = fn(*ins)
    outs = outs if isinstance(outs, (tuple, list)) else [outs]
    return ins, [np.asarray(o) for o in outs]


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or list(CASES)
    stale = []
    for name in names:
        path = os.path.join(HERE, f"{name}.mlir")
        want = text(name)
        if check:
            with open(path) as f:
                if f.read() != want:
                    stale.append(name)
        else:
            with open(path, "w") as f:
                f.write(want)
    if stale:
        print("out of date:", ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
