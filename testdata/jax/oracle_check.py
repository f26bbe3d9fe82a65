"""Round-trip every .mlir file through jaxlib's bundled MLIR (the "oracle").

Usage:

    python testdata/jax/oracle_check.py                 # testdata/jax
    python testdata/jax/oracle_check.py testdata/seeds testdata/ttnn
    python testdata/jax/oracle_check.py --no-write DIR  # only report

For every ``DIR/<name>.mlir`` it

1. parses the file (``ir.Module.parse``, which also runs the op verifiers) in a
   context made by JAX's ``make_ir_context()`` with unregistered dialects allowed;
2. prints it back in the default (pretty) form and in the generic form and
   writes ``DIR/oracle/<name>.mlir`` and ``DIR/oracle/<name>.generic.mlir``.
   Files that contain ``loc(`` are printed with ``enable_debug_info=True`` so the
   oracle shows how locations / ``#loc`` aliases are re-printed;
3. re-parses the pretty output and checks that printing is a fixpoint;
4. for files with an ``sdy.mesh`` (in testdata/jax only, or with ``--shardy``),
   runs the Shardy pipeline below in a child process (a bad pipeline can abort
   the process with ``LLVM ERROR``) and writes ``DIR/oracle/<name>.shardy.mlir``.

A file that fails to parse gets ``DIR/oracle/<name>.error.txt`` with the
diagnostic instead.  The summary at the end lists ok / failed files; the exit
code is 0 unless a file failed that is not listed in ``EXPECTED_FAILURES``.
See ORACLE.md for the snippets this script is built from.
"""

import os
import subprocess
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib.mlir import ir, passmanager  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# The pipeline that mirrors tt-mlir's external Shardy steps (5, 6, 7, 8, 10, 12, 13).
SHARDY_PIPELINE = (
    "builtin.module("
    "sdy-apply-sharding-constraints,"
    "sdy-aggressive-propagate{conservative-propagation=false},"
    "func.func(sdy-sharding-constraint-to-reshard),"
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
    "func.func(sdy-reshard-to-collectives),"
    "sdy-close-shardings,"
    "canonicalize)"
)

# Files known not to parse in jaxlib (custom-syntax ops of dialects jaxlib lacks).
EXPECTED_FAILURES = {
    "d2m_subgraph_custom_form.mlir",  # testdata/ttnn: ttnn.d2m_subgraph custom assembly
    "device_module_custom_form.mlir",  # testdata/ttnn: ttcore.device_module / ttcore.device custom assembly
}


def make_context():
    ctx = jmlir.make_ir_context()  # registers func, stablehlo, chlo, mhlo, sdy, mpmd, ...
    ctx.allow_unregistered_dialects = True  # #ttcore.* / #ttnn.* attrs, "ttir.*"(...) ops
    return ctx


def parse(text, ctx):
    return ir.Module.parse(text, context=ctx)


def pretty(module, debug):
    return module.operation.get_asm(enable_debug_info=debug)


def generic(module, debug):
    return module.operation.get_asm(print_generic_op_form=True, enable_debug_info=debug)


def run_shardy(text, pipeline=SHARDY_PIPELINE):
    ctx = make_context()
    module = parse(text, ctx)
    pm = passmanager.PassManager.parse(pipeline, context=ctx)
    pm.run(module.operation)
    module.operation.verify()
    return pretty(module, "loc(" in text)


def shardy_in_child(path):
    """Run the Shardy pipeline in a child process; returns (ok, text_or_error)."""
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--_shardy-one", path],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode == 0:
        return True, proc.stdout
    return False, (proc.stderr.strip() or f"exit code {proc.returncode}")


def check_dir(d, write=True, shardy=None):
    if shardy is None:
        shardy = os.path.abspath(d) == HERE
    out_dir = os.path.join(d, "oracle")
    if write:
        os.makedirs(out_dir, exist_ok=True)
    results = []
    for fname in sorted(os.listdir(d)):
        if not fname.endswith(".mlir"):
            continue
        path = os.path.join(d, fname)
        text = open(path).read()
        debug = "loc(" in text
        stem = fname[: -len(".mlir")]
        ctx = make_context()
        try:
            module = parse(text, ctx)
        except Exception as e:  # ir.MLIRError
            msg = str(e)
            first = [ln.strip() for ln in msg.splitlines() if ln.strip().startswith("error:")]
            results.append((fname, "PARSE-FAIL", (first or [msg or repr(e)])[0]))
            if write:
                with open(os.path.join(out_dir, stem + ".error.txt"), "w") as fh:
                    fh.write(msg + "\n")
            continue
        p = pretty(module, debug)
        g = generic(module, debug)
        # fixpoint: the oracle's own output must re-parse and print identically
        p2 = pretty(parse(p, make_context()), debug)
        g2 = pretty(parse(g, make_context()), debug)
        notes = []
        if p2 != p:
            notes.append("pretty-not-fixpoint")
        if g2 != p:
            notes.append("generic-reparse-differs")
        body = "\n".join(line for line in text.splitlines() if not line.startswith("//")) + "\n"
        notes.append("identical-to-input" if body.strip() == p.strip() else "normalised")
        if write:
            with open(os.path.join(out_dir, stem + ".mlir"), "w") as fh:
                fh.write(p)
            with open(os.path.join(out_dir, stem + ".generic.mlir"), "w") as fh:
                fh.write(g)
            err = os.path.join(out_dir, stem + ".error.txt")
            if os.path.exists(err):
                os.remove(err)
        if shardy and "sdy.mesh" in text:
            ok, out = shardy_in_child(path)
            notes.append("shardy-ok" if ok else "shardy-FAIL: " + out.splitlines()[-1][:200])
            if write and ok:
                with open(os.path.join(out_dir, stem + ".shardy.mlir"), "w") as fh:
                    fh.write(out)
        results.append((fname, "ok", ", ".join(notes)))
    return results


def main(argv):
    if argv[:1] == ["--_shardy-one"]:
        sys.stdout.write(run_shardy(open(argv[1]).read()))
        return 0
    write = "--no-write" not in argv
    force_shardy = True if "--shardy" in argv else None
    dirs = [a for a in argv if not a.startswith("--")] or [HERE]
    bad = 0
    for d in dirs:
        print(f"== {d}")
        for fname, status, note in check_dir(d, write, force_shardy):
            print(f"  {status:10s} {fname}: {note}")
            if status != "ok" and fname not in EXPECTED_FAILURES:
                bad += 1
            if "shardy-FAIL" in note:
                bad += 1
    print("unexpected failures:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
