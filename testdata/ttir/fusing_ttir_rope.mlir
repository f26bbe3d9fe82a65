// RUN: ttopt opt %s --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="composite-resolution=force-promote" | FileCheck %s --check-prefix=PROMOTE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=INLINE

// RoPE chains become a ttcore.composite "rotary_embedding" of (x, cos, sin) in ttir-fusing, as
// HEAD's TTIR RoPE patterns make them, whatever the estimates; a private decomposition function
// computes it. The backend pipeline resolves the composite after the conversion: force-promote
// writes ttnn.rotary_embedding, the default inlines the body, which ttnn-fusing fuses again.

// The rotate-half form, the add and the cos multiply commuted: the composite reads cos and sin
// from behind their broadcasts.
// CHECK-LABEL: func.func @rope(
// CHECK: %[[R:.*]] = "ttcore.composite"(%arg0, %arg1, %arg2) <{composite_name = "rotary_embedding", decomposition = @rotary_embedding_decomp_0}> : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
// CHECK-NOT: "ttir.
// CHECK: return %[[R]]
// TRACE: ttir-fusing: rope at "rope": applied: ttcore.composite {{.*}} vs 9 ops (add, multiply x2, broadcast x2, concat, neg, slice_static x2)
// PROMOTE-LABEL: func.func @rope(
// PROMOTE: "ttnn.rotary_embedding"(%arg0, %arg1, %arg2)
// PROMOTE-NOT: ttcore.composite
// INLINE-LABEL: func.func @rope(
// INLINE: "ttnn.rotary_embedding"(%arg0, %arg1, %arg2)
// INLINE-NOT: "ttnn.neg"
func.func @rope(%x: tensor<1x8x32x64xbf16>, %cos: tensor<1x1x32x64xbf16>, %sin: tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16> {
  %cb = "ttir.broadcast"(%cos) <{broadcast_dimensions = array<i64: 1, 8, 1, 1>}> : (tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %xc = "ttir.multiply"(%cb, %x) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<1x8x32x32xbf16>) -> tensor<1x8x32x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<1x8x32x32xbf16>, tensor<1x8x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  %sb = "ttir.broadcast"(%sin) <{broadcast_dimensions = array<i64: 1, 8, 1, 1>}> : (tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %rs = "ttir.multiply"(%rot, %sb) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %r = "ttir.add"(%rs, %xc) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16> loc("rope")
  return %r : tensor<1x8x32x64xbf16>
}

// The expanded form on half-width tables: the composite reads them doubled, and its decomposition
// (below) computes the complex rotation from their first halves.
// CHECK-LABEL: func.func @rope_expanded(
// CHECK: %[[C:.*]] = "ttir.concat"(%arg1, %arg1) <{dim = 3 : si32}> : (tensor<1x1x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<1x1x1x64xbf16>
// CHECK: %[[S:.*]] = "ttir.concat"(%arg2, %arg2) <{dim = 3 : si32}>
// CHECK: "ttcore.composite"(%arg0, %[[C]], %[[S]]) <{composite_name = "rotary_embedding", decomposition = @rotary_embedding_decomp_1}>
// CHECK-NOT: "ttir.subtract"
// TRACE: ttir-fusing: rope_expanded at "expanded": applied
// PROMOTE-LABEL: func.func @rope_expanded(
// PROMOTE: "ttnn.rotary_embedding"(%arg0,
// INLINE-LABEL: func.func @rope_expanded(
// INLINE: "ttnn.rotary_embedding"(%arg0,
// INLINE-NOT: "ttnn.subtract"
func.func @rope_expanded(%x: tensor<16x8x1x64xbf16>, %c: tensor<1x1x1x32xbf16>, %s: tensor<1x1x1x32xbf16>) -> tensor<16x8x1x64xbf16> {
  %x1 = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [16 : i32, 8 : i32, 1 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<16x8x1x64xbf16>) -> tensor<16x8x1x32xbf16>
  %x2 = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [16 : i32, 8 : i32, 1 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<16x8x1x64xbf16>) -> tensor<16x8x1x32xbf16>
  %0 = "ttir.multiply"(%x1, %c) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %1 = "ttir.multiply"(%x2, %s) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %2 = "ttir.subtract"(%0, %1) : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %3 = "ttir.multiply"(%c, %x2) : (tensor<1x1x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %4 = "ttir.multiply"(%x1, %s) : (tensor<16x8x1x32xbf16>, tensor<1x1x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %5 = "ttir.add"(%3, %4) : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x32xbf16>
  %6 = "ttir.concat"(%2, %5) <{dim = 3 : si32}> : (tensor<16x8x1x32xbf16>, tensor<16x8x1x32xbf16>) -> tensor<16x8x1x64xbf16> loc("expanded")
  return %6 : tensor<16x8x1x64xbf16>
}

// The rotated concat has another reader: HEAD's pattern leaves the chain (and says why here).
// CHECK-LABEL: func.func @rotated_twice(
// CHECK-NOT: ttcore.composite
// CHECK: "ttir.add"
// TRACE: ttir-fusing: rope at ttir.add: not applied: a multiply, the rotated concat or the neg has other readers
func.func @rotated_twice(%x: tensor<1x8x32x64xbf16>, %cos: tensor<1x1x32x64xbf16>, %sin: tensor<1x1x32x64xbf16>) -> (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) {
  %xc = "ttir.multiply"(%x, %cos) : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %hi = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %nh = "ttir.neg"(%hi) : (tensor<1x8x32x32xbf16>) -> tensor<1x8x32x32xbf16>
  %lo = "ttir.slice_static"(%x) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x8x32x64xbf16>) -> tensor<1x8x32x32xbf16>
  %rot = "ttir.concat"(%nh, %lo) <{dim = 3 : si32}> : (tensor<1x8x32x32xbf16>, tensor<1x8x32x32xbf16>) -> tensor<1x8x32x64xbf16>
  %rs = "ttir.multiply"(%rot, %sin) : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  %r = "ttir.add"(%xc, %rs) : (tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x32x64xbf16>
  return %r, %rot : tensor<1x8x32x64xbf16>, tensor<1x8x32x64xbf16>
}

// The decompositions, private, marked so no fusing recurses into them.
// CHECK-LABEL: func.func private @rotary_embedding_decomp_0(%arg0: tensor<1x8x32x64xbf16>, %arg1: tensor<1x1x32x64xbf16>, %arg2: tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16> attributes {tt.composite_decomposition}
// CHECK: %[[LO:.*]] = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 32 : i32]
// CHECK: %[[HI:.*]] = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [1 : i32, 8 : i32, 32 : i32, 64 : i32]
// CHECK: %[[N:.*]] = "ttir.neg"(%[[HI]])
// CHECK: %[[ROT:.*]] = "ttir.concat"(%[[N]], %[[LO]]) <{dim = 3 : si32}>
// CHECK: %[[XC:.*]] = "ttir.multiply"(%arg0, %arg1) : (tensor<1x8x32x64xbf16>, tensor<1x1x32x64xbf16>) -> tensor<1x8x32x64xbf16>
// CHECK: %[[RS:.*]] = "ttir.multiply"(%[[ROT]], %arg2)
// CHECK: %[[A:.*]] = "ttir.add"(%[[XC]], %[[RS]])
// CHECK: return %[[A]]
// CHECK-LABEL: func.func private @rotary_embedding_decomp_1(
// CHECK: %[[LO:.*]] = "ttir.slice_static"(%arg0)
// CHECK: %[[HI:.*]] = "ttir.slice_static"(%arg0)
// CHECK: %[[CH:.*]] = "ttir.slice_static"(%arg1) <{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [1 : i32, 1 : i32, 1 : i32, 32 : i32]
// CHECK: %[[SH:.*]] = "ttir.slice_static"(%arg2)
// CHECK: %[[A:.*]] = "ttir.multiply"(%[[LO]], %[[CH]])
// CHECK: %[[B:.*]] = "ttir.multiply"(%[[HI]], %[[SH]])
// CHECK: %[[FIRST:.*]] = "ttir.subtract"(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = "ttir.multiply"(%[[HI]], %[[CH]])
// CHECK: %[[D:.*]] = "ttir.multiply"(%[[LO]], %[[SH]])
// CHECK: %[[SECOND:.*]] = "ttir.add"(%[[C]], %[[D]])
// CHECK: "ttir.concat"(%[[FIRST]], %[[SECOND]]) <{dim = 3 : si32}>
// PROMOTE-NOT: rotary_embedding_decomp
// INLINE-NOT: rotary_embedding_decomp
