"""Pass infrastructure: base class, registry, pipeline parsing, the pass manager."""
