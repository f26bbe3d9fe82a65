// RUN: not ttopt opt %S/../seeds/004_case5_before.mlir --stablehlo-pipeline 2>&1 | FileCheck %s
// Seed 004 case 5 through the whole pipeline. The seed gives no after-state, and its input is
// inconsistent: the `stablehlo.all_gather` doubles dimension 0 (8192 -> 16384) over replica groups of
// 4 devices while both its operand and result are sharded [{"_axis_0"}, {"_axis_1"}]. Step 11 reports it.
// CHECK: 004_case5_before.mlir:9:8: error: 'stablehlo.all_gather' op with shardings <@mesh, [{"_axis_0"}, {"_axis_1"}]>: over replica groups of 4 device(s) turns the local 4096x196 into 16384x196, but its sharding makes the result 8192x196
