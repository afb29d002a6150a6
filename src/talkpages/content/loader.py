"""Find the talk files of a site, turn each into a Talk, and check them together.

Every problem of every file is gathered; nothing stops at the first one. The result
is either a Site, or the full list of problems to show.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from stat import S_ISDIR, S_ISLNK, S_ISREG

from ..diagnostics import Diagnostic, has_errors
from ..parallel import render_all
from . import addresses, links
from .addresses import RESERVED_SLUGS as RESERVED_SLUGS  # re-exported
from .config import MAX_NESTING, Config, load_config, nesting
from .fields import make_talk
from .frontmatter import FrontMatter, FrontMatterError, split
from .imagefiles import check_images
from .languages import file_language
from .messages import messages_of
from .model import Site, Talk, slugify
from .options import LoadOptions as LoadOptions  # re-exported: the loader's options
from .sequencelock import current, read_lock, sequenced
from .speakers import load_speakers

TALKS_DIR = "talks"
STATIC_DIR = "static"  # the site's own files, copied to the root of the published site
BUNDLE_INDEX = "index.md"
MAX_FILE_BYTES = 8 * 1024 * 1024
NOT_A_FILE = ("this is not a regular file (a pipe, a socket or a device): a talk is read "
              "only from a file")
NOT_A_FILE_HINT = "remove it, or put the talk in a plain file of that name"


TalkResult = tuple[Talk | None, list[Diagnostic]]


def load_site(site_dir: Path, options: LoadOptions, workers: bool = True,
              ) -> tuple[Site | None, list[Diagnostic]]:
    """The site, or every problem found in it. `workers`: a large site's talk files may
    be read in forked processes (not from a process with threads of its own)."""
    if not site_dir.is_dir():
        return None, [Diagnostic(site_dir, "the site folder does not exist or is not a folder",
                                 hint="pass the folder that holds talks/ with -s")]
    config, problems = load_config(site_dir, options.overrides)
    speakers, found = load_speakers(site_dir)
    problems += found
    root = links.real(site_dir)
    for theme in ("layouts", "assets", STATIC_DIR):  # the site's own theme and files
        links.check_tree(site_dir / theme, root, problems)
    talks_dir = site_dir / TALKS_DIR
    outside = links.check(talks_dir, site_dir)
    if outside is not None:
        return None, [*problems, outside]
    if not talks_dir.is_dir():
        problems.append(Diagnostic(talks_dir, "the site has no talks/ folder",
                                   hint="create talks/ and add a file such as talks/my-talk.md"))
        return None, problems
    talks: list[Talk] = []
    files = find_talk_files(talks_dir, problems, root,
                            tuple(lang.tag.lower() for lang in config.languages))
    results = _load_all(files, config, workers)
    for talk, found in results:
        problems += found
        if talk is not None and published(talk, options):
            talks.append(talk)
    problems += check_slugs(talks) + check_folders(talks, config)
    talks.sort(key=lambda t: (t.sort_key, t.written_in))
    locked, found = read_lock(site_dir)
    problems += found
    entries = current(config, talks, locked)  # worked out once: for the feeds, the lock
    site = Site(root=site_dir, config=config,
                talks=tuple(sequenced(config, talks, locked, entries)), now=options.now,
                speakers=speakers, messages=messages_of(config), locked=locked,
                sequences=entries)
    problems += addresses.check_site(site)
    if has_errors(problems):
        return None, problems
    return site, problems


def _load_all(files: list[tuple[Path, str, tuple[str, ...]]], config: Config,
              workers: bool) -> list[TalkResult]:
    """The talk of every file, read on every core for many. A worker's talks travel
    back a range at a time, in one pickle (its field names and modules written once,
    not once a talk), and are unpickled by the pool's own thread while the workers read
    on."""
    def load(job: tuple[Path, str, tuple[str, ...]]) -> TalkResult:
        path, slug, bundle_files = job
        return load_talk(path, slug, config, bundle_files, True)
    return list(render_all(load, files, workers))


def find_talk_files(talks_dir: Path, problems: list[Diagnostic], root: str | None = None,
                    languages: tuple[str, ...] = (),
                    ) -> list[tuple[Path, str, tuple[str, ...]]]:
    """(path, default slug, bundle files) for `talks/*.md` and `talks/<slug>/index.md`,
    and a bundle's translations, `index.<tag>.md` for each tag of `languages` (lower
    case). Links are followed while they stay inside the site, whose real path is `root`
    (by default the folder holding `talks_dir`): see links.py."""
    root = root or links.real(talks_dir.parent)
    here = links.real(talks_dir)
    found = []
    try:
        with os.scandir(talks_dir) as listing:  # file types without a stat() each
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        problems.append(Diagnostic(talks_dir, f"cannot list the talks folder: {exc.strerror}"))
        return []
    for entry in entries:
        if entry.name.startswith((".", "_")):
            continue
        path = talks_dir / entry.name
        target: str | None = os.path.join(here, entry.name)
        linked = entry.is_symlink()
        if linked:
            target, problem = links.follow(path, root)
            if problem is not None:
                problems.append(problem)
                continue
        assert target is not None
        if os.path.isdir(target) if linked else entry.is_dir(follow_symlinks=False):
            files = links.walk(path, target, root, problems, BUNDLE_INDEX)
            versions = [name for name in files if name.lower() in {
                f"index.{tag}.md" for tag in languages}]
            shared = tuple(name for name in files if name not in versions)
            found += [(index, slugify(entry.name), shared)
                      for index in [path / BUNDLE_INDEX, *(path / v for v in versions)]
                      if _is_index(index, root, problems)]
        elif entry.name.lower().endswith(".md"):
            if os.path.isfile(target) if linked else entry.is_file(follow_symlinks=False):
                found.append((path, slugify(path.stem), ()))
            else:  # reading a pipe waits for a writer forever: never opened
                problems.append(Diagnostic(path, NOT_A_FILE, hint=NOT_A_FILE_HINT))
    return found


def _is_index(index: Path, root: str, problems: list[Diagnostic]) -> bool:
    """Is there a bundle's index.md (a link to one inside the site counts)? One that
    is not a file (a pipe, a socket, a device, a folder) is a problem, not a talk."""
    try:
        mode = os.lstat(index).st_mode
    except OSError:
        return False
    if S_ISLNK(mode):
        target, problem = links.follow(index, root)
        if problem is not None:
            problems.append(problem)
            return False
        try:
            mode = os.stat(target or index).st_mode
        except OSError:
            return False
    if not S_ISREG(mode):
        problems.append(Diagnostic(index, "this is a folder, not a talk file" if S_ISDIR(mode)
                                   else NOT_A_FILE, hint=NOT_A_FILE_HINT))
    return S_ISREG(mode)


def load_talk(path: Path, slug: str, config: Config, bundle_files: tuple[str, ...] = (),
              through_links: bool = False) -> TalkResult:
    """The Talk of one file, or its problems.

    `through_links`: the caller found the file by `find_talk_files`, which follows a
    link only inside the site. Any other caller (`new`, `import`) is refused a file
    reached through a link, the link to the file or to its bundle's folder, so no other
    way reads a file from outside the site."""
    try:
        if not through_links and (os.path.islink(path) or (
                path.name == BUNDLE_INDEX and os.path.islink(path.parent))):
            return None, [Diagnostic(path, "the talk file is reached through a link, which "
                                     "only a build of the whole site follows")]
        stat, raw, problem = _read(path)
        if problem is not None:
            return None, [problem]
    except OSError as exc:
        return None, [Diagnostic(path, f"cannot read the file: {exc.strerror or exc}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Diagnostic(path, "the file is not UTF-8 text", line, column,
                                 hint="save it as UTF-8 in your editor")]
    try:
        fm = split(text)
    except FrontMatterError as exc:
        return None, [Diagnostic(path, exc.message, exc.line, exc.column, hint=exc.hint)]
    deep = [key for key, value in fm.data.items() if nesting(value) > MAX_NESTING]
    if deep:  # each page and the feed would walk it by recursion
        return None, [Diagnostic(path, f"front matter key {key!r}: tables or lists nest more "
                                 f"than {MAX_NESTING} deep", _line_of(fm, key)) for key in deep]
    modified = datetime.fromtimestamp(int(stat.st_mtime), timezone.utc)
    base, written_in = file_language(path.name[:-3], config)  # `my-talk.de.md`: German
    if base != path.name[:-3] and base.lower() != "index":
        slug = slugify(base)
    talk, problems = make_talk(fm, path, slug, config, bundle_files, modified, written_in)
    damaged = check_images(path.parent, bundle_files)  # each read through before published
    return (None if has_errors(damaged) else talk), problems + damaged


def _line_of(fm: FrontMatter, key: str) -> int:
    """The line of `key`, or of the first dotted key below it (`a.b.c = 1`)."""
    below = (line for name, line in fm.key_lines.items() if name.startswith(key.lower() + "."))
    return fm.line_of(key) or min(below, default=1)


def _read(path: Path) -> tuple[os.stat_result, bytes, Diagnostic | None]:
    """The file's status and bytes, or why it is not read. It is opened without waiting
    (a pipe that took the file's place would block the read until a writer came, a
    device never end it) and its kind asked of the open file, then read to its size."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError:  # a socket cannot be opened at all
        if not os.path.exists(path) or os.path.isfile(path):
            raise
        return os.stat(path), b"", Diagnostic(path, NOT_A_FILE, hint=NOT_A_FILE_HINT)
    try:
        stat = os.fstat(descriptor)
        if not S_ISREG(stat.st_mode):
            return stat, b"", Diagnostic(path, NOT_A_FILE, hint=NOT_A_FILE_HINT)
        if stat.st_size > MAX_FILE_BYTES:
            return stat, b"", Diagnostic(path, f"the file is too large ({stat.st_size // 1024} "
                                         "KiB); a talk file is text of a few KiB", 1, 1)
        with os.fdopen(os.dup(descriptor), "rb") as file:
            return stat, file.read(MAX_FILE_BYTES + 1), None
    finally:
        os.close(descriptor)


def published(talk: Talk, options: LoadOptions) -> bool:
    """Is the talk on the site: not a draft (unless drafts are asked for), and its
    `publishDate` passed (unless talks to come are)."""
    if talk.draft and not options.drafts:
        return False
    future = talk.publish_date is not None and talk.publish_date > options.now
    return options.future or not future


def check_folders(talks: list[Talk], config: Config) -> list[Diagnostic]:
    """A talk at the root whose address is a language's folder (`de/`) would be
    written over by that language's tree."""
    folders = {lang.folder[:-1] for lang in config.languages}
    return [Diagnostic(talk.source, f"the slug {talk.slug!r} is the folder of the site's "
                       f"language {talk.slug!r}", addresses.key_line(talk, "slug"), 1,
                       hint='give the talk another `slug = "…"`')
            for talk in talks if talk.slug.lower() in folders]


def check_slugs(talks: list[Talk]) -> list[Diagnostic]:
    """Every talk has a usable slug, one no other talk of its language has."""
    problems = []
    seen: dict[tuple[str, str], Talk] = {}
    for talk in sorted(talks, key=lambda t: str(t.source)):
        key = (talk.slug.lower(), talk.written_in.lower())
        if not talk.slug:
            problems.append(Diagnostic(talk.source, "the talk has no usable slug", 1, 1,
                                       hint='add `slug = "my-talk"`'))
        elif (problem := addresses.slug_problem(talk.slug)) is not None:
            problems.append(Diagnostic(talk.source, problem[0],
                                       addresses.key_line(talk, "slug"), 1, hint=problem[1]))
        elif key in seen:
            other = seen[key]
            problems.append(Diagnostic(
                talk.source, f"two talks have the slug {talk.slug!r}: this one and "
                f"{other.source}", 1, 1, hint='give one of them another `slug = "…"`'))
        else:
            seen[key] = talk
    return problems
