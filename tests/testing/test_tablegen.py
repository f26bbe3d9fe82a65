"""The TableGen reader on small snippets: classes and defs, template arguments and defaults, `let`,
paste, DAGs, unread (external) classes, bang operators, multiclass/defm, foreach, `let ... in`,
includes and the preprocessor, and errors with file:line:col."""

from __future__ import annotations

import pytest

from ttopt.testing.tablegen import Dag, DagArg, Inst, Opaque, Record, Ref, TableGenError, read_records, tokenize


def _read(main: str, **files: str):
    sources = {"main.td": main, **{k.replace("__", "/") + ".td": v for k, v in files.items()}}
    return read_records("main.td", sources.get)


def test_class_arguments_defaults_and_lets() -> None:
    recs = _read('''
class Base<string m, int n = 7> {
  string mnemonic = m;
  int count = n;
  string kind = "base";
}
class Derived<string m> : Base<m, 3> { let kind = "derived"; }
def A : Base<"a">;
def B : Derived<"b"> { let count = 9; }
def C : Base<"c", 1>, Derived<"c2">;
''')
    a, b, c = recs.defs["A"], recs.defs["B"], recs.defs["C"]
    assert (a.fields["mnemonic"], a.fields["count"], a.fields["kind"]) == ("a", 7, "base")
    assert (b.fields["mnemonic"], b.fields["count"], b.fields["kind"]) == ("b", 9, "derived")
    assert b.bases == ["Derived", "Base"] and b.is_a("Base") and not a.is_a("Derived")
    assert c.fields["mnemonic"] == "c2" and c.fields["kind"] == "derived"  # later parents win
    assert b.loc == ("main.td", 9)


def test_paste_joins_strings_and_lists_and_dags_keep_names() -> None:
    recs = _read('''
class Named<string m, list<Trait> traits = []> {
  string full = "toy." # m;
  list<Trait> all = [T0] # traits # [T9];
  dag arguments = (ins Foo:$a, Wrap<Bar, "doc">:$b, "Value": $c, $d);
}
def X : Named<"x", [T1, T2]>;
''')
    x = recs.defs["X"]
    assert x.fields["full"] == "toy.x"
    assert x.fields["all"] == (Ref("T0"), Ref("T1"), Ref("T2"), Ref("T9"))
    args = x.fields["arguments"]
    assert isinstance(args, Dag) and args.operator == "ins"
    assert args.args == (DagArg(Ref("Foo"), "a"), DagArg(Inst("Wrap", (Ref("Bar"), "doc")), "b"),
                         DagArg("Value", "c"), DagArg(None, "d"))


def test_unread_parent_classes_are_kept_with_their_arguments() -> None:
    recs = _read('''
def D : Dialect { let name = "toy"; }
class Toy_Op<string mnemonic> : Op<D, mnemonic, [Pure]>;
def AddOp : Toy_Op<"add"> { let results = (outs Any:$r); }
''')
    add = recs.defs["AddOp"]
    dialect, mnemonic, traits = add.external_args("Op")
    assert isinstance(dialect, Record) and dialect.fields["name"] == "toy"
    assert (mnemonic, traits) == ("add", (Ref("Pure"),))
    assert add.bases == ["Toy_Op", "Op"] and add.external_args("AttrDef") is None


def test_bang_operators() -> None:
    recs = _read('''
class Pick<list<Trait> traits> {
  list<Trait> kept = !if(!empty(!filter(t, traits, !eq(t, Skip))), [Extra], []);
  int n = !size(traits);
  list<int> doubled = !foreach(i, [1, 2, 3], !mul(i, 2));
  string joined = !strconcat("a", "b", "c");
  list<int> both = !listconcat([1], [2, 3]);
  bit any = !or(!eq(1, 2), !ne(1, 2));
  int folded = !foldl(0, [1, 2, 3], acc, x, !add(acc, x));
  string chosen = !cond(!gt(n, 5) : "big", true : "small");
  bit isBase = !isa<Base>(Thing);
  string unknown = !unknownop(1);
}
class Base;
def Thing : Base;
def P1 : Pick<[A, B]>;
def P2 : Pick<[A, Skip]>;
''')
    p1, p2 = recs.defs["P1"].fields, recs.defs["P2"].fields
    assert p1["kept"] == (Ref("Extra"),) and p2["kept"] == ()
    assert (p1["n"], p1["doubled"], p1["joined"], p1["both"]) == (2, (2, 4, 6), "abc", (1, 2, 3))
    assert (p1["any"], p1["folded"], p1["chosen"], p1["isBase"]) == (1, 6, "small", 1)
    assert isinstance(p1["unknown"], Opaque)


def test_isa_sees_a_defined_ancestor() -> None:
    recs = _read('''
class Base;
class Mid : Base;
def Thing : Mid;
def Q { bit yes = !isa<Base>(Thing); bit no = !isa<Other>(Thing); }
''')
    assert (recs.defs["Q"].fields["yes"], recs.defs["Q"].fields["no"]) == (1, 0)


def test_anonymous_instances_of_read_classes_have_fields() -> None:
    recs = _read('''
class Twice<int n> { int value = !mul(n, 2); }
def R { int got = Twice<21>.value; }
''')
    assert recs.defs["R"].fields["got"] == 42


def test_multiclass_defm_and_foreach() -> None:
    recs = _read('''
class Item<int v> { int value = v; }
multiclass Pair<int base> {
  def _lo : Item<base>;
  def NAME # _hi : Item<!add(base, 1)>;
}
defm P : Pair<10>;
foreach i = [1, 2] in
  def L # i : Item<i>;
foreach i = {3-4} in {
  def B # i : Item<i>;
}
foreach i = 5...6 in def R # i : Item<i>;
''')
    vals = {k: r.fields["value"] for k, r in recs.defs.items()}
    assert vals == {"P_lo": 10, "P_hi": 11, "L1": 1, "L2": 2, "B3": 3, "B4": 4, "R5": 5, "R6": 6}


def test_top_level_let_defvar_and_if() -> None:
    recs = _read('''
class Item { int value = 0; string tag = "none"; }
defvar Seven = 7;
let value = Seven, tag = "set" in {
  def A : Item;
  def B : Item { let tag = "own"; }
}
if !eq(Seven, 7) then { def Yes : Item; } else { def No : Item; }
''')
    assert (recs.defs["A"].fields["value"], recs.defs["A"].fields["tag"]) == (7, "set")
    assert recs.defs["B"].fields["tag"] == "own"
    assert "Yes" in recs.defs and "No" not in recs.defs


def test_includes_guards_and_missing_files() -> None:
    recs = _read('''
include "lib/a.td"
include "lib/a.td"
include "mlir/IR/OpBase.td"
def Top : FromA;
''', lib__a='''#ifndef LIB_A
#define LIB_A
class FromA { int x = 1; }
#ifdef NOT_DEFINED
this text is not TableGen at all {{{
#else
def InElse;
#endif
#endif
''')
    assert recs.files == ["main.td", "lib/a.td"]
    assert recs.missing_includes == ["mlir/IR/OpBase.td"]
    assert recs.defs["Top"].fields["x"] == 1 and "InElse" in recs.defs


def test_comments_code_blocks_and_strings() -> None:
    recs = _read('''
/* outer /* nested */ still a comment */
// def Hidden;
def Doc {
  code body = [{ a } "quoted" // not a comment }];
  string s = "esc\\"aped" "joined";
  int hex = 0x1F;
  bits<4> b = 0b1010;
  int neg = -3;
}
''')
    doc = recs.defs["Doc"].fields
    assert set(recs.defs) == {"Doc"}
    assert doc["body"] == ' a } "quoted" // not a comment '
    assert (doc["s"], doc["hex"], doc["b"], doc["neg"]) == ('esc"apedjoined', 31, 10, -3)


def test_tokens_keep_positions() -> None:
    toks = tokenize('def X : Y<"a">;\n  let z = $v;', "f.td", set())
    assert [(t.kind, t.text) for t in toks[:4]] == [("id", "def"), ("id", "X"), ("punct", ":"), ("id", "Y")]
    assert [t.kind for t in toks][-1] == "eof"
    assert next(t for t in toks if t.kind == "var").pos == len('def X : Y<"a">;\n  let z = ')


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("def X : Y<1 {", "main.td:1:13: expected '>', got '{'"),
        ("def X {\n  let = 3;\n}", "main.td:2:7: expected an identifier, got '='"),
        ("def X { code c = [{ never closed }", "main.td:1:18: unterminated [{ code block"),
        ("/* open", "main.td:1:1: unterminated /* comment"),
        ("#endif\n", "main.td:1:1: #endif without #ifdef/#ifndef"),
        ("#ifdef A\ndef X;\n", "#ifdef/#ifndef without #endif"),
        ("def X ~", "main.td:1:7: unexpected character '~'"),
        ("frobnicate X;", "main.td:1:1: expected a TableGen statement, got 'frobnicate'"),
        ("class C<int a>;\ndef X : C<1, 2>;", "main.td:2:9: too many template arguments for 'C'"),
        ("multiclass M { def a; }\ndef X : M;", "main.td:2:9: 'M' is a multiclass; use defm"),
    ],
)
def test_errors_name_file_line_and_column(text: str, message: str) -> None:
    with pytest.raises(TableGenError) as e:
        _read(text)
    assert message in str(e.value)


def test_the_main_file_must_exist() -> None:
    with pytest.raises(TableGenError, match="nope.td: file not found"):
        read_records("nope.td", lambda _: None)
