"""What a post may hold: user-perceived characters (grapheme clusters) counted as the
networks count them, and a text cut to a limit on a word boundary.

Bluesky allows 300 graphemes (its apps count with `Intl.Segmenter`), Mastodon 500
(Ruby's grapheme clusters, each link counted as 23 whatever its length). Python has no
grapheme segmentation of its own, and a dependency for one rule is more than it is
worth: `clusters` keeps Unicode's rules that matter in a talk's title and a speaker's
name (UAX #29: CR LF, combining marks and other extenders, spacing marks, Hangul
syllables, emoji sequences joined by ZWJ, flags of two regional indicators, tag
sequences) and leaves out the rest. Every rule it leaves out only ever joins
characters, so a text is counted as long as a network counts it, or longer: a post cut
to fit here fits there too.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

ZWJ = "\u200d"
LINK_WEIGHT = 23  # what Mastodon counts a link as
_LINK = re.compile(r"https?://[^\s<>\"]+")
# Unicode's Extended_Pictographic, in the blocks where emoji are: what may follow a ZWJ
_PICTOGRAPHIC = ((0x1F000, 0x1FAFF), (0x2600, 0x27BF), (0x2300, 0x23FF), (0x2B00, 0x2BFF),
                 (0x2190, 0x21FF), (0x25A0, 0x25FF), (0x00A9, 0x00A9), (0x00AE, 0x00AE),
                 (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122), (0x2139, 0x2139),
                 (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297), (0x3299, 0x3299))
PUNCTUATION = ",;:·–—-/(|"  # not left before an ellipsis


def _extends(char: str) -> bool:
    """Grapheme_Extend, SpacingMark and the other characters no cluster ends before."""
    code = ord(char)
    return (unicodedata.category(char) in ("Mn", "Me", "Mc") or char in (ZWJ, "\u200c")
            or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F)


def _pictographic(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _PICTOGRAPHIC)


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _hangul(char: str) -> str:
    """The Hangul_Syllable_Type of a character: L, V, T, LV, LVT or ""."""
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97F:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


def _joined(before: str, cluster: str, char: str, flags: int) -> bool:
    """Whether `char` stays in the cluster that ends with `before`."""
    if before == "\r" and char == "\n":
        return True
    if before in "\r\n" or char in "\r\n":
        return False
    if _extends(char):
        return True
    if before == ZWJ and _pictographic(char):
        return any(_pictographic(c) for c in cluster)
    if _regional(before) and _regional(char):
        return flags % 2 == 1
    kind, last = _hangul(char), _hangul(before)
    return (last == "L" and kind in ("L", "V", "LV", "LVT")
            or last in ("LV", "V") and kind in ("V", "T")
            or last in ("LVT", "T") and kind == "T")


def clusters(text: str) -> list[str]:
    """`text` cut into grapheme clusters."""
    found: list[str] = []
    flags = 0  # regional indicators in a row, at the end of the cluster being made
    for char in text:
        if found and _joined(found[-1][-1], found[-1], char, flags):
            found[-1] += char
        else:
            found.append(char)
            flags = 0
        flags = flags + 1 if _regional(char) else 0
    return found


def count(text: str) -> int:
    """Graphemes, as Bluesky counts a post."""
    return len(clusters(text))


def mastodon_count(text: str) -> int:
    """Graphemes, as Mastodon counts a post: each link as 23."""
    links = _LINK.findall(text)
    return count(_LINK.sub("", text)) + LINK_WEIGHT * len(links)


def fit(text: str, url: str, limit: int, weigh: Callable[[str], int] = count) -> str:
    """`text`, which names `url` (added at its end when it does not), cut on a word
    boundary with an ellipsis before the last place it names `url`, so that `weigh` of
    the whole is at most `limit`. The link itself is never cut."""
    if url not in text:
        text = f"{text.rstrip()}\n{url}"
    if weigh(text) <= limit:
        return text
    head, _, tail = text.rpartition(url)
    kept = head.rstrip()
    gap = "\n" if "\n" in head[len(kept):] else " "
    parts = clusters(kept)

    def cut(size: int) -> str:
        short = _word_cut(parts[:size], parts[size] if size < len(parts) else " ")
        return f"{short}…{gap}{url}{tail}" if short else f"{url}{tail}"

    low, high = 0, len(parts)  # the longest cut that fits: found by halving
    while low < high:
        middle = (low + high + 1) // 2
        if weigh(cut(middle)) <= limit:
            low = middle
        else:
            high = middle - 1
    return cut(low)


def _word_cut(parts: list[str], following: str) -> str:
    """The clusters as text, ended at the last space when a word goes on after them (a
    text without spaces, in Chinese or Japanese, is cut at any cluster), without a
    dangling comma."""
    text = "".join(parts)
    space = max(text.rfind(" "), text.rfind("\n"))
    if space > 0 and not following.isspace():
        text = text[:space]
    return text.rstrip().rstrip(PUNCTUATION).rstrip()
