"""Shardy attributes: parse/print exactly as Shardy (ref stablehlo §1.2-1.3), validation against a mesh."""

from __future__ import annotations

import re
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.dialects.errors import AttrError
from ttopt.dialects.sdy_attrs import (
    AllToAllParamListAttr,
    AxisRef,
    AxisRefListAttr,
    DimensionSharding,
    ListOfAxisRefListsAttr,
    ManualAxesAttr,
    MeshAttr,
    MeshAxis,
    PropagationDirectionAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    parse_sdy_short,
)
from ttopt.ir.attributes import DialectAttr
from ttopt.parse.attr_parser import AttrParser
from ttopt.testing.examples import examples

MESH = MeshAttr.of({"x": 2, "y": 4})
MESH3 = MeshAttr.of([("x", 2), ("y", 4), ("z", 8)])


# ---------------------------------------------------------------------------------------------
# Shardings.


@pytest.mark.parametrize(
    "body",
    [
        '@mesh, [{"x"}, {}]',
        "@mesh, []",
        '@mesh, [{"batch", ?}, {"model", ?}]',
        "@mesh, [{?}, {?}]",
        '@mesh, [{"x", "y"}, {}]',
        '@mesh, [{"x"}p1, {?}p0, {"y", ?}p12]',
        '@mesh, [{"x":(2)4}, {"x":(1)2}]',
        'mesh<["x"=2]>, [{"x"}]',
        'mesh<[]>, [{}]',
        '@mesh, [{}, {}], replicated={"y"}',
        '@mesh, [{"x"}], replicated={"y"}, unreduced={"z"}',
        '@mesh, [{"x"}], unreduced={"y"}',
        '@mesh, [{"x"}], unreduced=sum{"y"}',
        '@"my mesh", [{}]',
        "@mesh_1.a, [{}]",
    ],
)
def test_sharding_round_trip(body: str) -> None:
    s = TensorShardingAttr.parse(body)
    assert s.print_body() == body
    assert DialectAttr.of(s).text == f"#sdy.sharding<{body}>"
    assert TensorShardingAttr.parse(s.print_body()) == s


@pytest.mark.parametrize(
    "body, printed",
    [
        ('@mesh, [{"x",?}]', '@mesh, [{"x", ?}]'),
        ('@mesh,[{"x"} , { }]', '@mesh, [{"x"}, {}]'),
        ('@mesh, [{"x" ?}]', '@mesh, [{"x", ?}]'),
        ('  @mesh , [ { "x" : ( 2 ) 4 } ] ', '@mesh, [{"x":(2)4}]'),
        ('@mesh, [{"x"}], replicated = {"y"}', '@mesh, [{"x"}], replicated={"y"}'),
    ],
)
def test_sharding_input_normalisation(body: str, printed: str) -> None:
    assert TensorShardingAttr.parse(body).print_body() == printed


@pytest.mark.parametrize(
    "body, message",
    [
        ("@mesh, [{}p0]", "closed empty dimension sharding"),
        ('@mesh, [{"x"}p01]', "leading zeros"),
        ("@mesh, [{, ?}]", "quoted axis name"),
        ('@mesh, [{"x"}', "',' or ']'"),
        ('mesh, [{"x"}]', "'<' of an inlined mesh"),
        ('[{"x"}]', "'@mesh'"),
        ('@mesh [{"x"}]', "',' after the mesh"),
        ('@mesh, [{x}]', "quoted axis name"),
        ('@mesh, [{"x"}], replicated={"y"}, replicated={"z"}', "repeated"),
        ('@mesh, [{"x"}], unreduced={"y"}, replicated={"z"}', "out of order"),
        ('@mesh, [{"x"}], frobnicate={"y"}', "'replicated=' or 'unreduced='"),
        ('@mesh, [{"x":(0)2}]', "pre-size must be >= 1"),
        ('@mesh, [{"x":(1)1}]', "size must be > 1"),
        ('@mesh, [{"x":2}]', "'(' of a sub-axis"),
        ('@mesh, [{"x"}] extra', "end of attribute"),
        ('@mesh, [{"x}]', "quoted axis name"),
        ("@, [{}]", "mesh name"),
        ('@mesh, [{"x"}], unreduced=prod{"y"}', "'{' opening an axis list"),
    ],
)
def test_sharding_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=re.escape(message)):
        TensorShardingAttr.parse(body)


def test_sharding_error_has_offset() -> None:
    body = '@mesh, [{"x"}p01]'
    with pytest.raises(AttrError) as e:
        TensorShardingAttr.parse(body)
    assert body[e.value.offset :] == "01]"


def test_sharding_builders_and_queries() -> None:
    s = TensorShardingAttr.of("mesh", [["x"], [], ["y", ("x", 1, 2)]])
    assert s.print_body() == '@mesh, [{"x"}, {}, {"y", "x":(1)2}]'
    assert s.rank == 3 and s.mesh_name == "mesh" and not s.is_fully_replicated and s.is_fully_closed
    assert TensorShardingAttr.fully_replicated("mesh", 2).print_body() == "@mesh, [{}, {}]"
    opened = TensorShardingAttr.fully_replicated("mesh", 2, closed=False)
    assert opened.print_body() == "@mesh, [{?}, {?}]" and opened.is_fully_replicated
    assert opened.closed().print_body() == "@mesh, [{}, {}]"
    assert TensorShardingAttr.parse('@mesh, [{"x", ?}p1, {?}p2]').closed().print_body() == '@mesh, [{"x"}p1, {}]'
    assert s.op_text() == '<@mesh, [{"x"}, {}, {"y", "x":(1)2}]>'
    assert DimensionSharding.of(["x"], closed=False, priority=3).print_body() == '{"x", ?}p3'
    assert AxisRef.of(("x", 2, 4)).print_body() == '"x":(2)4'


def test_shards_and_local_shape() -> None:
    s = TensorShardingAttr.parse('@mesh, [{"x", "y"}, {}, {"y":(1)2}]')
    with pytest.raises(AttrError, match="more than once"):
        s.verify(MESH)
    s = TensorShardingAttr.parse('@mesh, [{"x", "y":(2)2}, {}, {"y":(1)2}]')
    s.verify(MESH, rank=3)
    assert s.shards_per_dim(MESH) == (4, 1, 2)
    assert s.local_shape((16, 3, 8), {"mesh": MESH}) == (4, 3, 4)
    with pytest.raises(AttrError, match="not divisible into 4 shards"):
        s.local_shape((6, 3, 8), MESH)
    with pytest.raises(AttrError, match="rank 2"):
        s.local_shape((6, 3), MESH)


@pytest.mark.parametrize(
    "body, rank, message",
    [
        ('@mesh, [{"z"}, {}]', None, 'unknown axis "z" in dimension 0 \\(mesh axes: "x", "y"\\)'),
        ('@mesh, [{"x"}, {"x"}]', None, 'axis "x" is used more than once \\(dimension 0 and dimension 1\\)'),
        ('@mesh, [{"x", "x"}]', None, 'axis "x" is used more than once \\(dimension 0\\)'),
        ('@mesh, [{"x"}, {}], replicated={"x"}', None, "dimension 0 and replicated"),
        ('@mesh, [{}, {}], replicated={"x"}, unreduced={"x"}', None, "replicated and unreduced"),
        ('@mesh, [{"y"}, {"y":(2)2}]', None, "more than once"),
        ('@mesh, [{"y":(1)4}]', None, "proper part"),
        ('@mesh, [{"y":(1)3}]', None, "proper part"),
        ('@mesh, [{"y":(4)2}]', None, "proper part"),
        ('@mesh, [{"x"}, {}]', 3, "2 dimension shardings but the tensor has rank 3"),
        ('@mesh, [{}, {}], replicated={"y", "x"}', None, "replicated axes must be in mesh order"),
        ('@other, [{}]', None, "unknown mesh @other"),
        ('mesh<["a"=2]>, [{"x"}]', None, 'unknown axis "x"'),
    ],
)
def test_verify_errors(body: str, rank: int | None, message: str) -> None:
    with pytest.raises(AttrError, match=message):
        TensorShardingAttr.parse(body).verify({"mesh": MESH}, rank)


@pytest.mark.parametrize(
    "body",
    ['@mesh, [{"y":(1)2}, {"y":(2)2}]', '@mesh, [{}, {}], replicated={"x", "y"}', '@mesh, [{"x", ?}, {?}]', 'mesh<["a"=2]>, [{"a"}]'],
)
def test_verify_ok(body: str) -> None:
    TensorShardingAttr.parse(body).verify({"mesh": MESH}, 2 if "mesh<" not in body else 1)


# ---------------------------------------------------------------------------------------------
# Meshes.


@pytest.mark.parametrize(
    "body",
    [
        '["x"=2, "y"=4]',
        "[]",
        "[], device_ids=[3]",
        '["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]',
        '["model"=1, "batch"=2]',
        '["_axis_0"=2, "_axis_1"=4]',
    ],
)
def test_mesh_round_trip(attr, body: str) -> None:
    m = attr(f"#sdy.mesh<{body}>").typed
    assert isinstance(m, MeshAttr) and m.print_body() == body
    assert MeshAttr.parse(m.print_body()) == m


def test_mesh_queries() -> None:
    m = MeshAttr.parse('["x"=2, "y"=4], device_ids=[0, 2, 4, 6, 1, 3, 5, 7]')
    assert m.axis_names == ("x", "y") and m.shape == (2, 4) and m.total_size == 8
    assert m.axis_size("y") == 4 and m.axis_index("y") == 1 and m.device_id_list[1] == 2
    assert MESH.device_id_list == tuple(range(8)) and not MESH.is_maximal
    maximal = MeshAttr.parse("[], device_ids=[3]")
    assert maximal.is_maximal and maximal.total_size == 1
    with pytest.raises(AttrError, match='unknown mesh axis "q"'):
        m.axis_size("q")


@pytest.mark.parametrize(
    "body, message",
    [
        ('["x"=2, "x"=4]', 'duplicate mesh axis "x"'),
        ('["x"=0]', "positive size"),
        ('["x"=2], device_ids=[0]', "2 devices but 1 device ids"),
        ('["x"=2], device_ids=[0, 0]', "permutation"),
        ("[], device_ids=[0, 1]", "exactly one device id"),
        ('["x"2]', "'='"),
        ('["x"=2], ids=[0]', "'device_ids'"),
        ('["x"=2, ]', "quoted axis name"),
        ('[""=2]', "must not be empty"),
    ],
)
def test_mesh_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=re.escape(message)):
        MeshAttr.parse(body)


# ---------------------------------------------------------------------------------------------
# Per-value shardings and the #sdy<...> short forms.


@pytest.mark.parametrize(
    "body, printed",
    [
        ('[<@mesh, [{"x"}, {}]>, <@mesh, []>]', None),
        ("[]", None),
        ('[<@mesh, [{"batch", ?}, {"model", ?}]>]', None),
        ('[#sdy.sharding<@mesh, [{"x"}]>]', '[<@mesh, [{"x"}]>]'),
    ],
)
def test_sharding_per_value(attr, body: str, printed: str | None) -> None:
    model = attr(f"#sdy.sharding_per_value<{body}>").typed
    assert isinstance(model, TensorShardingPerValueAttr)
    assert model.print_body() == (printed or body)
    assert len(model) == body.count("@mesh")
    if len(model):
        assert isinstance(model[0], TensorShardingAttr)


@pytest.mark.parametrize("body, message", [("[<@mesh, []>", "',' or ']'"), ("<@mesh, []>", "'['"), ("[<@mesh, []]", "'>'")])
def test_sharding_per_value_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=re.escape(message)):
        TensorShardingPerValueAttr.parse(body)


@pytest.mark.parametrize(
    "body, cls, printed",
    [
        ('axis_ref_list{"x"}', AxisRefListAttr, None),
        ('axis_ref_list{"x", "y":(1)2}', AxisRefListAttr, None),
        ("axis_ref_list{}", AxisRefListAttr, None),
        ('list_of_axis_ref_lists[{"x"}, {}]', ListOfAxisRefListsAttr, None),
        ("list_of_axis_ref_lists[]", ListOfAxisRefListsAttr, None),
        ('manual_axes{"x", "y"}', ManualAxesAttr, None),
        ("manual_axes{}", ManualAxesAttr, None),
        ("manual_axes { }", ManualAxesAttr, "manual_axes{}"),
        ('all_to_all_param_list[{"x"}: 0->2, {"y"}: 1->3]', AllToAllParamListAttr, None),
        ('all_to_all_param_list[{"y"}:1->0]', AllToAllParamListAttr, 'all_to_all_param_list[{"y"}: 1->0]'),
        ("propagation_direction NONE", PropagationDirectionAttr, None),
        ("propagation_direction BOTH", PropagationDirectionAttr, None),
    ],
)
def test_short_forms(attr, body: str, cls: type, printed: str | None) -> None:
    model = attr(f"#sdy<{body}>").typed
    assert isinstance(model, cls)
    assert DialectAttr.of(model).text == f"#sdy<{printed or body}>"


def test_short_form_list_texts() -> None:
    assert parse_sdy_short('list_of_axis_ref_lists[{"x"}, {}]').list_text() == '[{"x"}, {}]'
    assert parse_sdy_short('manual_axes{"x"}').names == ("x",)
    p = parse_sdy_short('all_to_all_param_list[{"x"}: 0->2]').params[0]
    assert (p.axes, p.src_dim, p.tgt_dim) == ((AxisRef(name="x"),), 0, 2)


@pytest.mark.parametrize(
    "body, message",
    [
        ('bogus_kind{"x"}', "unknown #sdy<...> kind 'bogus_kind'"),
        ('manual_axes{"x", "x"}', "unique"),
        ('all_to_all_param_list[{"x"}: 1->1]', "bad all_to_all dims"),
        ("all_to_all_param_list[{}: 0->1]", "at least one axis"),
        ('axis_ref_list{"x"', "',' or '}'"),
        ('axis_ref_list{"x"} trailing', "end of attribute"),
        ("propagation_direction SIDEWAYS", "a propagation direction (NONE, FORWARD, BACKWARD, BOTH)"),
    ],
)
def test_short_form_errors(body: str, message: str) -> None:
    with pytest.raises(AttrError, match=re.escape(message)):
        parse_sdy_short(body)


def test_factories_reject_missing_body() -> None:
    with pytest.raises(AttrError, match="needs a <...> body"):
        DialectAttr("sdy.sharding", None).typed


def test_through_the_ir_parser() -> None:
    ap = AttrParser(None)
    a = ap.attribute('#sdy.sharding<@mesh, [{"x",?}, {}]>')
    assert a.typed == TensorShardingAttr.of("mesh", [DimensionSharding.of(["x"], closed=False), []])
    assert DialectAttr.of(a.typed).text == '#sdy.sharding<@mesh, [{"x", ?}, {}]>'


# ---------------------------------------------------------------------------------------------
# Properties: print is a parse fixed point over generated shardings; valid shardings verify.

_NAMES = st.sampled_from(["x", "y", "z", "batch", "model", "_axis_0", 'we"ird', "a b"])


@st.composite
def axis_refs(draw):
    name = draw(_NAMES)
    if draw(st.booleans()):
        return AxisRef(name=name)
    return AxisRef(name=name, sub_axis=(draw(st.integers(1, 8)), draw(st.integers(2, 8))))


@st.composite
def dim_shardings(draw):
    axes = tuple(draw(st.lists(axis_refs(), max_size=3)))
    closed = draw(st.booleans())
    priority = draw(st.none() | st.integers(0, 20)) if (axes or not closed) else None
    return DimensionSharding(axes=axes, is_closed=closed, priority=priority)


@st.composite
def meshes(draw):
    names = draw(st.lists(_NAMES, unique=True, max_size=3))
    sizes = [draw(st.sampled_from([1, 2, 4, 8])) for _ in names]
    ids: tuple[int, ...] = ()
    if names and draw(st.booleans()):
        ids = tuple(draw(st.permutations(range(int(prod(sizes))))))
    elif not names and draw(st.booleans()):
        ids = (draw(st.integers(0, 9)),)
    return MeshAttr(axes=tuple(MeshAxis(name=n, size=s) for n, s in zip(names, sizes)), device_ids=ids)


@st.composite
def shardings(draw):
    mesh = draw(st.sampled_from(["mesh", "mesh_2", "m.a"]) | meshes())
    dims = tuple(draw(st.lists(dim_shardings(), max_size=4)))
    replicated = tuple(draw(st.lists(axis_refs(), max_size=2)))
    unreduced = tuple(draw(st.lists(axis_refs(), max_size=2)))
    kind = draw(st.sampled_from([None, "sum", "max"])) if unreduced else None
    return TensorShardingAttr(mesh=mesh, dim_shardings=dims, replicated=replicated, unreduced=unreduced, unreduced_kind=kind)


@settings(max_examples=examples(200), deadline=None)
@given(shardings())
def test_sharding_print_parse_fixed_point(s: TensorShardingAttr) -> None:
    text = s.print_body()
    again = TensorShardingAttr.parse(text)
    assert again == s and again.print_body() == text
    per_value = TensorShardingPerValueAttr(shardings=(s, s))
    assert TensorShardingPerValueAttr.parse(per_value.print_body()) == per_value


@settings(max_examples=examples(100), deadline=None)
@given(meshes())
def test_mesh_print_parse_fixed_point(m: MeshAttr) -> None:
    assert MeshAttr.parse(m.print_body()) == m


@st.composite
def valid_shardings(draw):
    """A sharding that uses each axis of MESH3 at most once, in some dims, rest replicated in mesh order."""
    names = list(MESH3.axis_names)
    used = draw(st.permutations(names))
    k = draw(st.integers(0, len(names)))
    rank = draw(st.integers(1, 4))
    dims: list[list[str]] = [[] for _ in range(rank)]
    for n in used[:k]:
        dims[draw(st.integers(0, rank - 1))].append(n)
    rest = [n for n in names if n not in used[:k]]
    replicated = [n for n in rest if draw(st.booleans())]
    return TensorShardingAttr.of("mesh", dims, closed=draw(st.booleans()), replicated=replicated), rank


@settings(max_examples=examples(100), deadline=None)
@given(valid_shardings())
def test_valid_shardings_verify(case) -> None:
    s, rank = case
    s.verify({"mesh": MESH3}, rank)
    counts = s.shards_per_dim(MESH3)
    assert len(counts) == rank
    assert prod(counts) * prod(
        MESH3.axis_size(r.name) for r in s.replicated
    ) <= MESH3.total_size
