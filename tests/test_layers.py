"""The direction of the code: content -> output -> build -> commands. A module imports
from its own layer and the layers before it, never from one after it (lazy imports
inside functions count too), so that reading a talk file never depends on how a site is
rendered, and rendering never on how it is written or cached."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "talkpages"
ORDER = ["content", "output", "engine", "commands"]


def _layer(module: str) -> int:
    """0 for the shared modules at the top (diagnostics, digests, …), else 1 +
    the layer's place."""
    parts = module.split(".")
    return ORDER.index(parts[1]) + 1 if len(parts) > 1 and parts[1] in ORDER else 0


def _imports(path: Path) -> set[str]:
    module = "talkpages." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
    package = module.split(".")[:-1] if path.name != "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # a module of the package, or a name in one
                inner = f"{target}.{alias.name}"
                where = PACKAGE.joinpath(*inner.split(".")[1:])
                found.add(inner if where.with_suffix(".py").is_file() or where.is_dir()
                          else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("talkpages.")}


def test_no_layer_imports_a_later_one() -> None:
    wrong = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = "talkpages." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        if module == "talkpages.__main__":  # the command itself
            continue
        for target in _imports(path):
            if _layer(target) > _layer(module):
                wrong.add((module.removeprefix("talkpages."), target.removeprefix("talkpages.")))
    assert not wrong, sorted(wrong)


def test_every_module_is_in_a_layer() -> None:
    # __main__: `python -m talkpages`; digests and parallel: the media cache's keys and
    # the workers, for every layer alike
    shared = {"__init__", "__main__", "diagnostics", "digests", "parallel"}
    loose = [p.stem for p in PACKAGE.glob("*.py") if p.stem not in shared]
    assert not loose, f"modules outside content/, output/, engine/, commands/: {loose}"


def test_the_docs_name_every_module() -> None:
    """The module map of docs/layout.md ("Project layout") is the map of the code: a
    module it does not name is one a reader cannot find."""
    page = (PACKAGE.parent.parent / "docs" / "layout.md").read_text(encoding="utf-8")
    layout = page.split("## The module map", 1)[1].split("\n## ", 1)[0]
    unnamed = [path.relative_to(PACKAGE).as_posix() for path in sorted(PACKAGE.rglob("*.py"))
               if path.stem not in ("__init__", "__main__") and path.name not in layout]
    assert not unnamed, f"not in the module map of docs/layout.md: {unnamed}"
