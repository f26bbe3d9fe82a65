"""TTIR fusing patterns (tt-mlir's TTIRFusing.cpp and Fusing/), one family per module: linear (matmul
+ bias), conv (conv + bias), softmax, activations (relu, silu, gelu), rms_norm, sdpa; `match` holds what they read,
`cost` the estimates the pass compares. The pass is `ttopt.lowering.ttir_fusing`.
"""
