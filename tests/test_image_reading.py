"""Images read through before they are published (imagefiles.examine): a truncated
file or a decompression bomb is an error at its file whatever its format, and what
Pillow warns of is a warning naming the file, never raw text on stderr."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageFile

from talkpages.content.imagefiles import check_images, examine_bytes

from conftest import NOW, ROOT, MakeSite, photo, render_site, talk

SPEAKER = '[ada]\nname = "Ada Lovelace"\nphoto = "speakers/ada.{suffix}"\n'
BY_ADA = 'authors = ["ada"]'


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + \
        struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_claiming(width: int, height: int) -> bytes:
    """A PNG of a few hundred bytes whose header claims `width` x `height` pixels."""
    rows = zlib.compress(b"\x00" * (width * 3 + 1) * 2 if width <= 4096 else b"\x00" * 64)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                              0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def animation(frames: int = 12) -> bytes:
    images = [Image.effect_mandelbrot((200, 150), (-2, -1.5, 1 + n / 10, 1.5), 40).convert("P")
              for n in range(frames)]
    out = io.BytesIO()
    images[0].save(out, "GIF", save_all=True, append_images=images[1:])
    return out.getvalue()


def cut(data: bytes, share: float = 0.6) -> bytes:
    return data[:int(len(data) * share)]


def bad_exif_jpeg() -> bytes:
    """A JPEG whose EXIF block says a tag holds more bytes than it does: Pillow warns."""
    exif = Image.Exif()
    exif[0x010F] = "M" * 200
    return photo(300, 200, exif=exif.tobytes()[:60])


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "GIF"])
def test_a_truncated_image_is_a_problem_whatever_its_format(fmt: str) -> None:
    whole = photo(300, 200, fmt)
    assert examine_bytes(whole, "a").problem == ""
    found = examine_bytes(cut(whole), "a")
    assert found.problem, fmt
    assert "truncated" in found.problem or "cannot be read" in found.problem


def test_a_truncated_animation_is_a_problem_in_any_of_its_frames() -> None:
    whole = animation()
    assert examine_bytes(whole, "a").problem == ""
    assert "truncated" in examine_bytes(cut(whole, 0.8), "a").problem


def test_a_header_that_claims_too_many_pixels_is_refused_before_decoding() -> None:
    found = examine_bytes(png_claiming(100_000, 100_000), "bomb.png")
    assert "decompression bomb" in found.problem and found.facts is None
    gif = examine_bytes(animation(3), "a")  # frames: a budget of all their pixels
    assert gif.problem == ""


def test_a_truncated_image_stays_an_error_when_pillow_was_told_to_accept_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    assert examine_bytes(cut(photo(300, 200, "PNG")), "a").problem
    assert ImageFile.LOAD_TRUNCATED_IMAGES is False


def test_pillows_warnings_are_returned_worded_not_raised(
        monkeypatch: pytest.MonkeyPatch, recwarn: pytest.WarningsRecorder) -> None:
    found = examine_bytes(bad_exif_jpeg(), "a.jpg")
    assert found.problem == ""
    assert found.warnings == ("Pillow reading the image: Tag data larger than file. "
                              "Skipping tag 271",)
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 100 * 100)  # 200 x 100: a warning
    assert "decompression bomb" in examine_bytes(photo(200, 100), "b.jpg").warnings[0]
    assert not recwarn.list


def test_a_bundles_images_are_each_checked_at_their_path(tmp_path: Path) -> None:
    (tmp_path / "diagram.png").write_bytes(cut(photo(300, 200, "PNG")))
    (tmp_path / "photo.jpg").write_bytes(bad_exif_jpeg())
    (tmp_path / "fine.webp").write_bytes(photo(300, 200, "WEBP"))
    (tmp_path / "slides.pdf").write_bytes(b"%PDF-1.4")
    found = check_images(tmp_path, ("diagram.png", "fine.webp", "photo.jpg", "slides.pdf"))
    assert [(d.path, d.severity) for d in found] == [
        (tmp_path / "diagram.png", "error"), (tmp_path / "photo.jpg", "warning")]


@pytest.mark.parametrize("image", [cut(photo(300, 300, "PNG")), png_claiming(100_000, 100_000),
                                   cut(photo(300, 300, "WEBP"))], ids=["png", "bomb", "webp"])
def test_a_truncated_or_oversized_speakers_photo_is_an_error(
        make_site: MakeSite, image: bytes) -> None:
    suffix = "webp" if image.startswith(b"RIFF") else "png"
    site = make_site({"speakers.toml": SPEAKER.format(suffix=suffix),
                      f"speakers/ada.{suffix}": image, "talks/t.md": talk("T", extra=BY_ADA)})
    errors = [d.format() for d in render_site(site).diagnostics if d.is_error]
    assert len(errors) == 1 and f"speakers.toml:3: error: `photo` of 'ada': " \
        f"'speakers/ada.{suffix}': the image" in errors[0], errors


@pytest.mark.parametrize("key", ["logo", "favicon"])
@pytest.mark.parametrize("image", [cut(photo(300, 300, "PNG")), png_claiming(100_000, 100_000)],
                         ids=["truncated", "bomb"])
def test_a_truncated_or_oversized_logo_or_favicon_is_an_error(
        make_site: MakeSite, key: str, image: bytes) -> None:
    site = make_site({"talkpages.toml": f'{key} = "images/{key}.png"\n',
                      f"images/{key}.png": image, "talks/t.md": talk("T")})
    errors = [d.format() for d in render_site(site).diagnostics if d.is_error]
    assert len(errors) == 1 and f"talkpages.toml:1: error: config value '{key}': " \
        f"'images/{key}.png': the image" in errors[0], errors


def test_a_truncated_featured_png_is_an_error_at_its_file(make_site: MakeSite) -> None:
    site = make_site({"talks/t/index.md": talk("T"),
                      "talks/t/featured.png": cut(photo(600, 400, "PNG"))})
    errors = [d for d in render_site(site).diagnostics if d.is_error]
    assert errors and all(d.path == site / "talks/t/featured.png" for d in errors)


def run_build(site: Path) -> subprocess.CompletedProcess[str]:
    """`talkpages build` in a process of its own: Python prints warnings there as it
    would for a user (pytest would catch them in its own)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TALKPAGES_WORKERS": "1"}
    return subprocess.run([sys.executable, "-m", "talkpages", "build", "-q", "-s", str(site),
                           "--now", NOW.isoformat()], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_pillows_warnings_are_diagnostics_and_stderr_carries_no_python_warning(
        make_site: MakeSite) -> None:
    site = make_site({"speakers.toml": SPEAKER.format(suffix="jpg"),
                      "speakers/ada.jpg": bad_exif_jpeg(),
                      "talks/t/index.md": talk("T", extra=BY_ADA),
                      "talks/t/featured.jpg": bad_exif_jpeg(),
                      "talkpages.toml": 'logo = "logo.jpg"\n', "logo.jpg": bad_exif_jpeg()})
    done = run_build(site)
    assert done.returncode == 0, done.stderr
    assert "Warning:" not in done.stderr and "warnings.warn" not in done.stderr, done.stderr
    assert ("speakers.toml:3: warning: `photo` of 'ada' ('speakers/ada.jpg'): Pillow reading "
            "the image: Tag data larger than file. Skipping tag 271") in done.stderr


@pytest.mark.parametrize("name, image", [
    ("featured.webp", cut(photo(600, 400, "WEBP"))), ("featured.gif", cut(photo(600, 400, "GIF"))),
    ("featured.png", png_claiming(100_000, 100_000)), ("diagram.png", cut(photo(600, 400, "PNG"))),
    ("demo.gif", cut(animation(), 0.8))], ids=["webp", "gif", "bomb", "bundle", "animation"])
def test_a_truncated_or_oversized_image_of_a_talk_is_an_error_at_its_file(
        make_site: MakeSite, name: str, image: bytes) -> None:
    site = make_site({"talks/t/index.md": talk("T"), f"talks/t/{name}": image})
    errors = [d for d in render_site(site).diagnostics if d.is_error]
    assert errors and all(d.path == site / "talks/t" / name for d in errors), errors


def test_pillows_warnings_of_a_talks_image_and_the_logo_name_the_file(
        make_site: MakeSite) -> None:
    site = make_site({"talks/t/index.md": talk("T"), "talks/t/featured.jpg": bad_exif_jpeg(),
                      "talkpages.toml": 'logo = "logo.jpg"\n', "logo.jpg": bad_exif_jpeg()})
    done = run_build(site)
    assert done.returncode == 0 and "Warning:" not in done.stderr, done.stderr
    assert "featured.jpg: warning: Pillow reading the image: Tag data" in done.stderr
    assert ("talkpages.toml:1: warning: config value 'logo' ('logo.jpg'): Pillow reading the "
            "image: Tag data") in done.stderr
