"""Tags, speakers and years: slugs, grouping, and speakers.toml."""

from __future__ import annotations

from pathlib import Path

from talkpages.content import taxonomy
from talkpages.content.speakers import load_speakers

from conftest import MakeSite, photo, render_site, talk


def test_slugs_keep_letters_of_every_script_and_never_come_out_empty() -> None:
    assert taxonomy.tag_slug("SIG Scheduling") == "sig-scheduling"
    assert taxonomy.tag_slug("Café") == "cafe"
    assert taxonomy.tag_slug("云原生") == "云原生"
    assert taxonomy.speaker_slug("Klaus Ma") == "klaus-ma"
    symbols = taxonomy.tag_slug("~~~")  # `+` has a name: "+++" is plus-plus-plus
    assert symbols.startswith("x") and len(symbols) == 9
    assert symbols == taxonomy.tag_slug("~~~") != taxonomy.tag_slug("***")


def test_tags_group_regardless_of_case_with_the_first_spelling(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", "2019-01-01", 'tags = ["Kubernetes", "HPC"]'),
                      "talks/b.md": talk("B", "2019-02-01", 'tags = ["kubernetes"]'),
                      "talks/c.md": talk("C", "2019-03-01", 'tags = ["Volcano"]')})
    result = render_site(site)
    assert result.site is not None
    groups = {g.slug: g for g in taxonomy.by_tag(result.site)}
    assert list(groups) == ["hpc", "kubernetes", "volcano"]
    assert groups["kubernetes"].name == "Kubernetes"
    assert [t.title for t in groups["kubernetes"].talks] == ["A", "B"]


def test_speakers_resolve_through_speakers_toml(make_site: MakeSite) -> None:
    site = make_site({
        "speakers.toml": '[admin]\nname = "Klaus Ma"\nbio = "Volcano."\n',
        "talks/a.md": talk("A", "2019-01-01", 'authors = ["admin", "Kevin Wang"]'),
        "talks/b.md": talk("B", "2019-02-01", 'authors = ["Klaus Ma"]')})
    result = render_site(site)
    assert result.ok and result.site is not None
    groups = {g.slug: g for g in taxonomy.by_speaker(result.site)}
    assert list(groups) == ["kevin-wang", "klaus-ma"]
    klaus = groups["klaus-ma"]
    assert [t.title for t in klaus.talks] == ["A", "B"]  # "admin" and "Klaus Ma" are one
    assert klaus.speaker is not None and klaus.speaker.bio == "Volcano."
    assert taxonomy.speaker_path(result.site, "admin") == "speakers/klaus-ma/"


def test_years_newest_first_and_runs_by_year(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", "2018-12-31T23:30:00"),
                      "talks/b.md": talk("B", "2019-01-01"),
                      "talks/c.md": talk("C", "2019-06-01")})
    result = render_site(site)
    assert result.site is not None
    assert [(g.name, len(g.talks)) for g in taxonomy.years(result.site)] == [("2019", 2),
                                                                             ("2018", 1)]
    runs = taxonomy.by_year(reversed(result.site.talks))
    assert [(year, [t.title for t in talks]) for year, talks in runs] == [
        (2019, ["C", "B"]), (2018, ["A"])]


def test_status_reads_the_field_or_the_front_matter(make_site: MakeSite) -> None:
    site = make_site({"talks/a.md": talk("A", extra='status = "canceled"'),
                      "talks/b.md": talk("B")})
    result = render_site(site)
    assert result.site is not None
    statuses = {t.slug: taxonomy.status(t) for t in result.site.talks}
    assert statuses == {"a": "cancelled", "b": ""}


def test_speakers_toml_absent_is_fine(tmp_path: Path) -> None:
    assert load_speakers(tmp_path) == ({}, [])


def test_speakers_toml_problems_name_the_line(tmp_path: Path) -> None:
    (tmp_path / "speakers.toml").write_text(
        'plain = "not a table"\n["Ada"]\nbio = "x"\nwebsite = "https://a.example.org"\n\n'
        '["Grace"]\nurl = "javascript:alert(1)"\nlinks = [{ name = "X", url = "https://x.org" }]\n',
        encoding="utf-8")
    speakers, problems = load_speakers(tmp_path)
    messages = sorted((p.line, p.severity, p.message) for p in problems)
    assert messages == [
        (1, "error", "'plain' must be a table of name, bio, affiliation, url, links"),
        (4, "warning", "unknown speaker key 'website' for 'Ada'"),
        (7, "error", "`url` of 'Grace' is not an http(s) or mailto link: 'javascript:alert(1)'")]
    assert speakers["Ada"].name == "Ada" and speakers["Ada"].bio == "x"
    assert speakers["Grace"].url == ""
    assert [(link.name, link.url) for link in speakers["Grace"].links] == [("X", "https://x.org")]


def test_invalid_speakers_toml_fails_the_build_with_its_place(make_site: MakeSite) -> None:
    site = make_site({"speakers.toml": '["Ada"\nbio = 1\n', "talks/a.md": talk("A")})
    result = render_site(site)
    assert not result.ok
    text = result.diagnostics[0].format()
    assert "speakers.toml:1" in text and "invalid TOML" in text


def test_a_speaker_has_pronouns_and_a_photo_from_the_site(tmp_path: Path) -> None:
    (tmp_path / "speakers").mkdir()
    (tmp_path / "speakers" / "ada.jpg").write_bytes(photo(300, 400))
    (tmp_path / "speakers.toml").write_text(
        '["Ada"]\npronouns = "she/her"\nphoto = "speakers/ada.jpg"\n', encoding="utf-8")
    speakers, problems = load_speakers(tmp_path)
    assert problems == []
    ada = speakers["Ada"]
    assert ada.pronouns == "she/her" and ada.photo is not None
    assert (ada.photo.path, ada.photo.width, ada.photo.height) == ("speakers/ada.jpg", 300, 400)
    assert len(ada.photo.digest) == 32


def test_a_photo_outside_the_site_missing_or_not_an_image_is_an_error_at_its_line(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "speakers").mkdir(parents=True)
    (tmp_path / "id_ed25519.jpg").write_bytes(b"PRIVATE")
    (site / "speakers" / "linked.jpg").symlink_to(tmp_path / "id_ed25519.jpg")
    (site / "speakers" / "notes.txt").write_text("x")
    (site / "speakers" / "broken.png").write_bytes(b"\x89PNG not really")
    (site / "speakers.toml").write_text(
        '["A"]\nphoto = "../id_ed25519.jpg"\n["B"]\nphoto = "speakers/linked.jpg"\n'
        '["C"]\nphoto = "speakers/none.jpg"\n["D"]\nphoto = "speakers/notes.txt"\n'
        '["E"]\nphoto = ".git/x.png"\n["F"]\npronouns = "' + "x" * 41 + '"\n'
        '["G"]\nphoto = "speakers/broken.png"\n',
        encoding="utf-8")
    speakers, problems = load_speakers(site)
    found = {(p.line, p.message.split(":")[0]) for p in problems if p.is_error}
    assert found == {(2, "`photo` of 'A'"), (4, "`photo` of 'B'"), (6, "`photo` of 'C'"),
                     (8, "`photo` of 'D'"), (10, "`photo` of 'E'"),
                     (12, "`pronouns` of 'F' is longer than 40 characters"),
                     (14, "`photo` of 'G'")}
    messages = " ".join(p.message for p in problems)
    assert "leads out of the site" in messages and "no file 'speakers/none.jpg'" in messages
    assert "not a JPEG, PNG or WebP" in messages and "not a relative path" in messages
    assert "'speakers/broken.png' is not an image talkpages can read" in messages
    assert all(not s.photo for s in speakers.values())


def test_a_speakers_page_shows_their_pronouns(make_site: MakeSite) -> None:
    site = make_site({"speakers.toml": '["Ada Lee"]\npronouns = "she/her"\n',
                      "talks/a.md": talk("A", extra='authors = ["Ada Lee", "Bo Chen"]')})
    pages = {o.path: o.data or b"" for o in render_site(site).outputs}
    assert b'Ada Lee <span class="pronouns">(she/her)</span></h1>' in \
        pages["speakers/ada-lee/index.html"]
    assert b"pronouns" not in pages["speakers/bo-chen/index.html"]
