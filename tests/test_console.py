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
    lines = out.splitlines()[1:]
    assert lines[0].split() == ["Talks", "2", "1", "upcoming,", "1", "past"]
    assert lines[1].split()[:2] == ["Pages", str(sum(1 for _ in (site / "public").rglob(
        "*.html")))]
    assert lines[-1].startswith("Built 2 talks in ") and lines[-1].endswith("public")
    assert out.splitlines()[0] == "Updated sequence.lock: commit it with the site"
    code, out, _ = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and "sequence.lock" not in out  # nothing changed since
    code, out, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat(), "-q",
                             "-o", str(site / "quiet"))
    assert (code, out, err) == (0, "", "")
    code, out, _ = run_cli("build", "-s", str(site), "--now", NOW.isoformat(), "-v",
                           "-o", str(site / "verbose"))
    assert code == 0 and "assets/" in out and "files" in out


CONTROLS = "\x1b[2J\x07\x7f\x9b31m\r\nforged: error: x\ud800"


def test_messages_quoting_control_characters_reach_the_terminal_escaped() -> None:
    found = Diagnostic(Path(f"talks/{CONTROLS}.md"), f"`url_{CONTROLS}` must be a URL", 2, 1,
                       hint=f"not {CONTROLS}", causes=(CONTROLS,))
    out, err = Terminal(), Terminal()
    console = Console(out, err, verbose=True)
    console.diagnostics([found])
    console.info(f"Created {CONTROLS}\n\tnext line")
    console.detail(CONTROLS)
    console.error(CONTROLS)
    for text in (out.getvalue(), err.getvalue()):
        plain = text.replace("\x1b[0m", "").replace("\x1b[1;31m", "").replace(
            "\x1b[1m", "").replace("\x1b[36m", "").replace("\x1b[2m", "")
        assert not any(c < " " and c not in "\n\t" or "\x7f" <= c <= "\x9f" for c in plain)
        assert not any("\ud800" <= c <= "\udfff" for c in plain)
        text.encode("utf-8")
    lines = err.getvalue().splitlines()
    assert len(lines) == 4  # the message, its cause, its hint, the error: nothing forged
    assert "`url_\\x1b[2J\\x07\\x7f\\x9b31m\\r\\nforged: error: x\\ud800` must be a URL" \
        in lines[0]
    assert "talks/\\x1b[2J" in lines[0] and "\tnext line" in out.getvalue()


def test_json_diagnostics_quote_control_characters_escaped() -> None:
    found = Diagnostic(Path(f"talks/{CONTROLS}.md"), f"`{CONTROLS}`", 2, hint=CONTROLS,
                       causes=(CONTROLS,)).to_json()
    for value in (found["path"], found["message"], found["hint"], *found["causes"]):
        assert isinstance(value, str) and "\\x9b31m\\r\\n" in value and "\x1b" not in value


def test_check_prints_keys_with_control_characters_escaped(make_site: MakeSite,
                                                           run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", extra='"url_\\u009b2J" = 3\n'
                                                  '"url_\\u001b]0;pwned\\u0007" = 4')})
    code, out, err = run_cli("check", "-s", str(site))
    assert code == 1
    assert "`url_\\x9b2J` must be a URL written as text" in err
    assert "`url_\\x1b]0;pwned\\x07` must be a URL written as text" in err
    assert not any(c < " " and c != "\n" or "\x7f" <= c <= "\x9f" for c in out + err)
    code, out, _ = run_cli("check", "-s", str(site), "--format", "json")
    assert "\x9b" not in out and "url_\\\\x9b2J" in out


def test_file_names_with_control_characters_are_printed_escaped(make_site: MakeSite,
                                                                run_cli) -> None:
    site = make_site({"talks/a\x1b]0;pwned\x07.md": "+++\ntitle = 3\n+++\n"})
    code, out, err = run_cli("check", "-s", str(site))
    assert code == 1
    assert "a\\x1b]0;pwned\\x07.md" in err
    assert "\x1b" not in out + err and "\x07" not in out + err


def test_usage_errors_quote_the_words_typed_escaped(run_cli) -> None:
    code, out, err = run_cli("build", "\x1b[2J\x9b31m")
    assert code == 2
    assert "\\x1b[2J\\x9b31m" in err
    assert "\x1b" not in out + err and "\x9b" not in out + err


def test_an_internal_error_is_printed_escaped(run_cli, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    from talkpages.commands import cli

    def broken(args: object) -> int:
        raise RuntimeError("at talks/\x1b[2J.md")

    monkeypatch.setattr(cli, "_check", broken)
    code, _, err = run_cli("check", "-s", str(tmp_path))
    assert code == 3 and "talks/\\x1b[2J.md" in err and "\x1b" not in err


def test_the_address_serve_took_is_printed_escaped() -> None:
    out = io.StringIO()
    Console(out, io.StringIO(), quiet=True).notice("Serving http://\x1b[2J/ (Ctrl-C to stop)")
    assert out.getvalue() == "Serving http://\\x1b[2J/ (Ctrl-C to stop)\n"
