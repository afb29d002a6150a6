"""`talkpages next-change`: when the built site next changes by itself, and whether it
has since a given time (content/changes.py says which instants those are).

Without `--since`, it prints the instant in UTC (`2030-05-22T12:50:00Z`) or `never`
on stdout, and what happens then on stderr. With `--since T`, it answers a scheduled
job: exit 0 when the site changed by itself in (T, now], and a rebuild is due; 1 when
it did not. As grep does, it keeps 1 for that answer: a site with errors is 2 there
(otherwise 1, as for every command).

The site is read as the build reads it (drafts with `--drafts`), and with the talks
whose `publishDate` is still to come, which a build leaves out: their publishing dates
are changes. Only when a talk to come has errors of its own is the site read without
them, and their dates are not known.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..content.changes import Change, changes_between, first_change
from ..content.loader import LoadOptions, load_site
from ..diagnostics import display_path, has_errors, printable
from .arguments import build_time
from .console import Console

SHOWN = 10  # changes listed by --since; the rest are counted


def utc_text(moment: datetime) -> str:
    """An instant as ISO 8601 in UTC: 2030-05-22T12:50:00Z."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def describe(change: Change, root: Path) -> str:
    """`talks/a.md: 'Title' ends`, the file named from the site folder."""
    talk = change.talk
    which = f" (its date {change.occurrence + 1})" if talk.recurrence is not None else ""
    try:
        where = printable(talk.source.relative_to(root).as_posix())
    except ValueError:
        where = display_path(talk.source)
    return f"{where}: {printable(talk.title)!r}{which} {change.what}"


def run(args: argparse.Namespace) -> int:
    console = Console()
    now = build_time(args.now)
    since = None if args.since is None else build_time(args.since)
    failed = 2 if since is not None else 1
    if since is not None and since > now:
        console.error(f"talkpages: --since {utc_text(since)} is after the build time "
                      f"{utc_text(now)}")
        return 2
    every = LoadOptions(now=now, drafts=args.drafts, future=True)
    site, problems = load_site(args.source, every)
    if site is None and not args.future:  # only the talks to come may be at fault
        site, found = load_site(args.source, LoadOptions(now, args.drafts, args.future))
        if site is not None:
            console.diagnostics(problems)
            console.error("talkpages: talks still to be published have errors; their "
                          "publishing dates are not counted")
            problems = found
        else:
            problems = found
    if site is None or has_errors(problems):
        console.diagnostics(problems)
        console.error("talkpages: the site has errors; it cannot be built")
        return failed
    if since is None:
        change = first_change(site.talks, now, args.future)
        print(utc_text(change.at) if change else "never")
        if change is not None:
            print(describe(change, site.root), file=sys.stderr)
        return 0
    changes = changes_between(site.talks, since, now, args.future)
    if not changes:
        upcoming = first_change(site.talks, now, args.future)
        print(f"No change since {utc_text(since)}: the site built then is the site now.")
        print(f"Next change: {utc_text(upcoming.at)}, {describe(upcoming, site.root)}" if upcoming
              else "Next change: never")
        return 1
    print(f"The site changed by itself since {utc_text(since)}: rebuild it.")
    for change in changes[:SHOWN]:
        print(f"  {utc_text(change.at)}  {describe(change, site.root)}")
    if len(changes) > SHOWN:
        print(f"  … and {len(changes) - SHOWN} more")
    return 0
