"""Reading a game for a player or a channel (surface-neutral): the board and a seat's hand
as posts (:meth:`Reading.board`, :meth:`Reading.hand`, with the private news kept for the
seat), the scores, the public log and what a channel missed after a restart
(:meth:`Reading.catch_up`), the timeline of the public board, and the rules reference. Each
call reads the game once, without its lock, through the game service's core
(:class:`service.core.GameCore`), which reaches it as ``svc.reading``; the only writes are
the private news kept for a seat (:meth:`Reading.hold_news`) and marked read when shown.

    hand = await service.reading.hand(game_id, seat, news=True, lang="hu")
    rows = await service.reading.scores(game_id)
    lines = await service.reading.log(game_id, last=15)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from i18n import tr, translator, typeset
from rules.games import DEFAULT as DEFAULT_GAME
from service import metrics
from service.games import adapter, adapter_of
from service.language import game_language_of
from service.results import Frame, ImageRequest, Post, Result, ScoreRow, SeatSpec
from service.timeline import timeline_frames
from storage import GameRecord

if TYPE_CHECKING:
    from service.session import Core, GameSession

GameState = Any  # a state of any game of rules.games


def final_text(st: GameState, seats: Sequence[SeatSpec], lang: str = "en") -> str:
    """The final scores' post of a finished game: the sheet, best first, with its winners
    (or that nobody won), in ``lang``."""
    A = adapter_of(st)
    rows = sorted(A.score_rows(st, seats, lang), key=lambda r: -r.total)
    L = translator(lang)
    lines = [L("svc.core.final")]
    lines += [
        L(
            "svc.core.final_winner" if r.winner else "svc.core.final_line",
            who=r.who,
            score=A.score_text(r.total, lang),
        )
        for r in rows
    ]
    if not any(r.winner for r in rows):
        lines.append(L("svc.core.nobody_won"))
    return "\n".join(lines)


class Reading:
    """What a player or a channel reads of a game, without its lock: the board and a seat's
    hand as posts (with the private news kept for the seat, marked read once shown), the
    score rows, the public log and the catch-up after a restart, the timeline (its frames
    and its animation, drawn in a worker process), and the rules reference of each game
    (``rulebook_path``: Brazil: Imperial's reference read from that file instead of the
    packaged one). Reached as ``svc.reading``; it keeps nothing but the rulebook's path."""

    def __init__(self, svc: Core, *, rulebook_path: str | None = None) -> None:
        self.svc = svc
        self.rulebook_path = rulebook_path

    async def board(
        self, game_id: int, seat: int | None = None, *, lang: str | None = None
    ) -> Result:
        """The board as text and images: public post (map + boards, in the game's language
        or ``lang``), and for ``seat`` a private post with its hand image (in ``lang``)."""
        rec, st, seats = await self.svc.read(game_id)
        A = adapter_of(st)
        lang = lang or game_language_of(rec)
        res = Result(game_id=game_id, version=rec.version, over=A.over(st))
        res.frames[rec.version] = Frame(rec.version, st)
        L = translator(lang)
        lines = [self.svc.status(game_id, st, seats, lang).text(lang)]
        lines += [
            L("svc.core.score_hidden", who=row.who)
            if row.hidden
            else L("svc.core.score_line", who=row.who, score=A.score_text(row.total, lang))
            for row in self.score_rows(st, seats, lang)
        ]
        lines += A.board_text(st, seats, lang)  # the board in words (a screen reader's map)
        imgs = A.board_images(rec.version, lang)
        res.posts.append(Post("public", "\n".join(lines), imgs))
        if seat is not None:
            res.posts.append(self.hand_post(rec.version, st, seats, seat, lang))
        res.next = self.svc.decisions(st, seats, choices=False, lang=lang)
        return res

    async def hand(
        self, game_id: int, seat: int, *, news: bool = False, lang: str = "en"
    ) -> Result:
        """``seat``'s secret hand as a private post (text + hand image); with ``news``, the
        private news kept for the seat since it last looked (:meth:`hold_news`) follows,
        and is then marked read."""
        rec, st, seats = await self.svc.read(game_id)
        res = Result(game_id=game_id, version=rec.version, over=adapter_of(st).over(st))
        res.frames[rec.version] = Frame(rec.version, st)
        res.posts.append(self.hand_post(rec.version, st, seats, seat, lang))
        if news:
            items = await self.svc.store.unread_news(game_id, seat)
            if items:
                lines = "\n".join(f"- {n.text}" for n in items)
                res.posts.append(Post(seat, tr(lang, "svc.core.news") + "\n" + lines))
                await self.svc.store.mark_news_read(game_id, seat, items[-1].id)
        return res

    async def hold_news(self, game_id: int, seat: int, texts: Sequence[str]) -> None:
        """Keep private news for ``seat`` until it next looks at its hand (in storage: a
        restart loses nothing)."""
        await self.svc.store.add_news(game_id, seat, texts)

    def hand_post(
        self, version: int, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> Post:
        image = ImageRequest("hand", seat, version, lang=lang, game=adapter_of(st).name)
        return Post(seat, self.hand_text(st, seats, seat, lang), (image,))

    def hand_text(
        self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """``seat``'s secret hand in words (its game's adapter's)."""
        return adapter_of(st).hand_text(st, seats, seat, lang)

    def score_rows(
        self, st: GameState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> list[ScoreRow]:
        """Public scores of ``st`` (Brazil: hidden missions and gold cards not counted;
        Tigris: only with open scoring, else ``hidden``), or the final score sheet with
        categories and winners once the game is over."""
        return adapter_of(st).score_rows(st, seats, lang)

    async def scores(self, game_id: int, lang: str = "en") -> list[ScoreRow]:
        """Public scores now (hidden missions and gold cards not counted), or the final
        score sheet with categories and winners once the game is over (names in ``lang``)."""
        _, st, seats = await self.svc.read(game_id)
        return self.score_rows(st, seats, lang)

    async def log(self, game_id: int, *, last: int = 20, lang: str = "en") -> list[str]:
        """The last public events of the game, one line per action (oldest first)."""
        rec = await self.svc.store.get_game(game_id)
        return await self._log_lines(rec, last, lang)

    async def _log_lines(self, rec: GameRecord, last: int, lang: str = "en") -> list[str]:
        entries = await self.svc.store.get_log(rec.id, from_version=max(1, rec.version - last + 1))
        A = adapter(rec.game)
        st, seats = A.load(rec.state_json), self.svc.seat_specs(rec)
        lines = []
        for e in entries:
            kind = str(getattr(e, "kind", "action"))
            if kind in ("undo", "rollback"):
                key = f"svc.core.log.{kind}"
                lines.append(tr(lang, key, version=e.version, target=e.target_version))
                continue
            evs = A.public(A.events_from_json(e.events_json))
            texts = [A.log_text(ev, st, seats, lang) for ev in evs]
            text = " ".join(texts) or tr(lang, "svc.core.log.none")
            lines.append(typeset(lang, f"v{e.version}: {text}"))
        return lines

    async def catch_up(self, game_id: int, since: int) -> Result:
        """What the channel missed after version ``since`` (saved, never posted: the bot
        stopped between a save and its post): the public lines of those steps and the map
        now, with the next decisions, to publish again."""
        return await self.catch_up_in(await self.svc.peek(game_id), since)

    async def catch_up_in(self, s: GameSession, since: int) -> Result:
        """:meth:`catch_up` on a game already loaded."""
        missed = await self._log_lines(s.rec, max(1, s.version - since))
        text = "\n".join(["The bot restarted; steps saved but not shown yet:", *missed])
        return self.svc.announce(s.game_id, s.version, s.state, s.seats, text)

    async def timeline_frames(self, game_id: int) -> list[tuple[Any, list[Any]]]:
        """The public board after every turn, replayed from the log in a worker thread."""
        rec = await self.svc.store.get_game(game_id)
        entries = await self.svc.store.get_log(game_id)
        return await asyncio.to_thread(timeline_frames, entries, rec.game)

    async def timeline_image(self, game_id: int, lang: str | None = None) -> bytes | None:
        """The game's timeline animation (an animated GIF of the public map after every
        turn, replayed from the log), drawn in a worker process; None: no turn yet. Raises
        :class:`service.workers.WorkerError` when its worker failed twice."""
        rec = await self.svc.store.get_game(game_id)
        if not adapter(rec.game).has_timeline:
            return None  # a game service.timeline cannot replay
        entries = await self.svc.store.get_log(game_id)
        if lang is None:
            lang = game_language_of(rec)
        with metrics.timed(metrics.RENDER_SECONDS, "timeline"):
            return await self.svc.workers.timeline(entries, lang, rec.game)

    @staticmethod
    def rule_example(game: str = DEFAULT_GAME) -> str:
        """A rule ID of ``game``'s reference to offer as an example of a query."""
        from service.rulebook import example_id

        return example_id(game)

    def rules(
        self, query: str, limit: int = 3, *, lang: str = "en", game: str = DEFAULT_GAME
    ) -> list[str]:
        """Rules-reference entries of ``game`` for an ID (``R-BUILD-4``, ``build 4``;
        Tigris: ``T-WAR-6``, ``war 6``) or keywords, from the reference in ``lang`` (English
        where a language has none)."""
        from service.rulebook import format_entry, lookup

        path = self.rulebook_path if game == DEFAULT_GAME else None
        return [
            format_entry(e, markdown=False, lang=lang)
            for e in lookup(query, limit, path=path, lang=lang, game=game)
        ]
