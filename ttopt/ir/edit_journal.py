"""The edit journal: which verified parts of the IR were written since they were last verified.

Verifying after a pass re-checks only what the pass could have changed. After an op, block,
region or value has been verified it is *tracked*: its class becomes the tracked subclass below
(same layout, so `__class__` can be swapped in place) whose attribute writes report the object,
and its lists and dicts (operands, results, properties, attributes, block ops and arguments,
region blocks, successors) become `TrackedList` / `TrackedDict` copies whose in-place writes report
their owner. Objects built since (a pass's new ops) are not tracked: they report nothing, and the
verifier finds them as untracked objects in the blocks that were written. Reads are those of
the plain classes; only writes to tracked objects pay for the report.

An entry is `(object, name, key)`: the attribute written and `NO_KEY` (for a list, its owner and
the list's attribute name; `(op, "operand")` for one operand replaced by a value of the same type
object, with `(value, "typed", its type then)` when the value is new (the type object itself: a
reader compares it by identity); `(value, "type")` for a value retyped), or
`(op, "properties" | "attributes", key)` for a dict write (key None: several keys at once).
Reports go to `JOURNAL` only while a verifier keeps a record (`JOURNAL.readers` not empty): otherwise
nothing is recorded and a new record starts with a full verification.
"""

from __future__ import annotations

import weakref
from typing import Any, Iterable, Iterator, SupportsIndex

from ttopt.ir.operation import Block, Operation, Region
from ttopt.ir.values import BlockArgument, OpResult


class _Journal:
    """The writes since the readers' last look, in write order (with repeats), as three parallel
    lists (no tuple per write: the journal outlives the pass, and garbage collection would walk
    every tuple kept): the object, the attribute (or dict) name, the dict key (`NO_KEY` for an
    attribute write)."""

    __slots__ = ("on", "objs", "names", "keys", "readers")

    def __init__(self) -> None:
        self.on = False
        self.objs: list[Any] = []
        self.names: list[str] = []
        self.keys: list[Any] = []
        self.readers: weakref.WeakSet[Any] = weakref.WeakSet()

    def __len__(self) -> int:
        return len(self.objs)

    def entries(self, start: int) -> Iterator[tuple[Any, str, Any]]:
        """The writes from position `start` on, in write order, repeats included (no tuple is kept
        per write: a reader that needs distinct writes drops repeats of the ones it cares about)."""
        return zip(self.objs[start:], self.names[start:], self.keys[start:])

    def drop_before(self, end: int) -> None:
        """Forget the writes before position `end` (every reader has read them)."""
        del self.objs[:end], self.names[:end], self.keys[:end]


NO_KEY = object()  # the key of a write that is not a dict write


JOURNAL = _Journal()
_objs = JOURNAL.objs
_names = JOURNAL.names
_keys = JOURNAL.keys

_set = object.__setattr__
_ABSENT = object()


class TrackedList(list):  # type: ignore[type-arg]
    """A list that reports in-place writes as writes of `owner`'s attribute `name`."""

    __slots__ = ("owner", "name")
    owner: Any
    name: str

    def _touch(self) -> None:
        if JOURNAL.on:
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(NO_KEY)

    def __setitem__(self, i: Any, v: Any) -> None:
        if type(i) is int and -len(self) <= i < len(self):
            old = list.__getitem__(self, i)
            if old is v:
                return  # the same object again
            list.__setitem__(self, i, v)
            if JOURNAL.on:
                # An operand replaced by a value of the very same type: the op's own checks read
                # operand types, so only the use (visibility, sdy ops reading definers) changed.
                _objs.append(self.owner)
                _keys.append(NO_KEY)
                if self.name == "operands" and getattr(old, "type", _ABSENT) is getattr(v, "type", None):
                    _names.append("operand")
                    if type(v) is not TrackedOpResult and type(v) is not TrackedBlockArgument:
                        # A new value reports no retyping: the type it had here is kept to compare.
                        _objs.append(v)
                        _names.append("typed")
                        _keys.append(v.type)
                else:
                    _names.append(self.name)
            return
        list.__setitem__(self, i, v)
        self._touch()

    def __delitem__(self, i: Any) -> None:
        list.__delitem__(self, i)
        if JOURNAL.on:  # inlined _touch: blocks' op lists are edited op by op
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(NO_KEY)

    def __iadd__(self, other: Iterable[Any]) -> TrackedList:  # type: ignore[override,misc]
        list.extend(self, other)
        self._touch()
        return self

    def __imul__(self, n: SupportsIndex) -> TrackedList:  # type: ignore[override,misc]
        list.__imul__(self, n)
        self._touch()
        return self

    def append(self, v: Any) -> None:
        list.append(self, v)
        if JOURNAL.on:  # inlined _touch: blocks' op lists are edited op by op
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(NO_KEY)

    def insert(self, i: SupportsIndex, v: Any) -> None:
        list.insert(self, i, v)
        if JOURNAL.on:  # inlined _touch: blocks' op lists are edited op by op
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(NO_KEY)

    def extend(self, other: Iterable[Any]) -> None:
        list.extend(self, other)
        self._touch()

    def pop(self, i: SupportsIndex = -1) -> Any:
        v = list.pop(self, i)
        self._touch()
        return v

    def remove(self, v: Any) -> None:
        list.remove(self, v)
        self._touch()

    def clear(self) -> None:
        list.clear(self)
        self._touch()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        list.sort(self, *args, **kwargs)
        self._touch()

    def reverse(self) -> None:
        list.reverse(self)
        self._touch()


class TrackedDict(dict):  # type: ignore[type-arg]
    """A dict that reports in-place writes as writes of key `key` of `owner`'s dict `name`."""

    __slots__ = ("owner", "name")
    owner: Any
    name: str

    def _touch(self, key: Any = None) -> None:
        if JOURNAL.on:
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(key)

    def __setitem__(self, k: Any, v: Any) -> None:
        if dict.get(self, k, _ABSENT) is v:
            return  # the same object again: nothing the checks read changed
        dict.__setitem__(self, k, v)
        if JOURNAL.on:  # inlined _touch
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(k)

    def __delitem__(self, k: Any) -> None:
        dict.__delitem__(self, k)
        self._touch(k)

    def __ior__(self, other: Any) -> TrackedDict:  # type: ignore[override,misc]
        dict.update(self, other)
        self._touch()
        return self

    def pop(self, k: Any, *default: Any) -> Any:
        v = dict.pop(self, k, *default)
        if JOURNAL.on:  # inlined _touch
            _objs.append(self.owner)
            _names.append(self.name)
            _keys.append(k)
        return v

    def popitem(self) -> Any:
        v = dict.popitem(self)
        self._touch()
        return v

    def setdefault(self, k: Any, default: Any = None) -> Any:
        v = dict.setdefault(self, k, default)
        self._touch(k)
        return v

    def update(self, *args: Any, **kwargs: Any) -> None:
        dict.update(self, *args, **kwargs)
        self._touch()

    def clear(self) -> None:
        dict.clear(self)
        self._touch()


# Writes that cannot change what an op's checks read: its cached definition and source position
# (the location only words a diagnostic, which a failed check rebuilds from scratch).
_QUIET_OP = frozenset(("_opdef", "pos", "location"))


class TrackedOperation(Operation):
    """A verified op: attribute writes (operands, properties, parent ...) are reported."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _set(self, name, value)
        if JOURNAL.on and name not in _QUIET_OP:
            _objs.append(self)
            _names.append(name)
            _keys.append(NO_KEY)


class TrackedBlock(Block):
    """A verified block: replacing its op or argument list (or moving it) is reported."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _set(self, name, value)
        if JOURNAL.on and name != "_hint":
            _objs.append(self)
            _names.append(name)
            _keys.append(NO_KEY)


class TrackedRegion(Region):
    """A verified region: replacing its block list (or moving it) is reported."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _set(self, name, value)
        if JOURNAL.on:
            _objs.append(self)
            _names.append(name)
            _keys.append(NO_KEY)


class _ReportsType:
    """A verified value: a new type is reported (its definer and users read it)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        _set(self, name, value)
        if JOURNAL.on and name == "type":
            _objs.append(self)
            _names.append(name)
            _keys.append(NO_KEY)


class TrackedOpResult(_ReportsType, OpResult):
    """A verified op result: a new type is reported (its op and users read it)."""

    __slots__ = ()


class TrackedBlockArgument(_ReportsType, BlockArgument):
    """A verified block argument: a new type is reported (its block's owner and users read it)."""

    __slots__ = ()


def _list(owner: Any, name: str, items: list[Any]) -> TrackedList:
    if type(items) is TrackedList and items.owner is owner and items.name == name:
        return items
    return _new_list(owner, name, items)


def _dict(owner: Any, name: str, items: dict[Any, Any]) -> TrackedDict:
    if type(items) is TrackedDict and items.owner is owner and items.name == name:
        return items
    return _new_dict(owner, name, items)


def _new_list(owner: Any, name: str, items: list[Any]) -> TrackedList:
    out = TrackedList(items)
    out.owner = owner
    out.name = name
    return out


def _new_dict(owner: Any, name: str, items: dict[Any, Any]) -> TrackedDict:
    out = TrackedDict(items)
    out.owner = owner
    out.name = name
    return out


def track_op(op: Operation) -> None:
    """Make `op` itself tracked (not its regions' contents): class, lists, dicts, result values."""
    if type(op) is Operation:
        track_new_ops((op,))
        return
    if type(op) is not TrackedOperation:
        _set(op, "__class__", TrackedOperation)
    _set(op, "properties", _dict(op, "properties", op.properties))
    _set(op, "attributes", _dict(op, "attributes", op.attributes))
    _set(op, "operands", _list(op, "operands", op.operands))
    _set(op, "results", _list(op, "results", op.results))
    _set(op, "regions", _list(op, "regions", op.regions))
    _set(op, "successors", _list(op, "successors", op.successors))
    for r in op.results:
        if type(r) is not TrackedOpResult:
            _set(r, "__class__", TrackedOpResult)


def track_new_ops(ops: Iterable[Operation]) -> None:
    """`track_op` of each of `ops`, plain ops never tracked (the thousands a pass builds: one call
    for all of them)."""
    for op in ops:
        # Its containers are built here, not by a call each, with plain slot writes while it is
        # still an Operation (its writes report nothing); then the class. An empty one is built
        # without an argument (no argument tuple, nothing to copy): most new ops have no
        # attributes, regions or successors.
        d = op.properties = TrackedDict(op.properties)
        d.owner, d.name = op, "properties"
        d = op.attributes = TrackedDict(op.attributes) if op.attributes else TrackedDict()
        d.owner, d.name = op, "attributes"
        lst = op.operands = TrackedList(op.operands)
        lst.owner, lst.name = op, "operands"
        results = op.results = TrackedList(op.results)
        results.owner, results.name = op, "results"
        lst = op.regions = TrackedList(op.regions) if op.regions else TrackedList()
        lst.owner, lst.name = op, "regions"
        lst = op.successors = TrackedList(op.successors) if op.successors else TrackedList()
        lst.owner, lst.name = op, "successors"
        op.__class__ = TrackedOperation
        for r in results:
            if type(r) is OpResult:
                r.__class__ = TrackedOpResult
            elif type(r) is not TrackedOpResult:
                _set(r, "__class__", TrackedOpResult)


def untrack_op(op: Operation) -> None:
    """Make `op`, which no block holds any more, a plain op again: its later writes report nothing
    (the write that took it out of its block did), and should it be put back it is checked and
    tracked as a new op. For a pass dropping many ops (their operands and parent cleared)."""
    if type(op) is TrackedOperation:
        _set(op, "__class__", Operation)


def track_region(region: Region) -> None:
    """Make `region` tracked (its class and block list)."""
    if type(region) is not TrackedRegion:
        _set(region, "__class__", TrackedRegion)
    _set(region, "blocks", _list(region, "blocks", region.blocks))


def track_block(block: Block) -> None:
    """Make `block` tracked (its class, op and argument lists, argument values)."""
    if type(block) is not TrackedBlock:
        _set(block, "__class__", TrackedBlock)
    _set(block, "ops", _list(block, "ops", block.ops))
    _set(block, "args", _list(block, "args", block.args))
    for a in block.args:
        if type(a) is not TrackedBlockArgument:
            _set(a, "__class__", TrackedBlockArgument)


def is_tracked_op(op: Operation) -> bool:
    """True when `op` has been verified and tracked since (its writes are reported)."""
    return type(op) is TrackedOperation
