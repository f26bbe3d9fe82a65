"""PathSet::update, replaying seed 000 §3 ("PathSet::update() - The Core Constraint Filter")."""

from __future__ import annotations

from ttopt.optimizer.path_set import PathSet, bits, is_subset, mask_of


def test_seed000_pathset_update_example() -> None:
    """Seed 000 §3: producer %4 and consumer %5, four configs each, paths (0,0) (0,1) (1,2) (2,3).

    The seed's end states hold; two of its intermediate literals do not, because they contradict the
    code it quotes (asserted below with the values the quoted code computes):
    * first update: the seed claims validProducerSet = 0b1101 / validConsumerSet = 0b1111 and
      "Return: false"; but producer config 3 has no path and consumer config 2's only path (1,2) was
      just removed, so the valid sets are 0b0101 / 0b1011 and both bitsets narrow (True);
    * second update: the seed writes validProducerSet = 0b0011 "(configs 0,2)"; only (0,0) and
      (0,1) survive, so it is 0b0001 (config 0), which is the seed's own result ("only config0 left!").
    """
    bitsets = [0b1111, 0b1111]
    ps = PathSet(0, 1, "%4", "%5", [(0, 0), (0, 1), (1, 2), (2, 3)])

    # "After some constraint eliminated %4 config1"
    bitsets[0] = 0b1101
    assert ps.update(bitsets) is True
    assert ps.paths == [(0, 0), (0, 1), (2, 3)]  # Path(1,2) removed, as the seed says
    assert bitsets == [0b0101, 0b1011]

    # "Later, %5 config3 eliminated"
    bitsets[1] &= ~0b1000
    assert ps.update(bitsets) is True  # seed: "Return: true (producer bitset changed)"
    assert ps.paths == [(0, 0), (0, 1)]  # seed: Path(2,3) -> REMOVE
    assert bitsets[0] == 0b0001  # seed: "producer bitset ... -> 0b0001 (only config0 left!)"
    assert bitsets[1] == 0b0011

    # A consistent state is a fixed point.
    assert ps.update(bitsets) is False


def test_seed000_empty_producer_removes_every_path() -> None:
    """Seed 000 §6: "If %4's bitset was constrained ... bitsets[0] = 0 -> paths.empty() -> FAIL"."""
    bitsets = [0b1, (1 << 2) | (1 << 5)]
    ps = PathSet(0, 1, "%4", "%5", [(0, 2), (0, 5)])
    assert ps.update(bitsets) is False
    bitsets[1] = 1 << 2  # "%5's bitset later constrained to only config2": Path(0,5) removed, no change
    assert ps.update(bitsets) is False and ps.paths == [(0, 2)]
    bitsets[0] = 0
    ps.update(bitsets)
    assert ps.empty


def test_bit_helpers() -> None:
    assert bits(0b101001) == [0, 3, 5]
    assert mask_of([0, 3, 5]) == 0b101001
    assert is_subset(0b0101, 0b1101) and not is_subset(0b1101, 0b0101)
    assert bits(1 << 700) == [700]  # no 512-config ceiling (DECISIONS.md)
