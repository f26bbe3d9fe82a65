"""Axis-set helpers of insert-explicit-reshards: set difference over sub-axes and the
axis-first redistribution of a reshape's overflow axes."""

from ttopt.sharding.reshape_overflow import distribute
from ttopt.sharding.unreduced_collectives import axis_set_diff


def test_axis_set_diff_splits_around_a_sub_axis() -> None:
    x = ("x", 1, 16)
    assert axis_set_diff([x], [("x", 4, 2)]) == [("x", 1, 4), ("x", 8, 2)]
    assert axis_set_diff([x], [("x", 1, 4)]) == [("x", 4, 4)]
    assert axis_set_diff([("x", 1, 2)], [x]) == []
    assert axis_set_diff([("y", 1, 2), x], [("y", 1, 2)]) == [x]


def test_distribute_axis_first_with_overflow() -> None:
    # factors 10 and 2 over "a"=4, "b"=2: "a":(1)2 to the first, "a":(2)2 to the second, "b" left.
    taken, overflow = distribute([10, 2], [("a", 1, 4), ("b", 1, 2)])
    assert taken == [[("a", 1, 2)], [("a", 2, 2)]]
    assert overflow == [("b", 1, 2)]
    # a (sub-)axis split over factors goes to the first with room, the rest to the next
    taken, overflow = distribute([4, 6144], [("x", 1, 2), ("x", 2, 3), ("y", 1, 4096)])
    assert taken == [[("x", 1, 2), ("y", 1, 2)], [("x", 2, 3), ("y", 2, 2048)]]
    assert overflow == []
