"""TTIR canonicalizations (tt-mlir's TTIR op folders and canonicalization patterns), as patterns
of the `canonicalize` pass.

Importing this package registers them with `canonicalize` (ttopt/passes/patterns.py), after its
own; for each op they are tried as MLIR's greedy driver does: the op's folds first, then its trait
folds, then its rewrite patterns. One concept per module:

* traits.py: involution, idempotence, binary idempotence;
* clamp.py: clamp merges, relu6, clamp_tensor with constant or broadcast bounds;
* data_movement.py: reshape, permute, transpose, broadcast, repeat, slice, concat, reverse,
  TTNN/metal layout cast round trips;
* typecast.py: identity, constant and consecutive typecasts;
* logical.py: where, le/lt, logical and/or with constants;
* constant_folds.py: neg and data movement of constants, splat constants as `full`;
* elementwise_folds.py: elementwise unary and binary ops of constants, comparisons;
* no_op_folds.py: pools, scatters and mesh shards that do nothing;
* reductions.py: sum of a splat, prod of booleans, top-k over one element;
* matmul.py: linear without bias, batch reshapes around a matmul, pointwise conv3d;
* embedding.py: an embedding's size-1 index dimensions squeezed out;
* constants.py, edits.py: reading and building constant ops; replacing an op.
"""

from __future__ import annotations

from ttopt.lowering.ttir_canonicalize.clamp import canonicalize_clamp_tensor, clamp_to_relu6, merge_clamps
from ttopt.lowering.ttir_canonicalize.constant_folds import fold_data_movement_constant, fold_neg, splat_constant_to_full
from ttopt.lowering.ttir_canonicalize.data_movement import (
    fold_broadcast,
    fold_concat,
    fold_layout_cast_round_trip,
    fold_permute,
    fold_repeat,
    fold_repeat_interleave,
    fold_reshape,
    fold_reverse,
    fold_slice,
    reshape_permute_reshape,
    transpose_to_permute,
)
from ttopt.lowering.ttir_canonicalize.elementwise_folds import (
    BINARY,
    SHIFTS,
    UNARY,
    fold_binary,
    fold_clamp_constant,
    fold_right_shift_out,
    fold_self_comparison,
    fold_unary,
    fold_xor_self,
)
from ttopt.lowering.ttir_canonicalize.embedding import squeeze_embedding_indices
from ttopt.lowering.ttir_canonicalize.logical import fold_logical, fold_where, swap_comparison
from ttopt.lowering.ttir_canonicalize.matmul import absorb_leading_merge, linear_without_bias_is_matmul, pointwise_conv3d_to_matmul
from ttopt.lowering.ttir_canonicalize.no_op_folds import fold_empty_scatter, fold_identity_pool, fold_unit_mesh_shard
from ttopt.lowering.ttir_canonicalize.reductions import fold_sum_of_splat, fold_width_one_topk, prod_of_booleans_is_min
from ttopt.lowering.ttir_canonicalize.traits import (
    BINARY_IDEMPOTENT,
    IDEMPOTENT,
    INVOLUTIONS,
    fold_binary_idempotence,
    fold_idempotence,
    fold_involution,
)
from ttopt.lowering.ttir_canonicalize.typecast import fold_consecutive_typecast, fold_typecast
from ttopt.passes.patterns import Pattern, pattern_set, register_canonicalizations


def _on(*names: str) -> frozenset[str]:
    return frozenset(f"ttir.{n}" for n in names)


# tt-mlir's op folders (an op's own fold method first, then its traits'): what MLIR's greedy driver
# tries on every op of any pattern pass, not only under canonicalize.
TTIR_FOLDS = pattern_set(
    Pattern("ttir-fold-neg-constant", fold_neg, _on("neg")),
    Pattern("ttir-fold-logical-constant", fold_logical, _on("logical_and", "logical_or")),
    Pattern("ttir-fold-where", fold_where, _on("where")),
    Pattern("ttir-fold-reshape", fold_reshape, _on("reshape")),
    Pattern("ttir-fold-permute", fold_permute, _on("permute")),
    Pattern("ttir-fold-broadcast", fold_broadcast, _on("broadcast")),
    Pattern("ttir-fold-repeat", fold_repeat, _on("repeat")),
    Pattern("ttir-fold-repeat-interleave", fold_repeat_interleave, _on("repeat_interleave")),
    Pattern("ttir-fold-slice", fold_slice, _on("slice_static")),
    Pattern("ttir-fold-concat", fold_concat, _on("concat")),
    Pattern("ttir-fold-sum-of-splat", fold_sum_of_splat, _on("sum")),
    Pattern("ttir-fold-identity-pool", fold_identity_pool, _on("avg_pool2d", "max_pool2d")),
    Pattern("ttir-fold-empty-scatter", fold_empty_scatter, _on("scatter")),
    Pattern("ttir-fold-unit-mesh-shard", fold_unit_mesh_shard, _on("mesh_shard")),
    Pattern("ttir-fold-data-movement-constant", fold_data_movement_constant,
            _on("reshape", "permute", "broadcast", "repeat", "repeat_interleave", "slice_static")),
    Pattern("ttir-fold-typecast", fold_typecast, _on("typecast")),
    Pattern("ttir-fold-self-comparison", fold_self_comparison, _on("eq", "ne")),
    Pattern("ttir-fold-xor-self", fold_xor_self, _on("bitwise_xor")),
    Pattern("ttir-fold-unary-constant", fold_unary, frozenset(UNARY)),
    Pattern("ttir-fold-right-shift-out", fold_right_shift_out, _on("logical_right_shift")),
    Pattern("ttir-fold-binary-constant", fold_binary, frozenset(BINARY) | SHIFTS),
    Pattern("ttir-fold-clamp-constant", fold_clamp_constant, _on("clamp_scalar")),
    Pattern("ttir-involution", fold_involution, INVOLUTIONS),
    Pattern("ttir-idempotence", fold_idempotence, IDEMPOTENT),
    Pattern("ttir-binary-idempotence", fold_binary_idempotence, BINARY_IDEMPOTENT),
)
# tt-mlir's canonicalization patterns.
TTIR_REWRITES = pattern_set(
    Pattern("ttir-splat-constant-to-full", splat_constant_to_full, _on("constant")),
    Pattern("ttir-merge-clamps", merge_clamps, _on("clamp_scalar")),
    Pattern("ttir-clamp-to-relu6", clamp_to_relu6, _on("clamp_scalar")),
    Pattern("ttir-clamp-tensor", canonicalize_clamp_tensor, _on("clamp_tensor")),
    Pattern("ttir-reshape-permute-reshape", reshape_permute_reshape, _on("reshape")),
    Pattern("ttir-reverse", fold_reverse, _on("reverse")),
    Pattern("ttir-squeeze-embedding-indices", squeeze_embedding_indices, _on("embedding")),
    Pattern("ttir-linear-without-bias-is-matmul", linear_without_bias_is_matmul, _on("linear")),
    Pattern("ttir-matmul-absorbs-leading-merge", absorb_leading_merge, _on("matmul")),
    Pattern("ttir-pointwise-conv3d-to-matmul", pointwise_conv3d_to_matmul, _on("conv3d")),
    Pattern("ttir-layout-cast-round-trip", fold_layout_cast_round_trip, _on("ttnn_metal_layout_cast")),
    Pattern("ttir-prod-of-booleans-is-min", prod_of_booleans_is_min, _on("prod")),
    Pattern("ttir-width-one-topk", fold_width_one_topk, _on("topk")),
    Pattern("ttir-transpose-to-permute", transpose_to_permute, _on("transpose")),
    Pattern("ttir-swap-comparison", swap_comparison, _on("le", "lt")),
    Pattern("ttir-consecutive-typecast", fold_consecutive_typecast, _on("typecast")),
)
TTIR_PATTERNS = TTIR_FOLDS + TTIR_REWRITES
register_canonicalizations("ttir", TTIR_PATTERNS)
