"""Issue 28: the settings' prefix is the platform's (``TURNPOST_``); the project's first prefix,
``BRAZIL_``, is still read where the new name is not set, with a deprecation line."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import pytest

from bot.settings import load_settings
from storage.environ import adopt_legacy, env
from terminal.local import default_db


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No setting of either prefix during a test; the environment as it was after it
    (``adopt_legacy`` writes to it)."""
    before = dict(os.environ)
    for key in list(os.environ):
        if key.startswith(("TURNPOST_", "BRAZIL_")):
            monkeypatch.delenv(key)
    yield
    os.environ.clear()
    os.environ.update(before)


def test_the_new_name_is_read_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNPOST_DB", "new.sqlite3")
    monkeypatch.setenv("BRAZIL_DB", "old.sqlite3")
    assert env("DB") == "new.sqlite3" == default_db()


def test_the_old_name_is_read_with_a_deprecation_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("BRAZIL_DB", "old.sqlite3")
    with caplog.at_level(logging.WARNING, logger="settings"):
        assert default_db() == "old.sqlite3"
    assert any("BRAZIL_DB is deprecated" in r.getMessage() for r in caplog.records)


def test_no_setting_gives_the_platform_s_default_file() -> None:
    assert env("DB") is None
    assert default_db() == "turnpost.sqlite3"


def test_the_bot_s_settings_adopt_the_old_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRAZIL_WEB_PORT", "8123")
    monkeypatch.setenv("BRAZIL_DEFAULT_AI", "random")
    monkeypatch.setenv("TURNPOST_DEFAULT_AI", "search")
    settings = load_settings()
    assert settings.web_port == 8123  # the old name, adopted
    assert settings.default_ai == "search"  # the new name wins
    assert adopt_legacy() == []  # nothing left to adopt
