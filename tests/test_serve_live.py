"""`serve` makes an edit to a talk's file in the site it keeps in memory (engine/live.py):
what it serves then is, byte for byte, what a whole build of the same files makes; and
an edit that moves a talk to other lists, a new file or an error takes a whole build."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from talkpages.content.loader import LoadOptions
from talkpages.engine.live import LiveSite
from talkpages.output.outputs import Output

from conftest import NOW, ROOT, MakeSite, render, talk

OPTIONS = LoadOptions(now=NOW, future=True)


def contents(outputs: dict[str, Output]) -> dict[str, bytes | str]:
    return {path: output.data if output.data is not None else str(output.source)
            for path, output in outputs.items()}


def kept(site: Path) -> LiveSite:
    result = render(site, OPTIONS)
    assert result.ok and result.site is not None and result.maker is not None, \
        result.diagnostics
    return LiveSite.of(result.site, result.maker, result.recipes, result.outputs)


def example_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    for name in ("talks", "assets"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, site / name)
    for name in ("talkpages.toml", "speakers.toml"):
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, site / name)
    return site


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def a_talk_file(site: Path) -> Path:
    """A talk of the example site with speakers, tags and neighbours: the one that
    appears on the most pages."""
    files = sorted(p for p in (site / "talks").rglob("*.md") if p.name != "_index.md")
    return max(files, key=lambda p: (p.read_text(encoding="utf-8").count("tags"), p.name))


@pytest.mark.parametrize(("old", "new"), [
    ("title = ", 'title = "Edited: a new title"\nx_old_title = '),  # lists, feeds, neighbours
    ('abstract = "', 'abstract = "Written **now**. '),
    ("\n+++\n", "\nlocation = \"Room 4, Barcelona\"\n+++\n"),
    ("\n+++\n", "\nstatus = \"cancelled\"\n+++\n"),
    ("\n+++\n", "\n+++\nA new first paragraph of the body, with `code` and a [link](x/).\n"),
], ids=["title", "abstract", "location", "cancelled", "body"])
def test_an_edit_made_in_memory_is_what_a_whole_build_makes(
        tmp_path: Path, old: str, new: str) -> None:
    site = example_site(tmp_path)
    live = kept(site)
    path = a_talk_file(site)
    text = path.read_text(encoding="utf-8")
    if not text.startswith("+++\n") or old not in text:
        pytest.skip("the example talk is not written so (TOML front matter, an abstract)")
    edit(path, old, new)
    edited = live.edited([path], OPTIONS)
    assert edited is not None, "an edit that keeps the talk in its lists is made in place"
    again, problems, made = edited
    whole = render(site, OPTIONS)
    assert whole.ok, whole.diagnostics
    assert 0 < made < len(whole.outputs)
    assert contents(again.outputs) == contents({o.path: o for o in whole.outputs})


def test_edits_one_after_another_stay_true(make_site: MakeSite) -> None:
    site = make_site({
        "talks/one.md": talk("One", "2030-01-01T10:00:00", 'authors = ["ada"]\ntags = ["x"]'),
        "talks/two.md": talk("Two", "2030-02-01T10:00:00", 'authors = ["ada"]\ntags = ["x"]'),
        "talks/three.md": talk("Three", "2019-02-01T10:00:00", 'authors = ["ada"]')})
    live = kept(site)
    for number in range(3):
        edit(site / "talks/two.md", "Body", f"Edit {number}. Body")
        edit(site / "talks/one.md", 'title = "One', f'title = "One {number}')
        edited = live.edited([site / "talks/two.md", site / "talks/one.md"], OPTIONS)
        assert edited is not None
        live = edited[0]
        whole = render(site, OPTIONS)
        assert contents(live.outputs) == contents({o.path: o for o in whole.outputs})
    page = live.outputs["two/index.html"].data
    assert page is not None and b"One 2" in page  # its neighbour and "also speaking"


@pytest.mark.parametrize(("change", "why"), [
    (lambda s: edit(s / "talks/one.md", 'tags = ["x"]', 'tags = ["y"]'), "tags"),
    (lambda s: edit(s / "talks/one.md", "2030-01-01", "2030-03-01"), "its date"),
    (lambda s: edit(s / "talks/one.md", "+++\ntitle", '+++\nslug = "other"\n'), "its address"),
    (lambda s: edit(s / "talks/one.md", "+++\ntitle", "+++\ndraft = true\ntitle"), "a draft"),
    (lambda s: edit(s / "talks/one.md", "+++\ntitle", "+++\nnot toml =\ntitle"), "an error"),
    (lambda s: (s / "talks/new.md").write_text(talk("New")), "a new file"),
    (lambda s: os.remove(s / "talks/one.md"), "a file gone"),
], ids=["tags", "date", "slug", "draft", "error", "new file", "removed"])
def test_an_edit_that_changes_the_plan_takes_a_whole_build(
        make_site: MakeSite, change: object, why: str) -> None:
    site = make_site({
        "talks/one.md": talk("One", "2030-01-01T10:00:00", 'tags = ["x"]\n'),
        "talks/two.md": talk("Two", "2030-02-01T10:00:00")})
    live = kept(site)
    change(site)  # type: ignore[operator]
    changed = [site / "talks/one.md"] if why != "a new file" else [site / "talks/new.md"]
    assert live.edited(changed, OPTIONS) is None, why


def test_a_site_with_templates_of_its_own_is_built_whole(make_site: MakeSite) -> None:
    """Its templates may show any talk on any page: no map of readers holds for them."""
    site = make_site({"talks/one.md": talk("One"), "talks/two.md": talk("Two"),
                      "layouts/404.html": "{{ site.talks | map(attribute='title') | join }}"})
    live = kept(site)
    edit(site / "talks/one.md", "Body", "Edited body")
    assert live.edited([site / "talks/one.md"], OPTIONS) is None


def test_a_talk_that_started_since_the_build_takes_a_whole_build(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk("One", "2030-01-01T10:00:00")})
    live = kept(site)
    edit(site / "talks/one.md", "Body", "Edited body")
    later = LoadOptions(now=live.next_change or NOW, future=True)
    assert live.next_change is not None
    assert live.edited([site / "talks/one.md"], later) is None
    assert live.edited([site / "talks/one.md"], OPTIONS) is not None


def test_the_pages_are_given_before_the_feeds_and_files_are_made(make_site: MakeSite) -> None:
    """A server shows the edited pages at once; the feeds follow without a reload."""
    site = make_site({"talks/one.md": talk("One", "2030-01-01T10:00:00"),
                      "talks/two.md": talk("Two", "2030-02-01T10:00:00")})
    live = kept(site)
    edit(site / "talks/one.md", 'title = "One', 'title = "Once')
    given: list[dict[str, Output]] = []
    edited = live.edited([site / "talks/one.md"], OPTIONS, given.append)
    assert edited is not None and len(given) == 1
    pages, final = given[0], edited[0].outputs
    for path in ("one/index.html", "two/index.html", "index.html"):
        assert b"Once" in (pages[path].data or b"")
    assert b"Once" not in (pages["calendar.ics"].data or b"")
    assert b"Once" in (final["calendar.ics"].data or b"")
