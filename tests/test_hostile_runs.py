"""Long runs of the characters each language of a site gives a meaning to, fed to
`check`, `build` and `new`: the answer comes in seconds, and it is a site or errors
(exit 0 or 1), never an internal error (3).

A site may be a stranger's repository, and a parser that backtracks, a nesting it
follows to the end, or a loop that measures a title again for every character it
adds, turns 10,000 characters into minutes. Each case runs within a deadline
(`DEADLINE` seconds, HOSTILE_DEADLINE to change it) long enough for any linear
algorithm on a slow machine and far too short for a quadratic one at these sizes.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import tomli_w

from conftest import NOW, RunCli

DEADLINE = float(os.environ.get("HOSTILE_DEADLINE", "5"))
N = 10_000  # repetitions of a unit of one or two characters
DATE = "2026-12-21T10:00:00"  # upcoming at NOW: the talk gets its own social card
HEAD = {"title": "A talk", "date": DATE, "url_slides": "https://example.org/s"}


def runs(unit: str, n: int = N) -> str:
    return unit * n


def backticks(n: int = 3_000) -> str:
    """Code span openers of every length, each closed nowhere: ` `` ``` `` ` ..."""
    return " ".join("`" * (1 + i % 3 if (i // 3) % 2 == 0 else 3 - i % 3) for i in range(n))


MARKDOWN = {
    "backticks": runs("`"), "backtick-runs": backticks(),
    "backtick-lengths": " ".join("`" * n for n in range(1, 120)) + "\n<iframe src=x>\n",
    "stars": runs("*"),
    "underscores": runs("_"), "brackets": runs("["), "closing-brackets": runs("]"),
    "parens": runs("("), "closing-parens": runs(")"), "angles": runs("<"),
    "quotes": runs(">"), "quote-nesting": runs("> ", 5_000), "bangs": runs("!"),
    "hashes": runs("#"), "tildes": runs("~"), "pipes": runs("|"), "backslashes": runs("\\"),
    "ampersands": runs("&"), "entities": runs("&#", 5_000), "star-a": runs("*a", 5_000),
    "under-a": runs("_a", 5_000), "strong-a": runs("**a", 4_000),
    "strike-a": runs("~~a", 4_000), "link-openers": runs("[a](", 4_000),
    "image-openers": runs("![", 5_000), "empty-links": runs("[](", 5_000),
    "html-openers": runs("<a ", 5_000), "comments": runs("<!--", 3_000),
    "cdata": runs("<![CDATA[", 2_000), "autolinks": runs("<http://a", 2_000),
    "bare-urls": runs("www.a", 3_000), "list-nesting": runs("- ", 5_000),
    "ordered-nesting": runs("1. ", 4_000),
    "indent-nesting": "\n".join(" " * i + "- a" for i in range(0, 4_000, 2)),
    "table": "|a" * 2_000 + "|\n" + "|-" * 2_000 + "|\n" + "|b" * 2_000 + "|\n",
    "table-rows": runs("|a|\n|-|\n", 3_000), "newlines": runs("\n"),
    "spaces": runs(" ") + "x", "space-newline": runs(" \n"),
    "escaped-backticks": runs("\\`", 5_000), "footnotes": runs("[^1]", 3_000),
    "dollars": runs("$"), "math": runs("$a$", 4_000), "display-math": runs("$$", 5_000),
    "fences": runs("```\n", 3_000), "setext": runs("a\n=\n", 3_000),
    "references": runs("[a]: <", 3_000),
}
JINJA = {"jinja-expressions": runs("{{"), "jinja-statements": runs("{%"),
         "jinja-comments": runs("{#"), "jinja-sums": runs("{{ 7*7 }}", 2_000),
         "jinja-raw": runs("{% raw %}", 2_000), "jinja-ends": runs("}}{%- endraw %}", 1_000)}
TOML = {"toml-brackets": runs("["), "toml-quotes": runs('"'), "toml-literals": runs("'''", 5_000),
        "toml-braces": runs("{"), "toml-equals": runs("="), "toml-arrays": runs("a = [", 3_000),
        "toml-inline-tables": runs("a = {", 3_000), "toml-dotted": runs("a.", 5_000) + "b = 1",
        "toml-tables": runs("[[a]]\n", 3_000), "toml-nested": "a = " + runs("[", 5_000)
        + runs("]", 5_000), "toml-comments": runs("#")}
YAML = {"yaml-dashes": runs("-"), "yaml-sequences": runs("- ", 5_000),
        "yaml-brackets": "a: " + runs("["), "yaml-braces": "a: " + runs("{"),
        "yaml-anchors": runs("&a *a "), "yaml-aliases": "a0: &a0 [x, x]\n" + "".join(
            f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 60)),
        "yaml-colons": runs(":"), "yaml-questions": runs("? ", 5_000),
        "yaml-indents": "\n".join(" " * i + "a:" for i in range(2_000)),
        "yaml-quotes": "a: " + runs('"'), "yaml-tags": runs("!!", 5_000)}
WORDS = {"letters": runs("a"), "words": runs("word ", 2_000)}
TITLES = {**WORDS, **{name: MARKDOWN[name] for name in (
    "backticks", "backtick-runs", "backtick-lengths", "stars", "underscores", "brackets",
    "angles", "ampersands", "backslashes", "link-openers", "entities", "math", "spaces",
    "newlines")},
    "jinja-expressions": JINJA["jinja-expressions"]}
SHORT_LIST = {name: TITLES[name] for name in (
    "letters", "words", "backticks", "brackets", "angles", "ampersands", "jinja-expressions")}
SVG = {"svg-angles": runs("<"), "svg-ampersands": "<svg>" + runs("&"),
       "svg-entities": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a0 "aaaaaaaaaa">'
       + "".join(f'<!ENTITY a{i} "&a{i - 1};&a{i - 1};">' for i in range(1, 40))
       + ']><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">&a39;</svg>',
       "svg-nesting": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
       + runs("<g>") + runs("</g>") + "</svg>",
       "svg-open-nesting": '<svg xmlns="http://www.w3.org/2000/svg">' + runs("<g>"),
       "svg-long-number": f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1{"0" * N} 1"'
       f' width="{"9" * N}" height="1.{"5" * N}e{"9" * 50}"/>',
       "svg-many-numbers": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="'
       + runs("1 ", 5_000) + '"/>',
       "svg-attributes": "<svg " + "".join(f'a{i}="{i}" ' for i in range(3_000)) + "/>"}


class Expired(BaseException):  # not an Exception: no command may take it for its own
    pass


@contextmanager
def deadline() -> Iterator[None]:
    """Interrupts what runs past DEADLINE (in Python code, and in Python's own regular
    expressions, which heed signals); the seconds it took are checked as well."""
    def expired(signum: int, frame: object) -> None:
        raise Expired

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, DEADLINE)
    started = time.perf_counter()
    try:
        yield
    except Expired:
        pytest.fail(f"still running after {DEADLINE} s", pytrace=False)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    took = time.perf_counter() - started
    assert took < DEADLINE, f"took {took:.1f} s"


def site_of(root: Path, files: dict[str, str], config: str = "") -> Path:
    site = root / "site"
    (site / "talks").mkdir(parents=True)
    (site / "talkpages.toml").write_text(config or 'title = "Talks"\n', encoding="utf-8")
    for name, text in files.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    return site


def talk_file(body: str = "Some words.", **fields: str) -> str:
    return f"+++\n{tomli_w.dumps({**HEAD, **fields})}+++\n{body}\n"


def check_and_build(run_cli: RunCli, site: Path, *first: str) -> None:
    """`talkpages new` with `first` (when given), then `check` and `build`, within the
    deadline: each a site or errors, never an internal error."""
    commands = [["new", "-s", str(site), "--date", DATE[:16], *first]] if first else []
    commands += [[name, *quiet, "-s", str(site), "--now", NOW.isoformat()]
                 for name, quiet in (("check", []), ("build", ["-q"]))]
    with deadline():
        for command in commands:
            code, _, err = run_cli(*command)
            assert code in (0, 1), err[-2000:]
            assert code == 0 or "error:" in err


def cases(kind: str, payloads: dict[str, str]) -> list[object]:
    return [pytest.param(payload, id=f"{kind}-{name}") for name, payload in payloads.items()]


@pytest.mark.parametrize("payload", cases("body", {**MARKDOWN, **JINJA}))
def test_a_talk_body_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": talk_file(payload)}))


@pytest.mark.parametrize("payload", cases("title", TITLES))
def test_a_talk_title_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": talk_file(title=payload)}))


@pytest.mark.parametrize("payload", cases("front-matter", {**TOML, **JINJA}))
def test_toml_front_matter_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    text = f"+++\n{tomli_w.dumps(HEAD)}{payload}\n+++\nSome words.\n"
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": text}))


@pytest.mark.parametrize("payload", cases("yaml", YAML))
def test_yaml_front_matter_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    text = f"---\ntitle: A talk\ndate: {DATE}\n{payload}\n---\nSome words.\n"
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": text}))


@pytest.mark.parametrize("payload", cases("config", {**TOML, **JINJA}))
def test_a_config_file_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": talk_file()}, payload))


@pytest.mark.parametrize("payload", cases("site-title", SHORT_LIST))
def test_a_site_title_and_description_of_long_runs(tmp_path: Path, run_cli: RunCli,
                                                   payload: str) -> None:
    config = tomli_w.dumps({"title": payload, "description": payload, "author": payload})
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": talk_file()}, config))


@pytest.mark.parametrize("payload", cases("logo", SVG))
def test_a_logo_of_long_runs(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    config = 'title = "Talks"\nlogo = "images/logo.svg"\nfavicon = "images/logo.svg"\n'
    check_and_build(run_cli, site_of(tmp_path, {"talks/t.md": talk_file(),
                                                "images/logo.svg": payload}, config))


@pytest.mark.parametrize("payload", cases("new", SHORT_LIST))
def test_new_with_a_long_title(tmp_path: Path, run_cli: RunCli, payload: str) -> None:
    check_and_build(run_cli, site_of(tmp_path, {}), payload)


def test_jinja_syntax_in_a_talk_is_shown_as_written(tmp_path: Path, run_cli: RunCli) -> None:
    """A talk is data: `{{ 7*7 }}` in its title or body is text on the page."""
    site = site_of(tmp_path, {"talks/t.md": talk_file("Body {{ 7*7 }} {% if 1 %}x{% endif %}",
                                                      title="T {{ 7*7 }}", slug="t")})
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0, err
    page = (site / "public" / "t" / "index.html").read_text(encoding="utf-8")
    assert "{{ 7*7 }}" in page and "{% if 1 %}x{% endif %}" in page
    assert "T 49" not in page
