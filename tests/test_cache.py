"""The build cache: the same outputs as a fresh build, with only changed work redone."""

from __future__ import annotations

import time
from pathlib import Path

from talkpages.build import render
from talkpages.cache import BuildCache, MemoryCache, Stats, _freeze
from talkpages.loader import LoadOptions

from conftest import NOW, MakeSite, talk

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
    assert stats.pages_rendered <= 3 + 2 * 4  # the talk, its neighbours, a few lists
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
    assert "talk-0007/" not in cache._pages


def test_a_changed_template_renders_every_page_again(make_site: MakeSite) -> None:
    site = big_site(make_site, 5)
    cache = MemoryCache()
    render(site, OPTIONS, cache)
    (site / "layouts").mkdir()
    (site / "layouts/404.html").write_text("{% extends 'base.html' %}{% block main %}gone"
                                           "{% endblock %}")
    result = render(site, OPTIONS, cache)
    assert cache.stats.pages_reused == 0
    assert b"gone" in data(result)["404.html"]  # type: ignore[operator]


def test_the_pass_through_counts_everything() -> None:
    cache = BuildCache()
    assert cache.page(None, "t", "u", {}, lambda: "page") == "page"  # type: ignore[arg-type]
    assert cache.talk(Path("x"), (), lambda: (None, [])) == (None, [])
    assert cache.stats == Stats(talks_read=1, pages_rendered=1)
    cache.start()
    assert cache.stats == Stats()


def test_freeze_compares_contexts_by_value_and_talks_by_identity() -> None:
    assert _freeze({"a": [1, (2, 3)], "b": {"c": None}}) == (("a", (1, (2, 3))),
                                                              ("b", (("c", None),)))

    class Opaque:
        pass

    import pytest

    from talkpages.cache import _Unhashable

    with pytest.raises(_Unhashable):
        _freeze({"x": Opaque()})


def test_a_page_with_an_unknown_context_value_is_always_rendered() -> None:
    cache = MemoryCache()
    calls = []

    class Site:
        config = "c"
        now = NOW
        speakers: dict[str, str] = {}

    cache.start()
    for _ in range(2):
        cache.page(Site(), "t", "u", {"x": object()},  # type: ignore[arg-type]
                   lambda: calls.append(1))  # type: ignore[arg-type,func-returns-value]
    assert len(calls) == 2
