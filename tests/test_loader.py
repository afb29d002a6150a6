"""Finding talk files, publishing rules, and checks across files."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from talkpages.content.loader import LoadOptions, find_talk_files, load_site
from talkpages.content.model import Site
from talkpages.diagnostics import Diagnostic

from conftest import NOW, talk

FUTURE = (NOW + timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
PAST = "2019-06-06T00:00:00Z"


def load(site: Path, **options: object) -> tuple[Site | None, list[Diagnostic]]:
    return load_site(site, LoadOptions(now=NOW, **options))  # type: ignore[arg-type]


def loaded(site: Path, **options: object) -> Site:
    result, problems = load(site, **options)
    assert [p for p in problems if p.is_error] == [], [p.format() for p in problems]
    assert result is not None
    return result


def errors_of(site: Path, **options: object) -> list[Diagnostic]:
    result, problems = load(site, **options)
    assert result is None
    found = [p for p in problems if p.is_error]
    assert found
    return found


def slugs(site: Site) -> list[str]:
    return [t.slug for t in site.talks]


# --- Finding files ----------------------------------------------------------------------

def test_flat_files_and_bundles_are_both_found(make_site):
    site = loaded(make_site({
        "talks/flat-talk.md": talk("Flat", "2019-01-01"),
        "talks/bundle-talk/index.md": talk("Bundle", "2019-02-01"),
    }))
    assert slugs(site) == ["flat-talk", "bundle-talk"]
    assert [t.title for t in site.talks] == ["Flat", "Bundle"]


def test_talks_are_sorted_by_start_time(make_site):
    site = loaded(make_site({
        "talks/a.md": talk("A", "2021-01-01T10:00:00Z"),
        "talks/b.md": talk("B", "2019-01-01T10:00:00Z"),
        "talks/c/index.md": talk("C", "2020-01-01T10:00:00Z"),
    }))
    assert slugs(site) == ["b", "c", "a"]


def test_file_names_are_slugified(make_site):
    site = loaded(make_site({"talks/KubeCon Día 1.md": talk()}))
    assert slugs(site) == ["kubecon-dia-1"]


def test_slug_in_front_matter_wins_over_the_file_name(make_site):
    site = loaded(make_site({"talks/x.md": talk(extra='slug = "kubecon-2019"')}))
    assert slugs(site) == ["kubecon-2019"]


def test_bundle_files_are_listed_nested_too_and_hidden_ones_skipped(make_site):
    site = loaded(make_site({
        "talks/t/index.md": talk(),
        "talks/t/featured.jpg": b"\xff\xd8",
        "talks/t/slides/deck.pdf": b"%PDF",
        "talks/t/slides/img/a.png": b"png",
        "talks/t/.DS_Store": b"x",
        "talks/t/.git/config": b"x",
        "talks/t/slides/.hidden.txt": b"x",
    }))
    (found,) = site.talks
    assert sorted(found.bundle_files) == ["featured.jpg", "slides/deck.pdf", "slides/img/a.png"]
    assert found.image is not None and found.image.file == "featured.jpg"


def test_flat_file_has_no_bundle_files(make_site):
    site = loaded(make_site({"talks/t.md": talk(), "talks/featured.jpg": b"\xff"}))
    (found,) = site.talks
    assert found.bundle_files == ()
    assert found.image is None


def test_folder_without_index_md_is_not_a_talk(make_site):
    site = loaded(make_site({"talks/a.md": talk(), "talks/notes/readme.txt": "x"}))
    assert slugs(site) == ["a"]


def test_hugo_section_index_and_hidden_files_are_not_talks(make_site):
    site = loaded(make_site({
        "talks/a.md": talk(),
        "talks/_index.md": '+++\ntitle = "Talks"\n+++\n',
        "talks/.draft.md": "not front matter",
        "talks/.hidden/index.md": "not front matter",
    }))
    assert slugs(site) == ["a"]


def test_non_markdown_files_are_ignored(make_site):
    site = loaded(make_site({"talks/a.md": talk(), "talks/b.txt": "x", "talks/c.html": "<p>"}))
    assert slugs(site) == ["a"]


def test_upper_case_md_suffix_is_a_talk(make_site):
    site = loaded(make_site({"talks/A.MD": talk()}))
    assert slugs(site) == ["a"]


def test_find_talk_files_returns_paths_slugs_and_bundle_files(make_site):
    site = make_site({"talks/b/index.md": talk(), "talks/b/x.pdf": b"%", "talks/a.md": talk()})
    problems: list[Diagnostic] = []
    found = find_talk_files(site / "talks", problems)
    assert problems == []
    assert found == [(site / "talks/a.md", "a", ()),
                     (site / "talks/b/index.md", "b", ("x.pdf",))]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_bundle_link_pointing_outside_is_an_error_and_not_listed(make_site, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    site = make_site({"talks/t/index.md": talk()})
    (site / "talks/t/leak.txt").symlink_to(secret)
    problems: list[Diagnostic] = []
    assert find_talk_files(site / "talks", problems) == [(site / "talks/t/index.md", "t", ())]
    assert [(p.severity, p.path) for p in problems] == [("error", site / "talks/t/leak.txt")]
    assert [p.path for p in errors_of(site)] == [site / "talks/t/leak.txt"]


# --- Drafts and publish dates -----------------------------------------------------------

def test_drafts_are_excluded_by_default(make_site):
    site = loaded(make_site({"talks/a.md": talk(), "talks/d.md": talk(extra="draft = true")}))
    assert slugs(site) == ["a"]


def test_drafts_are_included_with_drafts_option(make_site):
    site = loaded(make_site({"talks/a.md": talk(), "talks/d.md": talk(extra="draft = true")}),
                  drafts=True)
    assert sorted(slugs(site)) == ["a", "d"]


def test_future_publish_date_is_excluded_by_default(make_site):
    site = loaded(make_site({"talks/a.md": talk(),
                             "talks/later.md": talk(extra=f"publishDate = {FUTURE}")}))
    assert slugs(site) == ["a"]


def test_future_publish_date_is_included_with_future_option(make_site):
    site = loaded(make_site({"talks/a.md": talk(),
                             "talks/later.md": talk(extra=f"publishDate = {FUTURE}")}),
                  future=True)
    assert sorted(slugs(site)) == ["a", "later"]


def test_past_publish_date_is_published(make_site):
    site = loaded(make_site({"talks/a.md": talk(extra=f"publishDate = {PAST}")}))
    assert slugs(site) == ["a"]


def test_a_future_talk_date_does_not_hide_the_talk(make_site):
    site = loaded(make_site({"talks/upcoming.md": talk(date=FUTURE)}))
    assert slugs(site) == ["upcoming"]
    assert site.upcoming == list(site.talks)
    assert site.past == []


def test_future_draft_needs_both_options(make_site):
    files = {"talks/x.md": talk(extra=f"draft = true\npublishDate = {FUTURE}")}
    assert slugs(loaded(make_site(files), drafts=True)) == []
    assert slugs(loaded(make_site(files), future=True)) == []
    assert slugs(loaded(make_site(files), drafts=True, future=True)) == ["x"]


def test_site_now_is_the_option(make_site):
    assert loaded(make_site({"talks/a.md": talk()})).now == NOW


# --- Checks across files ------------------------------------------------------------------

def test_duplicate_slugs_give_one_error_naming_both_files(make_site):
    site = make_site({"talks/same.md": talk("One"), "talks/same/index.md": talk("Two")})
    (problem,) = errors_of(site)
    text = f"{problem.path} {problem.message}"
    assert str(Path("talks", "same.md")) in text
    assert str(Path("talks", "same", "index.md")) in text
    assert "'same'" in problem.message


def test_duplicate_slug_from_front_matter(make_site):
    site = make_site({"talks/a.md": talk(extra='slug = "dup"'),
                      "talks/b.md": talk(extra='slug = "dup"')})
    (problem,) = errors_of(site)
    text = f"{problem.path} {problem.message}"
    assert "'dup'" in problem.message
    assert "a.md" in text and "b.md" in text


def test_duplicate_slugs_differing_in_case_clash(make_site):
    site = make_site({"talks/a.md": talk(extra='slug = "Talk"'),
                      "talks/b.md": talk(extra='slug = "talk"')})
    assert len(errors_of(site)) == 1


@pytest.mark.parametrize("name", ["tags", "speakers", "assets", "calendar.ics"])
def test_reserved_slug_is_an_error(make_site, name):
    files = ({"talks/x.md": talk(extra=f'slug = "{name}"')} if "." in name
             else {f"talks/{name}.md": talk()})
    (problem,) = errors_of(make_site(files))
    assert name in problem.message
    assert problem.hint


def test_several_broken_files_are_all_reported_together(make_site):
    site = make_site({
        "talks/good.md": talk(),
        "talks/no-title.md": '+++\ndate = 2019-05-22\n+++\n',
        "talks/bad-toml.md": '+++\ntitle = "x"\ndate = = 1\n+++\n',
        "talks/no-front.md": "Just text\n",
        "talks/bad-link/index.md": talk(extra='url_pdf = "javascript:alert(1)"'),
        "talks/not-utf8.md": b'+++\ntitle = "Caf\xe9"\n+++\n',
    })
    problems = errors_of(site)
    broken = {p.path.name if p.path.name != "index.md" else p.path.parent.name
              for p in problems if p.path}
    assert broken == {"no-title.md", "bad-toml.md", "no-front.md", "bad-link", "not-utf8.md"}


def test_front_matter_error_keeps_its_file_line(make_site):
    site = make_site({"talks/bad.md": '+++\ntitle = "x"\n\ndate = = 1\n+++\n'})
    (problem,) = errors_of(site)
    assert problem.path == site / "talks/bad.md"
    assert problem.line == 4


def test_non_utf8_file_is_an_error_with_line_and_column(make_site):
    site = make_site({"talks/bad.md": b'+++\ntitle = "Caf\xe9"\n+++\n'})
    (problem,) = errors_of(site)
    assert "UTF-8" in problem.message
    assert problem.line == 2
    assert problem.column == 13
    assert problem.hint


def test_utf8_with_bom_and_crlf_loads(make_site):
    site = loaded(make_site({"talks/w.md": b'\xef\xbb\xbf+++\r\ntitle = "Win"\r\n'
                                          b'date = 2019-05-22\r\n+++\r\nBody\r\n'}))
    assert site.talks[0].title == "Win"


def test_config_errors_are_reported_with_talk_errors(make_site):
    site = make_site({"talkpages.toml": "default_length = 0\n",
                      "talks/bad.md": '+++\ndate = 2019-05-22\n+++\n'})
    problems = errors_of(site)
    assert {p.path.name for p in problems if p.path} == {"talkpages.toml", "bad.md"}


def test_config_warnings_do_not_stop_the_load(make_site):
    site, problems = load(make_site({"talkpages.toml": 'titel = "x"\n', "talks/a.md": talk()}))
    assert site is not None
    assert [p.severity for p in problems] == ["warning"]


def test_site_timezone_applies_to_naive_talk_dates(make_site):
    site = loaded(make_site({"talkpages.toml": 'timezone = "Europe/Madrid"\n',
                             "talks/a.md": talk(date="2019-05-22T14:50:00")}))
    assert site.talks[0].schedule.start.isoformat() == "2019-05-22T14:50:00+02:00"


# --- Missing folders --------------------------------------------------------------------

def test_missing_talks_folder_is_an_error(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (problem,) = errors_of(site)
    assert problem.path == site / "talks"
    assert "talks/" in problem.message
    assert problem.hint


def test_talks_that_is_a_file_is_an_error(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "talks").write_text("oops")
    assert errors_of(site)


def test_missing_site_folder_is_an_error(tmp_path):
    (problem,) = errors_of(tmp_path / "nowhere")
    assert problem.path == tmp_path / "nowhere"
    assert "does not exist" in problem.message


def test_empty_talks_folder_is_an_empty_site(make_site):
    site = loaded(make_site({}))
    assert site.talks == ()
