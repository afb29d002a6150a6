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
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

_PACKAGE = Path(__file__).resolve().parent


def builtin_dir(kind: str) -> Path:
    """`layouts` or `assets` of the built-in theme."""
    installed = _PACKAGE / "theme" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE.parent.parent / kind  # a source checkout, or an editable install


@dataclass(frozen=True)
class Theme:
    env: jinja2.Environment
    assets: dict[str, Path]  # name (POSIX, relative to assets/) -> file
    published: dict[str, str] = field(default_factory=dict)  # name -> hashed name, CSS/JS

    def published_name(self, name: str) -> str:
        """The name an asset is written under: hashed for CSS and JS, else as it is."""
        return self.published.get(name, name)

    @classmethod
    def for_site(cls, site_dir: Path) -> Theme:
        layouts = [site_dir / "layouts", builtin_dir("layouts")]
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader([str(p) for p in layouts if p.is_dir()]),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        assets: dict[str, Path] = {}
        for folder in (builtin_dir("assets"), site_dir / "assets"):
            if folder.is_dir():
                for path in sorted(folder.rglob("*")):
                    if path.is_file() and not path.name.startswith("."):
                        assets[path.relative_to(folder).as_posix()] = path
        published = {name: hashed_name(name, path.read_bytes()) for name, path in assets.items()
                     if name.endswith(HASHED_SUFFIXES)}
        return cls(env=env, assets=assets, published=published)


HASHED_SUFFIXES = (".css", ".js", ".mjs")


def hashed_name(name: str, data: bytes) -> str:
    """`style.css` -> `style.<first 10 hex digits of its SHA-256>.css`."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:10]}{dot}{suffix}"
