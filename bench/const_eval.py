"""DRAM the conv weights take with and without const-eval, on a JAX model with convolutions.

    PYTHONPATH=$PWD python bench/const_eval.py [--model testdata/models/resnet.mlir] [--level 2]

The model goes through the StableHLO pipeline (argument 0 an input, every other one a
parameter), convert-to-ttir and the backend pipeline, once with `enable-const-eval=false` and once
with it on. Printed per run: the bytes of the conv weight arguments as the function receives them,
the DRAM the forward function allocates per call (every DRAM tensor an op of it produces, in its
layout, tile padding included; `ttcore.load_cached` results are not allocated per call), the part
of that on the way from a conv weight argument to its conv, and what const-eval keeps cached (the
const-eval functions' results, allocated once).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ttopt.device.layout_info import layout_info, tensor_bytes  # noqa: E402
from ttopt.ir.types import TensorType  # noqa: E402
from ttopt.lowering.const_eval import is_const_eval  # noqa: E402
from ttopt.optimizer.analyses import current_layout  # noqa: E402
from ttopt.parse.parser import parse_module  # noqa: E402
from ttopt.passes.context import PassContext  # noqa: E402
from ttopt.passes.manager import PassManager  # noqa: E402
from ttopt.passes.pipeline import instantiate, parse_pipeline  # noqa: E402

CONV = frozenset({"ttnn.conv2d", "ttnn.prepare_conv2d_weights"})


def nbytes(v: Any) -> int:
    """Bytes of a value's tensor in its layout (0 without one)."""
    t = v.type.resolve()
    lay = current_layout(t)
    if lay is None or not isinstance(t, TensorType):
        return 0
    return tensor_bytes(tuple(int(d) for d in t.shape), layout_info(lay))


def in_dram(v: Any) -> bool:
    lay = current_layout(v.type)
    return lay is not None and lay.is_dram


def weight_path(func: Any) -> set[int]:
    """Ops between a conv weight (operand 1 of conv2d / prepare_conv2d_weights) and its argument."""
    out: set[int] = set()
    block = func.regions[0].entry
    todo = [op.operands[1 if op.name == "ttnn.conv2d" else 0] for op in block.ops if op.name in CONV]
    while todo:
        p = getattr(todo.pop(), "op", None)
        if p is None or id(p) in out or p.name in ("ttcore.load_cached", "ttnn.get_device"):
            continue
        out.add(id(p))
        todo.extend(p.operands)
    return out


def measure(text: str, arg_types: str, options: str) -> dict[str, Any]:
    """Lower the model with `options`; the numbers the module docstring lists."""
    pipeline = (f"builtin.module(stablehlo-pipeline{{argument-types={arg_types}}}, convert-to-ttir, "
                f"ttir-to-ttnn-backend-pipeline{{{options}}})")  # fmt: skip
    module = parse_module(text, "model")
    PassManager(instantiate(parse_pipeline(pipeline), pipeline), PassContext()).run(module)
    funcs = [f for f in module.functions() if f.regions and f.regions[0].blocks]
    forward = [f for f in funcs if not is_const_eval(f)]
    cached = [f for f in funcs if is_const_eval(f)]
    res: dict[str, Any] = {"forward_dram": 0, "weight_path_dram": 0, "weight_path_ops": 0, "cached_bytes": 0,
                           "const_eval_functions": len(cached), "forward_ops": 0}  # fmt: skip
    for f in forward:
        path = weight_path(f)
        for op in f.regions[0].entry.ops:
            if op.name in ("ttnn.deallocate", "func.return", "ttnn.get_device"):
                continue
            if op.name == "ttcore.load_cached":  # cached across calls: counted under "cached"
                res["forward_ops"] += 1
                continue
            res["forward_ops"] += 1
            dram = sum(nbytes(r) for r in op.results if in_dram(r))
            res["forward_dram"] += dram
            if id(op) in path:
                res["weight_path_dram"] += dram
                res["weight_path_ops"] += 1
    for f in cached:
        ret = f.regions[0].entry.ops[-1]
        res["cached_bytes"] += sum(nbytes(v) for v in ret.operands)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(ROOT / "testdata/models/resnet.mlir"))
    ap.add_argument("--level", type=int, default=2, help="optimization-level of the backend pipeline")
    args = ap.parse_args(argv)
    text = Path(args.model).read_text()
    m = re.search(r"func\.func public @(\w+)\((.*?)\)\s*->", text)
    if m is None:
        print(f"{args.model}: no public function", file=sys.stderr)
        return 1
    n_args = len(re.findall(r"%arg\d+:", m.group(2)))
    arg_types = f"{m.group(1)}=input" + ",parameter" * (n_args - 1)
    weights = re.findall(r"stablehlo\.convolution\(%\w+, (%arg\d+)\)", text)
    shapes = {a: s for a, s in re.findall(r"(%arg\d+): tensor<([0-9x]+)x\w+>", m.group(2))}
    raw = sum(4 * eval("*".join(shapes[w].split("x"))) for w in set(weights) if w in shapes)  # f32 weights
    print(f"{Path(args.model).name}: {len(set(weights))} conv weight arguments, {raw} bytes as f32")
    print(f"{'const-eval':>10} {'fwd ops':>8} {'fwd DRAM/call':>14} {'weight path':>22} {'cached':>10} {'funcs':>6}")
    for flag in ("false", "true"):
        r = measure(text, arg_types, f"optimization-level={args.level} enable-const-eval={flag}")
        print(f"{flag:>10} {r['forward_ops']:>8} {r['forward_dram']:>14} "
              f"{r['weight_path_dram']:>12} ({r['weight_path_ops']:>3} ops) {r['cached_bytes']:>10} {r['const_eval_functions']:>6}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
