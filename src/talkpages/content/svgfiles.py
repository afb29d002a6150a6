"""An SVG `logo` or `favicon`: its size, and a check that it is a passive picture.

The pages show these files through <img> and <link>, where an SVG runs no script, but
they are published at addresses of the site: opened by themselves (a link to them, a
visitor's "open image in new tab") they are documents of the site's origin, and a
script in one could read and change what the visitor sees of the site. The site
folder may be a stranger's, so a file that could act is refused, with the line it
does so at:
- a <script>, <foreignObject> (HTML inside the picture), <handler>, or an element of
  HTML's namespace;
- an event-handler attribute (`onload=` and every `on…`), or an animation that sets one
  or a link;
- a `javascript:` or `vbscript:` address in any attribute, however it is spelled
  (character references are read, spaces and control characters dropped, as browsers
  do);
- a reference outside the file: a link (`href`, `xlink:href`) or a CSS `url()` that
  is not a `#fragment` of the file or a `data:image/` picture other than SVG,
  `@import`, `xml:base`, and processing instructions (`<?xml-stylesheet?>`);
- a DOCTYPE with an internal subset, or any `<!ENTITY`: an entity that expands to
  billions of characters, or that names a file of the machine, is never read.

Refused rather than rasterised or cleaned: drawing an SVG needs a renderer (a large
native library) talkpages does not ship, and a picture cleaned here would differ from
the file its owner drew, silently. Logos and icons that drawing programs export hold
none of the above; one that does is better redrawn, or given as a PNG.

The file is read once by expat, with no tree kept: linear in its size, bounded in
memory, and no entity or external file is ever loaded. The size comes from the root
<svg>'s `viewBox`, else its `width` and `height` in pixels; an attribute longer than
a number can usefully be is refused before it is read, and so is a size no picture
has.
"""

from __future__ import annotations

import math
import re
from xml.parsers import expat

_HTML = "http://www.w3.org/1999/xhtml"
_XML = "http://www.w3.org/XML/1998/namespace"
_ACTIVE_ELEMENTS = frozenset({"script", "foreignobject", "handler", "listener"})
_ANIMATIONS = frozenset({"set", "animate", "animatemotion", "animatetransform"})
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")  # what browsers drop from a URL's scheme
_URL = re.compile(r"url\(([^()]*)\)", re.IGNORECASE)  # stops at the next "(": linear
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_SEPARATORS = re.compile(r"[\s,]+")
MAX_ATTRIBUTE = 256  # characters of a viewBox, width or height
MAX_SIZE = 1_000_000.0  # user units or pixels, either way
MAX_RATIO = 1000.0  # of the longer side to the shorter
HINT = "remove it, or give a PNG"


class _Refused(Exception):
    pass


def svg_size(data: bytes) -> tuple[float, float] | str:
    """The width and height of the SVG `data`, or why it is refused."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return "the SVG is not UTF-8 text"
    reader = _Reader()
    parser = expat.ParserCreate(namespace_separator=" ")
    reader.parser = parser
    parser.StartDoctypeDeclHandler = reader.doctype
    parser.EntityDeclHandler = reader.entity
    parser.ProcessingInstructionHandler = reader.instruction
    parser.StartElementHandler = reader.start
    parser.EndElementHandler = reader.end
    parser.CharacterDataHandler = reader.characters
    try:
        parser.Parse(text, True)
        reader.check_styles()
    except _Refused as refused:
        return str(refused)
    except expat.ExpatError as exc:
        return f"the SVG is not well-formed XML (line {exc.lineno}: " \
               f"{expat.ErrorString(exc.code)})"
    if reader.root is None:
        return "the file has no <svg> element"
    return _size(reader.root)


class _Reader:
    """expat's handlers: each element checked as it is read, nothing kept but the root's
    attributes and the text of <style> elements."""

    def __init__(self) -> None:
        self.parser: expat.XMLParserType | None = None
        self.root: dict[str, str] | None = None
        self.first = True
        self.in_style = 0
        self.styles: list[tuple[int, str]] = []

    def refuse(self, what: str) -> None:
        line = self.parser.CurrentLineNumber if self.parser is not None else 0
        raise _Refused(f"the SVG has {what} at line {line}: opened by itself, it could run "
                       f"a script or load files on the site's origin; {HINT}")

    def doctype(self, name: str, system: str | None, public: str | None,
                internal_subset: bool) -> None:
        if internal_subset:
            self.refuse("a DOCTYPE with declarations of its own")

    def entity(self, *_: object) -> None:
        self.refuse("an entity declaration")

    def instruction(self, target: str, data: str) -> None:
        self.refuse(f"a processing instruction, <?{target[:40]} …?>,")

    def start(self, name: str, attributes: dict[str, str]) -> None:
        namespace, _, written = name.rpartition(" ")
        local = written.lower()
        if self.first:
            self.first = False
            if local == "svg":
                self.root = {key.rpartition(" ")[2]: value for key, value
                             in attributes.items() if " " not in key}
        if local in _ACTIVE_ELEMENTS:
            self.refuse(f"a <{written}> element")
        if namespace == _HTML:
            self.refuse(f"an element of HTML, <{written[:40]}>,")
        for key, value in attributes.items():
            self.attribute(local, key, value, attributes)
        if local == "style":
            self.in_style += 1

    def end(self, name: str) -> None:
        if name.rpartition(" ")[2].lower() == "style":
            self.in_style -= 1

    def characters(self, data: str) -> None:
        if self.in_style:
            line = self.parser.CurrentLineNumber if self.parser is not None else 0
            self.styles.append((line, data))

    def attribute(self, element: str, key: str, value: str,
                  attributes: dict[str, str]) -> None:
        namespace, _, local = key.rpartition(" ")
        local = local.lower()
        plain = _INVISIBLE.sub("", value).lower()
        if local.startswith("on"):
            self.refuse(f"an event handler, {local[:40]}=,")
        if namespace == _XML and local == "base":
            self.refuse("an xml:base address")
        if "javascript:" in plain or "vbscript:" in plain:
            self.refuse(f"a script address in {local[:40]}=")
        if local == "href" and not _inside(plain):
            self.refuse(f"a link out of the file, {local}=\"{value[:60]}\",")
        if element in _ANIMATIONS and local == "attributename" and (
                plain.startswith("on") or plain.endswith("href")):
            self.refuse(f"an animation of {value[:40]}=")
        self.css(value)

    def css(self, text: str) -> None:
        if "@import" in text.lower():
            self.refuse("a CSS @import")
        if "url(" in text.lower():
            for match in _URL.finditer(text):
                target = _INVISIBLE.sub("", match.group(1)).strip("'\"").lower()
                if not _inside(target):
                    self.refuse(f"a reference out of the file, url({match.group(1)[:60]}),")

    def check_styles(self) -> None:
        """The <style> elements' text, read whole: expat may hand it over in pieces."""
        if self.styles:
            line = self.styles[0][0]
            try:
                self.css("".join(data for _, data in self.styles))
            except _Refused as refused:
                raise _Refused(re.sub(r"at line \d+", f"at line {line}", str(refused),
                                      count=1)) from None


def _inside(target: str) -> bool:
    """A reference to the file itself, or a picture in the address: `target` lowered,
    its spaces and control characters dropped."""
    return target.startswith("#") or (target.startswith("data:image/")
                                      and not target.startswith("data:image/svg"))


def _size(root: dict[str, str]) -> tuple[float, float] | str:
    for name in ("viewBox", "width", "height"):
        if len(root.get(name, "")) > MAX_ATTRIBUTE:
            return f"the {name} of its <svg> element is {len(root[name]):,} characters " \
                   f"long; a size needs a few"
    box = [_number(part) for part in _SEPARATORS.split(root.get("viewBox", "").strip())]
    pixels = [_number(root.get(name, "").strip().removesuffix("px").rstrip())
              for name in ("width", "height")]
    size = None
    for width, height in ([box[2:]] if len(box) == 4 else []) + [pixels]:  # in this order
        if width is not None and height is not None and width > 0 and height > 0:
            size = width, height
            break
    if size is None:
        return "the SVG gives no size: its <svg> element needs a viewBox, or a width and " \
               "height in pixels"
    if max(size) > MAX_SIZE or max(size) / min(size) > MAX_RATIO:
        return f"the SVG's size, {size[0]:g} x {size[1]:g}, is not one of a picture: at " \
               f"most {MAX_SIZE:,.0f} a side, and one side at most {MAX_RATIO:,.0f} " \
               "times the other"
    return size


def _number(text: str) -> float | None:
    if _NUMBER.fullmatch(text) is None:
        return None
    value = float(text)
    return value if math.isfinite(value) else None
