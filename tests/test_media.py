"""The media cache (build/media.py): resized images and social cards kept between
builds in .talkpages-cache/media/, shared by build, check and serve, by the digest of
what they are made from; what a build did not plan goes; an entry from a stranger's
repository is never followed, and never more than a picture."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from talkpages.engine.media import MAX_BYTES, MediaCache
from talkpages.output import cards, images

from conftest import MakeSite, photo, talk

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many copies are made and cards drawn (in this process: no workers)."""
    monkeypatch.setenv("TALKPAGES_WORKERS", "1")
    made = {"resize": 0, "draw": 0}
    for module, name in ((images, "resize"), (cards, "draw")):
        real = getattr(module, name)

        def counting(*args: object, _real: Callable[..., bytes] = real, _name: str = name,
                     **kwargs: object) -> bytes:
            made[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counting)
    return made


def site_with_media(make_site: MakeSite) -> Path:
    return make_site({
        "talks/soon/index.md": talk("Soon", "2030-01-01T10:00:00"),
        "talks/soon/featured.jpg": photo(900, 600),
        "talkpages.toml": 'title = "Seminar"\n'})


def media_dir(site: Path) -> Path:
    return site / ".talkpages-cache" / "media"


@pytest.mark.parametrize("second", ["build", "check"])
def test_images_and_cards_are_made_once_for_build_and_check(
        make_site: MakeSite, run_cli: RunCli, counted: dict[str, int], second: str) -> None:
    site = site_with_media(make_site)
    code, _, err = run_cli("check", "-s", str(site), "--now", NOW)
    assert code == 0, err
    first = dict(counted)
    assert first["resize"] > 0 and first["draw"] > 0
    assert len(list(media_dir(site).iterdir())) == first["resize"] + first["draw"]
    (site / ".talkpages-cache" / "outputs").mkdir(exist_ok=True)
    code, _, err = run_cli(second, "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert counted == first  # nothing made again


def test_entries_the_build_did_not_plan_go(make_site: MakeSite, run_cli: RunCli) -> None:
    site = site_with_media(make_site)
    assert run_cli("build", "-q", "-s", str(site), "--now", NOW)[0] == 0
    kept = sorted(p.name for p in media_dir(site).iterdir())
    (media_dir(site) / ("ab" * 16)).write_bytes(b"old")
    (site / "talks" / "soon" / "featured.jpg").unlink()
    assert run_cli("build", "-q", "-s", str(site), "--now", NOW)[0] == 0
    left = sorted(p.name for p in media_dir(site).iterdir())
    assert ("ab" * 16) not in left
    assert 0 < len(left) < len(kept)  # the cards stay, the photo's copies go


def test_an_entry_that_is_a_link_is_never_followed(make_site: MakeSite, run_cli: RunCli,
                                                    tmp_path: Path) -> None:
    site = site_with_media(make_site)
    assert run_cli("build", "-q", "-s", str(site), "--now", NOW)[0] == 0
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"SECRET")
    names = sorted(p.name for p in media_dir(site).iterdir())
    for name in names:
        (media_dir(site) / name).unlink()
        (media_dir(site) / name).symlink_to(secret)
    os.mkfifo(media_dir(site) / ("cd" * 16))
    code, _, err = run_cli("build", "-q", "-s", str(site), "-o", str(tmp_path / "out"),
                           "--now", NOW)
    assert code == 0, err
    published = b"".join(p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert b"SECRET" not in published
    assert secret.read_bytes() == b"SECRET"
    assert all(not (media_dir(site) / name).is_symlink() for name in names)


def test_an_entry_too_large_or_empty_is_made_again(tmp_path: Path) -> None:
    cache = MediaCache(tmp_path / "media")
    key = "0123456789abcdef" * 2
    (tmp_path / "media" / key).write_bytes(b"")
    assert cache.get(key, lambda: b"made") == b"made"
    assert cache.get(key, lambda: b"again") == b"made"  # kept now
    with open(tmp_path / "media" / key, "r+b") as handle:
        handle.truncate(MAX_BYTES + 1)
    assert cache.get(key, lambda: b"fresh") == b"fresh"
    assert cache.get("../escape", lambda: b"x") == b"x"
    assert not (tmp_path / "escape").exists()


def test_a_read_only_site_makes_everything_and_keeps_nothing(tmp_path: Path) -> None:
    cache = MediaCache(None)
    assert cache.get("0123456789abcdef" * 2, lambda: b"made") == b"made"
    cache.plan("x")
    cache.prune()
