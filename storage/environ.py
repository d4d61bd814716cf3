"""The platform's settings in the environment: ``TURNPOST_<NAME>`` (``TURNPOST_DB``,
``TURNPOST_WEB_PORT``…). The project's first name, ``BRAZIL_<NAME>``, is still read where the
new name is not set, with one deprecation line in the log per variable."""

from __future__ import annotations

import logging
import os

__all__ = ["LEGACY_PREFIX", "PREFIX", "adopt_legacy", "env"]

PREFIX = "TURNPOST_"
LEGACY_PREFIX = "BRAZIL_"

log = logging.getLogger("settings")
_said: set[str] = set()


def _deprecated(old: str, new: str) -> None:
    if old not in _said:
        _said.add(old)
        log.warning("%s is deprecated: it is read as %s (rename it)", old, new)


def env(name: str, default: str | None = None) -> str | None:
    """The setting ``name`` (without prefix: ``"DB"``): ``TURNPOST_DB``, else the deprecated
    ``BRAZIL_DB``, else ``default``."""
    value = os.environ.get(PREFIX + name)
    if value is not None:
        return value
    value = os.environ.get(LEGACY_PREFIX + name)
    if value is not None:
        _deprecated(LEGACY_PREFIX + name, PREFIX + name)
        return value
    return default


def adopt_legacy() -> list[str]:
    """Copy every ``BRAZIL_<NAME>`` whose ``TURNPOST_<NAME>`` is not set into the environment
    under its new name (for readers of the whole environment: the bot's settings); the old
    names adopted, each said once in the log."""
    adopted = []
    for key, value in sorted(os.environ.items()):
        if key.startswith(LEGACY_PREFIX):
            new = PREFIX + key[len(LEGACY_PREFIX) :]
            if new not in os.environ:
                os.environ[new] = value
                adopted.append(key)
            _deprecated(key, new)
    return adopted
