"""A site's own template is a program that may not end, or may grow a value until the
machine's memory is gone: each output has a budget of time and memory, and a template
that runs over it fails the build at its file and line (exit 1), never a hang or an
internal error."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest

from talkpages.output import budget

from conftest import MakeSite, talk

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "SECONDS", 1.0)
    monkeypatch.setattr(budget, "GROWTH", 256 * 1024 * 1024)


def page(body: str) -> str:
    return '{% extends "base.html" %}{% block main %}\n' + body + "\n{% endblock %}\n"


@pytest.mark.parametrize(("name", "template", "expected"), [
    ("loops", "{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}"
              "{% endfor %}", "more than 1 seconds"),
    ("loops printing", "{% for a in range(99999) %}{% for b in range(99999) %}{{ b }}"
                       "{% endfor %}{% endfor %}", "for one output"),  # time or memory
    ("doubling", "{% set ns = namespace(s='x') %}{% for i in range(60) %}"
                 "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}", "in one step"),
    ("doubling by replace", "{% set ns = namespace(s='x') %}{% for i in range(60) %}"
                            "{% set ns.s = ns.s | replace('x', 'xx') %}{% endfor %}",
     "in one step"),
    ("recursion", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
     "calls itself without end"),
])
@pytest.mark.parametrize("where", ["layouts/404.html", "layouts/partials/talk_item.html"])
# The budget's exception may land in a garbage collector's callback (Hypothesis has one),
# where Python reports it as unraisable and drops it: the budget raises it again a second
# later (test_a_render_that_lost_its_exception_gets_it_again), and the build still fails.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_template_that_does_not_end_fails_at_its_line(
        make_site: MakeSite, run_cli: RunCli, name: str, template: str, expected: str,
        where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: nested `range()` loops never ended; a doubled string took the
    machine's memory and ended in an internal error."""
    if expected == "in one step":  # the step's check, even on a busy machine
        monkeypatch.setattr(budget, "SECONDS", 8.0)
    text = page(template) if where.endswith("404.html") else \
        "{% macro talk_item(talk, root) %}" + template + "{% endmacro %}\n"
    site = make_site({"talks/one.md": talk("One", "2030-01-01T10:00:00"), where: text})
    started = time.monotonic()
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    assert time.monotonic() - started < 30
    assert code == 1, err
    assert f"{where}:" in err and expected in err, err
    assert "internal error" not in err
    assert not (site / "public").exists()


def test_an_ordinary_site_template_renders_within_the_budget(
        make_site: MakeSite, run_cli: RunCli) -> None:
    site = make_site({"talks/one.md": talk("One"), "layouts/404.html": page(
        "{% for a in range(300) %}{% for b in range(300) %}{% endfor %}{% endfor %}ok")})
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert "ok" in (site / "public" / "404.html").read_text()


def test_a_budget_raised_late_is_taken_back() -> None:
    """An exception the watch raises just as a render ends is withdrawn, and the next
    render of the same thread is watched again."""
    with pytest.raises(budget.TooSlow), budget.budget():
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pass
    with budget.budget():
        time.sleep(0.01)
    time.sleep(budget.POLL * 3)  # nothing pending reaches this thread


@pytest.mark.parametrize("step", ["ns.s ~ ns.s", "ns.s + ns.s", "ns.s | replace('x', 'xx')",
                                  "ns.s.replace('x', 'xx')", "'%s%s' % (ns.s, ns.s)",
                                  "[ns.s, ns.s] | join", "ns.s | center(ns.s | length * 2)"])
def test_a_value_doubled_in_a_loop_stops_in_one_step_before_it_is_large(
        make_site: MakeSite, run_cli: RunCli, step: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step that makes text (`~`, `+`, `%`, a filter, a method) is checked by the
    sandbox: a doubling stops at some tens of MB, before the memory watch need act."""
    import resource

    monkeypatch.setattr(budget, "GROWTH", 1024 * 1024 * 1024)  # the step's check, alone
    monkeypatch.setattr(budget, "SECONDS", 8.0)  # on a busy machine, too

    template = ("{% set ns = namespace(s='x') %}{% for i in range(60) %}"
                f"{{% set ns.s = {step} %}}{{% endfor %}}{{{{ ns.s | length }}}}")
    site = make_site({"talks/one.md": talk("One"), "layouts/404.html": page(template)})
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    assert time.monotonic() - started < 10
    assert code == 1, err
    assert "layouts/404.html:" in err and "in one step" in err, err
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 600 * 1024  # KiB: far below the memory watch's budget


def test_the_memory_watch_stops_a_render_that_keeps_growing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "GROWTH", 64 * 1024 * 1024)
    kept = []
    with pytest.raises(budget.TooLarge), budget.budget():
        for _ in range(4096):  # 4 GiB, were it not stopped
            kept.append(b"x" * (1 << 20))
    assert len(kept) < 1024


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_worker_forked_while_the_watch_held_its_lock_still_renders() -> None:
    """Regression: the workers that render a large site are forked from a process whose
    watch thread may hold its lock at that moment; the child, which has no such thread,
    waited for that lock forever at its first render."""
    with budget.budget():
        pass  # the watch thread runs in this process
    with budget._WATCH.lock:
        pid = os.fork()
        if pid == 0:  # the child: die of SIGALRM if it hangs
            signal.alarm(5)
            with budget.budget():
                pass
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_render_that_lost_its_exception_gets_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: the exception that stops a render was caught once by code between the
    template's steps (a finalizer the garbage collector ran), and the loop went on until
    the machine's memory was gone."""
    monkeypatch.setattr(budget, "SECONDS", 0.2)
    give_up = time.monotonic() + 15
    lost = 0
    with pytest.raises(budget.TooSlow), budget.budget():
        while time.monotonic() < give_up:
            try:
                while time.monotonic() < give_up:
                    pass
            except budget.TooSlow:
                lost += 1
                if lost > 1:
                    raise
    assert lost == 2
