"""`--pass-pipeline` parsing, option conversion and error messages."""

from __future__ import annotations

import pytest

from ttopt.passes.canonicalize import Canonicalize
from ttopt.passes.pipeline import PipelineError, instantiate, parse_pipeline
from ttopt.passes.strip_debuginfo import StripDebugInfo


@pytest.mark.parametrize(
    "text,names,options",
    [
        ("canonicalize", ["canonicalize"], [{}]),
        ("builtin.module(canonicalize)", ["canonicalize"], [{}]),
        ("builtin.module(canonicalize, strip-debuginfo)", ["canonicalize", "strip-debuginfo"], [{}, {}]),
        ("builtin.module(func.func(canonicalize), strip-debuginfo)", ["canonicalize", "strip-debuginfo"], [{}, {}]),
        ("canonicalize{max-iterations=3}", ["canonicalize"], [{"max-iterations": "3"}]),
        ("p{a=1 b=\"x y\" c={k=v w} flag}", ["p"], [{"a": "1", "b": "x y", "c": "k=v w", "flag": "true"}]),
        ("builtin.module()", [], []),
    ],
)
def test_parse(text: str, names: list[str], options: list[dict]) -> None:
    inv = parse_pipeline(text)
    assert [i.name for i in inv] == names
    assert [i.options for i in inv] == options


def test_instantiate_converts_options() -> None:
    (p,) = instantiate(parse_pipeline("builtin.module(canonicalize{max-iterations=7})"))
    assert isinstance(p, Canonicalize) and p.max_iterations == 7
    (q,) = instantiate(parse_pipeline("strip-debuginfo"))
    assert isinstance(q, StripDebugInfo)


@pytest.mark.parametrize(
    "text,message",
    [
        ("builtin.module(nope)", "unknown pass 'nope'"),
        ("canonicalize{bogus=1}", "has no option 'bogus'"),
        ("canonicalize{max-iterations=x}", "option 'max-iterations' of pass 'canonicalize'"),
        ("builtin.module(canonicalize", "missing ')'"),
        ("canonicalize{max-iterations=3", "missing '}'"),
        ("builtin.module(,)", "expected a pass name"),
        ("canonicalize)", "unexpected ')'"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(PipelineError, match=message.replace("(", r"\(").replace(")", r"\)")):
        instantiate(parse_pipeline(text))


def test_convert_bool_and_list() -> None:
    spec = next(s for s in Canonicalize.option_specs() if s.name == "max-iterations")
    assert spec.parse("12") == 12
    with pytest.raises(ValueError):
        spec.parse("twelve")
