"""Regenerate testdata/shardy/rules/oracle_rules*.txt with jaxlib's sdy-populate-op-sharding-rules."""

import glob
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from jax._src.interpreters import mlir as jmlir  # noqa: E402
from jax._src.lib.mlir import ir, passmanager  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JAX_DIR = os.path.join(HERE, "..", "jax")


def walk(op):
    for r in op.regions:
        for b in r.blocks:
            for o in b.operations:
                yield o
                yield from walk(o)


def rules(path, option):
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    try:
        m = ir.Module.parse(open(path).read(), context=ctx)
        pipeline = f"builtin.module(func.func(sdy-populate-op-sharding-rules{option}))"
        passmanager.PassManager.parse(pipeline, context=ctx).run(m.operation)
    except Exception as e:  # dynamic shapes: the pass rejects them
        print(f"skip {os.path.basename(path)}: {str(e).splitlines()[1][:100]}", file=sys.stderr)
        return []
    return [f"{os.path.basename(path)} {o.name} {o.attributes['sdy.sharding_rule']}"
            for o in walk(m.operation) if "sdy.sharding_rule" in o.attributes]


def main():
    files = sorted(glob.glob(os.path.join(JAX_DIR, "*.mlir")))
    for name, option in (("oracle_rules.txt", ""), ("oracle_rules_conservative.txt", "{conservative-propagation=true}")):
        lines = [line for f in files for line in rules(f, option)]
        with open(os.path.join(HERE, "rules", name), "w") as out:
            out.write("\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} rules")


if __name__ == "__main__":
    main()
