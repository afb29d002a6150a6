"""From parsed front matter to a Talk: Hugo field aliases, links, images, and the errors."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from talkpages.content.config import Config
from talkpages.content.fields import is_safe_url, make_talk
from talkpages.content.frontmatter import split
from talkpages.content.loader import LoadOptions, load_site
from talkpages.content.model import Address, Link, Talk, slugify
from talkpages.diagnostics import Diagnostic

from conftest import NOW, SEED, needs_shared

MADRID = ZoneInfo("Europe/Madrid")
UTC = timezone.utc
PATH = Path("talks/t.md")


def make(text: str, config: Config | None = None, bundle_files: tuple[str, ...] = (),
         ) -> tuple[Talk | None, list[Diagnostic]]:
    return make_talk(split(text), PATH, "t", config or Config(), bundle_files)


def ok(text: str, config: Config | None = None, bundle_files: tuple[str, ...] = ()) -> Talk:
    talk, problems = make(text, config, bundle_files)
    assert [p for p in problems if p.is_error] == [], [p.format() for p in problems]
    assert talk is not None
    return talk


def errors(text: str, config: Config | None = None) -> list[Diagnostic]:
    talk, problems = make(text, config)
    found = [p for p in problems if p.is_error]
    assert found, "expected an error"
    return found


def toml(*lines: str, title: str = 'title = "A talk"', date_line: str = "date = 2019-05-22"
         ) -> str:
    """A TOML talk file: `title` on file line 2, `date` on line 3, `lines` from line 4."""
    head = [line for line in (title, date_line) if line]
    return "+++\n" + "\n".join(head + list(lines)) + "\n+++\nBody\n"


# --- The seed file, unchanged --------------------------------------------------------------

def load_seed(make_site, text: str, config: str | None = None) -> Talk:
    files: dict[str, str | bytes] = {"talks/x/index.md": text, "talks/x/featured.jpg": b"\xff"}
    if config is not None:
        files["talkpages.toml"] = config
    site, problems = load_site(make_site(files), LoadOptions(now=NOW))
    assert [p for p in problems if p.is_error] == [], [p.format() for p in problems]
    assert site is not None
    (talk,) = site.talks
    return talk


def assert_seed_schedule(talk: Talk) -> None:
    schedule = talk.schedule
    assert schedule.all_day is False
    assert schedule.zone == "Europe/Madrid"
    assert schedule.start.isoformat() == "2019-05-22T14:50:00+02:00"
    assert schedule.end.isoformat() == "2019-05-22T15:25:00+02:00"


@needs_shared
def test_seed_loads_with_the_site_time_zone(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"),
                     'timezone = "Europe/Madrid"\n')
    assert_seed_schedule(talk)


@needs_shared
def test_seed_loads_with_a_talk_time_zone(make_site):
    text = SEED.read_text(encoding="utf-8").replace(
        "all_day = false\n", 'all_day = false\ntimezone = "Europe/Madrid"\n', 1)
    assert 'timezone = "Europe/Madrid"' in text
    talk = load_seed(make_site, text, 'timezone = "Asia/Tokyo"\n')
    assert_seed_schedule(talk)


@needs_shared
def test_seed_fields(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"), 'timezone = "Europe/Madrid"\n')
    assert talk.slug == "x"
    assert talk.title == "Intro: Kubernetes Batch Scheduling"
    assert talk.authors == ("Kevin Wang",)
    assert talk.event == "KubeCon Europe"
    assert talk.event_url == ("https://kccnceu19.sched.com/event/"
                              "ed36bb83476fce99a92e93f29965efea?iframe=no")
    assert talk.location == "Barcelona, Europe"
    assert talk.abstract.startswith("Introducing Volcano")
    assert talk.math is True
    assert talk.featured is False
    assert talk.tags == ()
    assert talk.draft is False
    assert talk.publish_date == datetime(2019, 6, 6, tzinfo=MADRID)


@needs_shared
def test_seed_links_are_only_the_non_empty_urls(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"), 'timezone = "Europe/Madrid"\n')
    assert talk.links == (
        Link("Video", "https://www.youtube.com/watch?v=rpN9IsihEKI&feature=youtu.be", "video"),)


@needs_shared
def test_seed_image_caption_and_featured_file(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"), 'timezone = "Europe/Madrid"\n')
    assert talk.image is not None
    assert talk.image.file == "featured.jpg"
    assert talk.image.caption == "Da Ma & Kevin Wang introducing Volcano at KubeCon Europe, 2019"
    assert talk.image.focal_point == "Right"


@needs_shared
def test_seed_unknown_keys_go_to_params(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"), 'timezone = "Europe/Madrid"\n')
    assert talk.params == {"location_img": "/img/icon_location.svg",
                           "time_img": "/img/icon_time.svg"}


@needs_shared
def test_seed_body_is_the_markdown_after_the_front_matter(make_site):
    talk = load_seed(make_site, SEED.read_text(encoding="utf-8"), 'timezone = "Europe/Madrid"\n')
    assert talk.body.startswith("## Introduction to Cloud Native Batch System")
    assert "+++" not in talk.body


def test_unknown_keys_such_as_slides_are_kept_in_params_with_their_values():
    talk = ok(toml('slides = "introducing-volcano"', "[extra_stuff]", "a = 1"))
    assert talk.params == {"slides": "introducing-volcano", "extra_stuff": {"a": 1}}


def test_known_keys_and_url_keys_are_not_in_params():
    talk = ok(toml('location = "Here"', 'url_pdf = "a.pdf"', 'math = true'))
    assert talk.params == {}


# --- Hugo aliases and case --------------------------------------------------------------

def test_time_start_and_time_end_win_over_date():
    # In old Academic, `date` was the page's publish date and `time_start` the talk's.
    talk = ok(toml("time_start = 2019-05-22T14:50:00", "time_end = 2019-05-22T15:25:00",
                   date_line="date = 2030-01-01"))
    assert talk.schedule.start.isoformat() == "2019-05-22T14:50:00+00:00"
    assert talk.schedule.end.isoformat() == "2019-05-22T15:25:00+00:00"


def test_event_start_event_end_and_event_all_day():
    talk = ok(toml("event_start = 2019-05-20T09:00:00", "event_end = 2019-05-22T18:00:00",
                   "event_all_day = true", date_line=""))
    assert talk.schedule.all_day is True
    assert (talk.schedule.start, talk.schedule.end) == (date(2019, 5, 20), date(2019, 5, 22))


def test_event_name_is_the_event():
    assert ok(toml('event_name = "KubeCon"')).event == "KubeCon"


def test_event_wins_over_event_name_when_both_are_written():
    assert ok(toml('event = "A"', 'event_name = "B"')).event == "A"


def test_empty_time_start_falls_back_to_date():
    talk = ok(toml('time_start = ""', date_line="date = 2019-05-22T10:00:00"))
    assert talk.schedule.start.isoformat() == "2019-05-22T10:00:00+00:00"


@pytest.mark.parametrize("key", ["publishDate", "publishdate", "PublishDate", "PUBLISHDATE"])
def test_keys_are_matched_without_regard_to_case(key):
    talk = ok(toml(f"{key} = 2019-06-06T00:00:00Z"))
    assert talk.publish_date == datetime(2019, 6, 6, tzinfo=UTC)


def test_title_and_date_keys_in_another_case():
    talk = ok('+++\nTitle = "T"\nDate = 2019-05-22\n+++\n')
    assert talk.title == "T"
    assert talk.schedule.start == date(2019, 5, 22)


def test_naive_publish_date_is_in_the_talk_zone():
    talk = ok(toml('timezone = "Europe/Madrid"', "publishDate = 2019-06-06T00:00:00"))
    assert talk.publish_date == datetime(2019, 6, 5, 22, tzinfo=UTC)


def test_publish_date_as_a_date_is_midnight():
    talk = ok(toml("publishDate = 2019-06-06"))
    assert talk.publish_date == datetime(2019, 6, 6, tzinfo=UTC)


def test_lastmod_is_read():
    assert ok(toml("lastmod = 2020-01-02T03:04:05Z")).lastmod == datetime(
        2020, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_invalid_publish_date_is_an_error_on_its_line():
    (problem,) = errors(toml('publishDate = "soon"'))
    assert problem.line == 4
    assert "publishdate" in problem.message.lower()


def test_yaml_talk_with_an_offset_keeps_it():
    talk = ok("---\ntitle: T\ndate: 2019-05-22 14:50:00 +02:00\n---\n")
    assert talk.schedule.start.utcoffset() == timedelta(hours=2)
    assert talk.schedule.start_utc == datetime(2019, 5, 22, 12, 50, tzinfo=UTC)
    assert talk.schedule.zone is None


def test_yaml_talk_with_a_date_is_all_day():
    talk = ok("---\ntitle: T\ndate: 2019-05-22\n---\n")
    assert talk.schedule.all_day is True


def test_talk_zone_converts_an_offset_time():
    talk = ok(toml('timezone = "Europe/Madrid"', date_line="date = 2019-05-22T12:50:00Z"))
    assert talk.schedule.start.isoformat() == "2019-05-22T14:50:00+02:00"


def test_invalid_talk_timezone_is_an_error_with_suggestions():
    (problem,) = errors(toml('timezone = "Europe/Madird"'))
    assert problem.line == 4
    assert "'Europe/Madrid'" in problem.message


def test_nonexistent_local_time_is_an_error_on_the_date_line_with_a_hint():
    (problem,) = errors(toml('timezone = "Europe/Madrid"',
                             date_line="date = 2019-03-31T02:30:00"))
    assert problem.line == 3
    assert problem.hint and "03:30" in problem.hint


def test_end_before_start_is_reported_on_the_end_line():
    (problem,) = errors(toml("date_end = 2019-05-22T14:00:00",
                             date_line="date = 2019-05-22T14:50:00"))
    assert problem.line == 4
    assert "date_end" in problem.message


def test_time_end_before_time_start_names_time_end():
    (problem,) = errors(toml("time_start = 2019-05-22T14:50:00", "time_end = 2019-05-22T14:00:00"))
    assert "time_end" in problem.message
    assert problem.line == 5


def test_invalid_date_text_is_an_error_on_its_line():
    (problem,) = errors(toml(date_line='date = "2019-12.19T14:58:00+02:00"'))
    assert problem.line == 3
    assert "date" in problem.message


def test_default_length_comes_from_the_config():
    talk = ok(toml(date_line="date = 2019-05-22T14:50:00"), Config(default_length=25))
    assert talk.schedule.end_utc - talk.schedule.start_utc == timedelta(minutes=25)


# --- Links ------------------------------------------------------------------------------

@pytest.mark.parametrize(("key", "label"), [
    ("url_pdf", "PDF"), ("url_slides", "Slides"), ("url_video", "Video"), ("url_code", "Code"),
    ("url_dataset", "Dataset"), ("url_poster", "Poster"), ("url_project", "Project"),
    ("url_source", "Source"), ("url_preprint", "Preprint"),
    ("url_my_thing", "My Thing"), ("url_blog", "Blog"),
])
def test_url_fields_become_labelled_links(key, label):
    talk = ok(toml(f'{key} = "https://example.org/x"'))
    assert talk.links == (Link(label, "https://example.org/x", key[4:]),)


def test_url_key_in_another_case_is_a_link():
    (link,) = ok(toml('URL_PDF = "a.pdf"')).links
    assert (link.name, link.url, link.kind) == ("PDF", "a.pdf", "pdf")


def test_links_tables():
    talk = ok(toml("[[links]]", 'name = "Blog post"', 'url = "https://blog.example.org/"',
                   "[[links]]", 'name = "Notes"', 'url = "notes.pdf"'))
    assert talk.links == (Link("Blog post", "https://blog.example.org/", "custom"),
                          Link("Notes", "notes.pdf", "custom"))


def test_url_custom_tables():
    talk = ok(toml("[[url_custom]]", 'name = "Recording"', 'url = "https://r.example.org/"'))
    assert talk.links == (Link("Recording", "https://r.example.org/", "custom"),)


def test_link_without_a_name_is_named_by_its_url():
    (link,) = ok(toml("[[links]]", 'url = "https://e.org/"')).links
    assert link.name == "https://e.org/"


def test_links_that_are_not_tables_are_an_error():
    (problem,) = errors(toml('links = "https://e.org"'))
    assert problem.line == 4
    assert "links" in problem.message


@pytest.mark.parametrize("url", [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
])
def test_dangerous_url_is_rejected_with_the_field_name_and_line(url):
    (problem,) = errors(toml(f'url_pdf = "{url}"'))
    assert problem.line == 4
    assert "url_pdf" in problem.message
    assert problem.hint


def test_dangerous_url_in_a_links_table_is_rejected():
    (problem,) = errors(toml("[[links]]", 'name = "x"', 'url = "javascript:alert(1)"'))
    assert "links" in problem.message
    assert problem.line in (4, 6)


def test_dangerous_url_in_the_second_links_table_is_reported_at_that_table():
    (problem,) = errors(toml("[[links]]", 'name = "ok"', 'url = "https://e.org/"',
                             "[[links]]", 'name = "bad"', 'url = "javascript:alert(1)"'))
    assert problem.line in (7, 9)


def test_dangerous_event_url_is_rejected():
    (problem,) = errors(toml('event_url = "javascript:alert(1)"'))
    assert "event_url" in problem.message
    assert problem.line == 4


@pytest.mark.parametrize("url", ["slides.pdf", "/files/slides.pdf", "../x.pdf", "#notes",
                                 "mailto:kevin@example.org", "https://e.org/a:b",
                                 "http://example.org"])
def test_relative_mailto_and_http_urls_are_accepted(url):
    (link,) = ok(toml(f'url_pdf = "{url}"')).links
    assert link.url == url


def test_url_that_is_not_text_is_an_error():
    (problem,) = errors(toml("url_pdf = 5"))
    assert "url_pdf" in problem.message


@pytest.mark.parametrize("url", ["javascript:x", "data:x", "vbscript:x", "JAVASCRIPT:x",
                                 "\x01javascript:x", "java\nscript:x"])
def test_is_safe_url_refuses_script_schemes(url):
    assert not is_safe_url(url)


# --- Empty values -----------------------------------------------------------------------

def test_empty_strings_are_treated_as_absent():
    talk = ok(toml('date_end = ""', 'url_slides = ""', 'url_code = ""', 'event_url = ""',
                   'location = ""', 'timezone = ""', 'slug = ""', 'publishDate = ""',
                   'lastmod = ""', 'authors = ""', 'event = ""', 'all_day = ""', 'draft = ""',
                   date_line="date = 2019-05-22T14:50:00"), Config(timezone="Europe/Madrid"))
    assert talk.links == ()
    assert talk.event_url == ""
    assert talk.location == ""
    assert talk.slug == "t"
    assert talk.publish_date is None
    assert talk.lastmod is None
    assert talk.authors == ()
    assert talk.draft is False
    assert talk.schedule.all_day is False
    assert talk.schedule.zone == "Europe/Madrid"
    assert talk.schedule.end_utc - talk.schedule.start_utc == timedelta(minutes=60)


# --- Missing or invalid fields ----------------------------------------------------------

def test_missing_title_is_an_error_with_a_hint():
    (problem,) = errors(toml(title=""))
    assert "title" in problem.message
    assert problem.hint and "title" in problem.hint
    assert problem.path == PATH


def test_empty_title_is_a_missing_title():
    (problem,) = errors(toml(title='title = "  "'))
    assert "no title" in problem.message


def test_missing_date_is_an_error_with_a_hint():
    (problem,) = errors(toml(date_line=""))
    assert "no date" in problem.message
    assert problem.hint and "date" in problem.hint


def test_empty_date_is_a_missing_date():
    (problem,) = errors(toml(date_line='date = ""'))
    assert "no date" in problem.message


def test_missing_title_and_date_are_both_reported():
    problems = errors("+++\nauthors = []\n+++\n")
    messages = " | ".join(p.message for p in problems)
    assert "no title" in messages and "no date" in messages


def test_title_that_is_not_text_is_an_error():
    problems = errors(toml(title="title = [1, 2]"))
    assert any("`title` must be text" in p.message and p.line == 2 for p in problems)


@pytest.mark.parametrize("slug", ["../etc", "a b", "a/b", "-leading", ".", "a..b"])
def test_invalid_slug_is_an_error_on_its_line(slug):
    (problem,) = errors(toml(f'slug = "{slug}"'))
    assert problem.line == 4
    assert "slug" in problem.message
    assert problem.hint


def test_valid_slug_replaces_the_file_name():
    assert ok(toml('slug = "kubecon-2019_batch.v2"')).slug == "kubecon-2019_batch.v2"


def test_without_a_slug_the_default_is_used():
    assert ok(toml()).slug == "t"


def test_invalid_flag_is_an_error_on_its_line():
    talk, problems = make(toml("draft = 1"))
    (problem,) = [p for p in problems if p.is_error]
    assert problem.line == 4
    assert "draft" in problem.message


def test_every_field_error_of_a_talk_is_reported_together():
    problems = errors(toml("draft = 1", 'location = ["a"]', 'url_pdf = "javascript:x"',
                           "tags = 5"))
    assert sorted(p.line for p in problems) == [4, 5, 6, 7]


def test_string_flags_true_and_false_are_accepted():
    assert ok(toml('math = "true"', 'featured = "False"')).math is True
    assert ok(toml('featured = "False"')).featured is False


def test_authors_tags_as_lists_are_deduplicated_and_stripped():
    talk = ok(toml('authors = [" Kevin Wang ", "Da Ma", "Kevin Wang", ""]',
                   'tags = "Kubernetes"'))
    assert talk.authors == ("Kevin Wang", "Da Ma")
    assert talk.tags == ("Kubernetes",)


def test_tags_that_are_not_a_list_are_an_error():
    (problem,) = errors(toml("tags = 5"))
    assert problem.line == 4


# --- Images and addresses -----------------------------------------------------------------

def test_featured_image_is_found_among_the_bundle_files():
    talk = ok(toml(), bundle_files=("slides.pdf", "featured.jpg"))
    assert talk.image is not None
    assert talk.image.file == "featured.jpg"


@pytest.mark.parametrize("name", ["featured.png", "Featured.JPG", "featured.webp",
                                  "featured.jpeg"])
def test_featured_image_in_other_formats(name):
    talk = ok(toml(), bundle_files=(name,))
    assert talk.image is not None and talk.image.file == name


def test_no_image_without_a_featured_file():
    assert ok(toml("[image]", 'caption = "C"'), bundle_files=("slides.pdf",)).image is None


def test_a_featured_file_that_is_not_an_image_is_not_the_image():
    assert ok(toml(), bundle_files=("featured.md",)).image is None


def test_image_filename_names_the_bundle_file():
    talk = ok(toml("[image]", 'filename = "cover.png"', 'caption = "C"', 'alt_text = "A"'),
              bundle_files=("cover.png", "featured.jpg"))
    assert talk.image is not None
    assert (talk.image.file, talk.image.caption, talk.image.alt_text) == ("cover.png", "C", "A")


def test_image_filename_not_in_the_bundle_falls_back_to_featured():
    talk = ok(toml("[image]", 'filename = "missing.png"'), bundle_files=("featured.jpg",))
    assert talk.image is not None and talk.image.file == "featured.jpg"


def test_address_table_gives_address_lines():
    talk = ok(toml("[address]", 'street = "C/ Major 1"', 'city = "Barcelona"',
                   'postcode = "08001"', 'region = "Catalonia"', 'country = "Spain"'))
    assert talk.address == Address("C/ Major 1", "Barcelona", "Catalonia", "08001", "Spain")
    assert talk.address.lines() == ["C/ Major 1", "08001 Barcelona", "Catalonia", "Spain"]


def test_address_lines_skip_empty_parts():
    assert Address(city="Barcelona", country="Spain").lines() == ["Barcelona", "Spain"]


def test_empty_address_table_is_no_address():
    assert ok(toml("[address]", 'street = ""')).address is None


def test_address_that_is_not_a_table_is_a_warning_not_an_error():
    talk, problems = make(toml('address = "Somewhere"'))
    assert talk is not None
    assert talk.address is None
    (problem,) = problems
    assert problem.severity == "warning"
    assert problem.line == 4


# --- Talk and slug helpers --------------------------------------------------------------

@pytest.mark.parametrize(("text", "slug"), [
    ("Intro: Kubernetes Batch", "intro-kubernetes-batch"),
    ("Café déjà vu", "cafe-deja-vu"),
    ("  --Spaces--  ", "spaces"),
    ("東京 talk", "東京-talk"),
])
def test_slugify(text, slug):
    assert slugify(text) == slug


def test_talk_url_and_upcoming():
    talk = ok(toml(date_line="date = 2019-05-22T14:50:00Z"))
    assert talk.url == "t/"
    assert talk.is_upcoming(datetime(2019, 5, 22, 15, 0, tzinfo=UTC))  # under way
    assert not talk.is_upcoming(datetime(2019, 5, 22, 15, 50, tzinfo=UTC))


def test_empty_lists_are_empty_values_as_in_hugo_files():
    """Real Hugo files write `event_url: []` and `street: []` for "none"."""
    talk = ok(toml('event_url = []', 'url_slides = []',
                   '[address]', 'street = []', 'city = "Bayreuth"'))
    assert talk.event_url == ""
    assert talk.links == ()
    assert talk.address is not None and talk.address.lines() == ["Bayreuth"]
