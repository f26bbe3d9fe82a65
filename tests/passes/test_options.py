"""The typed option model: one conversion for pipeline text and flags, spec() round trips,
option kinds consistent across passes, and CLI flags that mean the same as pipeline text."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ttopt.cli import cli
from ttopt.passes.base import Pass, option
from ttopt.passes.options import OptionSpec
from ttopt.passes.pipeline import instantiate, parse_pipeline
from ttopt.passes.registry import _OPTION_KINDS, PASSES, all_passes, register_pass
from ttopt.testing.examples import examples

ALL = all_passes()
_WORD = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd"), whitelist_characters="-_.:=x@/"), min_size=1, max_size=12)


def _value(spec: OptionSpec) -> st.SearchStrategy:
    if spec.type is bool:
        base: st.SearchStrategy = st.booleans()
    elif spec.type is int:
        base = st.integers(-(10**12), 10**12)
    elif spec.type is float:
        base = st.floats(allow_nan=False, allow_infinity=False, width=64)
    elif spec.type is list:
        base = st.lists(_WORD, max_size=4)
    elif spec.choices:
        base = st.sampled_from(spec.choices)
    else:
        base = st.one_of(_WORD, st.text(alphabet="ab {}()'", max_size=8).filter(lambda t: t.strip() == t and "'" not in t))
    return st.one_of(st.none(), base) if spec.optional else base


@st.composite
def _configured_pass(draw: st.DrawFn) -> Pass:
    cls = draw(st.sampled_from(sorted(ALL.values(), key=lambda c: c.name)))
    values = {s.name: draw(_value(s)) for s in cls.option_specs() if draw(st.booleans())}
    return cls.from_options(values)


@settings(max_examples=examples(300))
@given(_configured_pass())
def test_spec_reads_back_as_the_same_pass(p: Pass) -> None:
    assert instantiate(parse_pipeline(p.spec())) == [p]
    assert instantiate(parse_pipeline(f"builtin.module({p.spec()}, {p.spec()})")) == [p, p]


def test_default_pass_spec_is_its_name() -> None:
    for name, cls in ALL.items():
        assert cls().spec() == name


def test_every_option_name_has_one_kind() -> None:
    kinds: dict[str, set] = {}
    for cls in ALL.values():
        for s in cls.option_specs():
            kinds.setdefault(s.name, set()).add(s.kind)
    assert all(len(k) == 1 for k in kinds.values()), {n: k for n, k in kinds.items() if len(k) > 1}


def test_registration_rejects_an_option_of_another_kind() -> None:
    @dataclass
    class Probe(Pass):
        name = "probe-conflicting-kind"
        max_iterations: str = option("", "same name as canonicalize's int option")

    owner = _OPTION_KINDS["max-iterations"][1]  # the first registered pass declaring it (canonicalize, erase-inverse-ops, ...)
    with pytest.raises(TypeError, match=f"option 'max-iterations' of pass 'probe-conflicting-kind' is a str, but pass '{owner}' declares it as a int"):
        register_pass(Probe)
    assert "probe-conflicting-kind" not in PASSES
    assert _OPTION_KINDS["max-iterations"][1] == owner


def _dump(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["opt", "--dump-pass-pipeline", *args], input="module {\n}\n")
    return r.exit_code, r.stderr


@pytest.mark.parametrize(
    "args,pipeline",
    [
        # A bool flag takes true/false after a space too, and means the same for every pass.
        (["--populate-op-sharding-rules", "--conservative-propagation", "false"], "populate-op-sharding-rules"),
        (["--populate-op-sharding-rules", "--conservative-propagation", "true"], "populate-op-sharding-rules{conservative-propagation=true}"),
        (["--populate-op-sharding-rules", "--conservative-propagation=false"], "populate-op-sharding-rules"),
        (["--aggressive-propagation", "--conservative-propagation=false"], "aggressive-propagation{conservative-propagation=false}"),
        (["--aggressive-propagation", "--no-conservative-propagation"], "aggressive-propagation{conservative-propagation=false}"),
        # Option flags fill every pass that declares them; a pass's own text wins.
        (["--canonicalize", "--canonicalize=max-iterations=5", "--max-iterations", "3"], "canonicalize{max-iterations=3}, canonicalize{max-iterations=5}"),
        (["--canonicalize", "--max-iterations", "0x10"], "canonicalize{max-iterations=16}"),
        (["--pass-pipeline=builtin.module(canonicalize{max-iterations=7}, canonicalize)", "--max-iterations", "3"], "canonicalize{max-iterations=7}, canonicalize{max-iterations=3}"),
    ],
)
def test_flags_desugar_to_pipeline_text(args: list[str], pipeline: str) -> None:
    code, err = _dump(*args)
    assert (code, err.splitlines()[0]) == (0, f"builtin.module({pipeline})")


@pytest.mark.parametrize(
    "args,message",
    [
        (["--canonicalize", "--max-iterations", "x"], "option 'max-iterations' of pass 'canonicalize': expected an integer, got 'x'"),
        (["--ttnn-optimizer", "--tensor-l1-usage-cap", "nan"], "expected a finite number, got 'nan'"),
        (["--aggressive-propagation=conservative-propagation=maybe"], "expected true or false, got 'maybe'"),
    ],
)
def test_bad_values_are_usage_errors(args: list[str], message: str) -> None:
    code, err = _dump(*args)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_built_pass_cannot_change_its_options() -> None:
    import dataclasses

    from ttopt.passes.canonicalize import Canonicalize

    p = Canonicalize(max_iterations=3)
    with pytest.raises(dataclasses.FrozenInstanceError, match="option 'max_iterations' is fixed"):
        p.max_iterations = 4
    assert p.spec() == "canonicalize{max-iterations=3}"


def test_pipeline_steps_get_the_pipelines_options_typed() -> None:
    from ttopt.sharding.explicit_reshards import InsertExplicitReshards
    from ttopt.sharding.pipeline import StableHLOPipeline

    step = StableHLOPipeline(conservative=False, mesh_shape=["1", "2"]).configured(InsertExplicitReshards)
    assert step.conservative is False and step.spec() == "insert-explicit-reshards{conservative=false}"
