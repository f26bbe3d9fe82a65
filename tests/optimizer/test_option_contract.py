"""Issue 12 §6: the device flags mean the same in `opt --ttnn-optimizer`, `layouts` and `analyze`
(a bad value is exit 2 with the same message, before the input is read), override strings that
can never match are rejected instead of silently falling back to DRAM, and errors about a system
desc are positioned."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli import cli

ROOT = Path(__file__).resolve().parents[2]
CHAIN = str(ROOT / "testdata" / "ttnn" / "l1_sharded_chain.mlir")  # has a ttcore.system_desc
MLP = str(ROOT / "testdata" / "optimizer" / "linear_chain.mlir")  # no system desc, fc1 = matmul

BAD_DEVICE_FLAGS = [
    (["--max-legal-layouts", "-3"], "--max-legal-layouts must be >= 0, got -3"),
    (["--tensor-l1-usage-cap", "7"], "--tensor-l1-usage-cap must be in (0, 1], got 7.0"),
    (["--tensor-l1-usage-cap", "0"], "--tensor-l1-usage-cap must be in (0, 1], got 0.0"),
    (["--device", "nope"], "--device: unknown device preset 'nope'"),
    (["--device", "/nonexistent/dev.yaml"], "--device: device file '/nonexistent/dev.yaml' does not exist"),
]
COMMANDS = {
    "opt": lambda f: ["opt", f, "--ttnn-optimizer"],
    "layouts": lambda f: ["layouts", "64x64xbf16"],
    "analyze": lambda f: ["analyze", f],
}


def run(*args: str):
    res = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in res.output and "internal error" not in res.output, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("flags", "message"), BAD_DEVICE_FLAGS)
@pytest.mark.parametrize("input_file", [CHAIN, MLP])
def test_bad_device_flags_exit_2_everywhere(command: str, flags: list[str], message: str, input_file: str) -> None:
    # CHAIN has its own system desc: `--device` is not used for it, but a bad value is still rejected.
    res = run(*COMMANDS[command](input_file), *flags)
    assert res.exit_code == 2, res.output
    assert message in res.output and "Error:" in res.output


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_bad_flags_win_over_bad_input(command: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text("module {\n  %0 = \n}\n")
    res = run(*COMMANDS[command](str(bad)), "--max-legal-layouts", "-1")
    assert res.exit_code == 2 and "--max-legal-layouts must be >= 0" in res.output, res.output


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--override-output-layout", ",,,"], "empty item in the list ',,,'"),
        (["--override-output-layout", "fc1=l1,,gelu=dram"], "empty item in the list"),
        (["--override-output-layout", "fc1=99999x99999:l1:block_sharded:tile"],
         "'fc1': grid 99999x99999 does not fit the device model's limit (64x64)"),
        (["--override-output-layout", "fc1=0x8:l1"], "'fc1': grid dimensions must be positive"),
        (["--override-output-layout", "fc1=l1:nope"], "'fc1': unknown part 'nope'"),
        (["--insert-memreconfig", "fc1=x"], "operand indices must be integers"),
        (["--override-conv2d-config", "fc1=nokey#1"], "unknown key 'nokey'"),
    ],
)  # fmt: skip
def test_bad_override_strings_exit_2(flags: list[str], message: str) -> None:
    res = run("opt", MLP, "--ttnn-optimizer", "--memory-layout-analysis-enabled", *flags)
    assert res.exit_code == 2 and message in res.output, res.output
    pipeline = f"builtin.module(ttnn-optimizer{{{flags[0][2:]}='{flags[1]}'}})"
    res = run("opt", MLP, f"--pass-pipeline={pipeline}")
    assert res.exit_code == 2 and message in res.output, res.output


@pytest.mark.parametrize(
    ("device", "grid", "fits"),
    [("wormhole_b0", "9x8", False), ("wormhole_b0", "8x9", False), ("blackhole", "10x13", True), ("blackhole", "11x1", False)],
)
def test_override_grid_must_fit_the_device(device: str, grid: str, fits: bool) -> None:
    res = run("opt", MLP, "--ttnn-optimizer", "--memory-layout-analysis-enabled", "--device", device,
              "--override-output-layout", f"fc1={grid}:l1:block_sharded")  # fmt: skip
    if fits:  # fits the grid; whether a layout of that grid is legal is the op model's business
        assert "does not fit" not in res.output
    else:
        assert res.exit_code == 1 and f"'fc1': grid {grid} does not fit the worker grid of {device}" in res.output, res.output


def _desc(grid: str = "8x8", l1: int = 1499136) -> str:
    return (
        '#system_desc = #ttcore.system_desc<[{role = host, target_triple = "x86_64-pc-linux-gnu"}], '
        f"[{{arch = <wormhole_b0>, grid = {grid}, l1_size = {l1}, num_dram_channels = 12, "
        "dram_channel_size = 1073741824, l1_unreserved_base = 1024}], [0], [1 : i32], [ 0x0x0x0]>\n"
        "module attributes {ttcore.system_desc = #system_desc} {\n}\n"
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_device_file_over_the_limits_is_a_positioned_usage_error(command: str, tmp_path: Path) -> None:
    dev = tmp_path / "dev.mlir"
    dev.write_text(_desc(grid="100000x100000"))
    res = run(*COMMANDS[command](MLP), "--device", str(dev))
    assert res.exit_code == 2, res.output
    assert f"--device: {dev}:1:116: ttcore.system_desc: grid 100000x100000 exceeds the device model's limit" in res.output


def test_yaml_device_file_over_the_limits(tmp_path: Path) -> None:
    dev = tmp_path / "big.yaml"
    dev.write_text("arch: wormhole_b0\ngrid: 100000x100000\nl1_size: 1499136\nnum_dram_channels: 12\n"
                   "dram_channel_size: 1073741824\nl1_unreserved_base: 1024\n")  # fmt: skip
    res = run("layouts", "64x64xbf16", "--device", str(dev))
    assert res.exit_code == 2 and f"{dev}: grid 100000x100000 exceeds the device model's limit of 64" in res.output, res.output


@pytest.mark.parametrize("command", ["opt", "analyze"])
def test_module_system_desc_errors_carry_line_col(command: str, tmp_path: Path) -> None:
    f = tmp_path / "m.mlir"
    f.write_text(_desc(l1=5))
    res = run(*COMMANDS[command](str(f)))
    assert res.exit_code == 1, res.output
    assert f"{f}:1:36: error: " in res.output and "l1_unreserved_base 1024 exceeds l1_size 5" in res.output, res.output


_CHIP = "l1_size: 1499136\nnum_dram_channels: 12\ndram_channel_size: 1073741824\nl1_unreserved_base: 1024\n"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("deep.json", b"[" * 5000 + b"]" * 5000, "deep.json: nests too deeply"),
        ("deep.yaml", ("a:\n" + "".join("  " * i + "b:\n" for i in range(1, 3000))).encode(), "deep.yaml: nests too deeply"),
        ("bin.yaml", b"arch: wormhole_b0\ngrid: \xff\xfe\n", "bin.yaml:2:7: not valid UTF-8 text (byte 0xff)"),
        ("dup.yaml", ("arch: wormhole_b0\narch: blackhole\ngrid: 8x8\n" + _CHIP).encode(), "dup.yaml:2:1: duplicate key 'arch'"),
        ("syntax.yaml", b"grid: [1, 2\n", "syntax.yaml:2:1: invalid YAML: expected ',' or ']'"),
        ("bool.yaml", ("arch: wormhole_b0\ngrid: [true, 8]\n" + _CHIP).encode(), "grid must be RxC (e.g. 8x8), got [True, 8]"),
        ("float.yaml", ("arch: wormhole_b0\ngrid: [1.5, 8]\n" + _CHIP).encode(), "grid must be RxC (e.g. 8x8), got [1.5, 8]"),
        ("digits.yaml", ("arch: wormhole_b0\ngrid: '٣x٣'\n" + _CHIP).encode(), "grid must be RxC (e.g. 8x8)"),
        ("parse.mlir", b"module {\n  %0 = \n}\n", "parse.mlir:3:1: unexpected '}'"),
    ],
)  # fmt: skip
def test_bad_device_files_are_one_line_usage_errors(name: str, content: bytes, message: str, tmp_path: Path) -> None:
    dev = tmp_path / name
    dev.write_bytes(content)
    for command in sorted(COMMANDS):
        res = run(*COMMANDS[command](MLP), "--device", str(dev))
        assert res.exit_code == 2 and message in res.output, (command, res.output)
        error = res.output[res.output.index("Error:") :].rstrip("\n")
        assert "\n" not in error, error
