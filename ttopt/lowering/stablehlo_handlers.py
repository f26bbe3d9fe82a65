"""The registry of StableHLO/CHLO lowerings that live in their own modules
(`ttopt/lowering/stablehlo_ops/`, one op family per module), and `Unsupported`, which a lowering
raises for an op (or a form of it) it cannot convert. `convert-stablehlo-to-ttir` consults the
registry before its built-in lowerings. Kept apart from the pass so the family modules need not
import it (no import cycle)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ttopt.ir.operation import Operation
    from ttopt.ir.values import Value
    from ttopt.lowering.stablehlo_to_ttir import Lowering

Handler = Callable[["Lowering", "Operation"], "list[Value]"]


class Unsupported(Exception):
    """An op (or a form of it) with no TTIR lowering; the message says why."""


# Lowerings by full op name; each returns the TTIR values that replace the op's results, in order.
HANDLERS: dict[str, Handler] = {}


def lowers(*names: str) -> Callable[[Handler], Handler]:
    """Register a lowering for the StableHLO/CHLO ops `names`."""

    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = fn
        return fn

    return register
