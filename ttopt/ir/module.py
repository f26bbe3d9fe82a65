"""A parsed MLIR file (or one `// -----` chunk): the top-level module op plus its aliases."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ttopt.ir.aliases import AliasScope

if TYPE_CHECKING:
    from ttopt.ir.diagnostics import SourceFile
    from ttopt.ir.operation import Operation
    from ttopt.ir.resources import FileMetadata


CPU_MODULE = "ttcore.cpu_module"


class Module:
    """The builtin.module op (implicit when the file has bare top-level ops) and the alias table."""

    def __init__(self, op: Operation, aliases: AliasScope | None = None, source: SourceFile | None = None) -> None:
        self.op = op
        self.aliases = aliases if aliases is not None else AliasScope()
        self.source = source
        self.metadata: FileMetadata | None = None  # the `{-# ... #-}` block, printed back last

    @property
    def body(self):
        """The module's single block."""
        return self.op.regions[0].entry

    def walk(self) -> Iterator[Operation]:
        """Every op in the module, pre-order (the module op first)."""
        return self.op.walk()

    def functions(self) -> list[Operation]:
        """`func.func` ops, including those nested in wrapper modules (ttcore.device_module), but not
        the host functions of a `ttcore.cpu_module` (device passes never rewrite those)."""
        found: list[Operation] = []
        stack = [self.op]
        while stack:
            op = stack.pop()
            if op.name == "func.func":
                found.append(op)
            if op.name == CPU_MODULE:
                continue
            for region in reversed(op.regions):
                for block in reversed(region.blocks):
                    stack.extend(reversed(block.ops))
        return found

    def lookup_symbol(self, name: str) -> Operation | None:
        """The op whose `sym_name` is `name` (first match, any depth)."""
        for op in self.op.walk():
            s = op.properties.get("sym_name")
            if s is not None and getattr(s, "value", None) == name:
                return op
        return None
