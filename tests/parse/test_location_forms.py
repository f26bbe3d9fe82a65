"""Location forms front ends print take the fast path, decode like the general parser, and
malformed ones are still positioned errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.ir.diagnostics import Diagnostic
from ttopt.ir.printer import PrintOptions, print_module
from ttopt.parse.attr_parser import parse_location_body
from ttopt.parse.parser import parse_module
from ttopt.parse.scan import LOC_ALIAS_ITEM, SIMPLE_LOC

FAST = [
    'loc("add_1")',
    'loc("model.py":532:16)',
    'loc("layers.0.attn/add_1"("model.py":532:16))',
    'loc("layers.0.attn/add_1"(#loc1))',
    "loc(callsite(#loc1 at #loc2))",
    'loc(callsite("f"("a.py":1:2) at "b.py":3:4))',
    'loc(fused[#loc1, "x"("m.py":2:3)])',
    'loc(fused<"jit">[#loc1, #loc2])',
    'loc("outer"(callsite(#loc1 at #loc2)))',
    "loc(unknown)",
]
SLOW = ['loc("a.py":1:2 to 3:4)', 'loc("a"("b"("c")))', "loc(fused<#loc1>[#loc2])"]


def _module(loc: str) -> str:
    # An op's location may name aliases inside it only once they are defined (MLIR); its whole
    # `loc(#loc3)` may come first.
    return (
        '#loc1 = loc("m.py":1:1)\n'
        '#loc2 = loc("m.py":2:1)\n'
        "module {\n"
        f"  %0 = \"test.op\"() : () -> i32 {loc}\n"
        f"  \"test.use\"(%0) : (i32) -> () loc(#loc3)\n"
        "} loc(#loc1)\n"
        f"#loc3 = {loc.replace('#loc3', '#loc1')}\n"
    )


@pytest.mark.parametrize("loc", FAST + SLOW)
def test_location_round_trips_inline_and_as_alias(loc: str) -> None:
    assert bool(SIMPLE_LOC.fullmatch(loc)) == (loc in FAST)
    text = _module(loc)
    module = parse_module(text)
    assert print_module(module, PrintOptions(debuginfo=True)) == text
    op = next(o for o in module.walk() if o.name == "test.op")
    assert op.location.parsed == parse_location_body(loc[4:-1])


@pytest.mark.parametrize(
    "loc,message",
    [
        ("loc(callsite(#loc1 at))", "in.mlir:4:53: error: unexpected ')'"),
        ("loc(fused[#loc1,])", "in.mlir:4:48: error: unexpected ']'"),
        ('loc("a":x:1)', "in.mlir:4:40: error: unexpected 'x'; expected an integer"),
        # the definition of #loc3 (the same location) is read first
        ("loc(#nope)", "in.mlir:7:18: error: undefined symbol alias id 'nope'"),
        ('loc("a"(#nope))', "in.mlir:7:22: error: undefined symbol alias id 'nope'"),
    ],
)
def test_malformed_locations_are_positioned_errors(loc: str, message: str) -> None:
    with pytest.raises(Diagnostic) as e:
        parse_module(_module(loc), "in.mlir")
    assert e.value.render().startswith(message)


@pytest.mark.parametrize(
    "text,message",
    [
        ('"t.op"() : () -> () loc(#nope)\n', "in.mlir:1:25: error: operation location alias was never defined"),
        ('"t.op"() : () -> () loc(#m)\n#m = 1 : i32\n', "in.mlir:1:25: error: expected location, but found '1 : i32'"),
        ('#m = 1 : i32\n"t.op"() : () -> () loc(#m)\n', "in.mlir:2:25: error: expected location, but found '1 : i32'"),
        ('"t.op"() : () -> () loc("a"(#l))\n#l = loc("b")\n', "in.mlir:1:31: error: undefined symbol alias id 'l'"),
        ('"t.op"() : () -> () loc(fused<#m>["a"])\n#m = "x"\n', "in.mlir:1:33: error: undefined symbol alias id 'm'"),
        ('#m = "x"\n"t.op"() : () -> () loc(fused<#m>["a"])\n', None),
        ('#m = "x"\n"t.op"() : () -> () loc(fused[#m])\n', "in.mlir:2:33: error: expected location attribute, but got\"x\""),
        ('"t.op"() : () -> () loc(#t.x<1>)\n', "in.mlir:1:32: error: expected location attribute, but got#t.x<1>"),
        ('"t.op"() {a = loc(#l)} : () -> ()\n#l = loc("b")\n', "in.mlir:1:21: error: undefined symbol alias id 'l'"),
        ('"t.op"() : () -> () loc(#l)\n#l = loc("b")\n', None),
    ],
)
def test_location_alias_references_follow_mlir(text: str, message: str | None) -> None:
    """Only an op's whole `loc(#name)` may name a location alias defined after it; everything a
    location names must be a location (fused metadata excepted). Checked against jaxlib."""
    if message is None:
        parse_module(text, "in.mlir")
        return
    with pytest.raises(Diagnostic) as e:
        parse_module(text, "in.mlir")
    assert e.value.render().startswith(message)


# ---- the possessive location regex reads what its backtracking spelling reads ----------------------
_PIECES = [
    '"a"', '"x.py"', '"a\\"b"', '"a\\\\"', '"', "\\", ":1:2", ":12:", ":3", "(", ")", "[", "]", ",", " ", "  ", "\n", "\t",
    "callsite(", " at ", "at", "fused", "fused<", ">", "#loc1", "#a-b$c", "#", "unknown", "loc(", "1", "x", "#l.x", "<",
]  # fmt: skip


@given(st.lists(st.sampled_from(_PIECES), max_size=14))
@settings(max_examples=3000, deadline=None)
def test_possessive_location_regex_matches_as_the_backtracking_one(pieces: list[str]) -> None:
    """scan's location patterns use possessive quantifiers only where giving characters back can
    never help; the same patterns with the ordinary quantifiers must match the same spans."""
    text = "loc(" + "".join(pieces) + ")"
    for pattern in (SIMPLE_LOC, LOC_ALIAS_ITEM):
        backtracking = re.compile(re.sub(r"([*+?])\+", r"\1", pattern.pattern))
        assert backtracking.pattern != pattern.pattern
        subject = text if pattern is SIMPLE_LOC else "#l = " + text
        for cut in (len(subject), len(subject) - 1):
            a, b = pattern.match(subject, 0, cut), backtracking.match(subject, 0, cut)
            assert (a and a.span(), a and a.groups()) == (b and b.span(), b and b.groups())
