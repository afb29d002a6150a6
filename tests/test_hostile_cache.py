"""A cache folder or an output folder that came with the site (a cloned repository, a
pull request, a `git pull` into an ignored folder) can never hurt the person who builds
it: nothing in them is followed, and nothing in them is published but what a build from
nothing writes. The only thing read back from the cache is the media cache's pictures
(test_media.py); compiled templates live in the user's cache, signed."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from talkpages.engine import bytecode
from talkpages.engine.cachedir import CACHE_DIR

from conftest import MakeSite, talk
from conftest import cli_build as build
from conftest import fresh_build_files as clean
from conftest import output_files as files

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]
SECRET = b"SECRET: a private key that must never be published or changed\n"


def make(make_site: MakeSite) -> Path:
    return make_site({
        "talks/one.md": talk("One", extra='tags = ["a"]\nauthors = ["Ann"]'),
        "talks/two.md": talk("Two", "2027-02-03T10:00:00", 'tags = ["a", "b"]'),
        "talks/three/index.md": talk("Three", "2018-01-01T09:00:00"),
        "talks/three/slides.pdf": b"%PDF-1.4 slides",
    })


def victim(root: Path) -> Path:
    """A folder beside the site with files a link in the cache could reach."""
    folder = root / "victim"
    (folder / "sub").mkdir(parents=True)
    (folder / "secret.txt").write_bytes(SECRET)
    (folder / "sub" / "other.txt").write_bytes(SECRET)
    return folder


def snapshot(folder: Path) -> dict[str, object]:
    found: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        status = path.lstat()
        name = path.relative_to(folder).as_posix()
        found[name] = (status.st_mode, path.read_bytes() if path.is_file() else None,
                       status.st_mtime_ns)
    return found








# What a cloned repository can hold: every name the cache uses, names an older
# talkpages used there, and the output's marker and its new folder beside it.
FOLDERS = [CACHE_DIR, f"{CACHE_DIR}/media", f"{CACHE_DIR}/outputs", f"{CACHE_DIR}/trash",
           ".public.talkpages-new-1234", ".public.talkpages-previous"]
FILES = [f"{CACHE_DIR}/lock", f"{CACHE_DIR}/state", f"{CACHE_DIR}/fragments-ab.pack",
         f"{CACHE_DIR}/CACHEDIR.TAG", f"{CACHE_DIR}/.gitignore",
         f"{CACHE_DIR}/media/{'ab' * 16}", "public/.talkpages-output"]
CASES = [(name, "folder") for name in FOLDERS] + [(name, "file") for name in FILES] \
    + [(name, "dangling") for name in FILES]


def plant(site: Path, name: str, kind: str, target: Path) -> Path:
    """A link at `name` to the victim."""
    path = site / name
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    aim = {"folder": target, "file": target / "secret.txt", "dangling": target / "made.txt"}
    path.symlink_to(aim[kind], target_is_directory=kind == "folder")
    return path


@pytest.mark.parametrize(("name", "kind"), CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_links_inside_the_cache_folder_are_never_followed(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, name: str, kind: str) -> None:
    """A fresh clone whose cache (or output) holds a link, then the same link put in the
    place of a real entry after a good build: every build leaves the linked folder as it
    was, publishes nothing of it, and writes what a build from nothing writes."""
    site = make(make_site)
    target = victim(tmp_path)
    before = snapshot(target)
    plant(site, name, kind, target)
    marker = name.startswith("public/")
    for step in range(3):
        code, err = build(run_cli, site)
        assert code == 0 or (marker and code == 1 and "did not create" in err), err
        assert snapshot(target) == before
        if code == 0:
            assert files(site / "public") == clean(run_cli, site, tmp_path)
            assert not any(SECRET in data for data in files(site / "public").values())
        if step == 0:  # the link in the place of what a good build made
            if code == 1:
                shutil.rmtree(site / "public")
                assert build(run_cli, site)[0] == 0
            plant(site, name, kind, target)
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# edit {step}'))
    assert snapshot(target) == before


def links_in(folder: Path) -> list[str]:
    return [p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_symlink() or not (p.is_file() or p.is_dir())]


PLANTS = [(name, kind) for name in ("keys", "three/index.html", "years/2018", "three/slides.pdf")
          for kind in ("folder", "file", "replaced", "pipe")]


@pytest.mark.parametrize(("name", "kind"), PLANTS, ids=["-".join(plant) for plant in PLANTS])
def test_an_entry_planted_in_the_output_is_never_published(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, name: str, kind: str) -> None:
    """What a `git pull` can bring into an ignored folder after a good build (a link, a
    pipe, a file in the place of one the build wrote): the next build publishes what a
    build from nothing does, and the entry is gone with the folder it was in."""
    site = make(make_site)
    target = victim(tmp_path)
    before = snapshot(target)
    assert build(run_cli, site)[0] == 0
    path = site / "public" / name
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        path.symlink_to(target, target_is_directory=True)
    elif kind == "file":
        path.symlink_to(target / "secret.txt")
    elif kind == "pipe":
        os.mkfifo(path)
    else:
        path.write_bytes(SECRET)
    for step in range(2):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# edit {step}'))
        code, err = build(run_cli, site)
        assert code == 0, err
        assert files(site / "public") == clean(run_cli, site, tmp_path)
        assert not links_in(site / "public")
        assert not any(SECRET in data for data in files(site / "public").values())
    assert snapshot(target) == before


def test_a_huge_cache_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Gigabytes of zeros are a few bytes in a repository: never read whole."""
    from talkpages.engine.owned import read_file

    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(3 << 30)  # sparse: no room taken
    started = time.perf_counter()
    with pytest.raises(OSError):
        read_file(big)
    with pytest.raises(OSError):
        read_file(big, limit=4 << 30, start=bytecode.MAGIC)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize("name", ["media", "lock", "state"])
def test_what_an_older_talkpages_or_a_stranger_left_in_the_cache_does_not_stop_a_build(
        make_site: MakeSite, run_cli: RunCli, name: str) -> None:
    """A file where the media folder goes, a folder where the lock goes, the state of an
    older talkpages: each removed where it stands, and the build goes on."""
    site = make(make_site)
    (site / CACHE_DIR).mkdir()
    if name == "media":
        (site / CACHE_DIR / name).write_bytes(b"not a folder")
    else:
        (site / CACHE_DIR / name / "inner").mkdir(parents=True)
    for _ in range(2):
        code, _, err = run_cli("build", "-s", str(site), "--now", NOW)
        assert code == 0 and "warning" not in err, err
    assert sorted(p.name for p in (site / CACHE_DIR).iterdir()) == \
        [".gitignore", "CACHEDIR.TAG", "lock", "media"]


def test_an_output_folder_that_is_a_link_is_refused_plainly(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    site = make(make_site)
    (site / "public").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    for _ in range(2):
        code, err = build(run_cli, site)
        assert code == 1 and "symbolic link" in err, err
    assert not list(site.glob(".public.talkpages-*"))
    assert not (tmp_path / "nowhere").exists()


@pytest.fixture
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bytecode._key.cache_clear()
    yield tmp_path / "cache" / "talkpages"
    bytecode._key.cache_clear()


def test_the_key_folder_is_private(key_home: Path) -> None:
    key_home.mkdir(parents=True, mode=0o755)
    os.chmod(key_home, 0o755)
    key = bytecode._key()
    assert len(key) == 32
    assert key_home.stat().st_mode & 0o777 == 0o700
    assert (key_home / "cache-key").stat().st_mode & 0o777 == 0o600
    bytecode._key.cache_clear()
    assert bytecode._key() == key  # kept, and read again


@pytest.mark.parametrize("how", ["readable by others", "writable by others", "a link"])
def test_a_key_file_others_can_reach_is_refused_and_replaced(
        key_home: Path, tmp_path: Path, how: str) -> None:
    key_home.mkdir(parents=True, mode=0o700)
    known = b"k" * 32
    path = key_home / "cache-key"
    if how == "a link":
        (tmp_path / "elsewhere").write_bytes(known)
        os.chmod(tmp_path / "elsewhere", 0o600)
        path.symlink_to(tmp_path / "elsewhere")
    else:
        path.write_bytes(known)
        os.chmod(path, 0o644 if how == "readable by others" else 0o602)
    key = bytecode._key()
    assert key != known and len(key) == 32
    assert not path.is_symlink() and path.stat().st_mode & 0o777 == 0o600
    if how == "a link":
        assert (tmp_path / "elsewhere").read_bytes() == known


def test_a_key_folder_that_is_a_link_of_the_users_is_followed(
        key_home: Path, tmp_path: Path) -> None:
    """~/.cache/talkpages linked to another disk: not an internal error."""
    elsewhere = tmp_path / "disk" / "talkpages"
    elsewhere.mkdir(parents=True, mode=0o755)
    key_home.parent.mkdir(parents=True, exist_ok=True)
    key_home.symlink_to(elsewhere, target_is_directory=True)
    key = bytecode._key()
    assert (elsewhere / "cache-key").read_bytes() == key
    assert elsewhere.stat().st_mode & 0o777 == 0o700


def test_compiled_code_that_does_not_verify_is_never_run(
        key_home: Path, tmp_path: Path) -> None:
    """Compiled templates are code: one changed on disk, or written by another key, is
    compiled again instead of loaded."""
    import jinja2
    import jinja2.bccache

    folder = tmp_path / "layouts"
    folder.mkdir()
    (folder / "page.html").write_text("{{ 6 * 7 }}")

    def environment() -> jinja2.Environment:
        return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)),
                                  bytecode_cache=bytecode.compiled_templates("Environment"))

    assert environment().get_template("page.html").render() == "42"
    [kept] = [p for p in key_home.rglob("*") if p.is_file() and p.name != "cache-key"]
    blob = kept.read_bytes()
    start = len(bytecode.MAGIC) + 32
    checksum = bytecode.SignedBytecode(tmp_path, "").get_source_checksum("{{ 6 * 7 }}")
    bucket = jinja2.bccache.Bucket(environment(), "page", checksum)
    bucket.bytecode_from_string(blob[start:])
    assert bucket.code is not None  # Jinja's own header and checksum: kept as they are
    bucket.code = jinja2.Environment().compile("{{ 'EVIL' }}", "page.html")
    kept.write_bytes(blob[:start] + bucket.bytecode_to_string())  # the MAC as it was
    assert environment().get_template("page.html").render() == "42"
