"""A build after a few talks changed makes again only what shows them (delta.py): its
output must be, byte for byte, what a build from nothing makes of the same files, after
any sequence of edits, whatever they touch."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import build_with_cache, render_site, talk

ZONES = ["Europe/Madrid", "Asia/Shanghai", "America/New_York", "UTC"]


def site_files() -> dict[str, str]:
    files = {}
    for n in range(24):
        extra = (f'timezone = "{ZONES[n % 4]}"\nauthors = ["Speaker {n % 5}", "Guest {n % 3}"]\n'
                 f'tags = ["tag{n % 6}", "Topic {n % 4}"]\nlocation = "City {n % 7}"\n'
                 f'abstract = "Abstract of talk {n}, with *emphasis*."\n'
                 f'url_slides = "https://example.org/{n}.pdf"')
        if n == 3:
            extra += '\nrecurrence = "FREQ=WEEKLY;COUNT=6"'
        if n == 5:
            extra += "\nall_day = true"
        if n == 7:
            extra += '\nstatus = "cancelled"'
        year = 2019 + n % 9  # past and upcoming talks, around NOW (2026-11-21)
        date = (f"{year}-{1 + n % 12:02d}-{1 + n % 27:02d}" if n == 5
                else f"{year}-{1 + n % 12:02d}-{1 + n % 27:02d}T{8 + n % 9:02d}:30:00")
        name = f"talks/talk-{n:02d}.md" if n != 9 else "talks/bundle/index.md"
        files[name] = talk(f"Talk number {n}", date, extra, body=f"## Part {n}\n\nText {n}.\n")
    files["talks/bundle/slides.pdf"] = "%PDF-1"
    files["talkpages.toml"] = 'title = "Delta"\nbase_url = "https://talks.example.org/"\n'
    return files


# Edits that keep a talk's shape (delta builds) and edits that do not (full builds).
KEEPING = ["body", "title", "abstract", "location", "links", "event"]
CHANGING = ["date", "tags", "draft", "new file", "remove file", "rename"]


def talk_names(number: int) -> list[str]:
    """The two names talk `number` has: renames move it back and forth."""
    return (["bundle/index.md", "moved-bundle/index.md"] if number == 9
            else [f"talk-{number:02d}.md", f"moved-{number:02d}.md"])


def edit(site: Path, kind: str, number: int, step: int) -> None:
    names = talk_names(number)
    now = 0 if (site / "talks" / names[0]).exists() else 1
    path = site / "talks" / names[now]
    if kind == "new file":
        (site / "talks" / f"new-{step}.md").write_text(talk(f"New {step}", "2024-03-03"))
        return
    if kind == "remove file":
        for new in (site / "talks").glob("new-*.md"):
            new.unlink()
        return
    if kind == "rename":  # a new address: the old pages go, the bundle's files move
        target = site / "talks" / names[1 - now]
        if number == 9:
            path.parent.rename(target.parent)
        else:
            path.rename(target)
        return
    text = path.read_text()
    if kind == "body":
        text += f"\nAnother sentence, step {step}.\n"
    elif kind == "title":
        text = re.sub(r'title = "([^"]*)"', rf'title = "\1 (edit {step}, “é”)"', text, count=1)
    elif kind == "abstract":
        text = re.sub(r'abstract = "([^"]*)"', rf'abstract = "\1 More {step}."', text, count=1)
    elif kind == "location":
        text = re.sub(r'location = "([^"]*)"', f'location = "Elsewhere {step}, Spain"', text)
    elif kind in ("links", "event"):
        key, value = ("url_video", f"https://v.example/{step}") if kind == "links" \
            else ("event", f"Conf {step}")
        text = re.sub(rf'\n{key} = "[^"]*"', "", text)
        text = text.replace("+++\n## Part", f'{key} = "{value}"\n+++\n## Part')
    elif kind == "date":
        text = re.sub(r"date = (\d{4})", lambda m: f"date = {int(m.group(1)) - 1}", text,
                      count=1)
    elif kind == "tags":
        text = text.replace('tags = ["', f'tags = ["extra{step % 3}", "', 1)
    elif kind == "draft":
        text = text.replace("+++\n## Part", "draft = true\n+++\n## Part") \
            if "draft = true" not in text else text.replace("draft = true\n", "")
    path.write_text(text)


def build_once(site: Path, out: Path) -> tuple[bool, dict[str, bytes]]:
    """A build as `talkpages build` runs it: whether it was a delta build, and the files."""
    result, _, files = build_with_cache(site, out)
    return result.delta, files


@settings(max_examples=500 if os.environ.get("HYPOTHESIS_PROFILE") == "stress" else 12)
@given(st.lists(st.tuples(st.sampled_from(KEEPING + CHANGING), st.integers(0, 23)),
                min_size=1, max_size=6))
@example([("rename", 9), ("body", 9), ("rename", 9), ("rename", 4), ("title", 4)])
def test_any_edits_give_what_a_build_from_nothing_gives(tmp_path_factory, edits) -> None:
    site = tmp_path_factory.mktemp("site")
    for name, content in site_files().items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(content)
    out = site.parent / f"{site.name}-out"
    build_once(site, out)
    for step, (kind, number) in enumerate(edits):
        edit(site, kind, number, step)
        delta, files = build_once(site, out)
        expected = {o.path: o.data if o.data is not None else o.source.read_bytes()
                    for o in render_site(site).outputs}
        assert files.keys() == expected.keys(), f"after {edits[:step + 1]}"
        for path, data in expected.items():
            assert files[path] == data, f"{path} after {edits[:step + 1]} (delta: {delta})"
        if kind in KEEPING and (kind, number) not in edits[:step]:
            assert delta, f"{kind} of talk {number} should be a delta build"


def test_edits_that_keep_the_shape_are_delta_builds_and_others_are_not(make_site, tmp_path):
    site = make_site(site_files())
    out = tmp_path / "out"
    assert build_once(site, out)[0] is False
    for kind in KEEPING:
        edit(site, kind, 4, 0)
        assert build_once(site, out)[0] is True, kind
    for kind in CHANGING:
        edit(site, kind, 4, 1)
        assert build_once(site, out)[0] is False, kind


def test_an_end_moved_to_a_time_that_happens_twice_changes_the_zones_of_the_feeds(
        make_site, tmp_path) -> None:
    """Only the end changes, yet the event is then written in UTC and names no zone: the
    feeds lose the zone's VTIMEZONE, and get it back when the end moves back."""
    site = make_site({"talks/night.md": talk("Night", "2024-11-03T00:30:00", """
                          timezone = "America/New_York"
                          date_end = 2024-11-03T00:50:00
                      """), "talkpages.toml": 'base_url = "https://talks.example.org/"\n'})
    out = tmp_path / "out"
    build_once(site, out)
    path = site / "talks/night.md"
    for before, after in (("00:50", "01:40"), ("01:40", "00:50")):
        path.write_text(path.read_text().replace(f"T{before}:00", f"T{after}:00"))
        _, files = build_once(site, out)
        assert files == {o.path: o.data if o.data is not None else o.source.read_bytes()
                         for o in render_site(site).outputs}, after
        assert ("America/New_York" in files["calendar.ics"].decode()) == (after == "00:50")


@pytest.mark.parametrize("damage", ["output deleted", "a kept file gone from both folders"])
def test_a_delta_build_that_cannot_keep_the_rest_is_a_full_build(
        make_site, tmp_path, damage: str) -> None:
    site = make_site(site_files())
    out = tmp_path / "out"
    build_once(site, out)
    edit(site, "body", 4, 0)
    assert build_once(site, out)[0] is True  # the twin now holds the first build
    edit(site, "body", 4, 1)
    if damage == "output deleted":
        shutil.rmtree(out)
    else:  # a page no edit touches (the overview of tags), from the output and its twin
        victim = out / "tags/index.html"
        for folder in (out, *(p for p in (site / ".talkpages-cache" / "outputs").glob("*")
                              if p.is_dir())):
            (folder / victim.relative_to(out)).unlink(missing_ok=True)
    delta, files = build_once(site, out)
    assert delta is False
    expected = {o.path: o.data if o.data is not None else o.source.read_bytes()
                for o in render_site(site).outputs}
    assert files == expected
