"""Argmax's two tt-metal programs (reduction/argmax `select_program_factory`): a multicore program
for a row-major input reduced over its last dimension (or over every dimension), the single-core
program for every other input (a tiled one included, tt-metal #46340)."""

from __future__ import annotations

from typing import Any


def reduced_dim(op: Any, rank: int) -> int | None:
    """The dimension argmax reduces, normalised to [0, rank); None when it reduces all of them."""
    props = getattr(op, "properties", {})
    attr = props.get("dim") if hasattr(props, "get") else None
    if attr is None and hasattr(op, "get_attr"):
        attr = op.get_attr("dim")
    value = getattr(attr.resolve() if hasattr(attr, "resolve") else attr, "value", None) if attr is not None else None
    if not isinstance(value, int) or rank <= 0:
        return None
    return value % rank


def reduces_last_dim(op: Any, rank: int) -> bool:
    """Whether argmax reduces the last dimension or every dimension (the cases the multicore
    program handles once its input is row-major)."""
    dim = reduced_dim(op, rank)
    return dim is None or dim == rank - 1


def argmax_multicore(op: Any, tiled: bool, rank: int) -> bool:
    """Whether tt-metal runs `op` (a ttnn.argmax) on many cores: a row-major input reduced over its
    last dimension; a tiled input always takes the single-core program."""
    return not tiled and reduces_last_dim(op, rank)
