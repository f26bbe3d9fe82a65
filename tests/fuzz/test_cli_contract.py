"""The CLI contract under seeded generated inputs (ttopt/testing/fuzz.py).

Each block of seeds is one test so a failure names its seeds; `python bench/fuzz.py --seed S
--cases 1 --show 1` reproduces a case. Under the "ci" profile the seeds are fixed; under
`--hypothesis-profile=fuzz` there are ten times as many, starting from a random seed printed in
the failure message.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ttopt.testing.examples import examples, randomized
from ttopt.testing.fuzz import check_case, corpus, make_case

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = 8
PER_BLOCK = examples(75)
FIRST_SEED = random.SystemRandom().randrange(1 << 30) if randomized() else 0


@pytest.fixture(scope="module")
def files() -> list[Path]:
    return corpus(ROOT)


@pytest.mark.parametrize("block", range(BLOCKS))
def test_generated_inputs_keep_the_contract(block: int, files: list[Path]) -> None:
    start = FIRST_SEED + block * PER_BLOCK
    broken = []
    for seed in range(start, start + PER_BLOCK):
        out = check_case(make_case(seed, files))
        if out.violations:
            broken.append(f"seed {seed} [{out.case.mode}] {out.case.kind} {out.case.source}: {','.join(out.violations)}: {out.detail[:200]}")
    assert not broken, f"{len(broken)} of {PER_BLOCK} cases broke the contract:\n" + "\n".join(broken)


def test_cases_are_reproducible(files: list[Path]) -> None:
    a, b = make_case(1234, files), make_case(1234, files)
    assert (a.kind, a.source, a.data, a.mode) == (b.kind, b.source, b.data, b.mode)
    assert len({make_case(s, files).data for s in range(40)}) > 30
