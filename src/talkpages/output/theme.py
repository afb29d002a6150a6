"""The theme: Jinja2 templates from `layouts/` and static files from `assets/`.

The built-in theme ships inside the package (`talkpages/theme/` in the wheel; the
repository's own `layouts/` and `assets/` when running from a checkout). A site's own
`layouts/` and `assets/` override it file by file: a site that only wants another
stylesheet puts one `assets/style.css` next to its `talks/`.

CSS and JavaScript files are published under content-hashed names
(`assets/style.3f9a0c1d2e.css`), so a browser or CDN can keep them for a year and
still never serve a stale one; templates name them through the `asset` filter.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import jinja2.bccache
from jinja2 import nodes

from ..build import signed

_PACKAGE = Path(__file__).resolve().parent.parent  # talkpages/
# What templates may read of `site` without making every page depend on every talk and
# on the time of the build (cache.py): both are part of every page's key.
SITE_KEYED = frozenset({"config", "speakers"})


def builtin_dir(kind: str) -> Path:
    """`layouts` or `assets` of the built-in theme."""
    installed = _PACKAGE / "theme" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / kind  # a source checkout, or an editable install


def theme_files(site_dir: Path) -> list[Path]:
    """Every file of the theme, the site's and the built-in one."""
    files = []
    for folder in (site_dir / "layouts", site_dir / "assets", builtin_dir("layouts"),
                   builtin_dir("assets")):
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            files += [Path(root) / name for name in sorted(names)]
    return files


@dataclass(frozen=True)
class Theme:
    env: jinja2.Environment
    assets: dict[str, Path]  # name (POSIX, relative to assets/) -> file
    published: dict[str, str] = field(default_factory=dict)  # name -> hashed name, CSS/JS
    digest: str = ""  # of every file of the theme
    reads_site_state: bool = False  # a template reads site.now, site.talks… (see cache.py)

    def published_name(self, name: str) -> str:
        """The name an asset is written under: hashed for CSS and JS, else as it is."""
        return self.published.get(name, name)

    @classmethod
    def for_site(cls, site_dir: Path, keep_compiled: bool = False) -> Theme:
        """`keep_compiled`: compiled templates are kept between builds (as Python keeps
        .pyc files), in the user's cache, where every site built here finds them."""
        layouts = [site_dir / "layouts", builtin_dir("layouts")]
        env = jinja2.Environment(
            bytecode_cache=_SignedBytecode(signed.user_cache() / "templates")
            if keep_compiled else None,
            loader=jinja2.FileSystemLoader([str(p) for p in layouts if p.is_dir()]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            auto_reload=False,  # a Theme lives for one build, or until serve sees a change
        )
        assets: dict[str, Path] = {}
        for folder in (builtin_dir("assets"), site_dir / "assets"):
            if folder.is_dir():
                for path in sorted(folder.rglob("*")):
                    if path.is_file() and not path.name.startswith("."):
                        assets[path.relative_to(folder).as_posix()] = path
        published = {name: hashed_name(name, path.read_bytes()) for name, path in assets.items()
                     if name.endswith(HASHED_SUFFIXES)}
        digest = hashlib.blake2b(digest_size=16)
        for path in theme_files(site_dir):
            digest.update(f"{path}\0".encode("utf-8", "surrogateescape"))
            digest.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
        theme = digest.hexdigest()
        return cls(env=env, assets=assets, published=published, digest=theme,
                   reads_site_state=_reads_site_state(env, site_dir / "layouts"))


def _reads_site_state(env: jinja2.Environment, own: Path) -> bool:
    """Does a template of the site's own (in `own`) read more of `site` than its config
    and speakers? The built-in templates do not (a test says so). A template that
    cannot be parsed counts as reading everything (its error comes when rendered)."""
    assert env.loader is not None
    names = [path.relative_to(own).as_posix() for path in sorted(own.rglob("*"))
             if path.is_file()] if own.is_dir() else []
    for name in names:
        try:
            source = env.loader.get_source(env, name)[0]
            tree = env.parse(source)
        except (jinja2.TemplateError, OSError, UnicodeDecodeError):
            return True
        keyed = {id(node.node) for node in tree.find_all(nodes.Getattr)
                 if isinstance(node.node, nodes.Name) and node.node.name == "site"
                 and node.attr in SITE_KEYED}
        if any(node.name == "site" and id(node) not in keyed
               for node in tree.find_all(nodes.Name)):
            return True
    return False


class _SignedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept between builds, as Jinja's own FileSystemBytecodeCache
    does (a template's key is its name and file, checked against its source), but signed
    like everything talkpages keeps (signed.py): loading a template's code runs it."""

    def __init__(self, folder: Path):
        self.folder = folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = signed.read(self.folder / bucket.key)
        if isinstance(data, bytes):
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            signed.write(self.folder / bucket.key, bucket.bytecode_to_string())
        except OSError:
            pass  # compiled again next time


HASHED_SUFFIXES = (".css", ".js", ".mjs")


def hashed_name(name: str, data: bytes) -> str:
    """`style.css` -> `style.<first 10 hex digits of its SHA-256>.css`."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}{dot}{suffix}"
