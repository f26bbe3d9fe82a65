"""File metadata (`{-# dialect_resources: {...}, external_resources: {...} #-}`): MLIR's resource
section, kept as data and printed back in MLIR's format.

`dialect_resources` holds blobs (`builtin: { key: "0x<alignment><bytes>" }`) that
`dense_resource<key>` attributes refer to; `external_resources` holds tool data such as
`mlir_reproducer`. Values keep their source spelling.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResourceGroup:
    """One dialect's (or tool's) entries: key -> value text."""

    owner: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class FileMetadata:
    """The sections of a `{-# ... #-}` block, in source order."""

    sections: tuple[tuple[str, tuple[ResourceGroup, ...]], ...]

    def blob(self, key: str, owner: str = "builtin") -> bytes | None:
        """The bytes of a `dialect_resources` blob (its 4-byte alignment prefix dropped), or None."""
        for name, groups in self.sections:
            if name != "dialect_resources":
                continue
            for g in groups:
                if g.owner != owner:
                    continue
                for k, v in g.entries:
                    if k == key and v.startswith('"0x') and v.endswith('"'):
                        return bytes.fromhex(v[3:-1])[4:]
        return None

    def text(self) -> str:
        """MLIR's spelling: two-space indentation, one entry per line."""
        lines = ["{-#"]
        for si, (name, groups) in enumerate(self.sections):
            lines.append(f"  {name}: {{")
            for gi, g in enumerate(groups):
                lines.append(f"    {g.owner}: {{")
                for ei, (k, v) in enumerate(g.entries):
                    lines.append(f"      {k}: {v}" + ("," if ei < len(g.entries) - 1 else ""))
                lines.append("    }" + ("," if gi < len(groups) - 1 else ""))
            lines.append("  }" + ("," if si < len(self.sections) - 1 else ""))
        lines.append("#-}")
        return "\n".join(lines)
