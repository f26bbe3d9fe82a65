"""Which eltwise ops `ttnn-create-d2m-subgraphs` outlines (HEAD's ElementwiseFusionAnalysis) and
the call / function it makes of a group."""

from __future__ import annotations

import ttopt.dialects  # noqa: F401  (registers the ops)
from ttopt.ir.printer import print_module
from ttopt.lowering.d2m.outline import fusion_groups, outline_module
from ttopt.parse.parser import parse_module

T = "tensor<64x64xbf16>"


def _module(body: str, args: int = 3) -> object:
    params = ", ".join(f"%a{i}: {T}" for i in range(args))
    return parse_module(f"module {{\n  func.func @f({params}) -> {T} {{\n{body}\n  }}\n}}\n")


def _bin(name: str, r: str, a: str, b: str) -> str:
    return f'    {r} = "ttnn.{name}"({a}, {b}) : ({T}, {T}) -> {T}'


def _un(name: str, r: str, a: str) -> str:
    return f'    {r} = "ttnn.{name}"({a}) : ({T}) -> {T}'


def _names(groups: list) -> list[list[str]]:
    return [[op.name.removeprefix("ttnn.") for op in g] for g in groups]


def test_a_chain_between_matmuls_is_one_group() -> None:
    m = _module("\n".join([
        _bin("matmul", "%0", "%a0", "%a1"), _bin("add", "%1", "%0", "%a2"), _bin("multiply", "%2", "%1", "%a0"),
        _bin("matmul", "%3", "%2", "%a1"), f"    return %3 : {T}",
    ]))  # fmt: skip
    assert _names(fusion_groups(m.op)) == [["add", "multiply"]]


def test_a_producer_read_outside_the_group_starts_another_group() -> None:
    # %1 is read by exp (in the chain) and by the matmul: it cannot be in exp's group; alone, exp is no group.
    m = _module("\n".join([
        _bin("add", "%1", "%a0", "%a1"), _un("exp", "%2", "%1"), _bin("matmul", "%3", "%1", "%2"), f"    return %3 : {T}",
    ]))  # fmt: skip
    assert fusion_groups(m.op) == []


def test_a_fork_inside_eltwise_ops_joins_into_one_group() -> None:
    # add feeds exp and neg, which join in multiply: every reader of add is in the group.
    m = _module("\n".join([
        _bin("add", "%1", "%a0", "%a1"), _un("exp", "%2", "%1"), _un("neg", "%3", "%1"), _bin("multiply", "%4", "%2", "%3"),
        f"    return %4 : {T}",
    ]))  # fmt: skip
    assert _names(fusion_groups(m.op)) == [["add", "exp", "neg", "multiply"]]


def test_two_exits_sharing_a_producer_leave_it_out() -> None:
    m = _module("\n".join([
        _bin("add", "%1", "%a0", "%a1"), _un("exp", "%2", "%1"), _un("neg", "%3", "%1"), _bin("matmul", "%4", "%2", "%3"),
        f"    return %4 : {T}",
    ]))  # fmt: skip
    assert fusion_groups(m.op) == []


def test_an_outlined_group_is_a_private_function_called_through_d2m_subgraph() -> None:
    m = _module("\n".join([
        _bin("matmul", "%0", "%a0", "%a1"), _bin("add", "%1", "%0", "%a2"), _un("relu", "%2", "%1"),
        _bin("matmul", "%3", "%2", "%a1"), f"    return %3 : {T}",
    ]))  # fmt: skip
    out = outline_module(m)
    assert len(out) == 1
    text = print_module(m)
    assert f"%3 = ttnn.d2m_subgraph @d2m_subgraph_0\n    ins(%1, %arg2 : {T}, {T})\n    outs(%2 : {T}) : {T}" in text
    assert '%2 = "ttnn.empty"(%0) <{shape = #ttnn.shape<64x64>}>' in text
    assert text.index('%0 = "ttnn.get_device"()') < text.index('"ttnn.matmul"')  # at the top (HEAD's getOrInsertDevice)
    assert f"func.func private @d2m_subgraph_0(%arg0: {T}, %arg1: {T}) -> {T}" in text
    assert '"ttnn.add"(%arg0, %arg1)' in text and '"ttnn.relu"(%0)' in text
    assert '%4 = "ttnn.matmul"(%3, %arg1)' in text
