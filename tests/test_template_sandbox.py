"""A site's own templates (`layouts/`) may come from a stranger's repository: they run
in a sandbox, and a template that reaches for Python's internals, a file or a path, or
an operator that would take the machine's memory, fails the build at its line (exit 1)
with nothing written, instead of running a command or publishing a file of the machine."""

from __future__ import annotations

import shutil
import traceback
from collections.abc import Callable
from pathlib import Path

import jinja2
import markupsafe
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from talkpages.engine.bytecode import compiled_templates
from talkpages.output.theme import Environment, Sandbox, Theme, builtin_dir, escape_markup

from conftest import MakeSite, talk

NOW = "2026-11-21T00:00:00Z"
RunCli = Callable[..., tuple[int, str, str]]


def page(body: str) -> str:
    return '{% extends "base.html" %}{% block main %}\n' + body + "\n{% endblock %}\n"


def build_with(make_site: MakeSite, run_cli: RunCli, template: str) -> tuple[int, str, Path]:
    site = make_site({"talks/one.md": talk("One"), "layouts/404.html": page(template)})
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    return code, err, site


@pytest.mark.parametrize("template", [
    "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "{{ lipsum.__globals__['os'].system('touch PWNED') }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ self._TemplateReference__context }}",
])
def test_a_site_template_cannot_run_a_command(make_site: MakeSite, run_cli: RunCli,
                                              template: str, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, err, site = build_with(make_site, run_cli, template)
    assert code == 1, err
    assert "layouts/404.html:2: error: template error" in err
    assert "unsafe" in err and "sandbox" in err
    assert not (tmp_path / "PWNED").exists()
    assert not (site / "public").exists()


@pytest.mark.parametrize("template", [
    "{{ site.root.joinpath('talks/one.md').read_text() }}",
    "{% for talk in site.talks %}{{ talk.source.read_bytes() }}{% endfor %}",
    "{% for talk in site.talks %}{{ talk.source.parent.parent }}{% endfor %}",
    "{% for talk in site.talks %}{{ talk.source.open().read() }}{% endfor %}",
])
def test_a_site_template_cannot_read_a_file_through_a_path(make_site: MakeSite,
                                                           run_cli: RunCli,
                                                           template: str) -> None:
    code, err, site = build_with(make_site, run_cli, template)
    assert code == 1, err
    assert "layouts/404.html:2: error" in err and "unsafe" in err
    assert not (site / "public").exists()


@pytest.mark.parametrize("template", [
    "{{ 9 ** 99999999 }}",
    "{% set n = 99999999 %}{{ 'x' * n }}",
    "{{ [1, 2] * 100000000 }}",
])
def test_a_site_template_cannot_make_a_number_or_text_of_any_size(
        make_site: MakeSite, run_cli: RunCli, template: str) -> None:
    code, err, _ = build_with(make_site, run_cli, template)
    assert code == 1, err
    assert "layouts/404.html" in err
    assert "too large" in err or "may not repeat" in err


def test_a_site_template_cannot_change_the_talks(make_site: MakeSite,
                                                 run_cli: RunCli) -> None:
    code, err, _ = build_with(make_site, run_cli,
                              "{% set x = site.speakers.clear() %}{{ config.params.update(a=1) }}")
    assert code == 1, err
    assert "unsafe" in err


@pytest.mark.parametrize(("template", "error"), [
    ("{{ 1 // 0 }}", "ZeroDivisionError: integer division or modulo by zero"),
    ('{{ "a" + 1 }}', 'TypeError: can only concatenate str (not "int") to str'),
    ('{{ "x" | when }}', "AttributeError: "),  # a filter given what it cannot read
    ('{{ "%d" % "x" }}', "TypeError: "),
])
def test_a_site_template_that_fails_as_it_runs_is_an_error_at_its_line(
        make_site: MakeSite, run_cli: RunCli, template: str, error: str) -> None:
    """Regression: an exception of the site's template itself (not a template error of
    Jinja's) was reported as an internal error of talkpages (exit 3)."""
    code, err, site = build_with(make_site, run_cli, template)
    assert code == 1, err
    assert "layouts/404.html:2: error: template error while rendering the 404 page" in err
    assert error in err and "internal error" not in err
    assert not (site / "public").exists()


def test_ordinary_template_code_still_works(make_site: MakeSite, run_cli: RunCli) -> None:
    code, err, site = build_with(
        make_site, run_cli,
        "<p id=t>{{ site.talks | map(attribute='title') | join(',') }} {{ 2 ** 10 }} "
        "{{ '-' * 3 }} {{ '%s!' | format(config.title) }} {{ range(3) | list }}</p>")
    assert code == 0, err
    html = (site / "public" / "404.html").read_text()
    assert "<p id=t>One 1024 --- " in html and "[0, 1, 2]</p>" in html


def test_compiled_templates_kept_between_builds_stay_sandboxed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled code is kept in the user's cache: the second build loads it from there,
    and what the sandbox intercepts must be in that code too."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    (site / "layouts").mkdir(parents=True)
    (site / "layouts" / "power.html").write_text("{{ 9 ** 99999999 }}")
    for _ in range(2):
        theme = Theme.for_site(site, compiled_templates)
        assert isinstance(theme.env, Sandbox)
        with pytest.raises(Exception, match="too large"):
            theme.env.get_template("power.html").render()
    assert list((tmp_path / "cache" / "talkpages" / "templates-Sandbox-en").iterdir())


def test_the_built_in_theme_gives_the_same_site_in_the_sandbox(tmp_path: Path) -> None:
    """A site with one template of its own runs the built-in ones in the sandbox too."""
    from conftest import ROOT, render_site

    site = tmp_path / "example"
    shutil.copytree(ROOT / "talks", site / "talks")
    for name in ("talkpages.toml", "speakers.toml"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, site / name)
    plain = render_site(site)
    shutil.copytree(builtin_dir("layouts"), site / "layouts")
    sandboxed = render_site(site)
    assert plain.ok and sandboxed.ok
    assert len(plain.outputs) > 50
    assert [(o.path, o.data) for o in plain.outputs] == \
        [(o.path, o.data) for o in sandboxed.outputs]


def test_compiled_templates_are_kept_per_version_of_talkpages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: a template whose filter exists only in a branch (`x if c else t | f`)
    compiles, where the filter is unknown, into a call without the template's context;
    code so compiled by another version of talkpages called this one's filters wrongly
    ("missing 1 required positional argument")."""
    import jinja2

    from talkpages.engine import bytecode

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    (site / "layouts").mkdir(parents=True)
    (site / "layouts" / "lead.html").write_text("{{ none if quiet else 'x' | lead }}")

    @jinja2.pass_context
    def lead(context: object, value: str) -> str:
        return value.upper()

    monkeypatch.setattr(bytecode, "code_digest", lambda: "old" * 6)
    Theme.for_site(site, compiled_templates).env.get_template("lead.html")  # no `lead` here
    monkeypatch.setattr(bytecode, "code_digest", lambda: "new" * 6)
    env = Theme.for_site(site, compiled_templates).env
    env.filters["lead"] = lead
    assert env.get_template("lead.html").render(quiet=False) == "X"
    kept = tmp_path / "cache" / "talkpages" / "templates-Sandbox-en"
    assert [p.name.split("-")[0] for p in kept.iterdir()] == ["new" * 5 + "n"]


# Every way a template of the site's can reach the loader: a file, a linked file, a
# linked folder inside `layouts/` (which also overrides a built-in partial), `layouts`
# itself a link, and links of links. Each must run in the sandbox, in check, build and
# serve alike (all three take their theme from Theme.for_site).
PAYLOAD = "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}"
REACHES = {
    "file": {"layouts/partials/icons.html": PAYLOAD},
    "linked file": {"parts/icons.html": PAYLOAD,
                    "layouts/partials/icons.html": Path("../../parts/icons.html")},
    "linked folder": {"parts/icons.html": PAYLOAD, "layouts/partials": Path("../parts")},
    "layouts a link": {"parts/partials/icons.html": PAYLOAD, "layouts": Path("parts")},
    "link of a link": {"deep/icons.html": PAYLOAD, "middle": Path("deep"),
                       "layouts/partials": Path("../middle")},
    "hidden name": {"layouts/.p/icons.html": PAYLOAD,
                    "layouts/partials/icons.html": "{% include '.p/icons.html' %}"},
}


def site_with(make_site: MakeSite, files: dict[str, str | Path]) -> Path:
    site = make_site({"talks/one.md": talk("One")})
    for name, content in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            path.symlink_to(content)
        else:
            path.write_text(content)
    return site


@pytest.mark.parametrize("reach", sorted(REACHES))
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_linked_layouts_folder_cannot_bypass_the_sandbox(
        make_site: MakeSite, run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        reach: str, command: str) -> None:
    """Regression: the sandbox was chosen by a walk that did not enter linked folders,
    while Jinja's loader followed them: `layouts/partials -> ../parts` ran its templates
    unsandboxed, and one command in them ran on the machine."""
    monkeypatch.chdir(tmp_path)
    site = site_with(make_site, REACHES[reach])
    code, _, err = run_cli(command, "-s", str(site), "--now", NOW)
    assert code == 1, err
    assert "unsafe" in err and "icons.html" in err
    assert not (tmp_path / "PWNED").exists() and not (site / "PWNED").exists()
    assert isinstance(Theme.for_site(site).env, Sandbox)


def test_serve_renders_a_linked_layouts_folder_in_the_sandbox(
        make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import datetime, timezone
    from io import StringIO

    from talkpages.commands.console import Console
    from talkpages.commands.serve import DevServer

    monkeypatch.chdir(tmp_path)
    site = site_with(make_site, REACHES["linked folder"])
    console = Console(StringIO(), StringIO())
    server = DevServer(site, port=0, now=lambda: datetime(2026, 11, 21, tzinfo=timezone.utc),
                       console=console)
    server.rebuild([])
    assert not (tmp_path / "PWNED").exists()
    assert "unsafe" in console.err.getvalue()  # type: ignore[attr-defined]


def test_the_loader_serves_only_what_the_walk_found(make_site: MakeSite) -> None:
    """A link that leads out of the site is never loaded (the build reports it), and a
    name with `..` reaches neither the site's templates nor the built-in ones."""
    import jinja2

    outside = make_site({"secret.html": "SECRET"}, root=make_site({}).parent / "elsewhere")
    site = site_with(make_site, {"layouts/out.html": outside / "secret.html",
                                 "layouts/in.html": "{% include '../talks/one.md' %}"})
    env = Theme.for_site(site).env
    assert isinstance(env, Sandbox)
    assert "out.html" not in env.list_templates()
    for name in ("out.html", "../talks/one.md", "/etc/passwd"):
        with pytest.raises(jinja2.TemplateNotFound):
            env.get_template(name)


def test_an_empty_layouts_folder_is_sandboxed_too(make_site: MakeSite) -> None:
    site = site_with(make_site, {"layouts/partials": Path("../nothing-here")})
    assert isinstance(Theme.for_site(site).env, Sandbox)


class _Safe:
    def __html__(self) -> str:
        return "<b>made safe</b>"


@settings(max_examples=200)
@given(st.one_of(st.text(), st.integers(), st.floats(), st.none(), st.booleans(),
                 st.text().map(Markup), st.just(_Safe())))
def test_the_templates_escape_as_markupsafe_does(value: object) -> None:
    """theme.escape_markup, which every `{{ … }}` of a compiled template calls, against
    MarkupSafe's own `escape`: the same text, a Markup, for any value."""
    ours, theirs = escape_markup(value), markupsafe.escape(value)
    assert ours == theirs and type(ours) is type(theirs) is Markup


@pytest.mark.parametrize("kind", [Environment, Sandbox])
def test_compiled_templates_escape_with_escape_markup(kind: type[jinja2.Environment]) -> None:
    env = kind(loader=jinja2.DictLoader({"t.html": "{{ value }}"}), autoescape=True)
    template = env.get_template("t.html")
    assert template.render(value="<a & b>") == "&lt;a &amp; b&gt;"
    assert template.root_render_func.__globals__["escape"] is escape_markup


JOINED_CASES = {
    "pieces": '<a href="{{ url }}">{{ name }}</a> {{ 3 }}{{ none }}',
    "blocks": '{% extends "base" %}{% block b %}<i>{{ name }}</i>{{ super() }}{% endblock %}',
    "base": '<p>{% block b %}[{{ url }}|{{ name | upper }}]{% endblock %}</p>{{ name }}',
    "macro": '{% macro m(x) %}<b>{{ x }}</b>{{ caller() }}{% endmacro %}'
             '{% macro n(x) %}<s>{{ x }}</s>{{ x }}{% endmacro %}'
             '{% call m(name) %}<u>{{ url }}</u>{% endcall %}{{ n(url) }}{{ n(name) }}',
    "loop": '{% for i in range(3) %}<li>{{ i }}:{{ name }}{% if loop.last %}!{% endif %}</li>'
            '{% endfor %}{% set x %}{{ name }}{{ url }}{% endset %}{{ x }}',
    "include": '<div>{% include "pieces" %}|{{ name }}</div>',
}


@pytest.mark.parametrize("kind", [Environment, Sandbox])
@pytest.mark.parametrize("name", sorted(JOINED_CASES))
def test_joined_output_is_the_text_jinja_writes(kind: type[jinja2.Environment], name: str,
                                               ) -> None:
    """Each stretch of output is yielded as one text (theme._JoinedOutput): a page gives
    the same text as Jinja's own code generator writes."""
    values = {"url": "/a?b=1&c=<2>", "name": "Ada & <Bob>"}
    ours = kind(loader=jinja2.DictLoader(JOINED_CASES), autoescape=True)
    theirs = jinja2.Environment(loader=jinja2.DictLoader(JOINED_CASES), autoescape=True)
    assert ours.get_template(name).render(**values) == \
        theirs.get_template(name).render(**values)
    assert "yield ''.join((" in ours.compile(JOINED_CASES["pieces"], raw=True)


def test_a_joined_stretch_of_output_names_the_line_that_fails() -> None:
    env = Environment(loader=jinja2.DictLoader({"t.html": "<p>{{ a }}\n{{ b }}\n{{ 1 // c }}</p>"}),
                      autoescape=True)
    with pytest.raises(ZeroDivisionError) as caught:
        env.get_template("t.html").render(a=1, b=2, c=0)
    lines = [frame.lineno for frame in traceback.extract_tb(caught.value.__traceback__)
             if frame.filename == "<template>"]
    assert lines == [3]  # not 1, where the stretch starts


def test_the_built_in_templates_read_attributes_as_jinja_does() -> None:
    """theme._DirectAttributes reads `a.b` in place; an item, a missing name and an
    attribute that fails as it is read give what Jinja's getattr gives."""
    class Lazy:
        size = 3

        @property
        def broken(self) -> str:
            raise AttributeError("not here")

    source = "{{ o.size }} {{ d.key }} {{ d.items is defined }} {{ o.broken is defined }} " \
             "{{ o.nothing is defined }} {{ n.a.b.c }}"
    values = {"o": Lazy(), "d": {"key": "item", "items": 1},
              "n": {"a": {"b": {"c": "deep"}}}}
    ours = Environment(autoescape=True)
    theirs = jinja2.Environment(autoescape=True)
    assert ours.from_string(source).render(values) == \
        theirs.from_string(source).render(values) == "3 item True False False deep"
    assert "getattr((_of := " in ours.compile("{{ o.size }}", raw=True)
    with pytest.raises(jinja2.UndefinedError):
        Environment(undefined=jinja2.StrictUndefined).from_string("{{ o.nothing }}").render(
            o=Lazy())
