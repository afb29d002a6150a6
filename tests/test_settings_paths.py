"""Paths in the settings (`logo`, `favicon`, a speaker's `photo`) that no file can have
are errors at their setting, in build as in check."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import MakeSite, talk


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
    `photo`: the same error in build as in check, never an internal error."""
    site = make_site({**files, "talks/t.md": talk("T", extra='authors = ["ada"]')})
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
