// RUN: ttopt opt %s --ttir-erase-inverse-ops | FileCheck %s
// RUN: ttopt opt %s --ttir-erase-inverse-ops="enable-commute-downwards=false" | FileCheck %s --check-prefix=UP
// RUN: ttopt opt %s --ttir-explicate-tms | FileCheck %s --check-prefix=EXPLICATE
// RUN: ttopt opt %s --ttir-implicit-broadcast-fold | FileCheck %s --check-prefix=FOLD

// Permutes and reshapes move through elementwise ops until they meet their inverse; then both go.
// A move that would add ops (readers that are not all the same TM, other operands that are
// neither the same TM, a constant nor on a const-eval path) is not made.

// Upwards: the permute below the exp moves above it and composes with its inverse to nothing.
// CHECK-LABEL: func.func @permute_pair_around_unary
// CHECK-NEXT: %[[E:.*]] = "ttir.exp"(%arg0) : (tensor<1x32x64x128xf32>) -> tensor<1x32x64x128xf32>
// CHECK-NEXT: return %[[E]]
func.func @permute_pair_around_unary(%arg0: tensor<1x32x64x128xf32>) -> tensor<1x32x64x128xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x32x64x128xf32>) -> tensor<1x32x128x64xf32>
  %1 = "ttir.exp"(%0) : (tensor<1x32x128x64xf32>) -> tensor<1x32x128x64xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 1, 3, 2>}> : (tensor<1x32x128x64xf32>) -> tensor<1x32x64x128xf32>
  return %2 : tensor<1x32x64x128xf32>
}

// A reshape and its inverse around a chain of binary and unary ops whose other operands are
// the same reshape: all of them cancel.
// CHECK-LABEL: func.func @reshape_pair_around_chain
// CHECK-NOT: ttir.reshape
// CHECK: %[[A:.*]] = "ttir.add"(%arg0, %arg1) : (tensor<8x56x56x64xbf16>, tensor<8x56x56x64xbf16>) -> tensor<8x56x56x64xbf16>
// CHECK: %[[R:.*]] = "ttir.relu"(%[[A]]) : (tensor<8x56x56x64xbf16>) -> tensor<8x56x56x64xbf16>
// CHECK-NOT: ttir.reshape
// CHECK: return %[[R]]
func.func @reshape_pair_around_chain(%arg0: tensor<8x56x56x64xbf16>, %arg1: tensor<8x56x56x64xbf16>) -> tensor<8x56x56x64xbf16> {
  %0 = "ttir.reshape"(%arg0) <{shape = [1 : i32, 1 : i32, 25088 : i32, 64 : i32]}> : (tensor<8x56x56x64xbf16>) -> tensor<1x1x25088x64xbf16>
  %1 = "ttir.reshape"(%arg1) <{shape = [1 : i32, 1 : i32, 25088 : i32, 64 : i32]}> : (tensor<8x56x56x64xbf16>) -> tensor<1x1x25088x64xbf16>
  %2 = "ttir.add"(%0, %1) : (tensor<1x1x25088x64xbf16>, tensor<1x1x25088x64xbf16>) -> tensor<1x1x25088x64xbf16>
  %3 = "ttir.relu"(%2) : (tensor<1x1x25088x64xbf16>) -> tensor<1x1x25088x64xbf16>
  %4 = "ttir.reshape"(%3) <{shape = [8 : i32, 56 : i32, 56 : i32, 64 : i32]}> : (tensor<1x1x25088x64xbf16>) -> tensor<8x56x56x64xbf16>
  return %4 : tensor<8x56x56x64xbf16>
}

// Downwards past a binary op whose other operand is a parameter: the parameter gets the inverse
// permute (computed once by const-eval), the permute moves below and meets its inverse.
// A typecast keeps its element types: the moved permute reads the typecast's result type.
// CHECK-LABEL: func.func @down_past_parameter
// CHECK: %[[P:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 0, 2, 1>}> : (tensor<4x16x8xbf16>) -> tensor<4x8x16xbf16>
// CHECK: %[[M:.*]] = "ttir.multiply"(%arg0, %[[P]]) : (tensor<4x8x16xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16>
// CHECK: %[[T:.*]] = "ttir.typecast"(%[[M]]) : (tensor<4x8x16xbf16>) -> tensor<4x8x16xf32>
// CHECK-NOT: ttir.permute
// CHECK: return %[[T]]
func.func @down_past_parameter(%arg0: tensor<4x8x16xbf16>, %arg1: tensor<4x16x8xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<4x8x16xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<4x8x16xbf16>) -> tensor<4x16x8xbf16>
  %1 = "ttir.multiply"(%0, %arg1) : (tensor<4x16x8xbf16>, tensor<4x16x8xbf16>) -> tensor<4x16x8xbf16>
  %2 = "ttir.typecast"(%1) : (tensor<4x16x8xbf16>) -> tensor<4x16x8xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 2, 1>}> : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  return %3 : tensor<4x8x16xf32>
}

// Not favorable: the add has a second reader that is not the permute, and its other operand is
// an activation, so neither direction moves anything.
// CHECK-LABEL: func.func @no_move_when_it_adds_ops
// CHECK: %[[P:.*]] = "ttir.permute"(%arg0)
// CHECK: %[[A:.*]] = "ttir.add"(%[[P]], %arg1)
// CHECK: %[[Q:.*]] = "ttir.permute"(%[[A]])
// CHECK: return %[[Q]], %[[A]]
func.func @no_move_when_it_adds_ops(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x4x3xf32>) -> (tensor<2x3x4xf32>, tensor<2x4x3xf32>) {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %1 = "ttir.add"(%0, %arg1) : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  return %2, %1 : tensor<2x3x4xf32>, tensor<2x4x3xf32>
}

// An operand the op broadcasts implicitly (a different shape than the result) keeps a reshape
// from moving above the op: the reshape's target would not fit it. A permute fits any operand
// of its rank, so it moves up, the broadcast operand permuted as it is; the downward run moves
// it back (one permute instead of two).
// CHECK-LABEL: func.func @implicit_broadcast_operand
// CHECK: "ttir.reshape"(%{{.*}}) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
// CHECK: %[[S:.*]] = "ttir.subtract"(%arg0, %arg1)
// CHECK: "ttir.permute"(%[[S]])
// UP-LABEL: func.func @implicit_broadcast_operand
// UP: "ttir.reshape"(%{{.*}}) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
// UP: %[[P0:.*]] = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x32x64xf32>) -> tensor<1x64x32xf32>
// UP: %[[P1:.*]] = "ttir.permute"(%arg1) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x1x64xf32>) -> tensor<1x64x1xf32>
// UP: "ttir.subtract"(%[[P0]], %[[P1]]) : (tensor<1x64x32xf32>, tensor<1x64x1xf32>) -> tensor<1x64x32xf32>
func.func @implicit_broadcast_operand(%arg0: tensor<1x32x64xf32>, %arg1: tensor<1x1x64xf32>) -> (tensor<32x64xf32>, tensor<1x64x32xf32>) {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<1x32x64xf32>, tensor<1x1x64xf32>) -> tensor<1x32x64xf32>
  %1 = "ttir.reshape"(%0) <{shape = [32 : i32, 64 : i32]}> : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.subtract"(%arg0, %arg1) : (tensor<1x32x64xf32>, tensor<1x1x64xf32>) -> tensor<1x32x64xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 2, 1>}> : (tensor<1x32x64xf32>) -> tensor<1x64x32xf32>
  return %1, %3 : tensor<32x64xf32>, tensor<1x64x32xf32>
}

// permute -> reshape -> permute that only regroups dimensions is one reshape.
// CHECK-LABEL: func.func @permute_reshape_permute
// CHECK-NEXT: %[[R:.*]] = "ttir.reshape"(%arg0) <{shape = [1 : i32, 2048 : i32, 8 : i32, 1 : i32]}> : (tensor<1x2048x2x4xf32>) -> tensor<1x2048x8x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @permute_reshape_permute(%arg0: tensor<1x2048x2x4xf32>) -> tensor<1x2048x8x1xf32> {
  %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<1x2048x2x4xf32>) -> tensor<1x2x4x2048xf32>
  %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 8 : i32, 1 : i32, 2048 : i32]}> : (tensor<1x2x4x2048xf32>) -> tensor<1x8x1x2048xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<1x8x1x2048xf32>) -> tensor<1x2048x8x1xf32>
  return %2 : tensor<1x2048x8x1xf32>
}

// ttir-explicate-tms: a lower-rank operand is reshaped to the op's rank, then each operand that
// is broadcast implicitly is broadcast explicitly. ttir-implicit-broadcast-fold undoes it.
// EXPLICATE-LABEL: func.func @explicit_and_implicit
// EXPLICATE: %[[R:.*]] = "ttir.reshape"(%arg1) <{shape = [1 : i32, 1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
// EXPLICATE: %[[B:.*]] = "ttir.broadcast"(%[[R]]) <{broadcast_dimensions = array<i64: 2, 32, 1>}> : (tensor<1x1x64xf32>) -> tensor<2x32x64xf32>
// EXPLICATE: "ttir.add"(%arg0, %[[B]]) : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
// EXPLICATE: %[[W:.*]] = "ttir.broadcast"(%arg2) <{broadcast_dimensions = array<i64: 1, 32, 64>}> : (tensor<2x1x1xi1>) -> tensor<2x32x64xi1>
// EXPLICATE: "ttir.where"(%[[W]], %arg0, %{{.*}})
// FOLD-LABEL: func.func @explicit_and_implicit
// FOLD: "ttir.add"(%arg0, %arg1) : (tensor<2x32x64xf32>, tensor<64xf32>) -> tensor<2x32x64xf32>
func.func @explicit_and_implicit(%arg0: tensor<2x32x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<2x1x1xi1>) -> tensor<2x32x64xf32> {
  %0 = "ttir.add"(%arg0, %arg1) : (tensor<2x32x64xf32>, tensor<64xf32>) -> tensor<2x32x64xf32>
  %1 = "ttir.where"(%arg2, %arg0, %0) : (tensor<2x1x1xi1>, tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
  return %1 : tensor<2x32x64xf32>
}

// ttir-implicit-broadcast-fold: a unary op of a broadcast computes the small shape, and the
// broadcast moves below it into the next elementwise reader.
// FOLD-LABEL: func.func @broadcast_moves_below_unary
// FOLD: %[[E:.*]] = "ttir.exp"(%arg0) : (tensor<1x64xf32>) -> tensor<1x64xf32>
// FOLD: "ttir.add"(%arg1, %[[E]]) : (tensor<32x64xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>
// FOLD-NOT: ttir.broadcast
func.func @broadcast_moves_below_unary(%arg0: tensor<1x64xf32>, %arg1: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.broadcast"(%arg0) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.exp"(%0) : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = "ttir.add"(%arg1, %1) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}
