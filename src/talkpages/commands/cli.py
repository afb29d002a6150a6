"""The command line: build, check, new, serve, import, init, next-change, announce.

Turns diagnostics into messages on stderr and exit codes: 0 when the site is good,
1 when the input has errors (or warnings, with `check --strict`), 2 for a wrong
command line, 3 for a bug. No traceback reaches the user for bad input; an unexpected
failure prints one line asking for a report, and the traceback only with
TALKPAGES_DEBUG=1. A reader of stdout that goes away (`check --format json | head`)
is no failure of ours: the command ends quietly with 141, the status a shell reports
for tools that SIGPIPE stops (Python ignores that signal, so it is done by hand).
A command started with stdout or stderr closed (`>&-`) writes that stream to /dev/null.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from ..content.options import LoadOptions
from ..diagnostics import Diagnostic, display_path, printable, sort_key
from .arguments import build_time, checked_time, parser
from .console import Console, count_problems, plural

if TYPE_CHECKING:
    from ..content.model import Site

CLOSED_PIPE = 128 + 13  # 128 + SIGPIPE: what `cat` or `grep` give on a closed pipe


def main(argv: Sequence[str] | None = None) -> int:
    _missing_streams()
    args = parser().parse_args(argv)
    if hasattr(args, "now") and (problem := checked_time(args)):
        print(f"talkpages: {printable(problem)}", file=sys.stderr)
        return 2
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "build": _build, "check": _check, "new": _new, "serve": _serve, "import": _import,
        "init": _init, "next-change": _next_change, "announce": _announce}
    try:
        return commands[args.command](args)
    except KeyboardInterrupt:
        print("talkpages: interrupted; nothing was changed", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _closed_pipe()
    except Exception as exc:  # a bug: say so plainly, in one line
        if os.environ.get("TALKPAGES_DEBUG"):
            traceback.print_exc()
        print(f"talkpages: internal error: {type(exc).__name__}: {printable(str(exc))}\n"
              "  hint: this is a bug in talkpages; run again with TALKPAGES_DEBUG=1 and "
              "report the output", file=sys.stderr)
        return 3


def run() -> None:
    """The command: `main`, then out of the process at once. Python would otherwise free
    every object of a large build one by one as it exits, tens of milliseconds for
    nothing; every file talkpages writes is closed by then."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # what was still buffered had no reader left
        code = _closed_pipe()
    with contextlib.suppress(BrokenPipeError):
        sys.stderr.flush()
    os._exit(code)


def _missing_streams() -> None:
    """Started with stdout or stderr closed (`talkpages build >&-`, a service manager
    that gives it none), Python has None for it: what would be printed there goes to
    /dev/null, and the command does its work and ends with its own status."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115


def _closed_pipe() -> int:
    """stdout's reader is gone: what is still buffered goes to /dev/null, so that no
    later flush fails again and prints a traceback over the reader's output."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a file here (a test's capture)
        pass
    return CLOSED_PIPE


def _console(args: argparse.Namespace) -> Console:
    return Console(quiet=getattr(args, "quiet", False), verbose=getattr(args, "verbose", False))


def _options(args: argparse.Namespace, overrides: dict[str, str] | None = None,
             ) -> LoadOptions:
    return LoadOptions(now=build_time(args.now), drafts=args.drafts, future=args.future,
                       overrides=overrides)


def _build(args: argparse.Namespace) -> int:
    from ..engine.cachedir import CacheFolder
    from ..engine.media import MediaCache
    from ..engine.pipeline import BuildRequest, DiskSink, run

    console = _console(args)
    args.source = Path(os.path.abspath(args.source))
    overrides = {"base_url": args.base_url} if args.base_url else None
    out_dir = args.output or args.source / "public"
    options = _options(args, overrides)
    folder = CacheFolder.open(args.source)  # None where the site folder is read-only
    media = MediaCache(None if folder is None else folder.path / "media")
    sink = DiskSink(out_dir)
    try:
        with console.progress(lambda: f"Building: {plural(sink.made, 'file')}"):
            result = run(BuildRequest(args.source, options, media), sink)
    finally:
        media.close()
        if folder is not None:
            folder.close()
    console.diagnostics(result.diagnostics)
    if not result.ok:
        console.error(f"talkpages: build failed with {count_problems(result.diagnostics)}; "
                      "nothing was written")
        return 1
    if result.site is not None:
        _sequences(console, result.site)
    if result.written is not None:
        _summary(console, *result.counts, result.written.paths, result.seconds, out_dir)
    return 0


def _sequences(console: Console, site: Site) -> None:
    """sequence.lock updated after a build that succeeded (engine/lockfile.py)."""
    from ..engine.lockfile import record

    written, problem = record(site)
    if problem is not None:
        console.diagnostics([problem])
    elif written:
        console.info("Updated sequence.lock: commit it with the site")


def _summary(console: Console, upcoming: int, past: int, paths: list[str],
             seconds: float, out_dir: Path) -> None:
    """A short table, as Hugo prints: what was built, then the time it took."""
    if console.quiet:
        return
    kinds = Counter("pages" if p.endswith(".html") else "calendar files"
                    if p.endswith(".ics") else "other files" for p in paths)
    rows = [("Talks", upcoming + past, f"{upcoming} upcoming, {past} past"),
            ("Pages", kinds["pages"], ""), ("Calendar files", kinds["calendar files"], ""),
            ("Other files", kinds["other files"], "feeds, sitemap, bundle files, assets")]
    width = max(len(str(count)) for _, count, _ in rows)
    for label, count, note in rows:
        console.info(f"  {label:<15}{count:>{width}}" + (f"  {note}" if note else ""))
    if console.verbose:
        folders = Counter(p.split("/", 1)[0] + "/" if "/" in p else "(root)" for p in paths)
        for folder, count in sorted(folders.items(), key=lambda item: (-item[1], item[0]))[:12]:
            console.detail(f"    {folder:<30} {count} files")
    talks = upcoming + past
    console.info(f"Built {plural(talks, 'talk')} in {seconds * 1000:.0f} ms -> "
                 f"{display_path(out_dir)}")


def _check(args: argparse.Namespace) -> int:
    from ..content.lint import lint_site
    from ..engine.cachedir import media_folder
    from ..engine.media import MediaCache
    from ..engine.pipeline import BuildRequest, MemorySink, run
    from ..output.outputs import check_outputs

    console = Console()
    media = MediaCache(media_folder(args.source) if args.source.is_dir() else None)
    overrides = {"base_url": args.base_url} if args.base_url else None
    try:
        result = run(BuildRequest(args.source, _options(args, overrides), media),
                     MemorySink(workers=True))
    finally:
        media.close()
    diagnostics = list(result.diagnostics)
    if result.ok and result.site is not None:
        diagnostics += check_outputs(result.outputs) + lint_site(result.site)
    errors = sum(d.is_error for d in diagnostics)
    warnings = sum(d.severity == "warning" for d in diagnostics)  # notes never fail
    failed = bool(errors) or (args.strict and bool(warnings))
    talks = len(result.site.talks) if result.site else 0
    if args.format == "json":
        print(json.dumps(_check_json(diagnostics, talks, args.strict, failed), indent=2,
                         ensure_ascii=False))
        return 1 if failed else 0
    if args.format == "github":  # on the files of a pull request, and in the job's log
        for diagnostic in sorted(diagnostics, key=sort_key):
            print(diagnostic.to_github())
    else:
        console.diagnostics(diagnostics, grouped=True)
    if errors:
        console.error(f"talkpages: {count_problems(diagnostics)}")
    elif failed:
        console.error(f"talkpages: {plural(warnings, 'warning')}, and --strict fails on "
                      "warnings")
    else:
        console.info(f"{talks} talks checked: no errors"
                     + (f", {plural(warnings, 'warning')}" if warnings else "")
                     + (f", {plural(notes, 'note')}" if (notes := sum(
                         d.severity == "note" for d in diagnostics)) else ""))
    return 1 if failed else 0


def _check_json(diagnostics: list[Diagnostic], talks: int, strict: bool,
                failed: bool) -> dict[str, Any]:
    files: dict[str | None, list[Diagnostic]] = {}
    for diagnostic in sorted(diagnostics, key=sort_key):
        key = display_path(diagnostic.path) if diagnostic.path else None
        files.setdefault(key, []).append(diagnostic)
    errors = sum(d.is_error for d in diagnostics)
    return {
        "ok": not failed, "strict": strict, "talks": talks, "errors": errors,
        "warnings": sum(d.severity == "warning" for d in diagnostics),
        "notes": sum(d.severity == "note" for d in diagnostics),
        "files": [{"path": path, "errors": sum(d.is_error for d in items),
                   "warnings": sum(d.severity == "warning" for d in items),
                   "notes": sum(d.severity == "note" for d in items),
                   "diagnostics": [d.to_json() for d in items]}
                  for path, items in files.items()],
    }


def _new(args: argparse.Namespace) -> int:
    from ..content.config import load_config
    from .scaffold import NewTalk, NewTalkError, create, interactive, prompt

    console = Console()
    if args.source.exists() and not args.source.is_dir():
        console.diagnostics([_not_a_folder(args.source)])
        console.error("talkpages: nothing was written")
        return 1
    config, problems = load_config(args.source)
    if any(p.is_error for p in problems):
        console.diagnostics(problems)
        console.error("talkpages: fix the site config first; nothing was written")
        return 1
    values: dict[str, Any] = {"title": (args.title or "").strip(), "start": args.date,
                              "end": args.end, "timezone": args.timezone or "",
                              "event": args.event, "location": args.location}
    if interactive() and (not values["title"] or values["start"] is None):
        try:
            prompt(values, config, input, console.info)
        except EOFError:
            console.error("\ntalkpages: no answer; nothing was written")
            return 1
    if not values["title"]:
        console.error('talkpages new: a title is needed: talkpages new "My talk" '
                      "--date 2019-05-22T14:50")
        return 2
    if values["start"] is None:
        today = datetime.now(ZoneInfo(config.timezone)).date()
        values["start"] = today
        console.info(f"No --date: the talk is on {today.isoformat()}, today; edit `date` in "
                     "the file")
    talk = NewTalk(title=values["title"], start=values["start"], end=values["end"],
                   timezone=values["timezone"], event=values["event"],
                   event_url=args.event_url, location=values["location"],
                   authors=args.author or ([config.author] if config.author else []),
                   slug=args.slug or "", bundle=args.bundle)
    try:
        path = create(args.source, talk, config)
    except NewTalkError as exc:
        console.diagnostics(exc.diagnostics)
        console.error(f"talkpages: {exc.message}", exc.hint)
        return 1
    except OSError as exc:  # a read-only or full disk, a file where a folder should be
        where = f": {exc.filename}" if exc.filename else ""
        console.error(f"talkpages: cannot write the new talk: {exc.strerror or exc}{where}; "
                      "it was not written")
        return 1
    console.info(f"Created {display_path(path)}")
    console.info("Next: fill it in and see it with `talkpages serve --drafts`; it is a "
                 "draft until you remove `draft = true`.")
    return 0


def _not_a_folder(path: Path) -> Diagnostic:
    return Diagnostic(path, "the site folder is a file, not a folder",
                      hint="-s takes the folder that holds talks/ (made if it does not exist)")


def _init(args: argparse.Namespace) -> int:
    from .init import run as init

    return init(args)


def _next_change(args: argparse.Namespace) -> int:
    from .nextchange import run as next_change

    return next_change(args)


def _announce(args: argparse.Namespace) -> int:
    from .announce import run as announce

    return announce(args)


def _serve(args: argparse.Namespace) -> int:
    from .serve import DevServer

    now = build_time(args.now)  # one time for the session: unchanged pages stay reusable
    server = DevServer(args.source, bind=args.bind, port=args.port, now=lambda: now,
                       drafts=args.drafts, future=args.future, console=_console(args))
    return server.run()


def _import(args: argparse.Namespace) -> int:
    from .importers import import_site
    from .importers.report import ImportOptions, summary

    console = _console(args)
    if args.source.exists() and not args.source.is_dir():
        console.diagnostics([_not_a_folder(args.source)])
        console.error("talkpages: nothing was imported")
        return 1
    options = ImportOptions(timezone=args.timezone, assume_local_z=args.assume_local_z,
                            unsafe_html=args.unsafe_html, replace=args.replace,
                            apply_suggested_zones=args.apply_suggested_zones)
    report = import_site(args.kind, args.path, args.source, options)
    console.diagnostics(report.problems, grouped=True)
    for path in report.written:
        console.detail(f"  wrote {display_path(path)}")
    if report.found:
        talks_dir = display_path(args.source / "talks")
        parts = [f"Imported {plural(len(report.written), 'talk')} from "
                 f"{display_path(args.path)} into {talks_dir}"]
        if report.copied:
            parts.append(f"{plural(report.copied, 'bundle file')} copied")
        if report.unchanged:
            parts.append(f"{len(report.unchanged)} imported before, left as they are")
        console.info("; ".join(parts))
        if report.config_note:
            console.info(report.config_note)
        for line in summary(report):
            console.info(line)
    if report.failed:
        console.error(f"talkpages: {plural(len(report.failed), 'file')} not imported; "
                      "see the messages above")
    return 0 if report.ok else 1
