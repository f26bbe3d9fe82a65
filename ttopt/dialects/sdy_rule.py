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
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ttopt.parse.attr_body import AttrError

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

    def __hash__(self) -> int:
        # Rules key the propagation caches: hashing walks every mapping, so it is done once (the
        # same value the dataclass would compute, kept outside the fields).
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.factor_sizes, self.operands, self.results, self.reduction, self.need_replication,
                      self.permutation, self.blocked_propagation, self.is_custom))  # fmt: skip
            object.__setattr__(self, "_hash", h)
        return h

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    @property
    def tensors(self) -> tuple[TensorMapping, ...]:
        """Operand mappings, then result mappings (the tensor index space of projections)."""
        # Read per propagation step: joined once, kept outside the fields as the hash is.
        t = self.__dict__.get("_tensors")
        if t is None:
            t = self.operands + self.results
            object.__setattr__(self, "_tensors", t)
        return t

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


_RULE_TOKEN = re.compile(r"[ \t\r\n]*(?:(->)|(-?(?:0x[0-9a-fA-F]+|[0-9]+))|([A-Za-z_][\w$.]*)|(\S))")
_SPECIAL = ("reduction", "need_replication", "permutation", "blocked_propagation")


def factor_index_of(symbol: str) -> tuple[int, str] | str:
    """(index, the rest) of the first factor symbol in `symbol` (`i`..`z`, `z_1`, ...), or Shardy's
    message when it starts with no factor symbol."""
    if not symbol.startswith("z_"):
        c = symbol[0]
        if not "i" <= c <= "z":
            return f"expecting symbol from 'i' to 'z'. Received: '{c}'"
        return ord(c) - ord("i"), symbol[1:]
    n = 2
    while n < len(symbol) and symbol[n].isdigit():
        n += 1
    if n == 2:
        return f"expecting integer after 'z_'. Received: '{symbol}'"
    digits = symbol[2:n]
    if digits[0] == "0":
        return f"expecting positive integer without leading zeros. Received: '{digits}'"
    return int(digits) + 17, symbol[n:]


class _RuleReader:
    """Shardy's OpShardingRuleAttr parser over the tokens of a rule body (errors: AttrError with the
    offset MLIR reports, the token after what was read)."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.toks = [(m.lastindex or 0, m.group(m.lastindex or 0), m.start(m.lastindex or 0)) for m in _RULE_TOKEN.finditer(body)]
        self.toks.append((0, "", len(body)))
        self.i = 0

    def peek(self, text: str) -> bool:
        return self.toks[self.i][1] == text and self.toks[self.i][0] != 0

    def accept(self, text: str) -> bool:
        if self.peek(text):
            self.i += 1
            return True
        return False

    def fail(self, message: str) -> AttrError:
        return AttrError(message, self.toks[self.i][2])

    def wrong_token(self, message: str) -> AttrError:
        """MLIR's emitWrongTokenError: reported just past the previous token when blanks come between."""
        return AttrError(message, len(self.body[: self.toks[self.i][2]].rstrip(" \t\r\n")))

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise self.wrong_token(f"expected '{text}'")

    def keyword(self) -> str | None:
        kind, text, _ = self.toks[self.i]
        if kind != 3:
            return None
        self.i += 1
        return text

    def symbol(self, word: str) -> tuple[int, str]:
        got = factor_index_of(word)
        if isinstance(got, str):
            raise self.fail(got)
        return got

    def mappings(self) -> tuple[TensorMapping, ...]:
        self.expect("(")
        out = []
        while True:
            self.expect("[")
            dims: list[tuple[int, ...]] = []
            if not self.accept("]"):
                while True:
                    word = self.keyword()
                    factors: list[int] = []
                    while word:
                        f, word = self.symbol(word)
                        factors.append(f)
                    dims.append(tuple(factors))
                    if self.accept("]"):
                        break
                    if not self.accept(","):
                        raise self.wrong_token("expected ']'")
            out.append(tuple(dims))
            if self.accept(")"):
                return tuple(out)
            if not self.accept(","):
                raise self.wrong_token("expected ')'")

    def braced(self, element: Any) -> None:
        """MLIR's comma-separated list in optional braces: absent braces are an empty list."""
        if not self.accept("{"):
            return
        if self.accept("}"):
            return
        while True:
            element()
            if self.accept("}"):
                return
            if not self.accept(","):
                raise self.wrong_token("expected '}'")

    def rule(self) -> tuple[OpShardingRule, dict[str, tuple[int, ...]]]:
        operands = self.mappings()
        self.expect("->")
        results = self.mappings()
        sizes: list[int] = []

        def size() -> None:
            word = self.keyword()
            if word is None:
                raise self.fail("expected valid keyword")
            f, rest = self.symbol(word)
            if f != len(sizes):
                raise self.fail(
                    "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. {i=#, j=#, ...}). "
                    f"Expecting factor index symbol '{factor_name(len(sizes))}', received: '{factor_name(f)}'"
                )
            if rest:
                raise self.fail(f"expecting single factor symbol: {rest}")
            self.expect("=")
            kind, text, _ = self.toks[self.i]
            if kind != 2:
                raise self.fail("expected integer value")
            v = int(text.lstrip("-"), 16 if "0x" in text else 10)
            if v >= 1 << 63 and not (text.startswith("-") and v == 1 << 63):
                raise self.fail("integer value too large")
            self.i += 1
            sizes.append(-v if text.startswith("-") else v)

        self.braced(size)
        special: dict[str, tuple[int, ...]] = {}
        for key in _SPECIAL:
            if not self.accept(key):
                continue
            self.expect("=")
            found: list[int] = []

            def factor() -> None:
                word = self.keyword()
                if word is None:
                    raise self.fail("expected valid keyword")
                found.append(self.symbol(word)[0])

            self.braced(factor)
            special[key] = tuple(found)
        custom = False
        if self.accept(","):
            if not self.accept("custom"):
                raise self.fail("expected 'custom'")
            custom = True
        if self.toks[self.i][0] != 0:
            raise self.wrong_token("expected '>'")
        rule = OpShardingRule(
            tuple(sizes), operands, results,
            reduction=frozenset(special.get("reduction", ())),
            need_replication=frozenset(special.get("need_replication", ())),
            permutation=frozenset(special.get("permutation", ())),
            blocked_propagation=frozenset(special.get("blocked_propagation", ())),
            is_custom=custom,
        )  # fmt: skip
        return rule, special


@lru_cache(maxsize=1024)
def parse_rule(body: str) -> OpShardingRule:
    """Parse an `#sdy.op_sharding_rule<...>` body as Shardy does: factor symbols `i`..`z`, `z_1`...;
    factor sizes written in factor order (`{i=8, j=4}`); an AttrError at the offset Shardy reports."""
    return _RuleReader(body).rule()[0]



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


def special_factor_lists(body: str) -> dict[str, tuple[int, ...]]:
    """The reduction / need_replication / permutation / blocked_propagation factors as written (the
    rule model keeps them as sets; Shardy's verifier checks the written order)."""
    return _RuleReader(body).rule()[1]


def rule_problem(rule: OpShardingRule, special: Mapping[str, Sequence[int]], operand_types: Sequence[Any],
                 result_types: Sequence[Any]) -> str | None:  # fmt: skip
    """Why `rule` does not fit an op with these operand and result types, in Shardy's words
    (verifyOpShardingRuleAttr); None when it does."""
    n = rule.num_factors
    used: dict[str, set[int]] = {}
    for kind, types, mappings in (("operand", operand_types, rule.operands), ("result", result_types, rule.results)):
        if len(types) != len(mappings):
            return f"number of {kind}s and mappings must match: {len(types)} != {len(mappings)}"
        if not mappings:
            return (
                f"number of {kind}s mappings cannot be 0. Op sharding rules can only be defined on operations "
                "with at least one operand and result."
            )
        seen_here = used.setdefault(kind, set())
        for index, (t, mapping) in enumerate(zip(types, mappings)):
            prefix = f"{kind} - " if len(types) == 1 else f"{kind} {index} - "
            shape = getattr(t.resolve(), "shape", None)
            if shape is None or any(d is None for d in shape):
                return f"{prefix}expected a ranked tensor with a static shape. type: '{t.text}'"
            if len(mapping) != len(shape):
                return f"{prefix}mapping rank must match: {len(mapping)} != {len(shape)}"
            value_seen: set[int] = set()
            for factors in mapping:
                if not factors:
                    return f"{prefix}dim mapping must have at least one factor"
                for f in factors:
                    if not 0 <= f < n:
                        return f"{prefix}expecting factor indices to be within 0<=...<num_factors; received: {f}, num_factors: {n}"
                    if f in value_seen:
                        return f"{prefix}cannot reuse factors for the same tensor value"
                    if rule.factor_sizes[f] == 1 and len(factors) > 1:
                        return f"{prefix}dim mapping can't have a factor of size 1 if there are multiple factors"
                    value_seen.add(f)
                    seen_here.add(f)
    unused = [f for f in range(n) if f not in used["operand"] | used["result"]]
    if unused:
        f = unused[0]
        return f"has factor {factor_name(f)}={rule.factor_sizes[f]} that isn't used in operand and result mappings"

    def bad_indices(indices: Sequence[int]) -> str | None:
        if list(indices) != sorted(indices):
            return "indices of special factors must be sorted"
        if len(set(indices)) != len(indices):
            return "indices of special factors must be unique"
        if indices and indices[0] < 0:
            return "index must be non-negative"
        if indices and indices[-1] >= n:
            return f"index must be less than {n}, got: {indices[-1]}"
        return None

    for key in ("reduction", "need_replication", "permutation"):
        problem = bad_indices(special.get(key, ()))
        if problem:
            return problem
    typed = [f for key in ("reduction", "need_replication", "permutation") for f in special.get(key, ())]
    if len(set(typed)) != len(typed):
        return "a factor can only be in one of the reduction, need replication, or permutation factor sets"
    problem = bad_indices(special.get("blocked_propagation", ()))
    if problem:
        return problem
    if any(f in used["result"] for f in special.get("reduction", ())):
        return "reduction factor cannot be in result mappings"
    return None
