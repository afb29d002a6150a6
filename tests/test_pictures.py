"""Featured images and speakers' photos as the site publishes them: resized copies,
what pages say of them, and what happens when an image cannot be made."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

from PIL import Image

from conftest import NOW, MakeSite, outputs, photo, render_site, talk

NOW_ARG = NOW.isoformat()
SPEAKERS = '[ada]\nname = "Ada Lovelace"\nphoto = "speakers/ada.jpg"\n'


def meta(page: str) -> dict[str, str]:
    return dict((a or b, c) for a, b, c in re.findall(
        r'<meta (?:property="([^"]+)"|name="([^"]+)") content="([^"]*)">', page))


def size_and_format(data: bytes) -> tuple[int, int, str]:
    with Image.open(io.BytesIO(data)) as image:
        return image.width, image.height, image.format or ""


def test_a_large_featured_image_is_published_as_copies_for_the_screen(
        make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'base_url = "https://example.org/"\n',
                      "talks/t/index.md": talk("T", extra='[image]\nalt_text = "A stage"'),
                      "talks/t/featured.jpg": photo(2000, 1000)})
    files = outputs(render_site(site))
    assert "t/featured.jpg" not in files  # the original is not linked: not published
    for width in (480, 960, 1440):
        assert size_and_format(files[f"t/featured-{width}.webp"]) == (width, width // 2, "WEBP")
        assert size_and_format(files[f"t/featured-{width}.jpg"]) == (width, width // 2, "JPEG")
    for width, height in ((160, 107), (320, 213)):  # list thumbnails, cut 3:2
        assert size_and_format(files[f"t/featured-{width}x{height}.jpg"])[:2] == (width, height)
    page = files["t/index.html"].decode()
    assert ('srcset="../t/featured-480.webp 480w, ../t/featured-960.webp 960w, '
            '../t/featured-1440.webp 1440w"') in page
    assert 'width="1440" height="720" alt="A stage" fetchpriority="high"' in page
    tags = meta(page)
    assert tags["og:image"] == "https://example.org/t/card.jpg"  # drawn over the image
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")


def test_the_original_is_published_when_the_talk_links_it(make_site: MakeSite) -> None:
    site = make_site({"talks/t/index.md": talk("T", body="[Full size](featured.jpg)"),
                      "talks/t/featured.jpg": photo(600, 400),
                      "talks/u/index.md": talk("U", extra='[[links]]\nname = "Photo"\n'
                                               'url = "./featured.png"'),
                      "talks/u/featured.png": photo(600, 400, "PNG"),
                      "talks/v/index.md": talk("V", body="See featured.jpg.old"),
                      "talks/v/featured.jpg": photo(600, 400)})
    files = {output.path for output in render_site(site).outputs}
    assert "t/featured.jpg" in files and "u/featured.png" in files
    assert "v/featured.jpg" not in files  # another name that begins the same
    assert "t/featured-480.webp" in files and "u/featured-480.webp" in files


def test_a_speakers_photo_is_cut_square_and_shown_where_the_speaker_is(
        make_site: MakeSite) -> None:
    site = make_site({"speakers.toml": SPEAKERS, "speakers/ada.jpg": photo(300, 400),
                      "talks/t.md": talk("T", extra='authors = ["ada"]')})
    files = outputs(render_site(site))
    assert size_and_format(files["speakers/ada-lovelace/photo-256.webp"]) == (256, 256, "WEBP")
    assert size_and_format(files["speakers/ada-lovelace/photo-128.jpg"])[:2] == (128, 128)
    assert "speakers/ada-lovelace/photo-512.jpg" not in files  # wider than the photo
    assert "speakers/ada.jpg" not in files


def test_an_image_that_cannot_be_resized_is_an_error_naming_the_file(
        make_site: MakeSite, run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    whole = photo(900, 600)
    site = make_site({"talks/t/index.md": talk("T"),
                      "talks/t/featured.jpg": whole[:len(whole) // 3]})  # its header reads
    out = tmp_path / "out"
    code, _, error = run_cli("build", "-s", str(site), "-o", str(out), "--now", NOW_ARG)
    assert code == 1, error
    assert "featured.jpg" in error and "internal" not in error
    assert "cannot make" in error or "truncated" in error
    assert not out.exists()


def test_changed_images_rebuild_as_a_full_build_would(make_site: MakeSite, run_cli,
                                                      tmp_path: Path) -> None:
    site = make_site({"speakers.toml": SPEAKERS, "speakers/ada.jpg": photo(300, 400),
                      "talks/t/index.md": talk("T", extra='authors = ["ada"]'),
                      "talks/t/featured.jpg": photo(1000, 500)})
    out = tmp_path / "incremental"
    steps = [
        lambda: (site / "talks/t/featured.jpg").write_bytes(photo(500, 1000)),
        lambda: (site / "speakers/ada.jpg").write_bytes(photo(200, 200)),
        lambda: (site / "talks/t/index.md").write_text(
            talk("T", extra='authors = ["ada"]\n[image]\nfocal_point = "TopLeft"')),
        lambda: (site / "talks/t/featured.jpg").rename(site / "talks/t/featured.png"),
        lambda: shutil.rmtree(site / "talks/t"),
    ]

    def build(into: Path) -> None:
        code, _, error = run_cli("build", "-s", str(site), "-o", str(into), "--now", NOW_ARG)
        assert code == 0, error

    def tree(folder: Path) -> dict[str, bytes]:
        return {p.relative_to(folder).as_posix(): p.read_bytes()
                for p in sorted(folder.rglob("*")) if p.is_file()}

    build(out)
    for number, step in enumerate(steps):
        step()
        build(out)
        fresh = tmp_path / f"full-{number}"
        build(fresh)
        assert tree(out) == tree(fresh), f"after step {number}"


def test_a_talk_page_introduces_its_speakers(make_site: MakeSite) -> None:
    site = make_site({
        "speakers.toml": SPEAKERS + 'pronouns = "she/her"\naffiliation = "Analytical Engines"\n'
                         'bio = "Wrote *the* first program."\nurl = "https://ada.example.org"\n',
        "speakers/ada.jpg": photo(300, 300),
        "talks/main.md": talk("Main", "2019-05-01T10:00:00", 'authors = ["ada", "Bob Ross", "Cy"]'),
        **{f"talks/past-{n}.md": talk(f"Past {n}", f"2019-0{n}-02T10:00:00", 'authors = ["ada"]')
           for n in (1, 2, 3)},
        "talks/soon.md": talk("Soon", "2027-01-14T18:00:00", 'authors = ["ada", "Bob Ross"]'),
    })
    page = outputs(render_site(site))["main/index.html"].decode()
    cards = page[page.index('<section class="speakers"'):]
    cards = cards[:cards.index("</section>")]
    assert "About the speakers" in cards
    assert cards.count('class="speaker-card"') == 2  # Cy: no entry, no other talk
    assert ('<h3><a href="../speakers/ada-lovelace/">Ada Lovelace</a> '
            '<span class="pronouns">(she/her)</span></h3>') in cards
    assert '<p class="affiliation">Analytical Engines</p>' in cards
    assert "<em>the</em> first program" in cards and 'href="https://ada.example.org"' in cards
    assert 'srcset="../speakers/ada-lovelace/photo-128.webp 128w, ' in cards
    # upcoming first, then the latest past ones: three in all
    ada = cards[:cards.index("Bob Ross")]
    shown = re.findall(r'<a href="\.\./([^/]+)/">', ada[ada.index("Other talks by"):])
    assert shown == ["soon", "past-3", "past-2"]
    bob = cards[cards.index("Bob Ross") - 200:]
    assert re.search(r'<span class="face initials hue-\d" aria-hidden="true">BR</span>', bob)


def test_lists_show_thumbnails_and_the_speakers_overview_shows_faces(
        make_site: MakeSite) -> None:
    site = make_site({"speakers.toml": SPEAKERS, "speakers/ada.jpg": photo(400, 400),
                      "talks/t/index.md": talk("T", extra='authors = ["ada", "Ben"]'),
                      "talks/t/featured.jpg": photo(900, 600),
                      "talks/u.md": talk("U")})
    files = outputs(render_site(site))
    index = files["index.html"].decode()
    assert index.count('class="talk-item with-picture"') == 1
    assert ('<source type="image/webp" srcset="./t/featured-160x107.webp 160w, '
            './t/featured-320x213.webp 320w"') in index
    assert 'width="320" height="213" alt="" loading="lazy"' in index
    overview = files["speakers/index.html"].decode()
    assert ('srcset="../speakers/ada-lovelace/photo-128.webp 128w, '
            '../speakers/ada-lovelace/photo-256.webp 256w"') in overview
    assert '<span class="face-name">Ada Lovelace</span>' in overview
    assert '>B</span><span class="face-name">Ben</span>' in overview
    speaker = files["speakers/ada-lovelace/index.html"].decode()
    assert '<div class="speaker-head"><picture class="face">' in speaker
    assert 'loading="lazy"' not in speaker.split("</h1>")[0]  # above the fold


def test_every_page_shares_a_card_of_1200_by_630(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'title = "Talks at the Lab"\n'
                                        'base_url = "https://example.org/"\n',
                      "talks/soon.md": talk("Soon", "2027-01-14T18:00:00",
                                            'timezone = "America/New_York"\nauthors = ["Ann"]\n'
                                            'event = "RSE Meetup"'),
                      "talks/old/index.md": talk("Old with a photo", "2019-01-01T10:00:00"),
                      "talks/old/featured.jpg": photo(1600, 1000),
                      "talks/plain.md": talk("Plain and past", "2019-02-01T10:00:00")})
    files = outputs(render_site(site))
    for path in ("soon/card.jpg", "old/card.jpg", "card.jpg"):
        assert size_and_format(files[path]) == (1200, 630, "JPEG"), path
    assert "plain/card.jpg" not in files  # past, no image: the site's card
    expected = {"soon/index.html": "soon/card.jpg", "old/index.html": "old/card.jpg",
                "plain/index.html": "card.jpg", "index.html": "card.jpg",
                "tags/index.html": "card.jpg", "speakers/ann/index.html": "card.jpg"}
    for page, card in expected.items():
        tags = meta(files[page].decode())
        assert tags["og:image"] == f"https://example.org/{card}", page
        assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630"), page
        assert tags["twitter:card"] == "summary_large_image", page
    soon = meta(files["soon/index.html"].decode())
    assert soon["og:image:alt"] == "RSE Meetup · Soon · Thu, Jan 14, 2027 · 6:00\u202fPM EST · Ann"


def test_social_cards_can_be_drawn_for_all_talks_or_none(make_site: MakeSite) -> None:
    site = make_site({"talkpages.toml": 'social_cards = "all"\n',
                      "talks/plain.md": talk("Plain and past", "2019-02-01T10:00:00"),
                      "talks/old/index.md": talk("Old with a photo", "2019-01-01T10:00:00"),
                      "talks/old/featured.jpg": photo(1600, 1000)})
    assert {"plain/card.jpg", "old/card.jpg", "card.jpg"} <= set(outputs(render_site(site)))
    (site / "talkpages.toml").write_text('social_cards = "none"\n')
    files = outputs(render_site(site))
    assert not [path for path in files if path.endswith("card.jpg")]
    assert meta(files["old/index.html"].decode())["og:image"].endswith("/old/featured-1440.jpg")
    assert "og:image" not in meta(files["plain/index.html"].decode())
    (site / "talkpages.toml").write_text('social_cards = "some"\n')
    result = render_site(site)
    assert [d.format() for d in result.diagnostics if d.is_error] == [
        f"{site / 'talkpages.toml'}:1: error: config value 'social_cards': expected one of "
        "'upcoming', 'all', 'none'"]


def test_a_featured_image_taller_than_webp_allows_is_published_narrower(
        make_site: MakeSite, run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A 1080 x 20000 screenshot: its copies fit within WebP's 16,383 pixels, whole."""
    from talkpages.output.pictures import MAX_SIDE, variants

    assert {(v.width, v.height) for v in variants((1080, 20000))} == {(480, 8889), (884, 16370)}
    assert all(v.height <= MAX_SIDE for v in variants((1, 100_000)))
    tall = io.BytesIO()
    Image.new("RGB", (1080, 20000), (200, 30, 30)).save(tall, "PNG")
    site = make_site({"talks/t/index.md": talk("T"), "talks/t/featured.png": tall.getvalue()})
    out = tmp_path / "out"
    code, _, error = run_cli("build", "-q", "-s", str(site), "-o", str(out), "--now", NOW_ARG)
    assert code == 0, error
    assert size_and_format((out / "t/featured-884.webp").read_bytes()) == (884, 16370, "WEBP")
    assert size_and_format((out / "t/featured-884.jpg").read_bytes()) == (884, 16370, "JPEG")
    assert 'width="884" height="16370"' in (out / "t/index.html").read_text()
