"""The site files: sitemap.xml (against its XSD), robots.txt, feed.xml (Atom), talks.json,
search.json; for the example site and the fixture site."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import unquote, urlsplit

import feedparser
from lxml import etree

from talkpages.output.sitefiles import derived_slug

from conftest import NOW, ROOT, MakeSite, outputs, render_site, require_tool, talk
from pagesite import BASE_URL

SITEMAP_XSD = Path(__file__).parent / "node/node_modules/sitemap/schema/sitemap.xsd"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def sites(example_out: Path, fixture_out: Path) -> list[tuple[Path, str]]:
    return [(example_out, "https://k82cn.github.io/talks/"), (fixture_out, BASE_URL)]


def test_sitemaps_validate_against_the_schema_and_list_every_page(
        example_out: Path, fixture_out: Path) -> None:
    require_tool(SITEMAP_XSD.exists(),
                 f"the sitemap schema is not installed (cd tests/node && npm ci): {SITEMAP_XSD}")
    schema = etree.XMLSchema(file=str(SITEMAP_XSD))
    for out, base in sites(example_out, fixture_out):
        doc = etree.parse(str(out / "sitemap.xml"))
        assert schema.validate(doc), schema.error_log
        locs = [loc.text for loc in doc.iter(f"{SM}loc")]
        assert locs[0] == base
        paths = set()
        for loc in locs:
            assert loc is not None and loc.startswith(base) and loc.isascii()
            paths.add(unquote(loc[len(base):]))
        pages = {p.relative_to(out).as_posix().removesuffix("index.html")
                 for p in out.rglob("index.html")}
        assert paths == pages  # every page, and nothing that is not one


def test_sitemap_has_lastmod_from_the_talk(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", extra="lastmod = 2020-01-02T03:04:05Z")})
    sitemap = outputs(render_site(site))["sitemap.xml"].decode()
    assert "<loc>http://localhost:1313/a/</loc><lastmod>2020-01-02T03:04:05+00:00</lastmod>" \
        in sitemap


def test_robots_points_at_the_sitemap(example_out: Path) -> None:
    assert (example_out / "robots.txt").read_text() == (
        "User-agent: *\nAllow: /\nSitemap: https://k82cn.github.io/talks/sitemap.xml\n")


def test_atom_feeds_parse_with_every_required_element(example_out: Path,
                                                      fixture_out: Path) -> None:
    for out, base in sites(example_out, fixture_out):
        feed = feedparser.parse((out / "feed.xml").read_bytes())
        assert not feed.bozo, feed.bozo_exception
        assert feed.version == "atom10"
        assert feed.feed.title and feed.feed.id == base and feed.feed.updated
        assert feed.feed.links[0].href == base + "feed.xml"
        for entry in feed.entries:
            for key in ("title", "id", "updated", "link", "author"):
                assert entry.get(key), (out, entry.get("id"), key)
            assert entry.id == entry.link and entry.id.startswith(base)
            updated = datetime.fromisoformat(entry.updated.replace("Z", "+00:00"))
            assert updated <= NOW  # never in the future, even for upcoming talks
    example_feed = feedparser.parse((example_out / "feed.xml").read_bytes())
    assert len(example_feed.entries) == 18
    assert example_feed.entries[0].title == "Improving Performance of Deep Learning " \
        "Workloads With Volcano"  # the newest first
    seed = next(e for e in example_feed.entries
                if e.title == "Intro: Kubernetes Batch Scheduling")
    assert seed.published.startswith("2019-06-05T22:00:00")  # publishDate, Madrid -> UTC
    assert "Wed, May 22, 2019, 2:50\u2009–\u20093:25\u202fPM Madrid (GMT+02:00)" \
        in seed.content[0].value  # the example site is in English ("en"): CLDR's US style


def test_atom_feed_holds_the_newest_fifty(make_site: MakeSite) -> None:
    site = make_site({f"talks/t{n:02d}.md": talk(f"T{n:02d}", f"2019-01-{n % 28 + 1:02d}")
                      for n in range(60)})
    feed = feedparser.parse(outputs(render_site(site))["feed.xml"])
    assert len(feed.entries) == 50


def test_talks_json_has_every_talk_with_absolute_urls(fixture_out: Path) -> None:
    data = json.loads((fixture_out / "talks.json").read_text(encoding="utf-8"))
    assert data["url"] == BASE_URL and data["feeds"]["calendar"] == BASE_URL + "calendar.ics"
    talks = {t["slug"]: t for t in data["talks"]}
    assert len(talks) == 7
    madrid = talks["madrid"]
    assert madrid["url"] == BASE_URL + "madrid/"
    assert (madrid["start"], madrid["end"]) == ("2019-05-22T14:50:00+02:00",
                                                "2019-05-22T15:25:00+02:00")
    assert madrid["timezone"] == "Europe/Madrid" and madrid["all_day"] is False
    assert madrid["speakers"] == [
        {"name": "Ada Lovelace", "url": BASE_URL + "speakers/ada-lovelace/"},
        {"name": "Grace Hopper", "url": BASE_URL + "speakers/grace-hopper/"}]
    assert madrid["links"] == [{"name": "Slides", "url": BASE_URL + "madrid/slides.pdf",
                                "kind": "slides"},
                               {"name": "Video", "url": "https://vimeo.com/76979871",
                                "kind": "video"}]
    assert madrid["image"]["url"] == BASE_URL + "madrid/featured-64.jpg"  # its largest copy
    assert madrid["tags"][0] == {"name": "Kubernetes", "url": BASE_URL + "tags/kubernetes/"}
    assert madrid["address"]["city"] == "Madrid" and madrid["attendance"] == "offline"
    assert talks["cancelled"]["status"] == "cancelled"
    assert talks["hybrid"]["attendance"] == "mixed"
    assert talks["summit"]["start"] == "2018-10-01" and talks["summit"]["all_day"] is True
    for record in talks.values():
        for link in [record["url"], *(t["url"] for t in record["tags"])]:
            assert urlsplit(link).scheme == "https"


def test_search_index_lists_talks_in_the_order_of_the_index(fixture_out: Path) -> None:
    rows = json.loads((fixture_out / "search.json").read_text(encoding="utf-8"))
    assert [row[0] for row in rows] == ["online/", "hybrid/", "cancelled/", "madrid/",
                                        "math/", "summit/", "escape/"]
    online = rows[0]
    assert online[1:] == ["An online talk from New York", "Jun 1, 2099",
                          "Mon, Jun 1, 2099 · 12:00\u202fPM EDT",
                          4084012800, 3600, ["Grace Hopper"], "Remote Conf", "Online",
                          ["Kubernetes"], "", 2099, ""]
    assert rows[2][10] == "cancelled"


def test_search_rows_carry_what_a_list_row_shows(fixture_out: Path) -> None:
    """A row gives the instant (UTC seconds) and length the reader's clock sorts by,
    the day of a past row and the line of an upcoming one as the pages write them, the
    year the talk is listed under, and the speakers' and tags' pages: a
    name alone when the script's slug of it is the page's, else [name, slug]; every
    page so named exists."""
    rows = {row[0]: row for row in json.loads(
        (fixture_out / "search.json").read_text(encoding="utf-8"))}
    madrid = rows["madrid/"]
    assert madrid[2:6] == ["May 22, 2019", "Wed, May 22, 2019 · 2:50\u202fPM Madrid (GMT+02:00)",
                           int(datetime(2019, 5, 22, 12, 50, tzinfo=timezone.utc).timestamp()),
                           35 * 60]
    assert madrid[11] == 2019
    assert madrid[6] == ["Ada Lovelace", "Grace Hopper"]  # speakers.toml's name for admin
    assert madrid[9] == ["Kubernetes", "Batch Scheduling"]
    assert rows["math/"][9] == ["Math", ["Café", "cafe"]]
    assert rows["escape/"][9] == [["C++", "c-plus-plus"]]
    assert rows["hybrid/"][9] == [["云原生", "云原生"]]
    summit = rows["summit/"]  # all day in Berlin: from its first midnight to after its last
    assert summit[2:6] == ["Oct 1\u2009–\u20093, 2018", "Mon, Oct 1\u2009–\u2009Wed, Oct 3, 2018",
                           int(datetime(2018, 9, 30, 22, tzinfo=timezone.utc).timestamp()),
                           3 * 24 * 3600]
    assert summit[11] == 2018
    assert all(len(row) == 13 for row in rows.values())  # no series: no `until`
    assert all(row[12] == "" for row in rows.values())  # each in the site's language
    for row in rows.values():
        for folder, names in (("speakers", row[6]), ("tags", row[9])):
            for entry in names:
                name, slug = (entry, derived_slug(entry)) if isinstance(entry, str) else entry
                assert slug and (fixture_out / folder / slug / "index.html").is_file(), name


def test_a_series_row_says_when_its_last_date_is_over(make_site: MakeSite) -> None:
    site = make_site({
        "talkpages.toml": 'title = "T"\nbase_url = "https://example.org/"\n',
        "talks/weekly.md": talk("Weekly", "2026-11-02T10:00:00", '''
            timezone = "UTC"
            recurrence = "FREQ=WEEKLY;COUNT=3"
        '''),
        "talks/forever.md": talk("Forever", "2026-11-02T10:00:00", '''
            timezone = "UTC"
            recurrence = "FREQ=DAILY"
        ''')})
    rows = {row[0]: row for row in json.loads(outputs(render_site(site))["search.json"])}
    assert rows["weekly/"][13] == int(datetime(2026, 11, 16, 11, tzinfo=timezone.utc).timestamp())
    assert rows["forever/"][13] is None
    assert rows["weekly/"][4] == int(datetime(2026, 11, 2, 10, tzinfo=timezone.utc).timestamp())


def test_the_script_derives_the_slugs_rows_leave_out() -> None:
    """filter.js `derivedSlug` is this function: lower case, runs of anything but ASCII
    letters and digits one `-`; rows spell out every slug that differs from it."""
    assert derived_slug("Batch Scheduling") == "batch-scheduling"
    assert derived_slug("  K8s -- SIG_Node! ") == "k8s-sig-node"
    assert derived_slug("Café") is None
    script = (ROOT / "assets" / "filter.js").read_text(encoding="utf-8")
    assert 'toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")' in script


