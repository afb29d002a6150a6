"""What commands print: colours only on a terminal and never with NO_COLOR, a progress
line only on a terminal outside CI and only for slow builds, --quiet and --verbose."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from talkpages.commands import console as console_module
from talkpages.commands.console import Console
from talkpages.diagnostics import Diagnostic

from conftest import NOW, MakeSite, talk


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "CI", "TERM"):
        monkeypatch.delenv(name, raising=False)


ERROR = Diagnostic(Path("talks/a.md"), "bad", 2, 3, hint="fix it")


def test_colours_on_a_terminal() -> None:
    err = Terminal()
    Console(Terminal(), err).diagnostics([ERROR])
    text = err.getvalue()
    assert "\x1b[1;31merror\x1b[0m" in text and "\x1b[1mtalks/a.md:2:3\x1b[0m" in text
    assert "\x1b[36mhint:\x1b[0m fix it" in text


@pytest.mark.parametrize("setting", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
def test_no_colour_when_asked(monkeypatch: pytest.MonkeyPatch, setting: dict[str, str]) -> None:
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    err = Terminal()
    Console(Terminal(), err).diagnostics([ERROR])
    assert "\x1b" not in err.getvalue()
    assert err.getvalue() == ERROR.format() + "\n"


def test_no_colour_in_pipes() -> None:
    err = io.StringIO()
    Console(io.StringIO(), err).diagnostics([ERROR])
    assert err.getvalue() == ERROR.format() + "\n"


def test_an_empty_no_color_does_not_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "")  # no-color.org: present *and* not empty
    assert Console(Terminal(), Terminal()).style("x", "ok") == "\x1b[32mx\x1b[0m"


def slow(console: Console, seconds: float) -> str:
    with console.progress(lambda: "Building: 5 talks read"):
        time.sleep(seconds)
    return console.err.getvalue()  # type: ignore[attr-defined]


def test_progress_shows_on_a_terminal_once_a_build_is_slow(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_module, "PROGRESS_AFTER", 0.05)
    shown = slow(Console(Terminal(), Terminal()), 0.4)
    assert "Building: 5 talks read" in shown and shown.endswith("\r\x1b[K")


def test_no_progress_for_a_fast_build() -> None:
    assert slow(Console(Terminal(), Terminal()), 0.05) == ""


@pytest.mark.parametrize("where", ["pipe", "ci", "quiet"])
def test_no_progress_in_pipes_ci_or_quiet(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    monkeypatch.setattr(console_module, "PROGRESS_AFTER", 0.01)
    if where == "ci":
        monkeypatch.setenv("CI", "true")
    err = io.StringIO() if where == "pipe" else Terminal()
    assert slow(Console(Terminal(), err, quiet=where == "quiet"), 0.2) == ""


def test_messages_during_progress_are_not_mixed_into_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console_module, "PROGRESS_AFTER", 0.01)
    err = Terminal()
    out = Console(Terminal(), err)
    with out.progress(lambda: "working"):
        time.sleep(0.2)
        out.error("a problem")
        time.sleep(0.2)
    assert "\r\x1b[Ka problem\n" in err.getvalue()


def test_build_summary_quiet_and_verbose(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/one.md": talk("One"), "talks/two.md": talk("Two", "2099-01-01")})
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["Talks", "2", "1", "upcoming,", "1", "past"]
    assert lines[1].split()[:2] == ["Pages", str(sum(1 for _ in (site / "public").rglob(
        "*.html")))]
    assert lines[-1].startswith("Built 2 talks in ") and lines[-1].endswith("public")
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat(), "-q",
                             "-o", str(site / "quiet"))
    assert (code, out, err) == (0, "", "")
    code, out, _ = run_cli("build", "-s", str(site), "--now", NOW.isoformat(), "-v",
                           "-o", str(site / "verbose"))
    assert code == 0 and "assets/" in out and "files" in out
