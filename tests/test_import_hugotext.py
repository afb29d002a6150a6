"""`talkpages import hugo`: a talk's text shows what the old site showed: shortcodes of
clear meaning become Markdown or fields, emoji codes follow `enableEmoji`, a featured
image's alt text is plain text."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from talkpages.commands.importers import import_site
from talkpages.content.frontmatter import split

from conftest import write_files

HEAD = "---\ntitle: Meetup\ndate: 2021-03-04T18:30:00\n{extra}---\n"


def _import(tmp_path: Path, body: str, extra: str = "", config: str = ""):
    source = write_files(tmp_path / "old", {
        "config.toml": config,
        "content/event/meetup/index.md": HEAD.format(extra=extra) + body,
    })
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    return split((site / "talks/meetup/index.md").read_text()), report


def test_a_callout_becomes_a_labelled_blockquote(tmp_path: Path) -> None:
    fm, report = _import(tmp_path, "Intro.\n\n{{% callout warning %}}\nBring a **laptop**.\n"
                         "\nAnd a charger.\n{{% /callout %}}\n\nEnd.\n")
    assert fm.body == ("Intro.\n\n> **Warning:**\n>\n> Bring a **laptop**.\n>\n"
                       "> And a charger.\n\nEnd.\n")
    assert not [p for p in report.problems if "shortcode" in p.message]


def test_a_figure_becomes_an_image_with_its_caption(tmp_path: Path) -> None:
    fm, _ = _import(tmp_path, '{{< figure src="flyer.png" caption="The **flyer**" >}}\n')
    assert fm.body == "![The flyer](flyer.png)\\\nThe **flyer**\n"


def test_youtube_becomes_the_recording_and_another_video_a_link(tmp_path: Path) -> None:
    fm, report = _import(tmp_path, "Text.\n{{< youtube dQw4w9WgXcQ >}}\n"
                         '{{< vimeo id="76979871" >}}\n')
    assert fm.data["url_video"] == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert fm.body == "Text.\n[Video](https://vimeo.com/76979871)\n"
    assert any("url_video" in change for _, change in report.changes)


def test_the_warning_shows_the_delimiters_the_file_used(tmp_path: Path) -> None:
    _, report = _import(tmp_path, "A {{% callout note %}}inline{{% /callout %}} one.\n"
                        "{{< gist jane 123 >}}\n{{< figure src=\"a.png\" {{< x >}} >}}\n")
    warning = next(p for p in report.problems if "shortcode" in p.message)
    assert "{{% callout %}}" in warning.message and "{{< gist >}}" in warning.message
    assert "{{< figure >}}" in warning.message
    assert warning.line == 5 and warning.path.name == "index.md"


def test_a_long_shortcode_line_is_read_at_once(tmp_path: Path) -> None:
    started = time.perf_counter()
    _import(tmp_path, "{{< figure src=\"" + "a " * 50_000 + "\n" + "{{% callout " * 5000)
    assert time.perf_counter() - started < 5


def test_the_featured_images_alt_text_is_plain(tmp_path: Path) -> None:
    fm, _ = _import(tmp_path, "", "image:\n  caption: 'Image credit: **[Unsplash](https://u)**'\n")
    assert fm.data["image"]["alt_text"] == "Image credit: Unsplash"
    assert fm.data["image"]["caption"] == "Image credit: **[Unsplash](https://u)**"


def test_an_alt_text_of_its_own_wins_and_is_made_plain(tmp_path: Path) -> None:
    fm, _ = _import(tmp_path, "", "image:\n  caption: 'Credit: **A**'\n"
                    "  alt_text: 'A *crowded* room'\n")
    assert fm.data["image"]["alt_text"] == "A crowded room"


@pytest.mark.parametrize("config, shown", [
    ("enableEmoji = true\n", "See you there 😉 and `:wink:` at 18:30:00.\n"),
    ("", "See you there :wink: and `:wink:` at 18:30:00.\n"),
])
def test_emoji_codes_follow_the_old_sites_enable_emoji(tmp_path: Path, config: str,
                                                       shown: str) -> None:
    fm, _ = _import(tmp_path, "See you there :wink: and `:wink:` at 18:30:00.\n",
                    config=config)
    assert fm.body == shown



def test_body_images_of_assets_media_are_copied_or_named(tmp_path: Path) -> None:
    body = "![Flyer](flyer.png)\n\n![Map](maps/venue.png)\n![Here](here.png)\n"
    source = write_files(tmp_path / "old", {
        "config.toml": "",
        "content/event/meetup/index.md": HEAD.format(extra="") + body,
        "content/event/meetup/here.png": "mine",
        "content/event/flat.md": HEAD.format(extra="") + "![Flyer](flyer.png)\n",
        "assets/media/flyer.png": "flyer",
        "assets/media/maps/venue.png": "venue",
        "assets/media/here.png": "other",
    })
    (tmp_path / "secret.png").write_text("secret")
    (source / "assets/media/leak.png").symlink_to(tmp_path / "secret.png")
    (source / "content/event/leaky.md").write_text(HEAD.format(extra="") + "![L](leak.png)\n")
    site = tmp_path / "site"
    report = import_site("hugo", source, site)
    assert report.ok, report.problems
    assert (site / "talks/meetup/flyer.png").read_text() == "flyer"
    assert (site / "talks/meetup/maps/venue.png").read_text() == "venue"
    assert (site / "talks/meetup/here.png").read_text() == "mine"  # the folder's own wins
    flat = [p for p in report.problems if p.path.name == "flat.md"]
    assert len(flat) == 1 and "flyer.png" in flat[0].message
    assert "assets/media/flyer.png" in flat[0].message
    leaky = [p for p in report.problems if p.path.name == "leaky.md"]
    assert len(leaky) == 1 and "leads out of the site" in leaky[0].message
    assert not (site / "talks/leaky").exists()
