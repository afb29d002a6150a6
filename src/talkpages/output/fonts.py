"""The fonts social cards are drawn with, found among those the machine has. No font
ships with the theme (Noto Sans CJK alone is 20 MB), and a build runs no program to
find one: `SCRIPTS` names, for each script a card may show, the font files that have
it, best first, and the Debian package of the first; they are looked for in the
folders of `FONT_DIRS`, each listed once a process.

Whether a font has a character is read from the font's own table of characters (its
`cmap`, a few kilobytes read once a process, for the fonts a card asks about), and
remembered per character: Pillow draws a character its font lacks as a box, and cannot
say that it did.

Each text of a card is set in the font of the first script it has other than Latin,
Greek and Cyrillic (the Arabic font for an Arabic title), else in the title's: the
date of a Japanese card is drawn with the Japanese font's own digits. A character that
font lacks takes the first font that has it, its script's fonts first and fonts of the
same family before the others (a Latin word in an Arabic title: Noto Sans, drawn to
go with Noto Sans Arabic). A letter no font here has is drawn as a box, and `missing`
names its script and the package that has it, for the build's warning; a symbol no
font here has (most emoji) is left out.
"""

from __future__ import annotations

import bisect
import functools
import io
import os
import struct
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import BinaryIO

FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/noto",  # Debian, Ubuntu
    "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/wqy", "/usr/share/fonts/truetype/droid",
    "/usr/share/fonts/dejavu", "/usr/share/fonts/noto", "/usr/share/fonts/noto-cjk",  # Arch
    "/usr/share/fonts/google-noto", "/usr/share/fonts/google-noto-cjk",  # Fedora
    "/usr/share/fonts/dejavu-sans-fonts", "/usr/share/fonts/liberation-sans",
    "/System/Library/Fonts", "/System/Library/Fonts/Supplemental", "/Library/Fonts",  # macOS
)
CJK_FILES = ("NotoSansCJK-Regular.ttc", "Hiragino Sans GB.ttc", "wqy-microhei.ttc",
             "wqy-zenhei.ttc", "DroidSansFallbackFull.ttf")
LATIN_FILES = ("DejaVuSans.ttf", "NotoSans-Regular.ttf", "LiberationSans-Regular.ttf",
               *CJK_FILES, "Arial Unicode.ttf")
CMAP_BYTES = 1 << 21  # a table of characters larger than this is not read: no such font


@dataclass(frozen=True)
class Script:
    name: str
    package: str  # the Debian package of its first font
    files: tuple[str, ...]  # font files that have it, best first
    ranges: tuple[tuple[int, int], ...]  # its blocks of Unicode
    latin: bool = False  # Latin, Greek, Cyrillic: every text's fallback
    shaped: bool = True  # drawn right only by a layout that shapes (libraqm)


def _latin(name: str, *ranges: tuple[int, int]) -> Script:
    return Script(name, "fonts-dejavu-core", LATIN_FILES, ranges, latin=True, shaped=False)


def _cjk(name: str, *ranges: tuple[int, int]) -> Script:
    return Script(name, "fonts-noto-cjk", (*CJK_FILES, "Arial Unicode.ttf"), ranges,
                  shaped=False)


def _noto(name: str, *ranges: tuple[int, int], file: str = "") -> Script:
    return Script(name, "fonts-noto-core", (file or f"NotoSans{name}-Regular.ttf",
                                            "DejaVuSans.ttf", "Arial Unicode.ttf"), ranges)


SCRIPTS = (
    _latin("Latin", (0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF),
           (0xA720, 0xA7FF)),
    _latin("Greek", (0x370, 0x3FF), (0x1F00, 0x1FFF)),
    _latin("Cyrillic", (0x400, 0x52F), (0x1C80, 0x1C8F), (0xA640, 0xA69F)),
    _cjk("Han", (0x2E80, 0x2FDF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
         (0x20000, 0x3134F)),
    _cjk("Kana", (0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF66, 0xFF9F)),
    _cjk("Hangul", (0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF)),
    _cjk("Bopomofo", (0x3100, 0x312F), (0x31A0, 0x31BF)),
    _noto("Arabic", (0x600, 0x6FF), (0x750, 0x77F), (0x870, 0x8FF), (0xFB50, 0xFDFF),
          (0xFE70, 0xFEFF)),
    _noto("Hebrew", (0x590, 0x5FF), (0xFB1D, 0xFB4F)),
    _noto("Syriac", (0x700, 0x74F)),
    _noto("Thaana", (0x780, 0x7BF)),
    _noto("Devanagari", (0x900, 0x97F), (0xA8E0, 0xA8FF)),
    _noto("Bengali", (0x980, 0x9FF)),
    _noto("Gurmukhi", (0xA00, 0xA7F)),
    _noto("Gujarati", (0xA80, 0xAFF)),
    _noto("Oriya", (0xB00, 0xB7F)),
    _noto("Tamil", (0xB80, 0xBFF)),
    _noto("Telugu", (0xC00, 0xC7F)),
    _noto("Kannada", (0xC80, 0xCFF)),
    _noto("Malayalam", (0xD00, 0xD7F)),
    _noto("Sinhala", (0xD80, 0xDFF)),
    _noto("Thai", (0xE00, 0xE7F)),
    _noto("Lao", (0xE80, 0xEFF)),
    _noto("Tibetan", (0xF00, 0xFFF), file="NotoSerifTibetan-Regular.ttf"),
    _noto("Myanmar", (0x1000, 0x109F)),
    _noto("Georgian", (0x10A0, 0x10FF), (0x1C90, 0x1CBF), (0x2D00, 0x2D2F)),
    _noto("Armenian", (0x530, 0x58F), (0xFB13, 0xFB17)),
    _noto("Ethiopic", (0x1200, 0x139F), (0x2D80, 0x2DDF)),
    _noto("Cherokee", (0x13A0, 0x13FF)),
    _noto("CanadianAboriginal", (0x1400, 0x167F)),
    _noto("Khmer", (0x1780, 0x17FF), (0x19E0, 0x19FF)),
    _noto("Mongolian", (0x1800, 0x18AF)),
    _noto("Tifinagh", (0x2D30, 0x2D7F)),
)
_STARTS, _ENDS, _OF = zip(*sorted((start, end, script) for script in SCRIPTS
                                  for start, end in script.ranges), strict=True)
MARKS = frozenset(("Mn", "Me", "Cf"))  # go with the character before them


@functools.cache
def script_of(character: str) -> Script | None:
    """The script of a letter, None for what any script uses (digits, punctuation,
    spaces, symbols)."""
    code = ord(character)
    at = bisect.bisect_right(_STARTS, code) - 1
    return _OF[at] if at >= 0 and code <= _ENDS[at] else None  # type: ignore[no-any-return]


class Face:
    """A font file (`path`; "" for Pillow's own font) and the characters it has.
    `family`: faces of one family are made to be set side by side (Noto)."""

    def __init__(self, path: str) -> None:
        self.path = path
        name = os.path.basename(path)
        self.family = "Noto" if name.startswith("Noto") else name
        self._starts: list[int] | None = None
        self._ends: list[int] = []
        self.known: set[str] = set()  # characters it was asked about and has

    def __repr__(self) -> str:
        return f"Face({self.path or 'Pillow'!r})"

    def covers(self, character: str) -> bool:
        if self._starts is None:
            self._load()
        assert self._starts is not None
        code = ord(character)
        at = bisect.bisect_right(self._starts, code) - 1
        if at >= 0 and code <= self._ends[at]:
            self.known.add(character)
            return True
        return False

    @functools.cached_property
    def has_ascii(self) -> bool:
        return all(self.covers(chr(code)) for code in range(0x20, 0x7F))

    @functools.cached_property
    def stamp(self) -> str:
        """Its path, size and time, for the keys of what is drawn with it."""
        if not self.path:
            return "Pillow"
        try:
            found = os.stat(self.path)
        except OSError:
            return f"{self.path}:gone"
        return f"{self.path}:{found.st_size}:{found.st_mtime_ns}"

    def _load(self) -> None:
        try:
            if self.path:
                with open(self.path, "rb") as handle:
                    ranges = read_cmap(handle)
            else:
                ranges = read_cmap(io.BytesIO(_pillow_font()))
        except (OSError, ValueError, struct.error):
            ranges = [] if self.path else [(0x20, 0x7E)]  # unreadable: it has nothing
        merged: list[list[int]] = []
        for start, end in sorted(ranges):
            if merged and start <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]


def _pillow_font() -> bytes:
    """The bytes of Pillow's own font (Aileron, a few hundred characters)."""
    from PIL import ImageFont

    source = getattr(ImageFont.load_default(10), "path", None)
    if not isinstance(source, io.BytesIO):
        raise ValueError("Pillow's font is not a FreeType font here")
    return source.getvalue()


class FontBook:
    """The fonts of `SCRIPTS` found in `folders`, and which of them draws a character."""

    def __init__(self, folders: Iterable[str] = FONT_DIRS) -> None:
        found: dict[str, str] = {}
        for folder in folders:
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                continue
            for name in names:
                found.setdefault(name, os.path.join(folder, name))
        faces: dict[str, Face] = {}
        self.of_script: dict[Script, list[Face]] = {}
        for script in SCRIPTS:
            self.of_script[script] = [faces.setdefault(found[name], Face(found[name]))
                                      for name in script.files if name in found]
        self.pillow = Face("")
        self.every = [*faces.values(), self.pillow]  # the last resort of every character
        self._chosen: dict[Face | None, dict[str, Face | None]] = {}  # by primary
        self._fine: set[str] = set()  # characters `missing` has nothing to say of

    def face_for(self, character: str, primary: Face | None) -> Face | None:
        """The face that draws `character` in a text set in `primary`; None: no font here
        has it."""
        chosen_in = self._chosen.get(primary)
        if chosen_in is None:
            chosen_in = self._chosen[primary] = {}
        elif character in chosen_in:
            return chosen_in[character]
        chosen = None
        if primary is not None and primary.covers(character):
            chosen = primary
        else:
            script = script_of(character)
            faces = [*self.of_script.get(script, ()), *self.every] if script else self.every
            if primary is not None:
                faces.sort(key=lambda face: face.family != primary.family)
            chosen = next((face for face in faces if face.covers(character)), None)
        chosen_in[character] = chosen
        return chosen

    def primary(self, text: str, default: Face | None = None) -> Face:
        """The face a text is set in: its first script's, other than Latin, that a font
        here has; else `default` (the title's), else the first with Latin letters."""
        if not text.isascii():
            for character in text:
                if character < "\u0370":  # Latin, or of no script
                    continue
                script = script_of(character)
                if script is not None and not script.latin:
                    face = self.face_for(character, None)
                    if face is not None:
                        return face
        return default or self.face_for("A", None) or self.pillow

    def primaries(self, texts: Sequence[str]) -> list[Face]:
        """The face of each text of a card, the title first."""
        title = self.primary(texts[0])
        return [title] + [self.primary(text, title) for text in texts[1:]]

    def runs(self, text: str, primary: Face) -> list[tuple[str, Face]]:
        """`text` in runs of one face each; a symbol no font has is left out, a letter
        no font has is drawn (as a box) in `primary`."""
        if text.isascii() and primary.has_ascii or set(text) <= primary.known:
            return [(text, primary)] if text else []
        texts: list[str] = []
        faces: list[Face] = []
        chosen = self._chosen.get(primary, {})
        for character in text:
            face = chosen[character] if character in chosen \
                else self.face_for(character, primary)
            if faces and face is not faces[-1] and unicodedata.category(character) in MARKS:
                face = faces[-1]
            if face is None:
                if script_of(character) is None:
                    continue
                face = primary
            if faces and faces[-1] is face:
                texts[-1] += character
            else:
                texts.append(character)
                faces.append(face)
        return list(zip(texts, faces, strict=True))

    def key(self, texts: Sequence[str]) -> str:
        """The faces a card of these texts is drawn with (the title first): another
        font, or the same updated, gives another key."""
        primaries = self.primaries(texts)
        used = {self.face_for("A", primaries[0]) or self.pillow}  # its lines' metrics
        for text, primary in zip(texts, primaries, strict=True):
            characters = set(text)
            if characters <= primary.known:
                used.add(primary)
            else:
                used.update(face for _, face in self.runs("".join(sorted(characters)),
                                                          primary))
        return ";".join(sorted(face.stamp for face in used))

    def missing(self, texts: Iterable[str]) -> list[Script]:
        """The scripts of the letters of `texts` that no font here has."""
        scripts: dict[Script, None] = {}
        for text in texts:
            if set(text) <= self._fine:
                continue
            for character in text:
                script = script_of(character)
                if script is not None and unicodedata.category(character) not in MARKS \
                        and self.face_for(character, None) is None:
                    scripts[script] = None
                else:
                    self._fine.add(character)
        return list(scripts)


@functools.cache
def book() -> FontBook:
    """The fonts of this machine, looked for once a process."""
    return FontBook(FONT_DIRS)


@functools.cache
def layout() -> str:
    """How Pillow lays text out here: "raqm <version>", which shapes (Arabic joined, in
    its order) and follows `language`; else "basic", which draws characters in turn."""
    from PIL import features

    return f"raqm {features.version('raqm')}" if features.check_feature("raqm") else "basic"


def read_cmap(handle: BinaryIO) -> list[tuple[int, int]]:
    """The characters a TrueType or OpenType font (of a collection, its first) has, in
    ranges, from its best Unicode table (format 12, else format 4); a ValueError or
    struct.error for what is not such a font."""
    base = 0
    if _read(handle, 0, 4) == b"ttcf":
        base = struct.unpack(">I", _read(handle, 12, 4))[0]
    tables = struct.unpack(">H", _read(handle, base + 4, 2))[0]
    directory = _read(handle, base + 12, 16 * tables)
    for at in range(0, len(directory), 16):
        if directory[at:at + 4] == b"cmap":
            cmap = struct.unpack_from(">I", directory, at + 8)[0]
            break
    else:
        raise ValueError("no cmap table")
    count = struct.unpack(">H", _read(handle, cmap + 2, 2))[0]
    records = _read(handle, cmap + 4, 8 * count)
    best: tuple[int, int] | None = None  # (rank, offset)
    for at in range(0, len(records), 8):
        platform, encoding, offset = struct.unpack_from(">HHI", records, at)
        if platform == 0 or (platform, encoding) in ((3, 1), (3, 10)):
            kind = struct.unpack(">H", _read(handle, cmap + offset, 2))[0]
            rank = {12: 0, 4: 1}.get(kind)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, cmap + offset)
    if best is None:
        raise ValueError("no Unicode cmap")
    rank, offset = best
    if rank == 0:
        length = struct.unpack(">I", _read(handle, offset + 4, 4))[0]
        data = _read(handle, offset, length)
        groups = struct.unpack_from(">I", data, 12)[0]
        if 16 + 12 * groups > len(data):
            raise ValueError("a cmap longer than its table")
        return [(start, end) for start, end, _ in
                struct.iter_unpack(">III", data[16:16 + 12 * groups])]
    length = struct.unpack(">H", _read(handle, offset + 2, 2))[0]
    return _format4(_read(handle, offset, length))


def _format4(data: bytes) -> list[tuple[int, int]]:
    """The characters of a format 4 table that map to a glyph (not glyph 0)."""
    segments = struct.unpack_from(">H", data, 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, 14)
    starts = struct.unpack_from(f">{segments}H", data, 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}H", data, 16 + 4 * segments)
    offsets_at = 16 + 6 * segments
    offsets = struct.unpack_from(f">{segments}H", data, offsets_at)
    ranges: list[tuple[int, int]] = []
    for n, (start, end, delta, offset) in enumerate(zip(starts, ends, deltas, offsets,
                                                        strict=True)):
        if start > end or start == 0xFFFF:
            continue
        if offset == 0:  # glyph = code + delta: glyph 0 for one code at most
            zero = -delta & 0xFFFF
            ranges += [(start, zero - 1), (zero + 1, end)] if start <= zero <= end \
                else [(start, end)]
            continue
        at = offsets_at + 2 * n + offset
        glyphs = struct.unpack_from(f">{end - start + 1}H", data, at)
        ranges += [(start + i, start + i) for i, glyph in enumerate(glyphs)
                   if glyph and (glyph + delta) & 0xFFFF]
    return [(start, end) for start, end in ranges if start <= end]


def _read(handle: BinaryIO, offset: int, size: int) -> bytes:
    if size > CMAP_BYTES:
        raise ValueError("a table too large for a font")
    handle.seek(offset)
    data = handle.read(size)
    if len(data) != size:
        raise ValueError("the font ends early")
    return data
