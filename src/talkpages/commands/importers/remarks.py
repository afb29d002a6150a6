"""What an imported talk will show differently on the new site, said as warnings at
the file's lines: Hugo shortcodes left in its body, files of its bundle the site will
not publish, R Markdown, an HTML body, links to the old site's `static/` files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ...content.addresses import UNSAFE_HINT, unpublished
from ...content.frontmatter import FrontMatter
from ...diagnostics import Diagnostic

if TYPE_CHECKING:  # convert.py uses this module
    from .convert import Adapted, Candidate

# `{{< name` or `{{% /name`: the slash ends the spaces before it, so spaces are read
# once whatever follows them (`\s*/?\s*` tries every split of a long run of spaces).
_SHORTCODE = re.compile(r"\{\{([<%])\s*(?:/\s*)?([\w-]+)")
CLOSE = {"<": ">", "%": "%"}


def remarks(candidate: Candidate, fm: FrontMatter, body: str, adapted: Adapted,
            files: tuple[str, ...], unsafe_html: bool, static_dir: Path | None,
            ) -> list[Diagnostic]:
    """What will look different on the new site, for the messages of the file (`body`,
    the body as the new file has it)."""
    remarks = [Diagnostic(candidate.path, note, 1, 1, severity="warning")
               for note in adapted.notes]
    codes = list(dict.fromkeys(f"{{{{{mark} {name} {CLOSE[mark]}}}}}"
                               for mark, name in _SHORTCODE.findall(body)))
    if codes:
        remarks.append(Diagnostic(
            candidate.path, "the body uses Hugo shortcodes (" + ", ".join(sorted(codes)[:4])
            + (", …" if len(codes) > 4 else "") + "), which talkpages shows as text",
            fm.body_line, 1, severity="warning",
            hint="replace them with Markdown (images: ![alt](file.jpg))"))
    if not unsafe_html:  # copied, but refused by the build
        for name in files:
            why = unpublished(name)
            if why is not None:
                remarks.append(Diagnostic(
                    candidate.bundle / name,  # type: ignore[operator]
                    f"copied, but the site will not publish it: {why}",
                    severity="warning", hint=UNSAFE_HINT))
    suffix = candidate.path.suffix.lower()
    if suffix in (".rmd", ".rmarkdown"):
        remarks.append(Diagnostic(candidate.path, "R Markdown: code chunks are shown as "
                                  "code, not run", fm.body_line, 1, severity="warning"))
    elif suffix in (".html", ".htm") and fm.body.strip():
        remarks.append(Diagnostic(
            candidate.path, "the body is HTML: talkpages shows raw HTML as text unless "
            "the site sets `unsafe_html = true`", fm.body_line, 1, severity="warning"))
    for key, value in adapted.data.items():
        if key.lower().startswith("url_") and isinstance(value, str):
            remark = _static_link(candidate, key, value.strip(), files,
                                  adapted.lines.get(key.lower()), static_dir)
            if remark:
                remarks.append(remark)
    return remarks

def _static_link(candidate: Candidate, key: str, url: str, files: tuple[str, ...],
             line: int | None, static_dir: Path | None) -> Diagnostic | None:
    """A link to a file the old site served from its static folder."""
    if not url or "://" in url or url.startswith(("mailto:", "#", "//")):
        return None
    path = url.split("#")[0].split("?")[0]
    if path.lstrip("./") in files:
        return None
    where = ""
    if static_dir is not None and (static_dir / path.lstrip("/")).is_file():
        where = f" ({(static_dir / path.lstrip('/')).as_posix()} in the old site)"
    return Diagnostic(candidate.path, f"`{key}` links to {url}{where}: talkpages "
                      "publishes no such file", line or 1, 1, severity="warning",
                      hint="copy the file beside the talk (a page bundle) or link to "
                      "its full URL")
