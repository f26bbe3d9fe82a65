// RUN: ttopt opt %s --reshard-to-collectives | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK: %[[A:.*]] = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]>
// CHECK: %[[G:.*]] = sdy.all_gather [{}, {"x"}] %[[A]] out_sharding=<@mesh, [{}, {}]>
// CHECK: %[[S:.*]] = sdy.all_slice [{"y"}, {"x"}] %[[G]] out_sharding=<@mesh, [{"y"}, {"x"}]>
// CHECK: sdy.collective_permute %[[S]] out_sharding=<@mesh, [{"x"}, {"y"}]>
// CHECK-NOT: sdy.reshard
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x64xf32> {
  %0 = sdy.reshard %a <@mesh, [{}, {"x"}]> : tensor<16x64xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<16x64xf32>
  %2 = sdy.reshard %1 <@mesh, [{"y"}, {"x"}]> : tensor<16x64xf32>
  %3 = sdy.reshard %2 <@mesh, [{"x"}, {"y"}]> : tensor<16x64xf32>
  return %3 : tensor<16x64xf32>
}
