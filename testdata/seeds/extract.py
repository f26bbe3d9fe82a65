"""Extract the complete MLIR snippets of design seeds 001 and 004 into .mlir files.

    python testdata/seeds/extract.py [SEEDS_DIR]   # default: ../shared/seeds or /work/shared/seeds

Seed 004 (StableHLO/Shardy pipeline): every IR block inside the "## 2.N Case N"
sections.  The block after "example" is ``004_caseN_before.mlir``; the block of
the last pass shown is ``004_caseN_after.mlir``; the blocks of the passes in
between are ``004_caseN_stepKK_<pass>.mlir``.  The snippets are bare top-level
ops, so each is wrapped in ``module {`` ... ``}``; the IR lines are verbatim.

Seed 001 (d2m dispatch walkthrough): its input function elides types with
``...`` and uses undefined layout aliases / ``%empty``, so 001_input.mlir is
written by hand (see the comment at its top); this script does not touch it.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED004 = "004_4528d788b7b6291b.txt"


def find_seeds_dir(argv):
    if argv:
        return argv[0]
    for cand in (os.path.join(HERE, "..", "..", "..", "shared", "seeds"), "/work/shared/seeds"):
        if os.path.isdir(cand):
            return cand
    raise SystemExit("seeds dir not found; pass it as an argument")


def extract_004(text):
    """Yield (case_no, case_title, label, step_no, step_name, lines)."""
    case_no = case_title = None
    label = None  # "example" or (step_no, step_name)
    in_block = False
    block = []
    for line in text.splitlines():
        if in_block:
            if line.strip() == "'''":
                in_block = False
                if case_no is not None:
                    yield case_no, case_title, label, block
                block = []
            else:
                block.append(line)
            continue
        m = re.match(r"^## 2\.\d+ Case (\d+)", line)
        if m:
            case_no, case_title, label = int(m.group(1)), line.lstrip("# ").strip(), None
            continue
        if line.startswith("#"):
            case_no = None  # left the "2.x Case" sections
            continue
        if line.strip() == "example":
            label = "example"
            continue
        m = re.match(r"^(\d+)\. \(([^)]+)\)", line)
        if m:
            label = (int(m.group(1)), m.group(2))
            continue
        if line.strip() == "'''":
            in_block = True


def main(argv):
    seeds = find_seeds_dir(argv)
    text = open(os.path.join(seeds, SEED004)).read()
    by_case = {}
    for case_no, title, label, lines in extract_004(text):
        by_case.setdefault(case_no, []).append((title, label, lines))
    written = []
    for case_no, blocks in sorted(by_case.items()):
        for i, (title, label, lines) in enumerate(blocks):
            if label == "example":
                fname = f"004_case{case_no}_before.mlir"
                where = f'"{title}", block after "example" (input graph)'
            else:
                step_no, step_name = label
                last = i == len(blocks) - 1
                fname = (f"004_case{case_no}_after.mlir" if last
                         else f"004_case{case_no}_step{step_no:02d}_{step_name}.mlir")
                where = f'"{title}", block after "{step_no}. ({step_name})"'
                if last:
                    where += " (last IR shown for this case = final state)"
            header = [
                f"// Source: shared/seeds/{SEED004}, section {where}.",
                "// Added by testdata/seeds/extract.py: the `module {` line and the closing `}`",
                "// (the seed gives bare top-level ops). The IR lines in between are verbatim.",
            ]
            body = header + ["module {"] + lines + ["}"]
            with open(os.path.join(HERE, fname), "w") as fh:
                fh.write("\n".join(body) + "\n")
            written.append(fname)
    for f in written:
        print("wrote", f)


if __name__ == "__main__":
    main(sys.argv[1:])
