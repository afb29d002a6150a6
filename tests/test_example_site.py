"""The example site in the repository: golden output, and what a reader must see.

Run with UPDATE_GOLDEN=1 to rewrite tests/golden/example after a deliberate change,
then read the diff before committing it.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import icalendar
import pytest

from conftest import NOW, ROOT, SEED, needs_shared, render_site

GOLDEN = Path(__file__).parent / "golden" / "example"


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    result = render_site(ROOT)
    assert result.ok, [d.format() for d in result.diagnostics]
    files = {}
    for output in result.outputs:
        files[output.path] = output.data if output.data is not None else \
            output.source.read_bytes()  # type: ignore[union-attr]
    return files


def test_golden_output(built: dict[str, bytes]) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        import shutil

        shutil.rmtree(GOLDEN, ignore_errors=True)
        for path, data in built.items():
            (GOLDEN / path).parent.mkdir(parents=True, exist_ok=True)
            (GOLDEN / path).write_bytes(data)
    golden = {p.relative_to(GOLDEN).as_posix(): p.read_bytes()
              for p in GOLDEN.rglob("*") if p.is_file()}
    assert sorted(built) == sorted(golden)
    for path in golden:
        if path.endswith((".jpg", ".webp")):  # drawn or resized: pixels vary with Pillow
            assert picture(built[path]) == picture(golden[path]), path  # and the fonts
            continue
        assert built[path] == golden[path], f"{path} differs from the golden copy"


def picture(data: bytes) -> tuple[str | None, tuple[int, int]]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return image.format, image.size


@needs_shared
def test_the_seed_talk_is_in_the_example_site_with_only_a_zone_added() -> None:
    copy = (ROOT / "talks/kubecon-eu-2019-kubernetes-batch-scheduling/index.md").read_text()
    assert copy.replace('timezone = "Europe/Madrid"\n', "", 1) == SEED.read_text()


def test_seed_talk_page_shows_barcelona_time(built: dict[str, bytes]) -> None:
    page = built["kubecon-eu-2019-kubernetes-batch-scheduling/index.html"].decode()
    # the example site is in English ("en"): CLDR's US style, Madrid's zone by its city
    assert "Wed, May 22, 2019, 2:50\u2009–\u20093:25\u202fPM Madrid (GMT+02:00)" in page
    assert 'datetime="2019-05-22T14:50+02:00"' in page
    assert "Europe/Madrid, Central European Summer Time" in page


def test_feed_has_one_event_per_talk_in_barcelona_time(built: dict[str, bytes]) -> None:
    talks = [p for p in (ROOT / "talks").iterdir() if p.suffix == ".md" or p.is_dir()]
    cal = icalendar.Calendar.from_ical(built["calendar.ics"])
    events = cal.walk("VEVENT")
    assert len(events) == len(talks) == 18
    seed = next(e for e in events if e["SUMMARY"] == "Intro: Kubernetes Batch Scheduling")
    start, end = seed.decoded("DTSTART"), seed.decoded("DTEND")
    assert str(start.tzinfo) == "Europe/Madrid"
    assert (start.hour, start.minute, end.hour, end.minute) == (14, 50, 15, 25)
    assert start.utcoffset().total_seconds() == 2 * 3600
    assert "TZID=Europe/Madrid:20190522T145000" in built["calendar.ics"].decode()


def test_chinese_titles_stay_chinese(built: dict[str, bytes]) -> None:
    index = built["index.html"].decode()
    assert "华为云原生之路：开源加速企业开放式创新" in index
    assert "Volcano：基于云原生的高密计算解决方案" in index


def test_index_lists_past_talks_newest_first_grouped_by_year(built: dict[str, bytes]) -> None:
    index = built["index.html"].decode()
    years = [int(y) for y in re.findall(r'<h3 id="year-(\d{4})">', index)]
    assert years == [2019, 2018, 2016]
    assert "No upcoming talks yet." in index  # all of them are before NOW
    assert NOW.year == 2026


def test_index_links_the_feed_as_webcal_and_https(built: dict[str, bytes]) -> None:
    index = built["index.html"].decode()
    assert 'href="webcal://k82cn.github.io/talks/calendar.ics"' in index
    assert 'readonly value="https://k82cn.github.io/talks/calendar.ics"' in index


def test_every_talk_page_links_resolve(built: dict[str, bytes]) -> None:
    for path, data in built.items():
        if not path.endswith(".html") or path == "404.html":
            continue
        base = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        for href in re.findall(r'(?:href|src)="([^"]+)"', data.decode()):
            if re.match(r"^[a-z]+:", href) or href.startswith("#"):
                continue
            target = os.path.normpath(base + href.split("#")[0])
            target = "" if target == "." else target
            assert target in built or f"{target}/index.html".lstrip("/") in built, \
                f"{path}: broken link {href}"
