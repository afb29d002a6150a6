"""The build cache: the same outputs as a fresh build, with only changed work redone."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

from talkpages.build.cache import BuildCache, MemoryCache, Stats
from talkpages.content.loader import LoadOptions, load_site
from talkpages.output.keys import Keys
from talkpages.output.outputs import Output
from talkpages.output.theme import Theme, _reads_site_state

from conftest import NOW, MakeSite, render, talk

OPTIONS = LoadOptions(now=NOW)


def data(result) -> dict[str, bytes | None]:  # type: ignore[no-untyped-def]
    assert result.ok, [d.format() for d in result.diagnostics]
    return {o.path: o.data if o.data is not None else o.source.read_bytes()
            for o in result.outputs}


def big_site(make_site: MakeSite, count: int) -> Path:
    zones = ["Europe/Madrid", "Asia/Shanghai", "America/Los_Angeles", "UTC"]
    files = {}
    for i in range(count):
        extra = (f'timezone = "{zones[i % 4]}"\nauthors = ["Speaker {i % 37}"]\n'
                 f'tags = ["tag{i % 23}", "topic{i % 7}"]\nlocation = "City {i % 11}"\n'
                 f'url_slides = "https://example.org/{i}.pdf"')
        day = f"20{10 + i % 20:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}T{8 + i % 10:02d}:00:00"
        files[f"talks/talk-{i:04d}.md"] = talk(f"Talk number {i}", day, extra,
                                               body=f"## Part {i}\n\nText of talk {i}.\n" * 5)
    return make_site(files)


def test_one_edit_in_a_thousand_talks_redoes_only_its_work(make_site: MakeSite) -> None:
    site = big_site(make_site, 1000)
    cache = MemoryCache()
    first = render(site, OPTIONS, cache)
    assert cache.stats.talks_read == 1000
    path = site / "talks/talk-0500.md"
    path.write_text(path.read_text().replace("Text of talk 500.", "Edited text."))
    started = time.perf_counter()
    second = render(site, OPTIONS, cache)
    seconds = time.perf_counter() - started
    stats = cache.stats
    print(f"\nrebuild after one edit, 1,000 talks: {seconds * 1000:.0f} ms ({stats})")
    assert (stats.talks_read, stats.talks_reused) == (1, 999)
    # the talk and its neighbours; the index, year, tag and speaker pages it is on; the
    # feeds it is in and its own .ics; talks.json and search.json; and what is made
    # every time (sitemap.xml, robots.txt, the theme's six assets)
    assert stats.pages_rendered <= 3 + 5 + 5 + 2 + 10
    assert stats.pages_reused >= 1000
    assert seconds < 3.0  # well under a second on a quiet machine; slack for a loaded CI
    before, after = data(first), data(second)
    changed = {p for p in after if before.get(p) != after[p]}
    assert "talk-0500/index.html" in changed and b"Edited text." in after["talk-0500/index.html"]
    assert data(render(site, OPTIONS)) == after  # the same bytes as a build without cache


def test_cached_build_equals_a_fresh_one_after_varied_changes(make_site: MakeSite) -> None:
    site = big_site(make_site, 30)
    cache = MemoryCache()
    render(site, OPTIONS, cache)
    (site / "talks/talk-0003.md").write_text(talk("Renamed", "2012-04-04T10:00:00",
                                                   'tags = ["new-tag"]'))
    (site / "talks/talk-0007.md").unlink()
    (site / "talks/new.md").write_text(talk("Brand new", "2030-01-01T10:00:00"))
    (site / "talkpages.toml").write_text('title = "Another title"\n')
    cached = render(site, OPTIONS, cache)
    assert data(cached) == data(render(site, OPTIONS))
    assert cache.stats.talks_read == 30  # the config changed: every talk read again
    cache.prune()
    assert "talk-0007/index.html" not in cache._pages


def test_a_changed_template_renders_every_page_again(make_site: MakeSite) -> None:
    site = big_site(make_site, 5)
    cache = MemoryCache()
    render(site, OPTIONS, cache)
    (site / "layouts").mkdir()
    (site / "layouts/404.html").write_text("{% extends 'base.html' %}{% block main %}gone"
                                           "{% endblock %}")
    result = render(site, OPTIONS, cache)
    assert cache.stats.pages_reused == 1  # the site's card.jpg: drawn, not templated
    assert b"gone" in data(result)["404.html"]  # type: ignore[operator]


def test_the_pass_through_counts_everything() -> None:
    cache = BuildCache()
    page = Output("u/index.html", b"page")
    assert cache.known_page("key", "u/index.html", "test") is None
    assert cache.remember_page("key", page) is page
    assert cache.known_talk(Path("x"), "inputs") is None
    cache.remember_talk(Path("x"), "inputs", (None, []))
    assert cache.stats == Stats(talks_read=1, pages_rendered=1)
    cache.start()
    assert cache.stats == Stats()


def keys_for(make_site: MakeSite, *bodies: str, now=NOW):  # type: ignore[no-untyped-def]
    site_dir = make_site({f"talks/t{n}.md": body for n, body in enumerate(bodies)})
    site, problems = load_site(site_dir, LoadOptions(now=now))
    assert site is not None, problems
    return Keys(site, Theme.for_site(site_dir)), site


def test_a_page_key_changes_with_its_context_and_talks_stand_for_their_key(
        make_site: MakeSite) -> None:
    keys, site = keys_for(make_site, talk("A", "2019-01-01"), talk("B", "2019-02-01"))
    first, second = site.talks
    key = keys.page("t.html", "x/", {"talk": first, "n": [1, (2, 3)], "m": {"c": None}})
    assert key == keys.page("t.html", "x/", {"talk": first, "n": [1, (2, 3)], "m": {"c": None}})
    assert key != keys.page("t.html", "x/", {"talk": second, "n": [1, (2, 3)], "m": {"c": None}})
    assert key != keys.page("t.html", "x/", {"talk": first, "n": [1, (2, 4)], "m": {"c": None}})
    assert key != keys.page("t.html", "y/", {"talk": first, "n": [1, (2, 3)], "m": {"c": None}})
    assert keys.page("t.html", "x/", {"x": object()}) is None  # never compared: rendered


def test_the_time_of_the_build_changes_only_the_keys_of_talks_it_moves(
        make_site: MakeSite) -> None:
    """A build without --now keeps pages whose talks did not start or end meanwhile."""
    bodies = (talk("Past", "2019-01-01T10:00:00"), talk("Soon", "2027-01-01T10:00:00"),
              talk("Weekly", "2026-11-01T10:00:00", 'recurrence = "FREQ=WEEKLY;COUNT=10"'))
    before, site = keys_for(make_site, *bodies, now=NOW)
    later, later_site = keys_for(make_site, *bodies, now=NOW + timedelta(hours=1))
    much_later, much_site = keys_for(make_site, *bodies, now=NOW + timedelta(days=400))
    for number in range(3):
        assert before.state(site.talks[number]) == later.state(later_site.talks[number])
    states = [(before.state(a), much_later.state(b)) for a, b in zip(site.talks, much_site.talks,
                                                                     strict=True)]
    assert [a == b for a, b in states] == [True, False, False]  # "Soon" ended, "Weekly" too
    assert before.fragment("record", site.talks[1]) == \
        much_later.fragment("record", much_site.talks[1])  # talks.json does not show time


def test_a_theme_reading_the_whole_site_makes_every_page_depend_on_everything(
        make_site: MakeSite, tmp_path: Path) -> None:
    builtin = Theme.for_site(tmp_path / "no-theme-of-its-own")
    assert not builtin.reads_site_state
    names = builtin.env.list_templates()
    assert names and not _reads_site_state(builtin.env, names)  # taken as known
    site_dir = make_site({"talks/a.md": talk("A", "2019-01-01"),
                          "layouts/404.html": "{{ site.talks | length }} talks"})
    assert Theme.for_site(site_dir).reads_site_state
    first, site = keys_for(make_site, talk("A", "2019-01-01"))
    later, _ = keys_for(make_site, talk("A", "2019-01-01"), now=NOW + timedelta(hours=1))
    assert first.page("404.html", "404.html", {}) != later.page("404.html", "404.html", {})


def test_compiled_templates_never_keep_a_value_of_another_site(make_site: MakeSite,
                                                                tmp_path: Path) -> None:
    """Regression: Jinja's optimizer called `"" | absolute` when it compiled 404.html, and
    the compiled template, kept for every site of the user, gave the next site the first
    one's base_url."""
    from conftest import build

    for number, host in enumerate(["https://first.example/", "https://second.example/",
                                   "https://first.example/"]):
        site = make_site({"talks/a.md": talk("A", "2019-01-01"),
                          "talkpages.toml": f'base_url = "{host}"\n'},
                         root=tmp_path / f"site-{number % 2}")
        out = tmp_path / f"out-{number}"
        assert build(site, out, OPTIONS).ok
        assert f'<link rel="canonical" href="{host}">' in (out / "404.html").read_text()


def test_a_changed_stylesheet_is_linked_by_its_new_name(make_site: MakeSite,
                                                         tmp_path: Path) -> None:
    """The same bug, in one site: `'style.css' | asset` worked out when a template was
    compiled kept linking the stylesheet's old hashed name."""
    from talkpages.output.theme import hashed_name

    from conftest import build

    for colour in ("red", "blue"):
        css = f"body {{ color: {colour}; }}\n"
        site = make_site({"talks/a.md": talk("A", "2019-01-01"), "assets/style.css": css})
        out = tmp_path / f"out-{colour}"
        assert build(site, out, OPTIONS).ok
        name = hashed_name("style.css", css.encode())
        assert f'href="./assets/{name}"' in (out / "index.html").read_text()
        assert (out / "assets" / name).read_text() == css
