"""Shared fixtures: build a site from a dict of files, run the command line."""

from __future__ import annotations

import io
import os
import shutil
import textwrap
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from talkpages.commands import cli
from talkpages.content.loader import LoadOptions
from talkpages.engine.pipeline import BuildRequest, BuildResult, DiskSink, MemorySink, run

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEED = SHARED / "seeds" / "004_2a04af4d7c97a84f.txt"
# Tests of the shared seeds and corpus skip on a clone without ../shared beside it, and
# fail in CI (TALKPAGES_REQUIRE_TOOLS=1), which has it.
needs_shared = pytest.mark.skipif(
    not SEED.is_file() and os.environ.get("TALKPAGES_REQUIRE_TOOLS") != "1",
    reason=f"{SHARED} (the shared seeds and corpus) is not beside the repository")
NOW = datetime(2026, 11, 21, tzinfo=timezone.utc)
# Builds run in the test's own process. The suite already keeps every core busy (one
# pytest worker a core), and a build that forks more workers from a test process of
# some hundred MB spends more on the forks than it saves (80 ms a build of a few
# talks with cards). test_parallel.py sets its own number, to test the forked path; a
# TALKPAGES_WORKERS set outside (2: every test's builds on workers) is kept.
os.environ.setdefault("TALKPAGES_WORKERS", "1")

MakeSite = Callable[..., Path]


def talk(title: str = "A talk", date: str = "2019-05-22T14:50:00", extra: str = "",
         body: str = "Body text.") -> str:
    """A talk file; `date` is written as a TOML value, `extra` as more front matter lines."""
    return f'+++\ntitle = "{title}"\ndate = {date}\n{textwrap.dedent(extra).strip()}\n+++\n{body}\n'


@pytest.fixture
def make_site(tmp_path: Path) -> MakeSite:
    def make(files: dict[str, str | bytes], root: Path | None = None) -> Path:
        site = root or tmp_path / "site"
        (site / "talks").mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            path = site / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        return site
    return make


def render(site: Path, options: LoadOptions) -> BuildResult:
    """The site built into memory, as check and serve build it."""
    return run(BuildRequest(site, options), MemorySink())


def build(site: Path, out: Path, options: LoadOptions) -> BuildResult:
    """The site built into `out`, as `talkpages build` builds it."""
    return run(BuildRequest(site, options), DiskSink(out))


def render_site(site: Path, **options: object) -> BuildResult:
    return render(site, LoadOptions(now=options.pop("now", NOW), **options))  # type: ignore[arg-type]


def outputs(result: BuildResult) -> dict[str, bytes]:
    return {o.path: o.data for o in result.outputs if o.data is not None}


@pytest.fixture(scope="session")
def example_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example site of the repository, built once for the tests that only read it."""
    out = tmp_path_factory.mktemp("example") / "public"
    assert build(ROOT, out, LoadOptions(now=NOW)).ok
    return out


@pytest.fixture(scope="session")
def fixture_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pages fixture site (tests/pagesite.py), built once."""
    from pagesite import build_pages_site

    folder = tmp_path_factory.mktemp("pages")
    return build_pages_site(folder / "site", folder / "out")


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    def run(*args: str) -> tuple[int, str, str]:
        try:
            code = cli.main(list(args))
        except SystemExit as exc:  # argparse: --help, --version, usage errors
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err
    return run


def require_tool(available: bool, reason: str) -> None:
    """Skip when a tool a test drives is absent; in CI (TALKPAGES_REQUIRE_TOOLS=1) fail."""
    if available:
        return
    if os.environ.get("TALKPAGES_REQUIRE_TOOLS") == "1":
        pytest.fail(f"required tool missing: {reason}")
    pytest.skip(reason)


# Property-based tests: a hundred examples each in the normal run (Hypothesis' own
# default, which keeps the suite within its three minutes); thousands with
# HYPOTHESIS_PROFILE=stress (see docs/layout.md, *Tests*).
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("default", max_examples=100, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("stress", max_examples=5000, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
except ImportError:  # pragma: no cover - hypothesis is a test dependency
    pass


RunCli = Callable[..., tuple[int, str, str]]


def cli_build(run_cli: RunCli, site: Path) -> tuple[int, str]:
    """`talkpages build -q` of `site` at NOW, as a user runs it: exit status, stderr."""
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW.isoformat())
    return code, err


def output_files(out: Path) -> dict[str, bytes]:
    """The files of a built site but its marker, by path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.is_symlink() and p.name != ".talkpages-output"}


def fresh_build_files(run_cli: RunCli, site: Path, root: Path) -> dict[str, bytes]:
    """What a build of the same talks from nothing writes."""
    fresh = root / "fresh"
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.copytree(site / "talks", fresh / "talks")
    assert cli_build(run_cli, fresh)[0] == 0
    return output_files(fresh / "public")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, driven by Playwright (browser.py), started once for the tests
    of a process: each test opens its own context, so no state is shared."""
    from browser import ARGS, CHROMIUM, require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Text files under `root` (folders made as needed): `root`."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def photo(width: int, height: int, fmt: str = "JPEG", **save: object) -> bytes:
    """A gradient with a bright square in its top left quarter: detail to crop to."""
    from PIL import Image

    image = Image.new("RGB", (width, height))
    image.putdata([(x * 255 // width, y * 255 // height, 90)
                   for y in range(height) for x in range(width)])
    for x in range(width // 8, width // 4):
        for y in range(height // 8, height // 4):
            image.putpixel((x, y), (255, 255, 255) if (x + y) % 2 else (0, 0, 0))
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


# The tests over five seconds on two cores, and why each is worth its time. They run
# in every run (the README's command, CI); `pytest -m "not slow"` leaves them out of a
# quick loop while editing.
SLOW = {
    "test_browser.py::test_every_page_passes_axe_has_no_broken_link_and_stays_on_the_site":
        "axe, links and requests on every page of two sites, not a sample of them",
    "test_xss.py::test_no_payload_in_any_field_runs_a_script":
        "every payload in every field, each page opened in Chromium",
    "test_browser_images.py": "screenshots and image requests at several widths",
    "test_writer.py::test_a_build_killed_midway_leaves_the_previous_output_intact":
        "a real build killed mid-write, then read back",
    "test_html_valid.py": "the Nu checker over every kind of site (a Java start)",
    "test_browser.py::test_screenshots_at_phone_and_desktop_widths": "screenshots",
    "test_browser_theme.py::test_screenshots_with_an_accent_and_a_logo": "screenshots",
    "test_fuzz.py": "hypothesis: hundreds of generated inputs per property",
    "test_feed_clients.py": "five calendar clients, two of them separate processes",
    "test_multilingual.py::test_each_client_reads_each_language_feed_alike":
        "five calendar clients on two feeds",
    "test_import.py::test_corpus_every_parsable_file_is_converted_and_the_broken_reported":
        "the 291 real talk files of the corpus",
}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: over five seconds on two cores (conftest.SLOW "
                            "says why each is worth it)")


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the groups set here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests; keep the tests of a module with module-wide fixtures (a site
    built with its images, a feed read by the clients) in one worker process, which
    makes those fixtures once instead of once in each (`--dist loadgroup`)."""
    shared = {item.module.__name__ for item in items if item.module is not None
              and any(getattr(value, "_fixture_function_marker", None) is not None
                      and value._fixture_function_marker.scope == "module"
                      for value in vars(item.module).values())}
    for item in items:
        if item.module is not None and item.module.__name__ in shared:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
        name = item.nodeid.split("/")[-1]
        if any(name == key or name.startswith(key + ("" if "::" in key else "::"))
               or name.startswith(key + "[") for key in SLOW):
            item.add_marker(pytest.mark.slow)
