"""ttopt: an optimizer for Tenstorrent-style MLIR (TTNN layouts, StableHLO/Shardy sharding, fabric topology)."""

__version__ = "0.1.0"
