"""`#sdy.op_sharding_rule<...>`: the op sharding rule model (factors, their types and sizes, the
tensor-dimension-to-factor mapping), its text form and the check that it fits an op's shapes.

A rule (ref §3.2) maps every operand and result dimension to a list of factor indices (several for
a dimension that reshape splits), with one size per factor. A factor missing from a tensor means
the tensor does not take part in it. `RuleBuilder` mirrors Shardy's `OpShardingRuleBuilder`:
factors are added in order, and `build()` gives every dimension left without a factor its own
size-1 factor (operands first, then results), which is how Shardy numbers them. The sharding
passes build rules (ttopt/sharding/rules.py); the verifier parses and checks written ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Sequence

TensorMapping = tuple[tuple[int, ...], ...]  # per dimension: factor indices, major to minor


class FactorType(Enum):
    """Shardy's factor types (ref §3.2); the letters are the decision tables' abbreviations."""

    PASS_THROUGH = "P"
    REDUCTION = "R"
    NEED_REPLICATION = "N"
    PERMUTATION = "M"


def factor_name(index: int) -> str:
    """Shardy's factor symbols: i..z, then z_1, z_2, ..."""
    return chr(ord("i") + index) if index < 18 else f"z_{index - 17}"


@dataclass(frozen=True)
class OpShardingRule:
    """An einsum-like factor mapping with factor types and blocked-propagation flags."""

    factor_sizes: tuple[int, ...]
    operands: tuple[TensorMapping, ...]
    results: tuple[TensorMapping, ...]
    reduction: frozenset[int] = frozenset()
    need_replication: frozenset[int] = frozenset()
    permutation: frozenset[int] = frozenset()
    blocked_propagation: frozenset[int] = frozenset()
    is_custom: bool = False

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    @property
    def tensors(self) -> tuple[TensorMapping, ...]:
        """Operand mappings, then result mappings (the tensor index space of projections)."""
        return self.operands + self.results

    def factor_type(self, f: int) -> FactorType:
        if f in self.reduction:
            return FactorType.REDUCTION
        if f in self.need_replication:
            return FactorType.NEED_REPLICATION
        if f in self.permutation:
            return FactorType.PERMUTATION
        return FactorType.PASS_THROUGH

    def is_blocked(self, f: int) -> bool:
        return f in self.blocked_propagation

    def tensors_with_factor(self, f: int) -> list[int]:
        """Indices (operands then results) of the tensors that have factor `f` in some dimension."""
        return [t for t, m in enumerate(self.tensors) if any(f in d for d in m)]

    # -- text --------------------------------------------------------------------------------
    def print_body(self) -> str:
        """`([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}` exactly as Shardy prints it."""

        def tensor(m: TensorMapping) -> str:
            return "[" + ", ".join("".join(factor_name(f) for f in d) for d in m) + "]"

        s = "(" + ", ".join(tensor(m) for m in self.operands) + ")->(" + ", ".join(tensor(m) for m in self.results) + ")"
        if self.factor_sizes:
            s += " {" + ", ".join(f"{factor_name(i)}={n}" for i, n in enumerate(self.factor_sizes)) + "}"
        for key, fs in (
            ("reduction", self.reduction),
            ("need_replication", self.need_replication),
            ("permutation", self.permutation),
            ("blocked_propagation", self.blocked_propagation),
        ):
            if fs:
                s += f" {key}={{" + ", ".join(factor_name(f) for f in sorted(fs)) + "}"
        if self.is_custom:
            s += ", custom"
        return s

    @property
    def text(self) -> str:
        return f"#sdy.op_sharding_rule<{self.print_body()}>"

    def __str__(self) -> str:
        return self.text


@dataclass
class RuleBuilder:
    """Builds an OpShardingRule factor by factor (Shardy's `OpShardingRuleBuilder`)."""

    operand_shapes: Sequence[Sequence[int]]
    result_shapes: Sequence[Sequence[int]]
    sizes: list[int] = field(default_factory=list)
    maps: list[list[list[int]]] = field(default_factory=list)
    types: dict[int, FactorType] = field(default_factory=dict)
    blocked: set[int] = field(default_factory=set)
    is_custom: bool = False

    def __post_init__(self) -> None:
        self.maps = [[[] for _ in s] for s in (*self.operand_shapes, *self.result_shapes)]

    @property
    def num_operands(self) -> int:
        return len(self.operand_shapes)

    def add_factor(
        self,
        operand_dims: Sequence[int],
        result_dims: Sequence[int],
        size: int,
        kind: FactorType = FactorType.PASS_THROUGH,
        blocked: bool = False,
    ) -> int:
        """Add one factor; `operand_dims[i]` / `result_dims[j]` is the dim it maps to, or -1."""
        f = len(self.sizes)
        self.sizes.append(size)
        for t, d in enumerate((*operand_dims, *result_dims)):
            if d >= 0:
                self.maps[t][d].append(f)
        if kind is not FactorType.PASS_THROUGH:
            self.types[f] = kind
        if blocked:
            self.blocked.add(f)
        return f

    def add_factor_all(self, dim: int, size: int, kind: FactorType = FactorType.PASS_THROUGH, blocked: bool = False) -> int:
        """A factor at the same `dim` of every non-scalar tensor (the pointwise pattern)."""
        dims = [dim if len(s) else -1 for s in (*self.operand_shapes, *self.result_shapes)]
        return self.add_factor(dims[: self.num_operands], dims[self.num_operands :], size, kind, blocked)

    def add_pointwise(self, shape: Sequence[int], kind_of=None) -> None:
        """One factor per dim of `shape`, shared by every non-scalar tensor. `kind_of(dim)` may
        return (type, blocked) for dims that are not plain pass-through."""
        for d, n in enumerate(shape):
            kind, blocked = kind_of(d) if kind_of else (FactorType.PASS_THROUGH, False)
            self.add_factor_all(d, n, kind, blocked)

    def build(self) -> OpShardingRule:
        """Freeze, giving unmapped dimensions their own size-1 factors first."""
        for m in self.maps:
            for dim in m:
                if not dim:
                    dim.append(len(self.sizes))
                    self.sizes.append(1)
        n = self.num_operands
        frozen = tuple(tuple(tuple(d) for d in m) for m in self.maps)

        def of(kind: FactorType) -> frozenset[int]:
            return frozenset(f for f, k in self.types.items() if k is kind)

        return OpShardingRule(
            factor_sizes=tuple(self.sizes),
            operands=frozen[:n],
            results=frozen[n:],
            reduction=of(FactorType.REDUCTION),
            need_replication=of(FactorType.NEED_REPLICATION),
            permutation=of(FactorType.PERMUTATION),
            blocked_propagation=frozenset(self.blocked),
            is_custom=self.is_custom,
        )


_FACTOR = r"(?:z_\d+|[i-z])"


def parse_rule(body: str) -> OpShardingRule:
    """Parse an `#sdy.op_sharding_rule<...>` body (JAX writes custom rules on custom_calls)."""

    m = re.fullmatch(r"\s*\((.*?)\)\s*->\s*\((.*?)\)\s*(\{[^}]*\})?(.*)", body, re.S)
    if m is None:
        raise ValueError(f"malformed op sharding rule '{body}'")
    names: dict[str, int] = {}
    sizes: dict[str, int] = {}
    if m.group(3):
        for item in m.group(3)[1:-1].split(","):
            if item.strip():
                k, v = item.split("=")
                sizes[k.strip()] = int(v)

    def index(name: str) -> int:
        if name not in names:
            names[name] = len(names)
        return names[name]

    def tensors(text: str) -> tuple[TensorMapping, ...]:
        out = []
        for t in re.findall(r"\[([^\]]*)\]", text):
            dims = [d.strip() for d in t.split(",")] if t.strip() else []
            out.append(tuple(tuple(index(f) for f in re.findall(_FACTOR, d)) for d in dims))
        return tuple(out)

    ops, res = tensors(m.group(1)), tensors(m.group(2))
    # Factor indices follow the printed names (i=0, j=1, ...), not first appearance.
    def canon(name: str) -> int:
        return ord(name) - ord("i") if len(name) == 1 else 17 + int(name[2:])

    remap = {i: canon(n) for n, i in names.items()}
    for n in sizes:
        remap.setdefault(index(n), canon(n))
    ops = tuple(tuple(tuple(remap[f] for f in d) for d in t) for t in ops)
    res = tuple(tuple(tuple(remap[f] for f in d) for d in t) for t in res)
    count = max(remap.values(), default=-1) + 1
    by_index = {remap[i]: n for n, i in names.items()}
    factor_sizes = tuple(sizes.get(by_index.get(f, ""), 1) for f in range(count))
    rest = m.group(4)
    sets = {}
    for key in ("reduction", "need_replication", "permutation", "blocked_propagation"):
        km = re.search(key + r"=\{([^}]*)\}", rest)
        sets[key] = frozenset(canon(x) for x in re.findall(_FACTOR, km.group(1))) if km else frozenset()
    return OpShardingRule(factor_sizes, ops, res, is_custom=bool(re.search(r",\s*custom\s*$", rest)), **sets)


def check_rule(rule: OpShardingRule, operand_shapes: Sequence[Sequence[int | None]],
               result_shapes: Sequence[Sequence[int | None]], sizes: bool = True) -> None:
    """A rule fits its op: one mapping per operand and result, one entry per dimension, and (with
    `sizes`) the factor sizes of a static dimension multiply to its size. ValueError otherwise.
    A dimension with a blocked factor is exempt: Shardy's own rules (`mhlo.topk`: `([i])->([i], [i])
    {i=16}` with results of size k) map a blocked need-replication factor of the operand's size onto
    the smaller result, and propagation never moves a sharding through such a factor.

    The IR verifier checks structure only: a rule keeps its global factor sizes when
    update-global-to-local-shapes gives the op local types."""
    for what, maps, shapes in (("operand", rule.operands, operand_shapes), ("result", rule.results, result_shapes)):
        if len(maps) != len(shapes):
            raise ValueError(f"rule maps {len(maps)} {what}(s), but the op has {len(shapes)}")
        for t, (m, shape) in enumerate(zip(maps, shapes)):
            if len(m) != len(shape):
                raise ValueError(f"rule maps {len(m)} dimension(s) of {what} #{t}, which has rank {len(shape)}")
            for d, (factors, size) in enumerate(zip(m, shape)):
                n = 1
                for f in factors:
                    if not 0 <= f < len(rule.factor_sizes):
                        raise ValueError(f"{what} #{t} dimension {d} names an undefined factor")
                    n *= rule.factor_sizes[f]
                if sizes and size is not None and n != size and not rule.blocked_propagation & set(factors):
                    raise ValueError(f"factors of {what} #{t} dimension {d} multiply to {n}, but the dimension has size {size}")
