"""ttopt: an optimizer for Tenstorrent-style MLIR (TTNN layouts, StableHLO/Shardy sharding, fabric topology)."""

__version__ = "0.1.0"

# Like mlir-opt's registerAllDialects: importing ttopt registers the parser's body decoders and
# every dialect's ops and formats, so no lower layer has to import a higher one to find them.
from ttopt import dialects as _dialects  # noqa: E402,F401
from ttopt.parse import attr_parser as _attr_parser  # noqa: E402,F401
