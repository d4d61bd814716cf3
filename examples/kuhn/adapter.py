"""Kuhn poker's adapter in the service (:mod:`service.games`): the status line ("hand N of M,
X to act"), the hand (the seat's own card and stack: private, K-INFO-1), the score rows (the
stacks: public), the events' sentences in the reader's language with the seats' names, the
undo check's reason (no step may be taken back) and the pictures (:mod:`examples.kuhn.render`):
the table after each hand, the hand of each seat when dealt, the final chips."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from examples.kuhn.actions import Action, Event, for_seat
from examples.kuhn.engine import start_events, winners
from examples.kuhn.notation import describe_msg
from examples.kuhn.state import CARDS, NO_CARD, KuhnState
from examples.kuhn.view import view
from i18n import tr
from service.games import GameAdapter, Why
from service.results import (
    Decision,
    Frame,
    ImageRequest,
    Post,
    ScoreRow,
    SeatSpec,
    Status,
    seat_name,
)

SEAT = "@kuhn.seat."
PLAYER_PARAMS = ("player",)
"""The events' parameters that name a player (by a seat's term reference)."""


class KuhnAdapter(GameAdapter):
    name = "kuhn"
    rules_prefix = "K-"
    has_timeline = True

    # ------------------------------------------------------------ states and actions

    def parse_action(self, data: Any) -> Any:
        if isinstance(data, Action):
            return data
        return super().parse_action(data)

    def default_answer(self, st: KuhnState, seat: int) -> Any | None:
        """Check when checking is open, else fold (the "nothing" of a betting round)."""
        acts = self.face.legal_actions(st, seat)
        for kind in ("check", "fold"):
            for a in acts:
                if a.kind == kind:
                    return a
        return None

    # ------------------------------------------------------------ events

    def event_dict(self, event: Event) -> dict[str, Any]:
        return event.to_dict()

    def events_from_json(self, events_json: str | bytes | None) -> list[Event]:
        return [Event.from_dict(d) for d in json.loads(events_json or "[]")]

    def event_text(self, event: Event, lang: str) -> str:
        try:
            return tr(lang, event.key, **event.params)
        except Exception:  # a sentence must never break a listing: the engine's English
            return event.text

    def log_text(self, event: Event, st: KuhnState, seats: Sequence[SeatSpec], lang: str) -> str:
        return self.named_text(event, st, seats, lang)

    def named_text(
        self, event: Event, st: KuhnState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> str:
        """An event's sentence with the players named as the table knows them."""
        params = dict(event.params)
        for k in PLAYER_PARAMS:
            v = params.get(k)
            if isinstance(v, str) and v.startswith(SEAT) and v[len(SEAT) :].isdigit():
                params[k] = self.seat_label(st, seats, int(v[len(SEAT) :]), lang)
        try:
            return tr(lang, event.key, **params)
        except Exception:  # a sentence must never break a turn: the engine's English
            return event.text

    def round_of(self, st: KuhnState) -> int:
        """The hand being played (both players act in every hand)."""
        return st.hand

    def progress(self, st: KuhnState) -> float:
        if st.phase == "over":
            return 1.0
        return (st.hand - 1) / st.options.hands

    def turn_key(self, st: KuhnState) -> tuple[Any, ...]:
        """A hand is the turn: its table is drawn when it ends."""
        return (st.hand, st.phase)

    def playing(self, st: KuhnState) -> bool:
        return st.phase == "play"

    def begins_turn(self, events: Sequence[Event]) -> bool:
        return any(e.key in ("kuhn.hand.start", "kuhn.game.start") for e in events)

    # ------------------------------------------------------------ words

    def seat_label(
        self, st: KuhnState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """The seat's player: its name (``Player 2`` for a seat without one)."""
        return seat_name(seats, seat, lang, tr(lang, f"kuhn.seat.{seat}"))

    def new_game_text(
        self, lang: str, game_id: int, st: KuhnState, seats: Sequence[SeatSpec]
    ) -> str:
        """The new game, the match's options and who acts first (the public events of
        ``new_game``; each seat reads its card with ``hand``)."""
        names = ", ".join(self.seat_label(st, seats, i, lang) for i in range(len(seats)))
        started = [self.named_text(e, st, seats, lang) for e in for_seat(start_events(st), None)]
        return " ".join([tr(lang, "svc.kuhn.new_game", id=game_id, names=names), *started])

    def status(
        self,
        game_id: int,
        st: KuhnState,
        seats: Sequence[SeatSpec],
        waiting: tuple[Decision, ...],
        lang: str,
    ) -> Status:
        return Status(
            game=self.name,
            game_id=game_id,
            scenario=tr(lang, "game.kuhn"),
            phase="ended" if st.phase == "over" else "play",
            era=0,
            round=st.hand,
            waiting=waiting,
            where_key="svc.kuhn.where",
            where_params={
                "hand": st.hand,
                "hands": st.options.hands,
                "who": self.seat_label(st, seats, st.to_act, lang),
                "pot": st.pot,
            },
        )

    def step_posts(
        self,
        before: KuhnState,
        action: Any,
        after: KuhnState,
        events: list[Any],
        seats: Sequence[SeatSpec],
        version: int,
        *,
        lang: str = "en",
        seat_langs: Mapping[int, str] | None = None,
    ) -> list[Post]:
        """The public sentences (the table when a hand ends, the final chips at the end);
        each seat's dealt card to that seat only, with its hand's picture (K-INFO-1)."""
        public = [self.named_text(e, after, seats, lang) for e in for_seat(events, None)]
        over = after.phase == "over"
        hand_over = self.turn_key(before) != self.turn_key(after)
        images: list[ImageRequest] = []
        if hand_over:
            images.append(ImageRequest("map", None, version, lang=lang, game=self.name))
        if over:
            images.append(ImageRequest("scores", None, version, lang=lang, game=self.name))
        posts = [Post("public", " ".join(public), tuple(images), ends_turn=hand_over)]
        langs = seat_langs or {}
        secret: dict[int, list[str]] = {}
        for e in events:
            for s in e.visible_to or ():
                secret.setdefault(s, []).append(
                    self.named_text(e, after, seats, langs.get(s, lang))
                )
        for s, texts in sorted(secret.items()):
            hand = ImageRequest("hand", s, version, lang=langs.get(s, lang), game=self.name)
            posts.append(Post(s, " ".join(texts), (hand,)))
        return posts

    def hand_text(
        self, st: KuhnState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """``seat``'s card and stack (private)."""
        p = view(st, seat).players[seat]
        card = tr(lang, f"kuhn.card.{CARDS[p.card]}") if p.card != NO_CARD else "-"
        return "\n".join(
            [
                tr(lang, "svc.core.hand", who=self.seat_label(st, seats, seat, lang)),
                tr(lang, "svc.kuhn.hand.card", card=card),
                tr(lang, "svc.kuhn.hand.chips", n=p.chips, pot=st.pot),
            ]
        )

    def score_rows(
        self, st: KuhnState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> list[ScoreRow]:
        """The stacks (public all along; the winners once the match is over, K-END-2)."""
        won = set(winners(st))
        return [
            ScoreRow(i, self.seat_label(st, seats, i, lang), p.chips, {"chips": p.chips}, i in won)
            for i, p in enumerate(st.players)
        ]

    def choices(
        self, st: KuhnState, seat: int, legal: Sequence[Any], lang: str = "en"
    ) -> list[Any]:
        """The legal actions as the guided turn's choices, labelled by their sentences."""
        from service.labels import Choice, Label, clip

        out = []
        for i, a in enumerate(legal):
            command = self.face.format_action(st, a)
            key, params = describe_msg(a)
            try:
                text = tr(lang, key, **params)
            except Exception:  # a label must never break a menu: the command itself
                text = command
            desc = tr(lang, f"svc.kuhn.kind.{a.kind}")
            out.append(Choice(i, command, Label(clip(text), clip(desc)), (), a))
        return out

    def grammar(self) -> tuple[tuple[str, str, str], ...]:
        return (
            ("check", "check", "check"),
            ("bet", "bet", "bet"),
            ("call", "call", "call"),
            ("fold", "fold", "fold"),
        )

    # ------------------------------------------------------------ the game's page and timeline

    def page_turn(self, st: KuhnState, seats: Sequence[SeatSpec], lang: str) -> str:
        if st.phase == "over":
            return tr(lang, "web.turn.end")
        who = self.seat_label(st, seats, st.to_act, lang)
        return tr(lang, "svc.kuhn.page.turn", hand=st.hand, who=who)

    def page_marks(self, st: KuhnState) -> tuple[str, int, int]:
        return ("ended" if st.phase == "over" else "play"), 0, st.hand

    def page_where(self, status: Status, lang: str) -> str | None:
        key = "svc.kuhn.page.over" if status.over else "svc.kuhn.page.where"
        return tr(lang, key, hand=status.round)

    def render_timeline(self, frames: Sequence[tuple[Any, Sequence[Any]]], lang: str) -> bytes:
        from examples.kuhn.render import render_timeline

        return render_timeline(frames, lang=lang)

    # ------------------------------------------------------------ undo

    def undo_why(
        self,
        before: KuhnState,
        seat: int,
        after: KuhnState,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        *,
        lang: str = "en",
    ) -> Why | None:
        """Never None: every decision passes to the other player, who saw it (the face's
        ``undo_depth`` is 0)."""
        if after.phase == "over":
            return "svc.undo.why.ended_game", {}
        if before.to_act != seat:
            return "svc.undo.why.not_your_turn", {}
        return "svc.kuhn.undo.never", {}

    # ------------------------------------------------------------ images

    def render(self, req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
        from examples.kuhn.render import draw_hand, draw_players, draw_scores, draw_table, png
        from render.theme import DEFAULT as DEFAULT_OPTIONS

        opts = options if options is not None else DEFAULT_OPTIONS
        st: KuhnState = frame.state
        v = view(st, req.seat)
        if req.kind in ("map", "map_zoom"):
            return png(draw_table(v, opts, req.lang), opts)
        if req.kind in ("boards", "panel"):
            return png(draw_players(v, opts, req.lang), opts)
        if req.kind == "hand":
            if req.seat is None:
                raise ValueError("a hand image needs a seat")
            return png(draw_hand(v, req.seat, opts, req.lang), opts)
        if req.kind == "scores":
            return png(draw_scores(v, winners(st), opts, req.lang), opts)
        if req.kind == "battle":
            return None  # Kuhn poker has no fights
        raise ValueError(f"unknown image kind {req.kind!r}")


ADAPTER = KuhnAdapter()
