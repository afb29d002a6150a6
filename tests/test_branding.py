"""A theme made the site's own from talkpages.toml: the accent colour in the published
stylesheet (under a new hashed name), the logo in the header, the favicon."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from talkpages.output.theme import builtin_dir

from conftest import MakeSite, outputs, photo, render_site, talk

SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 90 30"><circle r="9"/></svg>'


def built(make_site: MakeSite, config: str, **files: bytes) -> dict[str, bytes]:
    site = make_site({"talkpages.toml": config, "talks/a.md": talk(), **files})
    result = render_site(site)
    assert result.site is not None, [p.format() for p in result.diagnostics]
    copied = {o.path: o.source.read_bytes() for o in result.outputs if o.source is not None}
    return {**copied, **outputs(result)}


def stylesheet(files: dict[str, bytes]) -> tuple[str, bytes]:
    [(name, data)] = [(p, d) for p, d in files.items() if re.fullmatch(r"assets/style\..*css", p)]
    page = files["index.html"].decode()
    assert f'href="./{name}"' in page  # the pages link the stylesheet published
    return name, data


def test_the_accent_is_appended_to_the_stylesheet_under_a_new_name(make_site: MakeSite):
    plain_name, plain = stylesheet(built(make_site, 'title = "T"\n'))
    blue_name, blue = stylesheet(built(make_site, 'accent_color = "#0b5cad"\n'))
    yellow_name, yellow = stylesheet(built(make_site, 'accent_color = "yellow"\n'))
    assert len({plain_name, blue_name, yellow_name}) == 3
    assert blue.startswith(plain) and yellow.startswith(plain)
    assert b"@media screen{:root{--accent:#0b5cad;--accent-fg:#ffffff}}" in blue
    assert b"@media screen{:root{--accent:#747300;" in yellow  # darkened to read on white
    assert b":root[data-theme=dark]{--accent:#ffff00;" in yellow
    assert b"--accent:#747300" not in plain
    built_in = (builtin_dir("assets") / "style.css").read_bytes()
    assert built_in == plain and b":root{--accent:" not in built_in  # never changed


def test_the_social_cards_take_the_site_colour(make_site: MakeSite):
    def colour(files: dict[str, bytes]) -> tuple[int, ...]:
        with Image.open(io.BytesIO(files["card.jpg"])) as card:
            return card.convert("RGB").getpixel((5, 5))  # type: ignore[return-value]

    default = colour(built(make_site, 'title = "T"\n'))
    red = colour(built(make_site, 'accent_color = "#8b0000"\n'))
    assert abs(default[2] - 96) < 8 and red[0] > 120 and red[2] < 20


def test_an_svg_logo_is_published_as_it_is_before_the_title(make_site: MakeSite):
    files = built(make_site, 'title = "My Talks"\nlogo = "brand/logo.svg"\n',
                  **{"brand/logo.svg": SVG})
    [name] = [p for p in files if p.startswith("assets/logo.")]
    assert re.fullmatch(r"assets/logo\.[0-9a-f]{10}\.svg", name) and files[name] == SVG
    page = files["index.html"].decode()
    assert (f'<a class="site-title" href="./"><img class="site-logo" src="./{name}" '
            'width="120" height="40" alt=""><span>My Talks</span></a>') in page
    assert "brand/logo.svg" not in files


def test_a_raster_logo_is_published_at_the_header_height_and_twice_it(make_site: MakeSite):
    files = built(make_site, 'logo = "logo.png"\n', **{"logo.png": photo(600, 200, "PNG")})
    copies = sorted(p for p in files if p.startswith("assets/logo-"))
    assert len(copies) == 2
    sizes = []
    for name in copies:
        with Image.open(io.BytesIO(files[name])) as image:
            sizes.append((image.format, image.size))
    assert sorted(sizes) == [("PNG", (120, 40)), ("PNG", (240, 80))]
    page = files["a/index.html"].decode()
    one, two = sorted(copies, key=lambda n: int(n.split("-")[1].split(".")[0]))
    assert (f'src="../{one}" srcset="../{one} 1x, ../{two} 2x" width="120" height="40" '
            'alt=""') in page


def test_a_small_logo_is_never_enlarged(make_site: MakeSite):
    files = built(make_site, 'logo = "logo.png"\n', **{"logo.png": photo(60, 30, "PNG")})
    [name] = [p for p in files if p.startswith("assets/logo-")]
    with Image.open(io.BytesIO(files[name])) as image:
        assert image.size == (60, 30)
    assert 'width="60" height="30" alt=""' in files["index.html"].decode()
    assert "srcset" not in files["index.html"].decode().split("site-logo")[1][:200]


def test_a_new_logo_is_a_new_address_and_new_pages(make_site: MakeSite):
    first = built(make_site, 'logo = "logo.svg"\n', **{"logo.svg": SVG})
    second = built(make_site, 'logo = "logo.svg"\n', **{"logo.svg": SVG.replace(b"9", b"8")})
    assert {p for p in first if p.startswith("assets/logo")} != \
        {p for p in second if p.startswith("assets/logo")}
    assert first["index.html"] != second["index.html"]


def test_a_raster_favicon_gives_an_ico_and_a_touch_icon(make_site: MakeSite):
    files = built(make_site, 'favicon = "icon.png"\n', **{"icon.png": photo(300, 200, "PNG")})
    with Image.open(io.BytesIO(files["favicon.ico"])) as icon:
        assert icon.format == "ICO" and icon.size == (32, 32)
        assert {(16, 16), (32, 32)} <= set(icon.info["sizes"])
    with Image.open(io.BytesIO(files["apple-touch-icon.png"])) as touch:
        assert touch.format == "PNG" and touch.size == (180, 180)
    built_in = (builtin_dir("assets") / "favicon.ico").read_bytes()
    assert files["favicon.ico"] != built_in and "favicon.svg" not in files
    page = files["index.html"].decode()
    assert '<link rel="icon" href="./favicon.ico" type="image/x-icon" sizes="32x32">' in page
    assert ('<link rel="apple-touch-icon" href="./apple-touch-icon.png" type="image/png" '
            'sizes="180x180">') in page
    assert "favicon.svg" not in page


def test_an_ico_favicon_is_read_too(make_site: MakeSite):
    out = io.BytesIO()
    Image.open(io.BytesIO(photo(64, 64, "PNG"))).save(out, "ICO", sizes=[(64, 64)])
    files = built(make_site, 'favicon = "favicon-source.ico"\n',
                  **{"favicon-source.ico": out.getvalue()})
    with Image.open(io.BytesIO(files["favicon.ico"])) as icon:
        assert icon.size == (32, 32)


def test_an_svg_favicon_replaces_the_built_in_icons(make_site: MakeSite):
    files = built(make_site, 'favicon = "icon.svg"\n', **{"icon.svg": SVG})
    assert files["favicon.svg"] == SVG
    assert "favicon.ico" not in files and "apple-touch-icon.png" not in files
    page = files["index.html"].decode()
    assert page.count('rel="icon"') == 1 and 'href="./favicon.svg"' in page


def test_without_settings_the_built_in_icons_stay(make_site: MakeSite):
    files = built(make_site, 'title = "T"\n')
    assert files["favicon.svg"] == (builtin_dir("assets") / "favicon.svg").read_bytes()
    assert "favicon.ico" in files and "apple-touch-icon.png" not in files
    assert "site-logo" not in files["index.html"].decode()


def test_a_favicon_linked_out_of_the_site_stops_the_build_naming_the_key(
        make_site: MakeSite, tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(photo(40, 40, "PNG"))
    site = make_site({"talkpages.toml": 'title = "T"\nfavicon = "icon.png"\n',
                      "talks/a.md": talk()})
    (site / "icon.png").symlink_to(secret)
    result = render_site(site)
    assert result.site is None
    [problem] = [p for p in result.diagnostics if p.is_error]
    text = problem.format()
    assert "talkpages.toml:2" in text and "'favicon'" in text and "leads out of the site" in text


@pytest.mark.parametrize(("key", "markup", "said"), [
    ("logo", b'<circle onclick="alert(1)"', "event handler, onclick="),
    ("logo", b'<script>alert(1)</script><circle', "script"),
    ("favicon", b'<a href="javascript:alert(1)"><circle r="1"/></a><circle',
     "script address in href="),
    ("favicon", b'<foreignObject><p>x</p></foreignObject><circle', "foreignObject"),
])
def test_an_svg_logo_or_favicon_that_can_act_is_an_error_at_its_setting(
        make_site: MakeSite, key: str, markup: bytes, said: str) -> None:
    """Regression: an SVG logo or favicon was published as it was, and ran its script on
    the site's origin when opened by itself."""
    site = make_site({"talkpages.toml": f'title = "T"\n{key} = "icon.svg"\n',
                      "talks/a.md": talk(), "icon.svg": SVG.replace(b"<circle", markup)})
    result = render_site(site)
    assert result.site is None
    [problem] = [p.format() for p in result.diagnostics if key in p.format()]
    assert "talkpages.toml:2" in problem and f"config value '{key}'" in problem
    assert said in problem and "give a PNG" in problem


def test_an_svg_logo_with_a_number_of_twenty_thousand_digits_is_refused_at_once(
        make_site: MakeSite) -> None:
    """Regression: reading such a width took 22 s (quadratic in the number's length)."""
    import time

    site = make_site({"talkpages.toml": 'title = "T"\nlogo = "logo.svg"\n', "talks/a.md": talk(),
                      "logo.svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="'
                      + b"1" * 20_000 + b'" height="3"/>'})
    started = time.monotonic()
    result = render_site(site)
    assert time.monotonic() - started < 2
    assert result.site is None
    assert any("logo" in p.format() for p in result.diagnostics)
