module @jit_model attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["batch"=2, "model"=4]> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<4x16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, %arg1: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg3: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg5: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg6: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg8: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg9: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg10: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg11: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg12: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg13: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg14: tensor<128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, %arg15: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg16: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg17: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg18: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg19: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg20: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg21: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg22: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg23: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, %arg24: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg25: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> (tensor<4x16x128xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x16xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
    %c_0 = stablehlo.constant dense<128> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x16xi32>
    %3 = stablehlo.add %arg0, %2 : tensor<4x16xi32>
    %4 = stablehlo.select %1, %3, %arg0 : tensor<4x16xi1>, tensor<4x16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<4x16xi32>) -> tensor<4x16x1xi32>
    %6 = "stablehlo.gather"(%arg1, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<128x64xf32>, tensor<4x16x1xi32>) -> tensor<4x16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<4x16x1xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %11 = call @_var(%6, %c_2) : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %13 = stablehlo.subtract %6, %12 : tensor<4x16x64xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %15 = stablehlo.add %11, %14 : tensor<4x16x1xf32>
    %16 = stablehlo.rsqrt %15 : tensor<4x16x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %18 = stablehlo.multiply %13, %17 : tensor<4x16x64xf32>
    %19 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %21 = stablehlo.multiply %18, %20 : tensor<4x16x64xf32>
    %22 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %24 = stablehlo.add %21, %23 : tensor<4x16x64xf32>
    %25 = stablehlo.dot_general %24, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %26 = stablehlo.reshape %25 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %27 = stablehlo.transpose %26, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %28 = stablehlo.dot_general %24, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %29 = stablehlo.reshape %28 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %30 = stablehlo.transpose %29, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %31 = stablehlo.dot_general %24, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %32 = stablehlo.reshape %31 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %33 = stablehlo.transpose %32, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %34 = stablehlo.dot_general %27, %30, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %cst_4 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %36 = stablehlo.divide %34, %35 : tensor<4x4x16x16xf32>
    %c_5 = stablehlo.constant dense<true> : tensor<i1>
    %37 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %38 = call @tril(%37) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %cst_6 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %39 = call @_where_0(%38, %36, %cst_6) : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_7) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x4x16xf32>
    %42 = stablehlo.maximum %41, %40 : tensor<4x4x16xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %45 = stablehlo.subtract %39, %44 : tensor<4x4x16x16xf32>
    %46 = stablehlo.exponential %45 : tensor<4x4x16x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_9) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %50 = stablehlo.divide %46, %49 : tensor<4x4x16x16xf32>
    %51 = stablehlo.dot_general %50, %33, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %52 = stablehlo.transpose %51, dims = [0, 2, 1, 3] : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %53 = stablehlo.reshape %52 : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %54 = stablehlo.dot_general %53, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %55 = stablehlo.add %6, %54 : tensor<4x16x64xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_11 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %59 = stablehlo.divide %57, %58 : tensor<4x16x1xf32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %60 = call @_var(%55, %c_12) : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %61 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %62 = stablehlo.subtract %55, %61 : tensor<4x16x64xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %64 = stablehlo.add %60, %63 : tensor<4x16x1xf32>
    %65 = stablehlo.rsqrt %64 : tensor<4x16x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %67 = stablehlo.multiply %62, %66 : tensor<4x16x64xf32>
    %68 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %70 = stablehlo.multiply %67, %69 : tensor<4x16x64xf32>
    %71 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %73 = stablehlo.add %70, %72 : tensor<4x16x64xf32>
    %74 = stablehlo.dot_general %73, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %75 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %77 = stablehlo.add %74, %76 : tensor<4x16x128xf32>
    %78 = stablehlo.multiply %77, %77 : tensor<4x16x128xf32>
    %79 = stablehlo.multiply %78, %77 : tensor<4x16x128xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %81 = stablehlo.multiply %80, %79 : tensor<4x16x128xf32>
    %82 = stablehlo.add %77, %81 : tensor<4x16x128xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %84 = stablehlo.multiply %83, %82 : tensor<4x16x128xf32>
    %85 = stablehlo.tanh %84 : tensor<4x16x128xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %87 = stablehlo.add %86, %85 : tensor<4x16x128xf32>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %89 = stablehlo.multiply %88, %87 : tensor<4x16x128xf32>
    %90 = stablehlo.multiply %77, %89 : tensor<4x16x128xf32>
    %91 = sdy.sharding_constraint %90 <@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x128xf32>
    %92 = stablehlo.dot_general %91, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %93 = stablehlo.add %55, %92 : tensor<4x16x64xf32>
    %94 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %96 = stablehlo.add %93, %95 : tensor<4x16x64xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.reduce(%96 init: %cst_18) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_19 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %100 = stablehlo.divide %98, %99 : tensor<4x16x1xf32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %101 = call @_var_1(%96, %c_20) : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %102 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %103 = stablehlo.subtract %96, %102 : tensor<4x16x64xf32>
    %cst_21 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %105 = stablehlo.add %101, %104 : tensor<4x16x1xf32>
    %106 = stablehlo.rsqrt %105 : tensor<4x16x1xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %108 = stablehlo.multiply %103, %107 : tensor<4x16x64xf32>
    %109 = stablehlo.broadcast_in_dim %arg17, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %111 = stablehlo.multiply %108, %110 : tensor<4x16x64xf32>
    %112 = stablehlo.broadcast_in_dim %arg16, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %114 = stablehlo.add %111, %113 : tensor<4x16x64xf32>
    %115 = stablehlo.dot_general %114, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %116 = stablehlo.reshape %115 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %117 = stablehlo.transpose %116, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %118 = stablehlo.dot_general %114, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %119 = stablehlo.reshape %118 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %120 = stablehlo.transpose %119, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %121 = stablehlo.dot_general %114, %arg25, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %122 = stablehlo.reshape %121 : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %123 = stablehlo.transpose %122, dims = [0, 2, 1, 3] : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %124 = stablehlo.dot_general %117, %120, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %cst_22 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %126 = stablehlo.divide %124, %125 : tensor<4x4x16x16xf32>
    %c_23 = stablehlo.constant dense<true> : tensor<i1>
    %127 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %128 = call @tril(%127) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %cst_24 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %129 = call @_where_3(%128, %126, %cst_24) : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %cst_25 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_25) applies stablehlo.maximum across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %cst_26 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x4x16xf32>
    %132 = stablehlo.maximum %131, %130 : tensor<4x4x16xf32>
    %133 = stablehlo.broadcast_in_dim %132, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %135 = stablehlo.subtract %129, %134 : tensor<4x4x16x16xf32>
    %136 = stablehlo.exponential %135 : tensor<4x4x16x16xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %137 = stablehlo.reduce(%136 init: %cst_27) applies stablehlo.add across dimensions = [3] : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1, 2] : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2, 3] : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %140 = stablehlo.divide %136, %139 : tensor<4x4x16x16xf32>
    %141 = stablehlo.dot_general %140, %123, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %142 = stablehlo.transpose %141, dims = [0, 2, 1, 3] : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %143 = stablehlo.reshape %142 : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %144 = stablehlo.dot_general %143, %arg23, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %145 = stablehlo.add %96, %144 : tensor<4x16x64xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%145 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_29 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %148 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %149 = stablehlo.divide %147, %148 : tensor<4x16x1xf32>
    %c_30 = stablehlo.constant dense<0> : tensor<i32>
    %150 = call @_var_1(%145, %c_30) : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %151 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %152 = stablehlo.subtract %145, %151 : tensor<4x16x64xf32>
    %cst_31 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %154 = stablehlo.add %150, %153 : tensor<4x16x1xf32>
    %155 = stablehlo.rsqrt %154 : tensor<4x16x1xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %157 = stablehlo.multiply %152, %156 : tensor<4x16x64xf32>
    %158 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %160 = stablehlo.multiply %157, %159 : tensor<4x16x64xf32>
    %161 = stablehlo.broadcast_in_dim %arg18, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %163 = stablehlo.add %160, %162 : tensor<4x16x64xf32>
    %164 = stablehlo.dot_general %163, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %165 = stablehlo.broadcast_in_dim %arg14, dims = [2] : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 2] : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %167 = stablehlo.add %164, %166 : tensor<4x16x128xf32>
    %168 = stablehlo.multiply %167, %167 : tensor<4x16x128xf32>
    %169 = stablehlo.multiply %168, %167 : tensor<4x16x128xf32>
    %cst_32 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %170 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %171 = stablehlo.multiply %170, %169 : tensor<4x16x128xf32>
    %172 = stablehlo.add %167, %171 : tensor<4x16x128xf32>
    %cst_33 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %174 = stablehlo.multiply %173, %172 : tensor<4x16x128xf32>
    %175 = stablehlo.tanh %174 : tensor<4x16x128xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %176 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %177 = stablehlo.add %176, %175 : tensor<4x16x128xf32>
    %cst_35 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x16x128xf32>
    %179 = stablehlo.multiply %178, %177 : tensor<4x16x128xf32>
    %180 = stablehlo.multiply %167, %179 : tensor<4x16x128xf32>
    %181 = sdy.sharding_constraint %180 <@mesh, [{"batch"}, {}, {"model"}]> : tensor<4x16x128xf32>
    %182 = stablehlo.dot_general %181, %arg21, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %183 = stablehlo.add %145, %182 : tensor<4x16x64xf32>
    %184 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %186 = stablehlo.add %183, %185 : tensor<4x16x64xf32>
    %187 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<128x64xf32>) -> tensor<64x128xf32>
    %188 = stablehlo.dot_general %186, %187, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %189 = call @log_softmax(%188) : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    return %189 : tensor<4x16x128xf32>
  }
  func.func private @_var(%arg0: tensor<4x16x64xf32>, %arg1: tensor<i32>) -> tensor<4x16x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x64xf32>
    %6 = chlo.square %5 : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x16x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where(%13, %12, %cst_4) : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    return %14 : tensor<4x16x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<4x16x1xf32>, %arg2: tensor<f32>) -> tensor<4x16x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x16x1xf32>
    return %2 : tensor<4x16x1xf32>
  }
  func.func private @tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
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
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x64xf32>
    %6 = chlo.square %5 : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x16x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x16x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where_2(%13, %12, %cst_4) : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
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
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4x16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x16x128xf32>
    %6 = stablehlo.exponential %5 : tensor<4x16x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %9 = stablehlo.log %8 : tensor<4x16x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<4x16x128xf32>
    return %11 : tensor<4x16x128xf32>
  }
}
