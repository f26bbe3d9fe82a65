"""Reading YAML/JSON data files (device descriptions, topology graphs) strictly.

`yaml.safe_load` and `json.loads` accept what a data file must not: YAML keeps the last of two
duplicate keys silently, both recurse without bound on deep nesting, and text is read with a
lenient decoder. Here every such input is a `DataFileError` whose message starts with
`path:line:col:` where there is a position, fit to show the user as one line.
"""

from __future__ import annotations

import json
from typing import Any

MAX_FILE_BYTES = 64 << 20  # a data file larger than this is refused before it is parsed


class DataFileError(ValueError):
    """A data file that cannot be read as what it claims to be: `where` is `path[:line:col]`."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail


def read_text(path: str) -> str:
    """The file's text, strictly UTF-8; an unreadable, oversized or non-UTF-8 file is an error."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise DataFileError(path, f"cannot read: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise DataFileError(path, f"larger than {MAX_FILE_BYTES >> 20} MiB")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise DataFileError(f"{path}:{line}:{col}", f"not valid UTF-8 text (byte 0x{raw[e.start]:02x})") from None


def load_yaml(text: str, path: str) -> Any:
    """YAML (or JSON, a YAML subset) with duplicate keys, deep nesting and lone surrogates rejected."""
    import yaml

    def where(mark: Any) -> str:
        return f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path

    class UniqueKeyLoader(yaml.SafeLoader):
        pass

    def mapping(loader: Any, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            try:
                duplicate = key in seen
                seen.add(key)
            except TypeError:  # unhashable: the base constructor reports it
                continue
            if duplicate:
                raise DataFileError(where(key_node.start_mark), f"duplicate key {key!r}")
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        data = yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise DataFileError(where(getattr(e, "problem_mark", None)), f"invalid YAML: {problem}") from None
    except RecursionError:
        raise DataFileError(path, "nests too deeply") from None
    _check_strings(data, path)
    return data


def load_json(text: str, path: str) -> Any:
    """JSON with duplicate keys and deep nesting rejected."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise DataFileError(path, f"duplicate key {k!r}")
            out[k] = v
        return out

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as e:
        raise DataFileError(f"{path}:{e.lineno}:{e.colno}", f"invalid JSON: {e.msg}") from None
    except RecursionError:
        raise DataFileError(path, "nests too deeply") from None
    _check_strings(data, path)
    return data


def _check_strings(data: Any, path: str) -> None:
    """Every string must be printable Unicode text (YAML's `\\ud800` escape makes a lone surrogate)."""
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            try:
                x.encode("utf-8")
            except UnicodeEncodeError:
                raise DataFileError(path, f"string {x!r} is not valid Unicode (a lone surrogate)") from None
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
