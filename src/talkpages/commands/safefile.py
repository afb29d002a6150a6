"""Creating source files (`new`, `import`): all or nothing, and never over another file.

The content is written to a temporary file beside the target and then hard-linked to
the target's name, which fails if a file of that name exists: a file that appears
meanwhile is never replaced, and a process killed halfway leaves either no file or the
whole file, never half of one. Where hard links are not supported, exclusive creation
(O_EXCL) keeps the "never replace" half of the promise.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def create_new(path: Path, data: bytes) -> None:
    """Write `data` to `path`, which must not exist: else FileExistsError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here: exclusive creation instead
            with open(path, "xb") as handle:
                handle.write(data)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
