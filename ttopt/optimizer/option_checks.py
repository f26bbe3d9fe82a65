"""Up-front checks of the ttnn-optimizer's option values (`TTNNOptimizer.validate`).

Everything that can be judged without the input is judged here, so a bad value is a usage error
(exit 2) whatever the input: the device flags (shared with `ttopt layouts` / `ttopt analyze`), the
policy, and the syntax of the override strings. An override grid must fit the device model's
limit here; whether it fits the worker grid of the device actually used (the input's system desc
wins over `--device`) is checked when the pass runs (driver.py, an error, exit 1).
"""

from __future__ import annotations

from typing import Any


def check_optimizer_options(p: Any) -> None:
    """Raise ValueError (one line) for the first option value the pass cannot honour."""
    from ttopt.device import DeviceError, check_device_options
    from ttopt.device.limits import MAX_GRID_DIM
    from ttopt.optimizer.conv2d_overrides import validate_conv2d_overrides
    from ttopt.optimizer.conv3d_config import parse_conv3d_config_overrides
    from ttopt.optimizer.overrides import (
        parse_conv2d_config_overrides,
        parse_mem_reconfig_overrides,
        parse_output_layout_overrides,
    )
    from ttopt.optimizer.policies import PolicyNotImplemented, get_policy

    try:
        check_device_options(p.device or None, p.tensor_l1_usage_cap, p.max_legal_layouts)
    except DeviceError as e:
        raise ValueError(e.message) from None
    if p.memory_layout_analysis_enabled:
        try:
            get_policy(p.memory_layout_analysis_policy)
        except PolicyNotImplemented as e:
            raise ValueError(f"--memory-layout-analysis-policy: {e}") from None
        except KeyError:
            raise ValueError(f"--memory-layout-analysis-policy: unknown policy '{p.memory_layout_analysis_policy}'") from None
    if p.cost_exact_max_ops < 0:
        raise ValueError(f"--cost-exact-max-ops must be >= 0, got {p.cost_exact_max_ops}")
    if not p.cost_time_limit > 0:
        raise ValueError(f"--cost-time-limit must be > 0 seconds, got {p.cost_time_limit}")
    if p.cost_beam_width < 1:
        raise ValueError(f"--cost-beam-width must be >= 1, got {p.cost_beam_width}")
    layouts = parse_output_layout_overrides(p.override_output_layout)
    parse_mem_reconfig_overrides(p.insert_memreconfig)
    validate_conv2d_overrides(parse_conv2d_config_overrides(p.override_conv2d_config))
    parse_conv3d_config_overrides(p.override_conv3d_config)
    for ov in layouts.values():
        check_override_grid(ov, (MAX_GRID_DIM, MAX_GRID_DIM), "the device model's limit")


def check_override_grid(ov: Any, grid: tuple[int, int], what: str) -> None:
    """An override grid must fit `grid` (rows x cols): no layout could match it, and the optimizer
    would fall back to DRAM without a word (OverrideError, a ValueError)."""
    from ttopt.optimizer.overrides import OverrideError

    g = ov.grid
    if g is not None and (g[0] > grid[0] or g[1] > grid[1]):
        raise OverrideError(
            f"--override-output-layout: '{ov.name}': grid {g[0]}x{g[1]} does not fit {what} ({grid[0]}x{grid[1]})"
        )
