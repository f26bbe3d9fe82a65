"""The `xla` fixture (and `ods`, tt-mlir's TTNN op definitions): runs a StableHLO module text with XLA's CPU compiler (jaxlib), the oracle the
lowering's numbers are checked against. Skips the test when jax is not installed."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

from ttopt.testing.ods_specs import OdsSet, OdsUnavailable, load_ods


@pytest.fixture(scope="session")
def xla() -> Callable[[str, list[Any]], list[Any]]:
    """`xla(module_text, inputs)` -> the outputs of the module's `main` as numpy arrays."""
    jax = pytest.importorskip("jax")
    from jax._src.lib import xla_client

    device = jax.devices("cpu")[0]
    client = device.client
    cache: dict[str, Any] = {}

    def run(text: str, inputs: list[Any]) -> list[Any]:
        exe = cache.get(text)
        if exe is None:
            exe = cache[text] = client.compile_and_load(text, xla_client.DeviceList((device,)), xla_client.CompileOptions())
        outs = exe.execute([jax.device_put(np.asarray(x), device) for x in inputs])
        return [np.asarray(o) for o in outs]

    return run


@pytest.fixture(scope="module")
def ods() -> OdsSet:
    """tt-mlir HEAD's TTNN ODS read from the mirror; without a mirror the test is skipped."""
    try:
        return load_ods()
    except OdsUnavailable as e:
        pytest.skip(f"no tt-mlir mirror to read the ODS from: {e}")
