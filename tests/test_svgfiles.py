"""An SVG logo or favicon (svgfiles.py): its size read in linear time, and a file that
could run a script or load another when opened by itself refused, with its line."""

from __future__ import annotations

import time

import pytest

from talkpages.content.svgfiles import svg_size

NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def svg(inner: str = "", attributes: str = 'viewBox="0 0 90 30"') -> bytes:
    return f'<svg {NS} {attributes}>{inner}</svg>'.encode()


def test_the_size_of_a_drawing_programs_svg() -> None:
    exported = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<!DOCTYPE svg PUBLIC '
                '"-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
                f'<svg {NS} width="90px" height=" 30 "><defs><linearGradient id="g"/></defs>'
                '<rect fill="url(#g)" style="fill:url( \'#g\' )"/><use xlink:href="#g"/>'
                '<image href="data:image/png;base64,iVBORw0KGgo="/>'
                '<style><![CDATA[.a{fill:url(#g)}]]></style><a href="#top"/></svg>')
    assert svg_size(exported.encode()) == (90.0, 30.0)
    assert svg_size(svg(attributes='viewBox="0,0,90,30" width="9" height="3"')) == (90, 30)
    assert svg_size(svg(attributes='viewBox="0 0 0 0" width="9" height="3"')) == (9, 3)
    assert "gives no size" in str(svg_size(svg(attributes='width="100%" height="3"')))


@pytest.mark.parametrize("number", ["1" * 20_000 + "x", "1" * 20_000])
def test_a_long_number_in_a_size_is_refused_at_once(number: str) -> None:
    # a regular expression with two ways to split a run of digits took 22 s on 20,000
    start = time.perf_counter()
    for attributes in (f'viewBox="0 0 {number} 1"', f'width="{number}" height="1"'):
        assert "characters long" in str(svg_size(svg(attributes=attributes)))
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("box", ["0 0 1e300 1e-300", "0 0 2000000 20", "0 0 1 5000"])
def test_a_size_no_picture_has_is_refused(box: str) -> None:
    assert "is not one of a picture" in str(svg_size(svg(attributes=f'viewBox="{box}"')))


@pytest.mark.parametrize("inner, what", [
    ("<script>alert(1)</script>", "a <script> element"),
    ('<g onclick="alert(1)"/>', "an event handler, onclick="),
    ('<a href="jav&#x09;ascript:alert(1)"><text>x</text></a>', "a script address in href="),
    ('<a xlink:href=" JaVaScRiPt:alert(1)"/>', "a script address in href="),
    ('<a href="&#106;avascript:alert(1)"/>', "a script address in href="),
    ("<foreignObject><p>x</p></foreignObject>", "a <foreignObject> element"),
    ('<image href="https://tracker.example/x.png"/>', "a link out of the file"),
    ('<use xlink:href="other.svg#a"/>', "a link out of the file"),
    ('<image href="data:image/svg+xml,&lt;svg onload=alert(1)&gt;"/>', "a link out of"),
    ('<rect fill="url(https://e.org/p.svg#a)"/>', "a reference out of the file"),
    ('<style>@import "https://e.org/x.css";</style>', "a CSS @import"),
    ("<style><![CDATA[.a{background:url(//e.org/x)}]]></style>", "a reference out of"),
    ('<set attributeName="onmouseover" to="alert(1)"/>', "an animation of onmouseover="),
    ('<g xml:base="https://e.org/"><use href="#a"/></g>', "an xml:base address"),
    ('<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="x"/>', "an element of HTML"),
])
def test_an_svg_that_could_act_when_opened_is_refused(inner: str, what: str) -> None:
    said = str(svg_size(svg("\n\n" + inner)))
    assert said.startswith(f"the SVG has {what}") and "at line 3" in said, said
    assert said.endswith("remove it, or give a PNG")


@pytest.mark.parametrize("prologue, what", [
    ('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
     "a DOCTYPE with declarations of its own"),
    ('<?xml-stylesheet type="text/xsl" href="x.xsl"?>', "a processing instruction"),
])
def test_entities_and_stylesheets_are_never_read(prologue: str, what: str) -> None:
    assert str(svg_size(prologue.encode() + svg("&b;"))).startswith(f"the SVG has {what}")


def test_a_large_svg_is_read_in_linear_time() -> None:
    paths = "".join(f'<path d="M{i} 0h1" fill="url(#g)"/>' for i in range(100_000))
    deep = "<g>" * 50_000 + "</g>" * 50_000
    start = time.perf_counter()
    assert svg_size(svg(paths + deep)) == (90, 30)
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("data, said", [
    (b'<svg width="90" height="30"', "not well-formed XML (line 1"),
    (b"<html/>", "no <svg> element"),
    (b"\xff<svg/>", "not UTF-8"),
])
def test_what_is_not_an_svg_says_so(data: bytes, said: str) -> None:
    assert said in str(svg_size(data))
