"""Seeded generators of bad and odd inputs for `ttopt opt`, and the CLI contract they must keep.

Two kinds of case, both reproducible from one integer seed:
* mutations of real corpus files (delete, duplicate, swap, truncate, bad numbers, bad bytes,
  deep nesting), which probe the lexer, parser and diagnostics;
* grammar-built modules: registered ops in generic form with random operand counts, shapes,
  element types and properties (missing, misspelled, wrong kind, out of range), which reach the
  verifier, the printer's custom forms and the passes with IR a parser alone never rejects.

The contract (`check_case`): exit code 0, 1 or 2; no internal error (an exception escaping the
command); and on exit 0 the output parses back to a fixed point under the same print flags.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from click.testing import CliRunner

# Pass/flag combinations a case runs under; the printing flags go with the fixed-point check.
MODES: dict[str, list[str]] = {
    "plain": [],
    "generic": ["--mlir-print-op-generic"],
    "canonicalize": ["--canonicalize", "--mlir-print-debuginfo"],
    "optimizer": ["--ttnn-optimizer", "--memory-layout-analysis-enabled"],
    "optimizer-greedy": ["--ttnn-optimizer", "--memory-layout-analysis-enabled", "--memory-layout-analysis-policy", "GreedyL1Interleaved"],
    "optimizer-bf": ["--ttnn-optimizer", "--memory-layout-analysis-enabled", "--memory-layout-analysis-policy", "BFInterleaved"],
    "optimizer-fallback": ["--ttnn-optimizer", "--l1-interleaved-fallback-analysis-enabled"],
    "sharding": ["--stablehlo-pipeline"],
    "sharding-ttir": ["--stablehlo-pipeline", "--convert-to-ttir"],
    "shardy": ["--pass-pipeline=builtin.module(apply-sharding-constraints, aggressive-propagation, insert-explicit-reshards, reshard-to-collectives)"],
    # The way in: StableHLO -> TTIR -> TTNN, and the fusing / optimizer steps of the backend.
    "lowering-ttir": ["--stablehlo-to-ttir-pipeline"],
    "lowering-backend": ["--ttir-to-ttnn-backend-pipeline"],
    "lowering-backend-o2": ["--ttir-to-ttnn-backend-pipeline=optimization-level=2"],
    "lowering-full": ["--stablehlo-pipeline", "--stablehlo-to-ttir-pipeline", "--ttir-to-ttnn-backend-pipeline"],
    # `ttopt topology map` on mutated graph files and odd generator specs (flags vary per case).
    "topology": [],
}
TOPOLOGY = "topology"
PRINT_FLAGS = ("--mlir-print-op-generic", "--mlir-print-debuginfo", "--mlir-print-local-scope")


@dataclass
class Case:
    """One generated input and the flags it runs with."""

    seed: int
    kind: str  # "mutation:<how>" or "grammar"
    source: str  # corpus file the mutation started from, or "" for grammar cases
    data: bytes
    mode: str
    extra: list[str] = field(default_factory=list)  # topology: the `map` flags; "{file}" is `data`
    suffix: str = ".yaml"  # topology: the graph file's extension (selects YAML or JSON)

    @property
    def args(self) -> list[str]:
        return MODES[self.mode] + self.extra


@dataclass
class Outcome:
    """What running a case gave, and which part of the contract it broke (empty: none)."""

    case: Case
    exit_code: int
    violations: list[str] = field(default_factory=list)
    detail: str = ""


def corpus(root: Path) -> list[Path]:
    """The MLIR files mutations start from (sorted, so seeds are stable across machines)."""
    subs = ("jax", "ttnn", "seeds", "sharding", "optimizer", "opt", "device", "ttir", "lowering", "models")
    files = [p for sub in subs for p in (root / "testdata" / sub).glob("*.mlir")]
    return sorted(p for p in files if not p.name.endswith(".expected.mlir") and p.stat().st_size < 64_000)


def make_case(seed: int, files: list[Path], mode: str | None = None) -> Case:
    """The case for `seed` (in `mode`, else a mode the seed picks): two mutation cases for every
    grammar-built one; topology cases mutate graph files and specs instead."""
    rng = random.Random(seed)
    picked = rng.choice(sorted(MODES))
    mode = mode or picked
    if mode == TOPOLOGY:
        # Corpus files all live in testdata/<dir>/: the graph files are in testdata/topology.
        return _topology_case(rng, seed, files[0].parents[1] / "topology")
    if rng.random() < 1 / 3:
        return Case(seed, "grammar", "", grammar_module(rng).encode(), mode)
    path = rng.choice(files)
    how, data = mutate(rng, path.read_bytes())
    return Case(seed, f"mutation:{how}", path.name, data, mode)


# ---- mutations ----------------------------------------------------------------------------------
_NUMBER = re.compile(rb"\b\d+\b")
_TOKEN = re.compile(rb"[%#!@^]?[\w.$-]+|\"[^\"\n]*\"|\S")
_ODD_NUMBERS = (b"0", b"-1", b"1", b"99999999999999999999", b"100000", b"-0", b"0x7fffffffffffffff", b"1e309", b"nan")


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def _delete_token(rng: random.Random, data: bytes) -> bytes:
    toks = list(_TOKEN.finditer(data))
    if not toks:
        return data
    m = rng.choice(toks)
    return data[: m.start()] + data[m.end() :]


def _duplicate_token(rng: random.Random, data: bytes) -> bytes:
    toks = list(_TOKEN.finditer(data))
    if not toks:
        return data
    m = rng.choice(toks)
    return data[: m.end()] + b" " + m.group() + data[m.end() :]


def _replace_token(rng: random.Random, data: bytes) -> bytes:
    toks = list(_TOKEN.finditer(data))
    if len(toks) < 2:
        return data
    a, b = rng.sample(toks, 2)
    return data[: a.start()] + b.group() + data[a.end() :]


def _odd_number(rng: random.Random, data: bytes) -> bytes:
    nums = list(_NUMBER.finditer(data))
    if not nums:
        return data
    m = rng.choice(nums)
    return data[: m.start()] + rng.choice(_ODD_NUMBERS) + data[m.end() :]


def _duplicate_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"".join(lines)


def _delete_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def _swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _bad_bytes(rng: random.Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    junk = rng.choice([b"\xff", b"\xc3\x28", b"\x00", b"\xed\xa0\x80", b'"', b"<", b"{", b")", b"//", b"\t\r"])
    return data[:i] + junk + data[i:]


def _deep_nesting(rng: random.Random, data: bytes) -> bytes:
    n = rng.choice([50, 99, 100, 101, 150, 5000])
    opener, closer = rng.choice([(b"[", b"]"), (b"(", b")"), (b"<", b">"), (b"{", b"}")])
    toks = list(_TOKEN.finditer(data))
    if not toks:
        return data
    m = rng.choice(toks)
    return data[: m.start()] + opener * n + m.group() + closer * n + data[m.end() :]


MUTATIONS: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "delete-token": _delete_token,
    "duplicate-token": _duplicate_token,
    "replace-token": _replace_token,
    "odd-number": _odd_number,
    "duplicate-line": _duplicate_line,
    "delete-line": _delete_line,
    "swap-lines": _swap_lines,
    "truncate": _truncate,
    "bad-bytes": _bad_bytes,
    "deep-nesting": _deep_nesting,
}


def mutate(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One to three mutations; returns their names joined with '+' and the new bytes."""
    # Number changes keep the text parseable, so they reach the verifier and the passes.
    pool = sorted(MUTATIONS) + ["odd-number"] * 4
    names = [rng.choice(pool) for _ in range(rng.choice([1, 1, 2, 3]))]
    for n in names:
        data = MUTATIONS[n](rng, data)
    return "+".join(names), data


# ---- topology cases -------------------------------------------------------------------------------
_SPECS = ("line:4", "ring:8", "mesh:2x4", "torus:4x4", "mesh:8x4@2", "ring:3", "line:1", "torus-x:3x5")
_ODD_SPECS = ("ring:0", "mesh:0x4", "ring:2", "line:99999999999999999999", "mesh:1000x1000", "ring:4@0",
              "ring:4@99999999999999999999", "mesh:2x", "ring:-1", "line:\u0663", "cube:3", "mesh:3x3x3", "", ":")
_FLAGS: tuple[list[str], ...] = ([], ["--mode", "strict"], ["--mode", "none"], ["--engine", "search"], ["--engine", "sat"], ["--pin", "0=0"],
          ["--pin", "0=99"], ["--forbid", "1=1"], ["--prefer", "0=1"], ["--remove-link", "0-1"], ["--remove-link", "x"],
          ["--json"], ["--match-trait", "host"], ["--node-limit", "50"], ["--pin", "a=c0"])


def _topology_case(rng: random.Random, seed: int, folder: Path) -> Case:
    """`topology map` with a mutated graph file (or an odd spec) and a few random flags."""
    spec = lambda: rng.choice(_SPECS) if rng.random() < 0.7 else rng.choice(_ODD_SPECS)  # noqa: E731
    sources = sorted([*folder.glob("*.yaml"), *folder.glob("*.json")])
    data, source, suffix = b"", "", ".yaml"
    if sources and rng.random() < 0.7:
        path = rng.choice(sources)
        how, data = mutate(rng, path.read_bytes())
        kind, source, suffix, graph = f"topology:{how}", path.name, path.suffix, "{file}"
    else:
        kind, graph = "topology:spec", spec()
    target, global_ = (graph, spec()) if rng.random() < 0.3 else (spec(), graph)
    flags = [f for _ in range(rng.choice([0, 1, 2])) for f in rng.choice(_FLAGS)]
    extra = ["map", "--target", target, "--global", global_, "--timeout", "2", *flags]
    return Case(seed, kind, source, data, TOPOLOGY, extra, suffix)


# ---- grammar-built modules ------------------------------------------------------------------------
_ELEMENT = ("f32", "bf16", "i32", "i64", "i1", "f16")
_PROPS: dict[str, tuple[str, ...]] = {
    "stablehlo.iota": ("iota_dimension",),
    "stablehlo.transpose": ("permutation",),
    "stablehlo.broadcast_in_dim": ("broadcast_dimensions",),
    "stablehlo.reduce": ("dimensions",),
    "stablehlo.concatenate": ("dimension",),
    "stablehlo.slice": ("start_indices", "limit_indices", "strides"),
    "stablehlo.dot_general": ("dot_dimension_numbers",),
    "stablehlo.compare": ("comparison_direction",),
    "stablehlo.reshape": (),
    "stablehlo.add": (),
    "stablehlo.multiply": (),
    "stablehlo.abs": (),
    "stablehlo.convert": (),
    "stablehlo.select": (),
    "stablehlo.dynamic_slice": ("slice_sizes",),
    "stablehlo.pad": ("edge_padding_low", "edge_padding_high", "interior_padding"),
    "stablehlo.reverse": ("dimensions",),
    "stablehlo.get_dimension_size": ("dimension",),
    "ttnn.add": (),
    "ttnn.relu": (),
    "ttnn.matmul": ("transpose_a", "transpose_b"),
    "ttnn.reshape": ("shape",),
    "ttnn.permute": ("permutation",),
    "ttnn.concat": ("dim",),
    "ttnn.sum": ("dim_arg", "keep_dim"),
    "ttnn.to_layout": ("layout",),
    "ttnn.softmax": ("dimension",),
}


def _shape(rng: random.Random) -> list[int]:
    return [rng.choice([1, 2, 4, 7, 8, 32, 64]) for _ in range(rng.choice([0, 1, 2, 2, 3, 4]))]


def _tensor(rng: random.Random) -> str:
    shape = _shape(rng)
    el = rng.choice(_ELEMENT)
    if rng.random() < 0.05:
        return f"tensor<*x{el}>"
    dims = "x".join(map(str, shape))
    return f"tensor<{dims}x{el}>" if shape else f"tensor<{el}>"


def _int(rng: random.Random) -> int:
    return rng.choice([0, 1, 2, 3, -1, 7, 99999, -99999])


def _prop_value(rng: random.Random) -> str:
    k = rng.randrange(7)
    if k == 0:
        return f"{_int(rng)} : i64"
    if k == 1:
        return f"array<i64: {', '.join(str(_int(rng)) for _ in range(rng.randrange(4)))}>"
    if k == 2:
        return '"x"'
    if k == 3:
        return "true"
    if k == 4:
        return f"[{', '.join(str(_int(rng)) for _ in range(rng.randrange(4)))}]"
    if k == 5:
        return "#stablehlo<comparison_direction GT>"
    return "#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>"


def _operand_count(rng: random.Random, name: str) -> int:
    """Mostly the registered arity (so the case reaches the passes), sometimes any count."""
    from ttopt import dialects  # noqa: F401  (registers the op definitions)
    from ttopt.ir.opdef import OP_DEFS

    spec = OP_DEFS[name].operands if name in OP_DEFS else None
    if rng.random() < 0.15 or spec is None:
        return rng.choice([0, 1, 2, 3])
    if isinstance(spec, int):
        return spec
    lo, hi = spec
    return rng.randint(lo, hi if hi is not None else lo + 2)


def grammar_module(rng: random.Random) -> str:
    """A function of a few registered ops in generic form, with arbitrary properties."""
    args = [_tensor(rng) for _ in range(rng.randint(1, 3))]
    lines = [f"func.func @main({', '.join(f'%arg{i}: {t}' for i, t in enumerate(args))}) -> {args[0]} {{"]
    values = [(f"%arg{i}", t) for i, t in enumerate(args)]
    for i in range(rng.randint(1, 5)):
        name = rng.choice(sorted(_PROPS))
        ops = [rng.choice(values) for _ in range(_operand_count(rng, name))]
        props = []
        for p in _PROPS[name]:
            r = rng.random()
            if r < 0.7:
                props.append(f"{p} = {_prop_value(rng)}")
            elif r < 0.85:
                props.append(f"{p}x = {_prop_value(rng)}")  # misspelled
        prop_text = f" <{{{', '.join(props)}}}>" if props else ""
        result = rng.choice([ops[0][1] if ops else _tensor(rng), ops[0][1] if ops else _tensor(rng), _tensor(rng)])
        operand_types = ", ".join(t for _, t in ops)
        lines.append(f'  %{i} = "{name}"({", ".join(v for v, _ in ops)}){prop_text} : ({operand_types}) -> {result}')
        values.append((f"%{i}", result))
    lines.append(f"  return %arg0 : {args[0]}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- the contract ---------------------------------------------------------------------------------
def run_opt(args: list[str], data: bytes):
    """`ttopt opt` in-process on `data` (stdin); click's Result."""
    from ttopt.cli import cli

    return CliRunner().invoke(cli, ["opt", *args], input=data)


def run_topology(case: Case):
    """`ttopt topology ...` in-process, the case's data written to a temporary graph file."""
    import tempfile

    from ttopt.cli import cli

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"graph{case.suffix}"
        path.write_bytes(case.data)
        return CliRunner().invoke(cli, ["topology", *[str(path) if a == "{file}" else a for a in case.extra]])


def check_case(case: Case) -> Outcome:
    """Run a case and report every broken clause of the CLI contract."""
    topology = case.mode == TOPOLOGY
    r = run_topology(case) if topology else run_opt(case.args, case.data)
    out = Outcome(case, r.exit_code)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        out.violations.append("internal-error")
        out.detail = f"{type(r.exception).__name__}: {r.exception}"
        return out
    if r.exit_code not in (0, 1, 2):
        out.violations.append("exit-code")
    text = r.stdout if hasattr(r, "stdout") else r.output
    if "ttopt: internal error" in r.output or "Traceback (most recent call last)" in r.output:  # not the echoed source
        out.violations.append("internal-error")
        out.detail = r.output[-400:]
    if r.exit_code == 0 and "internal-error" not in out.violations and not topology:
        flags = [a for a in case.args if a in PRINT_FLAGS]
        again = run_opt(flags, text.encode())
        if again.exit_code != 0 or again.stdout != text:
            out.violations.append("no-fixed-point")
            out.detail = again.output[-400:] if again.exit_code else _first_difference(text, again.stdout)
    return out


def _first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return f"line {i}: {x!r} != {y!r}"
    return "outputs differ in length"
