// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 disable-workarounds=true" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 disable-workarounds=true" --trace 2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=2 disable-workarounds=true" | python %S/../../bench/ttnn_ods_check.py - | FileCheck %s --check-prefix=ODS

// tt-metal runs argmax on one core when its input is tiled and on many when it is row-major and
// reduced over its last dim. Without workarounds nothing retiles the input, so CostBased weighs a
// row-major sibling of argmax's input: the retile to DRAM row-major in front costs less than the
// single-core program loses, and the plan takes it.

// CHECK-DAG: #[[RM:ttnn_layout[0-9]+]] = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<128x256xbf16, #dram>, <interleaved>>
// CHECK: %[[RETILED:.*]] = "ttnn.to_layout"({{.*}}) {{.*}}-> tensor<128x256xbf16, #[[RM]]>
// CHECK: "ttnn.argmax"(%[[RETILED]]) <{dim = 1 : si32, keep_dim = false}> : (tensor<128x256xbf16, #[[RM]]>)

// TRACE: note: argmax#{{[0-9]+}}: dram interleaved {{.*}} 1 reshard(s) {{.*}}; runner-up dram interleaved

// ODS: 0 violation(s)

module {
  func.func @mul_argmax(%a: tensor<128x256xbf16>, %b: tensor<128x256xbf16>) -> tensor<128xi32> {
    %0 = "ttir.multiply"(%a, %b) : (tensor<128x256xbf16>, tensor<128x256xbf16>) -> tensor<128x256xbf16>
    %1 = "ttir.argmax"(%0) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<128x256xbf16>) -> tensor<128xi32>
    return %1 : tensor<128xi32>
  }
}
