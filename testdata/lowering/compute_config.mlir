// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=true compute-cfg-math-approx-mode=false" | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=LEVEL0
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1" | FileCheck %s --check-prefix=NONE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="compute-cfg-math-fidelity=undefined compute-cfg-fp32-dest-acc-en=unset compute-cfg-packer-l1-acc=false" | FileCheck %s --check-prefix=TRISTATE
// RUN: not ttopt opt %s --ttir-to-ttnn-backend-pipeline="compute-cfg-fp32-dest-acc-en=maybe" 2>&1 | FileCheck %s --check-prefix=BAD

// The compute-cfg-* options given fill the compute config of every op that has one (here the
// matmul and the softmax); an eltwise op has none. A bool option given as false is written too.

// CHECK: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = false, fp32_dest_acc_en = true>
// CHECK: "ttnn.softmax"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = lofi, math_approx_mode = false, fp32_dest_acc_en = true>
// CHECK-NOT: compute_config
// CHECK: return

// optimization-level=0 (the default) gives every such op HiFi4 and fp32 accumulation, as tt-mlir's
// does; higher levels leave the knobs to ttnn unless an option sets them. `undefined` / `unset`
// leave a knob out at any level.
// LEVEL0: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>
// LEVEL0: "ttnn.softmax"{{.*}}compute_config = #ttnn.device_compute_kernel_config<math_fidelity = hifi4, fp32_dest_acc_en = true>

// NONE-NOT: compute_config

// TRISTATE: "ttnn.matmul"{{.*}}compute_config = #ttnn.device_compute_kernel_config<packer_l1_acc = false>

// BAD: compute-cfg-fp32-dest-acc-en
module {
  func.func @f(%a: tensor<32x64xbf16>, %b: tensor<64x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<32x64xbf16>, tensor<64x32xbf16>) -> tensor<32x32xbf16>
    %1 = "ttir.softmax"(%0) <{dimension = 1 : si32}> : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %2 = "ttir.relu"(%1) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %2 : tensor<32x32xbf16>
  }
}
