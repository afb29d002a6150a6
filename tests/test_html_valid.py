"""The Nu HTML checker accepts every page of the example site, of fixture sites, and of
sites in German, French, Japanese, Arabic, and in English and Arabic at once.

Needs Java and the npm package vnu-jar (installed under tests/node by .ci/run);
skipped with the reason when either is absent.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from talkpages.content.loader import LoadOptions
from test_browser_languages import two_language_site
from test_languages import LANGUAGES
from test_languages import _site as language_site

from conftest import NOW, ROOT, MakeSite, build, require_tool, talk
from pagesite import build_pages_site

VNU = Path(__file__).parent / "node" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def require_vnu() -> None:
    require_tool(shutil.which("java") is not None,
                 "java is not installed (apt-get install default-jre-headless)")
    require_tool(VNU.exists(), f"vnu.jar is not installed (cd tests/node && npm ci): {VNU}")


def vnu(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["java", "-jar", str(VNU), "--skip-non-html", "--also-check-css",
                           "--also-check-svg", str(folder)], capture_output=True, text=True)


def test_example_site_is_valid_html(tmp_path: Path) -> None:
    require_vnu()
    result = build(ROOT, tmp_path / "public", LoadOptions(now=NOW))
    assert result.ok
    done = vnu(tmp_path / "public")
    assert done.returncode == 0, done.stdout + done.stderr


def test_fixture_site_with_every_field_is_valid_html(make_site: MakeSite, tmp_path: Path) -> None:
    require_vnu()
    site = make_site({
        "talks/full/index.md": talk("Everything <b>escaped</b> & more", "2019-05-20", """
            date_end = 2019-05-23
            authors = ["Ada Lovelace", "Grace Hopper"]
            location = "Barcelona, Spain"
            event = "KubeCon Europe"
            event_url = "https://example.org/a b{c}"
            abstract = "An *abstract* with <script>alert(1)</script>"
            summary = "Short."
            tags = ["a", "b c"]
            url_slides = "slides.pdf"
            url_video = "https://example.org/v"
            [address]
            street = "Av. Reina Maria Cristina"
            city = "Barcelona"
            postcode = "08004"
            country = "Spain"
            [image]
            caption = "A *caption*"
            [[links]]
            name = "Mail"
            url = "mailto:ada@example.org"
        """, body="## Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                  "<div>raw</div>\n\n```\n<x>\n```\n"),
        "talks/full/featured.png": (ROOT / "assets" / "favicon.ico").read_bytes()[22:],
        "talks/full/slides.pdf": b"%PDF",
        "talks/upcoming.md": talk("Later", "2099-01-01T10:00:00+09:00"),
    })
    result = build(site, tmp_path / "out", LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    done = vnu(tmp_path / "out")
    assert done.returncode == 0, done.stdout + done.stderr


def test_pages_fixture_site_is_valid_html(tmp_path: Path) -> None:
    """Every page kind: paginated index, tag/speaker/year pages and overviews, MathML,
    video embeds, a cancelled talk, speakers.toml, a featured image, CJK addresses."""
    require_vnu()
    out = build_pages_site(tmp_path / "site", tmp_path / "out")
    pages = list(out.rglob("*.html"))
    assert len(pages) == 27
    done = vnu(out)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_site_with_an_accent_a_logo_and_a_favicon_is_valid(make_site: MakeSite,
                                                              tmp_path: Path) -> None:
    """The appended stylesheet rules, the logo's <img> and the icons' <link>s."""
    from conftest import photo

    require_vnu()
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 30"><circle r="9"/></svg>'
    for logo, favicon in (("logo.png", "icon.svg"), ("logo.svg", "icon.png")):
        site = make_site({
            "talkpages.toml": f'accent_color = "gold"\nlogo = "{logo}"\nfavicon = "{favicon}"\n',
            "logo.png": photo(300, 100, "PNG"), "icon.png": photo(64, 64, "PNG"),
            "logo.svg": svg, "icon.svg": svg, "talks/a.md": talk()}, tmp_path / logo)
        out = tmp_path / logo / "out"
        result = build(site, out, LoadOptions(now=NOW))
        assert result.ok, [d.format() for d in result.diagnostics]
        done = vnu(out)
        assert done.returncode == 0, done.stdout + done.stderr


def test_sites_in_other_languages_and_in_two_languages_are_valid_html(
        make_site: MakeSite, tmp_path: Path) -> None:
    """test_languages' site (speakers.toml, slides, a video, a cancelled and a postponed
    talk) in each of its languages, and a site in English and Arabic with its switcher:
    built side by side and checked in one run of the checker."""
    require_vnu()
    out = tmp_path / "out"
    for language in LANGUAGES:
        site = language_site(lambda files, at=tmp_path / language: make_site(files, at),
                             language)
        result = build(site, out / language, LoadOptions(now=NOW))
        assert result.ok, [d.format() for d in result.diagnostics]
    result = build(two_language_site(make_site, tmp_path / "en-ar"), out / "en-ar",
                   LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    assert (out / "en-ar" / "ar" / "english-only" / "index.html").is_file()
    done = vnu(out)
    assert done.returncode == 0, done.stdout + done.stderr
