"""`language` in talkpages.toml: a BCP 47 language tag that browsers read.

The tag is the pages' `lang` and the locale `site.js` gives `Intl`; `Intl` throws on
a tag it cannot read (`en_US`), and the script then stops on every page.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from talkpages.content.config import CONFIG_NAME, load_config

from conftest import require_tool

GOOD = ["en", "EN", "en-us", "en-US", "zh-Hant-TW", "zh-hant-tw", "es-419", "de-CH-1901",
        "sl-rozaj-biske", "sr-Latn", "und", "art-lojban", "abcde", "en-u-ca-gregory",
        "en-US-u-nu-thai-x-private", "en-x-a-b", "en-a-bb", "en-t-ja", "en-t-m0-und",
        "en-t-a1-abc", "de-1996", "en-Latn-US-1234-abcde-u-ca-x-y"]
BAD = ["en_US", "", "e", "abcd", "en-", "-en", "en--US", "zh-yue", "i-klingon", "x-foo",
       "en-GB-oed", "de-1996-1996", "en-a-xx-a-yy", "en-x", "en-a-b", "en-u-c1",
       "en-u-ca-a1", "en-t-a1", "en-b-bbbbbbbbb", "en US", "en.UTF-8", "C",
       "engl\u00e9", "\u212aa", "en-\u212a\u212a", "en;",
       "a" * 101, "en-" + "-".join(["abcde"] * 40)]


def load(tmp_path: Path, value: str):  # type: ignore[no-untyped-def]
    (tmp_path / CONFIG_NAME).write_text(f'title = "T"\n\nlanguage = {json.dumps(value)}\n',
                                        encoding="utf-8")
    return load_config(tmp_path)


@pytest.mark.parametrize("tag", GOOD)
def test_a_language_tag_browsers_read_is_kept(tmp_path, tag):
    config, problems = load(tmp_path, tag)
    assert [p for p in problems if p.severity == "error"] == []  # a warning: no catalogue
    assert config.language == tag


def test_spaces_around_the_language_tag_are_dropped(tmp_path):
    config, problems = load(tmp_path, " pt-BR ")
    assert problems == []
    assert config.language == "pt-BR"


@pytest.mark.parametrize("tag", BAD)
def test_a_language_that_is_no_tag_is_an_error_at_its_line(tmp_path, tag):
    config, problems = load(tmp_path, tag)
    assert len(problems) == 1
    problem = problems[0]
    assert problem.is_error
    assert (problem.path, problem.line) == (tmp_path / CONFIG_NAME, 3)
    assert problem.message.startswith("config value 'language': ")
    assert "is not a BCP 47 language tag" in problem.message
    assert len(problem.message) < 200
    assert problem.hint
    assert config.language == "en"


@pytest.mark.parametrize(("tag", "better"), [
    ("en_US", "en-US"), ("EN_us", "en-US"), ("en_US.UTF-8", "en-US"), ("de_DE@euro", "de-DE"),
    ("zh_hant_tw", "zh-Hant-TW"), ("pt_br", "pt-BR"), ("es_419", "es-419"),
    ("zh-yue", "yue"), ("zh-cmn-Hans-CN", "cmn-Hans-CN"), ("sl_rozaj", "sl-rozaj"),
    ("EN_US_X_Private", "en-US-x-private"),
])
def test_a_language_tag_with_underscores_gets_the_tag_as_a_hint(tmp_path, tag, better):
    _, [problem] = load(tmp_path, tag)
    assert problem.hint == f"did you mean {better!r}?"


def test_the_underscore_tag_of_posix_locales_is_an_error_naming_the_right_one(
        tmp_path, run_cli):
    """`en_US` passed `check` and made the published site.js throw on every page."""
    (tmp_path / "talks").mkdir()
    (tmp_path / CONFIG_NAME).write_text('title = "T"\nlanguage = "en_US"\n', encoding="utf-8")
    code, _, err = run_cli("check", "-s", str(tmp_path))
    assert code == 1
    assert (f"{CONFIG_NAME}:2: error: config value 'language': 'en_US' is not a BCP 47 "
            "language tag\n  hint: did you mean 'en-US'?") in err


def test_a_language_tag_given_twice_says_which_part(tmp_path):
    _, [problem] = load(tmp_path, "de-1996-1996")
    assert "'1996' is given twice" in problem.message
    _, [problem] = load(tmp_path, "zh-yue")
    assert "extended language subtag" in problem.message


def test_a_long_language_value_is_shown_cut_and_read_in_linear_time(tmp_path):
    _, [problem] = load(tmp_path, "en-" * 200_000)
    assert "longer than 100 characters" in problem.message
    assert len(problem.message) < 200


def test_the_tags_accepted_are_those_the_browsers_intl_reads(tmp_path):
    """The same tags judged by node's Intl (V8 and ICU, as in Chromium)."""
    node = shutil.which("node")
    require_tool(node is not None, "node is not installed")
    from talkpages.content.config import OPTIONS

    tags = GOOD + BAD[:-2]
    script = ("const tags = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(tags.map(t => { try { new Intl.DateTimeFormat(t);"
              " return true } catch (e) { return false } })))")
    read = json.loads(subprocess.run([str(node), "-e", script], input=json.dumps(tags),
                                     capture_output=True, text=True, check=True,
                                     timeout=30).stdout)

    def ours(tag: str) -> bool:
        try:
            OPTIONS["language"](tag)
        except ValueError:
            return False
        return True

    assert {t: ours(t) for t in tags if t.strip() == t} == \
        {t: r for t, r in zip(tags, read, strict=True) if t.strip() == t}
