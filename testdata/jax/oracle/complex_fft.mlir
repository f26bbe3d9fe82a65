module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x16xf32>) -> (tensor<4x16xf32> {jax.result_info = "result[0]"}, tensor<4x9xf32> {jax.result_info = "result[1]"}, tensor<4x9xf32> {jax.result_info = "result[2]"}, tensor<4x9xf32> {jax.result_info = "result[3]"}) {
    %0 = call @fft(%arg0) : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %2 = stablehlo.imag %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %3 = stablehlo.negate %2 : tensor<4x9xf32>
    %4 = stablehlo.complex %1, %3 : tensor<4x9xcomplex<f32>>
    %5 = stablehlo.multiply %0, %4 : tensor<4x9xcomplex<f32>>
    %6 = call @fft_0(%5) : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    %7 = stablehlo.abs %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %8 = stablehlo.real %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    %9 = stablehlo.imag %0 : (tensor<4x9xcomplex<f32>>) -> tensor<4x9xf32>
    return %6, %7, %8, %9 : tensor<4x16xf32>, tensor<4x9xf32>, tensor<4x9xf32>, tensor<4x9xf32>
  }
  func.func private @fft(%arg0: tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
    return %0 : tensor<4x9xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<4x9xcomplex<f32>>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
}
