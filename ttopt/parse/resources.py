"""The `{-# ... #-}` file-metadata block read into FileMetadata (its extent is scanned in scan.py)."""

from __future__ import annotations

import re
from typing import Iterable

from ttopt.ir.resources import FileMetadata, ResourceGroup
from ttopt.parse.attr_parser import split_top_level
from ttopt.parse.scan import RESOURCE_KEY as _KEY
from ttopt.parse.scan import ScanError, skip_ws


def read_file_metadata(text: str, base: int) -> FileMetadata:
    """The sections of a scanned `{-# ... #-}` token starting at offset `base` of the file (its
    comments already blanked by the parser)."""
    sections = []
    for name, body, name_at, at in _entries(text[3:-3], base + 3):
        if name not in ("dialect_resources", "external_resources"):
            raise ScanError(name_at, f"unknown file-metadata section '{name}' (expected dialect_resources or external_resources)")
        groups = []
        for owner, gbody, _, gat in _entries(_braced(body, at, name), at + 1):
            read = _entries(_braced(gbody, gat, owner), gat + 1)
            if name == "dialect_resources" and owner == "builtin":
                for k, v, _, vat in read:
                    _check_blob(k, v, vat)
            entries = tuple((k, v) for k, v, _, _ in read)
            groups.append(ResourceGroup(owner, entries))
        sections.append((name, tuple(groups)))
    return merged(sections)


def merged(sections: Iterable[tuple[str, tuple[ResourceGroup, ...]]]) -> FileMetadata:
    """One FileMetadata from sections read in order (from one `{-# ... #-}` block or several, as
    MLIR reads any number): a section or group met again adds its entries to the first one, and a
    key given again takes the later value, as MLIR's reader leaves them."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name, groups in sections:
        section = out.setdefault(name, {})
        for g in groups:
            entries = section.setdefault(g.owner, {})
            for k, v in g.entries:
                entries[k] = v
    return FileMetadata(
        tuple((name, tuple(ResourceGroup(owner, tuple(e.items())) for owner, e in section.items())) for name, section in out.items())
    )


_HEX_BLOB = re.compile(r'"0x((?:[0-9a-fA-F]{2})*)"')


def _check_blob(key: str, value: str, at: int) -> None:
    """A builtin resource is a hex string blob whose first 4 bytes (little-endian) give its
    alignment, a power of two, as MLIR's blob reader requires (the token as written: no escapes)."""
    m = _HEX_BLOB.fullmatch(value)
    if m is None:
        raise ScanError(at, f"expected hex string blob for key '{key}'")
    if len(m.group(1)) < 8:
        raise ScanError(at, f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes")
    align = int.from_bytes(bytes.fromhex(m.group(1)[:8]), "little")
    if align & (align - 1):
        raise ScanError(at, f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes, but got non-power-of-2 value: {align}")


def _braced(value: str, at: int, key: str) -> str:
    if not (value.startswith("{") and value.endswith("}")):
        raise ScanError(at, f"expected '{{' to open the entries of '{key}'")
    return value[1:-1]


def _entries(body: str, base: int) -> list[tuple[str, str, int, int]]:
    """`key: value` pairs at the top level of `body` (text at file offset `base`), with the file
    offsets of the key and of the value."""
    out = []
    offset = 0
    for part in split_top_level(body) if body.strip() else []:
        start = body.index(part, offset) if part else offset
        offset = start + len(part)
        m = _KEY.match(part)
        colon = skip_ws(part, m.end()) if m else 0
        if m is None or not part.startswith(":", colon):
            raise ScanError(base + start, f"expected 'key: value' in file metadata, found '{part[:40]}'")
        vstart = skip_ws(part, colon + 1)
        value = part[vstart:].strip()
        if not value:
            raise ScanError(base + start, f"missing value for '{m.group()}' in file metadata")
        out.append((m.group(), value, base + start, base + start + vstart))
    return out
