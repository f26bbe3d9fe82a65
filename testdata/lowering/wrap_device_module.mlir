// RUN: ttopt opt %s --split-input-file --ttcore-wrap-device-module | FileCheck %s
// RUN: ttopt opt %s --split-input-file --ttcore-wrap-device-module --ttcore-register-device | FileCheck %s --check-prefix=REG
// RUN: ttopt opt %s --split-input-file --ttir-to-ttnn-backend-pipeline | FileCheck %s --check-prefix=PIPE

// The inner module gets the root's name and attributes, which the root keeps (tt-mlir's wrap copies
// them); a device registered afterwards goes into the inner module.
// CHECK: module @named attributes {mhlo.num_partitions = 1 : i32} {
// CHECK-NEXT: ttcore.device_module {
// CHECK-NEXT: builtin.module @named attributes {mhlo.num_partitions = 1 : i32} {
// CHECK-NEXT: func.func @forward
// REG: module @named attributes {mhlo.num_partitions = 1 : i32} {
// REG-NEXT: ttcore.device_module {
// REG-NEXT: builtin.module @named attributes {mhlo.num_partitions = 1 : i32, ttcore.system_desc = #system_desc} {
// REG-NEXT: ttcore.device @default_device
// REG-NEXT: func.func @forward
// The backend pipeline registers the device and wraps every program, host code or not; the system
// desc it registered is in the device module only, where tt-mlir registers it.
// PIPE: module @named attributes {mhlo.num_partitions = 1 : i32} {
// PIPE-NEXT: ttcore.device_module {
// PIPE-NEXT: builtin.module @named attributes {mhlo.num_partitions = 1 : i32, ttcore.system_desc = #system_desc} {
// PIPE-NEXT: ttcore.device @default_device
// PIPE: "ttnn.relu"
// PIPE-NOT: ttcore.cpu_module
module @named attributes {mhlo.num_partitions = 1 : i32} {
  func.func @forward(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.relu"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}

// -----

// A system desc the input carries stays at the root too (copied, as tt-mlir copies every attribute);
// the registration keeps it, and the device symbol joins the functions in the inner module.
// PIPE: #system_desc = #ttcore.system_desc<{{.*}}arch = <blackhole>, grid = 10x13
// PIPE: module attributes {ttcore.system_desc = #system_desc} {
// PIPE-NEXT: ttcore.device_module {
// PIPE-NEXT: builtin.module attributes {ttcore.system_desc = #system_desc} {
// PIPE-NEXT: ttcore.device @default_device = <workerGrid = #ttcore.grid<10x13
// PIPE: "ttnn.relu"
#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], [{arch = <blackhole>, grid = 10x13, coord_translation_offsets = 18x18, l1_size = 1572864, num_dram_channels = 8, dram_channel_size = 4278190080, noc_l1_address_align_bytes = 16, pcie_address_align_bytes = 32, noc_dram_address_align_bytes = 32, l1_unreserved_base = 98304, erisc_l1_unreserved_base = 1024, dram_unreserved_base = 1024, dram_unreserved_end = 4278190080, supported_data_types = [<f32>, <f16>, <bf16>, <bfp_f8>, <bfp_bf8>, <bfp_f4>, <bfp_bf4>, <bfp_f2>, <bfp_bf2>, <u32>, <u16>, <u8>, <si32>], supported_tile_sizes = [ 4x16,  16x16,  32x16,  4x32,  16x32,  32x32], dst_physical_size_tiles = 16, num_cbs = 32, num_compute_threads = 1, num_datamovement_threads = 2, dram_grid = 1x8}], [0], [1 : i32], [ 0x0x0x0]>
module attributes {ttcore.system_desc = #system_desc} {
  func.func @forward(%arg0: tensor<32x32xbf16>) -> tensor<32x32xbf16> {
    %0 = "ttir.relu"(%arg0) : (tensor<32x32xbf16>) -> tensor<32x32xbf16>
    return %0 : tensor<32x32xbf16>
  }
}
