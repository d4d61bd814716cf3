"""Which rules engine version is running, without importing the engine at import time.

Every game records the engine version it was created with, and every log entry the version
that wrote it, so ``check`` can tell "recorded under an older engine" from corruption.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib import metadata

__all__ = ["PACKAGE_NAME", "UNKNOWN_ENGINE", "current_engine_version"]

PACKAGE_NAME = "turnpost"
UNKNOWN_ENGINE = "unknown"
"""Recorded when neither ``rules.__version__`` nor the package metadata is available."""


@cache
def _package_version() -> str:
    try:
        return metadata.version(PACKAGE_NAME)
    except metadata.PackageNotFoundError:
        return UNKNOWN_ENGINE


def current_engine_version() -> str:
    """``rules.__version__`` if the engine is loaded and defines it, else the installed
    package's version (``turnpost``), else ``"unknown"``. Read each time (cheap);
    never imports the engine (a process that saves games has it loaded already)."""
    # game: the version of the loaded ``rules`` package, the same for every game; with the
    # rules registry, each game's engine version may be looked up by the record's game name.
    module = sys.modules.get("rules")
    version = getattr(module, "__version__", None)
    if isinstance(version, str) and version:
        return version
    return _package_version()
