"""`talkpages announce`: the e-mail that announces a talk, the week's digest, or a post
for Mastodon or Bluesky, printed on stdout; the HTML part and a whole message (.eml,
with the talk's .ics) written to files on request.

The site is read and planned as a build does it (engine/pipeline.prepare), in its
first language (or the one `--language` names): the texts come from its templates
(output/announce.py), the calendar file from the recipe that publishes it. A
cancelled talk is announced as cancelled (its subject and text say so, its .ics has
STATUS:CANCELLED): that is the message its audience needs. A file is written only
where none is, unless `--replace` says so; never through a link (safefile.py).
"""

from __future__ import annotations

import argparse
import difflib
import os
import secrets
from email.utils import parseaddr
from pathlib import Path

from ..content.languages import Tree
from ..content.loader import LoadOptions
from ..content.model import Site, Talk
from ..diagnostics import BuildError, display_path, printable
from ..engine.pipeline import BuildRequest, prepare
from ..output import announce
from ..output.plan import Recipe
from ..output.render import Maker
from . import safefile
from .arguments import build_time
from .console import Console


def _usage(args: argparse.Namespace) -> str:
    """What is wrong with the command line, if anything (exit 2)."""
    if bool(args.slug) == bool(args.week):
        return "name one talk (SLUG) or --week"
    if args.post and args.week:
        return "--post announces one talk, not --week"
    if args.post and (args.html or args.eml):
        return "--post prints a post; --html and --eml write an e-mail"
    for address in filter(None, [args.sender, *args.to]):
        if "@" not in parseaddr(address)[1] or any(c in address for c in "\r\n"):
            return f"{printable(address)!r} is not an e-mail address such as " \
                "'Seminar <seminar@example.org>'"
    return ""


def run(args: argparse.Namespace) -> int:
    console = Console()
    problem = _usage(args)
    if problem:
        console.error(f"talkpages announce: {problem}")
        return 2
    now = build_time(args.now)
    overrides = {"base_url": args.base_url} if args.base_url else None
    options = LoadOptions(now=now, drafts=args.drafts, future=args.future,
                          overrides=overrides)
    diagnostics, made = prepare(BuildRequest(args.source, options))
    if not made:
        console.diagnostics(diagnostics)
        console.error("talkpages: the site has errors; nothing was announced")
        return 1
    chosen = _tree(made, args.language, console)
    if chosen is None:
        return 1
    tree, maker, recipes = chosen
    site, env = tree.site, maker.theme.env
    attachment = None
    try:
        if args.week:
            mail = announce.digest(env, site, now)
        else:
            talk = _talk(site, args.slug, console)
            if talk is None:
                return 1
            if not talk.is_upcoming(now):
                console.error(f"talkpages: note: {printable(talk.title)!r} is over")
            if args.post:
                print(announce.post(env, site, talk, args.post))
                return 0
            mail = announce.announcement(env, site, talk)
            attachment = announce.calendar_file(maker, recipes, talk)
    except BuildError as exc:
        console.diagnostics(exc.diagnostics)
        console.error("talkpages: the announcement could not be made")
        return 1
    print(mail.text, end="")
    written = [(args.html, mail.html.encode("utf-8")),
               (args.eml, announce.message(mail, attachment, args.sender, args.to))]
    for path, data in written:
        if path is not None and not _write(path, data, args.replace, console):
            return 1
    return 0


def _tree(made: list[tuple[Tree, Maker, list[Recipe]]], language: str | None,
          console: Console) -> tuple[Tree, Maker, list[Recipe]] | None:
    """The tree of `language` (the site's first without one), else None, said."""
    if not language:
        return made[0]
    for found in made:
        if found[0].language.tag.lower() == language.lower():
            return found
    tags = ", ".join(tree.language.tag for tree, _, _ in made)
    console.error(f"talkpages: the site is not in the language {printable(language)!r}",
                  f"its languages: {tags}")
    return None


def _talk(site: Site, slug: str, console: Console) -> Talk | None:
    """The talk of `slug`, else None, with the slugs near it said."""
    wanted = slug.strip().strip("/").lower()
    for talk in site.talks:
        if talk.slug.lower() == wanted:
            return talk
    slugs = [talk.slug for talk in site.talks]
    near = difflib.get_close_matches(wanted, slugs, n=3, cutoff=0.5)
    near += [s for s in slugs if wanted and wanted in s.lower() and s not in near][:3]
    console.error(f"talkpages: no talk has the slug {printable(slug)!r}",
                  f"did you mean {', '.join(map(repr, near[:3]))}?" if near
                  else "the slug is the talk's address: talks/<slug>.md, or its `slug`")
    return None


def _write(path: Path, data: bytes, replace: bool, console: Console) -> bool:
    """`data` into a new file at `path`; over the file there with `replace`."""
    path = Path(os.path.abspath(path))
    try:
        if not replace:
            safefile.create_new(path.parent, path, data)
        else:
            temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
            safefile.create_new(path.parent, temporary, data)
            try:
                os.replace(temporary, path)  # a link there is replaced, never followed
            except OSError:
                temporary.unlink(missing_ok=True)
                raise
    except FileExistsError:
        console.error(f"talkpages: {display_path(path)} exists; nothing was written over it",
                      "--replace writes over it")
        return False
    except safefile.Refused as exc:
        console.diagnostics([exc.diagnostic()])
        return False
    except OSError as exc:
        console.error(f"talkpages: cannot write {display_path(path)}: {exc.strerror or exc}")
        return False
    return True
