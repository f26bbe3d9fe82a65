"""D2M subgraphs: eltwise chains outlined into `ttnn.d2m_subgraph` (outline.py), compiled into
`ttnn.generic` ops with generated kernels (compile.py: tile_program.py plans each chain's tile
computation, kernels.py writes the kernels, program.py the `#ttnn.program` descriptor)."""
