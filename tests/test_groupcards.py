"""The social cards of speakers' and tags' pages (social.GroupCard, groupcards.py):
1200 x 630, a speaker's photo cut round on it, named by the pages' og:image and
twitter:image with their size and text; drawn once and kept by the media cache; none
for a speaker without a photo by default (`"upcoming"`), and none at all with
`social_cards = "none"`."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from talkpages.output import groupcards
from talkpages.output.social import SIZE, GroupCard

from conftest import MakeSite, outputs, render_site, talk

NOW = "2026-11-21T00:00:00Z"
RED = (220, 30, 30)
SPEAKERS = ('[ada]\nname = "Ada Lovelace"\naffiliation = "Analytical Engines Ltd"\n'
            'photo = "speakers/ada.jpg"\n')


def meta(page: str) -> dict[str, str]:
    return dict((a or b, c) for a, b, c in re.findall(
        r'<meta (?:property="([^"]+)"|name="([^"]+)") content="([^"]*)">', page))


def red_photo() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (400, 500), RED).save(out, "JPEG", quality=95)
    return out.getvalue()


def site_of_groups(make_site: MakeSite, config: str = "") -> Path:
    return make_site({
        "talkpages.toml": 'title = "Lab Talks"\nbase_url = "https://example.org/"\n' + config,
        "speakers.toml": SPEAKERS, "speakers/ada.jpg": red_photo(),
        "talks/a.md": talk("A", "2019-05-22T14:50:00", 'authors = ["ada", "Bo"]\ntags = ["Rust"]'),
        "talks/b.md": talk("B", "2019-06-22T14:50:00", 'authors = ["Bo"]\ntags = ["Rust"]')})


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], by: int = 40) -> bool:
    return all(abs(a - b) <= by for a, b in zip(pixel, colour, strict=False))


def test_a_speaker_and_a_tag_page_share_a_card_of_their_own(make_site: MakeSite) -> None:
    files = outputs(render_site(site_of_groups(make_site)))
    with Image.open(io.BytesIO(files["speakers/ada-lovelace/card.jpg"])) as card:
        assert (card.width, card.height, card.format) == (1200, 630, "JPEG")
        card = card.convert("RGB")
        left, top = 72, (630 - groupcards.PHOTO) // 2
        middle = left + groupcards.PHOTO // 2, top + groupcards.PHOTO // 2
        assert near(card.getpixel(middle), RED)  # the photo, on the left
        assert not near(card.getpixel((left + 4, top + 4)), RED)  # its corner: cut round
        assert not near(card.getpixel((900, 315)), RED)  # the text's side
        # the name and the affiliation stand beside the photo's middle, the site's
        # name above them at the top
        rows = [y for y in range(140, 630) if any(
            near(card.getpixel((x, y)), (255, 255, 255), 60) for x in range(470, 1100, 2))]
        assert rows and abs((rows[0] + rows[-1]) / 2 - middle[1]) < 40, (rows[0], rows[-1])
    with Image.open(io.BytesIO(files["tags/rust/card.jpg"])) as card:
        assert (card.width, card.height) == SIZE
    expected = {"speakers/ada-lovelace/": "Ada Lovelace · Analytical Engines Ltd · Lab Talks",
                "tags/rust/": "Rust · 2 talks · Lab Talks"}
    for folder, alt in expected.items():
        tags = meta(files[f"{folder}index.html"].decode())
        image = f"https://example.org/{folder}card.jpg"
        assert tags["og:image"] == tags["twitter:image"] == image, folder
        assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
        assert tags["og:image:alt"] == tags["twitter:image:alt"] == alt
        assert tags["twitter:card"] == "summary_large_image"
    for page in ("years/2019/index.html", "speakers/bo/index.html"):
        # a year's page, and a speaker without a photo: the site's card
        assert meta(files[page].decode())["og:image"] == "https://example.org/card.jpg"
    assert "speakers/bo/card.jpg" not in files


def test_all_cards_draws_a_speakers_card_without_a_photo_too(make_site: MakeSite) -> None:
    files = outputs(render_site(site_of_groups(make_site, 'social_cards = "all"\n')))
    with Image.open(io.BytesIO(files["speakers/bo/card.jpg"])) as card:
        assert (card.width, card.height) == SIZE
    tags = meta(files["speakers/bo/index.html"].decode())
    assert tags["og:image"] == "https://example.org/speakers/bo/card.jpg"
    assert tags["og:image:alt"] == "Bo · Lab Talks"


def test_a_tags_card_counts_its_talks_in_the_sites_language(make_site: MakeSite) -> None:
    files = outputs(render_site(site_of_groups(make_site, 'language = "de"\n')))
    assert meta(files["tags/rust/index.html"].decode())["og:image:alt"] == \
        "Rust · 2 Vorträge · Lab Talks"


def test_social_cards_none_draws_no_card_for_speakers_or_tags(make_site: MakeSite) -> None:
    files = outputs(render_site(site_of_groups(make_site, 'social_cards = "none"\n')))
    assert not [path for path in files if path.endswith("card.jpg")]
    for page in ("speakers/ada-lovelace/index.html", "tags/rust/index.html"):
        assert "og:image" not in meta(files[page].decode())


def test_a_right_to_left_name_stands_on_the_right_with_its_photo() -> None:
    photo = Image.new("RGB", (300, 300), RED)
    data = groupcards.draw(GroupCard("אדה לאבלייס", "", "Lab"), photo=photo)
    with Image.open(io.BytesIO(data)) as card:
        card = card.convert("RGB")
        assert near(card.getpixel((1200 - 72 - groupcards.PHOTO // 2, 315)), RED)
        assert not near(card.getpixel((72 + groupcards.PHOTO // 2, 315)), RED)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The group cards drawn (in this process: no workers)."""
    monkeypatch.setenv("TALKPAGES_WORKERS", "1")
    made: list[str] = []
    real = groupcards.draw

    def counting(card: GroupCard, *args: object, **kwargs: object) -> bytes:
        made.append(card.name)
        return real(card, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(groupcards, "draw", counting)
    return made


def test_a_second_build_draws_no_card_again(make_site: MakeSite, drawn: list[str],
                                            run_cli: Callable[..., tuple[int, str, str]]
                                            ) -> None:
    site = site_of_groups(make_site)
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert sorted(drawn) == ["Ada Lovelace", "Rust"]
    code, _, err = run_cli("build", "-q", "-s", str(site), "--now", NOW)
    assert code == 0, err
    assert len(drawn) == 2  # every one kept by the media cache
    (site / "speakers" / "ada.jpg").write_bytes(red_photo()[:-2] + b"\xff\xd9\x00")
    assert run_cli("build", "-q", "-s", str(site), "--now", NOW)[0] == 0
    assert drawn[2:] == ["Ada Lovelace"]  # another photo: that card alone drawn again
