"""What a build publishes where, checked when the site loads: `check` reports what
`build` refuses, at its file and line."""

from __future__ import annotations

import pytest

from conftest import NOW, MakeSite, render_site, talk

ACTIVE = ["demo.html", "old.HTM", "page.xhtml", "diagram.svg", "diagram.svgz", "feed.xml",
          "style.xsl", "app.js", "module.mjs", "theme.css", "notes/deep/run.html",
          "Makefile", "archive.unknownext"]
PASSIVE = ["featured.jpg", "slides.pdf", "code.zip", "data.csv", "talk.mp4", "captions.vtt",
           "notebook.ipynb", "deck.PPTX", "figures/plot.png", "data.tar.gz", "notes.md"]


@pytest.mark.parametrize("name", ACTIVE)
def test_active_files_in_bundles_are_refused_without_unsafe_html(
        make_site: MakeSite, run_cli, name: str) -> None:
    site = make_site({"talks/b/index.md": talk("B"), f"talks/b/{name}": "<script>x</script>",
                      "talks/b/slides.pdf": b"%PDF"})
    result = render_site(site)
    assert not result.ok
    assert [(d.path, d.severity) for d in result.diagnostics] == [
        (site / "talks/b" / name, "error")]
    assert "unsafe_html = true" in (result.diagnostics[0].hint or "")
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1 and f"{name}: error: not published" in err
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1 and not (site / "public").exists()


def test_active_files_in_bundles_are_published_when_every_author_is_trusted(
        make_site: MakeSite) -> None:
    files = {f"talks/b/{name}": "<svg onload=alert(1)>" for name in ACTIVE}
    site = make_site({"talkpages.toml": "unsafe_html = true\n", "talks/b/index.md": talk("B"),
                      **files})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert {f"b/{name}" for name in ACTIVE} <= {o.path for o in result.outputs}


def test_active_files_in_bundles_passive_types_are_published(make_site: MakeSite) -> None:
    site = make_site({"talks/b/index.md": talk("B"),
                      **{f"talks/b/{name}": b"data" for name in PASSIVE}})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert {f"b/{name}" for name in PASSIVE} <= {o.path for o in result.outputs}


def test_active_files_in_bundles_of_drafts_are_left_to_the_build_that_publishes_them(
        make_site: MakeSite) -> None:
    site = make_site({"talks/b/index.md": talk("B", extra="draft = true"),
                      "talks/b/demo.html": "<script>x</script>"})
    assert render_site(site).ok
    assert not render_site(site, drafts=True).ok
