"""Front matter lines and error places found in time linear in the text: a table
header, an array of tables or a parser's message of any length is read at once, with
the same lines and words as before."""

from __future__ import annotations

import time

import pytest

from talkpages.content import frontmatter
from talkpages.content.frontmatter import FrontMatterError, split, toml_key_lines

SPACES = " " * 20_000


def test_table_headers_with_spaces_and_comments_keep_their_lines() -> None:
    lines = ['title = "x"', "[ image ]", "  caption = 'c'", "[[ url_custom ]]  # a link",
             "name = 'n'", '["quoted key"]', "k = 1", "[a.b]", "c = 2", "[ ]", "d = 3"]
    assert toml_key_lines(lines) == {
        "title": 1, "image": 2, "image.caption": 3, "url_custom": 4, "url_custom.name": 5,
        "quoted key": 6, "quoted key.k": 7, "a.b": 8, "a.b.c": 9, "": 10, ".d": 11}


def test_array_table_lines_ignore_spaces_around_the_name() -> None:
    text = '+++\ntitle = "x"\n[[ url_custom ]]\nname = "a"\n[[url_custom]]\nname = "b"\n+++\n'
    assert split(text).table_lines == {"url_custom": [3, 5]}


@pytest.mark.parametrize(("line", "tables"), [
    ("[" + SPACES, {}), ("[" + SPACES + "]x", {}), ("[a" + SPACES + "x", {}),
    ("[[" + SPACES, {}), ("[[" + SPACES + "]]x", {"": [4]}), ("[" + "a " * 10_000, {})])
def test_long_table_like_line_in_a_string_is_read_at_once(
        line: str, tables: dict[str, list[int]]) -> None:
    text = f'+++\ntitle = "x"\nnote = """\n{line}\n"""\n[image]\ncaption = "c"\n+++\n'
    started = time.perf_counter()  # a minute and more when spaces were split every way
    fm = split(text)
    assert fm.line_of("image.caption") == 7 and fm.table_lines == tables
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize("with_rtoml", [True, False])
@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ('+++\ntitle = "x"\nc = = 3\n+++\n', "invalid value", 3, 5),
    ('+++\ntitle = "x"\ntitle = "y"\n+++\n', "cannot overwrite a value", 3, 12),
    ("+++\n[a]\nb=1\n[a]\n+++\n", "cannot declare ('a',) twice", 4, 3),
])
def test_toml_error_words_and_place_are_unchanged(
        monkeypatch: pytest.MonkeyPatch, with_rtoml: bool, text: str, message: str,
        line: int, column: int) -> None:
    if not with_rtoml:
        monkeypatch.setattr(frontmatter, "rtoml", None)
    with pytest.raises(FrontMatterError) as info:
        split(text)
    assert (info.value.message, info.value.line, info.value.column) == (
        f"invalid TOML front matter: {message}", line, column)


def test_huge_integer_from_rtoml_keeps_its_words_and_place() -> None:
    if frontmatter.rtoml is None:
        pytest.skip("rtoml is not installed")
    with pytest.raises(FrontMatterError) as info:
        split('+++\ntitle = "x"\nn = ' + "1" * 5000 + "\nm = 1\n+++\n")
    assert (info.value.message, info.value.line, info.value.column) == (
        "invalid TOML front matter: integer number overflowed", 3, 5)


@pytest.mark.parametrize("pattern", ["_TOML_POSITION", "_RTOML_POSITION"])
def test_error_position_is_found_at_once_in_a_message_of_spaces(pattern: str) -> None:
    regex = getattr(frontmatter, pattern)
    started = time.perf_counter()  # 0.7 s, and the square of the length
    assert regex.search(SPACES + "x" + SPACES) is None
    assert time.perf_counter() - started < 2
