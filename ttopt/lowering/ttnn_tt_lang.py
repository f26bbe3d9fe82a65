"""`ttir.tt_lang_op` -> `ttnn.tt_lang_op` (HEAD's TTLangOpConversionPattern): every operand (one per
`arg_roles` token, the `out` ones pre-allocated buffers), one result per TTIR result, and the
`kernel_id`, `version_tag`, `arg_roles` and `shard_spec` metadata as they are; `kernel_artifact`
stays absent (HEAD's `--ttnn-resolve-tt-lang-kernels` fills it later)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttopt.ir.operation import Operation

if TYPE_CHECKING:
    from ttopt.lowering.ttir_to_ttnn import _Lowering

KEYS = ("arg_roles", "kernel_id", "shard_spec", "version_tag")


def _tt_lang_op(lw: _Lowering, op: Any) -> list[Any]:
    missing = [k for k in KEYS if k != "shard_spec" and op.get_attr(k) is None]
    if missing:
        raise ValueError(f"needs the {', '.join(missing)} attribute(s)")
    properties = {k: op.get_attr(k) for k in KEYS if op.get_attr(k) is not None}
    new = Operation("ttnn.tt_lang_op", list(op.operands), [lw.layout_type(r.type, op) for r in op.results], properties=properties,
                    location=op.location)  # fmt: skip
    lw.out.append(new)
    return list(new.results)


TT_LANG_RULES = {"tt_lang_op": _tt_lang_op}
MULTI_RESULT = frozenset(TT_LANG_RULES)
