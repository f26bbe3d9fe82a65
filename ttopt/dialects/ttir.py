"""The TTIR dialect: collective ops produced by the sharding pipeline (generic form), and
`ttir.empty` in the custom form tt-mlir prints (`%0 = ttir.empty() : tensor<...>`)."""

from ttopt.dialects.formats import NullaryFormat
from ttopt.ir.opdef import OpDef, register

register(
    OpDef("ttir.mesh_shard", operands=(1, 2), results=1),
    OpDef("ttir.all_gather", operands=(1, 2), results=1),
    OpDef("ttir.all_reduce", operands=(1, 2), results=1),
    OpDef("ttir.reduce_scatter", operands=(1, 2), results=1),
    OpDef("ttir.collective_permute", operands=(1, 2), results=1),
    OpDef("ttir.all_to_all", operands=(1, 2), results=1),
    OpDef("ttir.mesh_partition", operands=1, results=1),
    OpDef("ttir.empty", operands=0, results=1, format=NullaryFormat()),
)
