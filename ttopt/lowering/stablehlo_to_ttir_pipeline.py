"""`stablehlo-to-ttir-pipeline`: tt-mlir's pipeline from StableHLO (with Shardy) to TTIR, with its
name, options and steps (createStableHLOToTTIRPipeline):

| step | pass | when |
|---:|---|---|
| 1 | `convert-arith-to-stablehlo` | `enable-arith-to-stablehlo` (default true) and the module has arith ops |
| 2 | `stablehlo-aggressive-simplification` | `enable-aggressive-simplification` (default true): see below |
| 3 | `stablehlo-complex-math-expander` | the module has complex element types: complex tensors become float pairs (ttopt/lowering/stablehlo_to_ttir_complex.py) |
| 4 | `legalize-stablehlo-composite-to-ttir` | the module has composites: `tenstorrent.*` ones to their TTIR op |
| 5 | `stablehlo-legalize-composite-to-call` | `enable-composite-to-call` (default true) and composites are left |
| 6 | `inline` | calls or private functions: the decompositions (and private callees) inlined |
| 7 | `convert-to-ttir` | the module has Shardy or collective ops: mesh, `mesh_shard`, TTIR collectives |
| 7 | `convert-stablehlo-to-ttir` | always: the compute ops |
| 8 | `cse` | always |
| 9 | `ttcore-wrap-device-module` | `enable-cpu-fallback=true` |
| 10 | `cpu-hoist-non-lowerable-shlo-ops` | `enable-cpu-fallback=true`: einsum and dynamic_update_slice to host functions |
| 11 | `convert-stablehlo-to-ttir` | `enable-cpu-fallback=true`: again, in full, on the device module |

tt-mlir's step 7 is one conversion (its Shardy patterns run with the StableHLO ones); ttopt runs
its sharding conversion (`convert-to-ttir`, ttopt/sharding) and then the compute lowering, which is
the same result in two passes. The sharding itself is the job of `stablehlo-pipeline`, run before
this one as tt-mlir's frontends do: `--stablehlo-pipeline --stablehlo-to-ttir-pipeline`.

`enable-cpu-fallback=true` is tt-mlir's CPU fallback: step 7 is a partial conversion (an op it
cannot take stays StableHLO, and so do the allow-listed `stablehlo.einsum` and
`stablehlo.dynamic_update_slice`, for which tt-mlir has no pattern), the program is wrapped in a
`ttcore.device_module`, the allow-listed ops move to `@cpu_hoisted_stablehlo_<op>_<hash>` functions
of a `ttcore.cpu_module` (cpu_hoist_shlo.py), and the conversion runs again in full, so any other op
left is the usual error at the op. The backend pipeline takes the wrapped program and lowers the
host functions to LLVM (cpu_llvm/hoisted_stablehlo.py).

ttopt's default is false (tt-mlir's is true): ttopt lowers `dynamic_update_slice` on the device
(a `ttir.scatter`, or an in-place `ttir.update_cache` / `ttir.fill_cache` for a KV-cache write:
stablehlo_ops/pad_slices.py, cache_writes.py), and the fallback hoists it to the host as tt-mlir
does, so with true a JAX decode step (testdata/models/llama_decode.mlir: 4 cache writes) would copy
every cache to the host and back per step, and the backend pipeline, which runs this pipeline with
its defaults on StableHLO input, would do so too. (With true, the conformance suites do not regress:
stablehlo-to-ttir passes one file more, ccl_ops_shardy.mlir, whose checks expect the wrapping.)
With false, the output is tt-mlir's with the option false (not wrapped: the backend pipeline wraps
it), and an einsum is an error at the op.
`enable-aggressive-simplification` runs StableHLO's
simplification upstream; ttopt lowers the program as written, so the step is reported as skipped
(`--trace`, `--stats`) whatever the option says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from ttopt.ir.module import Module
from ttopt.lowering.stablehlo_to_ttir_complex import ComplexToFloatPairs, part_type
from ttopt.passes.base import Pass, option
from ttopt.passes.manager import PipelinePass, PipelineStep
from ttopt.passes.registry import get_pass, register_pass

if TYPE_CHECKING:
    from ttopt.passes.context import PassContext

# What the sharding conversion (convert-to-ttir) takes: Shardy ops and StableHLO collectives.
SHARDING_OPS = frozenset({"stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter",
                          "stablehlo.collective_permute", "stablehlo.all_to_all"})  # fmt: skip


def _new(name: str, **options: object) -> Pass:
    cls = get_pass(name)
    assert cls is not None, name
    return cls.from_options(dict(options))


@dataclass
class _Contents:
    """What the steps look for, from one walk of the module (each walk of a 10k-op program costs
    tenths of a second)."""

    arith: bool = False
    complex_types: bool = False
    composites: bool = False  # stablehlo.composite, or a custom call with tt.has_custom_sharding
    composite_ops: bool = False  # stablehlo.composite only
    calls: bool = False  # func.call or a private function
    sharding: bool = False  # Shardy ops, StableHLO collectives, sdy.all_slice composites

    @staticmethod
    def of(module: Module) -> _Contents:
        """The flags of `module`'s ops."""
        c = _Contents()
        for op in module.walk():
            name = op.name
            dialect = op.dialect
            if dialect == "arith":
                c.arith = True
            elif dialect == "sdy" or name in SHARDING_OPS:
                c.sharding = True
            elif name == "stablehlo.composite":
                c.composites = c.composite_ops = True
                if getattr(op.properties.get("name"), "value", None) == "sdy.all_slice":
                    c.sharding = True
            elif name == "stablehlo.custom_call" and "tt.has_custom_sharding" in op.attributes:
                c.composites = True
            elif name == "func.call":
                c.calls = True
            elif name == "func.func":
                vis = op.properties.get("sym_visibility")
                if vis is not None and getattr(vis.resolve(), "value", None) == "private":
                    c.calls = True
                if not c.complex_types:
                    c.complex_types = any(part_type(a.type) is not None for r in op.regions for b in r.blocks for a in b.args)
            if not c.complex_types and any(part_type(r.type) is not None for r in op.results):
                c.complex_types = True
        return c


@dataclass
class _InlineEveryModule(Pass):
    """MLIR's inliner over every symbol table: a file of several top-level modules is one implicit
    module holding them, and calls resolve (and dead private callees go) within each."""

    name = "inline"

    def run(self, module: Module, ctx: PassContext) -> None:
        inliner = _new("inliner")
        inliner.run(module, ctx)
        for op in list(module.walk()):
            if op is not module.op and op.name == "builtin.module":
                inliner.run(Module(op, module.aliases, module.source), ctx)


@register_pass
@dataclass
class StableHLOToTTIRPipeline(PipelinePass):
    """StableHLO (after the sharding pipeline) to TTIR, with tt-mlir's option names and steps."""

    name = "stablehlo-to-ttir-pipeline"
    summary = ("StableHLO -> TTIR as tt-mlir: arith constants, tenstorrent.* composites, inlining, convert-stablehlo-to-ttir "
               "(sharding + compute), cse; enable-cpu-fallback=true: einsum / dynamic_update_slice hoisted to a CPU module")  # fmt: skip

    enable_arith_to_stablehlo: bool = option(True, "Convert arith.constant to stablehlo.constant first")
    enable_composite_to_call: bool = option(True, "Composites without a TTIR op become calls of their decomposition (then inlined)")
    enable_aggressive_simplification: bool = option(True, "tt-mlir runs StableHLO's aggressive simplification; ttopt lowers the program as written (the step is reported skipped)")
    enable_cpu_fallback: bool = option(False, "Partial conversion, ttcore-wrap-device-module, the allow-listed StableHLO ops (dynamic_update_slice, einsum) hoisted to a ttcore.cpu_module, then the full conversion (tt-mlir's default is true; see the module doc)")

    def steps(self, module: Module) -> Iterator[PipelineStep]:
        """The steps of tt-mlir's createStableHLOToTTIRPipeline, in its order. One walk finds what
        each step has to do; the module is walked again only after a step that changed it ran."""
        seen = _Contents.of(module)
        if not self.enable_arith_to_stablehlo:
            yield PipelineStep(1, "convert-arith-to-stablehlo", skipped="enable-arith-to-stablehlo=false")
        elif seen.arith:
            yield PipelineStep(1, "convert-arith-to-stablehlo", _new("convert-arith-to-stablehlo"))
        else:
            yield PipelineStep(1, "convert-arith-to-stablehlo", skipped="no arith ops")
        why = "not implemented in ttopt" if self.enable_aggressive_simplification else "enable-aggressive-simplification=false"
        yield PipelineStep(2, "stablehlo-aggressive-simplification", skipped=why)
        if seen.complex_types:
            yield PipelineStep(3, "stablehlo-complex-math-expander", ComplexToFloatPairs())
        else:
            yield PipelineStep(3, "stablehlo-complex-math-expander", skipped="no complex types")
        # Steps with nothing to do are reported skipped: each step that runs is also a verification
        # of the whole module, a second or so on a 10k-op program.
        if seen.composites:
            yield PipelineStep(4, "legalize-stablehlo-composite-to-ttir", _new("legalize-stablehlo-composite-to-ttir"))
            seen = _Contents.of(module)
        else:
            yield PipelineStep(4, "legalize-stablehlo-composite-to-ttir", skipped="no composites")
        if not self.enable_composite_to_call:
            yield PipelineStep(5, "stablehlo-legalize-composite-to-call", skipped="enable-composite-to-call=false")
        elif seen.composite_ops:
            yield PipelineStep(5, "stablehlo-legalize-composite-to-call", _new("stablehlo-legalize-composite-to-call"))
            seen = _Contents.of(module)
        else:
            yield PipelineStep(5, "stablehlo-legalize-composite-to-call", skipped="no composites")
        if seen.calls:
            yield PipelineStep(6, "inline", _InlineEveryModule())
            seen = _Contents.of(module)
        else:
            yield PipelineStep(6, "inline", skipped="no calls or private functions")
        if seen.sharding:
            yield PipelineStep(7, "convert-to-ttir", _new("convert-to-ttir"))
        else:
            yield PipelineStep(7, "convert-to-ttir", skipped="no Shardy or collective ops")
        fallback = self.enable_cpu_fallback
        yield PipelineStep(7, "convert-stablehlo-to-ttir", _new("convert-stablehlo-to-ttir", **{"enable-partial-conversion": fallback}))
        yield PipelineStep(8, "cse", _new("cse"))
        off = "" if fallback else "enable-cpu-fallback=false"
        yield PipelineStep(9, "ttcore-wrap-device-module", _new("ttcore-wrap-device-module") if fallback else None, off)
        yield PipelineStep(10, "cpu-hoist-non-lowerable-shlo-ops", _new("cpu-hoist-non-lowerable-shlo-ops") if fallback else None, off)
        # Again, in full: any op neither converted nor hoisted is an error at the op (the host
        # functions are not the conversion's: it reads the device module's functions only).
        yield PipelineStep(11, "convert-stablehlo-to-ttir", _new("convert-stablehlo-to-ttir") if fallback else None, off)
