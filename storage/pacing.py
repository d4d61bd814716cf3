"""Storage of the bot's pacing (schema version 4): the SQL behind the store's pacing methods.

:class:`PacingStore` is mixed into :class:`storage.sqlite.SqliteGameStore`; the methods
are part of the :class:`storage.base.GameStore` interface (documented there) and their value
types live in :mod:`storage.models` (re-exported here for older imports). Storage does not
understand pacing: it keeps a game's pacing settings as JSON text, a player's time zone and
quiet hours, away periods and pauses (``breaks``), when each seat's decision began
(``decisions``), the timers that fired (``timers``) and AI stand-ins. Times are given by the
caller (the bot's pacing clock), aware datetimes stored in UTC.

**Firing once.** :meth:`PacingStore.claim_timer` inserts the row keyed ``(game, version, seat,
kind)`` in its own committed transaction and says whether this caller got it: only the
first claim ever succeeds, so a reminder is sent at most once even if two schedulers run or
the bot restarts. The caller claims *before* sending (see :mod:`service.pace` for which
side of at-most/at-least once each kind chose) and marks it done with
:meth:`PacingStore.finish_timer`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from storage.errors import InvalidData
from storage.models import (
    Break,
    DecisionClock,
    GamePacing,
    PlayerPrefs,
    StandIn,
    Timer,
    utc_iso,
)

if TYPE_CHECKING:
    import aiosqlite

__all__ = [
    "Break",
    "DecisionClock",
    "GamePacing",
    "PacingStore",
    "PlayerPrefs",
    "StandIn",
    "Timer",
    "pacing_iso",
]


def _t(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def pacing_iso(t: datetime | None) -> str | None:
    """The stored form of a pacing time (``InvalidData`` for a naive one)."""
    if t is None:
        return None
    if t.tzinfo is None or t.utcoffset() is None:
        raise InvalidData("pacing times must be aware datetimes")
    return utc_iso(t.astimezone(UTC))


class PacingStore:
    """The pacing methods of the SQLite store (a mixin; see module doc)."""

    if TYPE_CHECKING:

        def _write(self) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...

        async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]: ...

    # -- game settings and votes ----------------------------------------------------------

    async def get_pacing(self, game_id: int) -> GamePacing:
        """The game's pacing settings JSON (``{}``: defaults) and pause votes (user ids)."""
        rows = await self._fetch(
            "SELECT settings_json, pause_votes_json FROM pacing_games WHERE game_id = ?",
            (game_id,),
        )
        if not rows:
            return GamePacing(game_id, "{}", ())
        votes = tuple(int(v) for v in json.loads(rows[0][1]))
        return GamePacing(game_id, str(rows[0][0]), votes)

    async def set_pacing_settings(self, game_id: int, settings_json: str) -> None:
        try:
            json.loads(settings_json)
        except ValueError as exc:
            raise InvalidData("pacing settings must be JSON") from exc
        async with self._write() as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, settings_json) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET settings_json = excluded.settings_json",
                (game_id, settings_json),
            )

    async def set_pause_votes(self, game_id: int, votes: Sequence[int]) -> None:
        text = json.dumps(sorted({int(v) for v in votes}))
        async with self._write() as db:
            await db.execute(
                "INSERT INTO pacing_games (game_id, pause_votes_json) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET pause_votes_json = excluded.pause_votes_json",
                (game_id, text),
            )

    # -- players --------------------------------------------------------------------------

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        rows = await self._fetch(
            "SELECT tz, quiet_start, quiet_end FROM pacing_players WHERE user_id = ?", (user_id,)
        )
        if not rows:
            return PlayerPrefs(user_id, None, None, None)
        tz, qs, qe = rows[0]
        return PlayerPrefs(user_id, tz, qs, qe)

    async def set_player_prefs(
        self,
        user_id: int,
        *,
        tz: str | None = None,
        quiet: tuple[str, str] | None = None,
        clear_quiet: bool = False,
    ) -> PlayerPrefs:
        """Set the player's time zone and/or quiet hours (``"22:00", "08:00"``)."""
        old = await self.get_player_prefs(user_id)
        new_tz = tz if tz is not None else old.tz
        qs, qe = (None, None) if clear_quiet else (quiet or (old.quiet_start, old.quiet_end))
        async with self._write() as db:
            await db.execute(
                "INSERT INTO pacing_players (user_id, tz, quiet_start, quiet_end) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "tz = excluded.tz, quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end",
                (user_id, new_tz, qs, qe),
            )
        return PlayerPrefs(user_id, new_tz, qs, qe)

    # -- away periods and pauses ----------------------------------------------------------

    async def add_break(
        self,
        game_id: int,
        seat: int | None,
        start: datetime,
        end: datetime | None,
        *,
        by_user: int | None = None,
        reason: str | None = None,
    ) -> Break:
        """An away period of ``seat`` (``end`` required) or a pause of the game (seat None)."""
        if seat is not None and end is None:
            raise InvalidData("an away period needs an end")
        async with self._write() as db:
            cur = await db.execute(
                "INSERT INTO pacing_breaks (game_id, seat, start_at, end_at, by_user, reason) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seat, pacing_iso(start), pacing_iso(end), by_user, reason),
            )
            bid = int(cur.lastrowid or 0)
        return Break(bid, game_id, seat, start, end, by_user, reason)

    async def end_break(self, break_id: int, at: datetime) -> None:
        """End a break at ``at`` (an away period ended early, a pause resumed)."""
        async with self._write() as db:
            await db.execute(
                "UPDATE pacing_breaks SET end_at = ? WHERE id = ? AND "
                "(end_at IS NULL OR end_at > ?)",
                (pacing_iso(at), break_id, pacing_iso(at)),
            )

    async def breaks(self, game_id: int) -> list[Break]:
        rows = await self._fetch(
            "SELECT id, game_id, seat, start_at, end_at, by_user, reason FROM pacing_breaks "
            "WHERE game_id = ? ORDER BY start_at, id",
            (game_id,),
        )
        return [
            Break(int(r[0]), int(r[1]), r[2], datetime.fromisoformat(r[3]), _t(r[4]), r[5], r[6])
            for r in rows
        ]

    # -- decision clocks ------------------------------------------------------------------

    @staticmethod
    def _clock_row(r: Sequence[Any]) -> DecisionClock:
        started = datetime.fromisoformat(r[3])
        return DecisionClock(int(r[0]), int(r[1]), int(r[2]), started, _t(r[4]), bool(r[5]))

    _CLOCK_COLUMNS = "game_id, seat, since_version, started_at, closed_at, muted"

    async def sync_decisions(
        self, game_id: int, version: int, deciding: Sequence[int], at: datetime
    ) -> list[DecisionClock]:
        """The seats ``deciding`` now (game ``version``, time ``at``): each one's open clock
        is kept, or started now; the clocks of seats no longer deciding are closed. Returns
        the open clocks."""
        async with self._write() as db:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {self._CLOCK_COLUMNS} FROM pacing_decisions "
                    "WHERE game_id = ? AND closed_at IS NULL",
                    (game_id,),
                )
            )
            open_ = {int(r[1]): r for r in rows}
            for seat in set(open_) - set(deciding):
                await db.execute(
                    "UPDATE pacing_decisions SET closed_at = ? WHERE game_id = ? AND seat = ? "
                    "AND closed_at IS NULL",
                    (pacing_iso(at), game_id, seat),
                )
            for seat in set(deciding) - set(open_):
                await db.execute(
                    "INSERT OR IGNORE INTO pacing_decisions "
                    "(game_id, seat, since_version, started_at) VALUES (?, ?, ?, ?)",
                    (game_id, seat, version, pacing_iso(at)),
                )
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {self._CLOCK_COLUMNS} FROM pacing_decisions "
                    "WHERE game_id = ? AND closed_at IS NULL ORDER BY seat",
                    (game_id,),
                )
            )
        return [self._clock_row(r) for r in rows]

    async def open_decisions(self, game_id: int) -> list[DecisionClock]:
        rows = await self._fetch(
            f"SELECT {self._CLOCK_COLUMNS} FROM pacing_decisions "
            "WHERE game_id = ? AND closed_at IS NULL ORDER BY seat",
            (game_id,),
        )
        return [self._clock_row(r) for r in rows]

    async def mute_decision(self, game_id: int, seat: int, since_version: int) -> bool:
        """Mute the reminders of that decision (False: it is no longer open)."""
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE pacing_decisions SET muted = 1 WHERE game_id = ? AND seat = ? "
                "AND since_version = ? AND closed_at IS NULL",
                (game_id, seat, since_version),
            )
            return (cur.rowcount or 0) > 0

    # -- timers ---------------------------------------------------------------------------

    async def claim_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime
    ) -> bool:
        """Claim the timer ``(game, version, seat, kind)``, committed at once: True only for
        the first claim ever (the caller then does the work), False if it was claimed."""
        async with self._write() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO pacing_timers (game_id, version, seat, kind, claimed_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, version, seat, kind, pacing_iso(at)),
            )
            return (cur.rowcount or 0) == 1

    async def finish_timer(
        self, game_id: int, version: int, seat: int, kind: str, at: datetime, outcome: str
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "UPDATE pacing_timers SET done_at = ?, outcome = ? WHERE game_id = ? "
                "AND version = ? AND seat = ? AND kind = ?",
                (pacing_iso(at), outcome, game_id, version, seat, kind),
            )

    async def timers(self, game_id: int | None = None, *, unfinished: bool = False) -> list[Timer]:
        """Claimed timers (of one game), oldest first; ``unfinished``: claimed, not done."""
        where, params = [], []
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        if unfinished:
            where.append("done_at IS NULL")
        sql = (
            "SELECT game_id, version, seat, kind, claimed_at, done_at, outcome FROM pacing_timers"
            + (" WHERE " + " AND ".join(where) if where else "")
            + " ORDER BY claimed_at, game_id, version, seat, kind"
        )
        rows = await self._fetch(sql, params)
        return [
            Timer(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                str(r[3]),
                datetime.fromisoformat(r[4]),
                _t(r[5]),
                r[6],
            )
            for r in rows
        ]

    # -- AI stand-ins ---------------------------------------------------------------------

    async def start_stand_in(
        self, game_id: int, seat: int, user_id: int | None, ai_level: str, at: datetime
    ) -> bool:
        """Record that an AI plays ``seat`` for ``user_id`` from ``at`` (False: one already
        does)."""
        async with self._write() as db:
            cur = await db.execute(
                "INSERT OR IGNORE INTO pacing_standins (game_id, seat, user_id, ai_level, since) "
                "VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, ai_level, pacing_iso(at)),
            )
            return (cur.rowcount or 0) == 1

    async def end_stand_in(self, game_id: int, seat: int, at: datetime) -> StandIn | None:
        """End the open stand-in of ``seat`` (None if there is none)."""
        async with self._write() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT game_id, seat, user_id, ai_level, since, ended_at FROM pacing_standins "
                    "WHERE game_id = ? AND seat = ? AND ended_at IS NULL",
                    (game_id, seat),
                )
            )
            if not rows:
                return None
            await db.execute(
                "UPDATE pacing_standins SET ended_at = ? WHERE game_id = ? AND seat = ? "
                "AND ended_at IS NULL",
                (pacing_iso(at), game_id, seat),
            )
        r = rows[0]
        return StandIn(int(r[0]), int(r[1]), r[2], str(r[3]), datetime.fromisoformat(r[4]), at)

    async def stand_ins(self, game_id: int, *, open_only: bool = True) -> list[StandIn]:
        rows = await self._fetch(
            "SELECT game_id, seat, user_id, ai_level, since, ended_at FROM pacing_standins "
            "WHERE game_id = ?" + (" AND ended_at IS NULL" if open_only else "") + " ORDER BY seat",
            (game_id,),
        )
        return [
            StandIn(int(r[0]), int(r[1]), r[2], str(r[3]), datetime.fromisoformat(r[4]), _t(r[5]))
            for r in rows
        ]
