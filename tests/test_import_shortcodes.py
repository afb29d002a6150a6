"""Hugo shortcodes in an imported body are named in a warning, found in time linear
in the body whatever follows `{{<`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from talkpages.commands.importers.remarks import _SHORTCODE

from conftest import write_files


@pytest.mark.parametrize(("body", "names"), [
    ("{{< youtube abc >}}", ["youtube"]),
    ("{{% /callout %}}", ["callout"]),
    ("{{<figure src=x>}} {{<  /  my-code >}}", ["figure", "my-code"]),
    ("{{< / >}} {{ x }} {<y>}", []),
])
def test_shortcode_names_are_found_as_written(body: str, names: list[str]) -> None:
    assert [name for _, name in _SHORTCODE.findall(body)] == names


def test_shortcode_opening_and_twenty_thousand_spaces_is_read_at_once() -> None:
    started = time.perf_counter()  # 6 s when a run of spaces was tried at every split
    assert _SHORTCODE.findall("{{<" + " " * 20_000) == []
    assert _SHORTCODE.findall("{{% /" + " " * 20_000 + "note") == [("%", "note")]
    assert time.perf_counter() - started < 2


def test_import_of_a_body_with_long_shortcode_spaces_warns_in_time(
        tmp_path: Path, run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "config.toml": 'title = "Old"\n',
        "content/talk/a.md": "---\ntitle: A\ndate: 2019-01-01\n---\n{{< gist x >}}\n"
                             + "{{<" + " " * 20_000 + "\n",
    })
    site = tmp_path / "site"
    site.mkdir()
    started = time.perf_counter()
    code, _, err = run_cli("import", "hugo", str(source), "-s", str(site))
    assert time.perf_counter() - started < 5
    assert code == 0, err
    assert "{{< gist >}}" in err and "internal error" not in err
