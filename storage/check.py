"""The ``check`` command's logic: integrity check plus replay of every game's log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from storage.models import GameRecord, IntegrityProblem, ReplayReport
from storage.replay import Replayer

__all__ = ["CheckReport", "CheckedStore", "GameCheck", "check_store"]


class CheckedStore(Protocol):
    """What ``check`` reads of a store: the integrity check and every game id of the
    operator tools' contract (:class:`~storage.base.OperatorStore`), and each game and its
    replay from the press's (:class:`~storage.base.GameRecords`). Every
    :class:`~storage.base.GameStore` is one."""

    async def check_integrity(self) -> list[IntegrityProblem]: ...

    async def game_ids(self) -> list[int]: ...

    async def get_game(self, game_id: int) -> GameRecord: ...

    async def replay(
        self, game_id: int, replayer: Replayer, *, to_version: int | None = None
    ) -> ReplayReport: ...


@dataclass
class GameCheck:
    """What ``check`` found for one game."""

    game_id: int
    channel_id: int
    status: str
    version: int
    problems: list[str] = field(default_factory=list)
    replay: ReplayReport | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and (self.replay is None or not self.replay.is_problem)

    def describe(self) -> str:
        head = f"game {self.game_id} (channel {self.channel_id}, {self.status}, v{self.version})"
        parts = list(self.problems)
        if self.replay is not None:
            parts.append(self.replay.describe())
        elif not self.problems:
            parts.append("integrity OK (replay skipped)")
        return f"{head}: " + "; ".join(parts)


@dataclass
class CheckReport:
    """Everything ``check`` found. ``ok`` is false only for real problems: a skipped replay
    (no replayer available) is not one, nor is a game recorded under another engine version
    that no longer replays (its line says so plainly)."""

    database_problems: list[str]
    games: list[GameCheck]
    replay_skipped_reason: str | None = None

    @property
    def ok(self) -> bool:
        return not self.database_problems and all(game.ok for game in self.games)

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.database_problems:
            out.append(f"integrity: {len(self.database_problems)} database problem(s)")
            out.extend(f"  - {problem}" for problem in self.database_problems)
        else:
            out.append("integrity: database OK")
        if self.replay_skipped_reason is not None:
            out.append(f"replay: SKIPPED, {self.replay_skipped_reason}")
        out.extend(game.describe() for game in self.games)
        bad = sum(not game.ok for game in self.games)
        older = sum(
            game.replay is not None and game.replay.engine_note is not None and game.ok
            for game in self.games
        )
        verdict = "OK" if self.ok else "PROBLEMS FOUND"
        extra = f", {older} recorded under another engine (not replayable with this one)"
        out.append(
            f"{verdict}: {len(self.games)} game(s), {bad} with problems" + (extra if older else "")
        )
        return out


async def check_store(
    store: CheckedStore,
    replayer: Replayer | None,
    *,
    skipped_reason: str | None = None,
    replayer_for: Callable[[str], Replayer] | None = None,
) -> CheckReport:
    """Run the integrity check, then replay every game with ``replayer`` (None: skip replay,
    giving ``skipped_reason``) and compare with the recorded hashes and stored states.
    ``replayer_for(game)``: the replayer of a record's game (its
    :attr:`~storage.models.GameSummary.game`), when each game is replayed by its own engine
    (``replayer`` then only says that replaying is possible)."""
    problems: list[IntegrityProblem] = await store.check_integrity()
    per_game: dict[int, list[str]] = {}
    database: list[str] = []
    for problem in problems:
        if problem.game_id is None:
            database.append(problem.message)
        else:
            per_game.setdefault(problem.game_id, []).append(problem.message)
    games: list[GameCheck] = []
    if any(problem.startswith("integrity_check:") for problem in database):
        database.append("the games were not examined: the database file itself is damaged")
        return CheckReport(database_problems=database, games=games)
    for game_id in await store.game_ids():
        record = await store.get_game(game_id)
        check = GameCheck(
            game_id=game_id,
            channel_id=record.channel_id,
            status=record.status.value,
            version=record.version,
            problems=per_game.get(game_id, []),
        )
        if replayer is not None:
            by_game = replayer if replayer_for is None else replayer_for(record.game)
            check.replay = await store.replay(game_id, by_game)
        games.append(check)
    if replayer is None and skipped_reason is None:
        skipped_reason = "no replayer given"
    return CheckReport(
        database_problems=database,
        games=games,
        replay_skipped_reason=skipped_reason if replayer is None else None,
    )
