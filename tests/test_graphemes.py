"""Posts within the networks' limits: graphemes counted as Bluesky and Mastodon count
them (never fewer), a text cut on a word boundary with an ellipsis, the talk's address
whole at its end, whatever the title's length or the number of speakers."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable

import pytest

from talkpages.output import graphemes

from conftest import MakeSite, require_tool, talk

RunCli = Callable[..., tuple[int, str, str]]

SAMPLES = {
    "e\u0301te\u0301": 3,  # é written as e and a combining acute
    "a\u0323\u0302": 1,  # two combining marks on one letter
    "👩\u200d👩\u200d👧\u200d👦": 1,  # a family: four people joined by ZWJ
    "👍🏽": 1,  # a skin tone
    "🇩🇪🇫🇷🇬": 3,  # two flags, and a regional indicator left alone
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f": 1,  # Scotland's tags
    "❤\ufe0f": 1,  # a variation selector
    "\u1100\u1161\u11a8": 1,  # a Hangul syllable in jamo
    "한국어": 3,
    "\r\n": 1,
    # Devanagari: vowel signs stay with their letter; a conjunct (स्ते) is counted as two,
    # one more than Unicode 15.1 (and Bluesky) count: more, never fewer
    "नमस्ते": 4,
    "a\u200db": 2,  # a ZWJ between letters joins nothing
}


@pytest.mark.parametrize(("text", "expected"), list(SAMPLES.items()))
def test_graphemes_are_counted_as_people_see_them(text: str, expected: int) -> None:
    assert graphemes.count(text) == expected


def test_never_fewer_than_the_browsers_count() -> None:
    """Bluesky counts with Intl.Segmenter: a count here is the same, or more (a text
    cut here fits there)."""
    node = shutil.which("node")
    require_tool(node is not None, "node is not installed")
    texts = [*SAMPLES, "Ünïcödé 👩🏽\u200d💻 talk: 日本語のタイトル 🇯🇵 — ok", "क्षत्रिय"]
    script = ("const t = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "const s = new Intl.Segmenter('en', {granularity: 'grapheme'});"
              "console.log(JSON.stringify(t.map(x => [...s.segment(x)].length)));")
    done = subprocess.run([node, "-e", script], input=json.dumps(texts), text=True,
                          capture_output=True, check=True, timeout=60)
    theirs = json.loads(done.stdout)
    ours = [graphemes.count(text) for text in texts]
    assert all(mine >= other for mine, other in zip(ours, theirs, strict=True)), \
        list(zip(texts, ours, theirs, strict=True))
    assert sum(ours) - sum(theirs) <= 3  # only conjuncts of Indic scripts count more


def test_mastodon_counts_a_link_as_23() -> None:
    assert graphemes.mastodon_count("see https://example.org/" + "a" * 100) == 4 + 23


URL = "https://talks.example.org/a-talk/"


def test_a_long_text_is_cut_on_a_word_with_an_ellipsis() -> None:
    text = "word " * 100 + "\n" + URL
    post = graphemes.fit(text, URL, 300)
    assert graphemes.count(post) <= 300
    assert post.endswith("word…\n" + URL)


def test_a_text_that_fits_is_left_as_it_is() -> None:
    assert graphemes.fit("Short.\n" + URL, URL, 300) == "Short.\n" + URL


def test_a_text_without_spaces_is_cut_at_a_grapheme() -> None:
    post = graphemes.fit("日本語" * 200, URL, 300)
    assert graphemes.count(post) <= 300
    assert post.endswith("語…\n" + URL) or post.endswith("本…\n" + URL) \
        or post.endswith("日…\n" + URL)


def test_emoji_are_never_cut_in_half() -> None:
    family = "👩\u200d👩\u200d👧\u200d👦"
    post = graphemes.fit(family * 400, URL, 300)
    head = post.split("…")[0]
    assert graphemes.count(post) <= 300
    assert head == family * (len(head) // len(family))


@pytest.mark.parametrize(("network", "limit", "weigh"), [
    ("mastodon", 500, graphemes.mastodon_count), ("bluesky", 300, graphemes.count)])
def test_posts_stay_within_the_limit(run_cli: RunCli, make_site: MakeSite, network: str,
                                     limit: int, weigh: Callable[[str], int]) -> None:
    title = "A very long title about distributed 👩\u200d💻 scheduling, e\u0301te\u0301 " * 12
    speakers = ", ".join(f'"Speaker Number {n} Ñoño"' for n in range(40))
    site = make_site({
        "talkpages.toml": 'title = "S"\nbase_url = "https://talks.example.org/"\n',
        "talks/a-talk.md": talk(title.strip(), "2030-05-22T14:50:00",
                                f"authors = [{speakers}]"),
        "talks/short.md": talk("Short", "2030-05-23T14:50:00",
                               'tags = ["Cloud native", "k8s", "C++", "--"]'),
    })
    code, out, err = run_cli("announce", "-s", str(site), "--now", "2030-01-01T00:00:00Z",
                             "a-talk", "--post", network)
    assert code == 0, err
    post = out.removesuffix("\n")
    assert weigh(post) <= limit
    assert weigh(post) > limit - 40  # cut near the limit, not far before it
    assert post.endswith("…\n" + URL)
    assert post.startswith("A very long title")
    code, out, _ = run_cli("announce", "-s", str(site), "--now", "2030-01-01T00:00:00Z",
                           "short", "--post", network)
    assert out.endswith("https://talks.example.org/short/\n") and "…" not in out
    assert ("\n#Cloudnative #k8s #C\n" in out) == (network == "mastodon")
