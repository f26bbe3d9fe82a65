// Solved JAX shard_map graphs (testdata/jax/shard_map_*.mlir) converted to TTIR (ref §4.3-4.5).

// psum over "y" (groups [[0..3],[4..7]] = rows): all_reduce sum, cluster_axis 1; ref §4.5 / §2.14 case 3.
// RUN: ttopt opt %S/../jax/shard_map_psum.mlir --convert-to-ttir | FileCheck %s --check-prefix=PSUM
// PSUM: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// PSUM: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<8x8xf32>
// PSUM: "ttir.mesh_shard"(%arg1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<8x64xf32>
// PSUM: "ttir.all_reduce"(%2) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
// PSUM: "ttir.mesh_shard"(%3) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x64xf32>) -> tensor<16x64xf32>
// PSUM: return %4 : tensor<16x64xf32>
// PSUM-NOT: sdy.

// all_gather over "x" (columns) and "y" (rows); outputs [{}, {"y"}] and [{"x"}, {}, {"y"}].
// RUN: ttopt opt %S/../jax/shard_map_all_gather.mlir --convert-to-ttir | FileCheck %s --check-prefix=ALLGATHER
// ALLGATHER: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// ALLGATHER: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<8x8xf32>
// ALLGATHER: "ttir.all_gather"(%0) <{all_gather_dim = 0 : si32, cluster_axis = 0 : ui32}> : (tensor<8x8xf32>) -> tensor<16x8xf32>
// ALLGATHER: "ttir.all_gather"(%2) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<8x1x8xf32>) -> tensor<8x4x8xf32>
// ALLGATHER: "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x8xf32>) -> tensor<16x32xf32>
// ALLGATHER: "ttir.mesh_shard"(%3) <{shard_dims = array<i64: 0, 2>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x4x8xf32>) -> tensor<16x4x32xf32>
// ALLGATHER: return %4, %5 : tensor<16x32xf32>, tensor<16x4x32xf32>
// ALLGATHER-NOT: sdy.

// 1-D mesh ["x"=8] is the 1x8 tt mesh: shard_dims [-1, 0]; pairs copied as they are.
// RUN: ttopt opt %S/../jax/shard_map_ppermute.mlir --convert-to-ttir | FileCheck %s --check-prefix=PPERMUTE
// PPERMUTE: ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x8>]>
// PPERMUTE: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 8, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x4xf32>) -> tensor<8x4xf32>
// PPERMUTE: "ttir.collective_permute"(%0) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 0]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// PPERMUTE: "ttir.collective_permute"(%0) <{source_target_pairs = dense<{{\[\[}}0, 7], [1, 0], [2, 1], [3, 2], [4, 3], [5, 4], [6, 5], [7, 6]]> : tensor<8x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
// PPERMUTE: "ttir.mesh_shard"(%3) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 8, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x4xf32>) -> tensor<64x4xf32>
// PPERMUTE: return %4 : tensor<64x4xf32>
// PPERMUTE-NOT: sdy.

// psum_scatter over "model": reduce_scatter sum, scatter_dim 1, cluster_axis 1.
// RUN: ttopt opt %S/../jax/shard_map_psum_scatter.mlir --convert-to-ttir | FileCheck %s --check-prefix=PSUMSCATTER
// PSUMSCATTER: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// PSUMSCATTER: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<8x32xf32>
// PSUMSCATTER: "ttir.reduce_scatter"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<8x32xf32>) -> tensor<8x8xf32>
// PSUMSCATTER: "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x8xf32>) -> tensor<16x32xf32>
// PSUMSCATTER: return %2 : tensor<16x32xf32>
// PSUMSCATTER-NOT: sdy.

// pmax over "y" keeps max; pmin over all 8 devices becomes one min all_reduce per mesh axis; replicated output.
// RUN: ttopt opt %S/../jax/shard_map_pmax_pmin.mlir --convert-to-ttir | FileCheck %s --check-prefix=PMAXPMIN
// PMAXPMIN: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// PMAXPMIN: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x16xf32>) -> tensor<4x4xf32>
// PMAXPMIN: "ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PMAXPMIN: "ttir.all_reduce"(%0) <{cluster_axis = 0 : ui32, reduce_type = #ttcore.reduce_type<min>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PMAXPMIN: "ttir.all_reduce"(%2) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<min>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PMAXPMIN: "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x4xf32>) -> tensor<8x4xf32>
// PMAXPMIN: "ttir.mesh_shard"(%3) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PMAXPMIN: return %4, %5 : tensor<8x4xf32>, tensor<4x4xf32>
// PMAXPMIN-NOT: sdy.

// all_to_all over "y": split 0, concat 1, count 4, cluster_axis 1.
// RUN: ttopt opt %S/../jax/shard_map_all_to_all.mlir --convert-to-ttir | FileCheck %s --check-prefix=ALLTOALL
// ALLTOALL: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// ALLTOALL: "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<16x32xf32>) -> tensor<16x8xf32>
// ALLTOALL: "ttir.all_to_all"(%0) <{cluster_axis = 1 : ui32, concat_dim = 1 : si32, replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : si32, split_dim = 0 : si32}> : (tensor<16x8xf32>) -> tensor<4x32xf32>
// ALLTOALL: "ttir.mesh_shard"(%1) <{shard_dims = array<i64: -1, 0>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 4, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<4x32xf32>) -> tensor<16x32xf32>
// ALLTOALL: return %2 : tensor<16x32xf32>
// ALLTOALL-NOT: sdy.

// pre-sharded arguments (JAX in_shardings -> shard_status sharded) are the local tensors after the
// pipeline, as in tt-mlir HEAD's presharded path: the arguments take their local types, no mesh_shard.
// RUN: ttopt opt %S/../jax/shard_map_combined.mlir --stablehlo-pipeline --convert-to-ttir | FileCheck %s --check-prefix=COMBINED
// COMBINED: ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x4>]>
// COMBINED: func.func public @main(%arg0: tensor<8x16xf32> {ttcore.shard_status = #ttcore.shard_status<sharded>}, %arg1: tensor<16x32xf32> {ttcore.shard_status = #ttcore.shard_status<sharded>}, %arg2: tensor<32xf32>
// COMBINED-NOT: "ttir.mesh_shard"(%arg
// COMBINED: "ttir.all_reduce"(%0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
// COMBINED: "ttir.all_reduce"(%3) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<max>}> : (tensor<8x1xf32>) -> tensor<8x1xf32>
// COMBINED: "ttir.mesh_shard"(%13) <{shard_dims = array<i64: 0, -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_type = #ttcore.shard_type<devices>}> : (tensor<8x32xf32>) -> tensor<16x32xf32>
// COMBINED: return %30 : tensor<16x32xf32>
// COMBINED-NOT: sdy.
