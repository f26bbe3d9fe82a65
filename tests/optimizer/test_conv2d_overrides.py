"""`--override-conv2d-config` (reference §2.14, §2.4): every key's values checked, the override
applied on the conv's base config, overridden fields pinned (not searched), a full override
short-circuiting the search."""

from __future__ import annotations

import pytest

from ttopt.device.conv2d_config import CONV2D_SEARCH_SPACE, Conv2dConfig
from ttopt.optimizer.conv2d_overrides import CONV2D_OVERRIDE_KEYS, Conv2dOverride, parse_conv2d_overrides
from ttopt.optimizer.overrides import CONV2D_KEYS, OverrideError

GOOD = {
    "weights_dtype": ("bfp_bf8", "bfp_bf8"),
    "activation": ("relu", "<op_type = relu>"),
    "deallocate_activation": ("false", "false"),
    "reallocate_halo_output": ("true", "true"),
    "act_block_h_override": ("64", "64"),
    "act_block_w_div": ("2", "2"),
    "reshard_if_not_optimal": ("true", "true"),
    "override_sharding_config": ("false", "false"),
    "shard_layout": ("block_sharded", "block_sharded"),
    "core_grid": ("2x4", "#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (3, 1)>]>"),
    "transpose_shards": ("false", "false"),
    "output_layout": ("row_major", "row_major"),
    "enable_act_double_buffer": ("true", "true"),
    "enable_weights_double_buffer": ("false", "false"),
}
BAD = {
    "weights_dtype": "int4",
    "activation": "swish",
    "deallocate_activation": "yes",
    "reallocate_halo_output": "1",
    "act_block_h_override": "48",
    "act_block_w_div": "0",
    "reshard_if_not_optimal": "True",
    "override_sharding_config": "",
    "shard_layout": "interleaved",
    "core_grid": "8",
    "transpose_shards": "no",
    "output_layout": "tiled",
    "enable_act_double_buffer": "on",
    "enable_weights_double_buffer": "-1",
}


def test_every_upstream_key_has_a_check() -> None:
    assert tuple(CONV2D_OVERRIDE_KEYS) == CONV2D_KEYS == tuple(GOOD) == tuple(BAD)


@pytest.mark.parametrize("key", list(GOOD))
def test_good_values(key: str) -> None:
    raw, text = GOOD[key]
    ov = parse_conv2d_overrides([f"conv={key}#{raw}"])["conv"]
    assert ov.values == ((key, text),)


@pytest.mark.parametrize("key", list(BAD))
def test_bad_values(key: str) -> None:
    raw = BAD[key]
    with pytest.raises(OverrideError) as e:
        parse_conv2d_overrides([f"conv={key}#{raw}"])
    msg = str(e.value)
    assert msg.startswith("--override-conv2d-config: 'conv': ")
    if raw:  # an empty value is a malformed key#value
        assert f"bad value '{raw}' for {key} (expected " in msg


def test_unknown_key_and_shape_errors() -> None:
    with pytest.raises(OverrideError, match="unknown key 'act_block_h'"):
        parse_conv2d_overrides(["conv=act_block_h#32"])
    with pytest.raises(OverrideError, match="expected key#value"):
        parse_conv2d_overrides(["conv=act_block_h_override"])
    with pytest.raises(OverrideError, match="key 'activation' given twice"):
        parse_conv2d_overrides(["conv=activation#relu:activation#silu"])


def test_apply_and_pin() -> None:
    ov = parse_conv2d_overrides(["conv=act_block_h_override#64:activation#relu:deallocate_activation#false"])["conv"]
    base = Conv2dConfig(weights_dtype="bf16", deallocate_activation=True, extra=(("activation", "<op_type = silu>"),))
    cfg = ov.apply(base)
    assert (cfg.act_block_h_override, cfg.deallocate_activation, cfg.weights_dtype) == (64, False, "bf16")
    assert dict(cfg.extra) == {"activation": "<op_type = relu>"}
    assert cfg.to_attr().text == (
        "#ttnn.conv2d_config<weights_dtype = bf16, activation = <op_type = relu>, deallocate_activation = false, "
        "act_block_h_override = 64>"
    )
    assert ov.search_space() == {}  # both searched fields are pinned
    only = parse_conv2d_overrides(["conv=activation#relu"])["conv"]
    assert only.search_space() == dict(CONV2D_SEARCH_SPACE)


def test_full_override_short_circuits() -> None:
    body = ":".join(f"{k}#{raw}" for k, (raw, _) in GOOD.items())
    ov = parse_conv2d_overrides([f"conv={body}"])["conv"]
    assert ov.is_full and ov.search_space() == {}
    cfg = ov.apply(Conv2dConfig())
    assert cfg.reshard_if_not_optimal and cfg.shard_layout == "block_sharded" and cfg.act_block_h_override == 64
    # Printed in tt-mlir's parameter order whatever order the user gave.
    keys = [k for k, _ in cfg.to_attr().params]
    assert keys == list(CONV2D_KEYS)


def test_legal_configs_follow_the_override(make_fn, root) -> None:
    """The conv's legal configs: without an override the search space (act_block_h 0, 64, 32);
    with act_block_h_override#32 only 32, and every config carries the override's activation."""
    text = (root / "testdata/optimizer/conv2d_chain.mlir").read_text()
    fn = make_fn(text)
    conv = next(op for op in fn.ops if op.name == "ttnn.conv2d")
    assert {c.conv2d.act_block_h_override for c in fn.analyses.legal[conv].configs} == {0, 64, 32}

    from ttopt.device import OpModel, load_device
    from ttopt.optimizer.analyses import AnalysisPipeline

    ov = parse_conv2d_overrides(["conv=act_block_h_override#32:activation#relu"])
    device = load_device(None, fn.module)
    analyses = AnalysisPipeline(device, OpModel(device), conv2d_overrides=ov)
    analyses.run(fn.ops, fn.labels)
    cfgs = analyses.legal[conv].configs
    assert cfgs and {c.conv2d.act_block_h_override for c in cfgs} == {32}
    assert all(dict(c.conv2d.extra)["activation"] == "<op_type = relu>" for c in cfgs)
    assert all(c.conv2d.deallocate_activation for c in cfgs)  # still searched: {true}


def test_override_dataclass_text() -> None:
    ov = Conv2dOverride("conv", (("act_block_h_override", "32"),))
    assert ov.text() == "conv=act_block_h_override#32" and not ov.is_full
