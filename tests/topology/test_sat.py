"""The optional SAT backend (skipped when python-sat is absent)."""

import pytest

from ttopt.topology import (
    ConnectionValidationMode,
    MappingConstraints,
    Status,
    generate,
    load_graph,
    solve_topology_mapping,
)
from ttopt.topology import sat as sat_module
from ttopt.topology import solve as solve_module

pysat = pytest.importorskip("pysat")


@pytest.mark.parametrize("target,global_,ok", [
    ("ring:8", "mesh:2x4", True), ("mesh:3x3", "torus:4x4", True),
    ("torus:4x4", "torus:8x4", False), ("line:16", "mesh:4x4", True),
])
def test_sat_engine(target, global_, ok) -> None:
    r = solve_topology_mapping(generate(target), generate(global_), engine="sat")
    assert r.success is ok, r.error_message
    assert r.stats.engine == "sat"
    if not ok:
        assert r.status is Status.UNSAT and r.proof == "sat-unsat"


def test_sat_constraints_and_strict() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(0, 5)
    assert c.add_forbidden_constraint(1, 4)
    assert c.add_cardinality_constraint([(2, 7), (2, 1)], 1)
    r = solve_topology_mapping(generate("line:3"), generate("mesh:2x4"), c, engine="sat")
    m = r.target_to_global
    assert r.success and m[0] == 5 and m[1] != 4 and m[2] in (7, 1)
    g = load_graph("mesh:2x4@2", ["0-1"])
    r = solve_topology_mapping(generate("ring:4@2"), g, None, ConnectionValidationMode.STRICT,
                               engine="sat")
    assert r.success


def test_auto_hands_over_to_sat(monkeypatch) -> None:
    monkeypatch.setattr(solve_module, "AUTO_NODE_BUDGET", 1)
    r = solve_topology_mapping(generate("torus:4x4"), generate("torus:8x4"), engine="auto")
    assert r.status is Status.UNSAT and r.stats.engine == "sat"


def test_missing_pysat_degrades(monkeypatch) -> None:
    monkeypatch.setattr(solve_module, "sat_available", lambda: False)
    r = solve_topology_mapping(generate("ring:8"), generate("mesh:2x4"), engine="sat")
    assert r.status is Status.INVALID and "python-sat" in r.error_message
    monkeypatch.setattr(solve_module, "AUTO_NODE_BUDGET", 1)
    r = solve_topology_mapping(generate("torus:4x4"), generate("torus:8x4"), engine="auto")
    assert r.status is Status.UNSAT and r.stats.engine == "search"
    assert sat_module.sat_available()
