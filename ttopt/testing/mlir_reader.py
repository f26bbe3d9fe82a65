"""MLIR's own parser and verifier (jaxlib's `ir.Module.parse`), run in a child process.

The child owns every jaxlib object, so an abort inside jaxlib costs one reading, not the run:
jaxlib 0.10.2 terminates the process when a diagnostic quotes a string holding bytes that are
not UTF-8 (`"\\ff"` in an axis name it reports as unknown), and a mutated input could find other
such paths. The reader restarts the child and reports the text as `crashed`.

The context is JAX's (`make_ir_context`: builtin, func, arith, stablehlo, chlo, sdy, mhlo, ...
registered) with unregistered dialects allowed, as `mlir-opt --allow-unregistered-dialect`: an
unknown op in a registered dialect is an error, an op of any other dialect is accepted.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

_IMPLICIT_LOC = re.compile(r'loc\("-":\d+:\d+\)')
TIMEOUT = 60.0  # seconds for one reading before the child is taken for hung


@dataclass(frozen=True)
class Reading:
    """What MLIR made of a text: accepted (and how it prints the module) or its first error."""

    ok: bool
    error: str = ""
    canonical: str = ""  # generic form, aliases inlined, MLIR-invented locations position-free
    printed: str = ""  # MLIR's own printing under the print flags asked for
    crashed: bool = False


def _canonical(op: Any, debuginfo: bool, resources: bool) -> str:
    text = op.get_asm(print_generic_op_form=True, enable_debug_info=debuginfo, use_local_scope=True, assume_verified=True)
    if debuginfo:
        # An op without a location gets `"-":line:col` of wherever it sits in the text read:
        # the same op sits elsewhere in ttopt's output.
        text = _IMPLICIT_LOC.sub('loc("-":?)', text)
    if resources:  # a local-scope printing leaves the blobs out
        full = op.get_asm(print_generic_op_form=True, assume_verified=True)
        text += full[full.rfind("\n{-#") :] if "\n{-#" in full else ""
    return text


def _read(ir: Any, make_context: Any, shared: Any, text: str, flags: tuple[str, ...]) -> Reading:
    # Resource blobs are named per context: a second module with the same blob name would have it
    # renamed (`name_1`), so a text that may hold them is read in a context of its own.
    resources = "{-#" in text or "dense_resource" in text
    ctx = make_context() if resources else shared
    try:
        module = ir.Module.parse(text, ctx)
    except ir.MLIRError as e:
        diags = e.error_diagnostics
        return Reading(False, error=f"{diags[0].location}: {diags[0].message}" if diags else str(e))
    except Exception as e:  # noqa: BLE001  (the bindings raise ValueError for some inputs)
        return Reading(False, error=f"{type(e).__name__}: {e}".splitlines()[0])
    op = module.operation
    printed = op.get_asm(print_generic_op_form="--mlir-print-op-generic" in flags, enable_debug_info="--mlir-print-debuginfo" in flags,
                         use_local_scope="--mlir-print-local-scope" in flags, assume_verified=True)
    return Reading(True, canonical=_canonical(op, "--mlir-print-debuginfo" in flags, resources), printed=printed)


def serve(fd: int) -> None:
    """The child: read (text, flags) requests on socket `fd`, answer with Readings, until it closes."""
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir import ir

    def make_context() -> Any:
        ctx = jmlir.make_ir_context()
        ctx.allow_unregistered_dialects = True
        return ctx

    conn = Connection(fd)
    shared = make_context()
    conn.send("ready")
    while True:
        try:
            text, flags = conn.recv()
        except EOFError:
            return
        conn.send(_read(ir, make_context, shared, text, flags))


class MlirReader:
    """A client of the jaxlib child; readings of texts asked with `cache=True` are kept."""

    def __init__(self) -> None:
        self._proc: Any = None
        self._conn: Connection | None = None
        self._cache: dict[tuple[str, tuple[str, ...]], Reading] = {}
        self.crashes = 0

    def _start(self) -> Connection:
        # A plain child process (not multiprocessing's spawn, which re-imports the caller's
        # __main__) that sees the same modules as this one.
        mine, theirs = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        code = "import sys; from ttopt.testing.mlir_reader import serve; serve(int(sys.argv[1]))"
        self._proc = subprocess.Popen([sys.executable, "-c", code, str(theirs.fileno())], pass_fds=(theirs.fileno(),), env=env,
                                      stderr=subprocess.DEVNULL)  # jaxlib aborts print "terminate called ..."
        theirs.close()
        conn = Connection(mine.detach())
        if not conn.poll(TIMEOUT) or conn.recv() != "ready":
            raise RuntimeError("the jaxlib reader did not start")
        self._conn = conn
        return conn

    def _stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()
        self._proc = self._conn = None

    def close(self) -> None:
        """End the child process."""
        self._stop()

    def read(self, text: str, flags: tuple[str, ...] = (), cache: bool = False) -> Reading:
        """Parse and verify `text` as MLIR does (`flags`: ttopt's print flags, which decide the
        printings returned)."""
        hit = self._cache.get((text, flags))
        if hit is not None:
            return hit
        conn = self._conn or self._start()
        try:
            conn.send((text, flags))
            if not conn.poll(TIMEOUT):
                raise EOFError
            r = conn.recv()
        except (EOFError, OSError):
            self.crashes += 1
            self._stop()
            return Reading(False, error="jaxlib crashed or hung reading this text", crashed=True)
        if cache:
            self._cache[(text, flags)] = r
        return r
