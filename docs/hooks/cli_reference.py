"""The command line's reference, made from the parser the command itself uses
(`talkpages.commands.arguments.parser`), so that the page cannot say an option exists
that does not, or leave one out.

docs/cli.md holds a marker for the program and one for each command,
`<!-- talkpages-cli: build -->`, among the notes written by hand; each marker becomes
the command's usage, description and options. A command without a marker, or a marker
naming no command, fails the build: a new command needs its place on the page.

An MkDocs hook (`hooks:` in mkdocs.yml); `render` needs no MkDocs, and the tests call it.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from pathlib import Path
from typing import Any

# The checkout's own code, not whichever talkpages is installed: the page describes the
# parser beside it.
SOURCE = Path(__file__).resolve().parents[2] / "src"

PAGE = "cli.md"
PROGRAM = "talkpages"
MARKER = re.compile(r"<!--\s*talkpages-cli:\s*([\w-]+)\s*-->")
WIDTH = 80  # the usage lines' width, whatever the terminal that builds the docs
ANSI = re.compile(r"\x1b\[[0-9;]*m")

try:  # a clean message from `mkdocs build` rather than a traceback
    from mkdocs.exceptions import PluginError as PageError
except ImportError:  # the tests, without MkDocs
    PageError = ValueError  # type: ignore[assignment,misc]


def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each command's name and parser, in the order they were added."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each command's one-line help, as `talkpages --help` lists it."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def options(command: argparse.ArgumentParser) -> list[argparse.Action]:
    """What the command takes, but `-h`, which every command takes, and the commands
    themselves, which have sections of their own."""
    return [action for action in command._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))]


def escape(text: str) -> str:
    """Text for a Markdown paragraph or table cell, read as written."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|])", r"\\\1", text)


def usage(command: argparse.ArgumentParser) -> str:
    """The usage line as `--help` prints it, wrapped at WIDTH."""
    formatter_class: Any = command.formatter_class
    command.formatter_class = functools.partial(formatter_class, width=WIDTH)
    try:
        text = command.format_usage()
    finally:
        command.formatter_class = formatter_class
    # argparse lines the wrapped lines up under the first one's "usage: " prefix
    prefix = "usage: "
    lines = ANSI.sub("", text).rstrip().split("\n")
    return "\n".join([lines[0].removeprefix(prefix)]
                     + [line.removeprefix(" " * len(prefix)) for line in lines[1:]])


def invocation(action: argparse.Action) -> str:
    """`-s SITE_DIR`, `--source SITE_DIR`: how the option is written."""
    if action.metavar is not None:
        value = str(action.metavar)
    elif action.choices is not None:
        value = "{" + ",".join(str(choice) for choice in action.choices) + "}"
    else:
        value = action.dest.upper() if action.option_strings else action.dest
    if not action.option_strings:
        return f"`{value}`"
    if action.nargs == 0:
        return ", ".join(f"`{option}`" for option in action.option_strings)
    return ", ".join(f"`{option} {value}`" for option in action.option_strings)


def explanation(action: argparse.Action, prog: str) -> str:
    """The option's help, with argparse's `%(default)s` and the like filled in."""
    text = action.help or ""
    if "%" in text:
        values = {**vars(action), "prog": prog}
        if action.choices is not None:
            values["choices"] = ", ".join(str(choice) for choice in action.choices)
        text = text % values
    return escape(text)


def anchor(name: str) -> str:
    """The anchor of a command's section, `## \\`talkpages build\\``."""
    return f"#{PROGRAM}-{name}"


def reference(name: str, command: argparse.ArgumentParser,
              listed: dict[str, str] | None = None) -> str:
    """One command's usage, description and options, as Markdown; for the program
    itself (`listed`: its commands' one-line help), the table of its commands too."""
    parts = [f"```text\n{usage(command)}\n```"]
    if command.description:
        parts.append(escape(command.description))
    if listed:
        rows = [f"| [`{name}`]({anchor(name)}) | {escape(summary)} |"
                for name, summary in listed.items()]
        parts.append("| command | what it does |\n| --- | --- |\n" + "\n".join(rows))
    taken = options(command)
    if taken:
        rows = [f"| {invocation(action)} | {explanation(action, command.prog)} |"
                for action in taken]
        parts.append("| argument or option | what it does |\n| --- | --- |\n"
                     + "\n".join(rows))
    return "\n\n".join(parts)


def render(markdown: str, parser: argparse.ArgumentParser | None = None) -> str:
    """The page with each marker replaced by its command's reference. Raises when a
    command has no marker, a marker names no command, or one is there twice."""
    if parser is None:
        if str(SOURCE) not in sys.path:
            sys.path.insert(0, str(SOURCE))
        from talkpages.commands.arguments import parser as talkpages_parser

        parser = talkpages_parser()
    by_name = commands(parser)
    wanted = {PROGRAM, *by_name}
    found = MARKER.findall(markdown)
    unknown = sorted(set(found) - wanted)
    missing = sorted(wanted - set(found))
    twice = sorted({name for name in found if found.count(name) > 1})
    if unknown or missing or twice:
        problems = [f"{what}: {', '.join(names)}" for what, names in (
            ("markers naming no command", unknown), ("commands without a marker", missing),
            ("markers there twice", twice)) if names]
        raise PageError(f"docs/{PAGE}: " + "; ".join(problems))

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == PROGRAM:
            return reference(name, parser, summaries(parser))
        return reference(name, by_name[name])

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs' hook: the command line's page gets its reference."""
    if page.file.src_uri == PAGE:
        return render(markdown)
    return markdown
