"""The site's language compiled into what it publishes: the templates, whose written
texts `_("…")` become their translations as they are compiled, and the scripts, which
find the translations of what they say in `TALKPAGES_MESSAGES`, set before them.

A page in German then costs what a page in English does: no lookup is left for the
time a page is made, except for texts only known then (`_(name)`, `ngettext`,
Jinja's `{% trans %}`), which Jinja's i18n extension looks up. Compiled templates are
kept per language and catalogue for that reason (engine/bytecode.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import jinja2
import jinja2.ext
from jinja2.lexer import Token, TokenStream

from ..content.messages import Messages


class BakedTranslations(jinja2.ext.Extension):
    """`_("text")` in a template, with a written text, becomes the translation itself as
    the template is compiled (see the module's docstring); the environment's `messages`
    say into what. Any other use of `_` is left to Jinja's i18n extension."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        messages: Messages = self.environment.messages  # type: ignore[attr-defined]
        tokens = list(stream)
        at = 0
        while at < len(tokens):
            token = tokens[at]
            if token.type == "name" and token.value == "_" and at + 3 < len(tokens) \
                    and tokens[at + 1].type == "lparen" and tokens[at + 2].type == "string" \
                    and tokens[at + 3].type == "rparen" \
                    and not (at and tokens[at - 1].type == "dot"):
                yield Token(token.lineno, "string", messages.gettext(tokens[at + 2].value))
                at += 4
                continue
            yield token
            at += 1


def install(env: jinja2.Environment, messages: Messages) -> None:
    """Give `env` the site's messages: `_("…")` baked, and gettext, ngettext and
    `{% trans %}` for what is only known as a page is made."""
    env.extend(messages=messages)
    env.globals["text_direction"] = messages.direction  # `rtl` for ar, he, fa, ur…
    env.add_extension(BakedTranslations)
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]
        messages.gettext, messages.ngettext, newstyle=True)


# What a script says: `_("…")` and `ngettext("…", "…", n)` with written texts (JSON's
# escapes), each at most 500 characters: read in time linear in the script's length.
_STRING = r'"((?:[^"\\\n]|\\[^\n]){1,500})"'
_SAID = re.compile(r"(?<![\w$.])_\(" + _STRING + r"\)")
_COUNTED = re.compile(r"(?<![\w$.])ngettext\(" + _STRING + r",\s{0,20}" + _STRING)
_SAMPLES = range(0, 1000)  # counts in which to find a number of each plural category


def script_messages(source: bytes, messages: Messages) -> str:
    """The statement that gives a script the site's translations of what it says, set
    before the script; "" when the language says it as the script does (English). A
    plural text is given as CLDR's categories, which the browser's Intl.PluralRules
    picks from."""
    text = source.decode("utf-8", errors="replace")
    found: dict[str, str | dict[str, str]] = {}
    for match in _SAID.finditer(text):
        english = _unescaped(match.group(1))
        if english is not None and messages.gettext(english) != english:
            found[english] = messages.gettext(english)
    categories = _categories(messages)
    for match in _COUNTED.finditer(text):
        one, other = _unescaped(match.group(1)), _unescaped(match.group(2))
        if one is None or other is None:
            continue
        forms = {category: messages.ngettext(one, other, count)
                 for category, count in categories.items()}
        if forms != {c: one if n == 1 else other for c, n in categories.items()}:
            found[one] = forms
    if not found:
        return ""
    given = json.dumps(found, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return ("window.TALKPAGES_MESSAGES=Object.assign(window.TALKPAGES_MESSAGES||{},"
            f"{given});\n")


def _unescaped(written: str) -> str | None:
    try:
        value = json.loads(f'"{written}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _categories(messages: Messages) -> dict[str, int]:
    """A whole number of each plural category of the language (`one`: 1, `few`: 2…)."""
    found: dict[str, int] = {}
    for count in _SAMPLES:
        found.setdefault(messages.locale.plural_form(count), count)
    return found
