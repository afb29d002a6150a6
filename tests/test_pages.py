"""The pages: pagination, tag/speaker/year pages, meta tags, hashed assets, relative links,
cancelled talks, video embeds, math; rendered in memory."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from posixpath import normpath

import pytest

from talkpages.output.theme import hashed_name

from conftest import MakeSite, outputs, render_site, talk


class Links(HTMLParser):
    """Every href/src of a page, and its <meta> tags."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("href", "src"):
            if values.get(name):
                self.urls.append(values[name] or "")
        if tag == "meta" and (values.get("property") or values.get("name")):
            self.meta[values.get("property") or values.get("name") or ""] = \
                values.get("content") or ""


def parse(page: bytes) -> Links:
    links = Links()
    links.feed(page.decode())
    return links


def five_talks(make_site: MakeSite, config: str = "paginate = 2\n") -> dict[str, bytes]:
    site = make_site({"talkpages.toml": config, **{
        f"talks/{name}.md": talk(name.title(), when, 'tags = ["K8s"]\nauthors = ["Ada"]')
        for name, when in [("p1", "2019-01-01"), ("p2", "2020-01-01"), ("p3", "2021-01-01"),
                           ("u1", "2027-01-01"), ("u2", "2028-01-01")]}})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)


def titles(page: bytes) -> list[str]:
    return re.findall(r'class="talk-title" href="[^"]*">([^<]*)<', page.decode())


def test_the_index_is_paginated_upcoming_first_then_past(make_site: MakeSite) -> None:
    files = five_talks(make_site)
    assert titles(files["index.html"]) == ["U1", "U2"]
    assert titles(files["page/2/index.html"]) == ["P3", "P2"]
    assert titles(files["page/3/index.html"]) == ["P1"]
    assert "page/4/index.html" not in files
    second = files["page/2/index.html"].decode()
    assert 'rel="prev" href="../../"' in second and 'rel="next" href="../../page/3/"' in second
    assert 'id="upcoming"' not in second and "Page 2 of 3" in second
    first = files["index.html"].decode()
    assert 'rel="next" href="./page/2/"' in first and 'rel="prev"' not in first
    assert 'data-pages="3"' in first


def test_one_page_when_the_talks_fit(make_site: MakeSite) -> None:
    files = five_talks(make_site, "")
    assert titles(files["index.html"]) == ["U1", "U2", "P3", "P2", "P1"]
    assert not any(path.startswith("page/") for path in files)
    assert 'class="pages"' not in files["index.html"].decode()


def test_tag_speaker_and_year_pages(make_site: MakeSite) -> None:
    files = five_talks(make_site, "paginate = 3\n")
    assert titles(files["tags/k8s/index.html"]) == ["U1", "U2", "P3"]
    assert titles(files["tags/k8s/page/2/index.html"]) == ["P2", "P1"]
    assert titles(files["speakers/ada/index.html"]) == ["U1", "U2", "P3"]
    assert titles(files["years/2020/index.html"]) == ["P2"]
    tag = files["tags/k8s/index.html"].decode()
    assert "<h1>Talks tagged “K8s”</h1>" in tag and "5 talks" in tag
    assert 'href="../../tags/k8s/calendar.ics"' in tag  # the feed of the tag, made by ical
    overview = files["tags/index.html"].decode()
    assert '<a href="../tags/k8s/">K8s</a> <span class="term-count">(5 talks)</span>' in overview
    years = files["years/index.html"].decode()
    assert years.index("years/2028/") < years.index("years/2019/")


def test_speaker_page_from_speakers_toml(make_site: MakeSite) -> None:
    site = make_site({
        "speakers.toml": '[admin]\nname = "Ada Lovelace"\nbio = "Writes *programs*."\n'
                         'affiliation = "Engines"\nurl = "https://ada.example.org/"\n'
                         'links = [{ name = "Mastodon", url = "https://m.example.org/@ada" }]\n',
        "talks/a.md": talk("A", extra='authors = ["admin"]')})
    files = outputs(render_site(site))
    page = files["speakers/ada-lovelace/index.html"].decode()
    assert "<h1>Ada Lovelace</h1>" in page and "<em>programs</em>" in page
    assert "Engines" in page and 'href="https://ada.example.org/"' in page
    assert '<a class="button" href="https://m.example.org/@ada">Mastodon</a>' in page
    assert '<meta name="description" content="Writes programs.">' in page
    talk_page = files["a/index.html"].decode()
    assert '<a href="../speakers/ada-lovelace/">Ada Lovelace</a>' in talk_page


def test_every_page_has_title_description_canonical_cards_favicon_and_lang(
        make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'base_url = "https://e.org/sub/"\nlanguage = "de"\n',
                      "talks/t/index.md": talk("Talk", extra='abstract = "About *it*."\n'
                                               '[image]\nalt_text = "A stage"'),
                      "talks/t/featured.jpg": b"jpg",
                      "talks/u.md": talk("Other", extra='tags = ["x"]\nauthors = ["Ada"]')})
    files = outputs(render_site(site))
    # embed/upcoming.html is another site's frame's content, never shared or indexed
    pages = [path for path in files if path.endswith(".html") and not path.startswith("embed/")]
    assert len(pages) == 10
    for path in pages:
        page = files[path].decode()
        meta = parse(files[path]).meta
        assert page.startswith('<!DOCTYPE html>\n<html lang="de" '), path
        assert re.search(r"<title>[^<]+</title>", page), path
        assert meta["description"] and meta["og:title"] and meta["og:description"], path
        assert meta["og:url"].startswith("https://e.org/sub/"), path
        assert f'<link rel="canonical" href="{meta["og:url"]}">' in page, path
        assert meta["twitter:card"] in ("summary", "summary_large_image"), path
        assert 'rel="icon" href=' in page, path
    talk_meta = parse(files["t/index.html"]).meta
    # an image talkpages cannot read is published as it is, and no card is drawn over it
    assert talk_meta["og:image"] == "https://e.org/sub/card.jpg"  # the site's
    assert talk_meta["twitter:card"] == "summary_large_image"
    assert talk_meta["og:title"] == "Talk" and talk_meta["description"] == "About it."
    assert parse(files["u/index.html"]).meta["og:image"] == "https://e.org/sub/card.jpg"
    assert '<meta name="robots" content="noindex">' in files["404.html"].decode()


def test_css_and_js_have_content_hashed_names(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A")})
    result = render_site(site)
    files = {o.path: o for o in result.outputs}
    for stem, suffix in (("style", "css"), ("site", "js")):
        [path] = [p for p in files if re.fullmatch(rf"assets/{stem}\.[0-9a-f]{{10}}\.{suffix}", p)]
        source = files[path].source
        assert source is not None
        assert path == "assets/" + hashed_name(f"{stem}.{suffix}", source.read_bytes())
        for page in ("index.html", "a/index.html", "tags/index.html"):
            assert path in normpath(page.rsplit("/", 1)[0] + "/" + next(
                u for u in parse(files[page].data or b"").urls if stem + "." in u)), page
    assert "assets/favicon.svg" in files and "favicon.ico" in files  # not renamed


def test_every_link_is_relative_and_resolves_from_a_sub_path(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'base_url = "https://e.org/deep/sub/"\npaginate = 1\n',
                      "speakers.toml": '["Ada"]\nbio = "x"\n',
                      "talks/a/index.md": talk("A", "2019-01-01", 'tags = ["Tag A", "云"]\n'
                                               'authors = ["Ada"]\nurl_slides = "s.pdf"'),
                      "talks/a/s.pdf": b"%PDF", "talks/a/featured.png": b"png",
                      "talks/b.md": talk("B", "2099-01-01", 'tags = ["Tag A"]')})
    result = render_site(site)
    written = {o.path for o in result.outputs}
    files = outputs(result)
    checked = 0
    for path, data in files.items():
        if not path.endswith(".html") or path == "404.html":
            continue
        folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        for url in parse(data).urls:
            if re.match(r"^[a-z]+:", url) or url.startswith("#"):
                continue
            assert not url.startswith("/"), (path, url)
            from urllib.parse import unquote

            target = normpath(folder + unquote(url.split("#")[0]))
            target = "" if target == "." else target
            assert target in written or f"{target}/index.html".lstrip("/") in written, \
                (path, url)
            checked += 1
    assert checked > 100
    not_found = files["404.html"].decode()
    assert 'href="/deep/sub/"' in not_found and 'href="/deep/sub/assets/style.' in not_found


def test_a_cancelled_talk_is_struck_through_and_says_so(make_site: MakeSite) -> None:
    site = make_site({"talks/c.md": talk("Gone", "2099-01-01", 'status = "cancelled"'),
                      "talks/p.md": talk("Later", "2099-02-01", 'status = "postponed"'),
                      "talks/o.md": talk("On", "2099-03-01")})
    files = outputs(render_site(site))
    index = files["index.html"].decode()
    assert re.search(r'<li class="talk-item talk--cancelled"[^>]*>.*?>Gone</a> '
                     r'<strong class="status">Cancelled</strong>', index, re.S)
    assert '<li class="talk-item talk--postponed" ' in index
    assert index.count("talk--") == 2
    page = files["c/index.html"].decode()
    assert '<article class="talk talk--cancelled">' in page
    assert "<strong>This talk is cancelled.</strong>" in page


def test_a_recording_leads_a_past_talk_as_a_poster_linking_to_it(make_site: MakeSite) -> None:
    video = 'url_video = "https://youtu.be/rpN9IsihEKI"'
    off = outputs(render_site(make_site({"talks/v.md": talk("V", extra=video)})))
    page = off["v/index.html"].decode()
    # no picture, no social card: the play button alone (recording--compact)
    poster = re.search(r'<figure class="recording recording--compact">.*?</figure>', page, re.S)
    assert poster, "no poster"
    assert '<a class="poster" href="https://youtu.be/rpN9IsihEKI" data-play>' in poster.group(0)
    assert "Watch the recording" in poster.group(0) and "opens on youtu.be" in poster.group(0)
    assert "data-src" not in page  # no player unless the site embeds videos
    assert page.index('class="recording') < page.index('<div class="body">')  # near the top


def test_an_upcoming_talk_has_no_poster_for_its_video_link(make_site: MakeSite) -> None:
    video = 'url_video = "https://youtu.be/rpN9IsihEKI"'
    files = outputs(render_site(make_site({"talks/v.md": talk("V", "2099-01-01", video)})))
    assert 'class="recording"' not in files["v/index.html"].decode()


@pytest.mark.parametrize(("url", "src"), [
    ("https://www.youtube.com/watch?v=rpN9IsihEKI&feature=youtu.be",
     "https://www.youtube-nocookie.com/embed/rpN9IsihEKI?autoplay=1"),
    ("https://youtu.be/rpN9IsihEKI", "https://www.youtube-nocookie.com/embed/rpN9IsihEKI"
                                     "?autoplay=1"),
    ("https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871?dnt=1&amp;autoplay=1"),
    ("https://example.org/video.mp4", None),
])
def test_opt_in_video_embeds_load_nothing_before_a_click(make_site: MakeSite, url: str,
                                                         src: str | None) -> None:
    site = make_site({"talkpages.toml": "embed_videos = true\n",
                      "talks/v.md": talk("V", extra=f'url_video = "{url}"')})
    page = outputs(render_site(site))["v/index.html"].decode()
    if src is None:  # not a player we know: the poster is a link to the video
        assert "data-src" not in page and "Watch the recording" in page
        return
    assert (f'<figure class="recording recording--compact" data-src="{src}" '
            'data-title="Video: V">') in page
    assert "<iframe" not in page and "youtube.com/embed" not in page
    assert "Play the recording</span>" in page and "loads " in page


def test_math_renders_to_mathml_only_when_the_talk_asks(make_site: MakeSite) -> None:
    site = make_site({"talks/m.md": talk("M", extra="math = true", body="$x^2$"),
                      "talks/n.md": talk("N", body="$x^2$")})
    files = outputs(render_site(site))
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in files["m/index.html"].decode()
    assert "<p>$x^2$</p>" in files["n/index.html"].decode()


def test_the_local_time_line_carries_both_instants(make_site: MakeSite) -> None:
    site = make_site({"talks/t.md": talk("T", "2019-05-22T14:50:00",
                                         'timezone = "Europe/Madrid"\n'
                                         "date_end = 2019-05-22T15:25:00"),
                      "talks/d.md": talk("D", "2019-05-22")})
    files = outputs(render_site(site))
    assert ('<span class="local-time" hidden data-start="2019-05-22T14:50+02:00" '
            'data-end="2019-05-22T15:25+02:00"></span>') in files["t/index.html"].decode()
    assert "local-time" not in files["d/index.html"].decode()  # all-day: no clock time


def test_the_index_filter_is_plain_html_first(make_site: MakeSite) -> None:
    files = five_talks(make_site, "")
    index = files["index.html"].decode()
    assert '<label class="visually-hidden" for="filter">Filter talks</label>' in index
    assert '<input id="filter" name="q" type="search"' in index
    assert '<script>(function(r){r.classList.add("js");' in index
    # Every talk is in the HTML: the list works without the script.
    assert len(titles(files["index.html"])) == 5


def test_the_filters_choices_are_in_the_index(make_site: MakeSite) -> None:
    """The tags by name (a select of hundreds is read by typing a name's first letters),
    the years newest first, "Upcoming only"; each with its label. Only the index loads
    the filter's script."""
    site = make_site({"talkpages.toml": "paginate = 2\n", **{
        f"talks/{name}.md": talk(name, when, f"tags = {tags}")
        for name, when, tags in [("a", "2019-01-01", '["zebra", "C++"]'),
                                 ("b", "2020-01-01", '["apple", "zebra"]'),
                                 ("c", "2027-01-01", '["Zebra", "Été"]')]}})
    files = outputs(render_site(site))
    for path in ("index.html", "page/2/index.html"):
        index = files[path].decode()
        tags = re.search(r'<select id="filter-tag" name="tag">(.*?)</select>', index, re.S)
        assert tags is not None
        assert '<label class="visually-hidden" for="filter-tag">Tag</label>' in index
        assert re.findall(r'<option value="([^"]*)"(?: data-name="[^"]*")?>([^<]*)</option>',
                          tags[1]) == [
            ("", "Any tag"), ("apple", "apple (1)"), ("c-plus-plus", "C++ (1)"),
            ("ete", "Été (1)"), ("zebra", "zebra (3)")]
        assert '<option value="c-plus-plus" data-name="C++">' in tags[1]
        years = re.search(r'<select id="filter-year" name="year">(.*?)</select>', index, re.S)
        assert years is not None
        assert '<label class="visually-hidden" for="filter-year">Year</label>' in index
        assert re.findall(r'<option value="(\d*)">', years[1]) == ["", "2027", "2020", "2019"]
        assert '<input id="filter-upcoming" name="upcoming" type="checkbox" value="1">' in index
        assert '<label for="filter-upcoming">Upcoming only</label>' in index
        assert re.search(r'<script src="[./]*assets/filter\.[0-9a-f]{10}\.js" defer>', index)
    assert "filter." not in files["a/index.html"].decode()
    assert "filter." not in files["tags/zebra/index.html"].decode()


def test_a_talk_cannot_take_the_address_of_the_index_pages(make_site: MakeSite) -> None:
    site = make_site({"talks/page.md": talk("P")})
    result = render_site(site)
    assert not result.ok
    assert "the slug 'page' is used by the site itself" in result.diagnostics[0].message


def test_a_recurring_talk_is_listed_at_its_next_occurrence(make_site: MakeSite) -> None:
    site = make_site({"talks/weekly.md": talk("Weekly", "2026-11-01T18:00:00",
                                              'recurrence = "FREQ=WEEKLY;COUNT=10"')})
    index = outputs(render_site(site))["index.html"].decode()  # NOW is 21 Nov 2026
    upcoming = index.split('id="past"')[0]
    assert ('<time class="talk-date" datetime="2026-11-22T18:00+00:00" data-short="Nov 22, 2026">'
            'Sun, Nov 22, 2026\u00a0· 6:00\u202fPM UTC</time>') in upcoming
    assert 'data-start="2026-11-22T18:00:00Z" data-end="2026-11-22T19:00:00Z" ' \
        'data-until="2027-01-03T19:00:00Z"' in upcoming  # the series' last end
