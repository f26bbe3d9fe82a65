"""Writing results: whole files or nothing, and never replacing what is not a regular file.

A regular file (or a name that does not exist yet) is written through a temporary file in the
same directory and a rename, so a failed run leaves it untouched; the file keeps its mode (a new
one gets the umask default, as `open` would give it). A symlink is followed, so its target is
written and the link stays. Anything else (a character device such as `/dev/null`, a FIFO, a
socket) is opened and written in place: renaming over it would replace the device node.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from dataclasses import dataclass

from ttopt.ir.diagnostics import Diagnostic, SourceFile, SourcePos


class OutputError(Exception):
    """An output could not be written; the message names the path and the reason."""


@dataclass
class _Staged:
    target: str  # resolved path
    text: str
    tmp: str | None  # temp file awaiting rename; None for a direct write


def write_atomic(path: str, text: str) -> None:
    """Write `text` to `path` ('-' is stdout): whole or not at all."""
    write_outputs([(path, text)])


def write_outputs(items: list[tuple[str, str]]) -> None:
    """Write several outputs so that a failure in any leaves every regular file untouched."""
    staged: list[_Staged] = []
    try:
        for path, text in items:
            if path != "-":
                staged.append(_stage(path, text))
        for s in staged:
            _commit(s)
    except BaseException:
        for s in staged:
            _discard(s)
        raise
    for path, text in items:
        if path == "-":
            sys.stdout.write(text)
            sys.stdout.flush()


def check_writable(path: str) -> None:
    """Fail early (OutputError) if `path` cannot be written, before any work is done."""
    if path == "-":
        return
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise OutputError(f"cannot write '{path}': is a directory")
    if os.path.exists(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write '{path}': permission denied")
        if not os.path.isfile(target):
            return
    directory = os.path.dirname(target)
    if not os.path.isdir(directory):
        raise OutputError(f"cannot write '{path}': no such directory '{directory}'")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write '{path}': directory '{directory}' is not writable")


def _stage(path: str, text: str) -> _Staged:
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write '{path}': is a directory")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return _Staged(target, text, None)
    directory = os.path.dirname(target)
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=".ttopt-", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
    except BaseException as e:
        _discard(_Staged(target, text, tmp))
        if isinstance(e, OSError):
            raise OutputError(f"cannot write '{path}': {e.strerror}") from None
        raise
    return _Staged(target, text, tmp)


def _commit(s: _Staged) -> None:
    try:
        if s.tmp is None:
            with open(s.target, "w", encoding="utf-8") as f:
                f.write(s.text)
        else:
            os.replace(s.tmp, s.target)
            s.tmp = None
    except OSError as e:
        raise OutputError(f"cannot write '{s.target}': {e.strerror}") from None


def _discard(s: _Staged) -> None:
    if s.tmp is not None:
        try:
            os.unlink(s.tmp)
        except OSError:
            pass
        s.tmp = None


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def read_input(path: str) -> str:
    """The input text (stdin for '-'); invalid UTF-8 is an error at its line and column."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return decode_source(data, "<stdin>" if path == "-" else path)


def decode_source(data: bytes, name: str) -> str:
    """Decode UTF-8 strictly: a bad byte, even in a comment or string, is a positioned Diagnostic."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[: e.start].decode("utf-8")
        text = good + data[e.start :].decode("utf-8", errors="replace")
        pos = SourcePos(SourceFile(name, text), len(good))
        raise Diagnostic(f"invalid UTF-8 byte 0x{data[e.start]:02x} in the input", pos) from None
