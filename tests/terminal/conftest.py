"""The terminal's tests read English unless they choose a language: `--lang` defaults to the
system locale's language, so the locale of the machine running them is set aside."""

from __future__ import annotations

import pytest

LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C locale (English) for this process and the commands it starts."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C")
