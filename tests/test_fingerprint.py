"""The fingerprint that answers "nothing changed": it sees every file a build reads, and
it ends, whatever links the site holds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.build.fingerprint import read_inputs

from conftest import MakeSite, talk


def test_a_link_loop_in_the_site_ends_the_walk(make_site: MakeSite) -> None:
    site = make_site({"talks/one.md": talk(), "assets/x.css": "a {}"})
    (site / "talks" / "loop").symlink_to("..", target_is_directory=True)
    (site / "assets" / "self").symlink_to(".", target_is_directory=True)
    inputs = read_inputs(site, {})
    assert sum(1 for path in inputs.talks if path.endswith("one.md")) == 1
    assert inputs.fingerprint == read_inputs(site, {}).fingerprint


def test_an_edit_in_a_hidden_folder_of_the_assets_is_a_change(make_site: MakeSite) -> None:
    """The theme publishes assets/.well-known/…: an edit there is a real build."""
    site = make_site({"talks/one.md": talk(), "assets/.well-known/security.txt": "a"})
    before = read_inputs(site, {}).fingerprint
    path = site / "assets/.well-known/security.txt"
    path.write_text("Contact: mailto:b@example.org\n")
    os.utime(path, ns=(1, 1))
    assert read_inputs(site, {}).fingerprint != before


def test_a_file_seen_through_a_link_inside_the_site_is_a_change(
        make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site({"talks/one.md": talk(), "shared/two.md": talk("Two")})
    (site / "talks" / "two.md").symlink_to(site / "shared" / "two.md")
    before = read_inputs(site, {}).fingerprint
    (site / "shared" / "two.md").write_text(talk("Two, edited"))
    os.utime(site / "shared" / "two.md", ns=(2, 2))
    assert read_inputs(site, {}).fingerprint != before


def test_a_changed_speaker_photo_is_a_change(make_site: MakeSite) -> None:
    """A photo sits anywhere in the site: speakers.toml names it, the fingerprint sees it."""
    site = make_site({"talks/one.md": talk(), "people/ada.jpg": "one",
                      "speakers.toml": '["Ada"]\nphoto = "people/ada.jpg"\n'})
    before = read_inputs(site, {}).fingerprint
    (site / "people/ada.jpg").write_text("two")
    os.utime(site / "people/ada.jpg", ns=(3, 3))
    assert read_inputs(site, {}).fingerprint != before
    (site / "speakers.toml").write_text('["Ada"]\nphoto = [1]\n[Bob]\n')  # not a path
    assert read_inputs(site, {}).fingerprint == read_inputs(site, {}).fingerprint


@pytest.mark.parametrize("key", ["logo", "favicon"])
def test_a_changed_logo_or_favicon_is_a_change(make_site: MakeSite, key: str) -> None:
    site = make_site({"talks/one.md": talk(), "brand/mark.svg": "one",
                      "talkpages.toml": f'{key} = "brand/mark.svg"\n'})
    before = read_inputs(site, {}).fingerprint
    (site / "brand/mark.svg").write_text("two")
    os.utime(site / "brand/mark.svg", ns=(3, 3))
    assert read_inputs(site, {}).fingerprint != before


@pytest.mark.parametrize("files", [
    {"talkpages.toml": 'logo = "a\\u0000b.png"\n'},
    {"talkpages.toml": 'favicon = "a\\u0000b.png"\n'},
    {"speakers.toml": '[ada]\nphoto = "a\\u0000b.jpg"\n'},
    {"talkpages.toml": f'logo = "{"a" * 300}.png"\n'},
    {"speakers.toml": f'[ada]\nphoto = "{"a" * 300}.jpg"\n'},
    {"talkpages.toml": 'logo = "/etc/hostname.png"\n'},
], ids=["logo-nul", "favicon-nul", "photo-nul", "logo-long", "photo-long", "logo-absolute"])
def test_a_settings_path_no_file_can_have_is_an_error_of_build_as_of_check(
        make_site: MakeSite, run_cli, tmp_path: Path,  # type: ignore[no-untyped-def]
        files: dict[str, str]) -> None:
    """A NUL, or a name longer than the system takes, in `logo`, `favicon` or a speaker's
    `photo`: the build stats these files before it reads the settings (its fingerprint)."""
    site = make_site({**files, "talks/t.md": talk("T", extra='authors = ["ada"]')})
    read_inputs(site, {})  # stamps what it can, and ends
    now = "2026-11-21T00:00:00+00:00"
    built, _, built_err = run_cli("build", "-q", "-s", str(site), "-o", str(tmp_path / "out"),
                                  "--now", now)
    checked, _, check_err = run_cli("check", "-s", str(site), "--now", now)
    assert (built, checked) == (1, 1), built_err + check_err
    for text in (built_err, check_err):
        assert "internal error" not in text and "Traceback" not in text, text
    name = next(iter(files))
    assert f"{name}:" in built_err and f"{name}:" in check_err
    errors = [line for line in built_err.splitlines() if ": error: " in line]
    assert errors and all(line in check_err for line in errors), (built_err, check_err)
