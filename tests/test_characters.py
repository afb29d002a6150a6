"""Control characters in talk text: refused with the file, line and field, TOML and YAML
alike, keys, nested values and the body included; spelled as character references in
Markdown, never in the HTML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from talkpages.content.characters import FORBIDDEN
from talkpages.content.config import Config, load_config
from talkpages.content.fields import make_talk
from talkpages.content.frontmatter import split
from talkpages.content.speakers import load_speakers
from talkpages.output.markup import to_html

PATH = Path("talks/t.md")


def problems(text: str) -> list[str]:
    talk, found = make_talk(split(text), PATH, "t", Config())
    assert talk is None or not found
    return [p.format() for p in found if p.is_error]


@pytest.mark.parametrize("escape, code", [("\\u0000", "0000"), ("\\u0007", "0007"),
                                          ("\\u001b", "001B"), ("\\b", "0008"),
                                          ("\\U0000001F", "001F")])
def test_control_character_escapes_in_toml_are_refused_with_field_and_line(
        escape: str, code: str) -> None:
    found = problems(f'+++\ndate = 2019-05-22\ntitle = "Bell{escape} here"\n+++\nBody\n')
    assert found == [f"talks/t.md:3:1: error: `title` holds a control character (U+{code}), "
                     "which pages and calendar feeds cannot carry\n"
                     f"  hint: remove it: in the file it is an escape such as "
                     f"`\\u{code.lower()}`"]


@pytest.mark.parametrize("escape", ["\\a", "\\x1b", "\\0", "\\u0001", "\\e"])
def test_control_character_escapes_in_yaml_are_refused(escape: str) -> None:
    found = problems(f'---\ntitle: Fine\ndate: 2019-05-22\nevent: "Conf{escape}"\n---\n')
    assert len(found) == 1 and found[0].startswith("talks/t.md:4:1: error: `event` holds a "
                                                   "control character")


def test_root_marker_spelled_in_a_title_is_refused() -> None:
    found = problems('+++\ntitle = "\\u0000root\\u0000"\ndate = 2019-05-22\n+++\n')
    assert len(found) == 1 and "`title` holds a control character (U+0000)" in found[0]


def test_control_characters_in_nested_values_kept_for_templates_are_refused() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\ntags = ["ok", "bad\\u0007"]\n'
                     'links = [{name = "a", url = "https://a.org"}]\n'
                     '[extra]\ndeep = [{inner = "\\u0002"}]\n'
                     '[[url_custom]]\nname = "a"\nurl = "https://a.org"\n'
                     '[[url_custom]]\nname = "b\\u001b"\nurl = "https://b.org"\n+++\n')
    assert [line.split(": error: ")[0] + ": " + line.split("`")[1] for line in found] == [
        "talks/t.md:4:1: tags[2]", "talks/t.md:7:1: extra.deep[1].inner",
        "talks/t.md:11:1: url_custom[2].name"]


def test_control_characters_in_nested_yaml_values_are_refused() -> None:
    found = problems("---\ntitle: x\ndate: 2019-05-22\nimage:\n  caption: \"\\x1b[31m\"\n"
                     "header:\n  - a\n  - b: \"\\a\"\n---\n")
    assert [line.split(": error: ")[0] + ": " + line.split("`")[1] for line in found] == [
        "talks/t.md:5:1: image.caption", "talks/t.md:8:1: header[2].b"]


def test_control_character_in_a_key_is_refused_and_shown_escaped() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\n"k\\u001bey" = 1\n+++\n')
    assert len(found) == 1
    assert found[0].startswith("talks/t.md:4:1: error: the key `k\\u001bey` holds a control "
                               "character (U+001B)")
    assert "\x1b" not in found[0]


def test_control_character_in_the_body_is_refused_at_its_line_and_column() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\n+++\nfine\nbad \x07 here \x01\n'
                     "\x1b[31mred\n")
    assert [line.split(" holds ")[0] for line in found] == [
        "talks/t.md:6:5: error: the body", "talks/t.md:7:1: error: the body"]


@pytest.mark.parametrize("text, what", [
    ('+++\ntitle = "x\\uFFFE"\ndate = 2019-05-22\n+++\n', "the non-character U+FFFE"),
    ('+++\ntitle = "x"\ndate = 2019-05-22\n+++\nbody \uffff\n', "the non-character U+FFFF"),
    ('---\ntitle: "x\\ud800"\ndate: 2019-05-22\n---\n', "half of a surrogate pair (U+D800)"),
])
def test_non_characters_and_surrogates_are_refused(text: str, what: str) -> None:
    found = problems(text)
    assert len(found) == 1 and f"holds {what}" in found[0]


def test_tab_newline_and_carriage_return_are_text() -> None:
    talk, found = make_talk(split('+++\ntitle = "a\\tb"\ndate = 2019-05-22\n'
                                  'abstract = "one\\r\\ntwo\\nthree"\n+++\n\tindented\r\n'),
                            PATH, "t", Config())
    assert talk is not None and not found
    assert talk.title == "a\tb" and talk.abstract == "one\r\ntwo\nthree"


def test_a_file_of_escapes_gets_a_bounded_number_of_messages() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\nmany = ['
                     + ", ".join(['"\\u0001"'] * 5000) + "]\n+++\n" + "\x01\n" * 5000)
    assert len(found) == 42
    assert found[20] == "talks/t.md:4:1: error: 4980 more places of the file hold such characters"
    assert found[-1].endswith("4980 more places of the file hold such characters")


@pytest.mark.parametrize("reference", ["&#1;", "&#x1b;", "&#7;", "&#xFFFE;", "&#xFFFF;"])
def test_character_references_to_control_characters_and_non_characters_stay_xml(
        reference: str) -> None:
    html = to_html(f"a {reference} b [link](https://a.org/{reference}) ![{reference}](x.png "
                   f'"{reference}")', math=True)
    assert not FORBIDDEN.search(html)
    assert html.count("\ufffd") == 3 and "%" in html
    ET.fromstring(f"<div>{html.replace('&nbsp;', ' ')}</div>")


def test_control_characters_in_speakers_toml_are_refused(tmp_path: Path) -> None:
    (tmp_path / "speakers.toml").write_text('["Klaus Ma"]\nbio = "fine"\n\n["Kevin"]\n'
                                            'name = "Kevin\\u0007 Wang"\n', encoding="utf-8")
    _, found = load_speakers(tmp_path)
    assert [p.format().split(", which")[0] for p in found] == [
        f"{tmp_path / 'speakers.toml'}:5:1: error: `Kevin.name` holds a control character "
        "(U+0007)"]


def test_control_characters_in_the_site_config_are_refused(tmp_path: Path) -> None:
    (tmp_path / "talkpages.toml").write_text('title = "Talks\\u001b[2J"\n[params]\n'
                                             'motto = ["\\u0000"]\n', encoding="utf-8")
    _, found = load_config(tmp_path)
    assert [(p.line, p.message.split(" holds")[0]) for p in found if p.is_error] == [
        (1, "`title`"), (3, "`params.motto[1]`")]


@pytest.mark.parametrize("text, line", [
    ('+++\ntitle = "x"\ndate = 2019-05-22\nn = 0x' + "f" * 5000 + "\n+++\n", 4),
    ("---\ntitle: x\ndate: 2019-05-22\nextra:\n  n: 0x" + "f" * 5000 + "\n---\n", 5),
    ('+++\ntitle = "x"\ndate = 2019-05-22\nn = [99999999999999999999]\n+++\n', 4),
    ('+++\ntitle = "x"\ndate = 2019-05-22\nn = -9223372036854775809\n+++\n', 4),
])
def test_whole_numbers_beyond_64_bits_are_refused_at_their_line(text: str, line: int) -> None:
    found = problems(text)
    assert len(found) == 1 and found[0].startswith(f"talks/t.md:{line}:1: error: `")
    assert "bits, too large for pages and calendar feeds" in found[0]


def test_whole_numbers_of_64_bits_are_kept() -> None:
    talk, found = make_talk(split('+++\ntitle = "x"\ndate = 2019-05-22\n'
                                  "n = [9223372036854775807, -9223372036854775808]\n+++\n"),
                            PATH, "t", Config())
    assert talk is not None and not found


def test_huge_hex_number_in_the_site_config_is_refused(tmp_path: Path) -> None:
    (tmp_path / "talkpages.toml").write_text("[params]\nn = 0x" + "f" * 5000 + "\n",
                                             encoding="utf-8")
    _, found = load_config(tmp_path)
    assert [(p.line, p.message.split(" is a")[0]) for p in found if p.is_error] == [
        (2, "`params.n`")]


@pytest.mark.parametrize("text, line, code", [
    ('+++\ntitle = "Del\\u007f"\ndate = 2019-05-22\n+++\n', 2, "007F"),
    ('+++\ntitle = "x"\ndate = 2019-05-22\nevent = "C1\\u0080"\n+++\n', 4, "0080"),
    ('+++\ntitle = "x"\ndate = 2019-05-22\nevent = "raw C1 \x9b here"\n+++\n', 4, "009B"),
    ('---\ntitle: x\ndate: 2019-05-22\nevent: "next line \\N"\n---\n', 4, "0085"),
    ('---\ntitle: x\ndate: 2019-05-22\nextra:\n  k: "\\x9f"\n---\n', 5, "009F"),
])
def test_del_and_c1_control_characters_are_refused(text: str, line: int, code: str) -> None:
    found = problems(text)
    assert len(found) == 1 and found[0].startswith(f"talks/t.md:{line}:1: error: `")
    assert f"holds a control character (U+{code})" in found[0]


def test_del_and_c1_control_characters_in_the_body_are_refused() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\n+++\nfine\nDEL \x7f\nCSI \x9b\n')
    assert [line.split(" holds ")[0] for line in found] == [
        "talks/t.md:6:5: error: the body", "talks/t.md:7:5: error: the body"]


def test_del_and_c1_escapes_in_a_key_name_are_found_on_their_line() -> None:
    found = problems('+++\ntitle = "x"\ndate = 2019-05-22\nevent = "e"\n"k\\u0085" = 1\n+++\n')
    assert len(found) == 1 and found[0].startswith("talks/t.md:5:1: error: the key `k\\u0085`")


@pytest.mark.parametrize("reference", ["&#127;", "&#x80;", "&#x9f;"])
def test_character_references_to_del_and_c1_become_replacement_characters(
        reference: str) -> None:
    html = to_html(f"a {reference} b")
    assert not FORBIDDEN.search(html)
