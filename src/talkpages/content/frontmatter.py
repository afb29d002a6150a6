"""Split a talk file into its front matter and Markdown body.

Front matter is TOML between `+++` lines (Hugo's habit) or YAML between `---`
lines (what many Hugo Academic sites and Jekyll use). Line numbers are kept true
to the file, so that a problem in a value can be reported where it is written.

YAML timestamps are read as plain strings on purpose: PyYAML would turn
`2019-05-22 14:50:00+02:00` into a UTC datetime and drop the offset, and a naive
time must stay naive until the model decides which zone it is in.

TOML is read by rtoml (Rust) when it is installed: 14 µs a front matter where the
standard library's pure-Python tomllib takes 180 µs, the largest single cost of
reading a 10,000-talk site. Both give equal values on every valid file of the corpus
and of the tests (a fuzz test compares them); rtoml's offsets are turned into the
standard library's `timezone`. Whatever rtoml rejects is read again by tomllib, which
decides: an error message (with its line and column) is always tomllib's.

Any exception a parser raises on the text is the text's fault, whatever its type: a
5,000-digit integer passes both grammars and then fails Python's limit on converting
digits, `!!float abc` reaches `float()`, `!!timestamp nonsense` an attribute of `None`.
Each becomes an error at its line. An exception raised in our own code is a bug and
stays one (see `raised_by_parser`).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property, lru_cache
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

try:
    import rtoml
except ImportError:  # pragma: no cover - a platform without its wheel
    rtoml = None  # type: ignore[assignment]

DELIMITERS = {"+++": "toml", "---": "yaml"}


@dataclass(frozen=True)
class FrontMatter:
    data: dict[str, Any]
    format: str
    body: str
    body_line: int
    head: tuple[str, ...] = ()  # the file's lines up to the block's end, others blanked

    def line_of(self, key: str) -> int | None:
        """Line of a key in the file; `key` may be dotted (`image.caption`)."""
        return self.key_lines.get(key.lower())

    @cached_property
    def key_lines(self) -> dict[str, int]:
        """Computed when a message needs a line: most files never do."""
        if self.format == "toml":
            return toml_key_lines(list(self.head))
        return _yaml_key_lines(list(self.head))

    @cached_property
    def table_lines(self) -> dict[str, list[int]]:
        """The lines of each `[[name]]` header, in order."""
        tables: dict[str, list[int]] = {}
        if self.format == "toml":
            for number, line in enumerate(self.head, 1):
                match = _TOML_ARRAY_TABLE.match(line)
                if match:
                    tables.setdefault(match.group(1).strip().lower(), []).append(number)
        return tables


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def raised_by_parser(exc: BaseException) -> bool:
    """Whether `exc` was raised in a parser's code rather than in talkpages': the
    innermost frame of its traceback decides. A parser that fails on hostile text is the
    text's fault; our own code failing is a bug that must not pass for bad input."""
    frame = exc.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    if frame is None:
        return False
    return not os.path.abspath(frame.tb_frame.f_code.co_filename).startswith(_PACKAGE)


class FrontMatterError(Exception):
    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint


@lru_cache(maxsize=1)
def _yaml_loader() -> type:
    """PyYAML's SafeLoader, leaving timestamps as the text the author wrote (PyYAML is
    imported when a YAML file is met: TOML sites never pay for it).

    Aliases (`*name`) are refused where they are met. Each one repeats a whole value, so
    a few lines of nested aliases stand for billions of values, which everything that
    walks the talk (checks, templates, the workers' pickles) would go through; an alias inside its
    own anchor (`&x [*x]`) makes a value that contains itself. Talk files have no use
    for them: the value is written out where it is wanted."""
    import yaml

    class TextTimestampLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, f"the alias `*{event.anchor}` is not supported: write the "
                    "value out in full where it is used", event.start_mark)
            return super().compose_node(parent, index)

        def construct_object(self, node: Any, deep: bool = False) -> Any:
            """A value its tag cannot make (`!!int x`) fails at that value's line."""
            try:
                return super().construct_object(node, deep)
            except (yaml.YAMLError, RecursionError):
                raise
            except Exception as exc:
                if not raised_by_parser(exc):
                    raise
                raise yaml.constructor.ConstructorError(
                    None, None, _unmade(node, exc), node.start_mark) from None

    TextTimestampLoader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return TextTimestampLoader


# Linear on any text: no two quantifiers in a row can share a character, so a failed
# match is never tried again with the characters split differently between them. The
# spaces around a name or before a position are stripped afterwards, in Python.
_TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)\s*$")
_RTOML_POSITION = re.compile(r"at line (\d+) column (\d+)\s*$")
_TOML_TABLE = re.compile(r"^\s*\[\[?([^\]]+)\]\]?\s*(#.*)?$")
_TOML_ARRAY_TABLE = re.compile(r"^\s*\[\[([^\]]+)\]\]")
_TOML_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")
_YAML_KEY = re.compile(r"""^(\s*)(?:-\s+)?("[^"]*"|'[^']*'|[A-Za-z0-9_][\w.-]*)\s*:(\s|$)""")


def split(text: str) -> FrontMatter:
    """Parse `text`, the whole talk file; raise FrontMatterError with a file line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise FrontMatterError("the file contains NUL bytes; is it a binary file?", 1, 1)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    lines[:first] = [""] * first  # Hugo allows blank lines before the front matter
    opening = lines[first].strip() if lines else ""
    fmt = DELIMITERS.get(opening)
    if fmt is None:
        raise FrontMatterError(
            "no front matter: the file must start with a `+++` (TOML) or `---` (YAML) line",
            first + 1, 1,
            hint='start the file with `+++`, then `title = "…"` and `date = …`, then `+++`')
    for index in range(first + 1, len(lines)):
        if lines[index].rstrip() == opening:
            closing = index
            break
    else:
        raise FrontMatterError(
            f"the front matter opened on line {first + 1} with `{opening}` is never closed",
            first + 1, 1, hint=f"add a line `{opening}` after the last field")
    # Parse with the lines before the block blanked, so parser line numbers are file lines.
    head = [""] * (first + 1) + lines[first + 1:closing]
    source = "\n".join(head)
    body = "\n".join(lines[closing + 1:])
    try:
        data = parse_toml(source) if fmt == "toml" else _parse_yaml(source)
    except FrontMatterError as exc:
        if exc.line is None:  # "at end of document": point at the last line of the block
            exc.line = max(closing, first + 1)
            exc.column = len(lines[exc.line - 1]) + 1 if closing > first + 1 else 1
        raise
    return FrontMatter(data=data, format=fmt, body=body, body_line=closing + 2,
                       head=tuple(head))


def read_toml(source: str) -> dict[str, Any]:
    """A TOML file of talkpages' own making (no dates in it): rtoml's reading when it
    accepts the text (a 1 MB sequence.lock in 35 ms, against tomllib's 300), else
    tomllib's, which raises the error with its words and place."""
    data, _ = _by_rtoml(source)
    if data is None:
        data = tomllib.loads(source)
    return data


def _by_rtoml(source: str) -> tuple[dict[str, Any] | None, BaseException | None]:
    """rtoml's reading of `source`, or None and why it refused (tomllib then decides)."""
    if rtoml is None or "\ufeff" in source:  # rtoml takes a byte order mark as space,
        return None, None                    # which TOML does not
    try:
        return rtoml.loads(source), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: B036 - a panic of rtoml's too: tomllib decides
        return None, exc


def parse_toml(source: str) -> dict[str, Any]:
    data, rejected = _by_rtoml(source)
    if data is not None:
        return _standard_offsets(data)  # type: ignore[no-any-return]
    try:
        parsed: dict[str, Any] = tomllib.loads(source)
        return parsed
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        line = column = None
        if match:
            message = message[: match.start()].rstrip()
            line, column = int(match.group(1)), int(match.group(2))
        else:
            message = message.replace(" (at end of document)", "")
        raise FrontMatterError(f"invalid TOML front matter: {_lower_first(message)}", line,
                               column, hint=_toml_hint(message)) from None
    except RecursionError:
        raise FrontMatterError("invalid TOML front matter: nesting is too deep") from None
    except Exception as exc:
        if not raised_by_parser(exc):
            raise
        # tomllib stopped without wording an error (a 5,000-digit integer fails int()):
        # rtoml's words and place, when it has them, else the exception's.
        message, line, column = _reason(exc), None, None
        match = _RTOML_POSITION.search(str(rejected or ""))
        if match:
            message = str(rejected)[: match.start()].rstrip()
            line, column = int(match.group(1)), int(match.group(2))
        raise FrontMatterError(f"invalid TOML front matter: {_lower_first(message)}", line,
                               column, hint=_toml_hint(message)) from None


def _standard_offsets(value: Any) -> Any:
    """rtoml's values with every UTC offset as a `datetime.timezone`, as tomllib gives."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list, datetime)):
                value[key] = _standard_offsets(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list, datetime)):
                value[index] = _standard_offsets(item)
    elif isinstance(value, datetime) and value.tzinfo is not None \
            and type(value.tzinfo) is not timezone:
        offset = value.utcoffset()
        return value.replace(tzinfo=timezone.utc if not offset else timezone(offset))
    return value


def _parse_yaml(source: str) -> dict[str, Any]:
    data = load_yaml(source)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise FrontMatterError("the YAML front matter must be a mapping of `key: value` lines")
    return {str(k): v for k, v in data.items()}


def load_yaml(source: str, what: str = "YAML front matter") -> Any:
    """`source` read with the loader of talk files (no aliases, timestamps as text);
    every failure a FrontMatterError `invalid <what>: …`, with its line where known.

    Lines and columns are counted from the mark's index, not taken from it: PyYAML also
    breaks lines at U+0085, U+2028 and U+2029, where the file and editors do not."""
    import yaml

    loader = None
    try:
        loader = _yaml_loader()(source)
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = _place(source, mark.index) if mark else (None, None)
        problem = exc.problem or exc.context or "it cannot be parsed"
        raise FrontMatterError(f"invalid {what}: {problem}", line, column) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, as it is
        line, column = _place(source, exc.position)
        raise FrontMatterError(
            f"invalid {what}: the character U+{exc.character:04X} is not allowed in YAML",
            line, column, hint="remove it: an editor may show it as a box, or as ^ and a "
            "letter") from None
    except (yaml.YAMLError, RecursionError) as exc:
        raise FrontMatterError(f"invalid {what}: {_reason(exc)}") from None
    except Exception as exc:
        if not raised_by_parser(exc):
            raise
        line, column = _place(source, loader.get_mark().index) if loader else (None, None)
        raise FrontMatterError(f"invalid {what}: {_reason(exc)}", line, column) from None
    finally:
        if loader is not None:
            loader.dispose()  # type: ignore[no-untyped-call]


def _place(source: str, index: int) -> tuple[int, int]:
    """The line and column of the character at `index`, as the file counts them."""
    start = source.rfind("\n", 0, index) + 1
    return source.count("\n", 0, index) + 1, index - start + 1


def _unmade(node: Any, exc: Exception) -> str:
    """What went wrong with a value its tag could not make, for a message."""
    tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
    reason = f": {_reason(exc)}" if isinstance(exc, ValueError) else ""
    if not isinstance(node.value, str):
        return f"the value cannot be read as {tag}{reason}"
    value = node.value
    shown = f"`{value[:20]}…{value[-10:]}` ({len(value)} characters)" if len(value) > 40 \
        else f"`{value}`"
    return f"{shown} cannot be read as {tag}{reason}"


def _reason(exc: BaseException) -> str:
    """The first clause of an exception's message: Python's own advice that follows,
    such as `use sys.set_int_max_str_digits()`, is for programmers."""
    return _lower_first(str(exc).split(";")[0].split("\n")[0].strip()) or type(exc).__name__


def _toml_hint(message: str) -> str | None:
    lowered = message.lower()
    if "invalid value" in lowered or "invalid date" in lowered:
        return ("strings need quotes, dates are written 2019-05-22 or 2019-05-22T14:50:00, "
                "lists as [\"a\", \"b\"]")
    if "cannot overwrite" in lowered or "duplicate" in lowered:
        return "each key may appear only once in a table"
    if "integer" in lowered:
        return "whole numbers have at most 19 digits; write a longer one as text, in quotes"
    return None


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def toml_key_lines(lines: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    prefix = ""
    for offset, raw in enumerate(lines):
        line_no = offset + 1
        table = _TOML_TABLE.match(raw)
        if table:
            prefix = table.group(1).strip().strip("\"'").lower() + "."
            found.setdefault(prefix[:-1], line_no)
            continue
        key = _TOML_KEY.match(raw)
        if key:
            name = key.group(1).strip("\"'").lower()
            found.setdefault(prefix + name, line_no)
    return found


def _yaml_key_lines(lines: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    parent = ""
    for offset, raw in enumerate(lines):
        key = _YAML_KEY.match(raw)
        if not key:
            continue
        name = key.group(2).strip("\"'").lower()
        if key.group(1) == "":
            parent = name
            found.setdefault(name, offset + 1)
        else:
            found.setdefault(f"{parent}.{name}", offset + 1)
    return found
