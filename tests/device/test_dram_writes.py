"""DRAM-interleaved writes alone stream below the read stream (`dram_write_share`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ttopt.device.cost_terms import dram_stream_ns, params_for, stream_terms

BH = params_for("blackhole")
MB = 1 << 20
TILE = 1088  # a bfp8 tile


def test_blackhole_writes_alone_stream_below_its_reads_wormhole_as_fast() -> None:
    # Fitted on the DeepLabV3 capture: sharded -> DRAM takes ~1.25x DRAM -> sharded of one tensor.
    assert 0.7 < BH.dram_write_share < 0.95
    assert params_for("wormhole_b0").dram_write_share == 1.0


def test_a_write_only_conversion_is_bound_by_the_write_share() -> None:
    # An L1-sharded tensor written to DRAM pages, and the same tensor read from DRAM into shards.
    pages = MB / TILE
    write = stream_terms(BH, "layout", int(pages), 110, MB, pages, 0, write_dram_bytes=MB)
    read = stream_terms(BH, "layout", int(pages), 110, MB, pages, 0)
    assert read.dram_ns == pytest.approx(dram_stream_ns(BH, MB, pages, BH.dram_stream_gbps))
    assert write.dram_ns == pytest.approx(dram_stream_ns(BH, MB, pages, BH.dram_write_share * BH.dram_stream_gbps))
    assert write.dram_ns > read.dram_ns
    # Without the share (Wormhole's 1) the two directions cost the same.
    even = replace(BH, dram_write_share=1.0)
    assert stream_terms(even, "layout", int(pages), 110, MB, pages, 0, write_dram_bytes=MB).dram_ns == pytest.approx(read.dram_ns)


def test_an_op_that_reads_as_much_as_it_writes_is_not_bound_by_its_writes() -> None:
    # A DRAM -> DRAM relu moves its reads and writes together: the whole stream binds, not the writes.
    pages = 2 * MB / TILE
    relu = stream_terms(BH, "eltwise_unary", int(pages / 2), 110, 2 * MB, pages, 0, write_dram_bytes=MB)
    even = stream_terms(replace(BH, dram_write_share=1.0), "eltwise_unary", int(pages / 2), 110, 2 * MB, pages, 0, write_dram_bytes=MB)
    assert relu.dram_ns == pytest.approx(even.dram_ns)
