"""StableHLO/Shardy sharding pipeline: propagation rules, Shardy passes, tt passes.

Pipeline I (the tt passes of seed 004): `inliner`, `apply-tt-argument-annotations`,
`apply-argument-shard-status`, `apply-shardy-argument-annotations`, `wrap-under-manual-computation`,
`update-global-to-local-shapes`, `close-shardings`, the sdy canonicalization rules, the
`stablehlo-pipeline` driver and the conversions `convert-to-ttir` / `convert-to-ttnn-ccl`.
The Shardy core passes (propagation, explicit reshards, reshard-to-collectives) live in their own
modules; the pipeline finds them through the pass registry.
"""
