"""MappingConstraints: every constraint kind, transactional adds, upstream quirks."""

import pytest

from ttopt.topology import MappingConstraints


def test_required_pin_and_set_intersect() -> None:
    c = MappingConstraints()
    assert c.get_valid_mappings("A") == frozenset()  # unrestricted
    assert c.add_required_constraint("A", {"X", "Y", "Z"})
    assert c.add_required_constraint("A", {"Y", "Z", "W"})
    assert c.get_valid_mappings("A") == {"Y", "Z"}
    assert c.add_required_constraint("A", "Z")
    assert c.get_valid_mappings("A") == {"Z"}
    assert c.is_valid_mapping("A", "Z") and not c.is_valid_mapping("A", "Y")
    assert c.is_valid_mapping("B", "Y")  # unrestricted target


def test_required_add_is_transactional() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint("A", {"X", "Y"})
    assert not c.add_required_constraint("A", "Z")  # would empty the set
    assert c.get_valid_mappings("A") == {"X", "Y"}
    assert not c.add_required_constraint("A", set())
    assert c.get_valid_mappings("A") == {"X", "Y"}


def test_many_targets_to_one_global_each_pinned() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint({"A", "B"}, "X")  # accepted; the solver reports the clash
    assert c.get_valid_mappings("A") == {"X"} and c.get_valid_mappings("B") == {"X"}


def test_pinning_group_semantics() -> None:
    c = MappingConstraints()
    assert c.add_required_constraint({"A", "B"}, {"X", "Y", "Z"})
    assert c.get_valid_mappings("A") == {"X", "Y", "Z"}
    assert c.get_pinning_groups() == [(frozenset({"A", "B"}), frozenset({"X", "Y", "Z"}))]
    assert c.is_valid_mapping("C", "Z")  # left-over pool globals stay usable by anyone
    assert not c.add_required_constraint({"A", "B", "C"}, {"X", "Y"})  # more members than globals
    assert c.get_valid_mappings("C") == frozenset()
    # a later pin that leaves the group with too few globals is rejected as a whole
    assert c.add_required_constraint("A", "X")
    assert not c.add_required_constraint("B", "X")
    assert c.get_valid_mappings("B") == {"X", "Y", "Z"}


def test_forbidden() -> None:
    c = MappingConstraints()
    assert c.add_forbidden_constraint("A", "X")
    assert not c.is_valid_mapping("A", "X") and c.is_valid_mapping("A", "Y")
    assert c.add_required_constraint("A", {"X", "Y"})
    assert c.get_valid_mappings("A") == {"Y"}  # forbidden pairs filter later required sets
    assert not c.add_forbidden_constraint("A", "Y")  # last allowed global: rejected
    assert c.get_valid_mappings("A") == {"Y"}
    assert c.add_forbidden_constraint({"B", "C"}, {"X", "Y"})
    assert ("B", "X") in c.get_forbidden_pairs() and ("C", "Y") in c.get_forbidden_pairs()
    assert not c.add_forbidden_constraint(set(), "X")


def test_preferred_union_vs_intersect_quirk() -> None:
    c = MappingConstraints()
    assert c.add_preferred_constraint("A", "X")
    assert c.add_preferred_constraint("A", "Y")
    assert c.get_preferred_mappings("A") == {"X", "Y"}  # single pair: union
    assert c.add_preferred_constraint("A", {"Y", "Z"})
    assert c.get_preferred_mappings("A") == {"Y"}  # set form: intersect
    assert c.add_preferred_constraint({"B", "C"}, "Z")
    assert c.get_preferred_mappings("B") == {"Z"}
    assert c.is_valid_mapping("A", "Q")  # preferred never restricts


def test_trait_constraints() -> None:
    c = MappingConstraints()
    host_t = {"A": 0, "B": 1}
    host_g = {"X": 0, "Y": 1, "Z": 1}
    assert c.add_required_trait_constraint(host_t, host_g)
    assert c.get_valid_mappings("A") == {"X"} and c.get_valid_mappings("B") == {"Y", "Z"}
    assert c.get_valid_mappings("C") == frozenset()  # unlisted targets untouched
    rack_g = {"X": "r0", "Y": "r0", "Z": "r1"}
    assert c.add_required_trait_constraint({"B": "r1"}, rack_g)
    assert c.get_valid_mappings("B") == {"Z"}
    # a trait value no global has: rejected, and nothing changed (transactional)
    assert not c.add_required_trait_constraint({"A": 7, "C": 1}, host_g)
    assert c.get_valid_mappings("A") == {"X"} and not c.is_restricted("C")
    assert c.add_preferred_trait_constraint({"C": 1}, host_g)
    assert c.get_preferred_mappings("C") == {"Y", "Z"}
    assert c.add_preferred_trait_constraint({"C": 9}, host_g)  # never fails


def test_cardinality() -> None:
    c = MappingConstraints()
    assert not c.add_cardinality_constraint([], 1)
    assert not c.add_cardinality_constraint([("A", "X")], 0)
    assert not c.add_cardinality_constraint([("A", "X")], 2)
    assert c.add_cardinality_constraint_product(["A", "B"], ["X", "Y"], 2)
    assert len(c.get_cardinality_constraints()) == 1
    # a required add that leaves fewer than 2 compatible pairs fails and rolls back
    assert c.add_required_constraint("A", "X")
    assert not c.add_required_constraint("B", "Z")
    assert c.get_valid_mappings("B") == frozenset()
    assert not c.add_cardinality_constraint([("A", "Y")], 1)  # incompatible with the pin


def test_constructor_pairs_and_validate() -> None:
    c = MappingConstraints(required=[(1, 10), (2, 20)], preferred=[(1, 11)])
    assert c.get_valid_mappings(1) == {10} and c.validate()
    bad = MappingConstraints(required=[(1, 10), (1, 20)])
    assert bad.get_valid_mappings(1) == frozenset() and not bad.validate()


@pytest.mark.parametrize("node", [(0, 1), "name", 5])
def test_tuples_are_node_ids(node) -> None:
    c = MappingConstraints()
    assert c.add_required_constraint(node, (2, 3))
    assert c.get_valid_mappings(node) == {(2, 3)}
