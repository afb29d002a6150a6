"""What the build publishes at each address of the site, checked when the site is
loaded, so that `check` reports what `build` would refuse, each at its file.

Files of a talk's folder are published by type. Whatever is published is served from
the site's own origin, as far as a browser can tell: an HTML, SVG or XML page there
runs its scripts with the site's cookies and storage and can reach every page of it,
and a script or style sheet there is allowed by the pages' Content-Security-Policy
(`script-src 'self'`) to anything that gets a tag into a page. `unsafe_html = false`
promises that authors of talk files cannot put script on the site, so a talk's folder
publishes only the types a browser shows, plays or downloads: images, PDF, office
documents, audio, video, subtitles, archives, data and source code. This is a list of
what is allowed rather than of what is not, because browsers keep rendering new types
as documents, and because a file of no known type is the worst case: a server may
send it with no type and leave the browser to guess. A site that trusts every author
(`unsafe_html = true`) publishes any file.

Names: each part of an output's path must be a file name every common file system
takes (255 bytes: a tag of 90 Chinese characters is more), and no two outputs may
have names that differ only in case (one file on macOS, Windows and many hosts), as
the writer checks them (writer.py); a bundle file named `INDEX.HTML` or `<slug>.ics`
would take the place of the talk's own page or calendar file.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from ..diagnostics import Diagnostic, display_path
from . import taxonomy
from .frontmatter import FrontMatterError, split
from .model import SLUG, Site, Talk

MAX_NAME = 255  # bytes in a file name: ext4, btrfs, XFS, APFS…
# Paths the site itself writes at its root; a talk cannot take them as its slug.
RESERVED_SLUGS = frozenset({"tags", "speakers", "years", "assets", "index.html", "404.html",
                            "calendar.ics", "sitemap.xml", "robots.txt", "feed.xml",
                            "talks.json", "favicon.ico", "favicon.svg", "page",
                            "search.json", "apple-touch-icon.png"})

PASSIVE_SUFFIXES = frozenset("""
avif bmp gif heic heif ico jpeg jpg jxl png tif tiff webp
pdf epub ps eps ics vcf
doc docx odg odp ods odt pages key numbers pps ppsx ppt pptx rtf xls xlsx
txt md markdown rst tex bib ris csv tsv json geojson ipynb yaml yml toml
aac flac m4a mp3 oga ogg opus wav weba avi m4v mkv mov mp4 ogv webm srt vtt
7z bz2 gz rar tar tgz xz zip zst bin
c cc cpp go h hpp java jl m py r rmd rs sh sql
dat h5 hdf5 mat nc npy npz parquet rda rdata rds
""".split())
# Not published without `unsafe_html`, and why (the rest: not known to be passive).
ACTIVE_SUFFIXES = {
    **dict.fromkeys("html htm xhtml xht shtml mht mhtml svg svgz xml xsl xslt".split(),
                    "a page whose scripts run with the site's own address"),
    **dict.fromkeys("js mjs cjs wasm css".split(), "a script or style sheet that the "
                    "site's pages allow, to anything put into a page"),
}
UNSAFE_HINT = ("publish it elsewhere and link to it, or put it in a .zip; only if you trust "
               "every author of the site, set `unsafe_html = true` in talkpages.toml")


def slug_problem(slug: str) -> tuple[str, str] | None:
    """Why `slug` cannot be the address of a talk (a message and a hint), or None."""
    if not SLUG.match(slug) or ".." in slug:
        return (f"the slug {slug!r} is not usable in a URL",
                'use letters, digits and dashes, such as "kubecon-2019-batch"')
    if slug.lower() in RESERVED_SLUGS or slug.lower().startswith("favicon."):
        return f"the slug {slug!r} is used by the site itself", 'set another `slug = "…"`'
    size = len(f"{slug}.ics".encode())
    if size > MAX_NAME:
        return (f"the slug is too long: the talk's calendar file, <slug>.ics, would have a "
                f"name of {size} bytes, and a file name holds at most {MAX_NAME}",
                'set a shorter `slug = "…"`')
    return None


def check_site(site: Site) -> list[Diagnostic]:
    """Every problem of where the site's outputs would go (the talks' own slugs are
    checked with the other talks': loader.check_slugs)."""
    problems: list[Diagnostic] = []
    for talk in site.talks:
        problems += _bundle(talk, site.config.unsafe_html)
    problems += _groups(site, ("tag", "tags", "tags"), lambda talk: talk.tags)
    problems += _groups(site, ("speaker", "speakers", "authors"), lambda talk: [
        taxonomy.speaker_name(site, author) for author in talk.authors])
    return problems


def _bundle(talk: Talk, unsafe_html: bool) -> list[Diagnostic]:
    """The talk's folder: no file in place of another, or of the talk's page or feed;
    only passive types unless every author is trusted. One problem a file."""
    if not talk.bundle_files:
        return []
    own = {"index.html": ("the talk's page", "index.html"),
           f"{talk.slug}.ics".lower(): ("the talk's calendar file", f"{talk.slug}.ics")}
    taken = {**{name.lower(): f"`{name}`" for name in talk.bundle_files},
             **{lower: what for lower, (what, _) in own.items()}}
    seen: dict[str, str] = {}
    problems = []
    for name in talk.bundle_files:
        lower = name.lower()
        folders = [lower[:at] for at, char in enumerate(lower) if char == "/"]
        folder = next((f for f in folders if f in taken), None)
        if lower in own:
            why = f"would take the place of {own[lower][0]}, {talk.url}{own[lower][1]}"
        elif lower in seen:
            why = f"and {seen[lower]} differ only in case: on many systems they are one file"
        elif folder is not None:
            why = f"needs a folder {folder}/ where {taken[folder]} is a file"
        elif "\\" in name:
            why = "has a backslash in its name, which browsers read as a slash"
        else:
            seen[lower] = f"`{name}`"
            refused = None if unsafe_html else unpublished(name)
            if refused is not None:
                problems.append(Diagnostic(talk.source.parent / name, "not published from "
                                           f"the talk's folder: {refused}", hint=UNSAFE_HINT))
            continue
        seen.setdefault(lower, f"`{name}`")
        problems.append(Diagnostic(talk.source.parent / name, f"`{name}` {why}",
                                   hint="rename the file"))
    return problems


def _groups(site: Site, kind: tuple[str, str, str],
            names: Callable[[Talk], Iterable[str]]) -> list[Diagnostic]:
    """Tags or speakers: a name too long for an address is an error; names that are not
    one name but share a page (`R&D`, `R D`) are listed as one, and a warning says so.
    Names that differ only in case are one name, as docs/pages.md promises. `kind`: what
    they are, the folder of their pages and the front matter key that names them."""
    what, folder, key = kind
    slug_of = taxonomy.tag_slug if folder == "tags" else taxonomy.speaker_slug
    first: dict[str, tuple[str, Talk]] = {}  # slug -> the first name and its talk, by date
    told: set[tuple[str, str]] = set()
    problems = []
    for talk in site.talks:
        for name in names(talk):
            slug = slug_of(name)
            if slug not in first and len(slug.encode()) > MAX_NAME:
                problems.append(Diagnostic(
                    talk.source, f"{what} {name[:20]!r}… is too long for an address: the "
                    f"folder of its page, {folder}/<slug>/, would have a name of "
                    f"{len(slug.encode())} bytes, and a file name holds at most {MAX_NAME}",
                    key_line(talk, key), 1, hint=f"use a shorter {what}"))
            known, where = first.setdefault(slug, (name, talk))
            if known == name or _folded(known) == _folded(name) \
                    or (slug, _folded(name)) in told:
                continue
            told.add((slug, _folded(name)))
            problems.append(Diagnostic(
                talk.source, f"{what} {name!r} shares the page {folder}/{slug}/ with "
                f"{known!r} ({display_path(where.source)}:{key_line(where, key)}): they are "
                "listed as one", key_line(talk, key), 1, severity="warning",
                hint="spell them alike, or tell them apart by letters or digits"))
    return problems


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def key_line(talk: Talk, key: str) -> int:
    """The line of a key in a talk's file, read again: only a message needs it."""
    try:
        return split(talk.source.read_text(encoding="utf-8")).line_of(key) or 1
    except (OSError, UnicodeDecodeError, FrontMatterError):
        return 1


def _suffix(name: str) -> str:
    last = name.rsplit("/", 1)[-1]
    return last.rsplit(".", 1)[-1].lower() if "." in last.lstrip(".") else ""


def unpublished(name: str) -> str | None:
    """Why a file of a talk's folder is not published without `unsafe_html`, or None."""
    suffix = _suffix(name)
    if suffix in PASSIVE_SUFFIXES:
        return None
    if suffix in ACTIVE_SUFFIXES:
        return f"a .{suffix} file is {ACTIVE_SUFFIXES[suffix]}"
    if suffix:
        return f".{suffix} is not a type known to be safe to publish"
    return ("a file without a suffix may be sent with no type, and a browser that guesses "
            "may run it as a page")
