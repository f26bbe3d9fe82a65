"""`OpError`: a lowering rule's failure reported as HEAD's conversion patterns report it with
`op.emitOpError()` (`'ttir.foo' op <message>`), for the messages tt-mlir's negative tests check."""


class OpError(ValueError):
    """A conversion failure worded as HEAD's emitOpError (no pass-name prefix)."""
