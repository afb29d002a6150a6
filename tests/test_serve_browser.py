"""`talkpages serve` in a real browser (Debian's Chromium through Playwright): the tab
reloads itself after an edit, shows the error overlay, styled, under the theme's
Content-Security-Policy, and drops it once the file is fixed. Skipped with the reason
when Chromium or Playwright is missing; .ci/run makes such a skip a failure.
"""

from __future__ import annotations

import time
from io import StringIO
from typing import Any

from talkpages.commands.console import Console
from talkpages.commands.serve import DevServer

from conftest import NOW, MakeSite, talk

WAIT_MS = 30_000


def test_the_tab_reloads_shows_the_overlay_and_drops_it(make_site: MakeSite,
                                                        browser: Any) -> None:
    site = make_site({"talks/one.md": talk("One", body="First version.")})
    server = DevServer(site, port=0, now=lambda: NOW, console=Console(StringIO(), StringIO()))
    server.start()
    try:
        page = browser.new_page()
        try:
            problems: list[str] = []
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.goto(f"{server.url}one/")
            assert "First version." in page.inner_text("main")
            time.sleep(0.5)  # the event stream connects

            (site / "talks/one.md").write_text(talk("One", body="Second version."))
            # (selectors, not wait_for_function: the page's CSP forbids eval, rightly)
            page.wait_for_selector("text=Second version.", timeout=WAIT_MS)

            (site / "talks/one.md").write_text('+++\ntitle = "One\n+++\n')
            overlay = page.wait_for_selector("#talkpages-errors", timeout=WAIT_MS)
            assert overlay is not None
            assert "one.md:2" in overlay.inner_text() and "invalid TOML" in overlay.inner_text()
            assert overlay.evaluate("e => getComputedStyle(e).position") == "fixed"
            assert "Second version." in page.inner_text("main")  # the last good page

            (site / "talks/one.md").write_text(talk("One", body="Third version."))
            page.wait_for_selector("text=Third version.", timeout=WAIT_MS)
            assert page.query_selector("#talkpages-errors") is None
            assert not [p for p in problems if "Content Security Policy" in p], problems
        finally:
            page.context.close()
    finally:
        server.stop()
