"""What a grammar rule hands to the IR builder: an op not yet wired to its operands."""

from __future__ import annotations

from typing import Any, Callable, Sequence


class OpSpec:
    """An op as parsed: operand names still unresolved, result types possibly pending.

    `finish(spec, n_results)` (set by custom formats whose types depend on how many results the
    op was written with, like `stablehlo.add ... : T`) fills operand/result types last.
    `implied_body(operand_types)` (set by a form that implies its region, `reduce ... applies OP`)
    makes that region: the parser's line templates make one per op with it.
    """

    __slots__ = (
        "name",
        "operands",
        "operand_types",
        "result_types",
        "properties",
        "attributes",
        "regions",
        "successors",
        "pos",
        "finish",
        "operand_src",
        "implied_body",
    )

    def __init__(
        self,
        name: str,
        operands: list,
        operand_types: list | None = None,
        result_types: list | None = None,
        properties: dict | None = None,
        attributes: dict | None = None,
        regions: list | None = None,
        pos: int = 0,
        finish: Callable[[OpSpec, int], None] | None = None,
    ) -> None:
        self.name = name
        self.operands = operands  # Tokens (VALUE) or already-resolved Values
        self.operand_types = operand_types
        self.result_types = result_types
        self.properties = properties if properties is not None else {}
        self.attributes = attributes if attributes is not None else {}
        self.regions = regions if regions is not None else []
        self.successors: list[Any] = []
        self.pos = pos
        self.finish = finish
        self.operand_src: tuple[str, int] | None = None  # (operand list text, offset) for diagnostics
        self.implied_body: Callable[[Sequence[Any]], Any] | None = None
