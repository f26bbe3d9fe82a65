"""Dialect conversions on the way from StableHLO to TTNN: StableHLO compute ops to TTIR
(`convert-stablehlo-to-ttir`, also run by the sharding pipeline's `convert-to-ttir`) and TTIR to
TTNN (`ttir-to-ttnn-backend-pipeline`, which can run the ttnn-optimizer)."""
