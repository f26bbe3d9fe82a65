"""Property tests: printing is a fixed point on generated IR; mutated input never crashes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.ir.verifier import verify
from ttopt.parse.parser import parse_module
from ttopt.testing.examples import examples

DATA = Path(__file__).resolve().parents[2] / "testdata"

SHAPES = ["4x4", "2x8", "8", "1x1x32x32"]
ELEMS = ["f32", "bf16", "i32"]
ident = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)

scalar_attr = st.one_of(
    st.integers(-(2**40), 2**40).map(lambda v: f"{v} : i64"),
    st.integers(-100, 100).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda v: f"{v:.6e} : f32"),
    st.booleans().map(lambda b: "true" if b else "false"),
    st.text(st.characters(codec="ascii", exclude_characters='"\\\n'), max_size=8).map(lambda s: f'"{s}"'),
    st.lists(st.integers(0, 9), max_size=4).map(lambda v: f"array<i64{': ' if v else ''}{', '.join(map(str, v))}>"),
    st.just("unit"),
    st.just("#ttcore.argument_type<input>"),
    st.just("#alias0"),
)
attr_value = st.recursive(scalar_attr, lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"), max_leaves=6)
attr_dict = st.dictionaries(ident.map(lambda s: "k_" + s), attr_value, max_size=3)


def _dict_text(d: dict[str, str]) -> str:
    return "{" + ", ".join(f"{k} = {v}" for k, v in d.items()) + "}"


@st.composite
def modules(draw: st.DrawFn) -> str:
    ty = lambda: f"tensor<{draw(st.sampled_from(SHAPES))}x{draw(st.sampled_from(ELEMS))}>"  # noqa: E731
    arg_types = [ty() for _ in range(draw(st.integers(1, 3)))]
    values: list[tuple[str, str]] = [(f"%arg{i}", t) for i, t in enumerate(arg_types)]
    lines = ["#alias0 = #ttnn.buffer_type<dram>"]
    sig = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
    lines.append(f"func.func @{draw(ident)}({sig}) {{")
    for i in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["generic", "add", "abs", "region", "multi"]))
        loc = draw(st.sampled_from(["", ' loc("op")', " loc(#loc1)", ' loc("f.py":3:4)', " loc(unknown)"]))
        if kind in ("add", "abs"):
            v, t = draw(st.sampled_from(values))
            same = [x for x in values if x[1] == t]
            w, _ = draw(st.sampled_from(same))
            if kind == "add":
                lines.append(f"  %{i} = stablehlo.add {v}, {w} : {t}{loc}")
            else:
                lines.append(f"  %{i} = stablehlo.abs {v} : {t}{loc}")
            values.append((f"%{i}", t))
        elif kind == "multi":
            t1, t2 = ty(), ty()
            lines.append(f'  %{i}:2 = "x.pair"() : () -> ({t1}, {t2}){loc}')
            values += [(f"%{i}#0", t1), (f"%{i}#1", t2)]
        elif kind == "region":
            v, t = draw(st.sampled_from(values))
            lines.append(f'  %{i} = "x.region"({v}) ({{')
            lines.append(f"  ^bb0(%inner{i}: {t}):")
            lines.append(f'    "x.yield"(%inner{i}) : ({t}) -> ()')
            lines.append(f"  }}) : ({t}) -> {t}{loc}")
            values.append((f"%{i}", t))
        else:
            n = draw(st.integers(0, 2))
            ops = [draw(st.sampled_from(values)) for _ in range(n)]
            props = draw(attr_dict)
            attrs = draw(attr_dict)
            rt = ty()
            p = f" <{_dict_text(props)}>" if props else ""
            a = f" {_dict_text(attrs)}" if attrs else ""
            ins = ", ".join(t for _, t in ops)
            lines.append(f'  %{i} = "test.op{i % 3}"({", ".join(v for v, _ in ops)}){p}{a} : ({ins}) -> {rt}{loc}')
            values.append((f"%{i}", rt))
    lines.append("  return")
    lines.append("}")
    lines.append('#loc1 = loc("aliased")')
    return "\n".join(lines) + "\n"


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(modules(), st.booleans(), st.booleans(), st.booleans())
def test_print_parse_is_a_fixed_point(text: str, local: bool, debug: bool, generic: bool) -> None:
    opts = PrintOptions(local_scope=local, debuginfo=debug, generic=generic)
    module = parse_module(text)
    verify(module)
    once = print_module(module, opts)
    again = parse_module(once)
    verify(again)
    assert print_module(again, opts) == once
    # Generic and pretty printing describe the same IR.
    assert print_module(parse_module(print_module(module, PrintOptions(generic=True))), PrintOptions()) == print_module(module)


CORPUS = [p.read_text() for p in sorted((DATA / "jax").glob("*.mlir"))[:8] + sorted((DATA / "ttnn").glob("*.mlir"))]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(range(len(CORPUS))),
    st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 40), st.text(alphabet='%"#!<>(){}[],:=@^ \nxa0-é\ufffd', max_size=6)),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_input_is_a_diagnostic_or_a_module(which: int, edits: list) -> None:
    text = CORPUS[which]
    for frac, length, insert in edits:
        at = int(frac * len(text))
        text = text[:at] + insert + text[at + length :]
    try:
        module = parse_module(text, "mutated.mlir")
        verify(module)
        print_module(module)
    except Diagnostic as d:
        assert d.pos is None or 0 <= d.pos.offset <= len(text)
        d.render()
