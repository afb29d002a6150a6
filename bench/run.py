#!/usr/bin/env python3
"""Benchmark of `talkpages build`, side by side with Hugo in one run.

    .venv/bin/python bench/run.py            # 10,000 talks, median of 3 (a few minutes)
    .venv/bin/python bench/run.py --quick    # 1,000 talks: a smoke run
    .venv/bin/python bench/run.py --big      # also the 100,000-talk full build
    .venv/bin/python bench/run.py --against /tmp/older/src   # and another version, in turn

Measured at 10,000 talks, with Hugo's build of the same files in the same run: a first
build with the defaults (social cards for the upcoming talks), a build with the media
cache kept (CI that restores `.talkpages-cache/`), a first build with
`social_cards = "none"` (what Hugo's site makes: no images), the same on one worker,
and the share of the build's CPU that its first process spends itself.

Every build is a separate process, `sys.executable -m talkpages build … --now
2026-11-21T00:00:00Z --future -q`, timed from start to exit (interpreter start
included). Memory: the peak of the summed RSS of the process and all its
descendants (sampled from /proc every ~10 ms), and ru_maxrss of the largest single
process (from wait4). Stdlib only. See bench/README.md.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "bench"
NOW = "2026-11-21T00:00:00Z"
PAGE = os.sysconf("SC_PAGE_SIZE")
MiB = 1024 * 1024


def say(text: str = "") -> None:
    print(text, flush=True)


# ---------------------------------------------------------------- measuring a process tree

def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)  # cheaper than open(): this runs every few ms
    try:
        return os.read(fd, 1024)
    finally:
        os.close(fd)


def descendants(root: int) -> list[int]:
    """`root` and every process below it, from the ppids in /proc/*/stat (this kernel may
    lack /proc/PID/task/TID/children)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = _read(f"/proc/{name}/stat")
            except OSError:
                continue
            ppid = int(stat[stat.rindex(b")") + 2:].split()[1])  # after "pid (comm) state"
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def rss(pid: int) -> int:
    try:
        return int(_read(f"/proc/{pid}/statm").split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0  # gone, or a zombie


def pss(pid: int) -> int:
    """Proportional set size: a page shared by n processes (forked workers share the
    parent's memory) counts 1/n in each, so a tree's sum is what it really takes."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return 0


class Run:
    def __init__(self, wall: float, cpu: float, peak_tree: int, max_proc: int,
                 peak_pss: int, own_cpu: float = 0.0, system: float = 0.0) -> None:
        self.wall, self.cpu, self.peak_tree, self.max_proc = wall, cpu, peak_tree, max_proc
        self.system = system  # the part of `cpu` spent in the kernel (files written)
        self.user = cpu - system
        self.peak_pss = peak_pss
        self.own_cpu = own_cpu  # of the build's first process alone, not its workers


TICK = os.sysconf("SC_CLK_TCK")


def own_cpu(pid: int) -> float:
    """User and system time of the process itself, without its children (/proc stat)."""
    try:
        fields = _read(f"/proc/{pid}/stat")
        fields = fields[fields.rindex(b")") + 2:].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    except (OSError, IndexError, ValueError):
        return 0.0


class BuildFailed(Exception):
    pass


# Each build is started by a fresh, tiny interpreter rather than by this process: Linux
# counts the RSS of the process that forks (its high-water mark, with vfork) in the
# child's ru_maxrss, and this process grows (file lists, comparisons) while a bare
# `python -I -S` stays near 10 MB, below any build. The launcher times the build from
# spawn to exit and reports wait4's rusage: CPU and ru_maxrss of the child and of the
# descendants it waited for (Linux keeps the largest single peak, not a sum).
LAUNCHER = r"""
import json, os, sys, time
cmd, log = json.loads(sys.argv[1]), sys.argv[2]
out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
null = os.open(os.devnull, os.O_RDONLY)
start = time.perf_counter()
pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[
    (os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)])
print(pid, flush=True)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
print(json.dumps([wall, os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime,
                  ru.ru_maxrss * 1024, ru.ru_stime]), flush=True)
"""


def measure(cmd: list[str], log: Path, interval: float = 0.01,
            env: dict[str, str] | None = None) -> Run:
    """Run `cmd` to completion: wall time, CPU of the tree, peak tree RSS, largest process.
    `env`: variables set for it (the version of talkpages it runs)."""
    launcher = subprocess.Popen([sys.executable, "-I", "-S", "-c", LAUNCHER, json.dumps(cmd),
                                 str(log)], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                env={**os.environ, **(env or {})})
    assert launcher.stdout is not None
    line = launcher.stdout.readline()
    if not line.strip():  # the command could not be started; the launcher printed why
        launcher.wait()
        raise BuildFailed(f"could not start: {' '.join(cmd)}")
    pid = int(line)
    peak = single = proportional = 0
    itself = 0.0
    stop = threading.Event()

    def sample() -> None:
        # RSS of the known tree every `interval`; the tree itself (a scan of all of
        # /proc, ~1 ms) every 5th time. PSS less often: reading it walks the page tables
        # (40 ms for a process of 1.5 GiB), and a sampler reading it every 20 ms would
        # take a core from the build it measures, the more so the larger the build. A
        # round of PSS costing c seconds waits 20 c before the next one (5% of a core).
        nonlocal peak, single, proportional, itself
        tick, pids, next_pss = 0, [pid], 0.0
        while not stop.is_set():
            itself = max(itself, own_cpu(pid))  # the last reading before it exits
            if tick % 5 == 0:
                pids = descendants(pid)
            sizes = [rss(p) for p in pids]
            peak, single = max(peak, sum(sizes)), max(single, *sizes)
            now = time.perf_counter()
            if now >= next_pss:
                proportional = max(proportional, sum(pss(p) for p in pids))
                cost = time.perf_counter() - now
                next_pss = now + max(2 * interval, 20 * cost)
            tick += 1
            stop.wait(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    wall, status, cpu, maxrss, system = json.loads(launcher.stdout.readline())
    launcher.wait()
    stop.set()
    sampler.join()
    if status != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-25:]
        raise BuildFailed(f"exit status {status}: {' '.join(cmd)}\n    "
                          + "\n    ".join(tail) + f"\n    (full output: {log})")
    # ru_maxrss misses processes nobody waited for (a forkserver's workers): the sampled
    # largest single RSS stands in for them
    return Run(wall, cpu, peak, max(single, maxrss), max(proportional, 1), itself, system)


# ---------------------------------------------------------------- versions

class Version:
    """A talkpages to time. With --against, two: this one, and the one whose source
    folder is given, each build of one followed by the same build of the other (which
    goes first alternates), so that a machine's drift weighs on both alike. Each has
    its own template cache (two versions would evict each other's compiled templates)
    and its own copy of each site (hard links to the same talk files): the media cache
    and sequence.lock are each version's own."""

    def __init__(self, suffix: str, env: dict[str, str]) -> None:
        self.suffix, self.env = suffix, env

    def site(self, site: Path) -> Path:
        if not self.suffix:
            return site
        copy = site.parent / "against" / site.name
        if not (copy / "talks").is_dir():
            rm(copy.parent)
            copy.mkdir(parents=True)
            subprocess.run(["cp", "-al", str(site / "talks"), str(copy / "talks")], check=True)
        shutil.copy2(site / "talkpages.toml", copy / "talkpages.toml")
        return copy


VERSIONS = [Version("", {})]


def in_turn(i: int) -> list[Version]:
    return VERSIONS if i % 2 == 0 else VERSIONS[::-1]


# ---------------------------------------------------------------- results

class Results:
    def __init__(self, package: Path) -> None:
        self.package, self.code = package, code_state(package)
        self.rows: dict[str, list[Run]] = {}
        self.checks: dict[str, str] = {}
        self.notes: list[str] = []

    def add(self, label: str, run: Run) -> None:
        self.rows.setdefault(label, []).append(run)

    def median(self, label: str, field: str = "wall") -> float:
        return float(statistics.median(getattr(r, field) for r in self.rows[label]))


TRASH: Path | None = None  # where outputs go instead of being deleted (see bench/README.md)


def rm(path: Path) -> None:
    """Out of the way, without deleting it while builds are measured: on ext4 without a
    journal (this machine's), creating files within a minute or more of deleting many is
    quadratic (the kernel's recently_deleted(), seen with perf), so a deletion would
    weigh on the next build measured, whichever tool it is. Moved to the trash, which
    is emptied when the run ends."""
    if not (path.is_symlink() or path.exists()):
        return
    if TRASH is None:
        if path.is_symlink() or path.is_file():
            path.unlink()
        else:
            shutil.rmtree(path)
        return
    TRASH.mkdir(parents=True, exist_ok=True)
    path.rename(TRASH / f"{len(list(TRASH.iterdir()))}-{path.name}")


def empty_trash(wait: bool) -> None:
    """Delete what was moved aside; with `wait`, then let the kernel forget the deleted
    inodes (60 s after a sync) so that the run to come is not measured against them."""
    if TRASH is None or not TRASH.exists():
        return
    say(f"emptying {TRASH} …")
    shutil.rmtree(TRASH, ignore_errors=True)
    os.sync()
    if wait:
        say("  waiting 65 s for the file system to forget the deleted files …")
        time.sleep(65)


def clean(out: Path) -> None:
    """A fresh, empty parent for the output folder (the build stages beside its output)."""
    rm(out.parent)
    out.parent.mkdir(parents=True)


def code_state(package: Path) -> str:
    """A hash of talkpages' code and built-in theme, to notice edits made during a run."""
    digest = hashlib.sha256()
    for folder in (package, REPO / "layouts", REPO / "assets"):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def time_runs(res: Results, label: str, runs: int, cmd: list[str], log: Path,
              before: Callable[[int], object] | None = None) -> None:
    for i in range(runs):
        time_run(res, label, i, runs, cmd, log, before)


def time_run(res: Results, label: str, i: int, runs: int, cmd: list[str], log: Path,
             before: Callable[[int], object] | None = None,
             version: Version = VERSIONS[0]) -> None:
    label += version.suffix
    if before:
        before(i)
    say(f"  {label}: run {i + 1}/{runs} …")
    state = code_state(res.package)
    if state != res.code:
        res.code = state
        res.notes.append(f"talkpages' code changed before {label}, run {i + 1}: "
                         "the figures of this run mix versions")
        say("    (talkpages' code changed since the last run)")
    os.sync()  # write back earlier outputs and deletions now, not during this run
    run = measure(cmd, log, env=version.env)
    res.add(label, run)
    say(f"    {run.wall:8.3f} s wall, {run.cpu:7.2f} s CPU ({run.system:.2f} system), "
        f"peak tree PSS {run.peak_pss / MiB:7.1f} MiB (RSS {run.peak_tree / MiB:.1f}), "
        f"largest process {run.max_proc / MiB:7.1f} MiB")


# ---------------------------------------------------------------- workload

def filesystem(path: Path) -> str:
    """"ext4 on /dev/vda": writing thousands of small files costs what the file system says."""
    best = ("", "?", "?")
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            source, target, kind = line.split()[:3]
            if path.is_relative_to(target) and len(target) >= len(best[0]):
                best = (target, kind, source)
    return f"{best[1]} on {best[2]}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def workload(work: Path, gen: Path, n: int, seed: int | None) -> Path:
    """The site folder (with `talks/`) of n generated talks; reused when the count, the seed
    and the generator are the same."""
    folder = work / f"talks-{n}-seed-{seed if seed is not None else 'default'}"
    site, marker = folder / "site", folder / "workload.json"
    key = {"n": n, "seed": seed, "generator_sha256": sha256(gen)}
    restore_edit(folder)  # a run stopped in the middle of the one-edit step
    if marker.exists() and json.loads(marker.read_text()) == key:
        say(f"reusing {n:,} generated talks in {site / 'talks'}")
        return site
    say(f"generating {n:,} talks with {gen} into {site / 'talks'} …")
    rm(folder)
    site.mkdir(parents=True)
    (site / "talkpages.toml").write_text(
        'title = "Talks"\nbase_url = "https://talks.example.org/"\n', encoding="utf-8")
    started = time.perf_counter()
    subprocess.run([sys.executable, str(gen), str(site / "talks"), str(n)]
                   + (["--seed", str(seed)] if seed is not None else []), check=True)
    marker.write_text(json.dumps(key))
    say(f"  done in {time.perf_counter() - started:.1f} s")
    return site


def restore_edit(folder: Path) -> None:
    backup = folder / "edit-backup.json"
    if backup.exists():
        saved = json.loads(backup.read_text())
        path = Path(saved["path"])
        path.write_bytes(bytes.fromhex(saved["bytes"]))
        os.utime(path, ns=(saved["atime_ns"], saved["mtime_ns"]))
        backup.unlink()


def compare_trees(a: Path, b: Path) -> tuple[int, list[str]]:
    """Every file of both trees, byte for byte: (files compared, differences)."""
    def files(root: Path) -> dict[str, Path]:
        return {str(p.relative_to(root)): p for p in root.rglob("*") if not p.is_dir()}
    fa, fb = files(a), files(b)
    diffs = [f"only in the one-edit output: {k}" for k in sorted(fa.keys() - fb.keys())]
    diffs += [f"only in the full build: {k}" for k in sorted(fb.keys() - fa.keys())]
    for k in sorted(fa.keys() & fb.keys()):
        if filecmp.cmp(fa[k], fb[k], shallow=False):
            continue
        x, y = fa[k].read_bytes(), fb[k].read_bytes()
        if x != y:
            at = next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q),
                      min(len(x), len(y)))
            diffs.append(f"differs: {k} ({len(x)} vs {len(y)} bytes; first difference at byte "
                         f"{at}: {x[max(0, at - 40):at + 60]!r} vs {y[max(0, at - 40):at + 60]!r})")
    return len(fa.keys() | fb.keys()), diffs


# ---------------------------------------------------------------- the measurements

def talkpages(site: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "talkpages", "build", "-s", str(site), "-o", str(out),
            "--now", NOW, "--future", "-q"]


def without_cards(site: Path) -> Path:
    """The same talks (hard links) with `social_cards = "none"`: the site Hugo's build of
    the benchmark is like, which draws no image."""
    plain = site.parent.parent / (site.parent.name + "-no-cards") / "site"
    if not (plain / "talks").is_dir():
        rm(plain.parent)
        plain.mkdir(parents=True)
        subprocess.run(["cp", "-al", str(site / "talks"), str(plain / "talks")], check=True)
    config = (site / "talkpages.toml").read_text(encoding="utf-8")
    (plain / "talkpages.toml").write_text(config + 'social_cards = "none"\n', encoding="utf-8")
    return plain


def bench_talkpages(res: Results, site: Path, n: int, runs: int, full_only: bool = False) -> None:
    tag = f"{n:,}"

    def timed(label: str, i: int, version: Version, sites: Callable[[Path], Path],
              cache_kept: bool = False, extra: tuple[str, ...] = ()) -> None:
        """One build of `version` on its copy of the site; the output folder clean, the
        site's cache removed unless `cache_kept`."""
        here = sites(version.site(site))
        out = here.parent / "tp" / "out"

        def before(i: int) -> None:
            if not cache_kept:
                rm(here / ".talkpages-cache")
            clean(out)

        time_run(res, label, i, runs, [*extra, *talkpages(here, out)],
                 here.parent / "build.log", before, version)

    def same(path: Path) -> Path:
        return path

    if full_only:
        say(f"[{tag}] (1) first build: a clean output folder, no cache")
        for i in range(runs):
            for version in in_turn(i):
                timed(f"{tag}: first build", i, version, same)
        return
    # first builds and builds with the media kept alternate, so that a machine getting
    # busier weighs on both alike
    say(f"[{tag}] (1) first build (no cache) and a build with the media cache kept "
        "(CI that restores .talkpages-cache/), alternately; a clean output folder each")
    for i in range(runs):
        for version in in_turn(i):
            timed(f"{tag}: first build", i, version, same)
        for version in in_turn(i):
            timed(f"{tag}: media cache kept", i, version, same, cache_kept=True)
    say(f"[{tag}]     check: the output with the media cache kept against a first build")
    folder, log = site.parent, site.parent / "build.log"
    out, ref = folder / "tp" / "out", folder / "tp-ref" / "out"
    rm(site / ".talkpages-cache")
    clean(ref)
    measure(talkpages(site, ref), log)
    count, diffs = compare_trees(out, ref)
    verdict = "PASS" if not diffs and count else "FAIL"
    detail = f"{count:,} files compared" + (f", {len(diffs)} differ" if diffs else "")
    res.checks[f"{tag}: media cache kept == first build"] = f"{verdict} ({detail})"
    say(f"    {verdict}: {detail}")
    for line in diffs[:20]:
        say(f"      {line}")
    rm(ref.parent)

    say(f"[{tag}] (2) first build with social_cards = \"none\" (like Hugo's site), on every "
        "core and on one (TALKPAGES_WORKERS=1), alternately")
    for i in range(runs):
        for version in in_turn(i):
            timed(f"{tag}: first build, no cards", i, version, without_cards)
        for version in in_turn(i):
            timed(f"{tag}: no cards, one worker", i, version, without_cards,
                  extra=("env", "TALKPAGES_WORKERS=1"))
    for version in VERSIONS:
        rm(without_cards(version.site(site)).parent / "tp")


def bench_hugo(res: Results, site: Path, n: int, runs: int, hugo: str) -> None:
    folder = site.parent
    hsite, out = folder / "hugo" / "site", folder / "hugo" / "out"
    rm(hsite.parent)
    shutil.copytree(SHARED / "hugo-site", hsite)
    (hsite / "content").symlink_to(site / "talks")
    say(f"[{n:,}] Hugo: full build of the same files "
        f"({hugo} --quiet --buildFuture -s {hsite} -d {out})")
    time_runs(res, f"{n:,}: Hugo full build", runs,
              [hugo, "--quiet", "--buildFuture", "-s", str(hsite), "-d", str(out)],
              folder / "hugo.log", before=lambda i: rm(out))
    rm(out)


def bench_example(res: Results, work: Path, runs: int) -> None:
    """The repository's example site, copied so that no cache or output lands in the repo."""
    site = work / "example" / "site"
    out = work / "example" / "out" / "public"
    rm(site.parent)
    site.mkdir(parents=True)
    for name in ("talks", "layouts", "assets"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, site / name)  # copy2: mtimes (LAST-MODIFIED) kept
    for name in ("talkpages.toml", "speakers.toml"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, site / name)
    count = len(list((site / "talks").iterdir()))
    cmd, log = talkpages(site, out), work / "example" / "build.log"
    say(f"[example] (4) the example site of the repository ({count} entries in talks/), "
        "including interpreter start")
    def cold(i: int) -> None:
        rm(site / ".talkpages-cache")
        clean(out)

    time_runs(res, "example: first build", runs, cmd, log, before=cold)
    time_runs(res, "example: media cache kept", runs, cmd, log, before=lambda i: clean(out))


# ---------------------------------------------------------------- report

def median_interval(values: list[float], rounds: int = 2000) -> tuple[float, float]:
    """Where the median of `values` lies 19 times in 20: the 2.5th and 97.5th
    percentiles of the medians of `rounds` samples of them drawn with replacement
    (a fixed seed: the same figures give the same interval)."""
    draw = random.Random(0)
    medians = sorted(statistics.median(draw.choices(values, k=len(values)))
                     for _ in range(rounds))
    return medians[rounds // 40], medians[rounds - 1 - rounds // 40]


def report(res: Results, n: int, big: int | None, hugo_version: str | None) -> list[str]:
    med = res.median
    lines = ["", f"{'measurement':<40} {'runs':>4} {'median':>9} {'min':>9} {'max':>9} "
                 f"{'CPU':>8} {'own CPU':>8} {'peak PSS':>12} {'peak RSS':>12} "
                 f"{'max process':>12}"]
    for label, runs in res.rows.items():
        walls = [r.wall for r in runs]
        lines.append(f"{label:<40} {len(runs):>4} {med(label):>8.3f}s {min(walls):>8.3f}s "
                     f"{max(walls):>8.3f}s {med(label, 'cpu'):>7.2f}s "
                     f"{med(label, 'own_cpu'):>7.2f}s "
                     f"{med(label, 'peak_pss') / MiB:>8.1f} MiB "
                     f"{med(label, 'peak_tree') / MiB:>8.1f} MiB "
                     f"{med(label, 'max_proc') / MiB:>8.1f} MiB")
    lines += ["(medians; CPU: user+sys of the build and the descendants it waited for; own CPU:",
              " of the build's first process alone, its workers left out; peak PSS: the",
              " highest sum of the proportional set sizes of the build and all its descendants",
              " (memory shared by forked workers counts once), sampled as often as costs 5% of",
              " a core (see bench/README.md); peak RSS: the same with resident set sizes, every",
              " 10 ms, shared pages counted in every process, an upper bound; max process:",
              " ru_maxrss of the largest single process)"]

    tag = f"{n:,}"
    hugo = f"{tag}: Hugo full build"
    first, kept, plain, one = (f"{tag}: first build", f"{tag}: media cache kept",
                               f"{tag}: first build, no cards", f"{tag}: no cards, one worker")
    if hugo in res.rows:
        lines += ["", f"talkpages / Hugo ({hugo_version}), {tag} talks, medians of this run:"]
        for label in (plain, first, kept):
            if label in res.rows:
                t = med(label) / med(hugo)
                m = med(label, "peak_pss") / med(hugo, "peak_pss")
                faster = f"talkpages {1 / t:.2f}x faster" if t < 1 else f"Hugo {t:.2f}x faster"
                less = f"talkpages {1 / m:.2f}x less" if m < 1 else f"talkpages {m:.2f}x more"
                lines.append(f"  {label.split(': ', 1)[1]:<22} time {t:6.3f} ({faster}),  "
                             f"peak memory {m:6.3f} ({less})")
    big_first = f"{big:,}: first build" if big else ""
    if big_first in res.rows and first in res.rows:
        lines += ["", f"{big:,} / {tag} talks, first build:  "
                      f"time {med(big_first) / med(first):.2f}x,  "
                      f"peak memory {med(big_first, 'peak_pss') / MiB:.0f} MiB"]
    against = [label for label in res.rows if label.endswith(" [against]")]
    if against:
        lines += ["", "this talkpages / the one of --against: the ratio of the medians, and the "
                      "median ratio of the pairs (each pair run back to back), with the "
                      "interval that holds that median 19 times in 20 (bootstrap):"]
        for label in against:
            mine = label.removesuffix(" [against]")
            if mine in res.rows:
                pairs = [a.wall / b.wall for a, b in zip(res.rows[mine], res.rows[label],
                                                          strict=False)]
                cpu = med(mine, "cpu") / med(label, "cpu")
                user = med(mine, "user") / med(label, "user")
                system = med(mine, "system") / max(med(label, "system"), 0.01)
                low, high = median_interval(pairs)
                lines.append(f"  {mine:<36} time {med(mine) / med(label):6.3f}, "
                             f"pairs {statistics.median(pairs):6.3f} ({low:.3f} to {high:.3f}), "
                             f"CPU {cpu:6.3f} (user {user:6.3f}, system {system:6.3f})")
    lines += [""] + [f"{k}: {v}" for k, v in res.checks.items()]

    lines += ["", "performance targets (informational; the exit status ignores them):"]

    def target(text: str, ok: bool | None, got: str) -> None:
        mark = "n/a" if ok is None else ("met" if ok else "NOT met")
        lines.append(f"  {text:<62} {got:<22} {mark}")

    def versus(label: str, limit: float, text: str, field: str = "wall") -> None:
        if hugo in res.rows and label in res.rows:
            ratio = med(label, field) / med(hugo, field)
            target(text, ratio <= limit, f"ratio {ratio:.3f}")
        else:
            target(text, None, "not measured")

    versus(plain, 0.7, "first build, social_cards = none: <= 0.7x Hugo's time")
    versus(first, 1.0, "first build with the defaults (cards): <= 1.0x Hugo's time")
    versus(kept, 0.7, "build with the media cache kept: <= 0.7x Hugo's time")
    versus(first, 0.2, "peak PSS of a first build: <= 0.2x Hugo's", "peak_pss")
    if plain in res.rows:
        share = med(plain, "own_cpu") / med(plain, "cpu")
        target("first process's share of a first build's CPU (no cards) <= 15%",
               share <= 0.15, f"{share:.1%}")
    if plain in res.rows and one in res.rows:
        speedup = med(one) / med(plain)
        target("every core (2) >= 1.4x faster than one worker (no cards)", speedup >= 1.4,
               f"{speedup:.2f}x")
    for label in ("example: first build", "example: media cache kept"):
        if label in res.rows:
            target(f"{label} <= 0.5 s", med(label) <= 0.5, f"{med(label):.3f} s")
    if big_first in res.rows and first in res.rows:
        r = med(big_first) / med(first)
        target(f"{big:,} talks <= 11x the time of {tag}", r <= 11, f"{r:.2f}x")
        gib = med(big_first, "peak_pss") / (1024 * MiB)
        target(f"{big:,} talks: peak PSS <= 1 GiB", gib <= 1, f"{gib:.2f} GiB")
    if n != 10_000:
        lines.append(f"  (the targets are for 10,000 talks; this run used {tag})")
    lines += [f"note: {note}" for note in res.notes]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="1,000 talks instead of 10,000 (smoke run)")
    ap.add_argument("--big", action="store_true", help="also the 100,000-talk full build")
    ap.add_argument("--talks", type=int,
                    help="number of talks (default 10,000; 1,000 with --quick)")
    ap.add_argument("--big-talks", type=int, default=100_000,
                    help="the --big size (default 100,000)")
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; the median is shown")
    ap.add_argument("--seed", type=int, help="gen_talks.py seed (default: the generator's own)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/talkpages-bench"),
                    help="scratch folder for workloads and outputs (default: %(default)s)")
    ap.add_argument("--gen", type=Path, default=SHARED / "gen_talks.py",
                    help="the workload generator (default: %(default)s)")
    ap.add_argument("--no-hugo", action="store_true", help="skip Hugo even when it is installed")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write every run to FILE")
    ap.add_argument("--against", type=Path, metavar="SRC",
                    help="also time the talkpages of this source folder (e.g. `src` of a "
                         "git worktree of an older commit), build for build with this one")
    args = ap.parse_args()
    n = args.talks or (1_000 if args.quick else 10_000)
    runs = max(1, args.runs)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    global TRASH
    TRASH = work / "trash"
    empty_trash(wait=True)  # left by a run that was stopped
    # As on a user's machine: talkpages' bytecode is cached (the environment of some
    # machines turns that off), and compiled once before anything is timed.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", "import talkpages.commands.cli, "
                    "talkpages.engine.pipeline"], check=True)

    hugo = None if args.no_hugo else shutil.which("hugo")
    hugo_version = None
    if hugo:
        hugo_version = subprocess.run([hugo, "version"], capture_output=True,
                                      text=True).stdout.split()[1]
    version = subprocess.run(
        [sys.executable, "-c", "import talkpages as t; print(t.__version__, t.__file__)"],
        capture_output=True, text=True, check=True).stdout.strip()
    sizes = f"{n:,} talks" + (f" + {args.big_talks:,}" if args.big else "")
    say(f"talkpages benchmark: {sizes}, median of {runs} run(s), --now {NOW} --future")
    say(f"  python {platform.python_version()} ({sys.executable}), talkpages {version}")
    hugo_text = (f"{hugo_version} ({hugo})" if hugo else
                 "not measured (" + ("--no-hugo" if args.no_hugo else "not on PATH") + ")")
    say(f"  {os.cpu_count()} CPUs, {platform.platform()}; Hugo: {hugo_text}")
    say(f"  scratch folder: {work} ({filesystem(work)})")
    load = os.getloadavg()[0]
    say(f"  load average before the run: {load:.2f}")

    if args.against:
        against = args.against.resolve()
        VERSIONS[0].env = {"XDG_CACHE_HOME": str(work / "cache-this")}
        VERSIONS.append(Version(" [against]", {"PYTHONPATH": str(against),
                                               "XDG_CACHE_HOME": str(work / "cache-against")}))
        other = subprocess.run(  # its bytecode compiled too
            [sys.executable, "-c", "import talkpages as t, talkpages.commands.cli, "
             "talkpages.engine.pipeline; print(t.__version__, t.__file__)"],
            capture_output=True, text=True, check=True,
            env={**os.environ, **VERSIONS[1].env}).stdout.strip()
        say(f"  against: talkpages {other}: every build of this one is followed or preceded "
            "by the same build of that one (\"[against]\")")
        if not other.endswith(str(against / "talkpages" / "__init__.py")):
            say(f"error: --against {args.against} is not a talkpages source folder")
            return 2

    res = Results(Path(version.split(" ", 1)[1]).parent)
    failed = None
    started = time.perf_counter()
    try:
        site = workload(work, args.gen, n, args.seed)
        bench_talkpages(res, site, n, runs)
        if hugo:
            bench_hugo(res, site, n, runs, hugo)
        if not args.against:  # its templates are this version's: another may not read them
            bench_example(res, work, runs)
        if args.big:
            big_site = workload(work, args.gen, args.big_talks, args.seed)
            bench_talkpages(res, big_site, args.big_talks, runs, full_only=True)
    except BuildFailed as exc:
        failed = str(exc)
    except KeyboardInterrupt:
        failed = "interrupted"

    empty_trash(wait=False)
    lines = report(res, n, args.big_talks if args.big else None, hugo_version)
    if failed:
        lines += ["", f"BUILD FAILED: {failed}"]
    end_load = os.getloadavg()[0]
    if load > 0.5:  # at the end it counts our own builds too
        lines.append(f"\nnote: other work on this machine (load average {load:.2f} before the "
                     f"run, {end_load:.2f} after): the figures are noisy; prefer a quiet machine")
    lines.append(f"\n(benchmark took {time.perf_counter() - started:.0f} s)")
    say("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({
            "talks": n, "big": args.big_talks if args.big else None, "runs": runs, "now": NOW,
            "python": sys.version, "talkpages": version, "hugo": hugo_version,
            "cpus": os.cpu_count(), "platform": platform.platform(),
            "results": {k: [vars(r) for r in v] for k, v in res.rows.items()},
            "checks": res.checks, "notes": res.notes, "failed": failed}, indent=2))
        say(f"wrote {args.json}")
    bad_check = any(v.startswith("FAIL") for v in res.checks.values())
    return 1 if failed or bad_check else 0


if __name__ == "__main__":
    sys.exit(main())
