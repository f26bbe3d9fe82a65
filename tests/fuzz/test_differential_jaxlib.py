"""ttopt reads what MLIR reads: token-level mutations of the corpus, compared with jaxlib's parser.

Sources: every `// -----` chunk of testdata in dialects jaxlib registers, and small programs JAX
lowers during the run (ttopt/testing/jax_programs.py). Each source is first compared unmutated;
the ones both read the same way are mutated (ttopt/testing/token_mutations.py) and each mutation
compared again (ttopt/testing/differential.py): same verdict, and on accept the module jaxlib
reads from ttopt's output is the one it reads from the input. A disagreement fails the test
unless tests/fuzz/differential_deviations.txt lists it with a reason.

`python bench/fuzz.py --differential --seed S --cases 1` reproduces a mutation case. Under the
"ci" profile the seeds are fixed; under `--hypothesis-profile=fuzz` there are ten times as many,
starting from a random seed.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from ttopt.testing.differential import (
    Outcome,
    Source,
    agreed_valid,
    generated_sources,
    identity_outcomes,
    read_deviations,
    report,
    run_cases,
    run_ttopt,
    sources_in_testdata,
    unexplained,
)
from ttopt.testing.examples import examples, randomized
from ttopt.testing.jax_programs import generate
from ttopt.testing.mlir_reader import MlirReader

pytestmark = pytest.mark.oracle

ROOT = Path(__file__).resolve().parents[2]
DEVIATIONS = Path(__file__).with_name("differential_deviations.txt")
MAX_CHARS = 8000  # sources up to this size: the whole budget goes to many small cases
BLOCKS = 8
PER_BLOCK = examples(110)
FIRST_SEED = random.SystemRandom().randrange(1 << 30) if randomized() else 0


@pytest.fixture(scope="module")
def reader() -> Iterator[MlirReader]:
    pytest.importorskip("jax._src.interpreters.mlir")
    r = MlirReader()
    yield r
    r.close()


@pytest.fixture(scope="module")
def generated(reader: MlirReader) -> list[Source]:
    return generated_sources(generate())


@pytest.fixture(scope="module")
def sources(generated: list[Source]) -> list[Source]:
    return sources_in_testdata(ROOT, MAX_CHARS) + generated


@pytest.fixture(scope="module")
def identity(reader: MlirReader, sources: list[Source]) -> list[Outcome]:
    return identity_outcomes(sources, reader)


@pytest.fixture(scope="module")
def valid(identity: list[Outcome]) -> set[str]:
    return agreed_valid(identity)


def _fail_on_unexplained(outcomes: list[Outcome], what: str) -> None:
    bad = unexplained(outcomes, read_deviations(DEVIATIONS))
    if bad:
        pytest.fail(f"{len(bad)} of {len(outcomes)} {what} read differently by ttopt and MLIR (jaxlib), "
                    f"not listed in {DEVIATIONS.name}:\n{report(bad)}", pytrace=False)


def test_jax_programs_are_generated(generated: list[Source]) -> None:
    names = {s.name for s in generated}
    assert {"mlp", "reduce", "while_loop", "shard_map_helper_call", "shard_map_helper_call.debug"} <= names
    helper = next(s.text for s in generated if s.name == "shard_map_helper_call")
    assert "sdy.manual_computation" in helper and "func.call @helper" in helper


def test_unmutated_sources_read_the_same(identity: list[Outcome]) -> None:
    assert len(identity) > 300
    assert sum(o.verdict == "agree-accept" for o in identity) > 250
    _fail_on_unexplained(identity, "unmutated sources")


@pytest.mark.parametrize("block", range(BLOCKS))
def test_mutations_read_the_same(block: int, sources: list[Source], valid: set[str], reader: MlirReader) -> None:
    start = FIRST_SEED + block * PER_BLOCK
    outcomes = run_cases(range(start, start + PER_BLOCK), sources, reader, valid)
    assert len(outcomes) > PER_BLOCK * 0.6  # seeds whose source is not agreed-valid are skipped
    _fail_on_unexplained(outcomes, f"mutations (seeds {start}..{start + PER_BLOCK - 1})")


@pytest.mark.parametrize(
    "data, flags",
    [
        (b"func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n", ()),
        (b'func.func @f() {\n  "stablehlo.no_such_op"() : () -> ()\n  return\n}\n', ()),
        (b"func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> loc(\"x\") {\n  return %a : tensor<2xf32>\n}\n",
         ("--mlir-print-op-generic", "--mlir-print-debuginfo")),
        (b"func.func @f( {\n", ()),
        (b"\xff", ()),
    ],
)
def test_in_process_runs_match_the_cli(data: bytes, flags: tuple[str, ...]) -> None:
    """The in-process run the differential uses gives what the `ttopt` command gives."""
    ours = run_ttopt(data, flags)
    args = [a for a in ours.args if a != "-"]
    cli = subprocess.run([sys.executable, "-m", "ttopt", "opt", *args], input=data, capture_output=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert not ours.internal
    assert (ours.exit_code, ours.stdout, ours.stderr) == (cli.returncode, cli.stdout.decode(), cli.stderr.decode())
