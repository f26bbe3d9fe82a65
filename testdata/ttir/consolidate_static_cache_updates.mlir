// RUN: ttopt opt %s --ttir-consolidate-static-cache-updates | FileCheck %s
// RUN: ttopt opt %s --ttir-consolidate-static-cache-updates --cse | FileCheck %s --check-prefix=CSE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=TTNN

// Entry arguments that feed the update index of a ttir.update_cache / ttir.paged_update_cache
// (through mesh_shard, broadcast, repeat, reshape, typecast and add) and are returned as
// add(arg, full(delta)) are grouped by (delta, argument type); in a group of two or more every
// use of each argument goes to the group's last one. The cse that follows (the backend pipeline
// runs it) merges the adds that made equal.

// Three per-layer positions, each indexing its own layer's cache through a different chain; one
// write-back adds the other way round. An eliminated argument's other uses move too.
// CHECK-LABEL: func.func @per_layer
// CHECK: %[[D:.*]] = "ttir.full"
// CHECK: "ttir.add"(%arg2, %[[D]])
// CHECK: "ttir.add"(%[[D]], %arg2)
// CHECK: "ttir.add"(%arg2, %[[D]])
// CHECK: "ttir.multiply"(%arg2, %arg2)
// CHECK: "ttir.reshape"(%arg2)
// CHECK: "ttir.typecast"(%arg2)
// CHECK: "ttir.repeat"(%arg2)
// CSE-LABEL: func.func @per_layer
// CSE: %[[D:.*]] = "ttir.full"
// CSE: %[[A:.*]] = "ttir.add"(%arg2, %[[D]])
// CSE: %[[B:.*]] = "ttir.add"(%[[D]], %arg2)
// CSE-NOT: "ttir.add"(%arg2, %[[D]])
// CSE: return %[[A]], %[[B]], %[[A]], %{{.*}} :
func.func @per_layer(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %p2: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<4x8x16x128xbf16>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%d, %p1) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w2 = "ttir.add"(%p2, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %other = "ttir.multiply"(%p0, %p1) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %i0 = "ttir.reshape"(%p0) <{shape = [1 : i32]}> : (tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %i0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %i1 = "ttir.typecast"(%p1) : (tensor<1xi32>) -> tensor<1xsi32>
  "ttir.update_cache"(%cache, %x, %i1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xsi32>) -> ()
  %r = "ttir.repeat"(%p2) <{repeat_dimensions = array<i64: 1>}> : (tensor<1xi32>) -> tensor<1xi32>
  %off = "ttir.arange"() <{arange_dimension = 0 : i64, end = 1 : si64, start = 0 : si64, step = 1 : si64}> : () -> tensor<1xi32>
  %i2 = "ttir.add"(%off, %r) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %i2) <{batch_offset = 2 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1, %w2, %other, %cache : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<4x8x16x128xbf16>
}

// The paged cache update is update-style too; its positions are per user (a broadcast of the layer's).
// CHECK-LABEL: func.func @paged
// CHECK: "ttir.add"(%arg1, %{{.*}})
// CHECK: "ttir.add"(%arg1, %{{.*}})
// CHECK: "ttir.broadcast"(%arg1)
// CHECK: "ttir.broadcast"(%arg1)
// CSE-LABEL: func.func @paged
// CSE: %[[A:.*]] = "ttir.add"(%arg1,
// CSE: %[[B:.*]] = "ttir.broadcast"(%arg1)
// CSE-NOT: "ttir.broadcast"
// CSE: "ttir.paged_update_cache"(%arg2, %arg4, %[[B]])
// CSE: "ttir.paged_update_cache"(%arg3, %arg4, %[[B]])
// CSE: return %[[A]], %[[A]] :
func.func @paged(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %c0: tensor<4x8x32x64xbf16>, %c1: tensor<4x8x32x64xbf16>, %x: tensor<1x4x8x64xbf16>) -> (tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %i0 = "ttir.broadcast"(%p0) <{broadcast_dimensions = array<i64: 4>}> : (tensor<1xi32>) -> tensor<4xi32>
  "ttir.paged_update_cache"(%c0, %x, %i0) : (tensor<4x8x32x64xbf16>, tensor<1x4x8x64xbf16>, tensor<4xi32>) -> ()
  %i1 = "ttir.broadcast"(%p1) <{broadcast_dimensions = array<i64: 4>}> : (tensor<1xi32>) -> tensor<4xi32>
  "ttir.paged_update_cache"(%c1, %x, %i1) : (tensor<4x8x32x64xbf16>, tensor<1x4x8x64xbf16>, tensor<4xi32>) -> ()
  return %w0, %w1 : tensor<1xi32>, tensor<1xi32>
}

// Under tensor parallelism the positions cross the mesh boundary: the argument side of the add may
// be a mesh_shard of the argument and the write-back a mesh_shard of the add.
// CHECK-LABEL: func.func @mesh_shard_wrapped
// CHECK: "ttir.mesh_shard"(%arg1)
// CHECK: "ttir.mesh_shard"(%arg1)
// CSE-LABEL: func.func @mesh_shard_wrapped
// CSE: %[[S:.*]] = "ttir.mesh_shard"(%arg1)
// CSE-NOT: "ttir.mesh_shard"(%arg1)
// CSE: %[[A:.*]] = "ttir.add"(%[[S]],
// CSE: %[[R:.*]] = "ttir.mesh_shard"(%[[A]])
// CSE: return %[[R]], %[[R]] :
func.func @mesh_shard_wrapped(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %s0 = "ttir.mesh_shard"(%p0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1xi32>) -> tensor<1xi32>
  %a0 = "ttir.add"(%s0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w0 = "ttir.mesh_shard"(%a0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1xi32>) -> tensor<1xi32>
  %s1 = "ttir.mesh_shard"(%p1) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1xi32>) -> tensor<1xi32>
  %a1 = "ttir.add"(%s1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.mesh_shard"(%a1) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %s0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %s1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1 : tensor<1xi32>, tensor<1xi32>
}

// Each layer advances its position after its cache update, as a decode step is traced: an update
// writes its cache only, so the adds after it still merge.
// CSE-LABEL: func.func @layers_interleaved
// CSE: "ttir.update_cache"(%arg2, %arg4, %arg1)
// CSE: %[[A:.*]] = "ttir.add"(%arg1,
// CSE: "ttir.update_cache"(%arg3, %arg4, %arg1)
// CSE-NOT: "ttir.add"
// CSE: return %[[A]], %[[A]] :
// The backend pipeline runs the pass and a cse after it: one position update per step.
// TTNN-LABEL: func.func @layers_interleaved
// TTNN: %[[A:.*]] = "ttnn.add"(%arg1,
// TTNN-NOT: "ttnn.add"
// TTNN: return %[[A]], %[[A]] :
func.func @layers_interleaved(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %c0: tensor<4x8x16x128xbf16>, %c1: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  "ttir.update_cache"(%c0, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%c1, %x, %p1) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %w0, %w1 : tensor<1xi32>, tensor<1xi32>
}

// One group per delta: %arg0 goes to %arg1 (delta 1), %arg2 to %arg3 (delta 2).
// CHECK-LABEL: func.func @two_groups
// CHECK: "ttir.add"(%arg1, %[[ONE:[^)]*]])
// CHECK: "ttir.add"(%arg3, %[[TWO:[^)]*]])
// CHECK: "ttir.add"(%arg1, %[[ONE]])
// CHECK: "ttir.add"(%arg3, %[[TWO]])
// CHECK: "ttir.update_cache"(%arg4, %arg5, %arg1)
// CHECK: "ttir.update_cache"(%arg4, %arg5, %arg1)
// CHECK: "ttir.update_cache"(%arg4, %arg5, %arg3)
// CHECK: "ttir.update_cache"(%arg4, %arg5, %arg3)
func.func @two_groups(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %p2: tensor<1xi32>, %p3: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %one = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %two = "ttir.full"() <{shape = array<i32: 1>, fill_value = 2 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w2 = "ttir.add"(%p2, %two) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w3 = "ttir.add"(%p3, %two) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p2) <{batch_offset = 2 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p3) <{batch_offset = 3 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w2, %w1, %w3 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// Left alone: the deltas differ (equal fill values in two fulls would match).
// CHECK-LABEL: func.func @different_deltas
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
// CSE-LABEL: func.func @different_deltas
// CSE: "ttir.add"(%arg0,
// CSE: "ttir.add"(%arg1,
func.func @different_deltas(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<1xi32>, tensor<1xi32>) {
  %one = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %two = "ttir.full"() <{shape = array<i32: 1>, fill_value = 2 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %one) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %two) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1 : tensor<1xi32>, tensor<1xi32>
}

// Left alone: the arguments' types differ (one delta, two groups of one).
// CHECK-LABEL: func.func @different_types
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
func.func @different_types(%p0: tensor<1xi32>, %p1: tensor<1xsi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<1xi32>, tensor<1xsi32>) {
  %d0 = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %d1 = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xsi32>
  %w0 = "ttir.add"(%p0, %d0) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d1) : (tensor<1xsi32>, tensor<1xsi32>) -> tensor<1xsi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xsi32>) -> ()
  return %w0, %w1 : tensor<1xi32>, tensor<1xsi32>
}

// Left alone: the add broadcasts (its result is not of the argument's type).
// CHECK-LABEL: func.func @broadcasting_add
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
func.func @broadcasting_add(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<2xi32>, tensor<2xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 2>, fill_value = 1 : i32}> : () -> tensor<2xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<2xi32>) -> tensor<2xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<2xi32>) -> tensor<2xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1 : tensor<2xi32>, tensor<2xi32>
}

// An add read by anything but the return is no write-back (%arg1 stays); the other two still merge.
// CHECK-LABEL: func.func @add_with_a_second_use
// CHECK: "ttir.add"(%arg2,
// CHECK: "ttir.add"(%arg1,
// CHECK: "ttir.add"(%arg2,
func.func @add_with_a_second_use(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %p2: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w2 = "ttir.add"(%p2, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %n = "ttir.neg"(%w1) : (tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p2) <{batch_offset = 2 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1, %w2, %n : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// Left alone: an outer mesh_shard read twice (returned twice here) is no write-back either.
// CHECK-LABEL: func.func @mesh_shard_with_a_second_use
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
func.func @mesh_shard_with_a_second_use(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %a0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w0 = "ttir.mesh_shard"(%a0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w0, %w1 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// Left alone: no cache op reads the arguments, so nothing says the two counters move together.
// CHECK-LABEL: func.func @no_cache_op
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
// CSE-LABEL: func.func @no_cache_op
// CSE: "ttir.add"(%arg0,
// CSE: "ttir.add"(%arg1,
func.func @no_cache_op(%p0: tensor<1xi32>, %p1: tensor<1xi32>) -> (tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  return %w0, %w1 : tensor<1xi32>, tensor<1xi32>
}

// Left alone: %arg1 reaches the update index through a multiply (the trace stops there), and
// %arg2 feeds a paged_fill_cache, not an update-style op; only %arg0 qualifies, a group of one.
// CHECK-LABEL: func.func @not_traced
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
// CHECK: "ttir.add"(%arg2,
func.func @not_traced(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %p2: tensor<1xi32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>,
                      %paged: tensor<32x4x32x64xbf16>, %seq: tensor<1x4x32x64xbf16>, %pt: tensor<4x8xi32>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) {
  %d = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1 : i32}> : () -> tensor<1xi32>
  %w0 = "ttir.add"(%p0, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w2 = "ttir.add"(%p2, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %m = "ttir.multiply"(%p1, %d) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %m) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.paged_fill_cache"(%paged, %seq, %pt, %p2) : (tensor<32x4x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<4x8xi32>, tensor<1xi32>) -> ()
  return %w0, %w1, %w2 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// Left alone: the delta is a splat ttir.constant, not a ttir.full (in the backend pipeline
// canonicalize has made it one by then), or a float full.
// CHECK-LABEL: func.func @delta_not_an_integer_full
// CHECK: "ttir.add"(%arg0,
// CHECK: "ttir.add"(%arg1,
// CHECK: "ttir.add"(%arg2,
// CHECK: "ttir.add"(%arg3,
func.func @delta_not_an_integer_full(%p0: tensor<1xi32>, %p1: tensor<1xi32>, %f0: tensor<1xf32>, %f1: tensor<1xf32>, %cache: tensor<4x8x16x128xbf16>, %x: tensor<1x8x1x128xbf16>)
    -> (tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>) {
  %c = "ttir.constant"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %f = "ttir.full"() <{shape = array<i32: 1>, fill_value = 1.0 : f32}> : () -> tensor<1xf32>
  %w0 = "ttir.add"(%p0, %c) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w1 = "ttir.add"(%p1, %c) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %w2 = "ttir.add"(%f0, %f) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %w3 = "ttir.add"(%f1, %f) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  "ttir.update_cache"(%cache, %x, %p0) <{batch_offset = 0 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  "ttir.update_cache"(%cache, %x, %p1) <{batch_offset = 1 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %i2 = "ttir.typecast"(%f0) : (tensor<1xf32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %i2) <{batch_offset = 2 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  %i3 = "ttir.typecast"(%f1) : (tensor<1xf32>) -> tensor<1xi32>
  "ttir.update_cache"(%cache, %x, %i3) <{batch_offset = 3 : i32}> : (tensor<4x8x16x128xbf16>, tensor<1x8x1x128xbf16>, tensor<1xi32>) -> ()
  return %w0, %w1, %w2, %w3 : tensor<1xi32>, tensor<1xi32>, tensor<1xf32>, tensor<1xf32>
}
