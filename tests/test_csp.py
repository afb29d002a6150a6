"""The pages' Content-Security-Policy with `unsafe_html`: a talk's page lets through the
https hosts its own text embeds frames and scripts from, and nothing else; never
inline script. `check` names what will not load, and why."""

from __future__ import annotations

import re
import time

import pytest

from talkpages.content.embedcheck import embedded, origin
from talkpages.output.embeds import talk_origins
from test_embeds import csp_of

from conftest import NOW, MakeSite, outputs, render_site, talk

UNSAFE = 'base_url = "https://talks.example.org/"\nunsafe_html = true\n'
# As Hugo Academic talk bodies carry them: a player, a podcast and a map, a widget's
# script, and the widget's inline call.
BODY = """\
## Recording

<div class="video">
<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ"
  title="YouTube video player" frameborder="0" allowfullscreen></iframe>
</div>

<iframe src="https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk" width="100%"
  height="152"></iframe>
<iframe src="//www.openstreetmap.org/export/embed.html?bbox=13.37,52.51,13.39,52.52"></iframe>

<script src="https://cdn.jsdelivr.net/npm/add-to-calendar-button@2" async defer></script>
"""


def policy(page: str) -> dict[str, list[str]]:
    found = {}
    for directive in csp_of(page).split(";"):
        name, *sources = directive.split()
        found[name] = sources
    return found


def built(make_site: MakeSite, config: str, files: dict[str, str]) -> dict[str, bytes]:
    site = make_site({"talkpages.toml": config, **files})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)


def test_a_talk_page_lets_through_the_hosts_its_text_embeds(make_site: MakeSite) -> None:
    pages = built(make_site, UNSAFE, {"talks/a.md": talk("A", body=BODY),
                                      "talks/b.md": talk("B")})
    a = policy(pages["a/index.html"].decode())
    assert a["frame-src"] == ["'self'", "https://open.spotify.com",
                              "https://www.openstreetmap.org", "https://www.youtube.com"]
    assert a["script-src"][0] == "'self'" and a["script-src"][1].startswith("'sha256-")
    assert a["script-src"][2:] == ["https://cdn.jsdelivr.net"]
    for other in ("b/index.html", "index.html"):  # pages that show no such text
        base = policy(pages[other].decode())
        assert base["frame-src"] == ["'self'"] and len(base["script-src"]) == 2
    assert "'unsafe-inline'" not in pages["a/index.html"].decode()
    assert '<iframe width="560"' in pages["a/index.html"].decode()


def test_without_unsafe_html_no_host_is_added(make_site: MakeSite) -> None:
    pages = built(make_site, 'base_url = "https://talks.example.org/"\n',
                  {"talks/a.md": talk("A", body=BODY)})
    page = pages["a/index.html"].decode()
    assert policy(page)["frame-src"] == ["'self'"]
    assert "&lt;iframe" in page and "<iframe width" not in page


def test_the_players_a_site_turns_on_stay_with_the_talks_hosts(make_site: MakeSite) -> None:
    pages = built(make_site, UNSAFE + "embed_videos = true\n", {"talks/a.md": talk(
        "A", body='<iframe src="https://player.vimeo.com/video/76979871"></iframe>')})
    assert policy(pages["a/index.html"].decode())["frame-src"] == [
        "'self'", "https://www.youtube-nocookie.com", "https://player.vimeo.com"]


def test_a_sites_own_base_template_gets_the_talks_policy(make_site: MakeSite) -> None:
    own = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
           '<meta http-equiv="Content-Security-Policy" content="{{ "x" | '
           'content_security_policy }}"><title>{{ config.title }}</title></head>'
           "<body>{% block content %}{% endblock %}</body></html>\n")
    pages = built(make_site, UNSAFE, {"layouts/base.html": own, "talks/a.md": talk(
        "A", body='<iframe src="https://w.soundcloud.com/player/?url=x"></iframe>')})
    assert "https://w.soundcloud.com" in policy(pages["a/index.html"].decode())["frame-src"]


@pytest.mark.parametrize(("src", "found"), [
    ("https://www.YouTube.com/embed/x", "https://www.youtube.com"),
    ("//www.openstreetmap.org/export/embed.html", "https://www.openstreetmap.org"),
    ("https://example.org:8443/x", "https://example.org:8443"),
    ("https://example.org:443/x", "https://example.org"),
    ("https://bücher.example/x", "https://xn--bcher-kva.example"),
    ("slides/index.html", ""),  # the site's own
    ("/embed/x.html", ""),
    ("http://maps.example.org/x", None),
    ("data:text/html,<script>alert(1)</script>", None),
    ("javascript:alert(1)", None),
    ("https://a.org;script-src *", None),  # no directive slips into the policy
    ("https://a.org:99999/", None),
    ("", None),
])
def test_origin_of_an_address(src: str, found: str | None) -> None:
    assert origin(src) == found


def test_origins_are_read_from_what_the_page_shows_not_from_code(make_site: MakeSite) -> None:
    body = ("```html\n<iframe src=\"https://code.example.org/\"></iframe>\n```\n\n"
            "`<script src=\"https://span.example.org/x.js\"></script>`\n\n"
            "<iframe src='https://frame.example.org/p'></iframe>\n")
    pages = built(make_site, UNSAFE, {"talks/a.md": talk("A", body=body)})
    assert policy(pages["a/index.html"].decode())["frame-src"] == [
        "'self'", "https://frame.example.org"]
    assert [e.src for e in embedded(body)] == ["https://frame.example.org/p"]


def test_talk_origins_of_many_elements_in_linear_time(make_site: MakeSite) -> None:
    body = '<iframe src="https://a.example.org/x"></iframe>\n' * 5_000 + "<iframe " * 20_000
    site = make_site({"talkpages.toml": UNSAFE, "talks/a.md": talk("A", body=body)})
    result = render_site(site)
    assert result.ok and result.site is not None
    started = time.perf_counter()
    assert talk_origins(result.site.talks[0]) == (("https://a.example.org",), ())
    assert time.perf_counter() - started < 3


def check(run_cli, site) -> str:
    code, out, err = run_cli("check", "-s", str(site), "--now", NOW.isoformat(),
                             "--base-url", "https://talks.example.org/")
    assert code == 0, err
    return out + err


def test_check_says_an_inline_script_does_not_run_with_unsafe_html(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({"talkpages.toml": UNSAFE, "talks/a.md": talk("A", body=(
        "Add it to your calendar:\n\n<script>atcb_action({name: 'Talk'})</script>\n"
        '<iframe src="http://maps.example.org/x"></iframe>\n'
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>\n'))})
    said = check(run_cli, site)
    assert re.search(r"a\.md:8:1: warning: the body has an inline <script>; inline scripts "
                     r"do not run: the pages' CSP allows none", said)
    assert re.search(r"a\.md:9:1: warning: the body has an <iframe> of "
                     r"http://maps\.example\.org/x, which will be blocked", said)
    assert "youtube" not in said  # an https player loads


def test_check_says_a_handler_does_not_run(make_site: MakeSite, run_cli) -> None:
    site = make_site({"talkpages.toml": UNSAFE, "talks/a.md": talk("A", body=(
        '<button onclick="atcb_action(config)">Add to calendar</button>\n'))})
    assert "inline event handler (on…=); inline scripts do not run" in check(run_cli, site)


def test_check_names_a_frame_shown_as_text_without_unsafe_html(
        make_site: MakeSite, run_cli) -> None:
    site = make_site({"talks/a.md": talk("A", body=BODY)})
    said = check(run_cli, site)
    assert re.search(r"a\.md:9:1: warning: the body has an <iframe> of www\.youtube\.com, "
                     r"shown as text, not played: the site does not set `unsafe_html`", said)
    assert "url_video" in said and "embed_videos = true" in said
    assert "the body has a <script> of cdn.jsdelivr.net, shown as text, not run" in said


def test_check_of_many_frames_in_linear_time(make_site: MakeSite, run_cli) -> None:
    body = '<iframe src="http://a.example.org/x"></iframe> ' * 20_000 + "<script " * 20_000
    site = make_site({"talkpages.toml": UNSAFE, "talks/a.md": talk("A", body=body)})
    started = time.perf_counter()
    said = check(run_cli, site)
    assert time.perf_counter() - started < 10
    assert "will be blocked" in said
