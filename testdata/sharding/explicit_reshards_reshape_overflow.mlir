// RUN: ttopt opt %s --pass-pipeline='builtin.module(insert-explicit-reshards{conservative=false})' | FileCheck %s

// A reshape with overflow axes (Shardy's processReshapeWithOverflowAxes): 20 = [ij] with i=10,
// j=2 on {"a"=4, "b"=2} gives i "a":(1)2 and overflows "a":(2)2, "b". The more sharded side's
// axes are handed out again, axis first, to each side's factors ("a":(1)2 to i, "a":(2)2 to j,
// "b" overflows), and each factor keeps what both sides then agree on: i on "a":(1)2.
// Before, the reshape was skipped and left with incompatible shardings.
sdy.mesh @m = <["a"=4, "b"=2]>

// CHECK-LABEL: func.func @split
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{"a":(1)2}]> : tensor<20xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a":(1)2}, {}]>]>} : (tensor<20xf32>) -> tensor<10x2xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@m, [{}, {}]> : tensor<10x2xf32>
// CHECK-NEXT: return %2
func.func @split(%arg0: tensor<20xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", "b"}]>}) -> (tensor<10x2xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>]>} : (tensor<20xf32>) -> tensor<10x2xf32>
  return %0 : tensor<10x2xf32>
}

// The other way round: the result is the more sharded side.
// CHECK-LABEL: func.func @merge
// CHECK-NEXT: %0 = sdy.reshard %arg0 <@m, [{"a":(1)2}, {}]> : tensor<10x2xf32>
// CHECK-NEXT: %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a":(1)2}]>]>} : (tensor<10x2xf32>) -> tensor<20xf32>
// CHECK-NEXT: %2 = sdy.reshard %1 <@m, [{"a", "b"}]> : tensor<20xf32>
// CHECK-NEXT: return %2
func.func @merge(%arg0: tensor<10x2xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<20xf32> {sdy.sharding = #sdy.sharding<@m, [{"a", "b"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"a", "b"}]>]>} : (tensor<10x2xf32>) -> tensor<20xf32>
  return %0 : tensor<20xf32>
}
