"""The theme: Jinja2 templates from `layouts/` and static files from `assets/`.

The built-in theme ships inside the package (`talkpages/theme/` in the wheel; the
repository's own `layouts/` and `assets/` when running from a checkout). A site's own
`layouts/` and `assets/` override it file by file: a site that only wants another
stylesheet puts one `assets/style.css` next to its `talks/`.

CSS and JavaScript files are published under content-hashed names
(`assets/style.3f9a0c1d2e.css`), so a browser or CDN can keep them for a year and
still never serve a stale one; templates name them through the `asset` filter.

A site with templates of its own runs every template in Jinja's sandbox (`Sandbox`):
a site's `layouts/` may come from a stranger's repository, and a template that could
reach Python's objects could run any command or read any file of the machine that
builds it. The built-in templates alone are part of talkpages and run unsandboxed,
about a tenth faster; they give the same bytes in the sandbox (a test says so).

Which templates are the site's is decided by what the loader can load, never by a
second look at the folder: the site's templates are found once, by the walk that reads
a site (links followed only while they stay inside it, `links.walk`), and the loader
(`SiteLoader`) serves those names and no other. A `layouts` that is a link, a linked
folder inside it (`layouts/partials -> ../parts`) or a linked file: each is found by
the same walk, so each makes the site's templates sandboxed. A site with a `layouts`
entry of any kind runs sandboxed even when the walk finds no template in it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import os
import types
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import jinja2
import jinja2.bccache
import markupsafe
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from ..content import links
from ..content.colours import accent_css, accent_shades
from ..content.config import Config
from ..content.messages import Messages, messages_for
from .translated import install, script_messages

_PACKAGE = Path(__file__).resolve().parent.parent  # talkpages/


def builtin_dir(kind: str) -> Path:
    """`layouts` or `assets` of the built-in theme."""
    installed = _PACKAGE / "theme" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / kind  # a source checkout, or an editable install




def site_files(folder: Path, site_dir: Path) -> dict[str, Path]:
    """The files of a theme folder of the site (`layouts/`, `assets/`) by their POSIX
    names inside it, found as a build reads a site: through links that stay inside the
    site (`layouts` itself may be one), never through one that leads out; hidden files
    included. What is wrong with a link is reported by the loader (`links.check_tree`)."""
    names = links.check_tree(folder, links.real(site_dir), [])
    return {name: folder / name for name in names}


class SiteLoader(jinja2.BaseLoader):
    """The site's own templates: the names `site_files` found, and no other. A file is
    read when a template asks for it, at most `TEMPLATE_BYTES` of it."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        path = self.files.get(template)
        if path is None:
            raise jinja2.TemplateNotFound(template)
        try:
            with open(path, "rb") as handle:
                data = handle.read(TEMPLATE_BYTES + 1)
        except OSError as exc:
            raise jinja2.TemplateNotFound(template) from exc
        if len(data) > TEMPLATE_BYTES:
            raise jinja2.TemplateError(f"the template {template} is larger than "
                                       f"{TEMPLATE_BYTES // 1024 // 1024} MiB")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise jinja2.TemplateError(f"the template {template} is not UTF-8 text") from exc
        return source, str(path), lambda: True

    def list_templates(self) -> list[str]:
        return sorted(self.files)


TEMPLATE_BYTES = 4 * 1024 * 1024  # a template is a page of markup, not a data file


@dataclass(frozen=True)
class Theme:
    env: jinja2.Environment
    assets: dict[str, Path]  # name (POSIX, relative to assets/) -> file
    published: dict[str, str] = field(default_factory=dict)  # name -> hashed name, CSS/JS
    # name -> what is published before and after the file: the CSS of the settings after
    # style.css, the translations of a script's messages before it
    around: dict[str, tuple[str, str]] = field(default_factory=dict)
    messages: Messages = field(default_factory=lambda: messages_for("en"))

    def published_name(self, name: str) -> str:
        """The name an asset is written under: hashed for CSS and JS, else as it is."""
        return self.published.get(name, name)

    def for_config(self, config: Config) -> Theme:
        """The theme with the rules of the site's settings after its `style.css` (the
        accent colour's shades: colours.py), and the translations of what each script
        says before it (translated.py), each published under the hash of the whole: a
        new colour or translation is a new address. The files themselves are left as
        they are."""
        around: dict[str, tuple[str, str]] = {}
        if config.accent_color and "style.css" in self.assets:
            around["style.css"] = ("", accent_css(accent_shades(config.accent_color)))
        said = self.messages.translations or self.messages.overrides  # else English
        scripts = {name: path.read_bytes() for name, path in self.assets.items()
                   if said and name.endswith((".js", ".mjs"))}
        for name, data in scripts.items():
            before = script_messages(data, self.messages)
            if before:
                around[name] = (before, "")
        if not around:
            return self
        published = {**self.published}
        for name, (before, after) in around.items():
            data = scripts.get(name) or self.assets[name].read_bytes()
            published[name] = hashed_name(name, before.encode() + data + after.encode())
        return dataclasses.replace(self, published=published, around=around)

    @classmethod
    def for_site(cls, site_dir: Path,
                 compiled: Callable[[str, str], jinja2.BytecodeCache] | None = None,
                 messages: Messages | None = None) -> Theme:
        """`compiled`: where compiled templates are kept between builds (as Python keeps
        .pyc files), given the name of the kind of environment (the sandbox's code is
        its own) and of the messages baked into them; None: compiled at every build.
        `messages`: what the pages say, in the site's language (English by default)."""
        messages = messages or messages_for("en")
        own_files = site_files(site_dir / "layouts", site_dir)
        kind = Sandbox if own_files or os.path.lexists(site_dir / "layouts") else Environment
        env = kind(
            bytecode_cache=compiled(f"{kind.__name__}-{messages.language.lower()}",
                                    messages.digest) if compiled else None,
            loader=jinja2.ChoiceLoader([
                SiteLoader(own_files),
                jinja2.FileSystemLoader(str(builtin_dir("layouts")))]),
            autoescape=escaped,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,  # a Theme lives for one build, or until serve sees a change
        )
        install(env, messages)
        assets: dict[str, Path] = {}
        builtin = builtin_dir("assets")
        for path in sorted(builtin.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                assets[path.relative_to(builtin).as_posix()] = path
        assets.update((name, path) for name, path in site_files(site_dir / "assets",
                                                                  site_dir).items()
                      if not PurePath(name).name.startswith("."))
        published = {name: hashed_name(name, path.read_bytes()) for name, path in assets.items()
                     if name.endswith(HASHED_SUFFIXES)}
        return cls(env=env, assets=assets, published=published, messages=messages)


def escaped(name: str | None) -> bool:
    """Whether a template's values are HTML-escaped: in all but plain text (`.txt`, the
    announcements' e-mail and posts: announce.py), where `&amp;` would be read as is."""
    return name is None or not name.endswith(".txt")


# Objects a template may hold but never look into: a path or a file would read the disk,
# a module anything at all.
_CLOSED = (PurePath, io.IOBase, os.DirEntry, types.ModuleType)
# Operators a template may not use to make a number or a sequence of any size: `9**99999999`
# would take the machine's memory and time, and Jinja folds constants when it compiles.
_LARGEST_RESULT = 10_000_000  # items of a sequence, or bits of a number
# The longest text or list any one step of a template may make (`~`, `+`, `%`, a filter
# or a method): a value doubled in a loop is stopped before it is large enough to hurt
# (a list page of 100,000 talks is some 50 million characters: it is made as output,
# which the render budget watches, not as one value).
_LARGEST_VALUE = 1 << 25


class _JoinedOutput(CodeGenerator):
    """Jinja's code generator, with the pieces of one stretch of output yielded as one
    text: `<a href="{{ url }}">{{ name }}</a>` is `yield "".join(("<a href=\"",
    escape(url), "\">", escape(name), "</a>"))`, not five yields. Each yield passes
    through every template and block above it (a talk's page is some 300 pieces), and
    a join in C costs less. The same text, in the same order: nothing a piece computes
    can write output of its own (a macro or `caller()` returns its text)."""

    def visit_Output(self, node: nodes.Output, frame: Frame) -> None:
        if frame.buffer is not None or frame.require_output_check or len(node.nodes) < 2:
            super().visit_Output(node, frame)  # a macro's buffer, or outside a block
            return
        finalize = self._make_finalize()
        body: list[list[Any] | nodes.Expr] = []
        for child in node.nodes:  # constants folded as Jinja's own visit_Output does
            try:
                if not (finalize.const or isinstance(child, nodes.TemplateData)):
                    raise nodes.Impossible()
                const = self._output_child_to_const(child, frame, finalize)
            except Exception:  # not constant, or an error better raised as it runs
                body.append(child)
                continue
            if body and isinstance(body[-1], list):
                body[-1].append(const)
            else:
                body.append([const])
        if len(body) < 2:
            super().visit_Output(node, frame)
            return
        self.writeline("yield ''.join((")
        self.indent()
        for item in body:
            if isinstance(item, list):
                self.writeline(self._output_const_repr(item) + ",")
                continue
            self.newline(item)  # the template's line, for errors
            self._output_child_pre(item, frame, finalize)
            self.visit(item, frame)
            self._output_child_post(item, frame, finalize)
            self.write(",")
        self.outdent()
        self.writeline("))")


class _DirectAttributes(_JoinedOutput):
    """The built-in templates' code generator: `talk.title` reads the attribute in
    place, `getattr(talk, "title", missing)`, and calls Jinja's `environment.getattr`
    (an item, then Undefined) only when there is no such attribute. The same value as
    Jinja's own code, a Python call fewer for each of a talk page's some 170 dots. Not
    for the sandbox, whose getattr is its check."""

    @optimizeconst
    def visit_Getattr(self, node: nodes.Getattr, frame: Frame) -> None:
        if self.environment.is_async:
            super().visit_Getattr(node, frame)
            return
        self.write("(_got if (_got := getattr((_of := ")
        self.visit(node.node, frame)
        self.write(f"), {node.attr!r}, missing)) is not missing "
                   f"else environment.getattr(_of, {node.attr!r}))")


class _CheckedConcat(_JoinedOutput):
    """The code generator, with each `~` checked by the sandbox (Sandbox.checked)."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.checked(")
        super().visit_Concat(node, frame)
        self.write(")")


def _bounded(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter whose result is checked (Sandbox.checked); Jinja's markers of what it
    passes a filter (`pass_context`…) are kept."""
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        return Sandbox.checked(function(*args, **kwargs))

    return call


# MarkupSafe 3: the escaping itself, in C (MarkupSafe 2 has none: its `escape` is all C)
_escape_inner: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
_as_markup = str.__new__  # a Markup of a text already escaped, without Markup.__new__


def escape_markup(value: Any) -> Markup:
    """`markupsafe.escape`, the same result with one Python call instead of two: every
    `{{ … }}` of an autoescaped template calls it, over a hundred times a talk page,
    and MarkupSafe 3 wraps its C escaping in `Markup(…)`, whose `__new__` is Python."""
    if type(value) is str:
        return _as_markup(Markup, _escape_inner(value))  # type: ignore[misc]
    if type(value) is Markup:
        return value
    if hasattr(value, "__html__"):
        return _as_markup(Markup, value.__html__())
    return _as_markup(Markup, _escape_inner(str(value)))  # type: ignore[misc]


class _Template(jinja2.Template):
    """A template whose compiled code escapes with `escape_markup`."""

    @classmethod
    def _from_namespace(cls, environment: jinja2.Environment,
                        namespace: MutableMapping[str, Any],
                        globals: MutableMapping[str, Any]) -> jinja2.Template:
        if _escape_inner is not None:
            namespace["escape"] = escape_markup
        return super()._from_namespace(environment, namespace, globals)


class SharedGlobals(jinja2.Environment):
    """The environment's globals as every template's own, not Jinja's ChainMap of a
    template's and the environment's: a render copies a template's globals into its
    context (once for the page, again for each macro imported with it), and a ChainMap
    is copied key by key in Python, a twentieth of a talk page's time. A template
    loaded with globals of its own (never, here) keeps Jinja's way."""

    template_class = _Template

    def make_globals(self, d: MutableMapping[str, Any] | None,
                     ) -> MutableMapping[str, Any]:
        return self.globals if not d else super().make_globals(d)


class Environment(SharedGlobals):
    """The environment of the built-in templates (talkpages' own code)."""

    code_generator_class = _DirectAttributes


class Sandbox(SharedGlobals, ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox (no attribute that starts with `_`, no Python internals,
    no changing lists or dicts the build passes in), and also: nothing read from a path,
    a file or a module, whatever the object holding it; no `*` or `**` that makes more
    than ten million items or bits; and no step (`~`, `+`, `%`, a filter, a method) that
    makes a text or list longer than `_LARGEST_VALUE`. A template that tries is an error
    at its line (SecurityError is a TemplateError), and the build fails."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _CheckedConcat

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.filters = {name: _bounded(function) for name, function in self.filters.items()}

    @staticmethod
    def checked(value: Any) -> Any:
        if isinstance(value, (str, list, tuple, bytes)) and len(value) > _LARGEST_VALUE:
            raise SecurityError(f"a template may not make a text or list of {len(value):,} "
                                "characters or items in one step")
        return value

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, _CLOSED) or isinstance(value, _CLOSED[1:]):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def is_safe_callable(self, obj: Any) -> bool:
        owner = getattr(obj, "__self__", None)
        return not isinstance(owner, _CLOSED) and super().is_safe_callable(obj)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any,  # noqa: N805
             *args: Any, **kwargs: Any) -> Any:
        return __self.checked(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        if operator == "**" and isinstance(left, int) and isinstance(right, int) \
                and right > 0 and left.bit_length() * right > _LARGEST_RESULT:
            raise SecurityError(f"{left} ** {right} is too large a number for a template")
        if operator == "*":
            for count, other in ((left, right), (right, left)):
                if isinstance(count, int) and hasattr(other, "__len__") \
                        and count * len(other) > _LARGEST_RESULT:
                    raise SecurityError("a template may not repeat text or a list "
                                        f"{count} times")
        return self.checked(super().call_binop(context, operator, left, right))


HASHED_SUFFIXES = (".css", ".js", ".mjs")


def hashed_name(name: str, data: bytes) -> str:
    """`style.css` -> `style.<first 10 hex digits of its SHA-256>.css`."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}{dot}{suffix}"
