"""Turn notices (issue #30), surface-neutral and pure: who is told what, by which way, when.

A player chooses for all their games how they are told that they decide
(:attr:`storage.models.PlayerPrefs.notices`, one of :data:`storage.models.NOTICE_MODES`):

- ``ping`` (the default): the game's turn post mentions them (a notification in the game's
  channel or thread);
- ``dm``: the turn post names them without a ping, and a direct message links to it;
- ``both``: the ping and the direct message;
- ``none``: named in the turn post, never pinged nor messaged.

**One notice per decision.** A decision is a seat that starts to decide at a game version
(its decision clock's ``since_version``, :meth:`service.pace.Pacing.refresh`); it is told
when a new turn post asks it (the surface's post that pings), and the direct message is a
storage timer claimed once for (game, that version, seat, :data:`TURN`): across restarts and
processes nobody is told twice of one decision. A player who goes on deciding (the next step
of their own turn) is not asked again, as the turn post is edited in place.

**Quiet hours.** No direct message in the player's quiet hours (their time zone's wall
clock, :func:`service.pacing.in_quiet`): it is held (a :data:`HELD` timer) and sent by the
pacer's tick when the quiet hours end, if the player still decides in that decision
(:func:`release`); the channel's ping is never delayed (it is the turn post itself).

**Heads-up** (``heads_up`` on): "you are next after Bo", by direct message only, when a turn
begins and the game's face says who takes the next turn (:attr:`rules.games.Game.next_deciders`;
None: unknown, nothing sent); at most one per player per turn (claimed for the version the
turn began at, :data:`HEADS_UP`); not in quiet hours (dropped: by their end it is stale
news), and never to a player whose mode is ``none``.

**Last to act.** When several seats decided at once and all but one have answered, the last
one is told "everyone else has moved" (:func:`last_to_act`), once per decision
(:data:`LAST`): the turn post that moves down for them is its channel part (a ping for
``ping`` and ``both``), a direct message for ``dm`` and ``both`` (dropped in quiet hours).

**Reminders** (:mod:`service.pace`) go the same way (:func:`reminder_route`): ``ping`` in the
channel with a ping, ``dm`` by direct message with the link, ``both`` both, and ``none`` in the
channel without a ping — reminders exist to unstick games, so nobody is without them.

**Closed direct messages.** When a direct message cannot be delivered, the surface posts a
short message in the game's channel mentioning only that player with the link, and says
once per game (:data:`TOLD`) that their direct messages are closed and how to open them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from service.games import adapter_of
from service.pacing import QuietHours, in_quiet
from storage.models import NOTICE_MODES, PlayerPrefs

if TYPE_CHECKING:
    from service.game import GameService

TURN = "notice"
"""The timer kind of a decision's direct message (keyed by the version it began at)."""
HELD = "notice_held"
"""The timer kind of a direct message held back by quiet hours (unfinished until sent or
moot)."""
HEADS_UP = "heads_up"
"""The timer kind of a heads-up (keyed by the version the turn began at)."""
LAST = "last_to_act"
"""The timer kind of a "last to act" notice (keyed by the decision's version)."""
TOLD = "dms_closed"
"""The timer kind of "your DMs are closed", said once per game and seat (version 0)."""

Mode = Literal["ping", "dm", "both", "none"]


def mode_of(prefs: PlayerPrefs | None) -> Mode:
    """A player's notice mode (``ping`` for an unknown one)."""
    m = prefs.notices if prefs is not None else "ping"
    if m == "dm":
        return "dm"
    if m == "both":
        return "both"
    if m == "none":
        return "none"
    return "ping"


def pings(mode: str) -> bool:
    """Whether the turn post pings a player of this mode."""
    return mode in ("ping", "both") or mode not in NOTICE_MODES


def messages(mode: str) -> bool:
    """Whether a player of this mode gets direct messages."""
    return mode in ("dm", "both")


@dataclass(frozen=True)
class Asked:
    """A human seat a new turn post asks to decide: its user and the version its decision
    began at (the notice's key)."""

    seat: int
    user_id: int
    since: int


@dataclass(frozen=True)
class Plan:
    """A notice to give: ``kind`` (:data:`TURN`, :data:`HEADS_UP`, :data:`LAST`) for ``seat``
    (``user_id``), keyed by ``version``; ``held``: not now (quiet hours), the tick sends it
    later; ``after``: the seat a heads-up names (who decides before them)."""

    kind: str
    seat: int
    user_id: int
    version: int
    held: bool = False
    after: tuple[int, ...] = ()


def channel_pings(users: Sequence[int], prefs: Mapping[int, PlayerPrefs]) -> list[int]:
    """The users a turn post may ping: those of ``users`` whose mode pings (``ping``,
    ``both``; a user without preferences is ``ping``)."""
    return [u for u in users if pings(mode_of(prefs.get(u)))]


def turn_notices(
    asked: Sequence[Asked],
    prefs: Mapping[int, PlayerPrefs],
    quiet: Mapping[int, QuietHours | None],
    now: datetime,
) -> list[Plan]:
    """The direct messages of the seats a new turn post asks: one for each seat whose mode
    messages, held when ``now`` is in its quiet hours."""
    out = []
    for a in asked:
        if messages(mode_of(prefs.get(a.user_id))):
            held = in_quiet(now, quiet.get(a.user_id))
            out.append(Plan(TURN, a.seat, a.user_id, a.since, held=held))
    return out


def last_to_act(before: Sequence[int], now: Sequence[int]) -> int | None:
    """The seat left deciding alone when several decided at once (``before``: the seats the
    turn post asked; ``now``: who decides now) and all the others answered; None otherwise."""
    if len(set(before)) >= 2 and len(set(now)) == 1 and now[0] in before:
        return now[0]
    return None


def last_notice(
    seat: int,
    user_id: int,
    since: int,
    prefs: PlayerPrefs | None,
    quiet: QuietHours | None,
    now: datetime,
) -> Plan | None:
    """The direct "everyone else has moved" of the last one to act (None: their mode sends
    none, or it is their quiet hours)."""
    if not messages(mode_of(prefs)) or in_quiet(now, quiet):
        return None
    return Plan(LAST, seat, user_id, since)


def heads_up(
    deciders: Sequence[int],
    next_seats: Sequence[int] | None,
    users: Mapping[int, int],
    prefs: Mapping[int, PlayerPrefs],
    quiet: Mapping[int, QuietHours | None],
    now: datetime,
    version: int,
) -> list[Plan]:
    """The heads-ups of a turn beginning at ``version`` with ``deciders``: each human seat
    (``users``: seat -> user, humans only) the face names next (``next_seats``; None:
    unknown, none sent) that does not decide now, wants a heads-up, whose mode is not
    ``none`` and who is not in their quiet hours."""
    if not next_seats:
        return []
    out = []
    for seat in dict.fromkeys(next_seats):
        uid = users.get(seat)
        if uid is None or seat in deciders:
            continue
        p = prefs.get(uid)
        if p is None or not p.heads_up or mode_of(p) == "none":
            continue
        if in_quiet(now, quiet.get(uid)):
            continue
        out.append(Plan(HEADS_UP, seat, uid, version, after=tuple(deciders)))
    return out


@dataclass(frozen=True)
class Held:
    """A direct message held back by quiet hours: ``seat``'s decision begun at ``since``."""

    seat: int
    since: int


def release(
    held: Sequence[Held],
    deciding: Mapping[int, int],
    quiet: Mapping[int, QuietHours | None],
    now: datetime,
) -> tuple[list[Held], list[Held]]:
    """The held messages to send now and those now moot (the rest wait). ``deciding``: the
    seats deciding now and the version each one's decision began at. A held message goes
    when its player's quiet hours are over and they still decide in that decision; it is
    moot once the decision is over. ``quiet``: by seat."""
    send: list[Held] = []
    moot: list[Held] = []
    for h in held:
        if deciding.get(h.seat) != h.since:
            moot.append(h)  # that decision is over (answered, or the turn moved on)
        elif not in_quiet(now, quiet.get(h.seat)):
            send.append(h)
    return send, moot


@dataclass(frozen=True)
class Route:
    """Where a reminder goes: in the channel (``channel``), pinging the player there
    (``ping``), and/or by direct message (``dm``)."""

    channel: bool
    ping: bool
    dm: bool


def reminder_route(mode: str) -> Route:
    """How a player of ``mode`` gets reminders (see module doc): never without one."""
    if mode == "dm":
        return Route(channel=False, ping=False, dm=True)
    if mode == "both":
        return Route(channel=True, ping=True, dm=True)
    if mode == "none":
        return Route(channel=True, ping=False, dm=False)
    return Route(channel=True, ping=True, dm=False)


def next_seats(state: Any) -> list[int] | None:
    """Who takes the next turn in ``state``, as the game's face says
    (:attr:`rules.games.Game.next_deciders`; None: unknown, or the game never says)."""
    hook = adapter_of(state).face.next_deciders
    return None if hook is None else hook(state)


class Ledger:
    """The notices' bookkeeping in the game service's store: the players' preferences, their
    quiet hours, the decisions' clocks and the timers claimed once (the surface sends)."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc

    def now(self) -> datetime:
        """The pacing clock's now (a fake one in tests)."""
        return self.svc.pacing.now()

    async def prefs(self, users: Iterable[int]) -> dict[int, PlayerPrefs]:
        return {u: await self.svc.store.get_player_prefs(u) for u in dict.fromkeys(users)}

    async def quiet(self, users: Iterable[int]) -> dict[int, QuietHours | None]:
        pacing = self.svc.pacing
        return {u: await pacing.quiet_of(u) for u in dict.fromkeys(users)}

    async def set_mode(self, user_id: int, mode: str | None, heads_up: bool | None) -> PlayerPrefs:
        """Set the player's notice mode and/or heads-up (what is None stays); their
        preferences."""
        if mode is None and heads_up is None:
            return await self.svc.store.get_player_prefs(user_id)
        return await self.svc.store.set_player_prefs(user_id, notices=mode, heads_up=heads_up)

    async def decisions(self, game_id: int) -> dict[int, int]:
        """The seats deciding in the game's open decisions, and the version each began at."""
        return {c.seat: c.since_version for c in await self.svc.store.open_decisions(game_id)}

    async def claim(self, game_id: int, version: int, seat: int, kind: str) -> bool:
        """Claim a notice once ever (see module doc)."""
        return bool(await self.svc.store.claim_timer(game_id, version, seat, kind, self.now()))

    async def finish(self, game_id: int, version: int, seat: int, kind: str, outcome: str) -> None:
        await self.svc.store.finish_timer(game_id, version, seat, kind, self.now(), outcome)

    async def held(self, game_id: int) -> list[Held]:
        """The game's direct messages held back by quiet hours, not yet sent nor moot."""
        return [
            Held(t.seat, t.version)
            for t in await self.svc.store.timers(game_id, unfinished=True)
            if t.kind == HELD
        ]


__all__ = [
    "HEADS_UP",
    "HELD",
    "LAST",
    "TOLD",
    "TURN",
    "Asked",
    "Held",
    "Ledger",
    "Mode",
    "Plan",
    "Route",
    "channel_pings",
    "heads_up",
    "last_notice",
    "last_to_act",
    "messages",
    "mode_of",
    "next_seats",
    "pings",
    "release",
    "reminder_route",
    "turn_notices",
]
