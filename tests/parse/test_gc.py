"""parse_module leaves the module's objects in the oldest GC generation, and nothing frozen."""

from __future__ import annotations

import gc

from bench.gen import generate
from ttopt.parse.parser import parse_module


def test_parsed_objects_are_not_left_in_the_youngest_generation() -> None:
    # Left there, the caller's next allocations would trigger a collection traversing them all.
    gc.collect()
    module = parse_module(generate("ttnn", 300, 1), "in.mlir")
    assert gc.get_count()[0] < 100
    assert gc.get_freeze_count() == 0
    assert sum(1 for _ in module.op.walk()) >= 300


def test_objects_the_process_froze_stay_frozen() -> None:
    gc.collect()
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        parse_module(generate("ttnn", 50, 1), "in.mlir")
        assert gc.get_freeze_count() > 0  # parse_module's unfreeze would have thawed them
    finally:
        gc.unfreeze()


def test_a_dropped_module_is_still_collected() -> None:
    text = generate("ttnn", 200, 1)
    parse_module(text, "in.mlir")  # module-level caches fill on the first parse
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(3):
        parse_module(text, "in.mlir")
    gc.collect()
    assert len(gc.get_objects()) < before + 500  # one module holds thousands
