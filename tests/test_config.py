"""The site config, talkpages.toml: defaults, one validator per option, messages with lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from talkpages.content.config import CONFIG_NAME, Config, check_timezone, load_config
from talkpages.diagnostics import Diagnostic


def load(tmp_path: Path, text: str | None, overrides: dict | None = None,
         ) -> tuple[Config, list[Diagnostic]]:
    if text is not None:
        (tmp_path / CONFIG_NAME).write_text(text, encoding="utf-8")
    return load_config(tmp_path, overrides)


def only(problems: list[Diagnostic]) -> Diagnostic:
    assert len(problems) == 1, [p.format() for p in problems]
    return problems[0]


def test_defaults_when_there_is_no_config_file(tmp_path):
    config, problems = load(tmp_path, None)
    assert problems == []
    assert config == Config()
    assert config.title == "Talks"
    assert config.timezone == "UTC"
    assert config.default_length == 60
    assert config.unsafe_html is False
    assert config.base_url.endswith("/")


def test_empty_config_file_gives_the_defaults(tmp_path):
    config, problems = load(tmp_path, "")
    assert problems == []
    assert config == Config()


def test_valid_options_are_read(tmp_path):
    config, problems = load(tmp_path, """\
title = "Kevin's talks"
base_url = "https://example.org/talks/"
timezone = "Europe/Madrid"
language = "es"
description = "Talks"
author = "Kevin Wang"
calendar_name = "Kevin"
default_length = 45
unsafe_html = true

[params]
color = "teal"
""")
    assert problems == []
    assert config == Config(title="Kevin's talks", base_url="https://example.org/talks/",
                            timezone="Europe/Madrid", language="es", description="Talks",
                            author="Kevin Wang", calendar_name="Kevin", default_length=45,
                            unsafe_html=True, params={"color": "teal"})


def test_byte_order_mark_in_the_config_is_accepted(tmp_path):
    config, problems = load(tmp_path, '\ufefftitle = "T"\n')
    assert problems == []
    assert config.title == "T"


@pytest.mark.parametrize("url", ["https://example.org/talks", "https://example.org"])
def test_base_url_gets_a_trailing_slash(tmp_path, url):
    config, problems = load(tmp_path, f'base_url = "{url}"\n')
    assert problems == []
    assert config.base_url == url + "/"


def test_base_url_already_ending_in_a_slash_is_unchanged(tmp_path):
    config, _ = load(tmp_path, 'base_url = "https://example.org/talks/"\n')
    assert config.base_url == "https://example.org/talks/"


@pytest.mark.parametrize("url", ["example.org", "ftp://example.org/", "/talks/", "https://",
                                 "javascript:alert(1)"])
def test_base_url_must_be_an_absolute_http_url(tmp_path, url):
    config, problems = load(tmp_path, f'title = "T"\nbase_url = "{url}"\n')
    problem = only(problems)
    assert problem.is_error
    assert problem.line == 2
    assert "base_url" in problem.message
    assert config.base_url == Config().base_url


@pytest.mark.parametrize(("line", "key"), [
    ('title = 5', "title"),
    ('language = ["en"]', "language"),
    ('description = true', "description"),
    ('author = 1.5', "author"),
    ('calendar_name = {a = 1}', "calendar_name"),
    ('default_length = 0', "default_length"),
    ('default_length = -5', "default_length"),
    ('default_length = 1.5', "default_length"),
    ('default_length = "60"', "default_length"),
    ('default_length = true', "default_length"),
    ('unsafe_html = "yes"', "unsafe_html"),
    ('unsafe_html = 1', "unsafe_html"),
    ('params = "x"', "params"),
    ('timezone = 2', "timezone"),
])
def test_each_option_is_validated_with_its_line_in_the_message(tmp_path, line, key):
    config, problems = load(tmp_path, f'# comment\n\n{line}\n')
    problem = only(problems)
    assert problem.is_error
    assert problem.line == 3
    assert problem.path == tmp_path / CONFIG_NAME
    assert repr(key) in problem.message or f"`{key}`" in problem.message
    assert getattr(config, key) == getattr(Config(), key)


def test_message_says_what_would_be_right(tmp_path):
    _, problems = load(tmp_path, "default_length = 0\n")
    assert "60" in only(problems).message


def test_every_bad_option_is_reported_not_just_the_first(tmp_path):
    _, problems = load(tmp_path, 'title = 1\nunsafe_html = "no"\ndefault_length = 0\n')
    assert sorted(p.line for p in problems) == [1, 2, 3]


def test_unknown_key_is_a_warning_with_did_you_mean(tmp_path):
    config, problems = load(tmp_path, 'title = "T"\ntimezon = "Europe/Madrid"\n')
    problem = only(problems)
    assert problem.severity == "warning"
    assert not problem.is_error
    assert problem.line == 2
    assert "timezon" in problem.message
    assert problem.hint and "'timezone'" in problem.hint
    assert config.title == "T"


def test_unknown_key_unlike_any_option_points_to_params(tmp_path):
    _, problems = load(tmp_path, 'twitter_handle_of_the_site = "x"\n')
    problem = only(problems)
    assert problem.severity == "warning"
    assert problem.hint and "params" in problem.hint


def test_unknown_table_is_a_warning_on_its_header_line(tmp_path):
    _, problems = load(tmp_path, 'title = "T"\n\n[menu]\nmain = 1\n')
    problem = only(problems)
    assert problem.severity == "warning"
    assert problem.line == 3


def test_keys_inside_params_are_not_checked(tmp_path):
    config, problems = load(tmp_path, '[params]\nanything = 1\n"odd key" = "v"\n')
    assert problems == []
    assert config.params == {"anything": 1, "odd key": "v"}


def test_invalid_toml_is_an_error_with_the_file_line(tmp_path):
    config, problems = load(tmp_path, 'title = "T"\n\nbase_url = = 3\n')
    problem = only(problems)
    assert problem.is_error
    assert problem.line == 3
    assert problem.column is not None
    assert "TOML" in problem.message
    assert "front matter" not in problem.message
    assert config == Config()


def test_invalid_toml_on_the_first_line(tmp_path):
    _, problems = load(tmp_path, 'title = \n')
    assert only(problems).line == 1


def test_config_with_crlf_line_endings_reports_true_lines(tmp_path):
    path = tmp_path / CONFIG_NAME
    path.write_bytes(b'title = "T"\r\n\r\ndefault_length = 0\r\n')
    _, problems = load_config(tmp_path)
    assert only(problems).line == 3


def test_config_that_is_not_utf8_is_an_error(tmp_path):
    (tmp_path / CONFIG_NAME).write_bytes(b'title = "Caf\xe9"\n')
    config, problems = load_config(tmp_path)
    assert only(problems).is_error
    assert config == Config()


def test_bad_timezone_suggests_close_matches(tmp_path):
    _, problems = load(tmp_path, 'timezone = "Europe/Madird"\n')
    problem = only(problems)
    assert problem.is_error
    assert problem.line == 1
    assert "Europe/Madird" in problem.message
    assert "'Europe/Madrid'" in problem.message


def test_timezone_is_kept_when_valid(tmp_path):
    config, problems = load(tmp_path, 'timezone = "America/New_York"\n')
    assert problems == []
    assert config.timezone == "America/New_York"


@pytest.mark.parametrize("name", ["", "Mars/Olympus", "../../etc/passwd", "/etc/localtime",
                                  "Europe/Madrid\x00"])
def test_check_timezone_refuses_what_is_not_an_iana_name(name):
    with pytest.raises(ValueError, match="unknown time zone"):
        check_timezone(name)


def test_check_timezone_accepts_an_iana_name():
    check_timezone("Asia/Kathmandu")
    check_timezone("UTC")


def test_overrides_win_over_the_file(tmp_path):
    config, problems = load(tmp_path, 'base_url = "https://example.org/"\n',
                            {"base_url": "http://localhost:8000"})
    assert problems == []
    assert config.base_url == "http://localhost:8000/"


def test_overrides_are_validated_too(tmp_path):
    config, problems = load(tmp_path, None, {"default_length": -1})
    assert only(problems).is_error
    assert config.default_length == 60


def test_feed_name_falls_back_to_the_title():
    assert Config(title="Talks of K").feed_name == "Talks of K"
    assert Config(title="T", calendar_name="Cal").feed_name == "Cal"


def test_host_and_absolute_url():
    config = Config(base_url="https://example.org/talks/")
    assert config.host == "example.org"
    assert config.absolute_url("my-talk/") == "https://example.org/talks/my-talk/"
    assert config.absolute_url("/my-talk/") == "https://example.org/talks/my-talk/"


@pytest.mark.parametrize("name", ["talkpages.toml", "speakers.toml"])
def test_a_pipe_named_like_a_settings_file_is_an_error_not_a_hang(tmp_path, run_cli,
                                                                 name):
    """Reading a pipe waits for a writer forever: a site folder with one named
    talkpages.toml made `check` and `build` hang."""
    import os
    (tmp_path / "talks").mkdir()
    os.mkfifo(tmp_path / name)
    code, _, err = run_cli("check", "-s", str(tmp_path))
    assert code == 1
    assert f"{name}: error: this is not a file (a pipe" in err


@pytest.mark.parametrize("name", ["talkpages.toml", "speakers.toml"])
def test_a_settings_file_of_gigabytes_is_refused_unread(tmp_path, run_cli, name):
    (tmp_path / "talks").mkdir()
    with open(tmp_path / name, "wb") as handle:
        handle.truncate(5 * 1024 * 1024 * 1024)  # sparse: takes no room on the disk
    code, _, err = run_cli("check", "-s", str(tmp_path))
    assert code == 1
    assert f"{name}: error: the file is too large (5242880 KiB)" in err


@pytest.mark.parametrize(("value", "colour"), [
    ('"DarkSlateBlue"', "#483d8b"), ('"#0B5CAD"', "#0b5cad"), ('"#036"', "#003366"),
    ('""', "")])
def test_accent_color_is_a_hex_colour_or_a_css_name(tmp_path, value, colour):
    config, problems = load(tmp_path, f"accent_color = {value}\n")
    assert problems == []
    assert config.accent_color == colour


@pytest.mark.parametrize(("value", "words"), [
    ('"steelblu"', "did you mean 'steelblue'?"), ('"#12345"', "#rrggbb"),
    ('"rgb(1, 2, 3)"', "CSS colour name"), ("12", "expected a string")])
def test_accent_color_that_is_not_a_colour_is_an_error_at_its_line(tmp_path, value, words):
    config, problems = load(tmp_path, f'title = "T"\naccent_color = {value}\n')
    problem = only(problems)
    assert problem.is_error and problem.line == 2 and problem.path == tmp_path / CONFIG_NAME
    assert "'accent_color'" in problem.message and words in problem.message
    assert config.accent_color == ""


def test_an_accent_too_light_to_read_is_a_warning_naming_the_shade_used(tmp_path):
    config, problems = load(tmp_path, 'title = "T"\n\naccent_color = "yellow"\n')
    problem = only(problems)
    assert problem.severity == "warning" and problem.line == 3
    assert problem.path == tmp_path / CONFIG_NAME
    assert "'accent_color'" in problem.message and "1.02:1" in problem.message
    assert "#747300" in problem.message
    assert config.accent_color == "#ffff00"  # used, through its shades


def test_an_accent_that_reads_well_gives_no_warning(tmp_path):
    assert load(tmp_path, 'accent_color = "navy"\n')[1] == []


SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="9"/></svg>'


def test_logo_and_favicon_are_files_of_the_site_measured(tmp_path):
    from conftest import photo

    (tmp_path / "images").mkdir()
    (tmp_path / "images/logo.svg").write_bytes(SVG)
    (tmp_path / "images/icon.png").write_bytes(photo(64, 48, "PNG"))
    config, problems = load(tmp_path, 'logo = "images/logo.svg"\nfavicon = "images/icon.png"\n')
    assert problems == []
    assert config.logo is not None and config.favicon is not None
    assert (config.logo.format, config.logo.width, config.logo.height) == ("svg", 120, 40)
    assert (config.favicon.format, config.favicon.width, config.favicon.height) == ("png", 64, 48)
    assert len(config.logo.digest) == 32
    assert load(tmp_path, 'logo = ""\nfavicon = " "\n') == (Config(), [])


@pytest.mark.parametrize(("key", "value", "files", "words"), [
    ("logo", '"../logo.svg"', {}, "not a relative path inside the site"),
    ("logo", '"/etc/logo.svg"', {}, "not a relative path inside the site"),
    ("logo", '".git/logo.svg"', {}, "hidden"),
    ("logo", '"logo.svg"', {}, "there is no file 'logo.svg'"),
    ("logo", '"logo.gif"', {"logo.gif": b"GIF89a"}, "not one of the formats"),
    ("logo", '"logo.svg"', {"logo.svg": b"<svg></svg>"}, "needs a viewBox"),
    ("logo", '"logo.svg"', {"logo.svg": b"<html></html>"}, "no <svg> element"),
    ("logo", '"logo.png"', {"logo.png": b"not an image"}, "not an image talkpages can read"),
    ("favicon", '"icon.jpg"', {"icon.jpg": b""}, "(ico, png, svg)"),
    ("favicon", '"icon.png"', {"icon.png": SVG}, "not an image talkpages can read"),
    ("favicon", "3", {}, "the path of a file in the site folder"),
])
def test_a_logo_or_favicon_that_is_not_a_usable_file_is_an_error_at_its_line(
        tmp_path, key, value, files, words):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    config, problems = load(tmp_path, f'title = "T"\n{key} = {value}\n')
    problem = only(problems)
    assert problem.is_error and problem.line == 2 and problem.path == tmp_path / CONFIG_NAME
    assert f"'{key}'" in problem.message and words in problem.message, problem.message
    assert getattr(config, key) is None


@pytest.mark.parametrize("key", ["logo", "favicon"])
def test_a_logo_or_favicon_linked_out_of_the_site_is_refused(tmp_path, key):
    site, outside = tmp_path / "site", tmp_path / "secret"
    site.mkdir()
    outside.mkdir()
    (outside / "icon.svg").write_bytes(SVG)
    (site / "icon.svg").symlink_to(outside / "icon.svg")
    config, problems = load(site, f'{key} = "icon.svg"\n')
    problem = only(problems)
    assert problem.is_error and problem.line == 1 and problem.path == site / CONFIG_NAME
    assert f"'{key}'" in problem.message and "'icon.svg'" in problem.message
    assert "leads out of the site folder" in problem.message
    assert getattr(config, key) is None


@pytest.mark.parametrize("name", ["talkpages.toml", "speakers.toml"])
def test_build_and_its_fingerprint_read_no_pipe_named_like_a_settings_file(tmp_path, name):
    """Regression: the fingerprint a build takes before anything else read talkpages.toml
    (for a logo) and speakers.toml (for photos) with a plain read, which waits forever
    on a pipe and follows a link out of the site."""
    import os
    import subprocess
    import sys
    (tmp_path / "talks").mkdir()
    os.mkfifo(tmp_path / name)
    done = subprocess.run([sys.executable, "-m", "talkpages", "build", "-s", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert f"{name}: error: this is not a file (a pipe" in done.stderr
