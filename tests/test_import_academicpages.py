"""`talkpages import academicpages`: a talk keeps the address the Jekyll site gave it,
its own `permalink` or else the one of the collection's pattern, as an alias."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.content.frontmatter import split

from conftest import write_files

TALK = ("---\ntitle: \"Talk 1 on Relevant Topic\"\ncollection: talks\ntype: \"Talk\"\n"
        "permalink: /talks/2012-03-01-talk-1\nvenue: \"UC San Francisco\"\n"
        "date: 2012-03-01\nlocation: \"San Francisco, California\"\n---\nText.\n")


def _aliases(site: Path, name: str) -> list[str]:
    return split((site / "talks" / name).read_text()).data.get("aliases", [])


def test_the_permalink_and_the_collections_pattern_become_aliases(tmp_path: Path,
                                                                   run_cli) -> None:
    source = write_files(tmp_path / "old", {
        "_config.yml": "collections:\n  talks:\n    output: true\n"
                       "    permalink: /:collection/:year/:title/\n",
        "_talks/2012-03-01-talk-1.md": TALK,
        "_talks/2014-02-01-talk-2.md": "---\ntitle: Two\ndate: 2014-02-01\n---\n",
    })
    site = tmp_path / "site"
    report = import_site("academicpages", source, site)
    assert report.ok, report.problems
    # the page's own permalink was its address; the pattern gave the others theirs
    assert _aliases(site, "2012-03-01-talk-1.md") == ["/talks/2012-03-01-talk-1/"]
    assert _aliases(site, "2014-02-01-talk-2.md") == ["/talks/2014/talk-2/"]
    built = tmp_path / "public"
    code, _, err = run_cli("build", "-s", str(site), "-o", str(built))
    assert code == 0, err
    assert (built / "talks/2012-03-01-talk-1/index.html").is_file()
    assert (built / "talks/2014/talk-2/index.html").is_file()


@pytest.mark.parametrize("config, alias", [
    ("", "/talks/2014-02-01-talk-2.html"),  # Jekyll's default for a collection
    ("collections:\n  talks:\n    permalink: /:collection/:path/\n",
     "/talks/2014-02-01-talk-2/"),
    ("collections:\n  talks:\n    permalink: /:collection/:categories/:path/\n", None),
])
def test_the_pattern_is_filled_as_jekyll_does_or_not_guessed(
        tmp_path: Path, config: str, alias: str | None) -> None:
    source = write_files(tmp_path / "old", {
        "_config.yml": config,
        "_talks/2014-02-01-talk-2.md": "---\ntitle: Two\n---\n",
    })
    site = tmp_path / "site"
    assert import_site("academicpages", source, site).ok
    assert _aliases(site, "2014-02-01-talk-2.md") == ([alias] if alias else [])


def test_a_permalink_off_the_site_is_no_alias(tmp_path: Path) -> None:
    source = write_files(tmp_path / "old", {
        "_config.yml": "collections:\n  talks:\n    permalink: /:collection/:path/\n",
        "_talks/a.md": "---\ntitle: A\ndate: 2014-02-01\n"
                       "permalink: https://elsewhere.example/a\n---\n",
    })
    site = tmp_path / "site"
    assert import_site("academicpages", source, site).ok
    assert _aliases(site, "a.md") == ["/talks/a/"]
