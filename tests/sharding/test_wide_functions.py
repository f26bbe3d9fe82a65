"""Functions with very many arguments: reading and writing their shardings costs O(1) per argument,
not a copy of the whole `arg_attrs` array each time (a 100k-argument `@main` took minutes)."""

from __future__ import annotations

import pytest

from ttopt.ir.printer import print_module
from ttopt.parse.parser import parse_module
from ttopt.passes.context import PassContext
from ttopt.sharding import factors
from ttopt.sharding.factors import get_arg_attr, set_arg_attr, set_arg_attrs_at
from ttopt.sharding.propagation import AggressivePropagation

T = "tensor<4xf32>"
SHARDED = '{sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}'


def _wide(n: int) -> str:
    """`@main` with n arguments (the even ones sharded) summed by a chain of adds."""
    args = ", ".join(f"%arg{i}: {T} {SHARDED}" if i % 2 == 0 else f"%arg{i}: {T}" for i in range(n))
    body = [f"  %{i} = stablehlo.add {'%arg0' if i == 1 else f'%{i - 1}'}, %arg{i} : {T}" for i in range(1, n)]
    return 'sdy.mesh @mesh = <["x"=2]>\n' + f"func.func @main({args}) -> {T} {{\n" + "\n".join(body) + f"\n  return %{n - 1} : {T}\n}}\n"


def test_propagation_rebuilds_each_attribute_array_once(monkeypatch: pytest.MonkeyPatch) -> None:
    m = parse_module(_wide(60))
    calls = []
    real = factors._dict_list
    monkeypatch.setattr(factors, "_dict_list", lambda func, key, n: calls.append(key) or real(func, key, n))
    AggressivePropagation().run(m, PassContext())
    # Every odd argument gained a sharding, and the result one: one rebuild per array, not per value.
    assert sorted(calls) == ["arg_attrs", "res_attrs"]
    text = print_module(m)
    assert text.count('#sdy.sharding<@mesh, [{"x", ?}]>') == 30 + 1  # the odd arguments and the result
    assert text.count('#sdy.sharding_per_value<[<@mesh, [{"x", ?}]>]>') == 59  # the adds


def test_reading_an_argument_sharding_copies_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    m = parse_module(_wide(8))
    func = next(op for op in m.walk() if op.name == "func.func")
    monkeypatch.setattr(factors, "_dicts", lambda arr: pytest.fail("get_arg_attr copied the array"))
    assert get_arg_attr(func, 0) is not None and get_arg_attr(func, 1) is None and get_arg_attr(func, 99) is None


def test_setting_many_at_once_equals_setting_one_by_one() -> None:
    one, many = (parse_module(_wide(6)) for _ in range(2))
    f1, f2 = (next(op for op in m.walk() if op.name == "func.func") for m in (one, many))
    new = {1: get_arg_attr(f1, 0), 4: None, 5: get_arg_attr(f1, 2)}
    for i, a in new.items():
        set_arg_attr(f1, i, a)
    set_arg_attrs_at(f2, new)
    assert print_module(one) == print_module(many)
    assert get_arg_attr(f2, 4) is None and get_arg_attr(f2, 1) is not None
