"""Slides in the page: a PDF of the talk's folder on every site, Speaker Deck,
SlideShare and Google Slides players when the site asks (`embed_slides`); nothing is
loaded before a click (the browser side: test_browser.py)."""

from __future__ import annotations

import re

import pytest

from talkpages.output.embeds import deck_for

from conftest import MakeSite, outputs, render_site, talk


def csp_of(page: str) -> str:
    found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    assert found
    return found.group(1).replace("&#39;", "'")


def slides_page(make_site: MakeSite, link: str, config: str = "",
                files: dict[str, str | bytes] | None = None) -> str:
    site = make_site({"talkpages.toml": config,
                      "talks/s/index.md": talk("S", extra=f'url_slides = "{link}"'),
                      **(files or {})})
    result = render_site(site)
    assert result.ok, [d.format() for d in result.diagnostics]
    return outputs(result)["s/index.html"].decode()


def slides_section(page: str) -> str | None:
    found = re.search(r'<section class="slides".*?</section>', page, re.S)
    return found.group(0) if found else None


def test_a_pdf_of_the_talks_folder_is_shown_on_a_click_and_offered_for_download(
        make_site: MakeSite) -> None:
    page = slides_page(make_site, "deck.pdf", files={"talks/s/deck.pdf": b"%PDF-1.4\n"})
    section = slides_section(page)
    assert section is not None
    assert 'data-src="deck.pdf" data-kind="pdf" data-title="Slides: S"' in section
    assert 'data-play>' in section and "Show the slides here" in section
    assert '<a href="deck.pdf" download>' in section
    assert "<iframe" not in page  # made by site.js on the click
    assert "object-src 'none'" in csp_of(page) and "frame-src 'self';" in csp_of(page)


def test_a_pdf_whose_name_holds_what_an_address_means_is_named_by_its_escapes(
        make_site: MakeSite) -> None:
    """Regression: "my slides #1 é.pdf" was linked as it was, and an address ends at its
    "#": the link asked for "my slides "."""
    name = "my slides #1 é.pdf"
    page = slides_page(make_site, name, files={f"talks/s/{name}": b"%PDF-1.4\n"})
    section = slides_section(page)
    assert section is not None
    assert 'data-src="my%20slides%20%231%20%C3%A9.pdf"' in section
    assert '<a href="my%20slides%20%231%20%C3%A9.pdf" download>' in section


def test_a_pdf_elsewhere_is_a_link_only(make_site: MakeSite) -> None:
    assert slides_section(slides_page(make_site, "https://example.org/deck.pdf")) is None


@pytest.mark.parametrize(("url", "src"), [
    ("https://speakerdeck.com/player/0123456789abcdef0123456789abcdef",
     "https://speakerdeck.com/player/0123456789abcdef0123456789abcdef"),
    ("https://www.slideshare.net/slideshow/embed_code/key/AbC123xyz",
     "https://www.slideshare.net/slideshow/embed_code/key/AbC123xyz"),
    ("https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit#slide=1",
     "https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/embed"
     "?start=false"),
    ("https://docs.google.com/presentation/d/e/2PACX-1vQ0123456789abcdefghij/pub",
     "https://docs.google.com/presentation/d/e/2PACX-1vQ0123456789abcdefghij/embed?start=false"),
    ("https://speakerdeck.com/someone/a-deck", None),  # the player's id is not in the address
    ("https://www.slideshare.net/someone/a-deck", None),
    ("https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit", None),
    ("javascript://speakerdeck.com/player/0123456789abcdef0123456789abcdef", None),
    ("ftp://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit", None),
])
def test_decks_are_shown_only_from_their_players_address(url: str, src: str | None) -> None:
    found = deck_for(url)
    assert (found.src if found else None) == src


def test_third_party_decks_only_when_the_site_asks(make_site: MakeSite) -> None:
    url = "https://docs.google.com/presentation/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit"
    off = slides_page(make_site, url)
    assert slides_section(off) is None and "docs.google.com" not in csp_of(off)
    on = slides_page(make_site, url, "embed_slides = true\n")
    section = slides_section(on)
    assert section is not None and "Google Slides" in section
    assert 'data-kind="frame"' in section and "<iframe" not in on
    assert "frame-src 'self' https://speakerdeck.com https://www.slideshare.net " \
        "https://docs.google.com;" in csp_of(on)
