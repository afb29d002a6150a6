"""Percent-encoding (RFC 3986) of a whole value, as `urllib.parse.quote(value, safe="")`
and `quote_plus(value, safe="")` write it, at C speed.

`quote` walks a value's bytes in a Python loop once any of them needs encoding, and a
talk's title, address and calendar description all do (a space is enough): on a large
site that loop was a build's single largest cost after the templates. Here the value's
UTF-8 bytes are read as Latin-1, one character per byte, and `str.translate` maps each
through a table of 256 entries.
"""

from __future__ import annotations

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")
_PERCENT = [chr(byte) if chr(byte) in _UNRESERVED else f"%{byte:02X}" for byte in range(256)]
_FORM = [*_PERCENT[:32], "+", *_PERCENT[33:]]


def percent_encoded(value: str) -> str:
    """Every byte but the unreserved ones as `%XX`: a space is `%20` (a `mailto:` link
    and a path need that), `/`, `&`, `#` and `+` are encoded too."""
    return value.encode("utf-8").decode("latin-1").translate(_PERCENT)


def form_encoded(value: str) -> str:
    """The same, with a space as `+`: a value of an HTML form's query string."""
    return value.encode("utf-8").decode("latin-1").translate(_FORM)
