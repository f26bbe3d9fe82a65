// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 enable-create-d2m-subgraphs=true" --mlir-print-local-scope | FileCheck %s
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 enable-create-d2m-subgraphs=true" | ttopt opt | FileCheck %s --check-prefix=REPARSE
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="optimization-level=1 enable-create-d2m-subgraphs=true enable-d2m-elementwise-fusion=false" | FileCheck %s --check-prefix=UNFUSED
// RUN: ttopt opt %s --ttir-to-ttnn-backend-pipeline="deallocate=false" | ttopt opt --ttnn-create-d2m-subgraphs | FileCheck %s --check-prefix=OUTLINE

// An eltwise chain between two matmuls (with a row broadcast) becomes one D2M subgraph: a fused
// compute generic (reader, writer, compute kernel) into an L1 block-sharded tensor on a 2x4 grid,
// then a to_layout generic into the layout the optimizer gave the subgraph's output.

module {
  func.func @chain(%a: tensor<64x128xbf16>, %w: tensor<128x128xbf16>, %b: tensor<64x128xbf16>, %r: tensor<1x128xbf16>) -> tensor<64x128xbf16> {
    %0 = "ttir.matmul"(%a, %w) : (tensor<64x128xbf16>, tensor<128x128xbf16>) -> tensor<64x128xbf16>
    %1 = "ttir.add"(%0, %b) : (tensor<64x128xbf16>, tensor<64x128xbf16>) -> tensor<64x128xbf16>
    %2 = "ttir.multiply"(%1, %r) : (tensor<64x128xbf16>, tensor<1x128xbf16>) -> tensor<64x128xbf16>
    %3 = "ttir.relu"(%2) : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
    %4 = "ttir.matmul"(%3, %w) : (tensor<64x128xbf16>, tensor<128x128xbf16>) -> tensor<64x128xbf16>
    return %4 : tensor<64x128xbf16>
  }
}

// CHECK-LABEL: func.func @chain
// CHECK: %[[MM:.*]] = "ttnn.matmul"
// CHECK: %[[L1:.*]] = "ttnn.empty"({{.*}}) <{shape = #ttnn.shape<64x128>}> : (!ttnn.device) -> tensor<64x128xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <2x4>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <block_sharded>
// CHECK: "ttnn.generic"(%[[MM]], %arg2, %arg3, %[[L1]]) <{operandSegmentSizes = array<i32: 4, 0>, program = #ttnn.program<kernels = [
// CHECK-SAME: #ttnn.data_movement_kernel<symbol_ref = @[[READER:datamovement_kernel[0-9]+]], core_ranges = <[#ttnn.core_range<(0, 0), (3, 1)>]>, processor = riscv1, noc_index = noc0, noc_mode = dedicated_noc
// CHECK-SAME: #ttnn.data_movement_kernel<symbol_ref = @{{datamovement_kernel[0-9]+}}, {{.*}} processor = riscv0, noc_index = noc1
// CHECK-SAME: #ttnn.compute_kernel<symbol_ref = @[[COMPUTE:compute_kernel[0-9]+]], {{.*}} math_fidelity = hifi4
// CHECK-SAME: buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<3>>], semaphores = []>}>
// CHECK: %[[OUT:.*]] = "ttnn.empty"
// CHECK: "ttnn.generic"(%[[L1]], %[[OUT]])
// CHECK: "ttnn.matmul"(%[[OUT]], %arg1)
// CHECK-NOT: ttnn.d2m_subgraph
// CHECK-NOT: "ttnn.add"
// CHECK: func.func private @[[READER]]()
// CHECK-SAME: ttkernel.thread = #ttkernel.thread<noc>
// CHECK: noc_async_read_tile
// CHECK: func.func private @[[COMPUTE]]()
// CHECK-SAME: ttkernel.thread = #ttkernel.thread<compute>
// CHECK: "emitc.for"
// CHECK: emitc.call_opaque "add_tiles"
// CHECK: emitc.call_opaque "unary_bcast"({{.*}}) {template_args = [#emitc.opaque<"BroadcastType::ROW">]}
// CHECK: emitc.call_opaque "mul_binary_tile"
// CHECK: emitc.call_opaque "relu_tile"
// CHECK: emitc.call_opaque "pack_tile"

// REPARSE: "ttnn.generic"
// REPARSE: func.func private @compute_kernel

// UNFUSED-COUNT-4: "ttnn.generic"
// UNFUSED-NOT: "ttnn.generic"

// OUTLINE: %[[SUB:.*]] = ttnn.d2m_subgraph @d2m_subgraph_0
// OUTLINE-NEXT: ins(%{{.*}}, %arg2, %arg3 : {{.*}})
// OUTLINE-NEXT: outs(%{{.*}} : {{.*}})
// OUTLINE: "ttnn.matmul"(%[[SUB]], %arg1)
// OUTLINE: func.func private @d2m_subgraph_0(
// OUTLINE-NEXT: "ttnn.add"
// OUTLINE-NEXT: "ttnn.multiply"
// OUTLINE-NEXT: "ttnn.relu"
// OUTLINE-NEXT: return
