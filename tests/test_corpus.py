"""Every real talk file in ../shared/corpus either loads or is rejected with path:line.

291 files from 102 public Hugo Academic / Wowchemy / Hugo Blox sites, byte for byte,
broken ones included. None may crash the loader.
"""

from __future__ import annotations

import re

import pytest

from talkpages.content.config import Config
from talkpages.content.loader import load_talk
from talkpages.content.model import slugify

from conftest import SHARED

CORPUS = SHARED / "corpus" / "files"
FILES = sorted(CORPUS.iterdir()) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason=f"the corpus is absent ({CORPUS})")


@pytest.mark.parametrize("path", FILES, ids=[p.name[:80] for p in FILES])
def test_file_loads_or_is_rejected_with_its_line(path) -> None:
    talk, problems = load_talk(path, slugify(path.stem), Config())
    errors = [p for p in problems if p.is_error]
    if talk is None:
        assert errors
        for error in errors:
            text = error.format()
            assert re.match(rf"{re.escape(str(path))}:\d+(:\d+)?: error: ", text), text
    else:
        assert not errors
        assert talk.title
        assert talk.schedule.start_utc <= talk.schedule.end_utc


def test_most_of_the_corpus_loads() -> None:
    loaded = sum(load_talk(p, slugify(p.stem), Config())[0] is not None for p in FILES)
    assert loaded >= 225, loaded  # the rest are genuinely broken: see the manifest
