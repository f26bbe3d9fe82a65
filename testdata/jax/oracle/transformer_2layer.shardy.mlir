module @jit_model attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, %arg1: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg3: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg9: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg10: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg11: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg12: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg13: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg14: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg15: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg16: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg20: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg21: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg22: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg23: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg24: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg25: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<4x16x128xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_7 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_9 = stablehlo.constant dense<128> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_10, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<i32>) -> tensor<4x16xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
    %2 = stablehlo.broadcast_in_dim %c_9, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<i32>) -> tensor<4x16xi32>
    %3 = stablehlo.add %arg0, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<4x16xi32>
    %4 = stablehlo.select %1, %3, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : tensor<4x16xi1>, tensor<4x16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16xi32>) -> tensor<4x16x1xi32>
    %6 = "stablehlo.gather"(%arg1, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<128x64xf32>, tensor<4x16x1xi32>) -> tensor<4x16x64xf32>
    %7 = sdy.all_gather [{"batch"}, {}, {"model"}] %6 out_sharding=<@mesh, [{}, {}, {}]> : tensor<4x16x64xf32>
    %8 = stablehlo.reduce(%6 init: %cst_8) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %9 = sdy.all_reduce {"model"} %8 out_sharding=<@mesh, [{"batch"}, {}]> : tensor<4x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.divide %10, %11 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %13 = call @_var(%7, %c_10) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %15 = stablehlo.subtract %6, %14 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %17 = stablehlo.add %13, %16 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %18 = stablehlo.rsqrt %17 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %20 = stablehlo.multiply %15, %19 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %21 = sdy.all_slice [{"model"}] %arg5 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %24 = stablehlo.multiply %20, %23 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %25 = sdy.all_slice [{"model"}] %arg4 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %28 = stablehlo.add %24, %27 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %29 = sdy.all_gather [{}, {}, {"model"}] %28 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %30 = stablehlo.dot_general %29, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %31 = stablehlo.reshape %30 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %32 = stablehlo.transpose %31, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %33 = sdy.all_gather [{}, {}, {"model"}] %28 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %34 = stablehlo.dot_general %33, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %35 = stablehlo.reshape %34 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %36 = stablehlo.transpose %35, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %37 = sdy.all_gather [{}, {}, {"model"}] %28 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %38 = stablehlo.dot_general %37, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %39 = stablehlo.reshape %38 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %40 = stablehlo.transpose %39, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %41 = stablehlo.dot_general %32, %36, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %42 = stablehlo.broadcast_in_dim %cst_5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %43 = stablehlo.divide %41, %42 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %44 = sdy.all_gather [{"batch"}, {"model"}, {}, {}] %43 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<4x4x16x16xf32>
    %45 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %46 = call @tril(%45) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %47 = call @_where_0(%46, %44, %cst_4) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %48 = stablehlo.reduce(%47 init: %cst_3) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %49 = stablehlo.broadcast_in_dim %cst_3, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16xf32>
    %50 = stablehlo.maximum %49, %48 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : tensor<4x4x16xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %53 = stablehlo.subtract %47, %52 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %54 = stablehlo.exponential %53 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %55 = stablehlo.reduce(%54 init: %cst_8) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %58 = stablehlo.divide %54, %57 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %59 = stablehlo.dot_general %58, %40, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %60 = stablehlo.transpose %59, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %61 = stablehlo.reshape %60 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %62 = stablehlo.dot_general %61, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %63 = sdy.reduce_scatter [{}, {}, {"model"}] %62 out_sharding=<@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x64xf32>
    %64 = stablehlo.add %6, %63 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %65 = sdy.all_gather [{"batch"}, {}, {"model"}] %64 out_sharding=<@mesh, [{}, {}, {}]> : tensor<4x16x64xf32>
    %66 = stablehlo.reduce(%64 init: %cst_8) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %67 = sdy.all_reduce {"model"} %66 out_sharding=<@mesh, [{"batch"}, {}]> : tensor<4x16xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %69 = stablehlo.broadcast_in_dim %cst_7, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %70 = stablehlo.divide %68, %69 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %71 = call @_var(%65, %c_10) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %72 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %73 = stablehlo.subtract %64, %72 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %74 = stablehlo.broadcast_in_dim %cst_6, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %75 = stablehlo.add %71, %74 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %76 = stablehlo.rsqrt %75 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %78 = stablehlo.multiply %73, %77 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %79 = sdy.all_slice [{"model"}] %arg7 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %82 = stablehlo.multiply %78, %81 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %83 = sdy.all_slice [{"model"}] %arg6 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %86 = stablehlo.add %82, %85 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %87 = sdy.all_gather [{}, {}, {"model"}] %86 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %88 = stablehlo.dot_general %87, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %89 = stablehlo.broadcast_in_dim %arg2, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %91 = stablehlo.add %88, %90 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %92 = stablehlo.multiply %91, %91 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %93 = stablehlo.multiply %92, %91 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %94 = stablehlo.broadcast_in_dim %cst_2, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %95 = stablehlo.multiply %94, %93 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %96 = stablehlo.add %91, %95 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %97 = stablehlo.broadcast_in_dim %cst_1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %98 = stablehlo.multiply %97, %96 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %99 = stablehlo.tanh %98 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %100 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %101 = stablehlo.add %100, %99 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %102 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %103 = stablehlo.multiply %102, %101 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %104 = stablehlo.multiply %91, %103 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %105 = stablehlo.dot_general %104, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %106 = sdy.reduce_scatter [{}, {}, {"model"}] %105 out_sharding=<@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x64xf32>
    %107 = stablehlo.add %64, %106 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %108 = sdy.all_slice [{"model"}] %arg3 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %111 = stablehlo.add %107, %110 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %112 = sdy.all_gather [{"batch"}, {}, {"model"}] %111 out_sharding=<@mesh, [{}, {}, {}]> : tensor<4x16x64xf32>
    %113 = stablehlo.reduce(%111 init: %cst_8) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %114 = sdy.all_reduce {"model"} %113 out_sharding=<@mesh, [{"batch"}, {}]> : tensor<4x16xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %116 = stablehlo.broadcast_in_dim %cst_7, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %117 = stablehlo.divide %115, %116 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %118 = call @_var_1(%112, %c_10) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %119 = stablehlo.broadcast_in_dim %117, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %120 = stablehlo.subtract %111, %119 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %121 = stablehlo.broadcast_in_dim %cst_6, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %122 = stablehlo.add %118, %121 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %123 = stablehlo.rsqrt %122 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %125 = stablehlo.multiply %120, %124 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %126 = sdy.all_slice [{"model"}] %arg17 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %127 = stablehlo.broadcast_in_dim %126, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %129 = stablehlo.multiply %125, %128 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %130 = sdy.all_slice [{"model"}] %arg16 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %133 = stablehlo.add %129, %132 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %134 = sdy.all_gather [{}, {}, {"model"}] %133 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %135 = stablehlo.dot_general %134, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %136 = stablehlo.reshape %135 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %137 = stablehlo.transpose %136, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %138 = sdy.all_gather [{}, {}, {"model"}] %133 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %139 = stablehlo.dot_general %138, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %140 = stablehlo.reshape %139 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %141 = stablehlo.transpose %140, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %142 = sdy.all_gather [{}, {}, {"model"}] %133 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %143 = stablehlo.dot_general %142, %arg25, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %144 = stablehlo.reshape %143 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %145 = stablehlo.transpose %144, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %146 = stablehlo.dot_general %137, %141, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %147 = stablehlo.broadcast_in_dim %cst_5, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %148 = stablehlo.divide %146, %147 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %149 = sdy.all_gather [{"batch"}, {"model"}, {}, {}] %148 out_sharding=<@mesh, [{}, {}, {}, {}]> : tensor<4x4x16x16xf32>
    %150 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %151 = call @tril(%150) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %152 = call @_where_3(%151, %149, %cst_4) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %153 = stablehlo.reduce(%152 init: %cst_3) applies stablehlo.maximum across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %154 = stablehlo.broadcast_in_dim %cst_3, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<f32>) -> tensor<4x4x16xf32>
    %155 = stablehlo.maximum %154, %153 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : tensor<4x4x16xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %158 = stablehlo.subtract %152, %157 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %159 = stablehlo.exponential %158 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %160 = stablehlo.reduce(%159 init: %cst_8) applies stablehlo.add across dimensions = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %163 = stablehlo.divide %159, %162 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : tensor<4x4x16x16xf32>
    %164 = stablehlo.dot_general %163, %145, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {"model"}, {}, {}]>]>} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %165 = stablehlo.transpose %164, dims = [0, 2, 1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}, {}]>]>} : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %166 = stablehlo.reshape %165 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %167 = stablehlo.dot_general %166, %arg23, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %168 = sdy.reduce_scatter [{}, {}, {"model"}] %167 out_sharding=<@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x64xf32>
    %169 = stablehlo.add %111, %168 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %170 = sdy.all_gather [{"batch"}, {}, {"model"}] %169 out_sharding=<@mesh, [{}, {}, {}]> : tensor<4x16x64xf32>
    %171 = stablehlo.reduce(%169 init: %cst_8) applies stablehlo.add across dimensions = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}]>]>} : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %172 = sdy.all_reduce {"model"} %171 out_sharding=<@mesh, [{"batch"}, {}]> : tensor<4x16xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %174 = stablehlo.broadcast_in_dim %cst_7, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %175 = stablehlo.divide %173, %174 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %176 = call @_var_1(%170, %c_10) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %177 = stablehlo.broadcast_in_dim %175, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %178 = stablehlo.subtract %169, %177 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %179 = stablehlo.broadcast_in_dim %cst_6, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<f32>) -> tensor<4x16x1xf32>
    %180 = stablehlo.add %176, %179 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %181 = stablehlo.rsqrt %180 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : tensor<4x16x1xf32>
    %182 = stablehlo.broadcast_in_dim %181, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %183 = stablehlo.multiply %178, %182 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %184 = sdy.all_slice [{"model"}] %arg19 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %186 = stablehlo.broadcast_in_dim %185, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %187 = stablehlo.multiply %183, %186 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %188 = sdy.all_slice [{"model"}] %arg18 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %191 = stablehlo.add %187, %190 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %192 = sdy.all_gather [{}, {}, {"model"}] %191 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x64xf32>
    %193 = stablehlo.dot_general %192, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %194 = stablehlo.broadcast_in_dim %arg14, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %196 = stablehlo.add %193, %195 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %197 = stablehlo.multiply %196, %196 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %198 = stablehlo.multiply %197, %196 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %199 = stablehlo.broadcast_in_dim %cst_2, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %200 = stablehlo.multiply %199, %198 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %201 = stablehlo.add %196, %200 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %202 = stablehlo.broadcast_in_dim %cst_1, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %203 = stablehlo.multiply %202, %201 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %204 = stablehlo.tanh %203 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %205 = stablehlo.broadcast_in_dim %cst_0, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %206 = stablehlo.add %205, %204 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %207 = stablehlo.broadcast_in_dim %cst, dims = [] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<f32>) -> tensor<4x16x128xf32>
    %208 = stablehlo.multiply %207, %206 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %209 = stablehlo.multiply %196, %208 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x128xf32>
    %210 = stablehlo.dot_general %209, %arg21, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %211 = sdy.reduce_scatter [{}, {}, {"model"}] %210 out_sharding=<@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x64xf32>
    %212 = stablehlo.add %169, %211 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %213 = sdy.all_slice [{"model"}] %arg15 out_sharding=<@mesh, [{"model"}]> : tensor<64xf32>
    %214 = stablehlo.broadcast_in_dim %213, dims = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"model"}]>]>} : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0, 1, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %216 = stablehlo.add %212, %215 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {"model"}]>]>} : tensor<4x16x64xf32>
    %217 = stablehlo.transpose %arg1, dims = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"model"}, {}]>]>} : (tensor<128x64xf32>) -> tensor<64x128xf32>
    %218 = stablehlo.dot_general %216, %217, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %219 = sdy.all_reduce {"model"} %218 out_sharding=<@mesh, [{"batch"}, {}, {}]> : tensor<4x16x128xf32>
    %220 = sdy.all_gather [{"batch"}, {}, {}] %219 out_sharding=<@mesh, [{}, {}, {}]> : tensor<4x16x128xf32>
    %221 = call @log_softmax(%220) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"batch"}, {}, {}]>]>} : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    return %221 : tensor<4x16x128xf32>
  }
  func.func private @_var(%arg0: tensor<4x16x64xf32>, %arg1: tensor<i32>) -> tensor<4x16x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x64xf32>
    %6 = chlo.square %5 : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x16x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where(%13, %12, %cst) : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    return %14 : tensor<4x16x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<4x16x1xf32>, %arg2: tensor<f32>) -> tensor<4x16x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x16x1xf32>
    return %2 : tensor<4x16x1xf32>
  }
  func.func private @tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<16x16xi1>, tensor<16x16xi1>
    return %6 : tensor<16x16xi1>
  }
  func.func private @_where_0(%arg0: tensor<16x16xi1>, %arg1: tensor<4x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<4x4x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>
    return %3 : tensor<4x4x16x16xf32>
  }
  func.func private @_var_1(%arg0: tensor<4x16x64xf32>, %arg1: tensor<i32>) -> tensor<4x16x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x64xf32>
    %6 = chlo.square %5 : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x16x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where_2(%13, %12, %cst) : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    return %14 : tensor<4x16x1xf32>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<4x16x1xf32>, %arg2: tensor<f32>) -> tensor<4x16x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x16x1xf32>
    return %2 : tensor<4x16x1xf32>
  }
  func.func private @_where_3(%arg0: tensor<16x16xi1>, %arg1: tensor<4x4x16x16xf32>, %arg2: tensor<f32>) -> tensor<4x4x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>
    return %3 : tensor<4x4x16x16xf32>
  }
  func.func private @log_softmax(%arg0: tensor<4x16x128xf32>) -> tensor<4x16x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [2] : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4x16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x128xf32>
    %6 = stablehlo.exponential %5 : tensor<4x16x128xf32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %9 = stablehlo.log %8 : tensor<4x16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<4x16x128xf32>
    return %11 : tensor<4x16x128xf32>
  }
}
