"""Lobbies: a game's seats gathered before it starts (join, leave, computer players, colour
wishes), then the start — surface-neutral. The surface says who the user is and whether they
manage the lobby (its creator, or a moderator: a surface's own notion); every refusal is a
:class:`~service.results.Refused` with the sentence to show privately.

Texts are the catalogue's ``svc.lobby.*``: a refusal carries an :class:`i18n.Msg` (``str(e)`` is
English, ``e.text(lang)`` the asker's language); the lobby's text (:func:`lobby_text`, a public
post) is in the game's language (:func:`~service.language.game_language_of`), the colour menu
(:func:`colour_choices`) in the language asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import i18n
from i18n import msg, tr
from rules.registry import registration
from service import catalog
from service.core import game_seat
from service.games import DEFAULT, UnknownGame, adapter, adapter_of, names, title_key
from service.language import game_language_of
from service.results import (
    Refused,
    Result,
    SeatSpec,
    ai_id,
    ai_level_of,
    ai_number,
    level_words,
)
from storage import GameRecord, GameSettings, GameStatus, Seat
from storage.errors import (
    ChannelBusy,
    GameNotActive,
    GameNotFound,
    InvalidTransition,
    StorageError,
)
from storage.models import SeatKind

if TYPE_CHECKING:
    from typing import Any

    from service.core import GameCore
    from service.session import GameSession

LOBBY_MANAGER = msg("svc.lobby.manager_only")
"""The refusal of a lobby button only its creator or a moderator may press."""
CLOSED = msg("svc.lobby.closed")


def colour_choices(lang: str = "en", game: str | None = None) -> list[tuple[str, str]]:
    """The colours a player of ``game`` (None: the default game) may wish for: (id, name in
    ``lang``); none for a game without colours."""
    return adapter(game).colours(lang)


def _term(kind: str, id_: str) -> str:
    """A term reference (``@term.colour.blue``) when a catalogue has the term, else the id
    itself (a data pack's own component)."""
    key = f"term.{kind}.{id_}"
    return f"@{key}" if key in i18n.catalogue(i18n.DEFAULT).messages else id_


def _who(rec: GameRecord, n: int, lang: str) -> str:
    """Who takes seat ``n``: a computer level with its rating on the scale where the game's
    levels are calibrated (``AI search (search, ≈ 1,650)``), else the seat's label."""
    from service.ai_scale import seat_text  # here: ``python -m service.ai_scale`` runs it

    seat = rec.seat(n)
    assert seat is not None
    if seat.kind is SeatKind.AI and seat.ai_level:
        specs = [
            SeatSpec(s.name or "", ai=s.ai_level) if s and s.kind is SeatKind.AI else SeatSpec("")
            for s in (rec.seat(i) for i in range(rec.settings.player_count))
        ]
        number = ai_number(specs, n)
        return seat_text(lang, rec.game, seat.name or "", seat.ai_level, number)
    return seat.label()


def lobby_text(rec: GameRecord, lang: str | None = None) -> str:
    """The lobby's text: scenario, deadline, the seats with their wishes, what to do; in
    ``lang`` (by default the game's language: the lobby is a public post)."""
    L = i18n.translator(lang or game_language_of(rec))
    s = rec.settings
    A = adapter(rec.game)
    if not A.has_colours and not A.scenarios():  # one board, no colour wishes
        lines = [L("svc.lobby.title.game", title=L(title_key(A.name)), game=rec.id)]
        if s.turn_timer_seconds:
            lines.append(L("svc.lobby.deadline", hours=s.turn_timer_seconds // 3600))
        for n in range(s.player_count):
            who = _who(rec, n, L.lang) if rec.seat(n) else L("svc.lobby.open_seat")
            lines.append(L("svc.lobby.seat", n=n + 1, who=who))
        lines.append(L("svc.lobby.how.game"))
        return "\n".join(lines)
    lines = [L("svc.lobby.title", game=rec.id)]
    if s.scenario != "auto":
        lines.append(L("svc.lobby.scenario", scenario=_term("scenario", s.scenario)))
    else:
        lines.append(L("svc.lobby.scenario.auto"))
    if s.turn_timer_seconds:
        lines.append(L("svc.lobby.deadline", hours=s.turn_timer_seconds // 3600))
    for n in range(s.player_count):
        seat = rec.seat(n)
        who = _who(rec, n, L.lang) if seat else L("svc.lobby.open_seat")
        if seat is not None and seat.colour:
            colour = _term("colour", seat.colour)
            lines.append(L("svc.lobby.seat.wish", n=n + 1, who=who, colour=colour))
        else:
            lines.append(L("svc.lobby.seat", n=n + 1, who=who))
    lines.append(L("svc.lobby.how"))
    return "\n".join(lines)


def _colour_word(colour: str) -> dict[str, object] | str:
    """A colour as a sentence's subject: a nested message (``svc.lobby.colour.<id>``: the
    capitalised id in English, the colour's word elsewhere), or the capitalised id of a
    colour no catalogue names."""
    key = f"svc.lobby.colour.{colour}"
    if key in i18n.catalogue(i18n.DEFAULT).messages:
        return {"key": key, "params": {}}
    return colour.capitalize()


def is_host(rec: GameRecord, user_id: int) -> bool:
    """Whether ``user_id`` opened the lobby ``rec``."""
    return rec.status is GameStatus.LOBBY and rec.settings.host_user_id == user_id


class Lobbies:
    """The lobby operations of one game service."""

    def __init__(self, svc: GameCore) -> None:
        self.svc = svc

    @property
    def store(self) -> object:
        return self.svc.store

    async def open(
        self,
        channel_id: int,
        guild_id: int | None,
        host: int,
        *,
        scenario: str | None,
        players: int,
        ai_seats: int,
        ai_level: str,
        deadline_hours: int,
        language: str = "en",
        game: str | None = DEFAULT,
    ) -> GameRecord:
        """Open a lobby in ``channel_id`` with its creator ``host`` in seat 1 and ``ai_seats``
        computer players; the game's public posts are in ``language`` (a served language
        as people write it, :class:`i18n.UnknownLanguage` otherwise; it stays when the lobby
        starts). ``game``: which game (a name of :func:`rules.games.names`, Brazil: Imperial
        by default; Refused naming the games otherwise), recorded with the lobby; its player
        count is checked against the game's range (Tigris & Euphrates: 2 to 4)."""
        name = (game or DEFAULT).strip().lower()
        try:
            A = adapter(name)
        except UnknownGame as e:
            known = ", ".join(n for n in names())
            raise Refused(msg("svc.lobby.no_game", game=name, games=known)) from e
        scenarios = [sid for sid, _ in A.scenarios()]
        if not scenarios:
            scenario = None  # one board
        elif scenario and scenario not in scenarios:
            raise Refused(msg("svc.lobby.no_scenario", scenario=scenario))
        lo, hi = A.face.min_players, A.face.max_players
        if not lo <= players <= hi or not 0 <= ai_seats < players:
            title = f"@{title_key(A.name)}"
            raise Refused(msg("svc.lobby.players.game", title=title, min=lo, max=hi))
        reg = registration(A.name)
        levels = reg.agent_levels if reg is not None else ()
        level = ai_level_of(ai_level)
        if level in levels:
            ai_level = level  # the id, whatever word was typed
        elif levels or ai_seats:
            raise Refused(msg("svc.lobby.ai_level", level=ai_level, levels=level_words(levels)))
        lang = i18n.require(language)
        await self.check_cap(host, guild_id)
        seats = [Seat.discord(0, host)]
        seats += [Seat.ai(i + 1, ai_level, name=ai_id(ai_level)) for i in range(ai_seats)]
        settings = GameSettings(
            scenario=scenario or "auto",
            player_count=players,
            turn_timer_seconds=deadline_hours * 3600,
            host_user_id=host,
            ai_level=ai_level,
            language=lang,
        )
        try:
            return await self.svc.store.create_game(
                channel_id,
                initial_state_json="{}",
                settings=settings,
                guild_id=guild_id,
                seats=seats,
                status=GameStatus.LOBBY,
                game=A.name,
            )
        except ChannelBusy as e:
            raise Refused(msg("svc.lobby.channel_busy")) from e

    async def get_open(self, game_id: int) -> GameRecord:
        """The game ``game_id`` while it is still a lobby; Refused ("closed") otherwise."""
        try:
            rec = await self.svc.store.get_game(game_id)
        except StorageError as e:
            raise Refused(CLOSED) from e
        if rec.status is not GameStatus.LOBBY:
            raise Refused(CLOSED)
        return rec

    async def colour(self, game_id: int, user_id: int, colour: str) -> GameRecord:
        """A seated player's colour wish (one colour per seat; R-SETUP-4)."""
        rec = await self.get_open(game_id)
        mine = rec.seats_of(user_id)
        if not mine:
            raise Refused(msg("svc.lobby.join_first"))
        A = adapter(rec.game)
        if not A.has_colours or colour not in dict(A.colours("en")):
            raise Refused(msg("svc.lobby.gone"))
        try:
            return await self.svc.store.set_colour(game_id, mine[0], colour)
        except StorageError as e:
            raise Refused(msg("svc.lobby.colour_taken", colour=_colour_word(colour))) from e

    async def check_cap(self, user_id: int, guild_id: int | None) -> None:
        """Refused when ``user_id`` already holds a seat in as many lobbies, games in setup and
        running games on the server ``guild_id`` as its settings allow
        (:attr:`~storage.models.GuildSettings.max_running_games`; None: no cap). Computer
        seats are nobody's: they never count. Changes nothing."""
        if guild_id is None:
            return
        cap = (await self.svc.store.get_guild_settings(guild_id)).max_running_games
        if cap is None:
            return
        held = await self.svc.places.games_on_server(user_id, guild_id)
        if held >= cap:
            raise Refused(msg("svc.lobby.cap", games=held, most=cap))

    async def join(self, rec: GameRecord, user_id: int) -> GameRecord:
        """``user_id`` takes the lobby's first free seat: Refused when seated already, when
        the lobby is full, or when the server's cap on running games per player is reached
        (:meth:`check_cap`)."""
        if rec.seats_of(user_id):
            raise Refused(msg("svc.lobby.already_in"))
        free = self.free_seats(rec)
        if not free:
            raise Refused(msg("svc.lobby.full"))
        await self.check_cap(user_id, rec.guild_id)
        return await self.svc.store.assign_seat(rec.id, Seat.discord(free[0], user_id))

    async def leave(self, rec: GameRecord, user_id: int) -> tuple[GameRecord, bool]:
        """The user leaves; True when nobody human is left (the lobby is then closed)."""
        mine = rec.seats_of(user_id)
        if not mine:
            raise Refused(msg("svc.lobby.not_in"))
        for n in mine:
            rec = await self.svc.store.remove_seat(rec.id, n)
        if not any(s.kind is SeatKind.DISCORD for s in rec.seats):
            return await self.svc.store.set_status(rec.id, GameStatus.ABANDONED), True
        return rec, False

    async def add_ai(self, rec: GameRecord, default_level: str, *, manager: bool) -> GameRecord:
        if not manager:
            raise Refused(LOBBY_MANAGER)
        free = self.free_seats(rec)
        if not free:
            raise Refused(msg("svc.lobby.full"))
        level = self.ai_level(rec, default_level)
        return await self.svc.store.assign_seat(rec.id, Seat.ai(free[0], level, name=ai_id(level)))

    @staticmethod
    def free_seats(rec: GameRecord) -> list[int]:
        return [n for n in range(rec.settings.player_count) if rec.seat(n) is None]

    @staticmethod
    def ai_level(rec: GameRecord, default_level: str) -> str:
        return rec.settings.ai_level or default_level

    async def start(
        self,
        lobby: GameRecord,
        names: Mapping[int, str],
        *,
        default_level: str,
        default_scenario: str | None,
        seed: int | None = None,
    ) -> Result:
        """Start the lobby's game: seated users (``names``: their display names by user id),
        computer players in the other seats. The lobby becomes the game — same number, same
        channel, in one transaction (:meth:`storage.base.GameStore.start_lobby`), the game
        built as :meth:`GameCore.new_game` builds one —, and the colours wished in the lobby
        are taken as the colour step reaches them. Refused (with the reason) when the game
        cannot start (the lobby stays open) or the lobby is closed meanwhile."""
        level = self.ai_level(lobby, default_level)
        lang = game_language_of(lobby)
        specs: list[SeatSpec] = []
        for n in range(lobby.settings.player_count):
            seat = lobby.seat(n)
            if seat is not None and seat.kind is SeatKind.DISCORD and seat.user_id is not None:
                name = names.get(seat.user_id) or tr(lang, "svc.lobby.player", n=len(specs) + 1)
                specs.append(SeatSpec(name=name, user_id=seat.user_id))
            else:
                lv = seat.ai_level if seat is not None and seat.ai_level else level
                specs.append(SeatSpec.computer(lv))
        A = adapter(lobby.game)
        scenario = lobby.settings.scenario if lobby.settings.scenario != "auto" else None
        if not A.scenarios():
            scenario = default_scenario = None  # one board
        try:  # as GameCore.new_game builds one
            st = catalog.build_game(len(specs), scenario or default_scenario, seed, game=A.name)
        except Refused as e:
            raise Refused(msg("svc.lobby.cannot_start", error=e.param())) from e
        wishes = {x.seat: x.colour for x in lobby.seats if x.colour and x.kind is SeatKind.DISCORD}
        if not A.has_colours:
            wishes = {}
        settings = GameSettings.model_validate(
            {
                **lobby.settings.model_dump(),  # the lobby's deadline, host and AI level stay
                "scenario": A.scenario_of(st),
                "player_count": len(specs),
                "data_pack": None,
                "seed": A.seed_of(st),
                "colour_wishes": wishes,
            }
        )
        try:
            rec = await self.svc.store.start_lobby(
                lobby.id,
                initial_state_json=A.dump(st),
                settings=settings,
                seats=[game_seat(n, spec) for n, spec in enumerate(specs)],
                status=GameStatus.RUNNING,
            )
        except (GameNotFound, GameNotActive, InvalidTransition) as e:  # started or left meanwhile
            raise Refused(CLOSED) from e
        res = self.svc.started(rec, st, specs)
        if wishes:
            async with self.svc.session(rec.id) as s:
                await self.colour_wishes(s, res)
        return res

    async def colour_wishes(self, s: GameSession, res: Result) -> None:
        """R-SETUP-4: the colours wished in the lobby (kept in the game's settings), taken for
        those seats when the game's colour step reaches them; an AI seat choosing in between
        takes no colour a player still to choose has wished (:meth:`ai_colour`), so humans'
        wishes come first; a wish no longer legal is left to the player. The steps' posts
        are added to ``res``. Works on the session's state in memory (no load)."""
        wishes = s.rec.settings.colour_wishes
        if not wishes or not s.A.has_colours:
            return
        for _ in range(2 * s.A.seat_count(s.state) + 1):
            st = s.state
            seat = s.A.colour_to_choose(st)
            if seat is None:
                return
            if s.seats[seat].ai:
                action = s.A.ai_colour(st, seat, wishes)
                if action is None:  # nothing to keep for anyone: the AI's own choice
                    res.extend(await s.run_ai(max_steps=1))
                else:
                    res.extend(await s.choose(seat, action, choices=False))
                continue
            wish = wishes.get(seat)
            action = s.A.colour_action(st, seat, wish) if wish else None
            if action is None:
                return
            res.extend(await s.choose(seat, action))

    @staticmethod
    def ai_colour(st: Any, seat: int, wishes: Mapping[int, str]) -> Any | None:
        """The colour action AI seat ``seat`` takes in the colour step when it must leave
        wished colours alone (the game's adapter: :meth:`GameAdapter.ai_colour`)."""
        return adapter_of(st).ai_colour(st, seat, wishes)
