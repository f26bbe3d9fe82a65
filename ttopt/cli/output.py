"""Writing results: whole files or nothing, never clobbering the input by accident."""

from __future__ import annotations

import os
import sys
import tempfile


def write_atomic(path: str, text: str) -> None:
    """Write `text` to `path` via a temp file in the same directory and a rename."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path)) or "."
    fd, tmp = tempfile.mkstemp(prefix=".ttopt-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_input(path: str) -> str:
    """The input text (stdin for '-'); undecodable bytes become U+FFFD and get diagnosed."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return data.decode("utf-8", errors="replace")
