"""One collective of a reshard's route, as plain data: what both routes of
`reshard-to-collectives` (the whole-axis `plan` and Shardy's `CollectiveInserter`) produce and
`collectives_for` turns into sdy ops."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ttopt.sharding.factors import Axis


@dataclass
class Step:
    """One collective: kind and its axes (per dim lists, or all_to_all params)."""

    kind: str
    lists: list[list[Axis]] | None = None
    params: list[tuple[list[Axis], int, int]] | None = None
    after: list[list[Axis]] | None = None  # the per-dim axes once the collective has run
    mesh: Any = None  # the mesh (name or inline attribute) of its out_sharding; None: the target's
