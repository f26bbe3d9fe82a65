// RUN: ttopt opt %s --ttir-propagate-weight-dtype --verify-diagnostics | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false" 2>/dev/null | FileCheck %s --check-prefix=TTNN
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="enable-cpu-hoisted-const-eval=false experimental-weight-dtype=bfp_bf4" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=GLOBAL

// A weight argument's ttcore.weight_dtype reaches the matmul / linear reading it through ops that
// keep it the same tensor (TMs, collectives, broadcast, mesh ops, typecast); a concat of weights merges its operands' types
// to the widest, with a warning when they disagree or one has none. The backend pipeline's
// ttnn-weight-dtype-conversion then casts the weight even without experimental-weight-dtype.

// CHECK-LABEL: func.func @through_typecast_and_transpose
// CHECK: "ttir.matmul"(%arg0, %{{.*}}) {ttcore.weight_dtype = "bfp_bf8"}
// CHECK: "ttir.linear"(%arg0, %{{.*}}, %arg2) {ttcore.weight_dtype = "bfp_bf8"}
// TTNN-LABEL: func.func private @through_typecast_and_transpose_const_eval_0(
// TTNN: "ttnn.typecast"({{.*}} -> tensor<128x64x!ttcore.tile<32x32, bfp_bf8>
// TTNN-LABEL: func.func @through_typecast_and_transpose(
// TTNN: "ttnn.matmul"({{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf8"} : ({{.*}}, tensor<128x64x!ttcore.tile<32x32, bfp_bf8>
// TTNN: "ttnn.linear"({{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf8"} : ({{.*}}, tensor<128x64x!ttcore.tile<32x32, bfp_bf8>
// The per-op type wins over the option.
// GLOBAL-LABEL: func.func @through_typecast_and_transpose(
// GLOBAL: "ttnn.matmul"({{.*}}) <{{.*}}> {ttcore.weight_dtype = "bfp_bf8"} : ({{.*}}, tensor<128x64x!ttcore.tile<32x32, bfp_bf8>
func.func @through_typecast_and_transpose(
    %arg0: tensor<32x128xbf16>,
    %arg1: tensor<64x128xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttcore.weight_dtype = "bfp_bf8"},
    %arg2: tensor<64xbf16>) -> (tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.typecast"(%arg1) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
  %1 = "ttir.transpose"(%0) <{dim0 = 0 : si32, dim1 = 1 : si32}> : (tensor<64x128xbf16>) -> tensor<128x64xbf16>
  %2 = "ttir.matmul"(%arg0, %1) : (tensor<32x128xbf16>, tensor<128x64xbf16>) -> tensor<32x64xbf16>
  %3 = "ttir.linear"(%arg0, %1, %arg2) : (tensor<32x128xbf16>, tensor<128x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16>
  return %2, %3 : tensor<32x64xbf16>, tensor<32x64xbf16>
}

// A weight computed by anything else (here a multiply) is no argument's: the matmul keeps what it had.
// CHECK-LABEL: func.func @blocked_by_compute
// CHECK: "ttir.matmul"(%arg0, %0) {ttcore.weight_dtype = "bf16"}
func.func @blocked_by_compute(
    %arg0: tensor<32x64xbf16>,
    %arg1: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttcore.weight_dtype = "bfp_bf4"}) -> tensor<32x64xbf16> {
  %0 = "ttir.multiply"(%arg1, %arg1) : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %1 = "ttir.matmul"(%arg0, %0) {ttcore.weight_dtype = "bf16"} : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}

// One concatenated weight without a type: the others' type wins, with HEAD's warning.
// CHECK-LABEL: func.func @concat_with_an_unannotated_weight
// CHECK: "ttir.matmul"(%arg0, %0) {ttcore.weight_dtype = "bfp_bf4"}
func.func @concat_with_an_unannotated_weight(
    %arg0: tensor<32x64xbf16>,
    %arg1: tensor<64x32xbf16> {ttcore.weight_dtype = "bfp_bf4"},
    %arg2: tensor<64x32xbf16>) -> tensor<32x64xbf16> {
  %0 = "ttir.concat"(%arg1, %arg2) <{dim = 1 : si32}> : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x64xbf16>
  // expected-warning @+1 {{fusing matmuls with differing weight dtype overrides; using highest-precision dtype 'bfp_bf4' for the fused weight to avoid precision loss}}
  %1 = "ttir.matmul"(%arg0, %0) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %1 : tensor<32x64xbf16>
}

// A name that is no ttcore data type is ignored with a warning at the function, once per reader;
// a non-string value is ignored silently.
// CHECK-LABEL: func.func @invalid_names
// CHECK: "ttir.matmul"(%arg0, %arg1) : (
// CHECK: "ttir.matmul"(%arg0, %arg1) : (
// CHECK: "ttir.matmul"(%arg0, %arg2) : (
// expected-warning @+2 {{ignoring invalid ttcore.weight_dtype "bfp8" on argument 1}}
// expected-warning @+1 {{ignoring invalid ttcore.weight_dtype "bfp8" on argument 1}}
func.func @invalid_names(
    %arg0: tensor<32x64xbf16>,
    %arg1: tensor<64x64xbf16> {ttcore.weight_dtype = "bfp8"},
    %arg2: tensor<64x64xbf16> {ttcore.weight_dtype = 8 : i32}) -> (tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>) {
  %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  %1 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  %2 = "ttir.matmul"(%arg0, %arg2) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %0, %1, %2 : tensor<32x64xbf16>, tensor<32x64xbf16>, tensor<32x64xbf16>
}

// bf16 on a weight keeps it bf16 even under experimental-weight-dtype (the per-op type wins).
// CHECK-LABEL: func.func @bf16_opts_out
// CHECK: "ttir.matmul"(%arg0, %arg1) {ttcore.weight_dtype = "bf16"}
// GLOBAL-LABEL: func.func @bf16_opts_out(
// GLOBAL-NOT: ttnn.typecast
// GLOBAL: "ttnn.matmul"(%arg0, %arg1)
func.func @bf16_opts_out(
    %arg0: tensor<32x64xbf16>,
    %arg1: tensor<64x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>, ttcore.weight_dtype = "bf16"}) -> tensor<32x64xbf16> {
  %0 = "ttir.matmul"(%arg0, %arg1) : (tensor<32x64xbf16>, tensor<64x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}
