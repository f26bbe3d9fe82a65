"""The one exception the typed dialect attributes raise, and the helper that funnels other errors into it."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from pydantic import ValidationError


class AttrError(ValueError):
    """A dialect attribute body that does not parse or is not valid.

    `offset`, when known, is the character offset of the problem inside the attribute body, so a
    caller holding the body's position in the file can turn it into a file:line:col diagnostic.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def prefixed(self, prefix: str, shift: int = 0) -> AttrError:
        """The same error with `prefix: ` in front of the message and the offset moved by `shift`."""
        return AttrError(f"{prefix}: {self.message}", None if self.offset is None else self.offset + shift)


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
    except ValidationError as e:
        raise AttrError(f"invalid {what}: {_first_error(e)}") from None
    except (ValueError, TypeError, KeyError, IndexError) as e:
        raise AttrError(f"invalid {what}: {e}") from None
