"""Device model, analytic op model and cost model (OP-MODEL.md): what lets ttopt optimize TTNN
layouts with no hardware. Everything here is a model, not a measurement.

Public API used by the optimizer:

* `load_device(spec, module, cap)` -> `Device` (worker grid, `usable_l1`, cost parameters)
* `layout_pool(shape, dtype, worker_grid, row_major_enabled)` -> `LayoutPool` (`.op_layouts(n)`)
* `candidate_configs(op, device, max_legal_layouts, row_major_enabled)` -> `[OpConfig]`
* `OpModel(device).validate(op, input_layouts, config, additional_l1)` -> `ValidationResult`
* `CostModel(device).op_cost(op, input_layouts, output_layout)` -> `OpCost`; `.module_cost(module)`
"""

from ttopt.device.conv2d_config import CONV2D_SEARCH_SPACE, Conv2dConfig, conv2d_search_space
from ttopt.device.cost_model import CostModel, CostParams, FunctionCost, OpCost
from ttopt.device.device import Device, DeviceError, check_device_options, load_device, preset
from ttopt.device.layout_info import LayoutInfo, layout_info
from ttopt.device.layout_pool import LayoutPool, layout_pool
from ttopt.device.legal_configs import candidate_configs
from ttopt.device.matmul_config import MatmulProgramConfig, derive_program_config, matmul_dims
from ttopt.device.op_config import NO_HINT, OpConfig, PartialLayout
from ttopt.device.op_families import OP_FAMILIES, Family, family_of
from ttopt.device.op_model import L1Usage, OpModel, Status, ValidationResult, op_model, validate
from ttopt.device.tensor import TensorDesc, TensorTypeError, parse_tensor_type

__all__ = [
    "CONV2D_SEARCH_SPACE", "Conv2dConfig", "conv2d_search_space", "CostModel", "CostParams", "FunctionCost",
    "OpCost", "Device", "DeviceError", "check_device_options", "load_device", "preset", "LayoutInfo", "layout_info", "LayoutPool",
    "layout_pool", "candidate_configs", "MatmulProgramConfig", "derive_program_config", "matmul_dims",
    "NO_HINT", "OpConfig", "PartialLayout", "OP_FAMILIES", "Family", "family_of", "L1Usage", "OpModel",
    "Status", "ValidationResult", "op_model", "validate", "TensorDesc", "TensorTypeError", "parse_tensor_type",
]  # fmt: skip
