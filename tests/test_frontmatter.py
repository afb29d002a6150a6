"""Splitting a talk file into front matter and body, with line numbers true to the file."""

from __future__ import annotations

import datetime as dt
import types

import pytest

from talkpages.content import frontmatter
from talkpages.content.frontmatter import FrontMatterError, split, tomllib

TOML_FILE = """\
+++
title = "Batch scheduling"
date = 2019-05-22T14:50:00
authors = ["Kevin Wang"]

[image]
  caption = "On stage"
  focal_point = "Right"
+++
## Heading

Text.
"""

YAML_FILE = """\
---
title: Batch scheduling
date: 2019-05-22T14:50:00
authors:
  - Kevin Wang
image:
  caption: On stage
---
Body line one
Body line two
"""


def raises(text: str) -> FrontMatterError:
    with pytest.raises(FrontMatterError) as info:
        split(text)
    return info.value


# --- TOML -------------------------------------------------------------------------------

def test_toml_front_matter_is_parsed_into_typed_values():
    fm = split(TOML_FILE)
    assert fm.format == "toml"
    assert fm.data["title"] == "Batch scheduling"
    assert fm.data["date"] == dt.datetime(2019, 5, 22, 14, 50)
    assert fm.data["authors"] == ["Kevin Wang"]
    assert fm.data["image"] == {"caption": "On stage", "focal_point": "Right"}


def test_toml_body_is_the_text_after_the_closing_delimiter():
    fm = split(TOML_FILE)
    assert fm.body == "## Heading\n\nText.\n"


def test_body_line_is_the_file_line_of_the_first_body_line():
    fm = split(TOML_FILE)
    assert TOML_FILE.splitlines()[fm.body_line - 1] == "## Heading"
    assert fm.body_line == 10


def test_toml_key_lines_are_file_lines():
    fm = split(TOML_FILE)
    assert fm.line_of("title") == 2
    assert fm.line_of("date") == 3
    assert fm.line_of("authors") == 4
    assert fm.line_of("image") == 6


def test_toml_line_of_a_key_inside_a_table_uses_the_dotted_name():
    fm = split(TOML_FILE)
    assert fm.line_of("image.caption") == 7
    assert fm.line_of("image.focal_point") == 8


def test_toml_line_of_a_dotted_key_written_as_such():
    fm = split('+++\ntitle = "x"\nimage.caption = "c"\n+++\n')
    assert fm.data["image"] == {"caption": "c"}
    assert fm.line_of("image.caption") == 3


def test_line_of_ignores_the_case_of_the_key():
    fm = split('+++\ntitle = "x"\npublishDate = 2019-06-06\n+++\n')
    assert fm.line_of("publishdate") == 3
    assert fm.line_of("publishDate") == 3


def test_line_of_an_unknown_key_is_none():
    assert split(TOML_FILE).line_of("nope") is None


def test_toml_array_of_tables_lines():
    text = ('+++\ntitle = "x"\n[[url_custom]]\nname = "Slides"\nurl = "https://e.org"\n'
            '+++\n')
    fm = split(text)
    assert fm.data["url_custom"] == [{"name": "Slides", "url": "https://e.org"}]
    assert fm.line_of("url_custom") == 3
    assert fm.line_of("url_custom.url") == 5


def test_invalid_toml_reports_the_file_line_of_the_mistake():
    text = '+++\ntitle = "x"\na = 1\nb = 2\nc = = 3\n+++\nBody\n'
    err = raises(text)
    assert err.line == 5
    assert err.column is not None
    assert "TOML" in err.message


def test_invalid_toml_line_counts_leading_blank_lines():
    text = '\n\n+++\ntitle = "x"\nc = = 3\n+++\n'
    assert raises(text).line == 5


def test_invalid_toml_line_counts_crlf_lines_once():
    text = '+++\r\ntitle = "x"\r\n\r\nc = = 3\r\n+++\r\n'
    assert raises(text).line == 4


def test_duplicate_toml_key_is_an_error_on_its_line():
    err = raises('+++\ntitle = "x"\ntitle = "y"\n+++\n')
    assert err.line == 3


def test_invalid_toml_value_gets_a_hint_about_quotes():
    err = raises("+++\ntitle = Unquoted words\n+++\n")
    assert err.line == 2
    assert err.hint and "quotes" in err.hint


def test_toml_error_at_end_of_block_points_inside_the_block():
    err = raises('+++\ntitle = "x"\ntags = [\n+++\n')
    assert err.line is not None
    assert 1 <= err.line <= 4


# --- YAML -------------------------------------------------------------------------------

def test_yaml_front_matter_is_parsed():
    fm = split(YAML_FILE)
    assert fm.format == "yaml"
    assert fm.data["title"] == "Batch scheduling"
    assert fm.data["authors"] == ["Kevin Wang"]
    assert fm.data["image"] == {"caption": "On stage"}
    assert fm.body == "Body line one\nBody line two\n"
    assert fm.body_line == 9


def test_yaml_key_lines_are_file_lines_including_nested_keys():
    fm = split(YAML_FILE)
    assert fm.line_of("title") == 2
    assert fm.line_of("date") == 3
    assert fm.line_of("image") == 6
    assert fm.line_of("image.caption") == 7


@pytest.mark.parametrize("written", [
    "2019-05-22 14:50:00+02:00",
    "2019-05-22T14:50:00+02:00",
    "2019-05-22T14:50:00Z",
    "2019-05-22T14:50:00",
    "2019-05-22",
])
def test_yaml_timestamps_stay_the_text_the_author_wrote(written):
    fm = split(f"---\ntitle: x\ndate: {written}\n---\n")
    assert fm.data["date"] == written


def test_yaml_offset_is_not_lost():
    fm = split("---\ndate: 2019-05-22 14:50:00 +02:00\n---\n")
    assert isinstance(fm.data["date"], str)
    assert "+02:00" in fm.data["date"]


def test_yaml_other_scalars_keep_their_types():
    fm = split("---\nmath: true\ncount: 3\nempty:\n---\n")
    assert fm.data == {"math": True, "count": 3, "empty": None}


def test_yaml_error_reports_the_file_line():
    text = "---\ntitle: x\nsummary: fine\ntags: [a, b\nother: 1\n---\n"
    err = raises(text)
    assert "YAML" in err.message
    assert err.line is not None and 4 <= err.line <= 6


def test_yaml_tab_indentation_error_is_on_its_file_line():
    err = raises("---\ntitle: x\n\ttab: 1\n---\n")
    assert err.line == 3


def test_yaml_that_is_a_list_is_an_error():
    err = raises("---\n- a\n- b\n---\n")
    assert "mapping" in err.message
    assert err.line is not None


def test_yaml_that_is_a_plain_string_is_an_error():
    err = raises("---\njust some words\n---\n")
    assert "mapping" in err.message


def test_empty_yaml_block_gives_empty_data():
    fm = split("---\n---\nbody")
    assert fm.data == {}
    assert fm.body == "body"
    assert fm.body_line == 3


def test_yaml_does_not_build_python_objects():
    err = raises("---\nx: !!python/object/apply:os.system ['echo hi']\n---\n")
    assert "YAML" in err.message


def yaml_alias_bomb(levels: int = 9) -> str:
    """Nested aliases: under 1 KB of YAML standing for 9**levels strings."""
    lines = ["---", "title: Bomb", "date: 2019-05-22T14:50:00",
             "a0: &a0 [" + ", ".join(['"lol"'] * 9) + "]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, levels)]
    return "\n".join(lines) + "\n---\nBody\n"


def test_yaml_alias_bomb_is_refused_at_its_first_alias():
    text = yaml_alias_bomb()
    assert len(text) < 1024
    err = raises(text)
    assert "alias `*a0`" in err.message and "YAML" in err.message
    assert (err.line, err.column) == (5, 10)


def test_yaml_self_referencing_alias_is_refused():
    err = raises("---\ntitle: Self\nx: &x [*x]\n---\n")
    assert "alias `*x`" in err.message
    assert err.line == 3


def test_yaml_merge_key_alias_is_refused():
    err = raises("---\nbase: &base {city: Madrid}\naddress:\n  <<: *base\n---\n")
    assert "alias `*base`" in err.message and err.line == 4


def test_yaml_anchor_without_alias_still_loads():
    assert split("---\ntitle: &t Anchored\n---\n").data == {"title": "Anchored"}


# --- The delimiters and the file's encoding details -------------------------------------

@pytest.mark.parametrize("text", ["", "\n\n", 'title = "x"\n', "Just Markdown.\n", "++\n+++\n"])
def test_no_opening_delimiter_is_an_error_with_a_hint(text):
    err = raises(text)
    assert "no front matter" in err.message
    assert err.hint


def test_no_opening_delimiter_points_at_the_first_non_blank_line():
    err = raises("\n\nJust text\n")
    assert err.line == 3


def test_unclosed_toml_block_is_an_error_naming_the_opening_line():
    err = raises('+++\ntitle = "x"\ndate = 2019-05-22\n')
    assert "never closed" in err.message
    assert err.line == 1
    assert err.hint and "+++" in err.hint


def test_unclosed_yaml_block_is_an_error():
    err = raises("---\ntitle: x\n")
    assert "never closed" in err.message
    assert "---" in (err.hint or "")


def test_mixed_delimiters_do_not_close_the_block():
    err = raises('+++\ntitle = "x"\n---\n')
    assert "never closed" in err.message


def test_byte_order_mark_is_ignored():
    fm = split('\ufeff+++\ntitle = "x"\n+++\nBody\n')
    assert fm.data == {"title": "x"}
    assert fm.line_of("title") == 2
    assert fm.body == "Body\n"


def test_crlf_line_endings_are_read_like_lf():
    fm = split('+++\r\ntitle = "x"\r\ndate = 2019-05-22\r\n+++\r\nLine 1\r\nLine 2\r\n')
    assert fm.data == {"title": "x", "date": dt.date(2019, 5, 22)}
    assert fm.line_of("date") == 3
    assert fm.body == "Line 1\nLine 2\n"
    assert fm.body_line == 5


def test_crlf_yaml_file():
    fm = split("---\r\ntitle: x\r\n---\r\nB\r\n")
    assert fm.data == {"title": "x"}
    assert fm.body == "B\n"


def test_leading_blank_lines_before_the_opening_delimiter_are_allowed():
    text = '\n  \n+++\ntitle = "x"\n+++\nBody'
    fm = split(text)
    assert fm.data == {"title": "x"}
    assert fm.line_of("title") == 4
    assert fm.body == "Body"
    assert fm.body_line == 6


def test_leading_blank_lines_before_yaml_keep_key_lines_true():
    fm = split("\n---\ntitle: x\nimage:\n  caption: c\n---\n")
    assert fm.line_of("title") == 3
    assert fm.line_of("image.caption") == 5


def test_unclosed_block_after_blank_lines_names_the_real_opening_line():
    err = raises('\n\n+++\ntitle = "x"\n')
    assert err.line == 3
    assert "line 3" in err.message


def test_delimiters_with_trailing_spaces_are_accepted():
    fm = split('+++  \ntitle = "x"\n+++   \nBody')
    assert fm.data == {"title": "x"}
    assert fm.body == "Body"


def test_nul_bytes_are_refused():
    err = raises('+++\ntitle = "x\x00"\n+++\n')
    assert "NUL" in err.message
    assert err.line is not None


def test_a_later_delimiter_line_in_the_body_stays_in_the_body():
    fm = split('+++\ntitle = "x"\n+++\nBefore\n+++\nAfter\n')
    assert fm.data == {"title": "x"}
    assert fm.body == "Before\n+++\nAfter\n"


def test_yaml_horizontal_rule_in_body_stays_in_the_body():
    fm = split("---\ntitle: x\n---\nIntro\n\n---\n\nMore\n")
    assert fm.body == "Intro\n\n---\n\nMore\n"


def test_file_with_no_body_has_empty_body():
    fm = split('+++\ntitle = "x"\n+++')
    assert fm.body == ""


# --- parse failures that are not syntax errors -----------------------------------------

HUGE = "1" * 5000


@pytest.mark.parametrize("with_rtoml", [True, False])
def test_huge_integer_in_toml_is_an_error_at_its_line(monkeypatch, with_rtoml):
    if not with_rtoml:
        monkeypatch.setattr(frontmatter, "rtoml", None)
    err = raises(f'+++\ntitle = "x"\nn = {HUGE}\nm = 1\n+++\n')
    assert err.message.startswith("invalid TOML front matter: ") and "integer" in err.message
    assert len(err.message) < 200 and "sys." not in err.message
    assert err.line == (3 if with_rtoml else 4)  # tomllib alone: the block's last line


def test_huge_integer_in_yaml_is_an_error_at_its_line():
    err = raises(f"---\ntitle: x\nn: {HUGE}\nm: 1\n---\n")
    assert err.message.startswith("invalid YAML front matter: `1111")
    assert "(5000 characters) cannot be read as !!int" in err.message
    assert len(err.message) < 200 and "sys." not in err.message
    assert (err.line, err.column) == (3, 4)


@pytest.mark.parametrize("value, words", [
    ("!!float abc", "`abc` cannot be read as !!float"),
    ("!!int x", "`x` cannot be read as !!int"),
    ("!!timestamp nonsense", "`nonsense` cannot be read as !!timestamp"),
    ("!!timestamp 2019-13-45", "month must be in 1..12"),
    ("!!bool maybe", "`maybe` cannot be read as !!bool"),
    ('!!binary "é"', "base64"),
    ("!!python/object x", "could not determine a constructor"),
    ("!local x", "could not determine a constructor"),
])
def test_yaml_explicit_tag_that_cannot_make_its_value_is_an_error_at_its_line(value, words):
    err = raises(f"---\ntitle: x\nn: {value}\nm: 1\n---\n")
    assert err.message.startswith("invalid YAML front matter: ") and words in err.message
    assert err.line == 3


def test_yaml_raw_control_character_is_an_error_at_its_line_and_column():
    err = raises('---\ntitle: x\n\ndate: "2019-05-22\x07"\nother: 1\n---\n')
    assert err.message == "invalid YAML front matter: the character U+0007 is not allowed in YAML"
    assert (err.line, err.column) == (4, 18)


def test_yaml_error_after_a_unicode_line_separator_keeps_the_file_line():
    err = raises("---\ntitle: x\u2028more\nsummary: fine\n---\n")
    assert err.message == "invalid YAML front matter: could not find expected ':'"
    assert err.line == 3  # PyYAML breaks the line at U+2028 and counts 4


def test_parser_failure_in_our_own_code_stays_a_bug(monkeypatch):
    def broken(value):
        raise KeyError("a bug of ours")

    monkeypatch.setattr(frontmatter, "_standard_offsets", broken)
    if frontmatter.rtoml is not None:
        with pytest.raises(KeyError):
            split('+++\ntitle = "x"\n+++\n')
    monkeypatch.setattr(frontmatter, "tomllib", types.SimpleNamespace(
        loads=lambda source: frontmatter._lower_first(None),
        TOMLDecodeError=tomllib.TOMLDecodeError))
    monkeypatch.setattr(frontmatter, "rtoml", None)
    with pytest.raises(TypeError):  # raised in frontmatter.py, though tomllib called it
        split('+++\ntitle = "x"\n+++\n')


def test_raised_by_parser_tells_a_parser_from_talkpages():
    try:
        float("abc")
    except ValueError as exc:
        assert frontmatter.raised_by_parser(exc)  # float() is called from this test file
    try:
        frontmatter._place(None, 0)  # type: ignore[arg-type]
    except AttributeError as exc:
        assert not frontmatter.raised_by_parser(exc)
