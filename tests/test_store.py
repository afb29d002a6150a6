"""The lasting cache (store.py, signed.py): reused when it is this user's and whole, and
never at the cost of a wrong byte when it is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.build import pack, signed
from talkpages.build.store import DiskCache

from conftest import NOW, MakeSite, build_with_cache, render_site, talk


def files(make_site: MakeSite) -> Path:
    return make_site({f"talks/t{n}.md": talk(f"Talk {n}", f"20{10 + n}-03-0{1 + n % 9}T10:00:00",
                                             f'tags = ["t{n % 3}"]')
                      for n in range(12)})


def built(site: Path, out: Path) -> tuple[DiskCache, dict[str, bytes]]:
    _, cache, found = build_with_cache(site, out)
    return cache, found  # type: ignore[return-value]


def expected(site: Path) -> dict[str, bytes]:
    return {o.path: o.data if o.data is not None else o.source.read_bytes()  # type: ignore[union-attr]
            for o in render_site(site).outputs}


@pytest.mark.parametrize("damage", ["bytes", "key"])
def test_a_state_not_signed_by_this_user_is_not_read(make_site: MakeSite, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    damage: str) -> None:
    site = files(make_site)
    built(site, tmp_path / "out")
    state = site / ".talkpages-cache" / "state"
    if damage == "bytes":
        data = bytearray(state.read_bytes())
        data[-5] ^= 1
        state.write_bytes(bytes(data))
    else:  # another user's cache, or one restored in CI without the key
        monkeypatch.setenv("TALKPAGES_CACHE_KEY", "another key")
        signed._key.cache_clear()
    try:
        assert signed.read(state) is None
        cache, found = built(site, tmp_path / "out")
        assert cache.stats.talks_read == 12 and cache.stats.talks_reused == 0
        assert found == expected(site)
    finally:
        signed._key.cache_clear()


def test_a_rewritten_pack_keeps_every_talk_and_page(make_site: MakeSite, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pack, "COMPACT_BELOW", 1.01)  # compact at every full build
    site, out = files(make_site), tmp_path / "out"
    built(site, out)
    first = list((site / ".talkpages-cache").glob("fragments-*.pack"))
    (site / "talks/t3.md").write_text(talk("New date", "2030-01-01"))  # a full build
    cache, found = built(site, out)
    assert found == expected(site)
    second = list((site / ".talkpages-cache").glob("fragments-*.pack"))
    assert len(second) == 1 and second != first  # written again, the old one gone
    (site / "talks/t5.md").write_text(talk("Another", "2031-01-01"))
    cache, found = built(site, out)
    assert found == expected(site)
    assert cache.stats.talks_read == 1 and cache.stats.talks_reused == 11


def test_a_deleted_output_folder_comes_back_from_the_cache(make_site: MakeSite, run_cli,
                                                           tmp_path: Path) -> None:
    import shutil

    site, out = files(make_site), tmp_path / "out"
    args = ("build", "-s", str(site), "-o", str(out), "--now", NOW.isoformat())
    assert run_cli(*args)[0] == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    shutil.rmtree(out)
    code, output, _ = run_cli(*args)
    assert code == 0 and "restored from" in output
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_file_edited_in_place_in_the_output_is_not_taken_for_the_built_one(
        make_site: MakeSite, run_cli, tmp_path: Path) -> None:
    site, out = files(make_site), tmp_path / "out"
    args = ("build", "-s", str(site), "-o", str(out), "--now", NOW.isoformat())
    run_cli(*args)
    run_cli(*args)  # the output now shares its files with the twin in the cache
    page = (out / "t3/index.html").read_bytes()
    with open(out / "t3/index.html", "ab") as handle:
        handle.write(b"<!-- edited in place -->")
    code, output, _ = run_cli(*args)
    assert code == 0 and "Nothing changed" not in output
    assert (out / "t3/index.html").read_bytes() == page


def test_an_error_in_a_changed_talk_fails_the_build_and_the_fix_builds(
        make_site: MakeSite, run_cli, tmp_path: Path) -> None:
    site, out = files(make_site), tmp_path / "out"
    args = ("build", "-s", str(site), "-o", str(out), "--now", NOW.isoformat())
    run_cli(*args)
    good = (site / "talks/t2.md").read_text()
    (site / "talks/t2.md").write_text(good.replace('title = "Talk 2"', 'title = "Talk 2'))
    code, _, error = run_cli(*args)
    assert code == 1 and "t2.md:2" in error
    (site / "talks/t2.md").write_text(good.replace("Body text.", "Fixed."))
    code, _, _ = run_cli(*args)
    assert code == 0 and b"Fixed." in (out / "t2/index.html").read_bytes()


def test_talks_read_by_another_version_of_talkpages_are_read_again(
        make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a parsed talk was kept by its file, slug and config alone, so a new
    talkpages that reads files otherwise (a fix to times, say) went on using the old."""
    from talkpages import digests
    from talkpages.output import keys

    site = files(make_site)
    built(site, tmp_path / "out")
    monkeypatch.setattr(keys, "code_digest", lambda: "another version")
    monkeypatch.setattr(digests, "code_digest", lambda: "another version")
    cache, found = built(site, tmp_path / "out")
    assert cache.stats.talks_read == 12 and cache.stats.talks_reused == 0
    assert found == expected(site)
