"""No talk file can run a script in a visitor's browser.

A site is built with XSS payloads in every text field a talk or the config has; every
page it writes is loaded in Chromium, and no payload may run: each one would set
`window.__xss` or open a dialog. Skipped with the reason when Chromium or Playwright is
missing; CI installs them and turns the skip into a failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from talkpages.content.loader import LoadOptions

from browser import serve
from conftest import NOW, MakeSite, build

RUN = "window.__xss=(window.__xss||0)+1"
PAYLOADS = [
    f"<script>{RUN}</script>",
    f"</script><script>{RUN}</script>",
    f'"><img src=x onerror="{RUN}">',
    f"'><svg onload='{RUN}'>",
    f"<iframe srcdoc=\"<script>parent.{RUN}</script>\"></iframe>",
    f"<a href=\"javascript:{RUN}\">click</a>",
    f"{{{{ 7*7 }}}}{{% raw %}}<b onclick=\"{RUN}\">",
    f"<math><mtext><table><mglyph><style><img src=x onerror=\"{RUN}\">",
    f"]]><script>{RUN}</script>",
    f"\u2028\u2029</script><script>{RUN}</script>",
]


def toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\u2028", "\\u2028") \
        .replace("\u2029", "\\u2029") + '"'


def talk_file(number: int, payload: str) -> str:
    s = toml_string(payload)
    return f"""+++
title = {s}
date = 2030-05-22T14:50:00
date_end = 2030-05-22T15:25:00
timezone = "Europe/Madrid"
authors = [{s}, "Ada"]
location = {s}
event = {s}
event_url = "https://example.org/?q={number}&x=%22%3E%3Cscript%3E"
abstract = {s}
summary = {s}
tags = [{s}, "safe"]
url_slides = "https://example.org/slides\\"onmouseover=\\"{RUN}"
links = [{{name = {s}, url = "https://example.org/{number}"}}]
math = true
status = "cancelled"

[address]
street = {s}
city = {s}

[image]
caption = {s}
alt_text = {s}
+++
{payload}

[link](javascript:{RUN}) [data](data:text/html,<script>{RUN}</script>)
<img src=x onerror="{RUN}">

$x < y$ and $$</script><script>{RUN}</script>$$

```
{payload}
```
"""


def test_no_payload_in_any_field_runs_a_script(browser: Any, make_site: MakeSite,
                                               tmp_path: Path) -> None:
    files = {f"talks/xss-{n}/index.md": talk_file(n, p) for n, p in enumerate(PAYLOADS)}
    files["talks/xss-0/featured.png"] = (Path(__file__).parent.parent / "assets"
                                         / "favicon.ico").read_bytes()[22:].decode("latin-1")
    files["talkpages.toml"] = "\n".join([
        f"title = {toml_string(PAYLOADS[0])}", f"description = {toml_string(PAYLOADS[2])}",
        f"author = {toml_string(PAYLOADS[1])}", 'base_url = "https://xss.example.org/"'])
    site = make_site({k: v for k, v in files.items() if not k.endswith(".png")})
    (site / "talks/xss-0/featured.png").write_bytes(
        (Path(__file__).parent.parent / "assets" / "favicon.ico").read_bytes()[22:])
    out = tmp_path / "public"
    result = build(site, out, LoadOptions(now=NOW))
    assert result.ok, [d.format() for d in result.diagnostics]
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    assert len(pages) > len(PAYLOADS)
    dialogs: list[str] = []
    with serve(out) as url:
        page = browser.new_page()
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for path in pages:
            page.goto(url + path.removesuffix("index.html"))
            page.wait_for_load_state("load")
            handlers = page.eval_on_selector_all(  # one call a page, not one an element
                "[onclick], [onmouseover]", "found => found.map(e => e.outerHTML.slice(0, 120))")
            assert not handlers, f"{path}: an event handler attribute made it into the page"
            for href in page.eval_on_selector_all(
                    "a[href]", "found => found.map(a => a.getAttribute('href'))"):
                href = href.strip().lower()
                assert not href.startswith(("javascript:", "data:", "vbscript:")), (path, href)
            ran = page.evaluate("window.__xss || 0")
            assert ran == 0, f"a payload ran on {path}"
        page.close()
    assert dialogs == []
