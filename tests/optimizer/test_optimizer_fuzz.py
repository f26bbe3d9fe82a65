"""Seeded mutations of the optimizer's own corpus under every optimizer mode.

The general fuzz test (tests/fuzz) mostly builds IR the optimizer rejects up front (TTNN ops
without layouts); these cases start from modules the optimizer accepts and change one tensor type
or one number inside a layout / system desc / program config, so they reach the analyses, the
solver, the rewrite and the stats. Contract as everywhere: exit 0, 1 or 2, never an internal
error, and an exit-0 output that parses back to a fixed point.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ttopt.testing.examples import examples
from ttopt.testing.fuzz import Case, check_case

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    p for d in ("testdata/optimizer", "testdata/ttnn") for p in (ROOT / d).glob("*.mlir") if "ttnn.ttnn_layout" in p.read_text()
)
MODES = ("optimizer", "optimizer-bf", "optimizer-greedy", "optimizer-fallback")
TENSOR = re.compile(r"tensor<((?:[\d?]+x)+)(\w+)")  # shape and element type (the encoding may nest)
ALIASED = re.compile(r"tensor<((?:[\d?]+x)+)(\w+), (#\w+)>")  # encoding given by an alias
LAYOUT_LINE = re.compile(r"^.*#(?:ttnn\.ttnn_layout|ttcore\.system_desc)<.*$", re.M)
NUMBER = re.compile(r"(?<![A-Za-wyz_\d.])\d+(?![\d.])")  # 8 and 16 of 8x16, not the 0 of d0
ODD_NUMBERS = ("0", "1", "3", "7", "33", "64", "65", "1000", "99999", "4294967296", "99999999999999999999")
WORDS = ("interleaved", "block_sharded", "height_sharded", "width_sharded", "l1", "dram", "system_memory", "bf16", "f32", "u8")


def _shape_mutation(rng: random.Random, dims: str, elem: str) -> str:
    return rng.choice([
        f"tensor<*x{elem}", "tensor<" + re.sub(r"^\d+", "?", dims) + elem, f"tensor<{dims}i1",
        f"tensor<0x{dims}{elem}", f"tensor<{elem}",
    ])  # fmt: skip


def _encoding_mutation(rng: random.Random, dims: str, elem: str) -> str:
    return rng.choice([f"tensor<{dims}{elem}>", f'tensor<{dims}{elem}, "x">', f"tensor<{dims}{elem}, #ttnn_layout999>"])


def mutate(text: str, rng: random.Random) -> str:
    """One tensor type (everywhere), or one number or word of a layout / system desc, changed."""
    text = text.split("\n// -----")[0]  # the first chunk of a --split-input-file test
    sites = {
        "shape": list(TENSOR.finditer(text)),
        "encoding": list(ALIASED.finditer(text)),
        "number": [(line.start(), n) for line in LAYOUT_LINE.finditer(text) for n in NUMBER.finditer(line.group(0))],
        "word": [(line.start() + line.group(0).index(w), w) for line in LAYOUT_LINE.finditer(text) for w in WORDS if w in line.group(0)],
    }
    kind = rng.choice(sorted(k for k, v in sites.items() if v))
    site = rng.choice(sites[kind])
    if kind in ("shape", "encoding"):
        # Every spelling of that type changes, so the IR stays type-consistent and reaches the pass.
        fn = _shape_mutation if kind == "shape" else _encoding_mutation
        return text.replace(site.group(0), fn(rng, site.group(1), site.group(2)))
    if kind == "number":
        base, n = site
        return text[: base + n.start()] + rng.choice(ODD_NUMBERS) + text[base + n.end() :]
    at, w = site
    return text[:at] + rng.choice(WORDS) + text[at + len(w) :]


@pytest.mark.parametrize("mode", MODES)
def test_mutated_optimizer_corpus_keeps_the_contract(mode: str) -> None:
    rng = random.Random(f"optimizer-fuzz-{mode}")
    broken = []
    for i in range(examples(30)):
        src = rng.choice(FILES)
        data = mutate(src.read_text(), rng).encode()
        out = check_case(Case(i, "mutation:optimizer", src.name, data, mode))
        if out.violations:
            broken.append(f"case {i} {src.name}: {','.join(out.violations)}: {out.detail[:200]}")
    assert not broken, "\n".join(broken)


def test_mutations_change_the_input() -> None:
    rng = random.Random(0)
    src = (ROOT / "testdata/optimizer/linear_chain.mlir").read_text()
    assert len({mutate(src, rng) for _ in range(20)}) > 15
