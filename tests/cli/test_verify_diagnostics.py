"""--verify-diagnostics reads the run's diagnostics back from their rendered text: only the
`file:line:col: kind:` heads count, never the source line echoed under an error."""

from __future__ import annotations

from ttopt.cli.verify_diagnostics import Produced, check, expectations, parse_rendered
from ttopt.ir.diagnostics import Diagnostic, SourceFile, SourcePos

SOURCE = 'func.func @f() {\n  "x.y"() {a = "in.mlir:2:3: error: phantom"} : () -> ()\n  return\n}\n'


def _rendered(text: str, line: int) -> str:
    src = SourceFile("in.mlir", text)
    offset = sum(len(l) + 1 for l in text.split("\n")[: line - 1]) + 2
    return Diagnostic("real message", SourcePos(src, offset)).render()


def test_the_echoed_source_line_is_not_a_diagnostic() -> None:
    rendered = _rendered(SOURCE, 2)
    assert "phantom" in rendered.splitlines()[1]  # the echo really holds a diagnostic-looking text
    assert parse_rendered(rendered) == [Produced("error", 2, "real message")]


def test_a_cr_in_the_echoed_line_does_not_start_a_line() -> None:
    text = 'x\n  "x.y"() {a = "\rin.mlir:2:3: error: phantom"} : () -> ()\n'
    assert parse_rendered(_rendered(text, 2)) == [Produced("error", 2, "real message")]


def test_warnings_before_the_error_are_all_read() -> None:
    warnings = ["in.mlir:1:1: warning: first", "in.mlir:3:1: warning: second"]
    produced = parse_rendered("\n".join([*warnings, _rendered(SOURCE, 2)]))
    assert produced == [Produced("warning", 1, "first"), Produced("warning", 3, "second"), Produced("error", 2, "real message")]


def test_an_expected_error_only_the_echo_spells_out_is_missing() -> None:
    annotated = "// expected-error@+2 {{real message}}\n// expected-error@+1 {{phantom}}\n" + SOURCE.split("\n", 1)[1]
    problems = check("in.mlir", expectations(annotated, 0), parse_rendered(_rendered(annotated, 3)))
    assert problems == ['in.mlir:2:1: error: expected error "phantom" was not produced']


def test_a_space_may_precede_the_line_offset() -> None:
    # MLIR's annotation pattern allows it; tt-mlir's tests write `expected-warning @+1 {{...}}`.
    (e,) = expectations("// expected-warning @+1 {{fusing}}\nx\n", 0)
    assert (e.kind, e.line, e.text) == ("warning", 2, "fusing")
