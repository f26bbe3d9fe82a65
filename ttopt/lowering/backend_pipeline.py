"""`ttir-to-ttnn-backend-pipeline`: TTIR in, an optimized TTNN program out, with tt-mlir's option
names, so its optimizer tests' RUN lines work as written:

    ttopt opt m.mlir --ttir-to-ttnn-backend-pipeline="enable-optimizer=true memory-layout-analysis-enabled=true"

Steps: `stablehlo-to-ttir-pipeline` when StableHLO ops are left (a JAX module, or the sharding
pipeline's output without `lower-compute`: composites, inlining, `convert-stablehlo-to-ttir`),
`ttcore-mark-functions-as-forward`, `ttcore-register-device`, `canonicalize` (TTIR folds: tt-mlir canonicalizes before and after
its TTIR fusing), `ttir-quant-dequant-conversion` (dequantizes moved below the ops with a quantized
form; `enable-quant-dequant-conversion-pass=false` skips it), `ttir-fusing`, `canonicalize`,
`ttir-implicit-broadcast-fold` (explicit broadcasts folded into the elementwise ops that read
them; `enable-implicit-broadcast-folding-pass=false` skips it), `ttir-propagate-weight-dtype` (a
weight argument's `ttcore.weight_dtype` onto its matmuls), `ttir-flatten-sliding-window`
(convs and pools on 1x1x(N*H*W)xC between reshapes), `ttir-explicate-tms` and
`ttir-erase-inverse-ops` (permutes and reshapes moved until they meet their inverse and fold;
`enable-erase-inverse-ops-pass=false` skips both), `ttir-implicit-broadcast-fold` and `ttir-fusing`
again, `ttir-fold-full-to-scalar` (a full / zeros / ones read only by elementwise ops becomes one element),
`ttir-consolidate-static-cache-updates` (per-layer cache-position arguments advanced alike become
one) and `cse`, `convert-ttir-to-ttnn` (TTNN ops, tiled
DRAM-interleaved layouts, input arguments row-major and tiled in the function; mesh_shards and
collectives convert there too, to HEAD's distribute/aggregate_tensor, collective and
point_to_point ops), `ttnn-fusing`, `ttnn-workaround` (data-type and page-layout changes around
ops whose kernels take fewer, and HEAD's decompositions, the Blackhole paged SDPA decode program
config among them; `disable-workarounds=true` skips it) with `canonicalize` and `cse`, `ttnn-set-compute-kernel-config`, with
the optimizer const-eval, `ttnn-create-d2m-subgraphs` when asked, `ttnn-rm-layout-propagation`,
`ttnn-decompose-layouts`, `ttnn-optimizer`, the validation and `ttnn-decompose-layouts` again
(else `ttnn-decompose-layouts` alone), the D2M compilation, const-eval, `canonicalize` (typecast
chains merge, conversions that undo each other go), `ttnn-deallocate`.

| option | optimizer |
|---|---|
| `optimization-level=0` (default) | off (unless `enable-optimizer=true`) |
| `optimization-level=1` | on, every op DRAM interleaved with its op config (no memory layout analysis) |
| `optimization-level=2` | on, with memory layout analysis (default policy CostBased: the fastest by ttopt's own bench, `bench/optimizer.py`; it keeps the input when no plan is estimated faster) |
| `enable-optimizer=true` | on; `memory-layout-analysis-enabled` decides the analysis |
| `enable-greedy-optimizer=true` | memory layout analysis with the CostBased policy (ttopt's answer to tt-mlir's greedy optimizer) |

`max-legal-layouts`, `override-output-layout`, `insert-memreconfig`, `memreconfig-enabled`,
`row-major-enabled`, `memory-layout-analysis-policy`, `tensor-l1-usage-cap` go to the optimizer as
they are; `system-desc-path` is its `device`; the `compute-cfg-*` options (math fidelity,
math-approx-mode, fp32-dest-acc-en, packer-l1-acc, dst-full-sync-en) are `ttnn-set-compute-kernel-config`'s,
run after the workarounds: they fill the compute config of every op that has one where the op does
not set the knob (compute_config.py; the cost model reads them). Fidelity and fp32 accumulation not
given are HiFi4 and true at `optimization-level=0`, unset above it, as in tt-mlir. `mesh-shape` must agree
with the module's `ttcore.meshes` (the sharding pipeline's mesh; none means 1x1), as tt-mlir's
determineMeshShape requires, so one `--mesh-shape` flag serves the sharding and backend pipelines.
The ttnn-optimizer options `verify-l1-budget`, `l1-interleaved-fallback-analysis-enabled`,
`override-conv2d-config`, `override-conv3d-config`, `chain-merging` and `cost-*` are handed to it (a usage error when the
optimizer does not run). `const-eval-hoist-transform` runs after the optimizer (const_eval.py):
conv2d weights are prepared when the optimizer ran, dead constants are erased, and under
`enable-const-eval` (default true, as tt-mlir) constant and parameter subgraphs move to
`@<func>_const_eval_N` functions read through `ttcore.load_cached`. `enable-fusing-pass` (default
true, as tt-mlir) runs `ttir-fusing` before the conversion and `ttnn-fusing` after it (RoPE at
every level; decode RoPE, decode concat-heads and RMS norm + activation when the optimizer runs).
`enable-const-eval-inputs-to-system-memory` (default true) hands const-eval-only arguments over on
the host. `enable-trace` captures the forward function in a trace (`ttnn-trace-hoist-transform`,
trace.py) after the last const-eval. `experimental-kv-cache-dtype` / `experimental-weight-dtype`
store KV caches / parameter-only matmul weights as block-float tensors (kv_cache_dtype.py,
weight_dtype.py; `ttir-infer-kv-cache-argument-types` always marks the caches, and
`ttnn-weight-dtype-conversion` always runs: a matmul's own `ttcore.weight_dtype` wins over the option).
`composite-resolution` picks how `ttnn-resolve-composites` resolves `ttcore.composite` after the
conversion (resolve_composites.py); a canonicalize follows it, as in tt-mlir. The TTIR fusion switches (`enable-fusing-conv2d-with-multiply-pattern`,
`enable-permute-matmul-fusion`, `enable-permute-slice-after-matmul-fusion`) go to `ttir-fusing` when it declares them.
`mock-system-desc-arch` names the device preset when there is no `system-desc-path`.
`enable-create-d2m-subgraphs` outlines eltwise chains into `ttnn.d2m_subgraph` before the optimizer
and compiles them into `ttnn.generic` ops after it (lowering/d2m/).

Host code (cpu_hoist.py): ops tagged `ttir.should_hoist` always, and under
`enable-cpu-hoisted-const-eval=true` the const-eval subgraphs (hoisted in TTIR first, as tt-mlir's
common pipeline does), move to host functions of a `ttcore.cpu_module`, called from the device
program in 32-bit types. The runtime steps lower that module to LLVM (`convert-cpu-module-to-llvm`,
tt-mlir's ttnn-common-to-runtime-pipeline). The default is tt-mlir's (`true`);
`enable-cpu-hoisted-const-eval=false` keeps const-eval on the device.

The target device is registered first (`ttcore-register-device`: `system-desc-path`, else the
module's system desc, else `mock-system-desc-arch`) and every program is wrapped in
`ttcore.device_module` last, as tt-mlir wraps it: its flatbuffer translation reads the system desc
and the `ttcore.device` symbol in that inner module.

`ttir-to-ttnn-common-pipeline` is the same pipeline without the runtime steps: the CPU module stays
TTIR, as tt-mlir's common pipeline leaves it for its ttnn-common-to-runtime-pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterator

from ttopt.device.presets import CHIP_PRESETS
from ttopt.ir.diagnostics import Diagnostic, op_position
from ttopt.lowering.compute_config import FIDELITY_CHOICES, TRISTATE, TTNNSetComputeKernelConfig
from ttopt.lowering.device_module import TTCoreWrapDeviceModule, cpu_inner_module, device_inner_module
from ttopt.lowering.ttcore_device import MOCK_ARCHS, SYSTEM_DESC
from ttopt.lowering.weight_dtype import TTNNWeightDtypeConversion
from ttopt.optimizer.policies import DEFAULT_POLICY, policy_names
from ttopt.passes.base import Pass, option
from ttopt.passes.manager import PipelinePass, PipelineStep
from ttopt.passes.registry import get_pass, register_pass

if TYPE_CHECKING:
    from ttopt.ir.module import Module

BFP_DTYPES = ("none", "bfp_bf8", "bfp_bf4")


@register_pass
@dataclass
class TTIRToTTNNBackendPipeline(PipelinePass):
    """TTIR -> TTNN (layouts, op conversion), the ttnn-optimizer when asked, deallocation."""

    name = "ttir-to-ttnn-backend-pipeline"
    summary = "TTIR to an optimized TTNN program: convert-ttir-to-ttnn, ttnn-optimizer (optimization-level / enable-optimizer), ttnn-deallocate"
    runtime_steps: ClassVar[bool] = True  # the CPU module lowered to LLVM (tt-mlir's ttnn-common-to-runtime-pipeline)

    optimization_level: int = option(0, "0: no optimizer; 1: optimizer without memory layout analysis; 2: with it")
    enable_optimizer: bool = option(False, "Run the ttnn-optimizer (memory-layout-analysis-enabled decides the analysis)")
    enable_greedy_optimizer: bool = option(False, "Memory layout analysis with the CostBased policy")
    memory_layout_analysis_enabled: bool = option(False, "Enable the memory layout policy (L1 chains); without it every op gets its first legal config (DRAM interleaved)")
    memory_layout_analysis_policy: str = option(DEFAULT_POLICY, "Memory layout policy (default CostBased, the fastest by bench/optimizer.py; DFSharding is tt-mlir's optimization-level=2 policy)", choices=policy_names())
    max_legal_layouts: int = option(8, "Sharded layouts considered per op (0: no L1 sharding)")
    override_output_layout: list[str] = option([], "NAME=p1:p2,... with grid AxB, dram/l1, interleaved/height_sharded/width_sharded/block_sharded, tile/row_major, dtype")
    insert_memreconfig: list[str] = option([], "NAME=idx[:idx...]: reshard these operands of op NAME")
    memreconfig_enabled: bool = option(True, "Insert the reshards the solver asks for")
    row_major_enabled: bool = option(False, "Also consider row-major layouts")
    tensor_l1_usage_cap: float | None = option(None, "Fraction of L1 usable by tensors, in (0, 1] (default 1.0, or the module's ttnn.tensor_l1_usage_cap)")
    system_desc_path: str = option("", "Device preset (wormhole_b0, n150, blackhole) or system-desc file, when the module has no ttcore.system_desc")
    compute_cfg_math_fidelity: str = option("", "math_fidelity of every op with a compute config that does not set it (matmul, linear, conv, reductions, softmax, norms, ...; undefined: tt-metal's; default hifi4 at optimization-level=0, else undefined)", choices=FIDELITY_CHOICES)
    compute_cfg_math_approx_mode: str = option("unset", "math_approx_mode of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    compute_cfg_fp32_dest_acc_en: str = option("", "fp32_dest_acc_en of every op with a compute config that does not set it (unset: tt-metal's; default true at optimization-level=0, else unset)", choices=TRISTATE)
    compute_cfg_packer_l1_acc: str = option("unset", "packer_l1_acc of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    compute_cfg_dst_full_sync_en: str = option("unset", "dst_full_sync_en of every op with a compute config that does not set it (unset: tt-metal's)", choices=TRISTATE)
    mesh_shape: list[int] = option([], "Device mesh AxB; must equal the module's ttcore.meshes when it has one (the sharding pipeline's mesh), else 1,1")
    enable_fusing_pass: bool = option(True, "ttir-fusing before convert-ttir-to-ttnn (cost-checked) and ttnn-fusing after it (activations, RoPE, decode heads, norm + activation)")
    enable_quant_dequant_conversion_pass: bool = option(True, "ttir-quant-dequant-conversion before ttir-fusing: dequantizes commuted below the ops with a quantized form (tt-mlir's TTIRQuantDequantConversion)")
    enable_const_eval: bool = option(True, "Hoist what depends only on constants and parameter/constant arguments into const-eval functions")
    enable_const_eval_inputs_to_system_memory: bool = option(True, "With const-eval: arguments read only by const-eval functions arrive in system memory (row-major) and the const-eval functions move them to the device")
    deallocate: bool = option(True, "Insert ttnn.deallocate after the last use of every intermediate tensor")
    # ttnn-optimizer options handed on as they are (an error when the optimizer does not run).
    verify_l1_budget: bool = option(False, "[optimizer] After the rewrite, replay the schedule and fail at the first position whose L1 use exceeds the budget")
    l1_interleaved_fallback_analysis_enabled: bool = option(False, "[optimizer] Upgrade single-use DRAM ops feeding the next op to L1 interleaved where the op model accepts it")
    override_conv2d_config: list[str] = option([], "[optimizer] NAME=key#value:key#value: conv2d_config keys of conv op NAME")
    chain_merging: bool = option(True, "[optimizer] DFSharding 2.0: keep chain outputs in L1; false restores DFSharding 1.0")
    cost_exact_max_ops: int = option(200, "[optimizer] CostBased: solve functions with at most this many decisions exactly")
    cost_time_limit: float = option(10.0, "[optimizer] CostBased: time limit of the exact solver per function, in seconds")
    cost_beam_width: int = option(64, "[optimizer] CostBased: states kept per step of the beam search")
    max_fallback_attempts: int = option(0, "Fallback combinations ttnn-operation-validation-and-fallback tries per failing op after the optimizer (0: all)")
    # tt-mlir's pipeline options ttopt accepts with their values that match what it does; any
    # other value is a usage error naming the option (UNSUPPORTED_VALUES).
    mock_system_desc_arch: str = option("wormhole_b0", "Device preset used without system-desc-path (tt-mlir's mock system desc arch)", choices=MOCK_ARCHS)
    enable_cpu_hoisted_const_eval: bool = option(True, "Run const-eval subgraphs on the host: hoisted in TTIR to a ttcore.cpu_module in 32-bit types, lowered to LLVM, as tt-mlir's default; false: on the device")
    enable_trace: bool = option(False, "Capture each forward function's device computation in a trace (ttnn-trace-hoist-transform), replayed by ttnn.capture_or_execute_trace")
    experimental_weight_dtype: str = option("none", "Block-float dtype of parameter-only matmul/linear weights (ttnn-weight-dtype-conversion, hoisted by const-eval; none: unchanged)", choices=BFP_DTYPES)
    experimental_kv_cache_dtype: str = option("none", "Block-float dtype of the KV cache arguments (ttnn-kv-cache-dtype-conversion; none: unchanged)", choices=BFP_DTYPES)
    enable_ttnn_decomposition_pass: bool = option(True, "tt-mlir's TTNN decomposition: group norms become mean / variance primitives (all of them at optimization-level=0, those whose per-sample height is not whole tiles with the optimizer)")
    enable_erase_inverse_ops_pass: bool = option(True, "ttir-explicate-tms + ttir-erase-inverse-ops before the conversion: permutes and reshapes moved until they meet their inverse and fold (tt-mlir's TTIREraseInverseOps)")
    enable_implicit_broadcast_folding_pass: bool = option(True, "A broadcast read only by elementwise ops becomes their implicit broadcast (tt-mlir's TTIRImplicitBroadcastFold); false keeps it a ttnn.repeat")
    enable_create_d2m_subgraphs: bool = option(False, "Outline maximal eltwise chains into ttnn.d2m_subgraph (ttnn-create-d2m-subgraphs) before the optimizer, then compile each into ttnn.generic ops with generated kernels (ttnn-through-d2m-pipeline, ttnn-collaspe-d2m); turns the optimizer on")
    enable_d2m_elementwise_fusion: bool | None = option(None, "With enable-create-d2m-subgraphs: one fused compute kernel per subgraph (default true then); false compiles each eltwise op into its own ttnn.generic")
    enable_permute_matmul_fusion: bool = option(False, "ttir-fusing: read a matmul / linear operand's transpose(-1, -2) permute as its transpose flag (tt-mlir's PermuteMatmulFusionPattern)")
    enable_permute_slice_after_matmul_fusion: bool = option(True, "ttir-fusing: move a slice of a matmul / linear output onto the operand producing the sliced dimension (tt-mlir's PermuteSliceAfterMatmulPattern)")
    enable_fusing_conv2d_with_multiply_pattern: bool | None = option(None, "ttir-fusing: fold a constant per-channel multiply, or a batch norm, of a conv into its weight and bias (default: on from optimization-level=1, as tt-mlir)")
    disable_workarounds: bool = option(False, "Skip ttnn-workaround (the data-type and page-layout changes around ops whose kernels take fewer)")
    enable_layout_workaround_pass: bool = option(True, "ttnn-workaround: the operand workarounds (data types and page layouts; from optimization-level=1 page layouts only for the ops tt-mlir lists)")
    enable_decomposition_workaround_pass: bool = option(True, "ttnn-workaround: the decomposition workarounds")
    composite_resolution: str = option("auto", "How ttcore.composite ops resolve (ttnn-resolve-composites): auto / inline / validate inline the decomposition (ttopt validates no composite against an op model); force-promote builds the typed op", choices=("auto", "inline", "validate", "force-promote"))
    override_conv3d_config: list[str] = option([], "[optimizer] NAME=key#value:key#value: conv3d_config keys of conv3d op NAME, over the _DEFAULT_BLOCKINGS heuristic")

    def validate(self) -> None:
        """Option values are checked before any input is read (usage error, exit 2)."""
        for spec in self.option_specs():
            why = UNSUPPORTED_VALUES.get(spec.name)
            if why is not None and getattr(self, spec.attr) != spec.default:
                value = getattr(self, spec.attr)
                shown = ",".join(map(str, value)) if isinstance(value, list) else str(value).lower() if isinstance(value, bool) else value
                raise ValueError(f"{spec.name}={shown}: {why}")
        if not self.system_desc_path and self.mock_system_desc_arch not in CHIP_PRESETS:
            raise ValueError(f"mock-system-desc-arch={self.mock_system_desc_arch}: ttopt has no {self.mock_system_desc_arch} chip preset ({', '.join(CHIP_PRESETS)})")
        if self.enable_d2m_elementwise_fusion and not self.enable_create_d2m_subgraphs:
            raise ValueError("enable-d2m-elementwise-fusion=true requires enable-create-d2m-subgraphs to be enabled")
        if self.optimization_level not in (0, 1, 2):
            raise ValueError(f"optimization-level must be 0, 1 or 2, got {self.optimization_level}")
        if self.mesh_shape and (len(self.mesh_shape) not in (1, 2) or any(int(d) < 1 for d in self.mesh_shape)):
            raise ValueError(f"mesh-shape must be one or two positive sizes (AxB), got {','.join(map(str, self.mesh_shape))}")
        if not self.optimizer_enabled():
            given = [s.name for s in self.option_specs() if s.name in OPTIMIZER_ONLY and getattr(self, s.attr) != s.default]
            if given:
                raise ValueError(f"{given[0]} is an option of the ttnn-optimizer, which does not run here "
                                 "(optimization-level=0 and enable-optimizer=false)")  # fmt: skip
        if self.memory_layout_analysis_policy not in policy_names():
            raise ValueError(f"memory-layout-analysis-policy: unknown policy '{self.memory_layout_analysis_policy}' "
                             f"(one of {', '.join(policy_names())})")  # fmt: skip
        fusing = get_pass("ttir-fusing")
        declared = {spec.name for spec in fusing.option_specs()} if fusing is not None else set()
        for attr, name in FUSING_SWITCHES.items():
            if self._switch(attr) and name not in declared:
                raise ValueError(f"{attr.replace('_', '-')}=true: ttir-fusing has no {name} pattern (the fusion is not in ttopt)")
        if self.max_legal_layouts < 0:
            raise ValueError(f"max-legal-layouts must be >= 0, got {self.max_legal_layouts}")
        self.optimizer().validate()

    def optimizer_enabled(self) -> bool:
        """Whether the pipeline runs the ttnn-optimizer."""
        # D2M subgraphs need the optimizer (tt-mlir turns it on for enable-create-d2m-subgraphs).
        return self.enable_optimizer or self.optimization_level >= 1 or self.enable_greedy_optimizer or self.enable_create_d2m_subgraphs

    def optimizer(self) -> Pass:
        """The ttnn-optimizer as this pipeline's options configure it."""
        cls = get_pass("ttnn-optimizer")
        assert cls is not None
        p = self.configured(cls)
        analysis = self.memory_layout_analysis_enabled or self.optimization_level >= 2 or self.enable_greedy_optimizer
        policy = "CostBased" if self.enable_greedy_optimizer else self.memory_layout_analysis_policy
        return cls.from_options({**_options_of(p), "memory-layout-analysis-enabled": analysis,
                                 "memory-layout-analysis-policy": policy, "device": self.system_desc_path or self.mock_system_desc_arch})  # fmt: skip

    def register_device(self) -> Pass:
        """ttcore-register-device with this pipeline's system desc and mesh."""
        cls = get_pass("ttcore-register-device")
        assert cls is not None
        return cls.from_options({"system-desc-path": self.system_desc_path, "mock-system-desc-arch": self.mock_system_desc_arch,
                                 "mesh-shape": self.mesh_shape})  # fmt: skip

    def ttir_fusing(self) -> Pass:
        """ttir-fusing with the pattern switches this pipeline hands it (those it declares)."""
        cls = get_pass("ttir-fusing")
        assert cls is not None
        declared = {spec.name for spec in cls.option_specs()}
        return cls.from_options({fusing: self._switch(attr) for attr, fusing in FUSING_SWITCHES.items() if fusing in declared})

    def _switch(self, attr: str) -> bool:
        """A TTIR fusion switch; the conv-with-multiply one not given follows the level (on from 1, as tt-mlir)."""
        value = getattr(self, attr)
        if value is None:
            return self.optimization_level >= 1
        return bool(value)

    def resolve_composites(self) -> Pass:
        """ttnn-resolve-composites in this pipeline's composite-resolution mode, for its chip's architecture."""
        cls = get_pass("ttnn-resolve-composites")
        assert cls is not None
        preset = CHIP_PRESETS.get(self.system_desc_path or self.mock_system_desc_arch)
        arch = preset.arch if preset is not None else self.mock_system_desc_arch
        return cls.from_options({"composite-resolution": self.composite_resolution, "arch": arch})

    def ttnn_fusing(self) -> Pass:
        """`ttnn-fusing` with RoPE on (HEAD fuses it in TTIR at every level) and the op-constraint
        patterns when the optimizer runs (HEAD runs them inside its optimizer's device passes)."""
        cls = get_pass("ttnn-fusing")
        assert cls is not None
        return cls.from_options({"enable-rope-fusion": True, "enable-op-constraints": self.optimizer_enabled()})

    def workarounds(self) -> Pass:
        """ttnn-workaround with this pipeline's switches and optimization level (tt-mlir forwards the level)."""
        cls = get_pass("ttnn-workaround")
        assert cls is not None
        return cls.from_options({"ttnn-enable-layout-workaround-pass": self.enable_layout_workaround_pass,
                                 "ttnn-enable-decomposition-workaround-pass": self.enable_decomposition_workaround_pass,
                                 "ttnn-optimization-level": self.optimization_level})  # fmt: skip

    def validation(self) -> Pass:
        """ttnn-operation-validation-and-fallback with this pipeline's max-fallback-attempts."""
        cls = get_pass("ttnn-operation-validation-and-fallback")
        assert cls is not None
        return cls.from_options({"max-fallback-attempts": self.max_fallback_attempts})

    def const_eval(self, prepare: bool = True) -> Pass:
        """const-eval-hoist-transform: conv2d weights prepared when the optimizer runs (as tt-mlir
        prepares them inside its optimizer passes), dead constants erased, hoisting under
        enable-const-eval."""
        cls = get_pass("const-eval-hoist-transform")
        assert cls is not None
        return cls.from_options({"prepare-conv2d-weights": prepare and self.optimizer_enabled(), "hoist": self.enable_const_eval})

    def d2m_compile(self) -> Pass:
        """ttnn-through-d2m-pipeline with enable-d2m-elementwise-fusion (default true, as tt-mlir resolves it)."""
        cls = get_pass("ttnn-through-d2m-pipeline")
        assert cls is not None
        return cls.from_options({"enable-elementwise-fusion": self.enable_d2m_elementwise_fusion is not False})

    def convert(self) -> Pass:
        """convert-ttir-to-ttnn with the implicit-broadcast fold on or off (HEAD's common pipeline
        runs TTIRImplicitBroadcastFold only when enable-implicit-broadcast-folding-pass is set)."""
        cls = get_pass("convert-ttir-to-ttnn")
        assert cls is not None
        # HEAD's TTNN decomposition: without the op model every group norm decomposes; with it
        # (the optimizer on) only those the fused kernel gets wrong.
        decompose = "none" if not self.enable_ttnn_decomposition_pass else "non-tile-aligned" if self.optimizer_enabled() else "all"
        return cls.from_options({"enable-implicit-broadcast-folding-pass": self.enable_implicit_broadcast_folding_pass,
                                 "group-norm-decomposition": decompose})  # fmt: skip

    def steps(self, module: Module) -> Iterator[PipelineStep]:
        """ttir-fusing, convert-ttir-to-ttnn, ttnn-fusing, ttnn-optimizer, const-eval, ttnn-deallocate."""
        self._check_mesh(module)
        n = 1
        # The device program's StableHLO only: the CPU fallback's host functions hold StableHLO
        # that convert-cpu-module-to-llvm lowers.
        if any(op.name.startswith(("stablehlo.", "chlo.")) for f in module.functions() for op in f.walk()):
            yield PipelineStep(0, "stablehlo-to-ttir-pipeline", _new("stablehlo-to-ttir-pipeline"))
        # Every public function without a type is a forward device function from here on (tt-mlir's first step).
        yield PipelineStep(n, "ttcore-mark-functions-as-forward", _new("ttcore-mark-functions-as-forward"))
        # The target device goes into the program (tt-mlir's flatbuffer translation reads it there);
        # unless the input had one, it ends up in the device module only, where tt-mlir registers it.
        registered = SYSTEM_DESC not in device_inner_module(module).attributes or bool(self.system_desc_path)
        yield PipelineStep(n, "ttcore-register-device", self.register_device())
        yield PipelineStep(n, "ttir-infer-kv-cache-argument-types", _new("ttir-infer-kv-cache-argument-types"))
        # tt-mlir canonicalizes TTIR before its fusing (clamp(x, 0, 6) is relu6 by then) and after it.
        yield PipelineStep(n, "canonicalize", _new("canonicalize"))
        # Before ttir-fusing, which unrolls the quantize ops it finds (HEAD runs it right after its fusing).
        yield PipelineStep(n, "ttir-quant-dequant-conversion", _new("ttir-quant-dequant-conversion") if self.enable_quant_dequant_conversion_pass else None,
                           "" if self.enable_quant_dequant_conversion_pass else "enable-quant-dequant-conversion-pass=false")  # fmt: skip
        yield PipelineStep(n, "ttir-fusing", self.ttir_fusing() if self.enable_fusing_pass else None, "" if self.enable_fusing_pass else "enable-fusing-pass=false")
        yield PipelineStep(n, "canonicalize", _new("canonicalize"))
        # HEAD folds broadcasts after its decomposition: an op of broadcast operands then computes
        # the small shape, and TMs on those operands can move below it.
        eio, why = self.enable_erase_inverse_ops_pass, "" if self.enable_erase_inverse_ops_pass else "enable-erase-inverse-ops-pass=false"
        fold = self.enable_implicit_broadcast_folding_pass
        no_fold = "" if fold else "enable-implicit-broadcast-folding-pass=false"
        yield PipelineStep(n, "ttir-implicit-broadcast-fold", _new("ttir-implicit-broadcast-fold") if fold else None, no_fold)
        # As HEAD: after the fusing that concatenates QKV weights (traced as one), before const-eval
        # hoists the weights out of the function.
        yield PipelineStep(n, "ttir-propagate-weight-dtype", _new("ttir-propagate-weight-dtype"))
        # HEAD's place for it: convs and pools read and write 1x1x(N*H*W)xC between reshapes.
        yield PipelineStep(n, "ttir-flatten-sliding-window", _new("ttir-flatten-sliding-window"))
        # HEAD's TM cleanup: implicit rank changes and broadcasts made explicit, permutes and
        # reshapes moved through the ops between them until they meet their inverse and fold, and
        # the broadcasts no TM needed folded back into the elementwise ops.
        yield PipelineStep(n, "ttir-explicate-tms", _new("ttir-explicate-tms") if eio else None, why)
        yield PipelineStep(n, "ttir-erase-inverse-ops", _new("ttir-erase-inverse-ops") if eio else None, why)
        yield PipelineStep(n, "ttir-implicit-broadcast-fold", _new("ttir-implicit-broadcast-fold") if fold else None, no_fold)
        # As HEAD, the fusing runs again: the TM cleanup exposes chains a permute or reshape split.
        yield PipelineStep(n, "ttir-fusing", self.ttir_fusing() if self.enable_fusing_pass else None, "" if self.enable_fusing_pass else "enable-fusing-pass=false")
        # HEAD's last TTIR rewrite before it hoists const-eval: a full / zeros / ones read only by
        # elementwise ops is materialized as one element, which they broadcast.
        yield PipelineStep(n, "ttir-fold-full-to-scalar", _new("ttir-fold-full-to-scalar"))
        # HEAD's TTIR passes end with these two: per-layer cache positions every decode step advances
        # alike are routed to one argument, and a cse merges what that made equal (it runs always).
        yield PipelineStep(n, "ttir-consolidate-static-cache-updates", _new("ttir-consolidate-static-cache-updates"))
        yield PipelineStep(n, "cse", _new("cse"))
        yield from self.cpu_hoisting(n)
        yield PipelineStep(n + 1, "convert-ttir-to-ttnn", self.convert())
        yield PipelineStep(n + 1, "ttnn-resolve-composites", self.resolve_composites())
        # As HEAD: an inlined decomposition's slices of concat(h, h) tables fold to h before ttnn-fusing reads it.
        yield PipelineStep(n + 1, "canonicalize", _new("canonicalize"))
        yield PipelineStep(n + 1, "ttnn-fusing", self.ttnn_fusing() if self.enable_fusing_pass else None, "" if self.enable_fusing_pass else "enable-fusing-pass=false")
        yield PipelineStep(n + 1, "ttnn-workaround", None if self.disable_workarounds else self.workarounds(),
                           "disable-workarounds=true" if self.disable_workarounds else "")  # fmt: skip
        # As tt-mlir follows its workarounds: conversion chains (an input tilized, then made row-major
        # again for an embedding or argmax) fold into one, and equal conversions of a value merge.
        yield PipelineStep(n + 1, "canonicalize", None if self.disable_workarounds else _new("canonicalize"),
                           "disable-workarounds=true" if self.disable_workarounds else "")  # fmt: skip
        yield PipelineStep(n + 1, "cse", None if self.disable_workarounds else _new("cse"),
                           "disable-workarounds=true" if self.disable_workarounds else "")  # fmt: skip
        # Always, as tt-mlir: ops' own ttcore.weight_dtype applies without experimental-weight-dtype.
        yield PipelineStep(n + 1, "ttnn-weight-dtype-conversion", TTNNWeightDtypeConversion(target_dtype=self.experimental_weight_dtype))
        yield self._dtype_step(n + 1, "ttnn-kv-cache-dtype-conversion", "experimental-kv-cache-dtype", self.experimental_kv_cache_dtype)
        yield PipelineStep(n + 1, "ttnn-set-compute-kernel-config", self.compute_config())
        if self.optimizer_enabled():
            if self.enable_const_eval:
                # Hoisted first, as tt-mlir does, so the optimizer never places weight-only ops
                # (they would stay in the forward function once given L1).
                yield PipelineStep(n + 2, "const-eval-hoist-transform", self.const_eval(prepare=False))
            # After the first hoisting (tt-mlir hoists const-eval subgraphs in TTIR, before it
            # outlines), so a chain over constants and parameters stays cached in its const-eval function.
            yield PipelineStep(n + 2, "ttnn-create-d2m-subgraphs", _new("ttnn-create-d2m-subgraphs") if self.enable_create_d2m_subgraphs else None,
                               "" if self.enable_create_d2m_subgraphs else "enable-create-d2m-subgraphs=false")  # fmt: skip
            # Row-major integer inputs stay row-major as far as their readers take it (the first step
            # of tt-mlir's optimizer); the input tilizes left become ttnn.to_layout for the optimizer.
            yield PipelineStep(n + 2, "ttnn-rm-layout-propagation", _new("ttnn-rm-layout-propagation"))
            yield PipelineStep(n + 2, "ttnn-decompose-layouts", _new("ttnn-decompose-layouts"))
            yield PipelineStep(n + 2, "ttnn-optimizer", self.optimizer())
            # tt-mlir validates every op after its optimizer and falls back where the op rejects its layouts.
            yield PipelineStep(n + 2, "ttnn-operation-validation-and-fallback", self.validation())
            # tt-mlir then decomposes the layout changes the validation inserted.
            yield PipelineStep(n + 2, "ttnn-decompose-layouts", _new("ttnn-decompose-layouts"))
        else:
            # The input tilizes become ttnn.to_layout (tt-mlir decomposes layouts at every level).
            yield PipelineStep(n + 2, "ttnn-decompose-layouts", _new("ttnn-decompose-layouts"))
            yield PipelineStep(n + 2, "ttnn-optimizer", skipped="optimization-level=0 and enable-optimizer=false")
        # After the optimizer has laid the subgraphs out (as tt-mlir compiles them after its analysis passes).
        yield PipelineStep(n + 2, "ttnn-through-d2m-pipeline", self.d2m_compile() if self.enable_create_d2m_subgraphs else None,
                           "" if self.enable_create_d2m_subgraphs else "enable-create-d2m-subgraphs=false")  # fmt: skip
        yield PipelineStep(n + 2, "ttnn-collaspe-d2m", _new("ttnn-collaspe-d2m") if self.enable_create_d2m_subgraphs else None,
                           "" if self.enable_create_d2m_subgraphs else "enable-create-d2m-subgraphs=false")  # fmt: skip
        yield PipelineStep(n + 3, "const-eval-hoist-transform", self.const_eval())
        host_inputs = self.enable_const_eval and self.enable_const_eval_inputs_to_system_memory
        yield PipelineStep(n + 3, "ttnn-const-eval-inputs-to-system-memory", _new("ttnn-const-eval-inputs-to-system-memory") if host_inputs else None,
                           "" if host_inputs else "enable-const-eval=false or enable-const-eval-inputs-to-system-memory=false")  # fmt: skip
        # The host inputs' to_device + tilize meet the layout changes their readers already had (an
        # embedding table made row-major again): tt-mlir canonicalizes them away here.
        yield PipelineStep(n + 3, "canonicalize", _new("canonicalize") if host_inputs else None,
                           "" if host_inputs else "enable-const-eval=false or enable-const-eval-inputs-to-system-memory=false")  # fmt: skip
        # After the last const-eval (its results are the trace's device-resident inputs), before
        # deallocation, as tt-mlir runs it.
        yield PipelineStep(n + 3, "ttnn-trace-hoist-transform", _new("ttnn-trace-hoist-transform") if self.enable_trace else None,
                           "" if self.enable_trace else "enable-trace=false")  # fmt: skip
        # tt-mlir's last clean-up before deallocation: the typecast chains the workarounds and the
        # layout decomposition leave merge, and conversions that undo each other go.
        yield PipelineStep(n + 4, "canonicalize", _new("canonicalize"))
        if self.deallocate:
            yield PipelineStep(n + 4, "ttnn-deallocate", _new("ttnn-deallocate"))
        else:
            yield PipelineStep(n + 4, "ttnn-deallocate", skipped="deallocate=false")
        # tt-mlir's ttnn-common-to-runtime-pipeline: the host functions become LLVM, beside the device module.
        host = cpu_inner_module(module) is not None
        if self.runtime_steps:
            yield PipelineStep(n + 5, "convert-cpu-module-to-llvm", _new("convert-cpu-module-to-llvm") if host else None,
                               "" if host else "no ttcore.cpu_module")  # fmt: skip
        # tt-mlir wraps every program (first, in its common pipeline; ttopt's passes read the root until here).
        yield PipelineStep(n + 5, "ttcore-wrap-device-module", _WrapRegistered() if registered else _new("ttcore-wrap-device-module"))

    def cpu_hoisting(self, n: int) -> Iterator[PipelineStep]:
        """Ops tagged ttir.should_hoist, then (enable-cpu-hoisted-const-eval) the const-eval
        subgraphs, hoisted to the host in TTIR, as tt-mlir's common pipeline does before it
        converts: const-eval hoisting runs on TTIR here, decomposed first (the CPU path's form)."""
        yield PipelineStep(n, "cpu-hoist-manually-tagged", _new("cpu-hoist-manually-tagged"))
        hoist = self.enable_cpu_hoisted_const_eval and self.enable_const_eval
        why = "" if hoist else "enable-cpu-hoisted-const-eval=false or enable-const-eval=false"
        yield PipelineStep(n, "ttir-to-ttir-decomposition", _new("ttir-to-ttir-decomposition") if hoist else None, why)
        yield PipelineStep(n, "const-eval-hoist-transform", self.const_eval(prepare=False) if hoist else None, why)
        yield PipelineStep(n, "cpu-hoist-const-eval", _new("cpu-hoist-const-eval") if hoist else None, why)


    def compute_config(self) -> Pass:
        """ttnn-set-compute-kernel-config with the compute-cfg-* options. The two a level decides are
        HiFi4 and fp32 accumulation at optimization-level=0, unset above it (tt-mlir's
        resolveOptimizationLevelOptions)."""
        level0 = self.optimization_level == 0
        return TTNNSetComputeKernelConfig(
            math_fidelity=self.compute_cfg_math_fidelity or ("hifi4" if level0 else "undefined"),
            math_approx_mode=self.compute_cfg_math_approx_mode,
            fp32_dest_acc_en=self.compute_cfg_fp32_dest_acc_en or ("true" if level0 else "unset"),
            packer_l1_acc=self.compute_cfg_packer_l1_acc,
            dst_full_sync_en=self.compute_cfg_dst_full_sync_en,
        )

    @staticmethod
    def _dtype_step(number: int, name: str, option_name: str, dtype: str) -> PipelineStep:
        """A block-float conversion step: run with `target-dtype`, skipped for none."""
        if dtype == "none":
            return PipelineStep(number, name, skipped=f"{option_name}=none")
        cls = get_pass(name)
        assert cls is not None, name
        return PipelineStep(number, name, cls.from_options({"target-dtype": dtype}))

    def _check_mesh(self, module: Module) -> None:
        """mesh-shape and the module's `ttcore.meshes` must agree when both are there (as tt-mlir's
        determineMeshShape); without a module mesh the program is a single-device one."""
        if not self.mesh_shape:
            return
        want = [int(d) for d in self.mesh_shape]
        want = [1, *want] if len(want) == 1 else want
        attr = module.op.attributes.get("ttcore.meshes")
        typed = getattr(attr.resolve(), "typed", None) if attr is not None else None
        meshes = getattr(typed, "meshes", ()) if typed is not None else ()
        if not meshes and want != [1, 1]:
            # TTIR written for a mesh (CCL ops over mesh-shape devices, as tt-mlir's lit tests write
            # it): the mesh comes from the option, as tt-mlir's determineMeshShape takes it.
            from ttopt.dialects.ttcore_attrs import MeshesAttr
            from ttopt.ir.attributes import DialectAttr

            module.op.attributes["ttcore.meshes"] = DialectAttr.of(MeshesAttr.of([("mesh", want)]))
            return
        have = list(meshes[0].shape) if meshes else [1, 1]
        if want != have:
            where = f"the module's mesh is {'x'.join(map(str, have))}" if meshes else "the module has no ttcore.meshes (a single-device program)"
            raise Diagnostic(f"{self.name}: mesh-shape {'x'.join(map(str, want))} does not match the program: {where}; "
                             "shard it for that mesh with --stablehlo-pipeline --mesh-shape first", op_position(module.source, module.op))  # fmt: skip


# tt-mlir pipeline options whose non-default values ask for what ttopt does not do, and why.
UNSUPPORTED_VALUES: dict[str, str] = {}

# Pipeline switches of TTIR fusion patterns -> ttir-fusing's option (tt-mlir's TTIRFusingOptions).
FUSING_SWITCHES = {"enable_fusing_conv2d_with_multiply_pattern": "ttnn-enable-conv2d-with-multiply-pattern",
                   "enable_permute_matmul_fusion": "enable-permute-matmul-fusion",
                   "enable_permute_slice_after_matmul_fusion": "enable-permute-slice-after-matmul-fusion"}  # fmt: skip

OPTIMIZER_ONLY = frozenset({"verify-l1-budget", "l1-interleaved-fallback-analysis-enabled", "override-conv2d-config", "override-conv3d-config", "chain-merging",
                            "cost-exact-max-ops", "cost-time-limit", "cost-beam-width"})  # fmt: skip


def _new(name: str) -> Pass:
    cls = get_pass(name)
    assert cls is not None, name
    return cls()


def _options_of(p: Pass) -> dict:
    return {s.name: getattr(p, s.attr) for s in type(p).option_specs()}




@dataclass
class _WrapRegistered(TTCoreWrapDeviceModule):
    """The pipeline's wrap: the system desc it registered moves into the device module."""

    def moved(self) -> tuple[str, ...]:
        return (SYSTEM_DESC,)


@register_pass
@dataclass
class TTIRToTTNNCommonPipeline(TTIRToTTNNBackendPipeline):
    """tt-mlir's common pipeline: the backend pipeline without the runtime steps (CPU module lowering)."""

    name = "ttir-to-ttnn-common-pipeline"
    summary = "TTIR to TTNN as the backend pipeline, without its runtime steps (the CPU module stays TTIR)"
    runtime_steps: ClassVar[bool] = False
