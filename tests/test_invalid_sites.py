"""Each folder of tests/invalid is a broken site with the messages it must produce.

`expected.txt` lists lines that must appear in what `talkpages` prints, each with
its path, line and column. Both `check` and `build` must report them, exit 1, and
`build` must write nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

INVALID = Path(__file__).parent / "invalid"
CASES = sorted(p.name for p in INVALID.iterdir() if (p / "expected.txt").exists())


@pytest.fixture
def site(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / request.param
    shutil.copytree(INVALID / request.param, copy)
    (copy / "expected.txt").rename(tmp_path / "expected.txt")
    monkeypatch.chdir(copy)
    return copy


def expected(site: Path) -> list[str]:
    return (site.parent / "expected.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("site", CASES, indirect=True)
def test_check_reports_every_error_with_its_place(site: Path, run_cli) -> None:
    code, out, err = run_cli("check")
    assert code == 1
    for line in expected(site):
        assert line in err.splitlines() or any(e.startswith(line) for e in err.splitlines()), \
            f"missing {line!r} in:\n{err}"
    assert "Traceback" not in err + out


@pytest.mark.parametrize("site", CASES, indirect=True)
def test_build_fails_and_writes_nothing(site: Path, run_cli) -> None:
    code, out, err = run_cli("build", "--now", "2026-01-01T00:00:00Z")
    assert code == 1
    assert "nothing was written" in err
    assert expected(site)[0].split(": ")[0] in err
    assert not (site / "public").exists()
    assert [p.name for p in site.parent.iterdir() if p.name.startswith(".public")] == []


def test_every_case_folder_has_expectations() -> None:
    assert len(CASES) >= 12
    for case in CASES:
        assert expected(INVALID / case / "x"), case
