"""What a build publishes where, checked when the site loads: `check` reports what
`build` refuses, at its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.commands.importers import import_site

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


def test_active_files_in_bundles_are_named_when_imported(tmp_path: Path) -> None:
    source = tmp_path / "hugo/content/talk/rmd"
    source.mkdir(parents=True)
    (source / "index.md").write_text(talk("R"))
    (source / "index_files/htmlwidgets").mkdir(parents=True)
    (source / "index_files/htmlwidgets/widget.js").write_text("alert(1)")
    (source / "slides.pdf").write_bytes(b"%PDF")
    (tmp_path / "hugo/config.toml").write_text('timeZone = "UTC"\n')  # no remark on zones
    report = import_site("hugo", tmp_path / "hugo", tmp_path / "site")
    assert report.ok and report.copied == 2
    assert [(d.path.name, d.severity) for d in report.problems] == [("widget.js", "warning")]
    assert "copied, but the site will not publish it" in report.problems[0].message


def test_distinct_tags_and_speakers_merged_no_more(make_site: MakeSite) -> None:
    site = make_site({
        "talks/a.md": talk("A", "2019-01-01", 'tags = ["C++", "Kubernetes"]\n'
                           'authors = ["Ann + Bob"]'),
        "talks/b.md": talk("B", "2019-02-01", 'tags = ["C#", "kubernetes", ".NET"]\n'
                           'authors = ["Ann & Bob"]'),
        "talks/c.md": talk("C", "2019-03-01", 'tags = ["c", "云原生", "ASP.NET", "F♯"]')})
    result = render_site(site)
    assert result.ok and result.site is not None
    from talkpages.content.taxonomy import by_speaker, by_tag

    tags = {g.slug: (g.name, [t.slug for t in g.talks]) for g in by_tag(result.site)}
    assert tags == {"c-plus-plus": ("C++", ["a"]), "c-sharp": ("C#", ["b"]), "c": ("c", ["c"]),
                    "kubernetes": ("Kubernetes", ["a", "b"]), "dotnet": (".NET", ["b"]),
                    "云原生": ("云原生", ["c"]), "asp-net": ("ASP.NET", ["c"]),
                    "f-sharp": ("F♯", ["c"])}
    assert {g.slug for g in by_speaker(result.site)} == {"ann-plus-bob", "ann-bob"}
    paths = {o.path for o in result.outputs}
    assert {"tags/c-plus-plus/index.html", "tags/c-sharp/calendar.ics", "tags/c/index.html",
            "tags/云原生/index.html"} <= paths
    page = next(o.data for o in result.outputs if o.path == "tags/c/index.html")
    assert b"C++" not in page and b"C#" not in page
    assert [d for d in result.diagnostics if d.severity == "warning"
            and "shares the page" in d.message] == []


def test_distinct_tags_and_speakers_merged_keep_the_slugs_of_names_without_symbols() -> None:
    from talkpages.content.model import slugify
    from talkpages.content.taxonomy import speaker_slug, tag_slug

    for name in ["Kubernetes", "SIG Scheduling", "Node.js", "Déjà vu", "华为", "#hacktoberfest",
                 "v1.2", "Klaus Ma", "R&D", "José García"]:
        assert tag_slug(name) == speaker_slug(name) == slugify(name), name


def test_distinct_tags_and_speakers_merged_names_sharing_a_slug_are_reported(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/a.md": talk("A", "2019-01-01", 'tags = ["R&D"]\nauthors = ["José García"]'),
        "talks/b.md": talk("B", "2019-02-01", 'authors = ["Jose Garcia"]\ntags = ["R D", "r&d"]'),
    })
    result = render_site(site)
    assert result.ok
    warnings = sorted((d.path.name, d.line, d.message) for d in result.diagnostics)
    assert warnings == [
        ("b.md", 4, "speaker 'Jose Garcia' shares the page speakers/jose-garcia/ with "
         f"'José García' ({site / 'talks/a.md'}:5): they are listed as one"),
        ("b.md", 5, "tag 'R D' shares the page tags/r-d/ with 'R&D' "
         f"({site / 'talks/a.md'}:4): they are listed as one")]
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 0 and "b.md:5:1: warning: tag 'R D' shares the page tags/r-d/" in err


def check_and_build(site, run_cli) -> tuple[str, str]:
    """`check` and `build` of `site`: both must fail, build writing nothing."""
    code, _, checked = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1, checked
    code, _, built = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1 and "nothing was written" in built, built
    assert "internal error" not in checked + built
    assert not (site / "public").exists()
    return checked, built


@pytest.mark.parametrize(("key", "value", "folder"), [
    ("tags", '["' + "云原生" * 30 + '"]', "tags"),
    ("authors", '["' + "王" * 90 + '"]', "speakers")], ids=["tag", "speaker"])
def test_check_says_ok_to_what_build_refuses_long_tag_or_speaker(
        make_site: MakeSite, run_cli, key: str, value: str, folder: str) -> None:
    site = make_site({"talks/a.md": talk("A", extra=f"{key} = {value}"),
                      "talks/b.md": talk("B", extra=f"{key} = {value}")})
    checked, built = check_and_build(site, run_cli)
    for text in (checked, built):
        assert "talks/a.md:4:1: error:" in text and f"{folder}/<slug>/" in text
        assert "at most 255" in text and "talks/b.md" not in text


def test_check_says_ok_to_what_build_refuses_long_slug(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", extra=f'slug = "{"s" * 252}"'),
                      f"talks/{'x' * 252}/index.md": talk("B")})
    checked, built = check_and_build(site, run_cli)
    for text in (checked, built):
        assert "talks/a.md:4:1: error: the slug is too long" in text
        assert f"{'x' * 252}/index.md:1:1: error: the slug is too long" in text


@pytest.mark.parametrize(("name", "message"), [
    ("INDEX.HTML", "would take the place of the talk's page, b/index.html"),
    ("B.ics", "would take the place of the talk's calendar file, b/b.ics"),
    ("index.html/figure.png", "needs a folder index.html/ where the talk's page is a file"),
    ("slides.pdf", "and `SLIDES.pdf` differ only in case"),
    ("back\\slash.pdf", "has a backslash in its name")],
    ids=["page", "calendar-file", "folder-in-the-place-of-a-file", "case", "backslash"])
def test_check_says_ok_to_what_build_refuses_bundle_file_in_the_place_of_another(
        make_site: MakeSite, run_cli, name: str, message: str) -> None:
    site = make_site({"talks/b/index.md": talk("B"), "talks/b/SLIDES.pdf": b"%PDF",
                      f"talks/b/{name}": b"x"})
    checked, built = check_and_build(site, run_cli)
    for text in (checked, built):
        assert f"{name}: error: `{name}` {message}" in text


def test_check_says_ok_to_what_build_refuses_slug_of_a_root_file(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({"assets/favicon.png": b"png",
                      "talks/a.md": talk("A", extra='slug = "favicon.png"')})
    checked, built = check_and_build(site, run_cli)
    assert "talks/a.md:4:1: error: the slug 'favicon.png' is used by the site itself" in checked


def test_a_talk_cannot_take_the_address_of_the_touch_icon(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", extra='slug = "apple-touch-icon.png"')})
    checked, _ = check_and_build(site, run_cli)
    assert "the slug 'apple-touch-icon.png' is used by the site itself" in checked


def test_check_says_ok_to_what_build_refuses_any_output_the_writer_refuses(
        make_site: MakeSite, run_cli) -> None:
    """What no check of the site's own names covers: the writer's rules, run by check."""
    site = make_site({f"assets/{'a' * 250}.css": "p {}", "talks/a.md": talk("A")})
    checked, _ = check_and_build(site, run_cli)
    assert "a part of it is longer than 255 bytes" in checked
