// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=true compute-cfg-math-approx-mode=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=NONE
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="compute-cfg-fp32-dest-acc-en=maybe" 2>&1 | FileCheck %s --check-prefix=BAD

// The compute-cfg-* options given fill the compute config of every op that has one (here the
// matmul and the softmax); an eltwise op has none. A bool option given as false is written too.

// CHECK: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = false, fp32_dest_acc_en = true>
// CHECK: "ttnn.softmax"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = false, fp32_dest_acc_en = true>
// CHECK-NOT: compute_config
// CHECK: return

// NONE-NOT: compute_config

// BAD: compute-cfg-fp32-dest-acc-en
module {
  func.func @f(%a: tensor<32x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.relu"(%1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %2 : tensor<32x32xbf16>
  }
}
