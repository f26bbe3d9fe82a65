"""The one exception the typed dialect attributes raise, and the helper that funnels other errors into it."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from ttopt.parse.attr_body import AttrError

if TYPE_CHECKING:
    from pydantic import ValidationError

__all__ = ["AttrError", "attr_errors"]


def _first_error(e: ValidationError) -> str:
    errs = e.errors(include_url=False)
    if not errs:
        return str(e)
    err = errs[0]
    msg = str(err.get("msg", "invalid value"))
    # pydantic prefixes messages of ValueErrors raised by our validators with "Value error, ".
    msg = msg.removeprefix("Value error, ")
    loc = ".".join(str(p) for p in err.get("loc", ()) if p != "__root__")
    return f"{loc}: {msg}" if loc else msg


@contextmanager
def attr_errors(what: str) -> Iterator[None]:
    """Re-raise pydantic validation errors and stray ValueErrors inside the block as `AttrError`."""
    try:
        yield
    except AttrError:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as e:
        # pydantic's ValidationError is a ValueError; only a loaded pydantic can have raised one,
        # so a plain parse need not import it to tell.
        pydantic = sys.modules.get("pydantic")
        if pydantic is not None and isinstance(e, pydantic.ValidationError):
            raise AttrError(f"invalid {what}: {_first_error(e)}") from None
        raise AttrError(f"invalid {what}: {e}") from None
