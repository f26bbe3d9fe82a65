"""`-o` and `--stats` targets: regular files replaced atomically with their mode kept; symlinks
followed; devices and FIFOs written in place (never replaced); unwritable targets one line, exit 2."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttopt.cli import cli

GOOD = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
PRINTED = "module {\n  func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n    return %arg0 : tensor<4xf32>\n  }\n}\n"


@pytest.fixture
def src(tmp_path: Path) -> Path:
    p = tmp_path / "in.mlir"
    p.write_text(GOOD)
    return p


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def leftovers(d: Path) -> list[str]:
    return [p.name for p in d.iterdir() if p.name.startswith(".ttopt-")]


def test_existing_file_keeps_its_mode(tmp_path: Path, src: Path) -> None:
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    out.chmod(0o644)
    assert run("opt", str(src), "-o", str(out)).exit_code == 0
    assert out.read_text() == PRINTED
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    out.chmod(0o640)
    assert run("opt", str(src), "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == []


def test_new_file_gets_the_umask_default(tmp_path: Path, src: Path) -> None:
    out = tmp_path / "new.mlir"
    old = os.umask(0o027)
    try:
        assert run("opt", str(src), "-o", str(out)).exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_symlink_target_is_written_and_link_kept(tmp_path: Path, src: Path) -> None:
    target = tmp_path / "real.mlir"
    target.write_text("old\n")
    target.chmod(0o644)
    link = tmp_path / "link.mlir"
    link.symlink_to(target.name)
    assert run("opt", str(src), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text() == PRINTED
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_fifo_is_written_not_replaced(tmp_path: Path, src: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    # A subprocess: the FIFO open blocks until the reader thread opens its end.
    r = subprocess.run([sys.executable, "-m", "ttopt", "opt", str(src), "-o", str(fifo)], capture_output=True, timeout=60)
    reader.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got == [PRINTED.encode()]


def test_device_node_is_written_not_replaced(tmp_path: Path, src: Path) -> None:
    node = tmp_path / "null"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the same device as /dev/null
    except PermissionError:
        pytest.skip("creating a device node needs root")
    assert run("opt", str(src), "-o", str(node)).exit_code == 0
    st = node.stat()
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("flag", ["-o", "--stats"])
def test_missing_directory_is_one_line_exit_2(tmp_path: Path, src: Path, flag: str) -> None:
    target = tmp_path / "no" / "such" / "x"
    r = run("opt", str(src), flag, str(target))
    assert r.exit_code == 2
    assert r.output.strip().count("\n") == 0 and "cannot write" in r.output and "no such directory" in r.output
    assert not (tmp_path / "no").exists()


def test_unwritable_directory_writes_nothing(tmp_path: Path, src: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may write into a read-only directory")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        r = run("opt", str(src), "-o", str(ro / "x.mlir"))
    finally:
        ro.chmod(0o755)
    assert r.exit_code == 2 and "not writable" in r.output
    assert list(ro.iterdir()) == []


def test_stats_and_output_written_together_or_not_at_all(tmp_path: Path, src: Path) -> None:
    stats = tmp_path / "s.json"
    out = tmp_path / "out.mlir"
    assert run("opt", str(src), "--canonicalize", "--stats", str(stats), "-o", str(out)).exit_code == 0
    assert stats.exists() and out.read_text() == PRINTED
    stats.unlink()
    out.unlink()
    r = run("opt", str(src), "--stats", str(stats), "-o", str(tmp_path / "gone" / "out.mlir"))
    assert r.exit_code == 2 and not stats.exists()


def test_directory_as_output_is_a_usage_error(tmp_path: Path, src: Path) -> None:
    assert run("opt", str(src), "-o", str(tmp_path)).exit_code == 2


def test_invalid_utf8_in_a_comment_is_an_error_at_its_position(tmp_path: Path) -> None:
    p = tmp_path / "bad.mlir"
    p.write_bytes(b'func.func @f() {\n  // caf\xc3\x28\n  return\n}\n')
    r = run("opt", str(p))
    assert r.exit_code == 1
    assert f"{p}:2:9: error: invalid UTF-8 byte 0xc3" in r.output
    p.write_bytes(b'func.func @f() attributes {s = "\xff"} {\n  return\n}\n')
    r = run("opt", str(p))
    assert r.exit_code == 1 and f"{p}:1:33: error: invalid UTF-8" in r.output
