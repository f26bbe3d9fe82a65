"""Every ttnn/ttcore/sdy attribute in testdata/ parses to a typed model that prints its source back.

Documented normalisations (tt-mlir / Shardy canonical printing; the text of an untouched attribute is
kept by the IR anyway, only re-printed models are canonical):
  * `core_ranges = #ttnn.core_range_set<[...]>` prints in the short form `core_ranges = <[...]>`;
  * `(0,0)` in core ranges prints as `(0, 0)`;
  * buffer types print inline (`#ttnn.buffer_type<dram>`) unless `print_body(alias_buffer=True)`.
Also: every `#ttnn.ttnn_layout` is exactly what `TTNNLayoutAttr.build` derives for its tensor, and
every sdy sharding verifies against its module's mesh and its value's rank.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttopt.dialects.errors import AttrError
from ttopt.dialects.sdy_attrs import MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from ttopt.dialects.ttnn_layout import TTNNLayoutAttr
from ttopt.ir.attributes import DIALECT_ATTR_FACTORIES, AliasRef, ArrayAttr, DialectAttr, DictAttr, TypeAttr
from ttopt.ir.types import FunctionType, TensorType
from ttopt.parse.parser import parse_module
from ttopt.testing.examples import examples

ROOT = Path(__file__).resolve().parents[2] / "testdata"
FILES = sorted(
    [*ROOT.glob("ttnn/*.mlir"), *ROOT.glob("jax/*.mlir"), *ROOT.glob("jax/oracle/*.mlir"), *ROOT.glob("seeds/*.mlir")]
)
# Attributes of our dialects that are deliberately left untyped.
UNTYPED = {"sdy.op_sharding_rule"}
_MODULES: dict[Path, Any] = {}


def module(path: Path) -> Any:
    m = _MODULES.get(path)
    if m is None:
        m = _MODULES[path] = parse_module(path.read_text(), str(path))
    return m


def _attrs(a: Any) -> Iterator[DialectAttr]:
    if isinstance(a, AliasRef):
        a = a.resolve()
    if isinstance(a, DialectAttr):
        yield a
    elif isinstance(a, ArrayAttr):
        for x in a.items:
            yield from _attrs(x)
    elif isinstance(a, DictAttr):
        for x in a.entries.values():
            yield from _attrs(x)
    elif isinstance(a, TypeAttr):
        yield from _type_attrs(a.type)


def _type_attrs(t: Any) -> Iterator[DialectAttr]:
    if isinstance(t, TensorType) and t.encoding is not None:
        yield from _attrs(t.encoding)
    elif isinstance(t, FunctionType):
        for x in (*t.inputs, *t.results):
            yield from _type_attrs(x)


def _values(m: Any) -> Iterator[Any]:
    for op in m.walk():
        yield from op.results
        yield from op.operands
        for r in op.regions:
            for b in r.blocks:
                yield from b.args


def dialect_attrs(m: Any) -> list[DialectAttr]:
    out: list[DialectAttr] = []
    for d in m.aliases:
        if d.kind == "attr":
            out.extend(_attrs(d.value))
    for op in m.walk():
        for a in (*op.properties.values(), *op.attributes.values()):
            out.extend(_attrs(a))
    for v in _values(m):
        out.extend(_type_attrs(v.type))
    return out


def normalise(body: str) -> str:
    body = re.sub(r"core_ranges = #ttnn\.core_range_set<(.*?)>(, |$)", r"core_ranges = <\1>\2", body)
    return re.sub(r"\((\d+),(\d+)\)", r"(\1, \2)", body)


def _printed(model: Any, body: str) -> str:
    if isinstance(model, TTNNLayoutAttr):
        return model.print_body(alias_buffer=not re.search(r"#ttnn\.buffer_type<", body))
    return model.print_body()


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_dialect_attribute_is_typed_and_prints_back(path: Path) -> None:
    seen: Counter[str] = Counter()
    for a in dialect_attrs(module(path)):
        if a.name not in DIALECT_ATTR_FACTORIES or a.name in UNTYPED:
            assert not a.name.startswith(("ttnn.", "ttcore.", "sdy.")) or a.name in UNTYPED, a.name
            continue
        model = a.typed
        assert model is not None, a.text
        assert _printed(model, a.body) == normalise(a.body), a.text
        seen[a.name] += 1
    if path.parent.name == "ttnn":
        assert seen["ttnn.ttnn_layout"] and seen["ttcore.system_desc"]


def test_corpus_covers_the_interesting_attributes() -> None:
    seen: Counter[str] = Counter()
    for path in FILES:
        for a in dialect_attrs(module(path)):
            seen[a.name] += 1
    assert sum(1 for p in FILES if p.parent.name != "ttnn" for _ in _shardings(module(p))) > 1000
    for name in ("ttnn.ttnn_layout", "ttnn.buffer_type", "ttcore.system_desc", "ttcore.device", "ttcore.argument_type",
                 "ttcore.shard_status", "ttnn.conv2d_config", "sdy.sharding", "sdy.sharding_per_value", "sdy.mesh", "sdy"):  # fmt: skip
        assert seen[name], name


@pytest.mark.parametrize("path", sorted(ROOT.glob("ttnn/*.mlir")), ids=lambda p: p.name)
def test_layouts_are_what_build_derives(path: Path) -> None:
    checked = 0
    for v in _values(module(path)):
        t = v.type
        if not isinstance(t, TensorType) or t.encoding is None:
            continue
        lay = t.encoding.typed
        if not isinstance(lay, TTNNLayoutAttr):
            continue
        built = TTNNLayoutAttr.build(
            t.shape, lay.dtype if lay.is_tiled else lay.element, tiled=lay.is_tiled, buffer_type=lay.buffer_type,
            memory_layout=lay.memory_layout, grid=lay.grid if lay.is_sharded else None,
            ignore_physical_layout=lay.ignore_physical_layout,
        )  # fmt: skip
        assert built == lay, (t.text, built.print_body(True), lay.print_body(True))
        checked += 1
    assert checked


def _shardings(m: Any) -> Iterator[tuple[TensorShardingAttr, int]]:
    """(sharding, rank of the value it annotates) for every sdy sharding in the module."""

    def per_value(attr: Any, types: list) -> Iterator[tuple[TensorShardingAttr, int]]:
        model = attr.resolve().typed
        assert isinstance(model, TensorShardingPerValueAttr)
        assert len(model) == len(types)
        for s, ty in zip(model.shardings, types):
            yield s, ty.rank

    for op in m.walk():
        if op.name == "func.func":
            ft = op.properties["function_type"].type
            for key, types in (("arg_attrs", ft.inputs), ("res_attrs", ft.results)):
                dicts = op.properties.get(key)
                for d, ty in zip(dicts.items if dicts is not None else (), types):
                    s = d.entries.get("sdy.sharding")
                    if s is not None:
                        yield s.resolve().typed, ty.rank
            continue
        for key in ("sharding", "out_sharding"):
            if key in op.properties:
                yield op.properties[key].resolve().typed, op.results[0].type.rank
        if "sdy.sharding" in op.attributes:
            yield from per_value(op.attributes["sdy.sharding"], [r.type for r in op.results])
        if "in_shardings" in op.properties:
            yield from per_value(op.properties["in_shardings"], [v.type for v in op.operands])
            yield from per_value(op.properties["out_shardings"], [r.type for r in op.results])


@pytest.mark.parametrize(
    "path", [p for p in FILES if p.parent.name != "ttnn"], ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_shardings_verify_against_their_mesh(path: Path) -> None:
    m = module(path)
    meshes: dict[str, MeshAttr] = {}
    for op in m.walk():
        if op.name == "sdy.mesh":
            meshes[op.properties["sym_name"].value] = op.properties["mesh"].typed
    for s, rank in _shardings(m):
        assert isinstance(s, TensorShardingAttr)
        s.verify(meshes, rank)


# ---------------------------------------------------------------------------------------------
# Robustness: mutated bodies of real attributes either parse or raise AttrError, never anything else.


def _seed_bodies() -> list[tuple[str, str, Any]]:
    seeds: dict[str, tuple[str, str, Any]] = {}
    for path in FILES[:: max(1, len(FILES) // 40)] + sorted(ROOT.glob("ttnn/*.mlir")):
        for a in dialect_attrs(module(path)):
            if a.name in DIALECT_ATTR_FACTORIES and a.name not in UNTYPED:
                key = a.name if a.name not in ("sdy", "ttnn") else a.body.split("{")[0].split("[")[0].split(" ")[0]
                if len(a.body) > len(seeds.get(key, ("", ""))[1]):
                    seeds[key] = (a.name, a.body, a.scope)
    return sorted(seeds.values(), key=lambda s: s[0] + s[1])


SEEDS = _seed_bodies()
_CHARS = list('<>()[]{},="?:#@x0123 -p')


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_bodies_raise_only_attr_error(data) -> None:
    name, body, scope = data.draw(st.sampled_from(SEEDS))
    chars = list(body)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(chars)))
        if data.draw(st.booleans()) and chars:
            del chars[min(i, len(chars) - 1)]
        else:
            chars.insert(i, data.draw(st.sampled_from(_CHARS)))
    try:
        DialectAttr(name, "".join(chars), scope=scope).typed
    except AttrError:
        pass
