"""``python -m storage copy SRC DEST``: every game of one store into another (SQLite to
PostgreSQL and back, or a PostgreSQL backup file into a database), verified and resumable.

Each game moves whole, under its own id, in one transaction of the destination
(:meth:`~storage.base.OperatorStore.load_game`): its log, seats, settings, state, news, pacing
rows and web page token; then every player's preferences (time zone, quiet hours, language,
last seen Discord locale; a backup file from before the languages has none of the latter
two). After each game the destination's
copy is read back and compared with the source's (:meth:`~storage.dump.GameDump.digest`
over every row, so every log entry's state hash and the state's own hash are equal on both
sides); a difference is a problem (exit code 1).

Resumable: a copy cut short (Ctrl-C, a crash, a lost connection) leaves whole games only, and
running the same command again skips the games already there and equal to the source's and
copies the rest. A destination holding anything else (another game under a copied id, a game
the source does not have, other preferences) is refused unless ``--force``; even then a
stored game is never overwritten (that game is reported and left as it is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from storage.dump import BackupFile, GameDump
from storage.errors import ChannelBusy, GameExists, InvalidData, StorageError
from storage.jsonutil import state_hash
from storage.models import GuildSettings, PlayerPrefs
from storage.ratings import RatingRow, RatingTables, Season

__all__ = [
    "BackupSource",
    "CopyDestination",
    "CopyRefused",
    "CopyReport",
    "CopySource",
    "copy_store",
]


class CopyRefused(StorageError):
    """The destination is not empty, and not a copy of this source cut short (no --force)."""


class CopySource(Protocol):
    """Where games are copied from: a store, or a backup file (:class:`BackupSource`)."""

    async def game_ids(self) -> list[int]: ...

    async def dump_game(self, game_id: int) -> GameDump: ...

    async def all_player_prefs(self) -> list[PlayerPrefs]: ...

    async def all_guild_settings(self) -> dict[int, GuildSettings]: ...

    async def rating_tables(self) -> RatingTables: ...


class CopyDestination(CopySource, Protocol):
    """Where games are copied to: a store's operator tools
    (:class:`~storage.base.OperatorStore`: its game ids, whole games, players' preferences)
    and the setting of a player's preferences (:class:`~storage.base.PlayerPrefsStore`).
    Every :class:`~storage.base.GameStore` is one."""

    async def load_game(self, dump: GameDump) -> None: ...

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> GuildSettings: ...

    async def load_rating_tables(self, tables: RatingTables) -> None: ...

    async def set_player_prefs(
        self,
        user_id: int,
        *,
        tz: str | None = None,
        quiet: tuple[str, str] | None = None,
        clear_quiet: bool = False,
        language: str | None = None,
        clear_language: bool = False,
        discord_locale: str | None = None,
        manual_end: bool | None = None,
        notices: str | None = None,
        heads_up: bool | None = None,
    ) -> PlayerPrefs: ...


class BackupSource:
    """A backup file (``python -m storage backup`` of a PostgreSQL store) as a copy source."""

    def __init__(self, path: Path) -> None:
        self.file = BackupFile(path)

    async def game_ids(self) -> list[int]:
        return self.file.game_ids()

    async def dump_game(self, game_id: int) -> GameDump:
        return self.file.dump_game(game_id)

    async def all_player_prefs(self) -> list[PlayerPrefs]:
        return list(self.file.prefs)

    async def all_guild_settings(self) -> dict[int, GuildSettings]:
        return dict(self.file.guilds)

    async def rating_tables(self) -> RatingTables:
        return self.file.ratings


@dataclass
class CopyReport:
    """What a copy did: games copied (and verified), skipped (already there, equal), and the
    problems: games that could not be copied, copies that differ from their source."""

    copied: list[int] = field(default_factory=list)
    skipped: list[int] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """Games (or preferences) left out: the destination holds something else there."""
    differ: list[str] = field(default_factory=list)
    """Games copied whose copy does not read back equal: a real problem."""
    prefs_copied: int = 0
    guilds_copied: int = 0
    ratings_copied: int = 0
    """Rating rows and seasons copied (schema 13)."""

    @property
    def ok(self) -> bool:
        return not self.refused and not self.differ

    def summary(self) -> str:
        verdict = "OK" if self.ok else "PROBLEMS"
        return (
            f"{verdict}: {len(self.copied)} game(s) copied and verified, {len(self.skipped)} "
            f"already there and equal, {len(self.refused)} left out, {len(self.differ)} "
            f"differing; {self.prefs_copied} player preference(s) and {self.guilds_copied} "
            f"server setting(s) and {self.ratings_copied} rating row(s) and season(s) copied"
        )


def describe_game(dump: GameDump) -> str:
    """One line about a copied game: its version, log and the hash of its state."""
    digest = state_hash(dump.game.state())
    return (
        f"game {dump.game_id} ({dump.game.status}, v{dump.game.version}, {len(dump.log)} log "
        f"entries, state sha256 {digest[:12]})"
    )


async def copy_store(
    source: CopySource,
    dest: CopyDestination,
    *,
    force: bool = False,
    progress: Callable[[str], None] = lambda line: None,
) -> CopyReport:
    """Copy every game and every player's preferences of ``source`` into ``dest`` (module
    doc). Raises :class:`CopyRefused` for a destination that is neither empty nor an
    interrupted copy of this source, unless ``force``."""
    report = CopyReport()
    source_ids = await source.game_ids()
    dest_ids = await dest.game_ids()
    source_prefs = {p.user_id: p for p in await source.all_player_prefs()}
    dest_prefs = {p.user_id: p for p in await dest.all_player_prefs()}
    wanted = set(source_ids)

    equal: set[int] = set()
    other: list[int] = []
    for game_id in dest_ids:
        if (
            game_id in wanted
            and (await dest.dump_game(game_id)).digest()
            == (await source.dump_game(game_id)).digest()
        ):
            equal.add(game_id)
        else:
            other.append(game_id)
    other_prefs = [
        user for user, prefs in dest_prefs.items() if source_prefs.get(user) not in (None, prefs)
    ]
    extra_prefs = [user for user in dest_prefs if user not in source_prefs]
    if (other or other_prefs or extra_prefs) and not force:
        held = ", ".join(str(game_id) for game_id in other[:5]) + (
            ", ..." if len(other) > 5 else ""
        )
        what = (
            f"{len(other)} game(s) that are not this source's (ids {held})"
            if other
            else "player preferences that are not this source's"
        )
        raise CopyRefused(
            f"the destination is not empty: it holds {what}; copy into an empty database, "
            "or give --force to add the missing games to it (nothing stored is overwritten)"
        )

    for game_id in source_ids:
        if game_id in equal:
            report.skipped.append(game_id)
            progress(f"game {game_id}: already copied and equal, skipped")
            continue
        if game_id in dest_ids:
            report.refused.append(f"game {game_id}: the destination holds another game {game_id}")
            progress(f"game {game_id}: NOT COPIED, the destination holds another game {game_id}")
            continue
        dump = await source.dump_game(game_id)
        try:
            await dest.load_game(dump)
        except (GameExists, ChannelBusy, InvalidData) as exc:
            report.refused.append(f"game {game_id}: {exc}")
            progress(f"game {game_id}: NOT COPIED, {exc}")
            continue
        back = await dest.dump_game(game_id)
        if back.digest() != dump.digest():
            report.differ.append(f"game {game_id}: the copy does not read back equal")
            progress(f"game {game_id}: COPY DIFFERS from the source")
            continue
        report.copied.append(game_id)
        progress(f"{describe_game(dump)}: copied, verified")

    for user, prefs in sorted(source_prefs.items()):
        stored = dest_prefs.get(user)
        if stored == prefs:
            continue
        if stored is not None and stored.tz is not None and prefs.tz is None:
            report.refused.append(f"player {user}: the destination has another time zone")
            continue
        if stored is not None and stored.discord_locale is not None and not prefs.discord_locale:
            report.refused.append(f"player {user}: the destination has another Discord locale")
            continue
        quiet = None
        if prefs.quiet_start is not None and prefs.quiet_end is not None:
            quiet = (prefs.quiet_start, prefs.quiet_end)
        got = await dest.set_player_prefs(
            user,
            tz=prefs.tz,
            quiet=quiet,
            clear_quiet=quiet is None,
            language=prefs.language,
            clear_language=prefs.language is None,
            discord_locale=prefs.discord_locale,
            manual_end=prefs.manual_end,
            notices=prefs.notices,
            heads_up=prefs.heads_up,
        )
        if got != prefs:
            report.differ.append(f"player {user}: the preferences do not read back equal")
            continue
        report.prefs_copied += 1
    dest_guilds = await dest.all_guild_settings()
    for guild, settings in (await source.all_guild_settings()).items():
        there = dest_guilds.get(guild)
        if there == settings:
            continue
        if there is not None and there != GuildSettings():
            report.refused.append(f"server {guild}: the destination has other settings")
            continue
        if await dest.set_guild_settings(guild, settings) != settings:
            report.differ.append(f"server {guild}: the settings do not read back equal")
            continue
        report.guilds_copied += 1
    await _copy_ratings(source, dest, report)
    return report


async def _copy_ratings(source: CopySource, dest: CopyDestination, report: CopyReport) -> None:
    """The rating rows and seasons the destination lacks; one it holds otherwise is left
    as it is (refused)."""
    have = await dest.rating_tables()
    rows = {(r.guild_id, r.game, r.season, r.player): r for r in have.ratings}
    seasons = {(s.guild_id, s.game, s.number): s for s in have.seasons}
    tables = await source.rating_tables()
    new_rows: list[RatingRow] = []
    new_seasons: list[Season] = []
    for r in tables.ratings:
        there = rows.get((r.guild_id, r.game, r.season, r.player))
        if there is None:
            new_rows.append(r)
        elif there != r:
            report.refused.append(
                f"rating of {r.player} in server {r.guild_id} {r.game} season {r.season}: "
                "the destination has another"
            )
    for season in tables.seasons:
        held = seasons.get((season.guild_id, season.game, season.number))
        if held is None:
            new_seasons.append(season)
        elif held != season:
            report.refused.append(
                f"season {season.number} of server {season.guild_id} {season.game}: "
                "the destination has another"
            )
    if not new_rows and not new_seasons:
        return
    await dest.load_rating_tables(RatingTables(ratings=tuple(new_rows), seasons=tuple(new_seasons)))
    back = await dest.rating_tables()
    if not set(new_rows) <= set(back.ratings) or not set(new_seasons) <= set(back.seasons):
        report.differ.append("the rating tables do not read back equal")
        return
    report.ratings_copied += len(new_rows) + len(new_seasons)
