// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// A residual add computed in f32 from two bf16 values (the typecasts folded into the add), then an
// RMS norm with a bf16 weight. The norm takes the add cast back to bf16 (tt-mlir's
// revertTypecastFolding); the add's other reader, the next residual, reads it rounded to bf16 and
// widened again, as in tt-mlir.
// CHECK-LABEL: func.func @residual_norm
// CHECK: %[[ADD:.*]] = "ttir.add"
// CHECK-NEXT: %[[BF:.*]] = "ttir.typecast"(%[[ADD]]) : (tensor<32x2048xf32>) -> tensor<32x2048xbf16>
// CHECK-NEXT: %[[BACK:.*]] = "ttir.typecast"(%[[BF]]) : (tensor<32x2048xbf16>) -> tensor<32x2048xf32>
// CHECK: %[[N:.*]] = "ttir.rms_norm"(%[[BF]], %arg2)
// CHECK-SAME: (tensor<32x2048xbf16>, tensor<2048xbf16>) -> tensor<32x2048xbf16>
// CHECK: %[[E:.*]] = "ttir.exp"(%[[BACK]])
// CHECK: return %[[N]], %[[E]]
// TRACE: ttir-fusing: rms_norm at {{.*}}: applied: {{.*}} (epsilon 1e-05, input cast back to bf16 (a folded typecast))
func.func @residual_norm(%arg0: tensor<32x2048xbf16>, %arg1: tensor<32x2048xbf16>, %arg2: tensor<2048xbf16>) -> (tensor<32x2048xbf16>, tensor<32x2048xf32>) {
  %a = "ttir.typecast"(%arg0) : (tensor<32x2048xbf16>) -> tensor<32x2048xf32>
  %b = "ttir.typecast"(%arg1) : (tensor<32x2048xbf16>) -> tensor<32x2048xf32>
  %x = "ttir.add"(%a, %b) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %sq = "ttir.multiply"(%x, %x) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %m = "ttir.mean"(%sq) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<32x2048xf32>) -> tensor<32x1xf32>
  %e = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 32, 1>}> : () -> tensor<32x1xf32>
  %s = "ttir.add"(%m, %e) : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %r = "ttir.rsqrt"(%s) : (tensor<32x1xf32>) -> tensor<32x1xf32>
  %rb = "ttir.broadcast"(%r) <{broadcast_dimensions = array<i64: 1, 2048>}> : (tensor<32x1xf32>) -> tensor<32x2048xf32>
  %n = "ttir.multiply"(%x, %rb) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %nb = "ttir.typecast"(%n) : (tensor<32x2048xf32>) -> tensor<32x2048xbf16>
  %g = "ttir.reshape"(%arg2) <{shape = [1 : i32, 2048 : i32]}> : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
  %gb = "ttir.broadcast"(%g) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x2048xbf16>) -> tensor<32x2048xbf16>
  %out = "ttir.multiply"(%gb, %nb) : (tensor<32x2048xbf16>, tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
  %next = "ttir.exp"(%x) : (tensor<32x2048xf32>) -> tensor<32x2048xf32>
  return %out, %next : tensor<32x2048xbf16>, tensor<32x2048xf32>
}

// -----

// The add's operands come from different types (bf16 and f16): no single type was folded away, so
// the f32 input and the bf16 weight stay a mismatch and nothing fuses.
// CHECK-LABEL: func.func @mixed_sources
// CHECK-NOT: ttir.rms_norm
// TRACE: ttir-fusing: rms_norm at {{.*}}: not applied: gamma is bf16, the input f32
func.func @mixed_sources(%arg0: tensor<32x2048xbf16>, %arg1: tensor<32x2048xf16>, %arg2: tensor<2048xbf16>) -> tensor<32x2048xbf16> {
  %a = "ttir.typecast"(%arg0) : (tensor<32x2048xbf16>) -> tensor<32x2048xf32>
  %b = "ttir.typecast"(%arg1) : (tensor<32x2048xf16>) -> tensor<32x2048xf32>
  %x = "ttir.add"(%a, %b) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %sq = "ttir.multiply"(%x, %x) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %m = "ttir.mean"(%sq) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<32x2048xf32>) -> tensor<32x1xf32>
  %e = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 32, 1>}> : () -> tensor<32x1xf32>
  %s = "ttir.add"(%m, %e) : (tensor<32x1xf32>, tensor<32x1xf32>) -> tensor<32x1xf32>
  %r = "ttir.rsqrt"(%s) : (tensor<32x1xf32>) -> tensor<32x1xf32>
  %rb = "ttir.broadcast"(%r) <{broadcast_dimensions = array<i64: 1, 2048>}> : (tensor<32x1xf32>) -> tensor<32x2048xf32>
  %n = "ttir.multiply"(%x, %rb) : (tensor<32x2048xf32>, tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %nb = "ttir.typecast"(%n) : (tensor<32x2048xf32>) -> tensor<32x2048xbf16>
  %g = "ttir.reshape"(%arg2) <{shape = [1 : i32, 2048 : i32]}> : (tensor<2048xbf16>) -> tensor<1x2048xbf16>
  %gb = "ttir.broadcast"(%g) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x2048xbf16>) -> tensor<32x2048xbf16>
  %out = "ttir.multiply"(%gb, %nb) : (tensor<32x2048xbf16>, tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
  return %out : tensor<32x2048xbf16>
}
