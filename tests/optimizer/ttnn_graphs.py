"""Small TTNN graphs for the interleaved-policy and fallback tests: `name = op(operands)` lines
become a forward function over 2048x2048 bf16 DRAM tensors (each op named by its location)."""

from __future__ import annotations

T = "tensor<2048x2048xbf16, #L>"

HEAD = """#dram = #ttnn.buffer_type<dram>
#L = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<64x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#R = #ttnn.ttnn_layout<(d0, d1, d2) -> (d0 * 2048 + d1, d2), <1x1>, memref<64x64x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
"""
def module(body: list[str], args: int, results: list[str]) -> str:
    lines = []
    for line in body:
        name, rhs = (x.strip() for x in line.split("="))
        op, operands = rhs.rstrip(")").split("(")
        ops = [o.strip() for o in operands.split(",")]
        lines.append(f'    %{name} = "ttnn.{op}"({", ".join("%" + o for o in ops)}) : ({", ".join([T] * len(ops))}) -> {T} loc("{name}")')
    sig = ", ".join(f"%x{i}: {T}" for i in range(args))
    ret = ", ".join([T] * len(results))
    return HEAD + (
        f'module {{\n  func.func @forward({sig}) -> ({ret}) attributes {{tt.function_type = "forward_device"}} {{\n'
        + "\n".join(lines)
        + f"\n    return {', '.join('%' + r for r in results)} : {ret}\n  }}\n}}\n"
    )
