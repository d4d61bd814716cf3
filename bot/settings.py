"""The Discord bot's settings: environment variables, a ``.env`` file, an optional TOML file.

Precedence (highest first): keyword arguments, environment (``DISCORD_TOKEN``, ``TURNPOST_*``),
``.env`` in the working directory, the TOML file (``TURNPOST_CONFIG`` or ``--config``), defaults.

    DISCORD_TOKEN=...              the bot token (required to run; never logged or echoed)
    TURNPOST_DB=turnpost.sqlite3       the SQLite database
    TURNPOST_PACKS_DIR=packs         the data packs folder (optional)
    TURNPOST_TEST_GUILD=1234         sync the slash commands to this guild (instant) ...
    TURNPOST_SYNC=guild|global|none  ... or globally (up to an hour), or not at all
    TURNPOST_DEFAULT_AI=heuristic    the level of "Add AI" seats
    TURNPOST_LOG_LEVEL=INFO, TURNPOST_LOG_JSON=false
    TURNPOST_PACING_TICK_SECONDS=30  how often due reminders and deadlines are fired
    TURNPOST_WORKERS=2               processes drawing images and running computer players
                                   (default: the CPU count; 0: threads of the bot's process)
    TURNPOST_MODERATOR_ROLE_ID=..., TURNPOST_MOD_LOG_CHANNEL=...  moderators (stalled games are flagged)
    TURNPOST_WEB_PORT=8080           serve the game pages on this port (unset: off)
    TURNPOST_WEB_HOST=127.0.0.1      ... on this address
    TURNPOST_WEB_PUBLIC_URL=https://brazil.example.org  the pages' address as players reach them
                                   (behind a reverse proxy); default http://WEB_HOST:WEB_PORT
    TURNPOST_SHARD_COUNT=4, TURNPOST_SHARD_IDS=0,1  run these Discord shards of that many (several
                                   processes on one PostgreSQL database); unset: one process,
                                   no sharding

The TOML file holds the same names in lower case without the prefix (``db = "..."``);
a token in a TOML file is refused (keep it in the environment or ``.env``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from storage.environ import adopt_legacy

SyncMode = Literal["guild", "global", "none"]

MAX_SHARDS = 4096


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events and interactions (Discord's rule)."""
    return (guild_id >> 22) % shard_count


class BotSettings(BaseSettings):
    """Everything the bot reads at start-up (see module doc)."""

    model_config = SettingsConfigDict(
        env_prefix="TURNPOST_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token")
    )
    db: str = Field(
        default="turnpost.sqlite3",
        description="the database: an SQLite file (a path or sqlite:///path) or a "
        "postgresql://user:password@host/database URL",
    )
    packs_dir: Path | None = Field(default=None, description="the data packs folder")
    rules_file: Path | None = Field(default=None, description="docs/rules.md if not found")
    test_guild: int | None = Field(default=None, ge=1, description="guild id for quick sync")
    sync: SyncMode | None = Field(
        default=None, description="guild (default with test_guild), global, or none"
    )
    default_scenario: str | None = Field(default=None, description="map id; None: by players")
    default_players: int = Field(default=2, ge=1, le=4)
    default_ai: str = Field(default="heuristic", min_length=1, max_length=40)
    turn_deadline_hours: int = Field(default=24, ge=1, le=24 * 14)
    game_threads: bool = Field(
        default=True,
        description="False: every game takes its channel as before threads, whatever a "
        "server's game_place says (a server's games forum still holds its lobbies)",
    )
    auto_answer_delay: tuple[float, float] = Field(
        default=(20.0, 240.0),
        description="seconds (min, max) the bot waits, at random, before answering 'no cards' "
        "or another secret choice for a computer seat, so timing reveals nothing",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_json: bool = False
    pacing_tick_seconds: float = Field(
        default=30.0,
        ge=0,
        le=3600,
        description="how often due reminders and deadlines are "
        "looked for in storage (0: never, e.g. in tests that tick by hand)",
    )
    mod_log_channel: int | None = Field(
        default=None, ge=1, description="channel where stalled and archived games are flagged"
    )
    workers: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="worker processes that draw the images and run the computer players "
        "(None: the CPU count; 0: threads of the bot's own process)",
    )
    config_file: Path | None = Field(default=None, exclude=True)
    moderator_role_id: int | None = Field(
        default=None,
        ge=1,
        description="members with this role moderate games (besides those with Manage Channel)",
    )

    web_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve the game pages on this port (None: off; 0: any free port)",
    )
    web_host: str = Field(
        default="127.0.0.1", min_length=1, description="the address the game pages listen on"
    )
    web_public_url: str | None = Field(
        default=None,
        description="the game pages' address as players reach them (a reverse proxy's "
        "http(s) URL); default: http://web_host:web_port",
    )

    ops_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve /healthz and /metrics on this port (None: off; 0: any free port)",
    )
    ops_host: str = Field(
        default="127.0.0.1", min_length=1, description="the address /healthz and /metrics use"
    )

    shard_count: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SHARDS,
        description="the bot's number of Discord shards, all processes together (None: "
        "no sharding, one process)",
    )
    shard_ids: str | None = Field(
        default=None,
        description="the shards this process runs, e.g. '0,1' (default: all of shard_count)",
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_ids(cls, v: Any, info: ValidationInfo) -> Any:
        if v is None or (isinstance(v, str) and not v.strip()):
            return None
        items = (
            v.split(",") if isinstance(v, str) else list(v) if isinstance(v, list | tuple) else [v]
        )
        try:
            ids = [int(str(x).strip()) for x in items]
        except ValueError:
            raise ValueError(
                f"shard ids are numbers separated by commas (0,1), not {v!r}"
            ) from None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("shard ids need TURNPOST_SHARD_COUNT (how many shards in all)")
        bad = [i for i in ids if not 0 <= i < count]
        if bad:
            raise ValueError(
                f"shard ids must be from 0 to {count - 1} (TURNPOST_SHARD_COUNT={count}), not "
                + ", ".join(str(i) for i in bad)
            )
        if len(set(ids)) != len(ids):
            raise ValueError(f"a shard id is given twice in {v!r}")
        return ",".join(str(i) for i in sorted(ids))

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shard ids this process runs (None: no sharding)."""
        if self.shard_count is None:
            return None
        if self.shard_ids is None:
            return tuple(range(self.shard_count))
        return tuple(int(i) for i in self.shard_ids.split(","))

    def shard_text(self) -> str:
        shards = self.shards
        if shards is None or self.shard_count is None:
            return "shards: none (one process)"
        return f"shards: {', '.join(map(str, shards))} of {self.shard_count}"

    @field_validator("default_ai")
    @classmethod
    def _default_ai(cls, v: str) -> str:
        """A computer level by its id or its word in any language (``strong``, ``erős``),
        kept as its id: checked at start-up, not at the first lobby."""
        from service.results import AI_LEVEL_IDS, ai_level_of

        level = ai_level_of(v)
        if level is None:
            raise ValueError(f"not a computer level: {v!r} (choose {', '.join(AI_LEVEL_IDS)})")
        return level

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, v: Any) -> Any:
        return v.upper() if isinstance(v, str) else v

    @field_validator("db", mode="before")
    @classmethod
    def _db_location(cls, v: Any) -> str:
        """An SQLite file (not a folder) in a folder that exists, or a PostgreSQL URL:
        checked at start-up, not at the first game."""
        from storage import InvalidData
        from storage.location import parse_location

        text = str(v)
        try:
            where = parse_location(text)
        except InvalidData as e:
            raise ValueError(str(e)) from None
        if where.kind == "postgres":
            return text
        path = Path(where.target)
        if path.is_dir():
            raise ValueError(
                f"{path} is a folder: give a database file, e.g. {path / 'turnpost.sqlite3'}"
            )
        parent = path.parent
        if not parent.is_dir():
            what = "is a file, not a folder" if parent.exists() else "does not exist"
            raise ValueError(f"{path}: the folder {parent} {what}")
        return text

    def db_text(self) -> str:
        """The database for people and logs: the path, or the URL without its password."""
        from storage.location import parse_location

        return parse_location(self.db).describe()

    @field_validator("packs_dir")
    @classmethod
    def _packs_dir(cls, v: Path | None) -> Path | None:
        if v is not None and not v.is_dir():
            raise ValueError(f"{v} is not a folder")
        return v

    @field_validator("rules_file")
    @classmethod
    def _rules_file(cls, v: Path | None) -> Path | None:
        if v is not None and not v.is_file():
            raise ValueError(f"{v} does not exist")
        return v

    @field_validator("auto_answer_delay")
    @classmethod
    def _delay(cls, v: tuple[float, float]) -> tuple[float, float]:
        lo, hi = v
        if not 0 <= lo <= hi <= 600:
            raise ValueError(f"(min, max) seconds with 0 <= min <= max <= 600, not {list(v)}")
        return v

    @field_validator("web_public_url")
    @classmethod
    def _public_url(cls, v: str | None) -> str | None:
        """An http(s) URL with a host (and perhaps a path), kept without its trailing slash."""
        if v is None or not v.strip():
            return None
        v = v.strip()
        try:
            parts = urlsplit(v)
            _ = parts.port  # a bad port raises ValueError
        except ValueError as e:
            raise ValueError(f"{v!r} is not a URL ({e})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"an http:// or https:// address with a host, not {v!r}")
        if parts.query or parts.fragment:
            raise ValueError(f"an address without ?query or #fragment, not {v!r}")
        return v.rstrip("/")

    @property
    def web_on(self) -> bool:
        """Whether the game pages are served (``web_port`` is set)."""
        return self.web_port is not None

    def web_text(self) -> str:
        """The game pages' setting in one line (``describe``)."""
        if self.web_port is None:
            if self.web_public_url:
                return (
                    "game pages: off (TURNPOST_WEB_PUBLIC_URL is set but TURNPOST_WEB_PORT is not)"
                )
            return "game pages: off (set TURNPOST_WEB_PORT to serve them)"
        port = "any free port" if self.web_port == 0 else f"port {self.web_port}"
        where = f"game pages: on {self.web_host}, {port}"
        return where + (f", linked as {self.web_public_url}" if self.web_public_url else "")

    @property
    def sync_mode(self) -> SyncMode:
        if self.sync is not None:
            return self.sync
        return "guild" if self.test_guild else "global"

    def token(self) -> str:
        """The token's value (only for ``client.start``; never log it)."""
        if self.discord_token is None or not self.discord_token.get_secret_value().strip():
            raise ValueError("DISCORD_TOKEN is not set (environment or .env)")
        return self.discord_token.get_secret_value().strip()

    def describe(self) -> list[str]:
        """The settings as lines for the log or --check-config (the token only as set/unset)."""
        tok = "set" if self.discord_token and self.discord_token.get_secret_value() else "NOT SET"
        return [
            f"token: {tok}",
            f"database: {self.db_text()}",
            f"packs folder: {self.packs_dir or '-'}",
            f"command sync: {self.sync_mode}"
            + (f" (guild {self.test_guild})" if self.test_guild else ""),
            f"defaults: scenario {self.default_scenario or 'by player count'}, "
            f"{self.default_players} players, AI {self.default_ai}, "
            f"turn deadline {self.turn_deadline_hours} h",
            f"automatic secret answers after {self.auto_answer_delay[0]:g}-"
            f"{self.auto_answer_delay[1]:g} s",
            self.web_text(),
            self.shard_text(),
            "health and metrics: "
            + (
                "off (set TURNPOST_OPS_PORT to serve /healthz and /metrics)"
                if self.ops_port is None
                else f"on {self.ops_host}, port {self.ops_port or 'any free one'}"
            ),
            f"log: {self.log_level}{' json' if self.log_json else ''}",
            "worker processes: "
            + ("off (threads)" if self.workers == 0 else str(self.workers or "the CPU count")),
        ]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources = [init_settings, env_settings, dotenv_settings]
        toml = _CONFIG_FILE or os.environ.get("TURNPOST_CONFIG")  # BRAZIL_CONFIG: adopt_legacy
        if toml:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=Path(toml)))
        return tuple(sources)


_CONFIG_FILE: str | None = None


def _env_name(field: str) -> str:
    f = BotSettings.model_fields.get(field)
    if f is not None and isinstance(f.validation_alias, AliasChoices):
        first = f.validation_alias.choices[0]
        return first if isinstance(first, str) else field.upper()
    return f"TURNPOST_{field.upper()}"


def explain(error: ValidationError) -> str:
    """A settings error in one line, naming each bad setting by its environment variable and
    its TOML name (``TURNPOST_DB (db): ...``), without pydantic's dump; never a token's value."""
    parts = []
    for e in error.errors(include_url=False):
        loc = [str(x) for x in e.get("loc", ())]
        msg = str(e.get("msg", "invalid"))
        msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if not loc:
            parts.append(msg)
            continue
        field = loc[0]
        where = f"{_env_name(field)} ({'.'.join(loc)})"
        value = e.get("input")
        custom = e.get("type") == "value_error"  # our validators name the value themselves
        if "token" not in field and not custom and isinstance(value, str | int | float):
            msg = f"{msg[:1].lower()}{msg[1:]}, not {value!r}"
        parts.append(f"{where}: {msg}")
    return "; ".join(parts) or str(error).splitlines()[0]


def load_settings(config_file: str | os.PathLike[str] | None = None, **values: Any) -> BotSettings:
    """The settings, with ``config_file`` (TOML) under the environment. Raises
    ``ValueError`` (pydantic's ``ValidationError``, :func:`explain` puts it in one line)
    naming the bad field."""
    global _CONFIG_FILE
    if config_file is not None:
        path = Path(config_file)
        if not path.is_file():
            raise ValueError(f"config file {path} does not exist")
        import tomllib

        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if any(k.lower() in ("discord_token", "token") for k in data):
            raise ValueError(f"{path}: keep the token out of config files (use DISCORD_TOKEN)")
    _CONFIG_FILE = str(config_file) if config_file is not None else None
    adopt_legacy()  # the deprecated BRAZIL_* names, read as TURNPOST_*
    try:
        return BotSettings(**values)
    finally:
        _CONFIG_FILE = None
