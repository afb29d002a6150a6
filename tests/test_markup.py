"""Markdown to HTML: raw HTML shown as text unless the site trusts its authors."""

from __future__ import annotations

import re
import time

import pytest

from talkpages.output.markup import to_html


def test_empty_body_gives_no_html():
    assert to_html("") == ""
    assert to_html("  \n\n") == ""


def test_markdown_is_rendered():
    html = to_html("## Speakers\n\n*Kevin* and **Da Ma**\n")
    assert "<h2>Speakers</h2>" in html
    assert "<em>Kevin</em>" in html
    assert "<strong>Da Ma</strong>" in html


def test_raw_html_is_shown_as_text_by_default():
    html = to_html("Hello <script>alert(1)</script> and <b>bold</b>")
    assert "<script>" not in html
    assert "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html


def test_raw_html_block_is_shown_as_text_by_default():
    html = to_html('<div class="x">\n<iframe src="https://e.org"></iframe>\n</div>\n')
    assert "<div" not in html and "<iframe" not in html
    assert "&lt;iframe" in html


def test_html_comment_is_shown_as_text_by_default():
    html = to_html("<!-- note -->")
    assert "<!--" not in html
    assert "&lt;!-- note --&gt;" in html


def test_raw_html_is_kept_when_unsafe():
    html = to_html("Hello <b>bold</b>\n\n<div class=\"x\">block</div>\n", unsafe=True)
    assert "<b>bold</b>" in html
    assert '<div class="x">block</div>' in html


def test_less_than_in_prose_is_shown():
    assert to_html("3 < 4 and x<y") == "<p>3 &lt; 4 and x&lt;y</p>\n"


def test_less_than_in_inline_code_is_unchanged():
    html = to_html("Use `a < b` and `<div>` here")
    assert "<code>a &lt; b</code>" in html
    assert "<code>&lt;div&gt;</code>" in html
    assert "&amp;lt;" not in html


def test_less_than_in_a_double_backtick_code_span_is_unchanged():
    html = to_html("``a ` <b>``")
    assert "<code>a ` &lt;b&gt;</code>" in html


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_less_than_in_fenced_code_is_unchanged(fence):
    html = to_html(f"Before <i>\n\n{fence}python\nif a < b:\n    print('<div>')\n{fence}\n")
    assert "if a &lt; b:" in html
    assert "print('&lt;div&gt;')" in html
    assert "&amp;lt;" not in html
    assert "Before &lt;i&gt;" in html


def test_html_after_a_fenced_block_is_escaped_again():
    html = to_html("```\n<b>\n```\n\nAfter <i>x</i>\n")
    assert "<pre><code>&lt;b&gt;\n</code></pre>" in html
    assert "After &lt;i&gt;x&lt;/i&gt;" in html
    assert "<i>" not in html


def test_fence_closed_only_by_a_fence_at_least_as_long():
    html = to_html("````\n```\n<b>\n````\nafter <i>\n")
    assert "<pre><code>```\n&lt;b&gt;\n</code></pre>" in html
    assert "after &lt;i&gt;" in html


def test_less_than_in_an_indented_code_block_is_unchanged():
    html = to_html("Text\n\n    if a < b: <div>\n")
    assert "<pre><code>if a &lt; b: &lt;div&gt;\n</code></pre>" in html
    assert "&amp;lt;" not in html


def test_less_than_in_a_tilde_fence_inside_a_numbered_list_is_unchanged():
    # The fence is indented 4 spaces, as a list item's content is.
    html = to_html("1. Step\n\n    ~~~\n    a < b\n    ~~~\n")
    assert "<code>a &lt; b\n</code>" in html
    assert "&amp;lt;" not in html


def test_less_than_in_fenced_code_inside_a_blockquote_is_unchanged():
    html = to_html("> ```\n> a < b\n> ```\n")
    assert "<code>a &lt; b\n</code>" in html
    assert "&amp;lt;" not in html


def test_html_between_escaped_backticks_is_shown_as_text():
    # \` is a literal backtick, not a code span: the tag is prose and must show.
    html = to_html(r"\`<b>x</b>\`")
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "raw HTML omitted" not in html


def test_stray_backticks_in_two_paragraphs_do_not_hide_html_between_them():
    html = to_html("A stray ` here.\n\n<b>bold</b>\n\nAnother ` there.\n")
    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "raw HTML omitted" not in html


@pytest.mark.parametrize("text", ["<https://example.org/talk>", "<mailto:kevin@example.org>",
                                  "<kevin@example.org>"])
def test_autolinks_are_still_links(text):
    html = to_html(f"See {text} now")
    assert "<a href=" in html
    assert "&lt;http" not in html and "&lt;kevin" not in html and "&lt;mailto" not in html


def test_autolink_targets():
    assert '<a href="https://example.org/talk">' in to_html("<https://example.org/talk>")
    assert '<a href="mailto:kevin@example.org">' in to_html("<kevin@example.org>")


def test_bare_urls_are_linked():
    assert '<a href="https://example.org">' in to_html("Go to https://example.org today")


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JAVASCRIPT:alert(1)",
                                 "vbscript:msgbox(1)", "data:text/html,hi"])
def test_script_links_in_markdown_are_neutralised(url):
    html = to_html(f"[click]({url})")
    assert "click" in html
    assert url.split(":")[0].lower() not in html.lower()


def test_javascript_autolink_is_not_a_link():
    html = to_html("<javascript:alert(1)>")
    assert "href" not in html


def test_markdown_links_are_kept():
    assert '<a href="https://e.org/slides.pdf">Slides</a>' in to_html(
        "[Slides](https://e.org/slides.pdf)")
    assert '<a href="slides.pdf">Slides</a>' in to_html("[Slides](slides.pdf)")


def test_gfm_table():
    html = to_html("| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert "<table>" in html
    assert "<th>a</th>" in html
    assert "<td>2</td>" in html


def test_gfm_strikethrough():
    assert "<del>gone</del>" in to_html("~~gone~~")


def test_gfm_task_list_and_footnote():
    html = to_html("- [x] done\n\nText[^1]\n\n[^1]: The note.\n")
    assert 'type="checkbox"' in html
    assert "The note." in html
    assert "footnote" in html


def test_script_tag_is_let_through_when_unsafe():
    # A site that trusts its authors gets their HTML; the pages' CSP decides what runs,
    # and an inline script never does (test_csp.py).
    html = to_html("<script>alert(1)</script>", unsafe=True)
    assert "<script>alert(1)</script>" in html


def test_rendering_does_not_leak_memory_per_document():
    """cmarkgfm leaks ~22 KB a call (the tree and the HTML are never freed): 650 MB for a
    10,000-talk site. markup frees both; RSS must not grow with the number of calls."""
    import sys
    from pathlib import Path

    import pytest

    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip(f"no /proc to read memory from on {sys.platform}")

    def rss_kb() -> int:
        return int(status.read_text().split("VmRSS:")[1].split()[0])

    text = ("## Title\n\n" + "Some *text* with `code` and a [link](https://e.org). " * 40
            + "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n") * 3
    for _ in range(500):
        to_html(text)
    before = rss_kb()
    for _ in range(5000):
        to_html(text)
    assert rss_kb() - before < 8 * 1024  # the leak would be ~100 MB here


def test_same_html_as_cmarkgfm_itself():
    import cmarkgfm
    from cmarkgfm.cmark import Options

    text = "# T\n\n~~x~~ www.e.org\n\n- [x] done\n\n| a |\n|---|\n| b |\n\n```py\nx\n```\n"
    options = Options.CMARK_OPT_VALIDATE_UTF8 | Options.CMARK_OPT_FOOTNOTES
    assert to_html(text) == cmarkgfm.github_flavored_markdown_to_html(text, options=options)


def test_backtick_runs_of_many_lengths_render_in_linear_time():
    # runs of 1 to 119 backticks, none closed: 30 s in a regular expression that looked
    # for each run's closer at every character after it
    body = " ".join("`" * n for n in range(1, 120)) + " <b>"
    start = time.perf_counter()
    html = to_html(body * 20)
    assert time.perf_counter() - start < 2
    assert "&lt;b&gt;" in html and "<b>" not in html


@pytest.mark.parametrize("text, kept", [
    ("`` a ` <b> ``", True),  # closed by the run of as many, not by the single one
    ("``a<b>`", False),  # no run of two closes it
    ("``a<b>` ```", False),  # nor a run of three
    ("```<b>``` `x`", True),
    ("\\`<b>`", False),  # an escaped backtick opens nothing
    ("\\``<b>`", True),  # the backtick after the escaped one opens a span
    ("\\\\`<b>`", True),  # an escaped backslash escapes no backtick
    ("`<b>\nsame paragraph`", True),
    ("`<b>\n  \nnext paragraph`", False),
    ("<http://x.org/`> `<b>`", True),  # the autolink starts first, then the span
])
def test_code_spans_follow_commonmark(text, kept):
    html = to_html(text)
    assert bool(re.search(r"<code>[^<]*&lt;b&gt;", html)) == kept
    assert "<b>" not in html and "&amp;lt;" not in html


def test_an_escaped_less_than_is_shown_as_itself():
    assert to_html("a \\<b> c") == "<p>a &lt;b&gt; c</p>\n"
    assert to_html("a \\\\<b> c") == "<p>a \\&lt;b&gt; c</p>\n"
