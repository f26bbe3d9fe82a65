// RUN: ttopt layouts 64x64xbf16 | FileCheck %s --check-prefix=POOL
// RUN: ttopt layouts 1x1x8x64xbf16 | FileCheck %s --check-prefix=RANK4
// RUN: ttopt layouts 12x32x64xbf16 --max-legal-layouts 2 | FileCheck %s --check-prefix=H12
// RUN: ttopt layouts 4096x4096xbf16 --max-legal-layouts 0 --json | FileCheck %s --check-prefix=DRAM
// RUN: ttopt layouts 32x32xbf16 --json | FileCheck %s --check-prefix=L1
// RUN: ttopt layouts 64x64xbf16 --row-major-enabled --max-legal-layouts 4 | FileCheck %s --check-prefix=RM
// RUN: not ttopt layouts 64x64xi7 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not ttopt layouts bf16 2>&1 | FileCheck %s --check-prefix=RANK0
// RUN: not ttopt layouts 1x1x1x1x1x1xbf16 2>&1 | FileCheck %s --check-prefix=RANK6
// RUN: not ttopt layouts 4x0xbf16 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ttopt layouts 64x64xbf16 --device wormhole 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not ttopt layouts 64x64xbf16 --tensor-l1-usage-cap 1.5 2>&1 | FileCheck %s --check-prefix=CAP

// `ttopt layouts` prints the candidate pool of a tensor type in the order the optimizer tries it
// (seed 002 §3.1.2-3.1.3, reference §2.2): interleaved first, then sharded by grid volume.

// The worked example of the reference: B2x2, B1x2, B2x1, H2x1, W1x2, then the 1x1 grids.
// POOL: tensor<64x64xbf16> on wormhole_b0 (8x8 cores): 2 interleaved + 8 of 8 sharded candidates (max-legal-layouts 8)
// POOL: # {{.*}} page {{.*}} buffer {{.*}} memory layout {{.*}} grid {{.*}} shard {{.*}} bytes/core {{.*}} core ranges
// POOL: 0 {{.*}} tile {{.*}} dram {{.*}} interleaved {{.*}} 1x1 {{.*}} 2x2 tiles {{.*}} - (DRAM) {{.*}} -
// POOL-NEXT: 1 {{.*}} tile {{.*}} l1 {{.*}} interleaved {{.*}} 8x8 {{.*}} 1x1 tiles {{.*}} 2048 {{.*}} -
// POOL-NEXT: 2 {{.*}} block_sharded {{.*}} 2x2 {{.*}} 1x1 tiles {{.*}} 2048 {{.*}} [(0,0)-(1,1)]
// POOL-NEXT: 3 {{.*}} block_sharded {{.*}} 1x2 {{.*}} 2x1 tiles {{.*}} 4096 {{.*}} [(0,0)-(1,0)]
// POOL-NEXT: 4 {{.*}} block_sharded {{.*}} 2x1 {{.*}} 1x2 tiles {{.*}} 4096 {{.*}} [(0,0)-(0,1)]
// POOL-NEXT: 5 {{.*}} height_sharded {{.*}} 2x1 {{.*}} 1x2 tiles {{.*}} 4096 {{.*}} [(0,0)-(1,0)]
// POOL-NEXT: 6 {{.*}} width_sharded {{.*}} 1x2 {{.*}} 2x1 tiles {{.*}} 4096 {{.*}} [(0,0)-(1,0)]
// POOL-NEXT: 7 {{.*}} block_sharded {{.*}} 1x1 {{.*}} 2x2 tiles {{.*}} 8192 {{.*}} [(0,0)-(0,0)]
// POOL-NEXT: 8 {{.*}} height_sharded {{.*}} 1x1 {{.*}} 2x2 tiles
// POOL-NEXT: 9 {{.*}} width_sharded {{.*}} 1x1 {{.*}} 2x2 tiles
// POOL: usable L1 per core on wormhole_b0: 1498112 B (tensor L1 usage cap 1.0)

// RANK4: tensor<1x1x8x64xbf16> on wormhole_b0 (8x8 cores): 2 interleaved + 5 of 5 sharded candidates
// RANK4: 0 {{.*}} dram {{.*}} interleaved {{.*}} 1x1 {{.*}} 1x2 tiles
// RANK4-NEXT: 1 {{.*}} l1 {{.*}} interleaved {{.*}} 8x8 {{.*}} 1x1 tiles
// RANK4-NEXT: 2 {{.*}} block_sharded {{.*}} 1x2 {{.*}} 1x1 tiles
// RANK4-NEXT: 3 {{.*}} width_sharded {{.*}} 1x2 {{.*}} 1x1 tiles

// Height sharding on 12 cores fills the 8-wide grid row by row (reference §1.2).
// H12: 3 {{.*}} height_sharded {{.*}} 12x1 {{.*}} 1x2 tiles {{.*}} 4096 {{.*}} [(0,0)-(7,0), (0,1)-(3,1)]

// DRAM: "tensor": "tensor<4096x4096xbf16>"
// DRAM: "layout": "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<128x128x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<dram>>, <interleaved>>"
// DRAM: "layout": "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x256x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <interleaved>>"
// DRAM-NOT: sharded

// L1: "layout": "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, memref<1x1x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <interleaved>>"

// Row-major adds a row-major DRAM layout first and splits the sharded budget half/half.
// RM: 0 {{.*}} row_major {{.*}} dram {{.*}} interleaved {{.*}} 1x1 {{.*}} 64x64 elems
// RM-NEXT: 1 {{.*}} tile {{.*}} dram
// RM-NEXT: 2 {{.*}} tile {{.*}} l1
// RM-COUNT-2: row_major {{.*}} l1
// RM: usable L1

// DTYPE: Invalid value for TENSOR_TYPE: unknown dtype 'i7'
// RANK0: rank-0 tensors have no TTNN layout (rank must be 1 to 5)
// RANK6: rank 6 is not supported (rank must be 1 to 5)
// ZERO: dimension 1 has size 0; every dimension must be >= 1
// PRESET: unknown device preset 'wormhole' (expected wormhole_b0, n150, blackhole or a system-desc file)
// CAP: --tensor-l1-usage-cap must be in (0, 1], got 1.5
// CAP-NOT: Traceback
