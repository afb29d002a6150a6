"""A site's own texts, `i18n/<language>.toml`: what its pages say, changed or added, in
the pages, the scripts and the feeds; and a clear word for a key or value that is wrong."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from talkpages.content.config import load_config
from talkpages.content.messages import messages_for
from talkpages.output.translated import script_messages

from conftest import MakeSite, outputs, render_site, talk

GERMAN = '''
"Upcoming" = "Demnächst"
"Past talks" = "Vergangene Vorträge"
"When" = "Wann"
"Happening now" = "Läuft gerade"
"%(num)d talk" = { one = "%(num)d Vortrag", other = "%(num)d Vorträge" }
"%(num)d talk matches." = { one = "%(num)d Vortrag passt.", other = "%(num)d Vorträge passen." }
'''


def _site(make_site: MakeSite, texts: str = GERMAN, language: str = "de-AT",
          name: str = "de.toml") -> Path:
    return make_site({
        "talkpages.toml": f'title = "Vorträge"\nlanguage = "{language}"\n'
                          'timezone = "Europe/Vienna"\n',
        f"i18n/{name}": texts,
        "talks/one.md": talk("Eins", "2099-05-22T14:50:00", 'tags = ["a"]'),
        "talks/two.md": talk("Zwei", "2019-05-22T14:50:00", 'tags = ["a"]')})


def test_the_site_s_texts_reach_its_pages_and_a_count_takes_the_language_s_plural(
        make_site: MakeSite) -> None:
    result = render_site(_site(make_site))
    assert result.ok, result.diagnostics
    pages = outputs(result)
    index = pages["index.html"].decode()
    assert ">Demnächst</h2>" in index and ">Vergangene Vorträge</h2>" in index
    assert ">Upcoming<" not in index
    assert "<dt>Wann</dt>" in pages["one/index.html"].decode()
    tag = pages["tags/a/index.html"].decode()
    assert '<p class="count">2 Vorträge</p>' in tag


def test_a_script_is_published_with_the_translations_of_what_it_says(
        make_site: MakeSite) -> None:
    pages = outputs(render_site(_site(make_site)))
    scripts = {path: data.decode() for path, data in pages.items()
               if re.fullmatch(r"assets/(site|filter)\.[0-9a-f]{10}\.js", path)}
    assert len(scripts) == 2
    for path, text in scripts.items():
        first = text.split("\n", 1)[0]
        given = json.loads(first.split(",", 1)[1].removesuffix(");"))
        if "filter." in path:
            assert given["Upcoming"] == "Demnächst"
            assert given["%(num)d talk matches."] == {"one": "%(num)d Vortrag passt.",
                                                      "other": "%(num)d Vorträge passen."}
        assert given["Happening now"] == "Läuft gerade"
    english = render_site(_site(make_site, texts="", language="en"))
    [plain] = [o for o in english.outputs if o.path.startswith("assets/site.")]
    assert plain.data is None  # the theme's file as it is, copied


def test_script_messages_are_read_in_one_pass_of_any_script() -> None:
    messages = messages_for("de", {"A": "Ä"})
    assert script_messages(b'x = _("A") + _("B") + o._("A")', messages).count('"A":"\\u00c4"') == 1
    hostile = b'_("' + b"\\" * 100_000 + b'"' + b'ngettext("' * 10_000
    assert script_messages(hostile, messages) == ""


def test_a_key_that_is_no_text_of_the_pages_is_a_warning_with_the_text_meant(
        make_site: MakeSite) -> None:
    site = _site(make_site, '"Upcomming" = "Demnächst"\n')
    config, problems = load_config(site)
    [problem] = [p for p in problems if "Upcomming" in p.message]
    assert problem.severity == "warning" and problem.line == 1
    assert problem.path == site / "i18n" / "de.toml"
    assert "'Upcoming'" in (problem.hint or "")


def test_a_value_that_is_no_text_is_an_error_at_its_line(make_site: MakeSite) -> None:
    site = _site(make_site, '"Upcoming" = "Demnächst"\n"When" = 3\n"Where" = { some = "x" }\n')
    _config, problems = load_config(site)
    errors = [(p.line, p.message) for p in problems if p.severity == "error"]
    assert [line for line, _ in errors] == [2, 3], errors
    assert render_site(site).ok is False


def test_the_closer_file_wins_and_the_file_of_the_language_alone_is_read_too(
        make_site: MakeSite) -> None:
    site = _site(make_site, '"When" = "Wann"\n"Where" = "Wo"\n')
    (site / "i18n" / "de-at.toml").write_text('"Where" = "Wo denn"\n', encoding="utf-8")
    config, _ = load_config(site)
    assert config.i18n == {"When": "Wann", "Where": "Wo denn"}


def test_a_language_with_no_catalogue_is_a_warning_naming_the_file_to_write(
        make_site: MakeSite) -> None:
    site = _site(make_site, '"When" = "När"\n', language="sv", name="sv.toml")
    _config, problems = load_config(site)
    [warning] = [p for p in problems if "no translation" in p.message]
    assert "'sv'" in warning.message and "i18n/sv.toml" in (warning.hint or "")
    assert warning.severity == "warning"


def test_a_texts_file_linked_out_of_the_site_is_not_read(make_site: MakeSite,
                                                          tmp_path: Path) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text('"When" = "stolen"\n', encoding="utf-8")
    site = _site(make_site, "")
    (site / "i18n" / "de.toml").unlink()
    os.symlink(outside, site / "i18n" / "de.toml")
    config, problems = load_config(site)
    assert "When" not in config.i18n
    assert any(p.path == site / "i18n" / "de.toml" for p in problems)
