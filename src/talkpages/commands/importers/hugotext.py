"""A Hugo talk's text as the old site showed it, where Markdown alone says otherwise.

- Shortcodes whose meaning is clear become Markdown or fields: `callout` (Wowchemy's
  `{{% callout note %}}…{{% /callout %}}`) a blockquote that starts with its label
  (**Note:**), `figure` an image with its caption on the next line, `youtube` and
  `vimeo` the talk's recording (`url_video`) when it has none or the same one, else a
  link to the video in the text. Any other shortcode, or one whose arguments are not
  plain (`{{< figure src=… >}}` with a nested shortcode), stays as it is and is named
  in a warning with the delimiters the file used (`{{% … %}}` or `{{< … >}}`).
- With the old site's `enableEmoji`, emoji codes of the text (`:wink:`) become the
  emoji Hugo showed (the common ones, EMOJI); without it Hugo showed them as written,
  and so will talkpages. Code is left as it is.
- An image of the body that Hugo Blox found in the site's `assets/media/` (`![Flyer]
  (flyer.png)`, where the talk's folder has no flyer.png) is copied into the talk's
  folder, where the link finds it; a talk that is a file, not a folder, has nowhere
  to keep it, and a warning names the file to copy.
- A featured image's alt text is plain text (`image.alt_text`, else the caption,
  which is Markdown: `Image credit: **Unsplash**` -> `Image credit: Unsplash`).

Every pattern here is bounded: a shortcode's arguments are read within one line of
at most MAX_ARGUMENTS characters, and a callout's end is looked for once, forward.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...content import links
from ...content.codespans import code_spans
from ...output.markup import plain_text
from .convert import Adapted, Candidate

MAX_ARGUMENTS = 500
_OPEN = re.compile(r"\{\{([<%])[ \t]{0,20}(callout|figure|youtube|vimeo)(?![\w-])"
                   r"([^{}\n]{0,500}?)[ \t]{0,20}[>%]\}\}")  # MAX_ARGUMENTS
_CALLOUT_END = re.compile(r"\{\{[<%][ \t]{0,20}/[ \t]{0,20}callout[ \t]{0,20}[>%]\}\}")
_ARGUMENT = re.compile(r"""[ \t]+(?:([\w-]{1,40})=)?(?:"([^"]*)"|'([^']*)'|([^\s"'=]+))""")
_ID = re.compile(r"^[\w-]{1,40}$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)
_IMAGE = re.compile(r"!\[[^\]\n]{0,500}\]\([ \t]{0,5}<?([^()<>\s]{1,300})")
MAX_MEDIA = 32 * 1024 * 1024
_EMOJI_CODE = re.compile(r":([a-z0-9_+-]{1,40}):")
LABELS = {"note": "Note", "warning": "Warning", "tip": "Tip", "important": "Important",
          "caution": "Caution", "danger": "Danger", "info": "Info"}
EMOJI = dict(pair.split("=") for pair in """
smile=😄 smiley=😃 grin=😁 laughing=😆 joy=😂 wink=😉 blush=😊 slightly_smiling_face=🙂
heart_eyes=😍 thinking=🤔 sunglasses=😎 neutral_face=😐 confused=😕 cry=😢 sob=😭
scream=😱 open_mouth=😮 rofl=🤣 upside_down_face=🙃 innocent=😇 star_struck=🤩
partying_face=🥳 tada=🎉 confetti_ball=🎊 balloon=🎈 gift=🎁 trophy=🏆 medal_sports=🏅
+1=👍 thumbsup=👍 -1=👎 thumbsdown=👎 clap=👏 wave=👋 raised_hands=🙌 pray=🙏 muscle=💪
point_right=👉 point_left=👈 point_up=☝️ point_down=👇 ok_hand=👌 v=✌️ eyes=👀
heart=❤️ blue_heart=💙 green_heart=💚 yellow_heart=💛 purple_heart=💜 broken_heart=💔
fire=🔥 star=⭐ sparkles=✨ zap=⚡ boom=💥 100=💯 rocket=🚀 bulb=💡 warning=⚠️
white_check_mark=✅ heavy_check_mark=✔️ x=❌ question=❓ exclamation=❗ no_entry=⛔
computer=💻 keyboard=⌨️ iphone=📱 email=📧 memo=📝 pencil2=✏️ books=📚 book=📖
bookmark=🔖 link=🔗 pushpin=📌 round_pushpin=📍 calendar=📆 date=📅 clock=🕐
hourglass=⌛ microphone=🎤 movie_camera=🎥 video_camera=📹 camera=📷 tv=📺
loudspeaker=📢 mega=📣 bell=🔔 mag=🔍 lock=🔒 key=🔑 wrench=🔧 hammer=🔨 gear=⚙️
bug=🐛 coffee=☕ beer=🍺 beers=🍻 pizza=🍕 cake=🍰 earth_africa=🌍
earth_americas=🌎 earth_asia=🌏 globe_with_meridians=🌐 sunny=☀️ cloud=☁️
snowflake=❄️ rainbow=🌈 ocean=🌊 house=🏠 office=🏢 school=🏫 airplane=✈️
train=🚆 car=🚗 bike=🚲 snake=🐍 crab=🦀 penguin=🐧 whale=🐳 cat=🐱 dog=🐶
chart_with_upwards_trend=📈 bar_chart=📊 money_with_wings=💸 moneybag=💰
mortar_board=🎓 robot=🤖 brain=🧠 dna=🧬 microscope=🔬 telescope=🔭 test_tube=🧪
""".split())


@dataclass
class HugoText:
    """The Adjuster: rewrites the body and the image's alt text as said above."""

    emoji: bool = False  # the old site's enableEmoji
    site: Path | None = None  # the old site's folder, whose assets/media/ Hugo Blox reads
    warned: set[tuple[Path, str]] = field(default_factory=set)

    def __call__(self, candidate: Candidate, adapted: Adapted,
                 files: tuple[str, ...]) -> list[str]:
        _alt_text(adapted)
        adapted.rewrites.append(lambda body: self.rewrite(body, adapted, candidate, files))
        return []

    def rewrite(self, body: str, adapted: Adapted, candidate: Candidate,
                files: tuple[str, ...]) -> str:
        """`body` rewritten; run on the text and on the file's bytes alike (once each)."""
        body = shortcodes(body, adapted)
        if self.site is not None and "![" in body:
            self._media(body, adapted, candidate, set(files))
        return emoji_codes(body) if self.emoji else body

    def _media(self, body: str, adapted: Adapted, candidate: Candidate,
               files: set[str]) -> None:
        """The images of `body` found in assets/media/ rather than the talk's folder."""
        assert self.site is not None
        for name in dict.fromkeys(_IMAGE.findall(body)):
            if (name in files or name in adapted.extra_files or ":" in name
                    or name.startswith(("/", "#")) or not links.inside_path(name)):
                continue
            media = self.site / "assets" / "media" / name
            if not media.is_file() or (candidate.path, name) in self.warned:
                continue
            data, problem = links.read(media, self.site, MAX_MEDIA)
            if data is not None and candidate.bundle is not None:
                adapted.extra_files[name] = data
                continue
            self.warned.add((candidate.path, name))
            why = problem.message if problem is not None else (
                "the talk is a file, with no folder to keep it in")
            adapted.notes.append(f"the image {name} is {media} in the old site, not copied: {why}; "
                         "make the talk a folder (talks/<name>/index.md) with the image in it")


def enable_emoji(config: dict[str, Any]) -> bool:
    value = config.get("enableemoji")
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _alt_text(adapted: Adapted) -> None:
    key = next((k for k in adapted.data if k.lower() == "image"), "")
    image = adapted.data.get(key)
    if not key or not isinstance(image, dict):
        return
    keys = {k.lower(): k for k in image}
    alt, caption = image.get(keys.get("alt_text", "")), image.get(keys.get("caption", ""))
    source = alt if isinstance(alt, str) and alt.strip() else caption
    if not isinstance(source, str) or not source.strip():
        return
    plain = plain_text(source)
    if plain and plain != source:  # markup: what a screen reader would read out
        adapted.data[key] = {**image, keys.get("alt_text", "alt_text"): plain}


def shortcodes(body: str, adapted: Adapted) -> str:
    """`body` with the shortcodes of clear meaning rewritten (the module's docstring)."""
    if "{{" not in body:
        return body
    out: list[str] = []
    position = 0
    for match in _OPEN.finditer(body):
        if match.start() < position:  # inside a callout rewritten already
            continue
        name, arguments = match[2], _arguments(match[3])
        replacement: str | None = None
        start, end = match.start(), match.end()
        line_start = body.rfind("\n", 0, start) + 1
        alone = not body[line_start:start].strip()  # a block of its own, not in a sentence
        if arguments is None or not alone:
            continue
        if name == "callout":
            closing = _CALLOUT_END.search(body, match.end())
            if closing is not None and _line_ends(body, closing.end()):
                replacement = _callout(arguments, body[match.end():closing.start()])
                end = closing.end()
        elif name == "figure":
            replacement = _figure(arguments)
        else:
            replacement = _video(name, arguments, adapted)
            if replacement == "" and _line_ends(body, end):  # the line goes with it
                start, end = line_start, _next_line(body, end)
        if replacement is None:
            continue
        out += [body[position:start], replacement]
        position = end
    return "".join(out) + body[position:] if out else body


def _line_ends(body: str, position: int) -> bool:
    line_end = body.find("\n", position)
    return not body[position:len(body) if line_end < 0 else line_end].strip()


def _next_line(body: str, position: int) -> int:
    line_end = body.find("\n", position)
    return len(body) if line_end < 0 else line_end + 1


def _arguments(text: str) -> dict[str, str] | None:
    """`note`, `src="x.jpg" caption='A'` -> {"0": "note"}, {"src": …}; None when they are
    not plain values (a nested shortcode, a stray quote)."""
    found: dict[str, str] = {}
    position = 0
    for match in _ARGUMENT.finditer(text):
        if match.start() != position:
            return None
        value = next(v for v in match.groups()[1:] if v is not None)
        found[match[1].lower() if match[1] else str(len(found))] = value
        position = match.end()
    return found if text[position:].strip() == "" else None


def _callout(arguments: dict[str, str], inner: str) -> str:
    kind = arguments.get("0") or arguments.get("type") or "note"
    label = LABELS.get(kind.lower(), kind.strip().title())
    lines = inner.strip("\r\n").splitlines(keepends=True) or [""]
    newline = "\r\n" if "\r\n" in inner else "\n"
    quoted = "".join("> " + line if line.strip() else ">" + line[len(line.rstrip("\r\n")):]
                     for line in lines)
    quoted = quoted.rstrip("\r\n")
    return f"> **{label}:**{newline}>{newline}{quoted}" if quoted.strip("> ") else \
        f"> **{label}**"


def _figure(arguments: dict[str, str]) -> str | None:
    source = arguments.get("src") or arguments.get("0")
    if not source or any(c in source for c in "()<> "):
        return None
    caption = (arguments.get("caption") or arguments.get("title") or "").strip()
    alt = (arguments.get("alt") or plain_text(caption) or "").replace("]", "\\]")
    image = f"![{alt}]({source})"
    return f"{image}\\\n*{caption}*" if caption and "*" not in caption else (
        f"{image}\\\n{caption}" if caption else image)


def _video(name: str, arguments: dict[str, str], adapted: Adapted) -> str | None:
    ident = arguments.get("id") or arguments.get("0")
    if not ident or not _ID.match(ident):
        return None
    url = (f"https://www.youtube.com/watch?v={ident}" if name == "youtube"
           else f"https://vimeo.com/{ident}")
    key = next((k for k in adapted.data if k.lower() == "url_video"), "url_video")
    current = adapted.data.get(key)
    if current in (None, ""):
        adapted.data[key] = url
        adapted.changes.append(f"url_video = {url!r}, the video of its {name} shortcode")
        return ""
    if isinstance(current, str) and ident in current:
        return ""  # the recording it has: the page shows it
    return f"[Video]({url})"


def emoji_codes(body: str) -> str:
    """Known emoji codes as their emoji, outside code (fenced blocks, code spans)."""
    if ":" not in body:
        return body
    pieces = []
    for prose, is_code in _outside_fences(body):
        if is_code:
            pieces.append(prose)
            continue
        last = 0
        for start, end in code_spans(prose):
            pieces += [_emoji(prose[last:start]), prose[start:end]]
            last = end
        pieces.append(_emoji(prose[last:]))
    return "".join(pieces)


def _emoji(text: str) -> str:
    return _EMOJI_CODE.sub(lambda m: EMOJI.get(m[1], m[0]), text)


def _outside_fences(body: str) -> list[tuple[str, bool]]:
    """`body` cut into prose and fenced code blocks (a fence left open runs to the end)."""
    parts: list[tuple[str, bool]] = []
    position = 0
    opener: re.Match[str] | None = None
    for fence in _FENCE.finditer(body):
        if opener is None:
            parts.append((body[position:fence.start()], False))
            opener, position = fence, fence.start()
        elif fence[1][0] == opener[1][0] and len(fence[1]) >= len(opener[1]):
            line_end = body.find("\n", fence.end())
            end = len(body) if line_end < 0 else line_end + 1
            parts.append((body[position:end], True))
            opener, position = None, end
    parts.append((body[position:], opener is not None))
    return parts
