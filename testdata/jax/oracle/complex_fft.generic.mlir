"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{function_type = (tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<4x16xf32>):
    %2 = "func.call"(%arg2) <{callee = @fft}> : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    %3 = "stablehlo.real"(%2) : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %4 = "stablehlo.imag"(%2) : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %5 = "stablehlo.negate"(%4) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %6 = "stablehlo.complex"(%3, %5) : (tensor<4x9xf32>, tensor<4x9xf32>) -> tensor<4x9xcomplex<f32>>
    %7 = "stablehlo.multiply"(%2, %6) : (tensor<4x9xcomplex<f32>>, tensor<4x9xcomplex<f32>>) -> tensor<4x9xcomplex<f32>>
    %8 = "func.call"(%7) <{callee = @fft_0}> : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    %9 = "stablehlo.abs"(%2) : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %10 = "stablehlo.real"(%2) : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %11 = "stablehlo.imag"(%2) : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    "func.return"(%8, %9, %10, %11) : (tensor<4x16xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<4x16xf32>):
    %1 = "stablehlo.fft"(%arg1) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    "func.return"(%1) : (tensor<4x9xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>, sym_name = "fft_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x9xcomplex<f32>>):
    %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IRFFT>}> : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    "func.return"(%0) : (tensor<4x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
