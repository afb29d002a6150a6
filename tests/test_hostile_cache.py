"""A cache folder that came with the site (a cloned repository, a pull request) can never
hurt the person who builds it: nothing in it is followed, nothing unverified is used."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from talkpages.build import signed
from talkpages.build.cachedir import CACHE_DIR

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








def twin_name(site: Path) -> str:
    out = str(Path(os.path.abspath(site / "public")))
    return hashlib.blake2b(out.encode(), digest_size=8).hexdigest()


# What a cloned repository can hold: every name the cache uses, and the output's markers.
FOLDERS = [CACHE_DIR, f"{CACHE_DIR}/trash", f"{CACHE_DIR}/outputs",
           f"{CACHE_DIR}/outputs/TWIN", f"{CACHE_DIR}/trash/1-abcd", ".public.talkpages-previous",
           ".public.talkpages-new-1234"]
FILES = [f"{CACHE_DIR}/lock", f"{CACHE_DIR}/state",
         f"{CACHE_DIR}/CACHEDIR.TAG", f"{CACHE_DIR}/.gitignore",
         f"{CACHE_DIR}/outputs/TWIN.record", f"{CACHE_DIR}/outputs/TWIN/.talkpages-output",
         f"{CACHE_DIR}/outputs/TWIN/.talkpages-dirty", f"{CACHE_DIR}/outputs/TWIN/index.html",
         "public/.talkpages-output", "public/.talkpages-dirty"]
CASES = [(name, "folder") for name in FOLDERS] + [(name, "file") for name in FILES] \
    + [(name, "dangling") for name in FILES]


def plant(site: Path, name: str, kind: str, target: Path) -> Path:
    """A link at `name` (TWIN: the twin of the site's output) to the victim."""
    path = site / name.replace("TWIN", twin_name(site))
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


def corrupt(path: Path) -> None:
    """Every byte changed in place: the same size, the same inode."""
    data = path.read_bytes()
    if not data:
        return
    inode = path.stat().st_ino
    with open(path, "r+b") as handle:
        handle.write(bytes(byte ^ 0x55 for byte in data))
    assert (path.stat().st_ino, path.stat().st_size) == (inode, len(data))


def cache_files(site: Path) -> list[Path]:
    """The files of the cache but the media cache, whose entries are pictures kept by
    the digest of their inputs: one changed in place shows that changed picture on the
    same site (test_media.py)."""
    return [p for p in (site / CACHE_DIR).rglob("*") if p.is_file() and not p.is_symlink()
            and p.parent.name != "media"]


@pytest.mark.parametrize("then", ["edit", "nothing", "output deleted", "new talk"])
def test_every_cache_file_corrupted_in_place_gives_a_clean_build(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, then: str) -> None:
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    (site / "talks/two.md").write_text(talk("Two", "2027-02-03T10:00:00", 'tags = ["a"]'))
    assert build(run_cli, site)[0] == 0  # a build that changed one talk
    time.sleep(0.02)  # a later modification time than the build's
    for path in cache_files(site):
        corrupt(path)
    if then == "edit":
        (site / "talks/one.md").write_text(talk("One", extra='tags = ["a", "c"]'))
    elif then == "output deleted":
        shutil.rmtree(site / "public")
    elif then == "new talk":
        (site / "talks/four.md").write_text(talk("Four", "2020-01-01T10:00:00"))
    code, err = build(run_cli, site)
    assert code == 0, err
    assert files(site / "public") == clean(run_cli, site, tmp_path)
    assert build(run_cli, site)[0] == 0  # and the cache it left works
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_only_the_pack_corrupted_gives_a_clean_build(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    """The signed state points into a pack whose blobs were all changed: each blob is
    checked before it is used."""
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    for path in (site / CACHE_DIR).glob("fragments-*.pack"):
        corrupt(path)
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a", "c"]'))
    assert build(run_cli, site)[0] == 0
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_a_pickle_written_into_the_pack_never_runs(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    state = signed.read(site / CACHE_DIR / "state")
    assert isinstance(state, dict)
    pack = site / CACHE_DIR / state["pack"]
    ran = tmp_path / "ran"
    payload = f"cos\nsystem\n(S'touch {ran}'\ntR.".encode()
    with open(pack, "r+b") as handle:
        for _, _, (offset, length) in state["talks"].values():
            assert length > len(payload)
            handle.seek(offset)
            handle.write(payload)
    (site / "talks/two.md").write_text(talk("Two", "2027-02-03T10:00:00", 'tags = ["b"]'))
    assert build(run_cli, site)[0] == 0
    assert not ran.exists()
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_a_blob_of_the_pack_that_does_not_verify_is_refused() -> None:
    sealed = signed.seal(b"some bytes of a fragment")
    assert signed.unseal(sealed) == b"some bytes of a fragment"
    for position in (0, 31, 32, len(sealed) - 1):
        damaged = bytearray(sealed)
        damaged[position] ^= 1
        with pytest.raises(signed.Damaged):
            signed.unseal(bytes(damaged))
    with pytest.raises(signed.Damaged):
        signed.unseal(b"short")


@pytest.fixture
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("TALKPAGES_CACHE_KEY", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    signed._key.cache_clear()
    yield tmp_path / "cache" / "talkpages"
    signed._key.cache_clear()


def test_the_key_folder_is_private(key_home: Path) -> None:
    key_home.mkdir(parents=True, mode=0o755)
    os.chmod(key_home, 0o755)
    key = signed._key()
    assert len(key) == 32
    assert key_home.stat().st_mode & 0o777 == 0o700
    assert (key_home / "cache-key").stat().st_mode & 0o777 == 0o600
    signed._key.cache_clear()
    assert signed._key() == key  # kept, and read again


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
    key = signed._key()
    assert key != known and len(key) == 32
    assert not path.is_symlink() and path.stat().st_mode & 0o777 == 0o600
    if how == "a link":
        assert (tmp_path / "elsewhere").read_bytes() == known


def links_in(folder: Path) -> list[str]:
    return [p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_symlink() or not (p.is_file() or p.is_dir())]


PLANTS = [(where, name, kind) for where in ("public", "twin")
          for name in ("keys", "three/index.html", "years/2018", "three/slides.pdf")
          for kind in ("folder", "file", "replaced", "pipe")]


@pytest.mark.parametrize(("where", "name", "kind"), PLANTS,
                         ids=["-".join(plant) for plant in PLANTS])
def test_an_entry_planted_in_the_output_or_its_twin_is_never_published(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path,
        where: str, name: str, kind: str) -> None:
    """What a `git pull` can bring into an ignored folder after a good build (a link, a
    file in the place of one the build wrote): builds after it, a few talks changed or
    not, publish what a build from nothing does and never leave the entry in place."""
    site = make(make_site)
    target = victim(tmp_path)
    before = snapshot(target)
    assert build(run_cli, site)[0] == 0
    (site / "talks/two.md").write_text(talk("Two", "2027-02-03T10:00:00", 'tags = ["a"]'))
    assert build(run_cli, site)[0] == 0  # the twin now holds the build before
    folder = site / "public" if where == "public" else \
        site / CACHE_DIR / "outputs" / twin_name(site)
    path = folder / name
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
    for step in range(3):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# edit {step}'))
        code, err = build(run_cli, site)
        assert code == 0, err
        assert files(site / "public") == clean(run_cli, site, tmp_path)
        assert not links_in(site / "public")
        assert not any(SECRET in data for data in files(site / "public").values())
    assert not links_in(site / CACHE_DIR / "outputs")
    assert snapshot(target) == before


def test_a_huge_cache_file_is_refused_before_it_is_read(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    """Gigabytes of zeros are a few bytes in a repository: never read whole."""
    from talkpages.build.owned import read_file

    big = tmp_path / "big"
    with open(big, "wb") as handle:
        handle.truncate(3 << 30)  # sparse: no room taken
    started = time.perf_counter()
    with pytest.raises(OSError):
        read_file(big)
    with pytest.raises(OSError):
        read_file(big, limit=4 << 30, start=signed.MAGIC)
    assert time.perf_counter() - started < 1
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    for name in ("state", f"outputs/{twin_name(site)}.record"):
        with open(site / CACHE_DIR / name, "wb") as handle:
            handle.truncate(2 << 30)
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["c"]'))
    started = time.perf_counter()
    assert build(run_cli, site)[0] == 0
    assert time.perf_counter() - started < 10
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_a_key_folder_that_is_a_link_of_the_users_is_followed(
        key_home: Path, tmp_path: Path) -> None:
    """~/.cache/talkpages linked to another disk: not an internal error."""
    elsewhere = tmp_path / "disk" / "talkpages"
    elsewhere.mkdir(parents=True, mode=0o755)
    key_home.parent.mkdir(parents=True, exist_ok=True)
    key_home.symlink_to(elsewhere, target_is_directory=True)
    key = signed._key()
    assert (elsewhere / "cache-key").read_bytes() == key
    assert elsewhere.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("name", ["state", "fragments-zz.pack", "lock",
                                  "outputs/TWIN.record", "outputs/.x.tmp"])
def test_a_folder_named_like_a_cache_file_does_not_stop_the_cache(
        make_site: MakeSite, run_cli: RunCli, name: str) -> None:
    site = make(make_site)
    (site / CACHE_DIR / name.replace("TWIN", twin_name(site)) / "inner").mkdir(parents=True)
    for _ in range(2):
        code, _, err = run_cli("build", "-s", str(site), "--now", NOW)
        assert code == 0 and "warning" not in err, err
    code, out, _ = run_cli("build", "-s", str(site), "--now", NOW)
    assert "Nothing changed" in out


def test_an_output_folder_that_is_a_link_is_refused_plainly(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    site = make(make_site)
    (site / "public").symlink_to(tmp_path / "nowhere", target_is_directory=True)
    for _ in range(2):
        code, err = build(run_cli, site)
        assert code == 1 and "symbolic link" in err, err
    assert not list(site.glob(".public.talkpages-*"))
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("planted", ["file", "link", "folder link"])
def test_what_is_planted_deep_in_the_twin_never_reaches_the_output(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, planted: str) -> None:
    """Folders of the twin whose stamps still hold are not listed again (owned.prune);
    one changed below them, two levels down, is."""
    site = make(make_site)
    outside = victim(tmp_path)
    assert build(run_cli, site)[0] == 0
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a"]\n# 1'))
    assert build(run_cli, site)[0] == 0  # the twin: the first build's site, its folders stamped
    deep = site / CACHE_DIR / "outputs" / twin_name(site) / "tags" / "a"
    assert deep.is_dir()
    if planted == "file":
        (deep / "planted.html").write_bytes(SECRET)
    elif planted == "link":
        (deep / "planted.html").symlink_to(outside / "secret.txt")
    else:
        (deep / "planted").symlink_to(outside, target_is_directory=True)
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a"]\n# 2'))
    assert build(run_cli, site)[0] == 0  # the twin, pruned, becomes the output
    assert not list((site / "public").rglob("planted*"))
    assert (outside / "secret.txt").read_bytes() == SECRET
    assert (outside / "sub" / "other.txt").read_bytes() == SECRET
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_folders_of_the_twin_that_did_not_change_are_not_listed(
        make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site({f"talks/t{n}.md": talk(f"Talk {n}", f"20{10 + n}-03-01T10:00:00")
                      for n in range(30)})
    for step in range(3):
        (site / "talks/t3.md").write_text(talk("Talk 3", "2013-03-01T10:00:00",
                                               body=f"Edit {step}."))
        assert build(run_cli, site)[0] == 0
    listed: list[object] = []
    scandir = os.scandir

    def counted(path: object) -> object:
        if sys._getframe(1).f_code.co_name == "prune":  # os.scandir is everyone's
            listed.append(path)
        return scandir(path)  # type: ignore[call-overload]

    from talkpages.build import owned
    monkeypatch.setattr(owned.os, "scandir", counted)
    (site / "talks/t3.md").write_text(talk("Talk 3", "2013-03-01T10:00:00", body="Again."))
    assert build(run_cli, site)[0] == 0
    folders = sum(1 for path in (site / "public").rglob("*") if path.is_dir())
    assert folders > 30 and len(listed) < 10, (folders, len(listed))


@pytest.mark.parametrize("top", ["a new file", "its times set"])
def test_what_is_planted_in_the_output_is_not_stamped_when_its_top_changed(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, top: str) -> None:
    """An output folder whose top changed is not the one the record stamped: its
    folders are then stamped by no one until a build has listed them (a stamp taken
    of a folder as found would vouch for a link planted in it)."""
    site = make(make_site)
    outside = victim(tmp_path)
    assert build(run_cli, site)[0] == 0
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a"]\n# 1'))
    assert build(run_cli, site)[0] == 0
    (site / "public/tags/a/planted.html").symlink_to(outside / "secret.txt")
    if top == "a new file":
        (site / "public/new-top.txt").write_text("x")
    else:
        os.utime(site / "public")
    for step in (2, 3):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# {step}'))
        assert build(run_cli, site)[0] == 0
    assert not list((site / "public").rglob("planted*"))
    assert (outside / "secret.txt").read_bytes() == SECRET


def test_builds_after_an_output_restored_from_an_older_twin_are_full_builds_alike(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    """The twin holds an earlier build than the deleted output (a talk and its tag
    since removed): the output comes back from it, and every later edit builds what
    a build from nothing builds."""
    site = make(make_site)
    assert build(run_cli, site)[0] == 0
    (site / "talks/four.md").write_text(talk("Four", "2019-01-01T09:00:00", 'tags = ["z"]'))
    assert build(run_cli, site)[0] == 0
    (site / "talks/four.md").unlink()
    shutil.rmtree(site / "public")
    assert build(run_cli, site)[0] == 0
    for step in range(1, 5):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# {step}'))
        code, err = build(run_cli, site)
        assert code == 0, err
    assert files(site / "public") == clean(run_cli, site, tmp_path)


def test_the_recorded_stamps_of_the_output_folders_are_theirs(
        make_site: MakeSite, run_cli: RunCli) -> None:
    """The stamps a build records for the folders it left alone are those it found at
    its start, not looked at again: after edits, a new talk (new folders) and a deleted
    one (folders removed), each is still what the folder has."""
    from talkpages.build.outfolder import read_record
    from talkpages.build.owned import folder_stamps, folders_of

    site = make_site({f"talks/t{n}.md": talk(f"Talk {n}", f"20{10 + n}-03-01T10:00:00",
                                             extra=f'tags = ["t{n % 3}"]')
                      for n in range(12)})
    out = site / "public"
    steps = [lambda: (site / "talks/t3.md").write_text(talk("Talk 3", "2013-03-01T10:00:00",
                                                            body="Edited.")),
             lambda: (site / "talks/new.md").write_text(talk("New", "2031-01-01T10:00:00",
                                                             extra='tags = ["fresh"]')),
             lambda: (site / "talks/t5.md").unlink(),
             lambda: (site / "talks/t4.md").write_text(talk("Talk 4", "2014-03-01T10:00:00",
                                                            body="Edited too."))]
    assert build(run_cli, site)[0] == 0
    for step in steps:
        step()
        assert build(run_cli, site)[0] == 0
        _, _, record = read_record(out.resolve(), site / CACHE_DIR)
        recorded = record["folders"]["output"]
        folder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
        try:
            now = folder_stamps(folder, folders_of(record["output"]))
        finally:
            os.close(folder)
        assert recorded == now


def test_a_folder_the_twin_no_longer_needs_goes_even_when_prune_emptied_it(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path) -> None:
    """A file of the output replaced since it was recorded (a git checkout: a new
    inode) is dropped when the output is the twin; when the new site no longer has
    it, its emptied folder goes too, else the stamp of the folder above vouched for
    it and whatever was later planted in it was published."""
    site = make(make_site)
    outside = victim(tmp_path)
    (site / "talks/three/img").mkdir()
    (site / "talks/three/img/x.png").write_bytes(b"\x89PNG not really")
    out = site / "public"
    assert build(run_cli, site)[0] == 0
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a"]\n# 1'))
    assert build(run_cli, site)[0] == 0
    copy = out / "three/img/x.png"
    data = copy.read_bytes()
    copy.unlink()
    copy.write_bytes(data)
    (site / "talks/three/img/x.png").unlink()
    for step in (2, 3):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# {step}'))
        assert build(run_cli, site)[0] == 0
    (out / "three/img").mkdir(exist_ok=True)
    (out / "three/img/planted.html").symlink_to(outside / "secret.txt")
    for step in (4, 5, 6, 7):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# {step}'))
        assert build(run_cli, site)[0] == 0
    assert not list(out.rglob("planted*"))
    assert files(out) == clean(run_cli, site, tmp_path)


def test_a_folder_removed_while_the_record_is_saved_does_not_fail_later_builds(
        make_site: MakeSite, run_cli: RunCli, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Another program removes a folder of the output just as its folders are stamped:
    the folder above is stamped without it, and a later build, which then finds it
    neither listed nor there, builds it again rather than failing from then on."""
    site = make(make_site)
    (site / "talks/three/img").mkdir()
    (site / "talks/three/img/x.png").write_bytes(b"\x89PNG not really")
    assert build(run_cli, site)[0] == 0
    (site / "talks/one.md").write_text(talk("One", extra='tags = ["a"]\n# 1'))
    assert build(run_cli, site)[0] == 0
    from talkpages.build import outfolder
    stamps = outfolder._stamps

    def racing(out: Path, *args: object) -> object:
        shutil.rmtree(out / "three/img")
        return stamps(out, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(outfolder, "_stamps", racing)
    (site / "talks/three/index.md").write_text(talk("Three", "2018-01-01T09:00:00", body="Edit."))
    assert build(run_cli, site)[0] == 0
    monkeypatch.setattr(outfolder, "_stamps", stamps)
    for step in range(2, 6):
        (site / "talks/one.md").write_text(talk("One", extra=f'tags = ["a"]\n# {step}'))
        code, err = build(run_cli, site)
        assert code == 0, err
    assert files(site / "public") == clean(run_cli, site, tmp_path)
