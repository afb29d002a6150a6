"""Hostile talk text, end to end: `check` and `build` refuse it with file and line, fast,
and what they build stays well-formed.

Each test is named after the payload it feeds in.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import talkpages
from talkpages.content.characters import FORBIDDEN
from test_frontmatter import yaml_alias_bomb
from test_mathml import Tags

from conftest import MakeSite, talk


def command_line(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m talkpages` on the talkpages under test, in 2 GiB at most."""
    source = str(Path(talkpages.__file__).parents[1])
    path = os.pathsep.join(filter(None, (source, os.environ.get("PYTHONPATH"))))
    return subprocess.run([sys.executable, "-m", "talkpages", *args], capture_output=True,
                          text=True, timeout=60, cwd=cwd, preexec_fn=limited_memory,
                          env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": path})


def limited_memory() -> None:
    """Run in the child: 2 GiB of address space, so a regression fails instead of
    taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_check_refuses_a_yaml_alias_bomb_fast_with_path_and_line(make_site: MakeSite) -> None:
    site = make_site({"talks/bomb.md": yaml_alias_bomb()})
    started = time.monotonic()
    done = command_line("check", cwd=site)
    assert time.monotonic() - started < 10
    assert done.returncode == 1, done.stderr
    assert "talks/bomb.md:5:10: error: invalid YAML front matter: the alias `*a0`" \
        in done.stderr
    assert "internal error" not in done.stderr


def test_build_refuses_a_self_referencing_yaml_alias(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/self.md": "---\ntitle: Self\ndate: 2019-05-22\n"
                                       "x: &x [*x]\n---\nBody\n"})
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / "public"))
    assert code == 1, err
    assert "self.md:4:8: error:" in err and "alias `*x`" in err
    assert not (site / "public").exists()


def test_build_refuses_control_character_escapes_with_file_line_and_field(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({
        "talks/bell.md": talk("Bell\\u0007", extra='event = "\\u0000root\\u0000"'),
        "talks/escape.md": "---\ntitle: Red\ndate: 2019-05-22\nextra:\n  colour: \"\\e[31m\"\n"
                           "---\nBody\n",
        "talks/body.md": talk("Body", body="Ring \x07 the bell"),
    })
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / "public"))
    assert code == 1, err
    for where in ("bell.md:2:1: error: `title` holds a control character (U+0007)",
                  "bell.md:4:1: error: `event` holds a control character (U+0000)",
                  "escape.md:5:1: error: `extra.colour` holds a control character (U+001B)",
                  "body.md:6:6: error: the body holds a control character (U+0007)"):
        assert where in err
    assert "internal error" not in err and "\x1b" not in err and "\x07" not in err
    assert not (site / "public").exists()


def test_feed_xml_stays_well_formed_with_character_references(make_site: MakeSite,
                                                               run_cli) -> None:
    site = make_site({"talks/refs.md": talk(
        "Tab\\tin the title", extra='abstract = "Bell &#7; and &#xFFFE; and &#x1b;"',
        body="Body &#1; with\ttab")})
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / "public"))
    assert code == 0, err
    ET.parse(site / "public" / "feed.xml")
    for path in (site / "public").rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".json", ".ics"):
            assert not FORBIDDEN.search(path.read_text(encoding="utf-8")), path


def test_formula_in_an_attribute_of_a_built_page_stays_its_source(make_site: MakeSite,
                                                                  run_cli) -> None:
    site = make_site({"talks/disc.md": talk(
        "Disc", extra="math = true",
        body='![area $\\pi r^2$](https://a.org/disc.png "radius $r$") is $\\pi r^2$, see '
             '[the proof](https://a.org/$p$ "proof of $\\pi$").\n\nTPMATHPLACEHOLDER0X')})
    code, _, err = run_cli("build", "-s", str(site), "-o", str(site / "public"))
    assert code == 0, err
    page = (site / "public" / "disc" / "index.html").read_text(encoding="utf-8")
    tags = Tags(page)
    assert {"src": "https://a.org/disc.png", "alt": "area $\\pi r^2$",
            "title": "radius $r$"} in tags.attributes("img")
    assert {"href": "https://a.org/$p$", "title": "proof of $\\pi$"} in tags.attributes("a")
    assert "<msup><mi>r</mi><mn>2</mn></msup>" in page and "TPMATHPLACEHOLDER0X" in page


HUGE = "9" * 5000


@pytest.mark.parametrize("name, text, where", [
    ("talks/big.md", talk("Big", extra=f"n = {HUGE}"), "talks/big.md:4:5: error: invalid TOML"),
    ("talks/big.md", f"---\ntitle: Big\ndate: 2019-05-22\nn: {HUGE}\n---\n",
     "talks/big.md:4:4: error: invalid YAML front matter: `9999"),
    ("talks/tag.md", "---\ntitle: Tag\ndate: 2019-05-22\nn: !!float abc\n---\n",
     "talks/tag.md:4:4: error: invalid YAML front matter: `abc` cannot be read as !!float"),
    ("talks/tag.md", "---\ntitle: Tag\ndate: 2019-05-22\nn: !!timestamp nonsense\n---\n",
     "talks/tag.md:4:4: error: invalid YAML front matter: `nonsense`"),
    ("talks/hex.md", f"---\ntitle: Hex\ndate: 2019-05-22\nn: 0x{HUGE}\n---\n",
     "talks/hex.md:4:1: error: `n` is a whole number of 20000 bits, too large"),
    ("speakers.toml", f'["Ada"]\nbio = "x"\nage = {HUGE}\n',
     "speakers.toml:3:7: error: invalid TOML: integer number overflowed"),
    ("talkpages.toml", f'title = "x"\n[params]\nn = {HUGE}\n',
     "talkpages.toml:3:5: error: invalid TOML: integer number overflowed"),
])
def test_check_refuses_huge_or_malformed_numbers_with_path_and_line(
        make_site: MakeSite, name: str, text: str, where: str) -> None:
    files = {"talks/fine.md": talk("Fine")} if name != "talks/big.md" else {}
    site = make_site({**files, name: text})
    done = command_line("check", cwd=site)
    assert done.returncode == 1, done.stderr
    assert where in done.stderr and "internal error" not in done.stderr
    assert len(done.stderr) < 2000
