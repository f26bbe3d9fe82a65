// RUN: ttopt opt %s --ttcore-unwrap-device-module | FileCheck %s
// RUN: ttopt opt %s --ttcore-unwrap-device-module --ttcore-wrap-device-module --ttcore-unwrap-device-module | FileCheck %s

// The program leaves the device module for the root, in place; the CPU module goes; the inner
// module's attributes the root lacks join it (the root's own win).
// CHECK: module @outer attributes {a.kept = 1 : i32, ttcore.system_desc = "inner"} {
// CHECK-NEXT: ttcore.device @default_device
// CHECK-NEXT: func.func @test(%arg0: i32) -> i32
// CHECK-NOT: ttcore.cpu_module
// CHECK-NOT: ttcore.device_module
module @outer attributes {a.kept = 1 : i32} {
  ttcore.device_module {
    builtin.module attributes {a.kept = 2 : i32, ttcore.system_desc = "inner"} {
      ttcore.device @default_device = <workerGrid = #ttcore.grid<8x8>>
      func.func @test(%arg0: i32) -> i32 {
        return %arg0 : i32
      }
    }
  }
  ttcore.cpu_module {
    builtin.module {
      func.func @host(%arg0: i32) -> i32 {
        return %arg0 : i32
      }
    }
  }
}
