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


def test_the_header_marks_the_section_the_page_is_in(fixture_out: Path) -> None:
    def current(path: str) -> list[str]:
        page = (fixture_out / path).read_text(encoding="utf-8")
        header = page[page.index('<header class="site-header">'):page.index("</header>")]
        return re.findall(r'<a href="[^"]*" aria-current="page">([^<]*)</a>', header)

    assert current("tags/index.html") == ["Tags"]
    assert current("tags/kubernetes/index.html") == ["Tags"]
    assert current("speakers/ada-lovelace/index.html") == ["Speakers"]
    assert current("years/2019/index.html") == ["Years"]
    assert current("index.html") == current("madrid/index.html") == []


def test_a_tag_page_marks_its_pill_in_every_row(fixture_out: Path) -> None:
    page = (fixture_out / "tags" / "kubernetes" / "index.html").read_text(encoding="utf-8")
    rows = page.count('<li class="talk-item')
    assert rows and page.count(
        '<a class="tag" href="../../tags/kubernetes/" aria-current="page">') == rows
    index = (fixture_out / "index.html").read_text(encoding="utf-8")
    assert "aria-current" not in index.replace('<span aria-current="page">', "")


def test_a_recording_poster_uses_the_social_card(make_site) -> None:  # type: ignore[no-untyped-def]
    video = 'url_video = "https://youtu.be/rpN9IsihEKI"'
    for cards, expected in (("all", '<img src="card.jpg" width="1200" height="630" alt="">'),
                            ("none", '<figure class="recording recording--compact">')):
        site = make_site({"talkpages.toml": f'social_cards = "{cards}"\n',
                          "talks/v.md": talk("V", extra=video)})
        page = outputs(render_site(site))["v/index.html"].decode()
        assert expected in page, cards
        assert "poster-title" not in page
