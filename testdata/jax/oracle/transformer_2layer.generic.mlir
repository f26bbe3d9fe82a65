"builtin.module"() <{sym_name = "jit_model"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["batch"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "batch", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], function_type = (tensor<4x16xi32>, tensor<128x64xf32>, tensor<128xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x128xf32>, tensor<128x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<128xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x128xf32>, tensor<128x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<4x16x128xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg30: tensor<4x16xi32>, %arg31: tensor<128x64xf32>, %arg32: tensor<128xf32>, %arg33: tensor<64xf32>, %arg34: tensor<64xf32>, %arg35: tensor<64xf32>, %arg36: tensor<64xf32>, %arg37: tensor<64xf32>, %arg38: tensor<64x128xf32>, %arg39: tensor<128x64xf32>, %arg40: tensor<64x64xf32>, %arg41: tensor<64x64xf32>, %arg42: tensor<64x64xf32>, %arg43: tensor<64x64xf32>, %arg44: tensor<128xf32>, %arg45: tensor<64xf32>, %arg46: tensor<64xf32>, %arg47: tensor<64xf32>, %arg48: tensor<64xf32>, %arg49: tensor<64xf32>, %arg50: tensor<64x128xf32>, %arg51: tensor<128x64xf32>, %arg52: tensor<64x64xf32>, %arg53: tensor<64x64xf32>, %arg54: tensor<64x64xf32>, %arg55: tensor<64x64xf32>):
    %86 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x16xi32>
    %88 = "stablehlo.compare"(%arg30, %87) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
    %89 = "stablehlo.constant"() <{value = dense<128> : tensor<i32>}> : () -> tensor<i32>
    %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x16xi32>
    %91 = "stablehlo.add"(%arg30, %90) : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
    %92 = "stablehlo.select"(%88, %91, %arg30) : (tensor<4x16xi1>, tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xi32>) -> tensor<4x16x1xi32>
    %94 = "stablehlo.gather"(%arg31, %93) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<128x64xf32>, tensor<4x16x1xi32>) -> tensor<4x16x64xf32>
    %95 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %96 = "stablehlo.reduce"(%94, %95) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg70: tensor<f32>, %arg71: tensor<f32>):
      %321 = "stablehlo.add"(%arg70, %arg71) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%321) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %98 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %100 = "stablehlo.divide"(%97, %99) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %101 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %102 = "func.call"(%94, %101) <{callee = @_var}> : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %103 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %104 = "stablehlo.subtract"(%94, %103) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %105 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %106 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %107 = "stablehlo.add"(%102, %106) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %108 = "stablehlo.rsqrt"(%107) : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %109 = "stablehlo.broadcast_in_dim"(%108) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %110 = "stablehlo.multiply"(%104, %109) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %111 = "stablehlo.broadcast_in_dim"(%arg35) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %112 = "stablehlo.broadcast_in_dim"(%111) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %113 = "stablehlo.multiply"(%110, %112) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %114 = "stablehlo.broadcast_in_dim"(%arg34) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %115 = "stablehlo.broadcast_in_dim"(%114) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %116 = "stablehlo.add"(%113, %115) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %117 = "stablehlo.dot_general"(%116, %arg42) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %118 = "stablehlo.reshape"(%117) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %119 = "stablehlo.transpose"(%118) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %120 = "stablehlo.dot_general"(%116, %arg40) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %121 = "stablehlo.reshape"(%120) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %122 = "stablehlo.transpose"(%121) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %123 = "stablehlo.dot_general"(%116, %arg43) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %124 = "stablehlo.reshape"(%123) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %125 = "stablehlo.transpose"(%124) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %126 = "stablehlo.dot_general"(%119, %122) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %127 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %129 = "stablehlo.divide"(%126, %128) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %130 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %131 = "stablehlo.broadcast_in_dim"(%130) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %132 = "func.call"(%131) <{callee = @tril}> : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %133 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %134 = "func.call"(%132, %129, %133) <{callee = @_where_0}> : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %135 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %136 = "stablehlo.reduce"(%134, %135) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg68: tensor<f32>, %arg69: tensor<f32>):
      %320 = "stablehlo.maximum"(%arg68, %arg69) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%320) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %137 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %138 = "stablehlo.broadcast_in_dim"(%137) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16xf32>
    %139 = "stablehlo.maximum"(%138, %136) : (tensor<4x4x16xf32>, tensor<4x4x16xf32>) -> tensor<4x4x16xf32>
    %140 = "stablehlo.broadcast_in_dim"(%139) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %141 = "stablehlo.broadcast_in_dim"(%140) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %142 = "stablehlo.subtract"(%134, %141) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %143 = "stablehlo.exponential"(%142) : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %144 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %145 = "stablehlo.reduce"(%143, %144) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg66: tensor<f32>, %arg67: tensor<f32>):
      %319 = "stablehlo.add"(%arg66, %arg67) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%319) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %146 = "stablehlo.broadcast_in_dim"(%145) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %147 = "stablehlo.broadcast_in_dim"(%146) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %148 = "stablehlo.divide"(%143, %147) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %149 = "stablehlo.dot_general"(%148, %125) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %150 = "stablehlo.transpose"(%149) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %151 = "stablehlo.reshape"(%150) : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %152 = "stablehlo.dot_general"(%151, %arg41) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %153 = "stablehlo.add"(%94, %152) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %154 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %155 = "stablehlo.reduce"(%153, %154) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg64: tensor<f32>, %arg65: tensor<f32>):
      %318 = "stablehlo.add"(%arg64, %arg65) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%318) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %156 = "stablehlo.broadcast_in_dim"(%155) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %157 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %158 = "stablehlo.broadcast_in_dim"(%157) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %159 = "stablehlo.divide"(%156, %158) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %160 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %161 = "func.call"(%153, %160) <{callee = @_var}> : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %162 = "stablehlo.broadcast_in_dim"(%159) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %163 = "stablehlo.subtract"(%153, %162) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %164 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %165 = "stablehlo.broadcast_in_dim"(%164) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %166 = "stablehlo.add"(%161, %165) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %167 = "stablehlo.rsqrt"(%166) : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %168 = "stablehlo.broadcast_in_dim"(%167) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %169 = "stablehlo.multiply"(%163, %168) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %170 = "stablehlo.broadcast_in_dim"(%arg37) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %171 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %172 = "stablehlo.multiply"(%169, %171) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %173 = "stablehlo.broadcast_in_dim"(%arg36) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %175 = "stablehlo.add"(%172, %174) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %176 = "stablehlo.dot_general"(%175, %arg38) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %177 = "stablehlo.broadcast_in_dim"(%arg32) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %178 = "stablehlo.broadcast_in_dim"(%177) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %179 = "stablehlo.add"(%176, %178) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %180 = "stablehlo.multiply"(%179, %179) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %181 = "stablehlo.multiply"(%180, %179) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %182 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %183 = "stablehlo.broadcast_in_dim"(%182) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %184 = "stablehlo.multiply"(%183, %181) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %185 = "stablehlo.add"(%179, %184) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %186 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %187 = "stablehlo.broadcast_in_dim"(%186) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %188 = "stablehlo.multiply"(%187, %185) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %189 = "stablehlo.tanh"(%188) : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %190 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %191 = "stablehlo.broadcast_in_dim"(%190) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %192 = "stablehlo.add"(%191, %189) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %193 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %194 = "stablehlo.broadcast_in_dim"(%193) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %195 = "stablehlo.multiply"(%194, %192) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %196 = "stablehlo.multiply"(%179, %195) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %197 = "sdy.sharding_constraint"(%196) <{sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {"model"}]>}> : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %198 = "stablehlo.dot_general"(%197, %arg39) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %199 = "stablehlo.add"(%153, %198) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %200 = "stablehlo.broadcast_in_dim"(%arg33) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %201 = "stablehlo.broadcast_in_dim"(%200) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %202 = "stablehlo.add"(%199, %201) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %203 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %204 = "stablehlo.reduce"(%202, %203) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg62: tensor<f32>, %arg63: tensor<f32>):
      %317 = "stablehlo.add"(%arg62, %arg63) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%317) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %205 = "stablehlo.broadcast_in_dim"(%204) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %206 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %207 = "stablehlo.broadcast_in_dim"(%206) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %208 = "stablehlo.divide"(%205, %207) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %209 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %210 = "func.call"(%202, %209) <{callee = @_var_1}> : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %211 = "stablehlo.broadcast_in_dim"(%208) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %212 = "stablehlo.subtract"(%202, %211) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %213 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %214 = "stablehlo.broadcast_in_dim"(%213) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %215 = "stablehlo.add"(%210, %214) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %216 = "stablehlo.rsqrt"(%215) : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %217 = "stablehlo.broadcast_in_dim"(%216) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %218 = "stablehlo.multiply"(%212, %217) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %219 = "stablehlo.broadcast_in_dim"(%arg47) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %220 = "stablehlo.broadcast_in_dim"(%219) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %221 = "stablehlo.multiply"(%218, %220) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %222 = "stablehlo.broadcast_in_dim"(%arg46) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %223 = "stablehlo.broadcast_in_dim"(%222) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %224 = "stablehlo.add"(%221, %223) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %225 = "stablehlo.dot_general"(%224, %arg54) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %226 = "stablehlo.reshape"(%225) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %227 = "stablehlo.transpose"(%226) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %228 = "stablehlo.dot_general"(%224, %arg52) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %229 = "stablehlo.reshape"(%228) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %230 = "stablehlo.transpose"(%229) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %231 = "stablehlo.dot_general"(%224, %arg55) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %232 = "stablehlo.reshape"(%231) : (tensor<4x16x64xf32>) -> tensor<4x16x4x16xf32>
    %233 = "stablehlo.transpose"(%232) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x16x4x16xf32>) -> tensor<4x4x16x16xf32>
    %234 = "stablehlo.dot_general"(%227, %230) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %235 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %236 = "stablehlo.broadcast_in_dim"(%235) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %237 = "stablehlo.divide"(%234, %236) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %238 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %239 = "stablehlo.broadcast_in_dim"(%238) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %240 = "func.call"(%239) <{callee = @tril}> : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %241 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %242 = "func.call"(%240, %237, %241) <{callee = @_where_3}> : (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>
    %243 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %244 = "stablehlo.reduce"(%242, %243) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg60: tensor<f32>, %arg61: tensor<f32>):
      %316 = "stablehlo.maximum"(%arg60, %arg61) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%316) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %245 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %246 = "stablehlo.broadcast_in_dim"(%245) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16xf32>
    %247 = "stablehlo.maximum"(%246, %244) : (tensor<4x4x16xf32>, tensor<4x4x16xf32>) -> tensor<4x4x16xf32>
    %248 = "stablehlo.broadcast_in_dim"(%247) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %249 = "stablehlo.broadcast_in_dim"(%248) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %250 = "stablehlo.subtract"(%242, %249) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %251 = "stablehlo.exponential"(%250) : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %252 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %253 = "stablehlo.reduce"(%251, %252) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg58: tensor<f32>, %arg59: tensor<f32>):
      %315 = "stablehlo.add"(%arg58, %arg59) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%315) : (tensor<f32>) -> ()
    }) : (tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16xf32>
    %254 = "stablehlo.broadcast_in_dim"(%253) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x16xf32>) -> tensor<4x4x16x1xf32>
    %255 = "stablehlo.broadcast_in_dim"(%254) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<4x4x16x1xf32>) -> tensor<4x4x16x16xf32>
    %256 = "stablehlo.divide"(%251, %255) : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %257 = "stablehlo.dot_general"(%256, %233) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    %258 = "stablehlo.transpose"(%257) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<4x4x16x16xf32>) -> tensor<4x16x4x16xf32>
    %259 = "stablehlo.reshape"(%258) : (tensor<4x16x4x16xf32>) -> tensor<4x16x64xf32>
    %260 = "stablehlo.dot_general"(%259, %arg53) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
    %261 = "stablehlo.add"(%202, %260) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %262 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %263 = "stablehlo.reduce"(%261, %262) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg56: tensor<f32>, %arg57: tensor<f32>):
      %314 = "stablehlo.add"(%arg56, %arg57) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%314) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %264 = "stablehlo.broadcast_in_dim"(%263) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %265 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %266 = "stablehlo.broadcast_in_dim"(%265) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %267 = "stablehlo.divide"(%264, %266) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %268 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %269 = "func.call"(%261, %268) <{callee = @_var_1}> : (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>
    %270 = "stablehlo.broadcast_in_dim"(%267) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %271 = "stablehlo.subtract"(%261, %270) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %272 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %273 = "stablehlo.broadcast_in_dim"(%272) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %274 = "stablehlo.add"(%269, %273) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %275 = "stablehlo.rsqrt"(%274) : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %276 = "stablehlo.broadcast_in_dim"(%275) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %277 = "stablehlo.multiply"(%271, %276) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %278 = "stablehlo.broadcast_in_dim"(%arg49) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %279 = "stablehlo.broadcast_in_dim"(%278) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %280 = "stablehlo.multiply"(%277, %279) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %281 = "stablehlo.broadcast_in_dim"(%arg48) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %282 = "stablehlo.broadcast_in_dim"(%281) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %283 = "stablehlo.add"(%280, %282) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %284 = "stablehlo.dot_general"(%283, %arg50) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %285 = "stablehlo.broadcast_in_dim"(%arg44) <{broadcast_dimensions = array<i64: 2>}> : (tensor<128xf32>) -> tensor<1x1x128xf32>
    %286 = "stablehlo.broadcast_in_dim"(%285) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x128xf32>) -> tensor<4x16x128xf32>
    %287 = "stablehlo.add"(%284, %286) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %288 = "stablehlo.multiply"(%287, %287) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %289 = "stablehlo.multiply"(%288, %287) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %290 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %291 = "stablehlo.broadcast_in_dim"(%290) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %292 = "stablehlo.multiply"(%291, %289) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %293 = "stablehlo.add"(%287, %292) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %294 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %295 = "stablehlo.broadcast_in_dim"(%294) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %296 = "stablehlo.multiply"(%295, %293) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %297 = "stablehlo.tanh"(%296) : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %298 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %299 = "stablehlo.broadcast_in_dim"(%298) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %300 = "stablehlo.add"(%299, %297) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %301 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %302 = "stablehlo.broadcast_in_dim"(%301) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x128xf32>
    %303 = "stablehlo.multiply"(%302, %300) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %304 = "stablehlo.multiply"(%287, %303) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %305 = "sdy.sharding_constraint"(%304) <{sharding = #sdy.sharding<@mesh, [{"batch"}, {}, {"model"}]>}> : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %306 = "stablehlo.dot_general"(%305, %arg51) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x128xf32>, tensor<128x64xf32>) -> tensor<4x16x64xf32>
    %307 = "stablehlo.add"(%261, %306) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %308 = "stablehlo.broadcast_in_dim"(%arg45) <{broadcast_dimensions = array<i64: 2>}> : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %309 = "stablehlo.broadcast_in_dim"(%308) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x64xf32>) -> tensor<4x16x64xf32>
    %310 = "stablehlo.add"(%307, %309) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %311 = "stablehlo.transpose"(%arg31) <{permutation = array<i64: 1, 0>}> : (tensor<128x64xf32>) -> tensor<64x128xf32>
    %312 = "stablehlo.dot_general"(%310, %311) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x64xf32>, tensor<64x128xf32>) -> tensor<4x16x128xf32>
    %313 = "func.call"(%312) <{callee = @log_softmax}> : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    "func.return"(%313) : (tensor<4x16x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>, sym_name = "_var", sym_visibility = "private"}> ({
  ^bb0(%arg24: tensor<4x16x64xf32>, %arg25: tensor<i32>):
    %63 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %64 = "stablehlo.reduce"(%arg24, %63) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg28: tensor<f32>, %arg29: tensor<f32>):
      %85 = "stablehlo.add"(%arg28, %arg29) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%85) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %66 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %68 = "stablehlo.divide"(%65, %67) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %69 = "stablehlo.broadcast_in_dim"(%68) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %70 = "stablehlo.subtract"(%arg24, %69) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %71 = "chlo.square"(%70) : (tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %72 = "stablehlo.convert"(%arg25) : (tensor<i32>) -> tensor<f32>
    %73 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %74 = "stablehlo.subtract"(%73, %72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %75 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %76 = "stablehlo.reduce"(%71, %75) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg26: tensor<f32>, %arg27: tensor<f32>):
      %84 = "stablehlo.add"(%arg26, %arg27) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%84) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %77 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %78 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %79 = "stablehlo.divide"(%77, %78) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %80 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %81 = "stablehlo.compare"(%74, %80) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %82 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %83 = "func.call"(%81, %79, %82) <{callee = @_where}> : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    "func.return"(%83) : (tensor<4x16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg21: tensor<i1>, %arg22: tensor<4x16x1xf32>, %arg23: tensor<f32>):
    %60 = "stablehlo.convert"(%arg23) : (tensor<f32>) -> tensor<f32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %62 = "stablehlo.select"(%arg21, %arg22, %61) : (tensor<i1>, tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    "func.return"(%62) : (tensor<4x16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>) -> tensor<16x16xi1>, sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg20: tensor<16x16xi1>):
    %51 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16x16xi32>
    %52 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16x16xi32>
    %54 = "stablehlo.add"(%51, %53) : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi32>
    %55 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x16xi32>
    %56 = "stablehlo.compare"(%54, %55) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %57 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<16x16xi1>
    %59 = "stablehlo.select"(%56, %arg20, %58) : (tensor<16x16xi1>, tensor<16x16xi1>, tensor<16x16xi1>) -> tensor<16x16xi1>
    "func.return"(%59) : (tensor<16x16xi1>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>, sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg17: tensor<16x16xi1>, %arg18: tensor<4x4x16x16xf32>, %arg19: tensor<f32>):
    %47 = "stablehlo.convert"(%arg19) : (tensor<f32>) -> tensor<f32>
    %48 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %49 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %50 = "stablehlo.select"(%48, %arg18, %49) : (tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    "func.return"(%50) : (tensor<4x4x16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16x64xf32>, tensor<i32>) -> tensor<4x16x1xf32>, sym_name = "_var_1", sym_visibility = "private"}> ({
  ^bb0(%arg11: tensor<4x16x64xf32>, %arg12: tensor<i32>):
    %24 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.reduce"(%arg11, %24) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %46 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%46) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %27 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %29 = "stablehlo.divide"(%26, %28) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x64xf32>
    %31 = "stablehlo.subtract"(%arg11, %30) : (tensor<4x16x64xf32>, tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %32 = "chlo.square"(%31) : (tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
    %33 = "stablehlo.convert"(%arg12) : (tensor<i32>) -> tensor<f32>
    %34 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.subtract"(%34, %33) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.reduce"(%32, %36) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %45 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%45) : (tensor<f32>) -> ()
    }) : (tensor<4x16x64xf32>, tensor<f32>) -> tensor<4x16xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %39 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %40 = "stablehlo.divide"(%38, %39) : (tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.compare"(%35, %41) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %43 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %44 = "func.call"(%42, %40, %43) <{callee = @_where_2}> : (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>
    "func.return"(%44) : (tensor<4x16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i1>, tensor<4x16x1xf32>, tensor<f32>) -> tensor<4x16x1xf32>, sym_name = "_where_2", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<i1>, %arg9: tensor<4x16x1xf32>, %arg10: tensor<f32>):
    %21 = "stablehlo.convert"(%arg10) : (tensor<f32>) -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x1xf32>
    %23 = "stablehlo.select"(%arg8, %arg9, %22) : (tensor<i1>, tensor<4x16x1xf32>, tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    "func.return"(%23) : (tensor<4x16x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x16xi1>, tensor<4x4x16x16xf32>, tensor<f32>) -> tensor<4x4x16x16xf32>, sym_name = "_where_3", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<16x16xi1>, %arg6: tensor<4x4x16x16xf32>, %arg7: tensor<f32>):
    %17 = "stablehlo.convert"(%arg7) : (tensor<f32>) -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<16x16xi1>) -> tensor<4x4x16x16xi1>
    %19 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x16x16xf32>
    %20 = "stablehlo.select"(%18, %arg6, %19) : (tensor<4x4x16x16xi1>, tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
    "func.return"(%20) : (tensor<4x4x16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>, sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x16x128xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %16 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%16) : (tensor<f32>) -> ()
    }) : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %15 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<4x16x128xf32>, tensor<f32>) -> tensor<4x16xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %12 = "stablehlo.log"(%11) : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x128xf32>
    %14 = "stablehlo.subtract"(%7, %13) : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
    "func.return"(%14) : (tensor<4x16x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
