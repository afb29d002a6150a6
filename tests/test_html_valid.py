"""The Nu HTML checker accepts every page of the example site, of fixture sites, and of
sites in German, French, Japanese, Arabic, and in English and Arabic at once: each
built into a folder of its own, all checked in one run of the checker (Java's start is
most of its time).

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


def _built(site: Path, out: Path) -> None:
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]


def _example(make_site: MakeSite, at: Path, out: Path) -> None:
    _built(ROOT, out)


def _every_field(make_site: MakeSite, at: Path, out: Path) -> None:
    """Every field of a talk, markup to escape in each, a bundle's picture and PDF."""
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
    }, at)
    _built(site, out)


def _every_page_kind(make_site: MakeSite, at: Path, out: Path) -> None:
    """Every page kind: paginated index, tag/speaker/year pages and overviews, MathML,
    video embeds, a cancelled talk, speakers.toml, a featured image, CJK addresses."""
    build_pages_site(at, out)
    assert len(list(out.rglob("*.html"))) == 28  # embed/upcoming.html among them


def _accent_logo_favicon(make_site: MakeSite, at: Path, out: Path) -> None:
    """The appended stylesheet rules, the logo's <img> and the icons' <link>s."""
    from conftest import photo

    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 30"><circle r="9"/></svg>'
    for logo, favicon in (("logo.png", "icon.svg"), ("logo.svg", "icon.png")):
        site = make_site({
            "talkpages.toml": f'accent_color = "gold"\nlogo = "{logo}"\nfavicon = "{favicon}"\n',
            "logo.png": photo(300, 100, "PNG"), "icon.png": photo(64, 64, "PNG"),
            "logo.svg": svg, "icon.svg": svg, "talks/a.md": talk()}, at / logo)
        _built(site, out / logo)


def _languages(make_site: MakeSite, at: Path, out: Path) -> None:
    """test_languages' site (speakers.toml, slides, a video, a cancelled and a postponed
    talk) in each of its languages, and a site in English and Arabic with its switcher."""
    for language in LANGUAGES:
        _built(language_site(lambda files, at=at / language: make_site(files, at), language),
               out / language)
    _built(two_language_site(make_site, at / "en-ar"), out / "en-ar")
    assert (out / "en-ar" / "ar" / "english-only" / "index.html").is_file()


SITES = {"example": _example, "every-field": _every_field, "page-kinds": _every_page_kind,
         "accent-logo-favicon": _accent_logo_favicon, "languages": _languages}


def test_every_kind_of_site_is_valid_html(make_site: MakeSite, tmp_path: Path) -> None:
    require_vnu()
    out = tmp_path / "out"
    for name, make in SITES.items():
        make(make_site, tmp_path / "sites" / name, out / name)
    done = vnu(out)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = {page.relative_to(out).parts[0] for page in out.rglob("*.html")}
    assert checked == set(SITES)
