"""No input crashes the builder: odd bytes, odd sizes, odd dates, odd folders.

Each test is named after the payload it feeds in. A file gives a talk or errors that
name the file; nothing raises.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from talkpages.content.config import Config
from talkpages.content.loader import load_talk

from conftest import MakeSite, render_site, talk


def load(path: Path):  # type: ignore[no-untyped-def]
    return load_talk(path, "x", Config())


def errors_name_the_file(path: Path, problems) -> None:  # type: ignore[no-untyped-def]
    assert problems
    for problem in problems:
        assert problem.path == path
        assert problem.format().startswith(f"{path}") or str(path) in problem.format()


def test_latin1_file_is_an_error_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.md"
    path.write_bytes('+++\ntitle = "Café"\ndate = 2019-05-22\n+++\n'.encode("latin-1"))
    found, problems = load(path)
    assert found is None
    assert problems[0].line == 2 and "not UTF-8" in problems[0].message


def test_binary_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.md"
    path.write_bytes(bytes(range(256)) * 10)
    found, problems = load(path)
    assert found is None
    errors_name_the_file(path, problems)


def test_byte_order_mark_and_crlf_are_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes(b"\xef\xbb\xbf" + talk("BOM").replace("\n", "\r\n").encode())
    found, problems = load(path)
    assert found is not None and found.title == "BOM" and not problems


def test_nul_byte_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "nul.md"
    path.write_bytes(talk("N\x00UL").encode())
    found, problems = load(path)
    assert found is None and "NUL" in problems[0].message


def test_50_mb_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.md"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    found, problems = load(path)
    assert found is None and "too large" in problems[0].message


@pytest.mark.parametrize("kind", ["toml-arrays", "toml-tables", "yaml"])
def test_100k_deep_nesting_is_an_error(tmp_path: Path, kind: str) -> None:
    depth = 100_000
    path = tmp_path / "deep.md"
    if kind == "toml-arrays":
        payload = "+++\ntitle = \"x\"\ndate = 2019-05-22\nx = " + "[" * depth + "]" * depth
    elif kind == "toml-tables":
        payload = "+++\ntitle = \"x\"\ndate = 2019-05-22\nx = " + "{a = " * depth + "1" \
            + "}" * depth
    else:
        payload = "---\ntitle: x\ndate: 2019-05-22\nx: " + "[" * depth + "]" * depth
    path.write_text(payload + "\n" + ("+++" if kind != "yaml" else "---") + "\n")
    found, problems = load(path)
    assert found is None
    errors_name_the_file(path, problems)


@pytest.mark.parametrize("value", ["0000-01-01", "9999-12-31", "9999-12-31T23:30:00",
                                   "0001-01-01T00:00:00+14:00", '"10000-01-01"',
                                   '"0000-00-00"'])
def test_dates_at_the_edges_of_time_give_a_talk_or_an_error(make_site: MakeSite,
                                                            value: str) -> None:
    site = make_site({"talks/edge.md": talk("Edge", value, 'timezone = "Pacific/Kiritimati"')})
    result = render_site(site)
    if not result.ok:
        assert all(d.path and d.path.name == "edge.md" and d.line for d in result.diagnostics
                   if d.is_error)


def test_year_9999_all_day_talk_builds_or_is_refused(make_site: MakeSite) -> None:
    site = make_site({"talks/last.md": talk("Last day", "9999-12-31")})
    result = render_site(site)
    assert result.ok or result.diagnostics[0].path.name == "last.md"


def test_symlink_loop_in_talks_is_reported(make_site: MakeSite) -> None:
    site = make_site({"talks/ok.md": talk("OK")})
    os.symlink(site / "talks/loop-a.md", site / "talks/loop-b.md")
    os.symlink(site / "talks/loop-b.md", site / "talks/loop-a.md")
    os.symlink(site / "talks", site / "talks/folder-loop")
    result = render_site(site)
    assert not result.ok
    text = "\n".join(d.format() for d in result.diagnostics)
    assert "loop-a.md" in text and "loop-b.md" in text
    assert "Traceback" not in text


def test_bundle_symlink_out_of_the_site_is_not_copied(make_site: MakeSite,
                                                      tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("private")
    site = make_site({"talks/b/index.md": talk("B")})
    os.symlink(secret, site / "talks/b/leak.txt")
    result = render_site(site)
    assert not result.ok and result.outputs == []
    assert any("leads out of the site" in d.message for d in result.diagnostics)


@pytest.mark.parametrize("slug", ["../escape", "/abs", "a/b", "..", "a\\b", ".hidden"])
def test_slug_that_would_leave_the_output_folder_is_an_error(make_site: MakeSite,
                                                             slug: str) -> None:
    site = make_site({"talks/a.md": talk("A", extra=f'slug = "{slug}"'.replace("\\", "\\\\"))})
    result = render_site(site)
    assert not result.ok
    assert "slug" in result.diagnostics[0].message


def test_dangling_link_in_talks_is_an_error(make_site: MakeSite) -> None:
    site = make_site({"talks/ok.md": talk("OK")})
    os.symlink(site / "talks/gone.md", site / "talks/dangling.md")
    result = render_site(site)
    assert not result.ok
    assert result.diagnostics[0].path.name == "dangling.md"
    assert "broken" in result.diagnostics[0].message


@pytest.mark.parametrize("where", ["talk", "params"])
def test_a_dotted_key_5000_deep_is_an_error_at_its_line(make_site: MakeSite, run_cli,
                                                         where: str) -> None:
    """`a.a.a…a.b = 1` parses without recursion into tables 5,000 deep, which the pages,
    the feed and the cache then walked by recursion: an internal error."""
    dotted = "a." * 5_000 + "b = 1"
    if where == "talk":
        site = make_site({"talks/t.md": talk(extra=dotted)})
        place, line = "talks/t.md:4", "front matter key 'a'"
    else:
        site = make_site({"talks/t.md": talk(),
                          "talkpages.toml": f'title = "T"\n[params]\n{dotted}\n'})
        place, line = "talkpages.toml:2", "config value 'params'"
    code, _, err = run_cli("check", "-s", str(site))
    assert code == 1, err
    assert f"{place}: error: {line}: tables or lists nest more than 64 deep" in err


def test_nesting_is_measured_once_per_shared_value_and_a_loop_is_too_deep() -> None:
    from talkpages.content.config import MAX_NESTING, nesting

    assert [nesting(v) for v in ("x", [], {"a": [1, {"b": {}}]})] == [0, 1, 4]
    shared: list[object] = ["x"]
    for _ in range(60):  # 2**60 paths through 61 lists
        shared = [shared, shared]
    assert nesting(shared) == 61
    loop: list[object] = []
    loop.append({"a": loop})
    assert nesting(loop) > MAX_NESTING
