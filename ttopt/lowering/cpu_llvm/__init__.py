"""Lowering of a `ttcore.cpu_module`'s TTIR functions to the LLVM dialect (tt-mlir's
`ttnn-common-to-runtime-pipeline`): `lowerable` says which TTIR ops it takes; `convert` does it."""
