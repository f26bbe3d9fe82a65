"""Grammar loading: the Lark LALR parsers for grammars/*.lark, built once and cached on disk."""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path
from typing import Any

from lark import Lark

from ttopt.parse.lexer import MlirLexer


def grammar_dir() -> Path:
    """Directory holding the .lark files (the repo's `grammars/`, shipped inside the package)."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here / "grammars", here.parent / "grammars"):
        if cand.is_dir():
            return cand
    raise FileNotFoundError("ttopt grammars directory not found")


def _cache_path(name: str) -> str | bool:
    # A per-user cache file keyed by the grammar's contents; Lark re-analyses when it changes.
    text = (grammar_dir() / name).read_bytes()
    import hashlib

    import lark

    digest = hashlib.sha256(text + b"lark-" + lark.__version__.encode()).hexdigest()[:16]
    base = os.environ.get("TTOPT_CACHE_DIR") or os.path.join(tempfile.gettempdir(), f"ttopt-{os.getuid()}")
    try:
        os.makedirs(base, exist_ok=True)
    except OSError:
        return False
    return os.path.join(base, f"{name}.{digest}.cache")


@functools.lru_cache(maxsize=None)
def load(name: str, start: tuple[str, ...], transformer: Any = None) -> Lark:
    """The LALR parser for `grammars/<name>`, with `transformer` (an instance) inlined."""
    text = (grammar_dir() / name).read_text()
    return Lark(
        text,
        parser="lalr",
        lexer=MlirLexer,
        start=list(start),
        maybe_placeholders=True,
        cache=_cache_path(name),
        transformer=transformer,
    )
