"""What a build is asked for besides the site: kept apart so that the command line can
read it without importing the whole builder."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class LoadOptions:
    now: datetime
    drafts: bool = False
    future: bool = False
    overrides: dict[str, Any] | None = None
