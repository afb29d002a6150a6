"""The documentation stays true to the program: the command line's page is made from the
parser (docs/hooks/cli_reference.py), and these tests make sure it names every command
and option, with no MkDocs needed; the README stays short and its links lead somewhere;
every dependency is given its reason. `.ci/run` builds the whole site with
`mkdocs build --strict`, which fails on any link or anchor between pages that leads
nowhere."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest

from talkpages.commands.arguments import parser

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_LINES = 250


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference",
                                                  DOCS / "hooks" / "cli_reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = _hook()


def _commands() -> dict[str, argparse.ArgumentParser]:
    return HOOK.commands(parser())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def cli_page() -> str:
    return HOOK.render((DOCS / "cli.md").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _section(page: str, name: str) -> str:
    """A command's section of the page: from its heading to the next command's."""
    heading = f"\n## `talkpages {name}`\n"
    assert heading in page, f"docs/cli.md has no section {heading.strip()}"
    return page.split(heading, 1)[1].split("\n## ", 1)[0]


def test_the_command_line_page_names_every_command_and_option(cli_page: str) -> None:
    assert "<!--" not in cli_page, "a marker was left on the page"
    commands = _commands()
    assert set(commands) >= {"build", "check", "new", "serve", "import", "init",
                             "next-change"}
    for name, command in commands.items():
        section = _section(cli_page, name)
        assert f"talkpages {name} [-h]" in section  # its usage
        if command.description:
            assert HOOK.escape(command.description) in section
        for action in HOOK.options(command):
            for option in action.option_strings:
                assert f"`{option}" in section, f"{name}: {option} is not on the page"
            if not action.option_strings:
                assert HOOK.invocation(action) in section, f"{name}: {action.dest}"
            if action.help:
                assert HOOK.escape(action.help) in section, f"{name}: {action.dest}'s help"


def test_the_command_line_page_lists_every_command_at_the_top(cli_page: str) -> None:
    top = cli_page.split("\n## ", 1)[0]
    for name in _commands():
        assert f"[`{name}`](#talkpages-{name})" in top


def test_a_command_without_its_place_on_the_page_fails_the_build() -> None:
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    with pytest.raises(HOOK.PageError, match="commands without a marker: serve"):
        HOOK.render(page.replace("<!-- talkpages-cli: serve -->", ""))
    with pytest.raises(HOOK.PageError, match="markers naming no command: deploy"):
        HOOK.render(page + "\n<!-- talkpages-cli: deploy -->\n")


def test_an_option_added_to_the_parser_reaches_the_page() -> None:
    """The page is the parser's: a new option needs no edit of the page to show."""
    changed = parser()
    HOOK.commands(changed)["build"].add_argument("--fast", action="store_true",
                                                 help="a new option <of> *ours*")
    page = HOOK.render((DOCS / "cli.md").read_text(encoding="utf-8"), changed)
    assert "| `--fast` | a new option &lt;of&gt; \\*ours\\* |" in _section(page, "build")


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines: the rest belongs in docs/"


def _slug(title: str) -> str:
    """A heading's anchor as MkDocs makes it (Python-Markdown's toc `slugify`), so that
    the README's links are checked without MkDocs installed."""
    text = unicodedata.normalize("NFKD", re.sub(r"[`*]", "", title))
    text = re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode("ascii"))
    return re.sub(r"[-\s]+", "-", text.strip().lower())


def test_a_slug_is_the_one_mkdocs_makes() -> None:
    assert _slug("Starting a site: `talkpages init`") == "starting-a-site-talkpages-init"
    assert _slug("GitHub's 60-day rule") == "githubs-60-day-rule"


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(title) for title in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_the_readme_links_into_the_documentation_lead_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#([^)\s]+))?\)", text)
    assert links, "README.md links to no page of docs/"
    for path, anchor in links:
        target = ROOT / path
        assert target.is_file(), f"README.md links to {path}, which does not exist"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"README.md links to {path}#{anchor}"


def _requirements(names: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\s\[]", name, maxsplit=1)[0] for name in names}


def test_every_dependency_is_given_its_reason() -> None:
    """The README justifies each thing talkpages needs to run; the dependencies page,
    each of the extras too."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    readme = README.read_text(encoding="utf-8").lower()
    page = (DOCS / "dependencies.md").read_text(encoding="utf-8").lower()
    running = _requirements(project["dependencies"])
    extras = {name for group in project["optional-dependencies"].values()
              for name in _requirements(group)}
    assert [name for name in sorted(running) if f"`{name.lower()}`" not in readme] == []
    assert [name for name in sorted(running | extras)
            if f"`{name.lower()}`" not in page] == []
