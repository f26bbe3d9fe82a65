"""`ttopt opt`: parse MLIR, run passes, print MLIR, with mlir-opt's flags."""

from __future__ import annotations

import sys
import time
from typing import Any

import click

SPLIT_MARKER = "// -----"


def _pass_params() -> list[click.Parameter]:
    """One flag per registered pass, one flag per distinct pass option (from the pass catalog:
    no pass module is imported to build them)."""
    from ttopt.passes import catalog

    params: list[click.Parameter] = []
    seen: dict[str, Any] = {}
    for name, summary in catalog.SUMMARIES.items():
        params.append(
            click.Option(
                [f"--{name}", "__pass__" + name.replace("-", "_")],
                is_flag=True,
                expose_value=False,  # the order (and repeats) come from argv: see _rewrite_argv
                help=f"Run the {name} pass: {summary}",
            )
        )
        for spec in catalog.OPTIONS[name]:
            if spec.name in seen or spec.name in _RESERVED:
                continue
            seen[spec.name] = spec
            attr = "__opt__" + spec.attr
            help_text = f"[{name}] {spec.help}"
            # Values stay text here: they are converted once, by the option itself, for every pass
            # that declares it (ttopt/passes/options.py), exactly as inside --pass-pipeline.
            if spec.type is bool:
                params.append(click.Option([f"--{spec.name}/--no-{spec.name}", attr], default=None, help=help_text))
            elif spec.multiple or spec.type is list:
                params.append(click.Option([f"--{spec.name}", attr], multiple=True, help=help_text))
            elif spec.choices:
                params.append(click.Option([f"--{spec.name}", attr], type=click.Choice(spec.choices), default=None, help=help_text))
            else:
                params.append(click.Option([f"--{spec.name}", attr], default=None, metavar=spec.type.__name__.upper(), help=help_text))
    return params


def _flag_texts(kwargs: dict[str, Any]) -> dict[str, str]:
    """Option flags given on the command line, as pipeline-option text keyed by dashed name."""
    out = {}
    for k, v in kwargs.items():
        if not k.startswith("__opt__") or v is None or v == ():
            continue
        name = k[len("__opt__") :].replace("_", "-")
        if isinstance(v, bool):
            out[name] = "true" if v else "false"
        elif isinstance(v, tuple):
            out[name] = ",".join(v)
        else:
            out[name] = str(v)
    return out


_RESERVED = {"trace", "stats", "timing"}


def _rewrite_argv(args: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """`--name=true|false` for booleans, `--pass="opts"` -> `--pass`; and every pass flag with
    its option text, in command-line order (a pass given twice runs twice, as in mlir-opt)."""
    from ttopt.passes import catalog

    passes = catalog.MODULES
    bools = {s.name for specs in catalog.OPTIONS.values() for s in specs if s.type is bool}
    out: list[str] = []
    pass_opts: list[tuple[str, str]] = []
    args = _join_bool_values(args, bools)
    for i, a in enumerate(args):
        if a == "--":
            out.extend(args[i:])
            break
        if a.startswith("--") and a[2:] in passes:
            pass_opts.append((a[2:], ""))
        if a.startswith("--") and "=" in a:
            key, _, val = a[2:].partition("=")
            if key in passes:
                out.append(f"--{key}")
                pass_opts.append((key, val))
                continue
            if key in bools:
                low = val.lower()
                if low in ("true", "1", "on", "yes"):
                    out.append(f"--{key}")
                    continue
                if low in ("false", "0", "off", "no"):
                    out.append(f"--no-{key}")
                    continue
        out.append(a)
    return out, pass_opts


def _join_bool_values(args: list[str], bools: set[str]) -> list[str]:
    """`--flag true|false` -> `--flag=true|false` for boolean options (the words only, so a file
    named like anything else after a flag is still the input)."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--") and a[2:] in bools and i + 1 < len(args) and args[i + 1].lower() in ("true", "false"):
            out.append(f"{a}={args[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _double_dash(args: list[str], long_names: set[str]) -> list[str]:
    """`-split-input-file` -> `--split-input-file`: LLVM's command lines take long options with one
    dash, and tt-mlir's RUN lines spell them so. Only names ttopt knows are rewritten, so `-o` and
    a file called `-x.mlir` keep their meaning."""
    out: list[str] = []
    for i, a in enumerate(args):
        if a == "--":
            return out + args[i:]
        if a.startswith("-") and not a.startswith("--") and len(a) > 2 and a[1:].partition("=")[0] in long_names:
            a = "-" + a
        out.append(a)
    return out


class OptCommand(click.Command):
    """click.Command that knows every pass flag and rewrites mlir-opt-style `--flag=value`."""

    def _long_names(self) -> set[str]:
        names = {o[2:] for p in self.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")}
        return names | {o.partition("/")[0] for o in names}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args, pass_opts = _rewrite_argv(_double_dash(args, self._long_names()))
        ctx.meta["ttopt.pass_flags"] = pass_opts
        return super().parse_args(ctx, args)


def _build_passes(ctx: click.Context, pipeline: str | None, kwargs: dict[str, Any]) -> list:
    """The passes to run: `--pass-pipeline` first, then pass flags in command-line order.

    Pass flags desugar into pipeline text (`--canonicalize="max-iterations=3"` is
    `canonicalize{max-iterations=3}`) and option flags (`--max-iterations 3`) fill that option in
    every pass that declares it unless the pass's own text sets it: one conversion path for all.
    """
    from ttopt.passes.pipeline import PipelineError, instantiate, parse_pipeline
    flags = _flag_texts(kwargs)
    passes = []
    if pipeline is not None:
        try:
            passes.extend(instantiate(parse_pipeline(pipeline), pipeline, flags))
        except PipelineError as e:
            raise click.UsageError(f"--pass-pipeline: {e} (at character {e.pos + 1})") from None
    for pname, inline in ctx.meta.get("ttopt.pass_flags", []):
        text = f"{pname}{{{inline}}}" if inline.strip() else pname
        try:
            passes.extend(instantiate(parse_pipeline(text), text, flags))
        except PipelineError as e:
            raise click.UsageError(f"--{pname}: {e}") from None
    _check_flags_taken(flags, passes)
    for p in passes:
        try:
            p.validate()
        except ValueError as e:
            raise click.UsageError(f"{type(p).name}: {e}") from None
    return passes


def _check_flags_taken(flags: dict[str, str], passes: list) -> None:
    """An option flag reaches every pass of the run that declares the option (a pipeline hands it
    on to its steps); a flag no pass of the run declares would do nothing, so it is a usage error."""
    from ttopt.passes import catalog

    taken = {s.name for p in passes for s in type(p).option_specs()}
    for name in flags:
        if name in taken:
            continue
        owners = [n for n, specs in catalog.OPTIONS.items() if any(s.name == name for s in specs)]
        ran = ", ".join(f"--{type(p).name}" for p in passes) or "no pass"
        raise click.UsageError(f"--{name}: no pass in this run takes this option (it belongs to {', '.join(owners)}; "
                               f"this run has {ran})")  # fmt: skip


def _split_chunks(text: str) -> list[tuple[str, int]]:
    """Split at `// -----` lines; each chunk with the line number it starts on (0-based)."""
    chunks: list[tuple[str, int]] = []
    cur: list[str] = []
    start = 0
    for i, line in enumerate(text.splitlines(keepends=True)):
        if line.strip() == SPLIT_MARKER:
            chunks.append(("".join(cur), start))
            cur = []
            start = i + 1
        else:
            cur.append(line)
    chunks.append(("".join(cur), start))
    return chunks


def _opt_main(ctx: click.Context, input: str, output: str, pass_pipeline: str | None, **kw: Any) -> None:
    from ttopt.cli.output import OutputError, check_writable, read_input, write_outputs
    from ttopt.ir.diagnostics import Diagnostic, record_locations
    from ttopt.ir.printer import PrintOptions, print_module
    from ttopt.parse.parser import parse_module
    from ttopt.passes.context import PassContext, Trace
    from ttopt.passes.manager import PassManager

    passes = _build_passes(ctx, pass_pipeline, kw)
    if kw["dump_pass_pipeline"]:
        click.echo(f"builtin.module({', '.join(p.spec() for p in passes)})", err=True)
    popts = PrintOptions(
        local_scope=kw["mlir_print_local_scope"], debuginfo=kw["mlir_print_debuginfo"], generic=kw["mlir_print_op_generic"]
    )
    name = "<stdin>" if input == "-" else input
    try:
        for dest in (output, kw["stats"]):
            if dest:
                check_writable(dest)
        text = read_input(input)
    except OutputError as e:
        _output_failed(ctx, e)
    except OSError as e:
        raise click.UsageError(f"cannot read input '{input}': {e.strerror}") from None
    except Diagnostic as d:
        sys.stderr.write(d.render(name) + "\n")
        ctx.exit(1)
    chunks = _split_chunks(text) if kw["split_input_file"] else [(text, 0)]
    pctx = PassContext(trace=Trace(enabled=kw["trace"]), stats_requested=bool(kw["stats"]))
    outputs: list[str] = []
    failed = False
    timings: list[tuple[str, float, float]] = []  # (step, wall s, CPU s)
    verifying = kw["verify_diagnostics"]
    problems: list[str] = []
    for chunk, line0 in chunks:
        if verifying:
            problems += _verify_chunk(name, chunk, line0, passes, pctx, popts, kw, outputs)
            continue
        try:
            t0, c0 = time.perf_counter(), time.process_time()
            module = parse_module(chunk, name, line_offset=line0)
            record_locations(module.source, module.walk())
            pm = PassManager(
                passes,
                pctx,
                print_ir_after_all=kw["mlir_print_ir_after_all"],
                printer=lambda m: print_module(m, popts),
                verify_each=kw["verify_each"],
            )
            pm.verify_input(module, allow_unregistered_dialect=kw["allow_unregistered_dialect"])
            timings.append(("parse + verify", time.perf_counter() - t0, time.process_time() - c0))
            pm.run(module)
            timings.extend((label, wall, cpu) for (label, wall), (_, cpu) in zip(pm.timings, pm.cpu_timings))
            t0, c0 = time.perf_counter(), time.process_time()
            outputs.append(print_module(module, popts))
            timings.append(("print", time.perf_counter() - t0, time.process_time() - c0))
        except Diagnostic as d:
            failed = True
            sys.stderr.write(d.render(name) + "\n")
            if not kw["split_input_file"]:
                break
    if kw["timing"]:
        _print_timing(timings)
    if problems:
        sys.stderr.write("\n".join(problems) + "\n")
        ctx.exit(1)
    if failed:
        if kw["split_input_file"] and output == "-" and outputs:
            sys.stdout.write(f"{SPLIT_MARKER}\n".join(outputs))
        ctx.exit(1)
    items = [(output, f"{SPLIT_MARKER}\n".join(outputs))]
    if kw["stats"]:
        import json

        items.insert(0, (kw["stats"], json.dumps(pctx.stats, indent=2, sort_keys=True) + "\n"))
    try:
        write_outputs(items)
    except OutputError as e:
        _output_failed(ctx, e)


def _verify_chunk(name: str, chunk: str, line0: int, passes: list, pctx: Any, popts: Any, kw: dict[str, Any],
                  outputs: list[str]) -> list[str]:  # fmt: skip
    """Run one chunk under --verify-diagnostics: its diagnostics must be the annotated ones."""
    from ttopt.cli.verify_diagnostics import captured_warnings, check, expectations, parse_rendered
    from ttopt.ir.diagnostics import Diagnostic, record_locations
    from ttopt.ir.printer import print_module
    from ttopt.parse.parser import parse_module
    from ttopt.passes.manager import PassManager

    rendered: list[str] = []
    with captured_warnings() as warnings:
        try:
            module = parse_module(chunk, name, line_offset=line0)
            record_locations(module.source, module.walk())
            pm = PassManager(passes, pctx, verify_each=kw["verify_each"])
            pm.verify_input(module, allow_unregistered_dialect=kw["allow_unregistered_dialect"])
            pm.run(module)
            outputs.append(print_module(module, popts))
        except Diagnostic as d:
            rendered.append(d.render(name))
    return check(name, expectations(chunk, line0), parse_rendered("\n".join([*warnings, *rendered])))


def _output_failed(ctx: click.Context, e: Exception) -> None:
    """An unwritable output is one line and exit 2, like a bad flag, and nothing is written."""
    sys.stderr.write(f"ttopt: error: {e}\n")
    ctx.exit(2)


def _print_timing(timings: list[tuple[str, float, float]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="ttopt timing", title_justify="left")
    table.add_column("step")
    table.add_column("wall (ms)", justify="right")
    table.add_column("cpu (ms)", justify="right")
    total = total_cpu = 0.0
    agg: dict[str, tuple[float, float]] = {}
    for name, t, c in timings:
        w0, c0 = agg.get(name, (0.0, 0.0))
        agg[name] = (w0 + t, c0 + c)
    for name, (t, c) in agg.items():
        total += t
        total_cpu += c
        table.add_row(name, f"{t * 1e3:.2f}", f"{c * 1e3:.2f}")
    table.add_row("[bold]total[/bold]", f"[bold]{total * 1e3:.2f}[/bold]", f"[bold]{total_cpu * 1e3:.2f}[/bold]")
    Console(stderr=True).print(table)


def _make_opt() -> click.Command:
    params: list[click.Parameter] = [
        click.Argument(["input"], default="-", required=False, type=click.Path(allow_dash=True, dir_okay=False)),
        click.Option(["-o", "--output"], default="-", show_default=True, type=click.Path(allow_dash=True, dir_okay=False),
                     help="Output file ('-' for stdout); written whole via a temporary file."),
        click.Option(["--pass-pipeline"], default=None, help="e.g. 'builtin.module(canonicalize, ttnn-optimizer{max-legal-layouts=4})'"),
        click.Option(["--mlir-print-local-scope"], is_flag=True, help="Print attributes and types inline (no aliases)."),
        click.Option(["--mlir-print-debuginfo"], is_flag=True, help="Print locations (loc(...))."),
        click.Option(["--mlir-print-op-generic"], is_flag=True, help="Print every op in generic form."),
        click.Option(["--mlir-print-ir-after-all"], is_flag=True, help="Print the IR to stderr after each pass."),
        click.Option(["--dump-pass-pipeline"], is_flag=True, help="Print the passes to run, as --pass-pipeline text, to stderr."),
        click.Option(["--verify-diagnostics"], is_flag=True,
                     help="Check the input's `// expected-error {{...}}` annotations against the diagnostics (as mlir-opt)."),
        click.Option(["--split-input-file"], is_flag=True, help="Process '// -----' separated chunks independently."),
        click.Option(["--timing"], is_flag=True, help="Print a per-step wall-time table to stderr."),
        click.Option(["--trace"], is_flag=True, help="Explain pass decisions on stderr (rich)."),
        click.Option(["--stats"], default=None, type=click.Path(dir_okay=False), help="Write pass statistics as JSON to FILE."),
        click.Option(["--verify-each/--no-verify-each"], default=True, help="Verify the IR after every pass (default on)."),
        click.Option(["--allow-unregistered-dialect"], is_flag=True,
                     help="Accept ops of dialects ttopt does not register (generic form), as mlir-opt does."),
        *_pass_params(),
    ]

    @click.pass_context
    def callback(ctx: click.Context, **kw: Any) -> None:
        _opt_main(ctx, kw.pop("input"), kw.pop("output"), kw.pop("pass_pipeline"), **kw)

    return OptCommand(
        "opt",
        params=params,
        callback=callback,
        help="Parse MLIR (INPUT, default stdin), run the passes given as flags (in order) or with "
        "--pass-pipeline, and print the result.",
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110},
    )


opt = _make_opt()


@click.command("passes")
def passes() -> None:
    """List every registered pass with its options, defaults and help."""
    from rich.console import Console
    from rich.table import Table

    from ttopt.passes.registry import all_passes

    console = Console()
    for name, cls in all_passes().items():
        table = Table(title=f"[bold]{name}[/bold] — {cls.summary}", title_justify="left", show_edge=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("help")
        for s in cls.option_specs():
            table.add_row(f"{s.name}", repr(s.default) if not isinstance(s.default, str) else s.default or '""', s.help)
        if not cls.option_specs():
            table.add_row("(none)", "", "")
        console.print(table)
        console.print()
