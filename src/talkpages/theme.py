"""The theme: Jinja2 templates from `layouts/` and static files from `assets/`.

The built-in theme ships inside the package (`talkpages/theme/` in the wheel; the
repository's own `layouts/` and `assets/` when running from a checkout). A site's own
`layouts/` and `assets/` override it file by file: a site that only wants another
stylesheet puts one `assets/style.css` next to its `talks/`.
"""

from __future__ import annotations

from dataclasses import dataclass
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
    assets: dict[str, Path]  # output name (POSIX, relative to assets/) -> file

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
        return cls(env=env, assets=assets)
