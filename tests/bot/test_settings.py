"""Settings and --check-config (offline), and the fake server's Discord-like refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

from bot.settings import BotSettings, explain, load_settings
from tests.bot.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TURNPOST_", "DISCORD_"))}
    e.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "turnpost", *args],
        cwd=cwd,
        env=e,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_check_config_never_echoes_the_token(tmp_path: Path) -> None:
    secret = "MTIzNDU2Nzg5.secret-token-value"
    ok = _run(["run", "--check-config"], tmp_path, DISCORD_TOKEN=secret)
    assert ok.returncode == 0 and "configuration OK" in ok.stdout
    assert secret not in ok.stdout + ok.stderr and "token: set" in ok.stdout
    missing = _run(["--check-config"], tmp_path)
    assert missing.returncode == 2 and "DISCORD_TOKEN is not set" in missing.stderr
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={secret}\nTURNPOST_TEST_GUILD=42\n")
    dotenv = _run(["--check-config"], tmp_path)
    assert dotenv.returncode == 0 and "guild 42" in dotenv.stdout
    assert secret not in dotenv.stdout + dotenv.stderr
    bad = _run(["--check-config"], tmp_path, TURNPOST_DEFAULT_PLAYERS="9")
    assert bad.returncode == 2 and "default_players" in bad.stderr


def test_toml_settings_and_a_token_in_toml_refused(tmp_path: Path) -> None:
    cfg = tmp_path / "bot.toml"
    cfg.write_text('db = "games.sqlite3"\ndefault_ai = "search"\nsync = "none"\n')
    s = load_settings(cfg, _env_file=None)
    assert s.db == "games.sqlite3" and s.default_ai == "search" and s.sync_mode == "none"
    cfg.write_text('discord_token = "x"\n')
    with pytest.raises(ValueError, match="token"):
        load_settings(cfg, _env_file=None)


async def test_fake_refuses_v2_with_content() -> None:
    fake = FakeDiscord()
    base = await fake.start()
    try:
        async with aiohttp.ClientSession() as http:
            body = {"content": "hi", "flags": 1 << 15, "components": []}
            async with http.post(f"{base}/channels/1/messages", json=body) as r:
                assert r.status == 400 and r.headers["Content-Type"] == "application/json"
            body = {"flags": 1 << 15, "components": [{"type": 10, "content": "hi"}]}
            async with http.post(f"{base}/channels/1/messages", json=body) as r:
                assert r.status == 200 and json.loads(await r.text())["id"]
    finally:
        await fake.stop()


def test_auto_answer_delay_range(tmp_path: Path) -> None:
    """(min, max) seconds, 0 <= min <= max: from the environment as JSON, checked."""
    from pydantic import ValidationError

    from bot.settings import BotSettings

    s = BotSettings(db=tmp_path / "x.sqlite3", _env_file=None)
    assert s.auto_answer_delay[0] > 0  # by default the bot never answers at once
    os.environ["TURNPOST_AUTO_ANSWER_DELAY"] = "[1, 5]"
    try:
        assert BotSettings(_env_file=None).auto_answer_delay == (1.0, 5.0)
        os.environ["TURNPOST_AUTO_ANSWER_DELAY"] = "[5, 1]"
        with pytest.raises(ValidationError):
            BotSettings(_env_file=None)
    finally:
        del os.environ["TURNPOST_AUTO_ANSWER_DELAY"]


def test_the_database_is_a_file_or_a_postgresql_url(tmp_path: Path) -> None:
    url = "postgresql://brazil:s3cret@db.example:5432/games"
    s = load_settings(None, _env_file=None, db=url)
    assert s.db == url
    assert "s3cret" not in s.db_text() and "db.example" in s.db_text()
    assert all("s3cret" not in line for line in s.describe())
    s = load_settings(None, _env_file=None, db=f"sqlite:///{tmp_path}/g.sqlite3")
    assert s.db_text().endswith("g.sqlite3")
    with pytest.raises(ValueError, match="not supported"):
        load_settings(None, _env_file=None, db="mysql://x/y")


# ============================================================================ shards


def test_shards_unset_keep_one_unsharded_process() -> None:
    from bot.app import TurnpostBot, make_bot

    s = BotSettings(discord_token="x", _env_file=None)
    assert s.shards is None and "none" in s.shard_text()
    bot = make_bot(s)
    assert type(bot) is TurnpostBot and bot.shard_id is None and bot.shard_count is None


def test_shard_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.app import ShardedTurnpostBot, make_bot

    monkeypatch.setenv("TURNPOST_SHARD_COUNT", "4")
    monkeypatch.setenv("TURNPOST_SHARD_IDS", "3, 1")
    s = BotSettings(discord_token="x", _env_file=None)
    assert s.shards == (1, 3) and s.shard_text() == "shards: 1, 3 of 4"
    bot = make_bot(s)
    assert isinstance(bot, ShardedTurnpostBot)
    assert bot.shard_ids == [1, 3] and bot.shard_count == 4
    one = make_bot(BotSettings(discord_token="x", shard_count=4, shard_ids="2", _env_file=None))
    assert not isinstance(one, ShardedTurnpostBot)
    assert (one.shard_id, one.shard_count) == (2, 4)
    monkeypatch.delenv("TURNPOST_SHARD_IDS")
    every = BotSettings(discord_token="x", shard_count=2, _env_file=None)
    assert every.shards == (0, 1)


@pytest.mark.parametrize(
    ("values", "said"),
    [
        ({"shard_ids": "0"}, "TURNPOST_SHARD_IDS (shard_ids): shard ids need TURNPOST_SHARD_COUNT"),
        ({"shard_count": 2, "shard_ids": "0,2"}, "must be from 0 to 1 (TURNPOST_SHARD_COUNT=2)"),
        ({"shard_count": 2, "shard_ids": "0,x"}, "numbers separated by commas"),
        ({"shard_count": 2, "shard_ids": "1,1"}, "given twice"),
        ({"shard_count": 0}, "TURNPOST_SHARD_COUNT (shard_count)"),
    ],
)
def test_bad_shard_settings_are_one_line(values: dict[str, object], said: str) -> None:
    with pytest.raises(ValidationError) as caught:
        BotSettings(discord_token="x", _env_file=None, **values)  # type: ignore[arg-type]
    assert said in explain(caught.value)


def test_the_shard_of_a_guild() -> None:
    from bot.settings import shard_of

    assert shard_of(0, 2) == 0
    assert shard_of(1 << 22, 2) == 1 and shard_of(3 << 22, 4) == 3
    assert shard_of(81384788765712384, 1) == 0


def test_the_default_ai_level_is_checked_at_start_up_and_kept_as_its_id(tmp_path: Path) -> None:
    """Issue 33: the default computer level names a level, by its id or its word in any
    language; anything else stops the bot at start-up, not at its first lobby."""
    from pydantic import ValidationError

    from bot.settings import BotSettings

    db = tmp_path / "x.sqlite3"
    assert BotSettings(db=db, default_ai="Erős", _env_file=None).default_ai == "search"
    assert BotSettings(db=db, default_ai="random", _env_file=None).default_ai == "random"
    with pytest.raises(ValidationError, match="not a computer level"):
        BotSettings(db=db, default_ai="genius", _env_file=None)
