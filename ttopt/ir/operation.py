"""Operations, blocks and regions: the IR tree, with use-def links kept up to date."""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any, Container, Iterable, Iterator, Sequence

from ttopt.ir.opdef import OP_DEFS
from ttopt.ir.values import BlockArgument, OpResult, Value

if TYPE_CHECKING:
    from ttopt.ir.attributes import Attribute
    from ttopt.ir.location import Location
    from ttopt.ir.opdef import OpDef
    from ttopt.ir.types import Type


_new = object.__new__


class Operation:
    """An operation: name, operands, results, inherent properties, discardable attributes, regions.

    `properties` hold what MLIR prints in `<{...}>` (inherent attributes); `attributes` hold the
    discardable `{...}` dictionary. Custom assembly formats read and write the same two dicts,
    so generic and pretty printing of one op always agree.
    """

    __slots__ = (
        "name",
        "operands",
        "results",
        "properties",
        "attributes",
        "regions",
        "successors",
        "location",
        "parent",
        "pos",
        "_opdef",
    )

    def __init__(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
        location: Location | None = None,
        successors: Sequence[Any] = (),
        result_names: Sequence[str | None] | None = None,
    ) -> None:
        self.name = name
        self.operands: list[Value] = list(operands)
        for v in self.operands:
            v.uses.append(self)
        names = result_names or (None,) * len(result_types)
        self.results: list[OpResult] = [OpResult(t, self, i, names[i]) for i, t in enumerate(result_types)]
        self.properties: dict[str, Attribute] = properties if properties is not None else {}
        self.attributes: dict[str, Attribute] = attributes if attributes is not None else {}
        self.regions: list[Region] = []
        for r in regions:
            self.add_region(r)
        self.successors = list(successors)
        self.location = location
        self.parent: Block | None = None
        self.pos: Any = None  # SourcePos of the op in the input, for diagnostics
        self._opdef: Any = False

    @classmethod
    def parsed(
        cls,
        name: str,
        operands: list[Value],
        result_type: Type | None,
        result_name: str | None,
        properties: dict[str, Attribute],
        attributes: dict[str, Attribute],
        location: Location | None,
    ) -> Operation:
        """`Operation(name, operands, [result_type], properties, attributes, location=location,
        result_names=[result_name])` (no result when result_type is None) for the parser's common
        line: it takes `operands` and both dicts as they are, and skips the general argument
        handling (a fifth of building a parsed op)."""
        op = _new(cls)
        op.name = name
        op.operands = operands
        for v in operands:
            v.uses.append(op)
        op.results = [] if result_type is None else [OpResult(result_type, op, 0, result_name)]
        op.properties = properties
        op.attributes = attributes
        op.regions = []
        op.successors = []
        op.location = location
        op.parent = None
        op.pos = None
        op._opdef = False
        return op

    # -- structure -------------------------------------------------------------------------
    @property
    def opdef(self) -> OpDef | None:
        """The registered definition of this op, or None for unknown ops."""
        d = self._opdef
        if d is False:
            d = self._opdef = OP_DEFS.get(self.name)
        return d

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else "builtin"

    @property
    def result(self) -> OpResult:
        """The single result (error if the op has zero or several)."""
        if len(self.results) != 1:
            raise ValueError(f"{self.name} has {len(self.results)} results")
        return self.results[0]

    @property
    def parent_op(self) -> Operation | None:
        b = self.parent
        if b is None or b.parent is None:
            return None
        return b.parent.parent

    def ancestor_in(self, ops: Container[Operation]) -> Operation | None:
        """This op, or the nearest op enclosing it, that is in `ops` (None if none is)."""
        top: Operation | None = self
        while top is not None and top not in ops:
            top = top.parent_op
        return top

    def add_region(self, region: Region) -> Region:
        """Attach a region as the last region of this op."""
        region.parent = self
        self.regions.append(region)
        return region

    def walk(self) -> Iterator[Operation]:
        """This op and every op nested in it, pre-order.

        One generator, a stack of the open op lists (a generator per nesting level would pass
        each op up through every enclosing level); lists are read as lazily as a recursive walk
        reads them, so edits made while walking are seen the same way."""
        yield self
        stack = [chain.from_iterable(b.ops for r in self.regions for b in r.blocks)]
        while stack:
            for op in stack[-1]:
                yield op
                if op.regions:
                    stack.append(chain.from_iterable(b.ops for r in op.regions for b in r.blocks))
                    break
            else:
                stack.pop()

    def walk_list(self) -> list[Operation]:
        """`list(self.walk())`, built without a generator step per op (most ops hold no region): for
        the checks and passes that go over every op and edit no op list while they do."""
        out: list[Operation] = []
        add = out.append

        def visit(op: Operation) -> None:  # recursion as deep as the nesting (bounded by the parser)
            add(op)
            for r in op.regions:
                for b in r.blocks:
                    for o in b.ops:
                        if o.regions:
                            visit(o)
                        else:
                            add(o)

        visit(self)
        return out

    def is_ancestor_of(self, other: Operation) -> bool:
        """True if `other` is nested (at any depth) inside this op."""
        cur: Operation | None = other
        while cur is not None:
            if cur is self:
                return True
            cur = cur.parent_op
        return False

    # -- operands --------------------------------------------------------------------------
    def set_operand(self, index: int, value: Value) -> None:
        """Replace operand `index`, keeping use lists exact."""
        old = self.operands[index]
        if old is value:
            return
        old.uses.remove(self)
        self.operands[index] = value
        value.uses.append(self)

    def set_operands(self, values: Iterable[Value]) -> None:
        """Replace the whole operand list."""
        for v in self.operands:
            v.uses.remove(self)
        self.operands = list(values)
        for v in self.operands:
            v.uses.append(self)

    def drop_all_references(self) -> None:
        """Forget operands (and those of nested ops): the op no longer uses anything."""
        if not self.regions:  # most ops: no walk
            for v in self.operands:
                v.uses.remove(self)
            self.operands = []
            return
        for op in self.walk():
            for v in op.operands:
                v.uses.remove(op)
            op.operands = []

    # -- editing ---------------------------------------------------------------------------
    def erase(self) -> None:
        """Remove from the parent block; the results must be unused (outside the op itself)."""
        for r in self.results:
            if any(not self.is_ancestor_of(u) for u in r.uses):
                raise ValueError(f"erasing {self.name} whose result #{r.index} still has uses")
        self.drop_all_references()
        if self.parent is not None:
            self.parent.remove(self)

    def clone(self, mapping: dict[int, Value] | None = None) -> Operation:
        """A deep copy (regions included; attributes are immutable and shared). `mapping` maps
        id(old value) -> new value; operands not in it are kept; the clone's results and block
        arguments are added to it. Value name hints and block-argument locations are kept."""
        mapping = {} if mapping is None else mapping
        operands = [mapping.get(id(v), v) for v in self.operands]
        new = Operation(
            self.name,
            operands,
            [r.type for r in self.results],
            dict(self.properties),
            dict(self.attributes),
            location=self.location,
            result_names=[r.name_hint for r in self.results],
        )
        new.pos = self.pos
        for old, r in zip(self.results, new.results):
            mapping[id(old)] = r
        block_map: dict[int, Block] = {}
        for region in self.regions:
            new_region = Region()
            for block in region.blocks:
                nb = Block([a.type for a in block.args], label=block.label)
                for a, na in zip(block.args, nb.args):
                    na.location = a.location
                    na.name_hint = a.name_hint
                    mapping[id(a)] = na
                new_region.add_block(nb)
                block_map[id(block)] = nb
            new.add_region(new_region)
        for region, new_region in zip(self.regions, new.regions):
            for block, nb in zip(region.blocks, new_region.blocks):
                for op in block.ops:
                    c = op.clone(mapping)
                    c.successors = [block_map.get(id(b), b) for b in op.successors]
                    nb.append(c)
        new.successors = list(self.successors)
        return new

    def get_attr(self, name: str) -> Attribute | None:
        """An inherent property or discardable attribute by name (properties first)."""
        a = self.properties.get(name)
        return a if a is not None else self.attributes.get(name)

    def __repr__(self) -> str:
        return f"<Operation {self.name} ({len(self.operands)} -> {len(self.results)})>"


class Block:
    """A list of operations with block arguments; optionally labelled (`^bb1`)."""

    __slots__ = ("ops", "args", "parent", "label", "_hint")

    def __init__(self, arg_types: Sequence[Type] = (), label: str | None = None) -> None:
        self.ops: list[Operation] = []
        self.args: list[BlockArgument] = [BlockArgument(t, self, i) for i, t in enumerate(arg_types)]
        self.parent: Region | None = None
        self.label = label
        # Where the last op looked up, inserted or removed was: passes build and erase ops in front
        # of the op they rewrite, so the next lookup is there or just after it. Only a guess (`ops`
        # is edited directly too): every lookup checks it by identity.
        self._hint = 0

    def add_arg(self, arg: BlockArgument) -> BlockArgument:
        """Append an existing argument object (used by the parser)."""
        arg.block = self
        arg.index = len(self.args)
        self.args.append(arg)
        return arg

    def append(self, op: Operation) -> Operation:
        """Add `op` at the end (detaching it from its current block first)."""
        if op.parent is not None:
            op.parent.remove(op)
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        """Add `op` at `index` (detaching it from its current block first)."""
        if op.parent is not None:
            op.parent.remove(op)
        op.parent = self
        self.ops.insert(index, op)
        _set_hint(self, index)
        return op

    def index(self, op: Operation) -> int:
        """Position of `op` in this block (a C-level identity scan: ops define no __eq__), looked for
        first at and after the last position used (an op is in its block once)."""
        ops = self.ops
        h = self._hint
        try:
            if ops[h] is op:
                return h
            i = ops.index(op, h)
        except (IndexError, ValueError):
            try:
                i = ops.index(op)
            except ValueError:
                raise ValueError(f"{op!r} is not in this block") from None
        _set_hint(self, i)
        return i

    def remove(self, op: Operation) -> None:
        """Take `op` out of this block."""
        try:
            i = self.index(op)
        except ValueError:
            raise ValueError("list.remove(x): x not in list") from None
        del self.ops[i]
        op.parent = None

    def remove_many(self, ops: Iterable[Operation]) -> None:
        """Remove several ops in one pass over the block (use this for bulk erasure)."""
        gone = {id(o) for o in ops}
        kept = []
        for o in self.ops:
            if id(o) in gone:
                o.parent = None
            else:
                kept.append(o)
        self.ops = kept

    @property
    def terminator(self) -> Operation | None:
        return self.ops[-1] if self.ops else None

    def __iter__(self) -> Iterator[Operation]:
        return iter(self.ops)

    def __len__(self) -> int:
        return len(self.ops)


# The position guess is written through its slot: a verified block's class reports attribute
# writes (ttopt/ir/edit_journal.py), and this one, made on every lookup, changes nothing checked.
_set_hint = Block.__dict__["_hint"].__set__


class Region:
    """A list of blocks owned by an operation."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: Sequence[Block] = ()) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        """The first block (created empty if the region has none)."""
        if not self.blocks:
            self.add_block(Block())
        return self.blocks[0]

    def ops(self) -> Iterator[Operation]:
        """Operations of every block, in order (not nested ones)."""
        for b in self.blocks:
            yield from b.ops
