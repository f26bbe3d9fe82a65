"""Human wording for parser errors: terminal names -> what a user would call them."""

from __future__ import annotations

from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

TERMINAL_NAMES = {
    "VALUE": "an SSA value (%name)",
    "SYMBOL": "a symbol (@name)",
    "STRING": "a string",
    "INT": "an integer",
    "FLOAT": "a float",
    "BARE_ID": "an identifier",
    "BLOCK_LABEL": "a block label (^bb)",
    "TYPE": "a type",
    "FNTYPE": "a function type '(...) -> ...'",
    "ATTR": "an attribute",
    "ATTR_DICT": "an attribute dictionary '{...}'",
    "PROPS": "properties '<{...}>'",
    "LOC": "a location 'loc(...)'",
    "OPERANDS": "an operand list '(%a, ...)'",
    "ANGLE": "'<...>'",
    "BRACKET": "'[...]'",
    "AXIS_LIST": "an axis list '{...}'",
    "CONV_DIMS": "convolution dimension numbers",
    "OPNAME_REF": "an operation name",
    "SHAPE": "a shape (e.g. 64x64x)",
    "DIALECT_ATTR": "a dialect attribute",
    "EQUAL": "'='",
    "COMMA": "','",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LESSTHAN": "'<'",
    "MORETHAN": "'>'",
    "$END": "end of input",
    "RESULTS": "results ('%r =')",
    "GENERIC_HEAD": "an operation",
    "OP_RUN": "an operation",
    "REDUCE_HEAD": "an operation",
    "MANUAL_HEAD": "an operation",
    "LOC_ALIASES": "an alias definition",
    "COLON_FNTYPE": "':' and a function type",
    "ATTR_ALIAS": "an alias definition",
    "TYPE_ALIAS": "an alias definition",
    "HEX": "a hex literal",
}


def _name(term: str) -> str:
    if term in TERMINAL_NAMES:
        return TERMINAL_NAMES[term]
    if term.startswith("OP_"):
        return "an operation"
    if term.endswith("_BODY"):
        return "an attribute"
    if term.startswith("__ANON") or term == "ARROW" or term == "MINUSMORETHAN":
        return "'->'"
    return f"'{term.lower()}'"


def describe_unexpected(e: Any) -> str:
    """One sentence: what was found, and what the grammar allowed there."""
    if isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            found = "end of input"
        else:
            shown = str(tok)
            if len(shown) > 40:
                shown = shown[:37] + "..."
            found = f"'{shown}'"
        expected = sorted({_name(t) for t in e.expected if t != "$END" or len(e.expected) == 1})
        if any(t.startswith("OP_") for t in e.expected):
            expected = [x for x in expected if x != "an operation"] + ["an operation"]
        if len(expected) > 6:
            expected = expected[:6] + ["..."]
        return f"unexpected {found}; expected " + (", ".join(expected) if expected else "nothing more")
    if isinstance(e, UnexpectedEOF):
        return "unexpected end of input"
    if isinstance(e, UnexpectedCharacters):
        return f"unexpected character {e.char!r}"
    return str(e).splitlines()[0]
