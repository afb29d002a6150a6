"""What the pages say to a visitor: counts with their unit, other talks named as
such, the footer's data link named for people, and the same in every language."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import outputs, render_site, talk


def test_a_talk_page_names_the_speakers_other_talks(fixture_out: Path) -> None:
    page = (fixture_out / "madrid" / "index.html").read_text(encoding="utf-8")
    assert "Also speaking" not in page
    assert '<p class="also">Other talks by Grace Hopper: ' in page
    assert '<p class="also">Other talks by Ada Lovelace: ' in page


def test_the_overviews_count_talks_with_their_unit(fixture_out: Path) -> None:
    tags = (fixture_out / "tags" / "index.html").read_text(encoding="utf-8")
    assert '<span class="term-count">(3 talks)</span>' in tags
    assert '<span class="term-count">(1 talk)</span>' in tags
    speakers = (fixture_out / "speakers" / "index.html").read_text(encoding="utf-8")
    counts = re.findall(r'<span class="term-count">([^<]*)</span>', speakers)
    assert counts and all(re.fullmatch(r"\d+ talks?", count) for count in counts), counts


def test_the_footer_names_the_data_for_visitors(fixture_out: Path) -> None:
    index = (fixture_out / "index.html").read_text(encoding="utf-8")
    assert '<a href="./talks.json" type="application/json">Data (JSON)</a>' in index
    assert ">talks.json<" not in index


def test_the_wording_is_translated(make_site) -> None:  # type: ignore[no-untyped-def]
    site = make_site({
        "talkpages.toml": 'title = "T"\nlanguage = "de"\n',
        "talks/a.md": talk("Eins", "2019-05-22T14:50:00", 'authors = ["Ann Lee"]'),
        "talks/b.md": talk("Zwei", "2019-06-22T14:50:00", 'authors = ["Ann Lee"]'),
    })
    pages = {path: data.decode() for path, data in outputs(render_site(site)).items()
             if path.endswith(".html")}
    assert "Weitere Vorträge von Ann Lee:" in pages["a/index.html"]
    assert '<span class="term-count">2 Vorträge</span>' in pages["speakers/index.html"]
    assert ">Daten (JSON)</a>" in pages["index.html"]
