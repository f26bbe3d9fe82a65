// RUN: ttopt opt %s --split-input-file --ttir-fusing | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttir-fusing --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// The norm forms Hugging Face's Flax models export, beyond tt-mlir HEAD's patterns
// (tests/lowering/test_fusing_norm_forms.py has the numeric checks and the other near misses).

// Flax's Llama / Mistral RMS norm of a bf16 x: computed in f32, dividing by sqrt(mean(x^2) + eps),
// then cast back and scaled by the bf16 weight: an rms_norm on the bf16 x (the casts dropped, as
// HEAD's rsqrt pattern runs the norm on x as it is).
// CHECK-LABEL: func.func @llama_rms
// CHECK-NEXT: %[[N:.*]] = "ttir.rms_norm"(%arg0, %arg1) <{epsilon = 9.99999997E-7 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x64xbf16>, tensor<64xbf16>) -> tensor<4x64xbf16>
// CHECK-NEXT: return %[[N]]
// TRACE: ttir-fusing: rms_norm at {{.*}}: applied: ttir.rms_norm {{.*}} (epsilon 1e-06)
  func.func @llama_rms(%x: tensor<4x64xbf16>, %g: tensor<64xbf16>) -> tensor<4x64xbf16> {
    %x32 = "ttir.typecast"(%x) : (tensor<4x64xbf16>) -> tensor<4x64xf32>
    %sq = "ttir.multiply"(%x32, %x32) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %m_s = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %m_r = "ttir.reshape"(%m_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %m_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %m = "ttir.div"(%m_r, %m_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %e = "ttir.full"() <{fill_value = 9.99999997E-7 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %a = "ttir.add"(%m, %e) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %d = "ttir.sqrt"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %db = "ttir.broadcast"(%d) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %n = "ttir.div"(%x32, %db) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %nb = "ttir.typecast"(%n) : (tensor<4x64xf32>) -> tensor<4x64xbf16>
    %gb_r = "ttir.reshape"(%g) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xbf16>) -> tensor<1x64xbf16>
    %gb = "ttir.broadcast"(%gb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xbf16>) -> tensor<4x64xbf16>
    %out = "ttir.multiply"(%gb, %nb) : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
    return %out : tensor<4x64xbf16>
  }

// -----

// Gemma's (1 + w) weight: the add on the [64] weight stays (computed once, hoisted by const-eval
// when w is a parameter) and is the norm's weight.
// CHECK-LABEL: func.func @gemma_rms
// CHECK: %[[W:.*]] = "ttir.add"(%{{.*}}, %arg1) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
// CHECK-NEXT: %[[N:.*]] = "ttir.rms_norm"(%arg0, %[[W]])
// CHECK-NEXT: return %[[N]]
// TRACE: ttir-fusing: rms_norm at {{.*}}: applied
  func.func @gemma_rms(%x: tensor<4x64xbf16>, %g: tensor<64xbf16>) -> tensor<4x64xbf16> {
    %x32 = "ttir.typecast"(%x) : (tensor<4x64xbf16>) -> tensor<4x64xf32>
    %sq = "ttir.multiply"(%x32, %x32) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %m_s = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %m_r = "ttir.reshape"(%m_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %m_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %m = "ttir.div"(%m_r, %m_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %e = "ttir.full"() <{fill_value = 9.99999997E-7 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %a = "ttir.add"(%m, %e) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %d = "ttir.sqrt"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %db = "ttir.broadcast"(%d) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %n = "ttir.div"(%x32, %db) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %one = "ttir.full"() <{fill_value = 1.000000e+00 : f32, shape = array<i32: 64>}> : () -> tensor<64xbf16>
    %w1 = "ttir.add"(%one, %g) : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16>
    %nb = "ttir.typecast"(%n) : (tensor<4x64xf32>) -> tensor<4x64xbf16>
    %gb_r = "ttir.reshape"(%w1) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xbf16>) -> tensor<1x64xbf16>
    %gb = "ttir.broadcast"(%gb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xbf16>) -> tensor<4x64xbf16>
    %out = "ttir.multiply"(%gb, %nb) : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
    return %out : tensor<4x64xbf16>
  }

// -----

// Flax's LayerNorm: variance E[x^2] - E[x]^2 under maximum(0, .) (the relu pattern makes it a relu
// first), gamma folded into rsqrt(var + eps), then + beta: one layer_norm with weight and bias.
// CHECK-LABEL: func.func @flax_layer_norm
// CHECK-NEXT: %[[N:.*]] = "ttir.layer_norm"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, normalized_shape = array<i64: 64>, operandSegmentSizes = array<i32: 1, 1, 1>}>
// CHECK-NEXT: return %[[N]]
// TRACE: ttir-fusing: layer_norm at {{.*}}: applied: ttir.layer_norm {{.*}} (epsilon 1e-05, gamma and beta)
  func.func @flax_layer_norm(%x: tensor<4x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
    %mu_s = "ttir.sum"(%x) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %mu_r = "ttir.reshape"(%mu_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %mu_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %mu = "ttir.div"(%mu_r, %mu_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %mub = "ttir.broadcast"(%mu) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %c = "ttir.subtract"(%x, %mub) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %sq = "ttir.square"(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %m2_s = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %m2_r = "ttir.reshape"(%m2_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %m2_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %m2 = "ttir.div"(%m2_r, %m2_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %mm = "ttir.square"(%mu) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %df = "ttir.subtract"(%m2, %mm) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %z = "ttir.zeros"() <{shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %v = "ttir.maximum"(%z, %df) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %e = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %a = "ttir.add"(%v, %e) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %d = "ttir.rsqrt"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %db = "ttir.broadcast"(%d) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %gb_r = "ttir.reshape"(%g) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %gb = "ttir.broadcast"(%gb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %k = "ttir.multiply"(%db, %gb) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %y = "ttir.multiply"(%c, %k) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %bb_r = "ttir.reshape"(%b) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %bb = "ttir.broadcast"(%bb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %out = "ttir.add"(%y, %bb) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    return %out : tensor<4x64xf32>
  }

// -----

// Near miss: eps added after the root (sqrt(var) + eps) is another function: not fused.
// CHECK-LABEL: func.func @eps_after_root
// CHECK-NOT: ttir.layer_norm
// CHECK-NOT: ttir.rms_norm
// CHECK: return
  func.func @eps_after_root(%x: tensor<4x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
    %mu_s = "ttir.sum"(%x) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %mu_r = "ttir.reshape"(%mu_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %mu_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %mu = "ttir.div"(%mu_r, %mu_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %mub = "ttir.broadcast"(%mu) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %c = "ttir.subtract"(%x, %mub) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %sq = "ttir.square"(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
    %m2_s = "ttir.sum"(%sq) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<4x64xf32>) -> tensor<4xf32>
    %m2_r = "ttir.reshape"(%m2_s) <{shape = [4 : i32, 1 : i32]}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %m2_n = "ttir.full"() <{fill_value = 6.400000e+01 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %m2 = "ttir.div"(%m2_r, %m2_n) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %mm = "ttir.square"(%mu) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %df = "ttir.subtract"(%m2, %mm) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %z = "ttir.zeros"() <{shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %v = "ttir.maximum"(%z, %df) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %e = "ttir.full"() <{fill_value = 9.99999974E-6 : f32, shape = array<i32: 4, 1>}> : () -> tensor<4x1xf32>
    %rt = "ttir.sqrt"(%v) : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %d = "ttir.add"(%rt, %e) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %db = "ttir.broadcast"(%d) <{broadcast_dimensions = array<i64: 1, 64>}> : (tensor<4x1xf32>) -> tensor<4x64xf32>
    %y = "ttir.div"(%c, %db) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %gb_r = "ttir.reshape"(%g) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %gb = "ttir.broadcast"(%gb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %yg = "ttir.multiply"(%y, %gb) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    %bb_r = "ttir.reshape"(%b) <{shape = [1 : i32, 64 : i32]}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %bb = "ttir.broadcast"(%bb_r) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %out = "ttir.add"(%yg, %bb) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
    return %out : tensor<4x64xf32>
  }
