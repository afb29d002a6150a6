"""Links out of the site are not published: a link is followed while it stays inside
the site folder (as `serve` serves), and one that leads out, into a hidden folder or
to nothing is an error at its own path, for `check`, `build` and `import` alike."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.commands.importers import import_site

from conftest import NOW, MakeSite, outputs, render_site, talk

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the site, with what must never be published."""
    folder = tmp_path / "outside"
    (folder / "deck").mkdir(parents=True)
    (folder / "id_ed25519.txt").write_text(SECRET)
    (folder / "deck/index.md").write_text(talk("Linked bundle"))
    (folder / "deck/id_ed25519.txt").write_text(SECRET)
    (folder / "talk.md").write_text(talk("Linked talk", body=SECRET))
    return folder


def refused(site: Path, link: Path, run_cli) -> None:
    """`check` and `build` both fail with an error at `link`, and nothing is written."""
    result = render_site(site)
    assert not result.ok
    errors = [d for d in result.diagnostics if d.is_error]
    assert link in [d.path for d in errors], [d.format() for d in errors]
    assert SECRET not in "".join(d.format() for d in result.diagnostics)
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1 and os.path.basename(link) in err and "leads out of the site" in err
    code, _, err = run_cli("build", "-s", str(site), "--now", NOW.isoformat())
    assert code == 1 and "nothing was written" in err
    assert not (site / "public").exists()


def test_links_out_of_the_site_are_not_published_talk_file(
        make_site: MakeSite, outside: Path, run_cli) -> None:
    site = make_site({"talks/ok.md": talk("OK")})
    (site / "talks/linked.md").symlink_to(outside / "talk.md")
    refused(site, site / "talks/linked.md", run_cli)


def test_links_out_of_the_site_are_not_published_bundle_folder(
        make_site: MakeSite, outside: Path, run_cli) -> None:
    site = make_site({"talks/ok.md": talk("OK")})
    (site / "talks/deck").symlink_to(outside / "deck")
    refused(site, site / "talks/deck", run_cli)


@pytest.mark.parametrize("where", ["leak.txt", "notes/deeper/leak.txt"])
def test_links_out_of_the_site_are_not_published_bundle_file_at_any_depth(
        make_site: MakeSite, outside: Path, run_cli, where: str) -> None:
    site = make_site({"talks/b/index.md": talk("B"), "talks/b/notes/deeper/ok.txt": "ok"})
    link = site / "talks/b" / where
    link.symlink_to(outside / "id_ed25519.txt")
    refused(site, link, run_cli)


def test_links_out_of_the_site_are_not_published_folder_inside_a_bundle(
        make_site: MakeSite, outside: Path, run_cli) -> None:
    site = make_site({"talks/b/index.md": talk("B")})
    (site / "talks/b/keys").symlink_to(outside)
    refused(site, site / "talks/b/keys", run_cli)


@pytest.mark.parametrize("name", ["talkpages.toml", "speakers.toml", "layouts",
                                  "layouts/talk.html", "layouts/.hidden.html", "assets",
                                  "assets/style.css", "assets/.well-known/key.txt", "talks"])
def test_links_out_of_the_site_are_not_published_site_files(
        make_site: MakeSite, outside: Path, run_cli, name: str) -> None:
    site = make_site({"talks/ok.md": talk("OK")})
    link = site / name
    if link.exists():  # talks/ itself: moved out and linked back
        link.rename(outside / "talks")
        link.symlink_to(outside / "talks")
    else:
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(outside if "." not in name else outside / "id_ed25519.txt")
    refused(site, link, run_cli)


def test_links_out_of_the_site_are_not_published_broken_link_is_an_error(
        make_site: MakeSite) -> None:
    site = make_site({"talks/b/index.md": talk("B")})
    (site / "talks/b/gone.pdf").symlink_to(site / "talks/b/nothing.pdf")
    result = render_site(site)
    assert not result.ok
    assert [d.path.name for d in result.diagnostics if d.is_error] == ["gone.pdf"]
    assert "broken" in result.diagnostics[0].message


def test_links_out_of_the_site_are_not_published_hidden_folder_of_the_site(
        make_site: MakeSite) -> None:
    site = make_site({"talks/b/index.md": talk("B"), ".git/config": "token = s3cret\n"})
    (site / "talks/b/config.txt").symlink_to(Path("../../.git/config"))
    result = render_site(site)
    assert not result.ok
    assert "hidden" in result.diagnostics[0].message
    assert result.diagnostics[0].path == site / "talks/b/config.txt"


def test_links_out_of_the_site_are_not_published_loop_inside_a_bundle(
        make_site: MakeSite) -> None:
    site = make_site({"talks/b/index.md": talk("B")})
    (site / "talks/b/up").symlink_to(site / "talks")
    result = render_site(site)
    assert not result.ok
    assert "loop" in result.diagnostics[0].message
    assert result.diagnostics[0].path == site / "talks/b/up"


def test_links_out_of_the_site_are_not_published_links_inside_are_followed(
        make_site: MakeSite) -> None:
    site = make_site({"shared/deck/index.md": talk("Shared bundle"),
                      "shared/deck/slides.pdf": b"%PDF deck",
                      "shared/flat.md": talk("Shared flat"),
                      "shared/figures/plot.png": b"png",
                      "talks/b/index.md": talk("B")})
    (site / "talks/deck").symlink_to(Path("../shared/deck"))
    (site / "talks/flat.md").symlink_to(site / "shared/flat.md")
    (site / "talks/b/figures").symlink_to(site / "shared/figures")
    (site / "talks/b/slides.pdf").symlink_to(Path("../../shared/deck/slides.pdf"))
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert {t.slug for t in result.site.talks} == {"b", "deck", "flat"}
    paths = {o.path for o in result.outputs}
    assert {"deck/slides.pdf", "b/figures/plot.png", "b/slides.pdf"} <= paths
    assert "deck/index.html" in outputs(result)


def test_links_out_of_the_site_are_not_published_by_import(
        tmp_path: Path, outside: Path) -> None:
    source = tmp_path / "hugo"
    (source / "content/talk/own").mkdir(parents=True)
    (source / "content/talk/own/index.md").write_text(talk("Own"))
    (source / "content/talk/own/slides.pdf").write_bytes(b"%PDF")
    (source / "content/talk/own/key.txt").symlink_to(outside / "id_ed25519.txt")
    (source / "content/talk/linked").symlink_to(outside / "deck")
    (source / "content/talk/flat.md").symlink_to(outside / "talk.md")
    (source / "content/talk/inside.md").symlink_to(Path("../shared.md"))
    (source / "content/shared.md").write_text(talk("Inside"))
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    errors = {d.path.name: d.message for d in report.problems if d.is_error}
    assert set(errors) == {"key.txt", "linked", "flat.md"}, errors
    assert all("leads out of the site" in message for message in errors.values())
    assert sorted(p.name for p in report.written) == ["inside.md"]
    written = [p for p in site.rglob("*") if p.is_file()]
    assert all(SECRET not in p.read_text(errors="replace") for p in written)


def test_links_out_of_the_site_are_not_published_by_academicpages_import(
        tmp_path: Path, outside: Path) -> None:
    source = tmp_path / "jekyll"
    (source / "_talks").mkdir(parents=True)
    (source / "_talks/2019-01-01-linked.md").symlink_to(outside / "talk.md")
    report = import_site("academicpages", source, tmp_path / "site")
    assert [d.path.name for d in report.problems if d.is_error] == ["2019-01-01-linked.md"]
    assert report.written == []
