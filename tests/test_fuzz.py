"""Property-based tests: whatever a talk file holds, talkpages gives a talk or errors
that name the file, and a page that runs no script. Never an exception.

HYPOTHESIS_PROFILE=stress runs thousands of examples per property.
"""

from __future__ import annotations

import string
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path

import tomli_w
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from talkpages.content.config import Config
from talkpages.content.fields import KNOWN_KEYS
from talkpages.content.loader import LoadOptions, load_talk

from conftest import NOW, SEED, SHARED, needs_shared, render

KEYS = sorted(KNOWN_KEYS | {"url_slides", "url_video", "url_pdf", "url_custom", "image",
                            "address", "publishDate", "lastMod"})
CORPUS = sorted((SHARED / "corpus" / "files").glob("*.md")) + [SEED]

scalars = st.one_of(
    st.text(max_size=40), st.integers(), st.floats(allow_nan=False), st.booleans(),
    st.dates(), st.datetimes(), st.times(),
    st.datetimes(timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=9)),
                                            timezone(timedelta(hours=-5, minutes=-30))])),
    st.sampled_from(["2019-05-22", "2019-05-22T14:50:00", "2019-05-22T14:50:00+02:00",
                     "javascript:alert(1)", "data:text/html,x", "FREQ=WEEKLY;COUNT=3",
                     "Europe/Madrid", "Mars/Base", "", " ", "14:325:00", "cancelled",
                     "https://example.org/", "</script><script>alert(1)</script>"]))
values = st.recursive(scalars, lambda children: st.one_of(
    st.lists(children, max_size=4),
    st.dictionaries(st.text(string.ascii_letters + "_", min_size=1, max_size=10), children,
                    max_size=4)), max_leaves=12)
front_matter = st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(min_size=1,
                                                                         max_size=12)),
                               values, max_size=12)


def check(path: Path) -> None:
    """Load one file; on success also render its site. Nothing may raise."""
    found, problems = load_talk(path, "fuzz", Config())
    if found is None:
        assert problems and all(p.path == path for p in problems if p.is_error)
        assert all(p.line is None or p.line >= 1 for p in problems)
        return
    result = render(path.parent.parent, LoadOptions(now=NOW, drafts=True, future=True))
    if result.ok:
        page = next(o.data for o in result.outputs if o.path == f"{found.slug}/index.html")
        assert page is not None
        assert b"<script>alert" not in page


def site_file(tmp_path_factory, text: bytes) -> Path:  # type: ignore[no-untyped-def]
    site = tmp_path_factory.mktemp("site")
    (site / "talks").mkdir()
    path = site / "talks" / "fuzz.md"
    path.write_bytes(text)
    return path


@given(front_matter, st.text(max_size=200))
def test_any_toml_front_matter_gives_a_talk_or_errors(tmp_path_factory, data, body) -> None:
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError):
        assume(False)
    check(site_file(tmp_path_factory, f"+++\n{text}+++\n{body}".encode()))


@given(front_matter, st.text(max_size=200))
def test_any_yaml_front_matter_gives_a_talk_or_errors(tmp_path_factory, data, body) -> None:
    def plain(value):  # type: ignore[no-untyped-def]
        if isinstance(value, (datetime, date, time)):
            return value.isoformat()
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    text = yaml.safe_dump(plain(data), allow_unicode=True)
    check(site_file(tmp_path_factory, f"---\n{text}---\n{body}".encode()))


@given(st.text(max_size=600))
def test_any_markdown_body_renders_without_running_a_script(tmp_path_factory, body) -> None:
    head = '+++\ntitle = "T"\ndate = 2019-05-22T14:50:00\n+++\n'
    check(site_file(tmp_path_factory, (head + body + "\n<script>alert(1)</script>").encode()))


@given(st.binary(max_size=2000))
def test_any_bytes_give_a_talk_or_errors(tmp_path_factory, data) -> None:
    check(site_file(tmp_path_factory, data))


@needs_shared
@given(st.sampled_from(CORPUS), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)),
                                         min_size=1, max_size=8),
       st.sampled_from(["flip", "insert", "delete"]))
def test_real_files_with_damaged_bytes_give_a_talk_or_errors(tmp_path_factory, source,
                                                             edits, how) -> None:
    data = bytearray(source.read_bytes())
    for position, byte in edits:
        position %= max(len(data), 1)
        if how == "flip" and data:
            data[position] = byte
        elif how == "insert":
            data.insert(position, byte)
        elif data:
            del data[position]
    check(site_file(tmp_path_factory, bytes(data)))


@given(front_matter)
def test_rtoml_and_tomllib_read_any_front_matter_alike(data) -> None:
    """The fast TOML reader gives what the standard library gives, offsets included."""
    from talkpages.content.frontmatter import parse_toml, tomllib

    try:
        source = tomli_w.dumps(data)
    except (TypeError, ValueError):
        assume(False)
    expected = tomllib.loads(source)
    got = parse_toml(source)
    assert got == expected
    assert repr(got) == repr(expected)  # the same types: timezone, not rtoml's TzInfo


@given(st.text(max_size=300))
def test_rtoml_and_tomllib_accept_and_reject_the_same_text(text) -> None:
    from talkpages.content.frontmatter import FrontMatterError, parse_toml, tomllib

    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        try:
            parse_toml(text)
        except FrontMatterError:
            return
        raise AssertionError("accepted what tomllib rejects") from None
    assert repr(parse_toml(text)) == repr(expected)
