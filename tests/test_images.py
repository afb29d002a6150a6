"""Images made for the screen (images.py): widths, formats, crops, orientation, and
what a hostile file cannot do."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from talkpages.output import images
from talkpages.output.images import ImageError, crop_box, open_image, render
from talkpages.output.pictures import Variant, variants

from conftest import MakeSite, output_files, photo, render_site, talk


def test_widths_never_exceed_the_original_and_keep_its_shape() -> None:
    assert variants((2000, 1000)) == [Variant(w, w // 2, f) for w in (480, 960, 1440)
                                      for f in ("webp", "jpeg")]
    assert [v.width for v in variants((1000, 800))] == [480, 480, 960, 960]
    assert variants((300, 200)) == [Variant(300, 200, "webp"), Variant(300, 200, "jpeg")]
    # a 16:9 crop of a tall photo is no wider than the window that fits
    assert {(v.width, v.height) for v in variants((1000, 1000), aspect=16 / 9)} == \
        {(480, 270), (960, 540)}


def test_each_variant_is_the_size_and_format_it_says_and_carries_no_metadata() -> None:
    exif = Image.Exif()
    exif[0x010F] = "Maker"
    exif[0x0110] = "Camera X"  # and its serial number, GPS position... on a real photo
    source = open_image(photo(1600, 900, exif=exif.tobytes()))
    for variant in variants(source.size):
        data = render(source, variant)
        made = Image.open(io.BytesIO(data))
        assert made.size == (variant.width, variant.height)
        assert made.format == variant.format.upper()
        assert not made.getexif() and "exif" not in made.info


def test_the_cameras_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # taken with the phone upright: stored sideways
    source = open_image(photo(800, 600, exif=exif.tobytes()))
    assert source.size == (600, 800)


@pytest.mark.parametrize("point, box", [
    ("Center", (0, 225, 1600, 1125)), ("Top", (0, 0, 1600, 900)),
    ("BottomRight", (0, 700, 1600, 1600)), ("", (0, 350, 1600, 1250)),
])
def test_a_crop_keeps_what_the_focal_point_names(point: str, box: tuple[int, ...]) -> None:
    size = (1600, 1600) if point in ("BottomRight", "Top", "") else (1600, 1350)
    assert crop_box(size, 16 / 9, point) == box


def test_a_smart_crop_finds_the_detail() -> None:
    image = open_image(photo(900, 1600))  # the detail in the top quarter
    left, top, right, bottom = crop_box(image.size, 16 / 9, "Smart", image)
    assert (left, right) == (0, 900) and top < 1600 // 4 and bottom - top == 506


def test_a_transparent_image_becomes_a_white_backed_jpeg() -> None:
    image = Image.new("RGBA", (600, 400), (0, 0, 255, 0))
    out = io.BytesIO()
    image.save(out, "PNG")
    source = open_image(out.getvalue())
    jpeg = Image.open(io.BytesIO(render(source, Variant(480, 320, "jpeg"))))
    assert jpeg.getpixel((10, 10))[0] > 240


def test_the_same_image_gives_the_same_bytes() -> None:
    data = photo(1200, 800)
    first = [render(open_image(data), v) for v in variants((1200, 800))]
    assert first == [render(open_image(data), v) for v in variants((1200, 800))]


def test_a_decompression_bomb_is_refused_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "MAX_PIXELS", 100 * 100)
    with pytest.raises(ImageError, match="more than"):
        open_image(photo(200, 200, "PNG"))


@pytest.mark.parametrize("data", [b"", b"not an image", photo(50, 50, "PNG")[:60]])
def test_what_is_not_an_image_is_an_error_not_a_crash(data: bytes) -> None:
    with pytest.raises(ImageError, match="cannot be read"):
        open_image(data)


def test_a_featured_image_gives_its_size_to_the_talk_page(make_site: MakeSite) -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: shown 300 wide and 400 high
    site = make_site({"talks/t/index.md": talk("T"),
                      "talks/t/featured.jpg": photo(400, 300, exif=exif.tobytes()),
                      "talks/u/index.md": talk("U", "2019-05-23T10:00:00"),
                      "talks/u/featured.png": b"\x89PNG damaged"})
    pages = {o.path: o.data or b"" for o in render_site(site).outputs}
    shown = pages["t/index.html"]
    # narrower than the smallest width: one copy at its own size, shown upright
    assert b'<source type="image/webp" srcset="../t/featured-300.webp 300w"' in shown
    assert b'src="../t/featured-300.jpg" srcset="../t/featured-300.jpg 300w"' in shown
    assert b'width="300" height="400" alt="" fetchpriority="high">' in shown
    assert b'src="featured.png" alt="">' in pages["u/index.html"]  # not read: as it is
    assert "t/featured-300.webp" in pages and "t/featured.jpg" not in pages
    assert "u/featured.png" in pages


def test_a_featured_image_replaced_under_its_name_is_read_again(
        make_site: MakeSite, run_cli) -> None:  # type: ignore[no-untyped-def]
    site = make_site({"talks/t/index.md": talk("T"), "talks/t/featured.jpg": photo(400, 300)})
    assert run_cli("build", "-q", "-s", str(site))[0] == 0
    (site / "talks/t/featured.jpg").write_bytes(photo(800, 200))
    assert run_cli("build", "-q", "-s", str(site))[0] == 0
    files = output_files(site / "public")
    assert b'width="480" height="120"' in files["t/index.html"]
    assert "t/featured-480.webp" in files and "t/featured-400.webp" not in files
