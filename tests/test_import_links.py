"""`talkpages import` writes only into the site's own folders: a link where it writes
(`talks/`, `speakers/`, `talkpages.toml`, `speakers.toml`, a bundle's folder) is an
error naming it, and nothing is written through it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import photo, write_files

FIXTURES = Path(__file__).parent / "fixtures" / "import"
CALENDAR = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//test//EN
BEGIN:VEVENT
UID:one@example.org
SUMMARY:One talk
DTSTART:20250612T143000Z
END:VEVENT
END:VCALENDAR
"""


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    return outside


def _hugo_site(tmp_path: Path) -> Path:
    source = tmp_path / "old"
    shutil.copytree(FIXTURES / "hugo-site", source)
    return source


@pytest.mark.parametrize("kind", ["hugo", "ics"])
def test_import_into_a_talks_folder_linked_out_of_the_site_writes_nothing_there(
        tmp_path: Path, run_cli, kind: str) -> None:
    outside = _outside(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "talks").symlink_to(outside)
    if kind == "hugo":
        source = _hugo_site(tmp_path)
    else:
        source = tmp_path / "feed.ics"
        source.write_text(CALENDAR, encoding="utf-8")
    code, _, err = run_cli("import", kind, str(source), "-s", str(site))
    assert code == 1, err
    assert "talks" in err and "link" in err and "internal error" not in err
    assert list(outside.iterdir()) == []


def test_import_into_a_bundle_folder_linked_out_of_the_site_writes_nothing_there(
        tmp_path: Path, run_cli) -> None:
    outside = _outside(tmp_path)
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old"\n',
        "content/talk/deep/index.md": "---\ntitle: Deep\ndate: 2019-01-01\n---\nBody\n",
        "content/talk/deep/notes.txt": "notes\n",
    })
    site = tmp_path / "site"
    (site / "talks").mkdir(parents=True)
    (site / "talks" / "deep").symlink_to(outside)
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 1, err
    assert "talks/deep" in err and "internal error" not in err
    assert list(outside.iterdir()) == []


def test_import_of_speaker_photos_into_a_speakers_folder_linked_out_writes_nothing_there(
        tmp_path: Path, run_cli) -> None:
    outside = _outside(tmp_path)
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/authors/admin/_index.md": "---\ntitle: Ada Example\n---\nBio.\n",
        "content/talk/a.md": "---\ntitle: A\ndate: 2019-01-01\nauthors: [admin]\n---\n",
    })
    (source / "content/authors/admin/avatar.jpg").write_bytes(photo(20, 20))
    site = tmp_path / "site"
    site.mkdir()
    (site / "speakers").symlink_to(outside)
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert "speakers" in err and "link" in err and "internal error" not in err
    assert code == 1, err
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("name", ["talkpages.toml", "speakers.toml"])
def test_import_never_writes_a_settings_file_through_a_link(
        tmp_path: Path, run_cli, name: str) -> None:
    outside = _outside(tmp_path)
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old"\ntimeZone = "Europe/Berlin"\n',
        "content/authors/admin/_index.md": "---\ntitle: Ada Example\n---\nBio.\n",
        "content/talk/a.md": "---\ntitle: A\ndate: 2019-01-01\nauthors: [admin]\n---\n",
    })
    site = tmp_path / "site"
    site.mkdir()
    (site / name).symlink_to(outside / name)  # to nothing yet: a file it would make
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert code == 1, err
    assert name in err and "internal error" not in err
    assert list(outside.iterdir()) == []
