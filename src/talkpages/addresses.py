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
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from . import taxonomy
from .diagnostics import Diagnostic, display_path
from .frontmatter import FrontMatterError, split
from .model import Site, Talk

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


def check_site(site: Site) -> list[Diagnostic]:
    """Every problem of where the site's outputs would go."""
    problems: list[Diagnostic] = []
    for talk in site.talks:
        if not site.config.unsafe_html:
            problems += [_refused(talk, name) for name in talk.bundle_files
                         if _suffix(name) not in PASSIVE_SUFFIXES]
    problems += _shared_slugs(site, ("tag", "tags", "tags"), lambda talk: talk.tags)
    problems += _shared_slugs(site, ("speaker", "speakers", "authors"), lambda talk: [
        taxonomy.speaker_name(site, author) for author in talk.authors])
    return problems


def _shared_slugs(site: Site, kind: tuple[str, str, str],
                  names: Callable[[Talk], Iterable[str]]) -> list[Diagnostic]:
    """Names that are not one name but share a page (`R&D`, `R D`): listed as one, said.
    Names that differ only in case are one name, as the README promises. `kind`: what
    they are, the folder of their pages and the front matter key that names them."""
    what, folder, key = kind
    slug_of = taxonomy.tag_slug if folder == "tags" else taxonomy.speaker_slug
    first: dict[str, tuple[str, Talk]] = {}  # slug -> the first name and its talk, by date
    told: set[tuple[str, str]] = set()
    warnings = []
    for talk in site.talks:
        for name in names(talk):
            slug = slug_of(name)
            known, where = first.setdefault(slug, (name, talk))
            if _folded(known) == _folded(name) or (slug, _folded(name)) in told:
                continue
            told.add((slug, _folded(name)))
            warnings.append(Diagnostic(
                talk.source, f"{what} {name!r} shares the page {folder}/{slug}/ with "
                f"{known!r} ({display_path(where.source)}:{_line(where, key)}): they are "
                "listed as one", _line(talk, key), 1, severity="warning",
                hint="spell them alike, or tell them apart by letters or digits"))
    return warnings


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _line(talk: Talk, key: str) -> int:
    """The line of a key in a talk's file, read again: only a message needs it."""
    try:
        return split(talk.source.read_text(encoding="utf-8")).line_of(key) or 1
    except (OSError, UnicodeDecodeError, FrontMatterError):
        return 1


def _suffix(name: str) -> str:
    last = name.rsplit("/", 1)[-1]
    return last.rsplit(".", 1)[-1].lower() if "." in last.lstrip(".") else ""


def _refused(talk: Talk, name: str) -> Diagnostic:
    suffix = _suffix(name)
    if suffix in ACTIVE_SUFFIXES:
        why = f"a .{suffix} file is {ACTIVE_SUFFIXES[suffix]}"
    elif suffix:
        why = f".{suffix} is not a type known to be safe to publish"
    else:
        why = ("a file without a suffix may be sent with no type, and a browser that "
               "guesses may run it as a page")
    return Diagnostic(talk.source.parent / name,
                      f"not published from the talk's folder: {why}", hint=UNSAFE_HINT)
