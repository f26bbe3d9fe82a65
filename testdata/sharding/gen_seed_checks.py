"""Write the seed-004 FileCheck tests of this folder (`seed_<pass>.mlir`, `pipeline_case<N>.mlir`).

Each RUN line runs one pass (or the whole pipeline) on a seed state from testdata/seeds, and the CHECK
lines are the seed's next state, printed through ttopt (indentation and `-> (T)` normalised). Run
from the repo root after a reviewed change to a seed state: `python testdata/sharding/gen_seed_checks.py`.
The states where the seed contradicts itself are explained in the comments written into the files
(and in tests/sharding/test_seed_cases.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ttopt.ir.printer import print_module  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402

HERE = Path(__file__).resolve().parent
SEEDS = "%S/../seeds"


def norm(name: str) -> str:
    return print_module(parse_module((ROOT / "testdata" / "seeds" / f"004_{name}.mlir").read_text()))


def strip_args(text: str) -> str:
    return re.sub(r'sdy\.sharding = #sdy\.sharding<@mesh, \[[^\]]*\]>, ', "", text)


def checks(text: str, prefix: str) -> list[str]:
    out = []
    for i, line in enumerate(text.rstrip("\n").splitlines()):
        tag = prefix if i == 0 else f"{prefix}-NEXT"
        out.append(f"// {tag}: {line.strip().replace('[[', '{{[[][[]}}')}")
    return out


# pass flag, [(prefix, input state, flags, expected text, comment)]
def cases() -> dict[str, list[tuple[str, str, str, str, str]]]:
    s = norm
    return {
        "inliner": [(f"C{c}", f"case{c}_before", "", s(f"case{c}_before"), "step 1: no change") for c in (1, 2, 3, 4, 5, 6)],
        "apply-tt-argument-annotations": [
            ("C1", "case1_before", "--argument-types=abs=input", s("case1_step02_apply-tt-argument-annotations"), "case 1, step 2"),
            ("C2", "case2_before", "--argument-types=main=input", s("case2_step02_apply-tt-argument-annotations"), "case 2, step 2"),
            ("C3", "case3_before", "--argument-types=main=input,parameter", s("case3_step02_apply-tt-argument-annotations"), "case 3, step 2"),
        ],
        "apply-argument-shard-status": [
            ("C1", "case1_step02_apply-tt-argument-annotations", "", s("case1_step03_apply-argument-shard-status"), "case 1, step 3"),
            ("C2", "case2_step02_apply-tt-argument-annotations", "", s("case2_after"), "case 2, step 3"),
            ("C3", "case3_step02_apply-tt-argument-annotations", "", s("case3_after"), "case 3, step 3"),
            ("C4", "case4_before", "", s("case4_step03_apply-argument-shard-status"), "case 4, step 3"),
            ("C6", "case6_before", "", s("case6_step03_apply-argument-shard-status"), "case 6, step 3"),
        ],
        "apply-shardy-argument-annotations": [
            ("C1", "case1_step03_apply-argument-shard-status", "--mesh-shape=1,2", s("case1_step04_apply-shardy-argument-annotations"),
             "case 1, step 4 (tt argument types, mesh 1x2 from --mesh-shape)"),
            ("C2", "case2_after", "", s("case2_after"), "case 2, step 4: solved, no argument shardings, no change"),
            ("C3", "case3_after", "", strip_args(s("case3_after")),
             "case 3, step 4: the seed says '4-13. no change', but its rule (§1.2.4a, and §1.1: no sdy annotations "
             "at the end) removes a solved graph's argument sdy.sharding; ttopt follows the rule"),
            ("C4", "case4_step03_apply-argument-shard-status", "", s("case4_step03_apply-argument-shard-status"), "case 4, step 4: no change"),
            ("C6", "case6_step03_apply-argument-shard-status", "", s("case6_step03_apply-argument-shard-status"), "case 6, step 4: no change"),
        ],
        "wrap-under-manual-computation": [
            ("C1", "case1_step06_aggressive-propagation", "", s("case1_step09_wrap-under-manual-computation"), "case 1, step 9"),
            ("C4", "case4_step06_aggressive-propagation", "", s("case4_step09_wrap-under-manual-computation"), "case 4, step 9"),
            ("C6", "case6_step08_insert-explicit-reshards", "", s("case6_step09_wrap-under-manual-computation"), "case 6, step 9"),
            ("C2", "case2_after", "", s("case2_after"), "case 2, step 9: solved, no change"),
        ],
        "update-global-to-local-shapes": [
            ("C1", "case1_step09_wrap-under-manual-computation", "", s("case1_step11_update-global-to-local-shapes"), "case 1, step 11"),
            ("C4", "case4_step09_wrap-under-manual-computation", "", s("case4_step11_update-global-to-local-shapes"), "case 4, step 11"),
            ("C3", "case3_after", "", strip_args(s("case3_after")), "case 3, step 11: solved; the argument shardings go (as at step 4)"),
        ],
        "close-shardings": [
            ("C1", "case1_step11_update-global-to-local-shapes", "", s("case1_after"), "case 1, step 12"),
            ("C4", "case4_step11_update-global-to-local-shapes", "", s("case4_after"), "case 4, step 12"),
            ("C6", "case6_after", "", s("case6_after"), "case 6, step 12: no change"),
        ],
        "canonicalize": [
            ("C1", "case1_after", "", s("case1_after"), "case 1, step 13: no change (manual axes multiply to 2)"),
            ("C2", "case2_after", "", s("case2_after"), "case 2, step 13: no change"),
            ("C4", "case4_after", "", s("case4_after"), "case 4, step 13: no change"),
        ],
    }


PIPELINE = {
    1: ("--argument-types=abs=input --mesh-shape=1,2", "case1_after", "the seed's step-12 state (step 13 changes nothing)"),
    2: ("--argument-types=main=input", "case2_after", "the seed's step-3 state ('4-13. no change')"),
    3: ("--argument-types=main=input,parameter", "case3_after:strip",
        "the seed's step-3 state without the argument sdy.sharding (see seed_apply-shardy-argument-annotations.mlir)"),
    4: ("", "case4_after", "the seed's step-12 state"),
}


def main() -> None:
    for flag, rows in cases().items():
        lines = [
            f"// Generated by gen_seed_checks.py from testdata/seeds (seed 004 §2): --{flag} on each case's state",
            "// before the step, checked against the seed's state after it. Do not edit; rerun the script.",
            "",
        ]
        for prefix, src, flags, want, comment in rows:
            lines.append(f"// {comment}")
            lines.append(f"// RUN: ttopt opt {SEEDS}/004_{src}.mlir --{flag} {flags}".rstrip() + f" | FileCheck %s --check-prefix={prefix}")
            lines += checks(want, prefix)
            lines.append("")
        (HERE / f"seed_{flag}.mlir").write_text("\n".join(lines))
    for case, (flags, after, comment) in PIPELINE.items():
        name, _, how = after.partition(":")
        want = strip_args(norm(name)) if how else norm(name)
        lines = [
            f"// Generated by gen_seed_checks.py: seed 004 case {case} through the whole --stablehlo-pipeline;",
            f"// expected: {comment}. Do not edit; rerun the script.",
            "",
            f"// RUN: ttopt opt {SEEDS}/004_case{case}_before.mlir --stablehlo-pipeline {flags}".rstrip() + " | FileCheck %s",
            *checks(want, "CHECK"),
            "",
        ]
        (HERE / f"pipeline_case{case}.mlir").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
