"""Tigris & Euphrates' adapter in the service (:mod:`service.games`): the status line ("turn
N, X to play (actions left)"), the hand (tiles behind the screen, leaders, catastrophes, the
seat's own points per colour: private, T-INFO-1/2), the score rows (public: what a
spectator's view shows; final: the weakest colour, treasures wild, T-FINAL), the events'
sentences in the reader's language (:func:`i18n.tr` of the engine's ``tigris.*`` keys) with
the dynasties replaced by the seats' names, the undo check's reasons, and the pictures
(``render.tigris``): the board after each turn with the turn's squares ringed, the
conflict report after a revolt or war, the players' public panels, each player's hand
privately when they drew, the final scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from i18n import tr, translator
from rules.tigris.actions import Action
from rules.tigris.data import COLOURS, HAND_SIZE, LABELS, LEADERS, TILE_COUNTS, TREASURES_END
from rules.tigris.events import Event, for_seat
from rules.tigris.scoring import allocate, final_scores
from rules.tigris.state import CATASTROPHE, LEADER, UP, TigrisState
from rules.tigris.view import view
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

DYNASTY = "@tigris.dynasty."
PLAYER_PARAMS = ("player", "attacker", "defender", "winner")
"""The events' parameters that name a player (by a dynasty's term reference)."""
CONFLICT_OVER = ("tigris.conflict.won",)
TREASURES_START = 14  # ten temples and four corners (T-SETUP-1)
BAG_START = sum(TILE_COUNTS) - 10  # the ten starting temples are not drawn
"""The event keys of a revolt or war that was decided: its report is drawn."""


def _typed(command: str, lang: str) -> str:
    """A command of the notation in ``lang``'s words (:func:`i18n.notation.localize`)."""
    if lang == "en":
        return command
    from i18n.notation import localize

    return localize(command, lang, "tigris")


def _group_words(words: Sequence[str], lang: str) -> str | None:
    """A guided menu's group in words, for the groups a player meets most: a tile of a
    colour (``tile black A`` -> "Place a black tile in row A"), a leader, a catastrophe's
    row; None for the others (their command words are shown)."""
    row = words[2] if len(words) >= 3 and len(words[2]) == 1 and words[2].isalpha() else None
    kind = words[0] if words else ""
    if kind == "tile" and len(words) >= 2 and words[1] in COLOURS:
        key = "svc.tigris.group.tile" + (".row" if row else "")
        return tr(lang, key, colour="@tigris.colour." + words[1], row=row or "")
    if kind == "leader" and len(words) >= 2 and words[1] in LEADERS:
        key = "svc.tigris.group.leader" + (".row" if row else "")
        return tr(lang, key, leader="@tigris.leader." + words[1], row=row or "")
    if kind == "catastrophe" and len(words) == 2 and len(words[1]) == 1 and words[1].isalpha():
        return tr(lang, "svc.tigris.group.catastrophe.row", row=words[1])
    return None


def _colour(lang: str, c: int) -> str:
    return tr(lang, f"tigris.colour.{COLOURS[c]}")


def _leader(lang: str, c: int) -> str:
    return tr(lang, f"tigris.leader.{LEADERS[c]}")


class TigrisAdapter(GameAdapter):
    name = "tigris"
    secret_answers = frozenset({"support"})  # a quick "support 0" would tell "no such tiles"
    forced_answers = frozenset({"support"})  # nothing to commit: "support 0", answered for you
    has_timeline = True
    rules_prefix = "T-"
    battle_word = "conflict"  # revolts and wars: the page's battles

    # ------------------------------------------------------------ states and actions

    def over(self, st: TigrisState) -> bool:
        return st.phase == "over"

    def parse_action(self, data: Any) -> Any:
        if isinstance(data, Action):
            return data
        return super().parse_action(data)

    def pending_kind(self, st: TigrisState, seat: int) -> str:
        for p in st.pending:
            if p.seat == seat:
                return str(p.kind)
        return "turn"

    def default_answer(self, st: TigrisState, seat: int) -> Any | None:
        """Commit no tile in a conflict, build no monument, end the turn (``pass``); a war's
        order or a treasure is a choice (None)."""
        acts = self.face.legal_actions(st, seat)
        for a in acts:
            if a.kind == "support" and a.amount == 0:
                return a
        for a in acts:
            if a.kind == "pass":
                return a
        return None

    def decision_term(self, kind: str) -> str:
        return "" if kind == "turn" else f"tigris.decision.{kind}"

    # ------------------------------------------------------------ events

    def event_dict(self, event: Event) -> dict[str, Any]:
        return event.to_dict()

    def events_from_json(self, events_json: str | bytes | None) -> list[Event]:
        import json

        return [Event.from_dict(d) for d in json.loads(events_json or "[]")]

    def event_text(self, event: Event, lang: str) -> str:
        try:
            return tr(lang, event.key, **event.params)
        except Exception:  # a sentence must never break a listing: the engine's English
            return event.text

    def log_text(self, event: Event, st: TigrisState, seats: Sequence[SeatSpec], lang: str) -> str:
        return self.named_text(event, st, seats, lang)

    def named_text(
        self, event: Event, st: TigrisState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> str:
        """An event's sentence in ``lang`` with the players named as the table knows them
        ("Ana (Bow) places a red tile on F4." rather than "Bow places …")."""
        seat_of = {DYNASTY + p.dynasty: i for i, p in enumerate(st.players)}
        params = dict(event.params)
        for k in PLAYER_PARAMS:
            v = params.get(k)
            if isinstance(v, str) and v in seat_of:
                params[k] = self.seat_label(st, seats, seat_of[v], lang)
        try:
            return tr(lang, event.key, **params)
        except Exception:  # a sentence must never break a turn: the engine's English
            return event.text

    def round_of(self, st: TigrisState) -> int:
        return (st.turn - 1) // len(st.players) + 1

    def progress(self, st: TigrisState) -> float:
        """The bag emptying or the treasures taken, whichever is nearer the end (T-END)."""
        if st.phase == "over":
            return 1.0
        start = BAG_START - HAND_SIZE * len(st.players)
        bag = 1.0 - st.bag_size / start
        taken = (TREASURES_START - len(st.treasures)) / max(1, TREASURES_START - TREASURES_END)
        return max(0.0, min(1.0, max(bag, taken)))

    def turn_key(self, st: TigrisState) -> tuple[Any, ...]:
        return (st.active, st.turn, st.phase)

    def playing(self, st: TigrisState) -> bool:
        return st.phase == "play"

    def begins_turn(self, events: Sequence[Event]) -> bool:
        return any(e.key in ("tigris.turn.start", "tigris.game.start") for e in events)

    # ------------------------------------------------------------ words

    def seat_label(
        self, st: TigrisState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """``"Ana (Bow)"``: the seat's player and dynasty (its name in ``lang``)."""
        name = seat_name(seats, seat, lang)
        if seat >= len(st.players):
            return name
        return f"{name} ({tr(lang, 'tigris.dynasty.' + st.players[seat].dynasty)})"

    def new_game_text(
        self, lang: str, game_id: int, st: TigrisState, seats: Sequence[SeatSpec]
    ) -> str:
        names = ", ".join(self.seat_label(st, seats, i, lang) for i in range(len(seats)))
        return tr(lang, "svc.tigris.new_game", id=game_id, names=names)

    def status(
        self,
        game_id: int,
        st: TigrisState,
        seats: Sequence[SeatSpec],
        waiting: tuple[Decision, ...],
        lang: str,
    ) -> Status:
        who = self.seat_label(st, seats, st.active, lang)
        return Status(
            game_id=game_id,
            game=self.name,
            scenario=tr(lang, "game.tigris"),  # the status message names the game
            phase="ended" if st.phase == "over" else "play",
            era=0,
            round=st.turn,
            waiting=waiting,
            where_key="svc.tigris.where",
            where_params={"turn": st.turn, "who": who, "n": st.actions_left},
        )

    def step_posts(
        self,
        before: TigrisState,
        action: Any,
        after: TigrisState,
        events: list[Any],
        seats: Sequence[SeatSpec],
        version: int,
        *,
        lang: str = "en",
        seat_langs: Mapping[int, str] | None = None,
    ) -> list[Post]:
        public = [self.named_text(e, after, seats, lang) for e in for_seat(events, None)]
        if not public:  # every step makes a public event; an old record might not
            who = self.seat_label(after, seats, int(action.seat), lang)
            public = [f"{who}: {self.face.describe_action(before, action)}"]
        over = after.phase == "over"
        turn_over = self.turn_key(before) != self.turn_key(after)
        images: list[ImageRequest] = []
        if turn_over or over:
            images.append(ImageRequest("map", None, version, lang=lang, game=self.name))
        if any(e.key in CONFLICT_OVER for e in events):
            images.append(ImageRequest("battle", None, version, lang=lang, game=self.name))
        if over:
            images.append(ImageRequest("scores", None, version, lang=lang, game=self.name))
        posts = [Post("public", " ".join(public), tuple(images), ends_turn=turn_over or over)]
        secret: dict[int, list[str]] = {}
        drew: set[int] = set()
        langs = seat_langs or {}
        for e in events:
            for s in e.visible_to or ():
                secret.setdefault(s, []).append(
                    self.named_text(e, after, seats, langs.get(s, lang))
                )
                if e.key == "tigris.draw.private":
                    drew.add(s)
        for s, texts in sorted(secret.items()):
            hand = (
                (ImageRequest("hand", s, version, lang=langs.get(s, lang), game=self.name),)
                if s in drew and not over
                else ()
            )
            posts.append(Post(s, " ".join(texts), hand))
        return posts

    def hand_text(
        self, st: TigrisState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        """``seat``'s screen: its tiles, leaders, catastrophes and own points (private)."""
        v = view(st, seat)
        p = v.players[seat]
        tiles = ", ".join(
            tr(lang, "tigris.count.colour", n=n, colour=f"@tigris.colour.{COLOURS[c]}")
            for c, n in enumerate(p.hand)
            if n
        )
        supply = ", ".join(_leader(lang, c) for c, sq in enumerate(p.leaders) if sq < 0)
        placed = ", ".join(
            f"{_leader(lang, c)} {LABELS[sq]}" for c, sq in enumerate(p.leaders) if sq >= 0
        )
        points = ", ".join(f"{_colour(lang, c)} {n}" for c, n in enumerate(p.score))
        return "\n".join(
            [
                tr(lang, "svc.core.hand", who=self.seat_label(st, seats, seat, lang)),
                tr(lang, "svc.tigris.hand.tiles", items=tiles or "-"),
                tr(lang, "svc.tigris.hand.supply", items=supply or "-"),
                tr(lang, "svc.tigris.hand.placed", items=placed or "-"),
                tr(lang, "svc.tigris.hand.catastrophes", n=p.catastrophes),
                tr(lang, "svc.tigris.hand.points", items=points, n=p.treasures),
            ]
        )

    def score_rows(
        self, st: TigrisState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> list[ScoreRow]:
        """The final scores once the game is over (the weakest colour, treasures added to
        the weakest first; per colour and treasures), else what a spectator sees: the points
        with the ``open_scoring`` option, else none (behind the screens, ``hidden``)."""
        if st.phase == "over":
            rows = []
            for f in final_scores(st):
                cats = {COLOURS[c]: f.totals[c] for c in range(4)}
                cats["treasures"] = f.treasures
                who = self.seat_label(st, seats, f.seat, lang)
                rows.append(ScoreRow(f.seat, who, f.score, cats, f.rank == 1))
            return rows
        v = view(st, None)
        out = []
        for i, p in enumerate(v.players):
            who = self.seat_label(st, seats, i, lang)
            if p.hidden and not st.options.open_scoring:
                out.append(ScoreRow(i, who, 0, {}, hidden=True))
                continue
            totals = allocate(p.score, p.treasures)
            cats = {COLOURS[c]: totals[c] for c in range(4)}
            out.append(ScoreRow(i, who, min(totals), cats))
        return out

    def board_text(self, st: TigrisState, seats: Sequence[SeatSpec], lang: str = "en") -> list[str]:
        """The public board in words: the tiles on the board per colour, each player's
        leaders and their squares, the monuments, the treasures and the catastrophes left."""
        from i18n import msg

        L = translator(lang)
        cells = st.cells
        counts = [sum(1 for c in cells if c == UP + k) for k in range(4)]
        lines = []
        items = [
            msg("tigris.count.colour", n=n, colour="@tigris.colour." + COLOURS[k])
            for k, n in enumerate(counts)
            if n
        ]
        if items:
            lines.append(L("svc.tigris.text.tiles", items=items))
        for i in range(len(st.players)):
            who = self.seat_label(st, seats, i, lang)
            mine = [
                msg(
                    "svc.tigris.text.leader",
                    leader="@tigris.leader." + LEADERS[(c - LEADER) % 4],
                    square=LABELS[sq],
                )
                for sq, c in enumerate(cells)
                if c >= LEADER and (c - LEADER) // 4 == i
            ]
            if mine:
                lines.append(L("svc.tigris.text.leaders", who=who, items=mine))
            else:
                lines.append(L("svc.tigris.text.no_leaders", who=who))
        built = [
            msg("svc.tigris.text.monument", monument="@tigris.monument." + m, square=LABELS[sq])
            for m, sq in sorted(st.monuments.items(), key=lambda kv: kv[1])
        ]
        if built:
            lines.append(L("svc.tigris.text.monuments", items=built))
        if st.treasures:
            lines.append(L("svc.tigris.text.treasures", squares=[LABELS[q] for q in st.treasures]))
        storms = [LABELS[q] for q, c in enumerate(cells) if c == CATASTROPHE]
        if storms:
            lines.append(L("svc.tigris.text.catastrophes", squares=storms))
        return lines

    def board_images(self, version: int, lang: str) -> tuple[ImageRequest, ...]:
        return (
            ImageRequest("map", None, version, lang=lang, game=self.name),
            ImageRequest("boards", None, version, lang=lang, game=self.name),
        )

    def choices(
        self, st: TigrisState, seat: int, legal: Sequence[Any], lang: str = "en"
    ) -> list[Any]:
        """The legal actions as the guided turn's menu choices: each labelled by its
        sentence in ``lang`` ("Place a red tile on F4.") and described by what that kind of
        action does; the command stays the notation's (the menus group by its words)."""
        from rules.tigris.notation import describe_msg
        from service.labels import Choice, Label, clip

        out = []
        for i, a in enumerate(legal):
            command = self.face.format_action(st, a)
            key, params = describe_msg(a)
            try:
                text = tr(lang, key, **params)
            except Exception:  # a label must never break a menu: the command itself
                text = _typed(command, lang)
            desc = self._support_desc(st, seat, lang) if a.kind == "support" else None
            desc = desc or tr(lang, f"svc.tigris.kind.{a.kind}")
            out.append(Choice(i, command, Label(clip(text), clip(desc)), (), a))
        return out

    @staticmethod
    def _support_desc(st: TigrisState, seat: int, lang: str) -> str | None:
        """The conflict a support decision is about, for the one deciding: its kind and
        colour, both sides' strength so far (the bases and the commitments made, public:
        T-CONFLICT-3) and how many tiles of that colour the seat holds (its own secret)."""
        c = st.conflict
        if c is None:
            return None
        a = c.attacker_base + max(c.attacker_commit, 0)
        d = c.defender_base + max(c.defender_commit, 0)
        have = st.players[seat].hand[c.colour] if seat < len(st.players) else 0
        colour = "@tigris.colour." + COLOURS[c.colour]
        return tr(lang, f"svc.tigris.support.{c.kind}", colour=colour, a=a, d=d, have=have)

    def group_label(
        self, members: Sequence[Any], prefix: str, *, cut: bool = False, lang: str = "en"
    ) -> Any:
        """A group of the guided menu: its command words so far in ``lang`` (a cut word
        lists the squares it stands for: ``tile red F`` -> "tile red F: F3, F4, F9"),
        described by the kind of action."""
        from service.labels import Label, clip

        words = _group_words(prefix.strip().split(), lang)
        head = words[:1].upper() + words[1:] if words else _typed(prefix.strip(), lang)
        if cut and members:
            k = len(prefix.strip().split())
            nxt = dict.fromkeys(
                m.command.split()[k - 1] for m in members if len(m.command.split()) >= k
            )
            head += ": " + ", ".join(nxt)
        kinds = dict.fromkeys(m.action.kind for m in members if m.action is not None)
        desc = tr(lang, f"svc.tigris.kind.{next(iter(kinds))}") if len(kinds) == 1 else ""
        return Label(clip(head), clip(desc))

    help_keys = MappingProxyType(
        {
            "score": "svc.tigris.help.score",
            "rules": "svc.tigris.help.rules",
            "score_head": "svc.tigris.help.score_head",
        }
    )
    help_args = MappingProxyType(
        {n: f"svc.tigris.help.arg.{n}" for n in ("colour", "leader", "square", "n")}
    )
    help_example = "tile red F4"

    def grammar(self) -> tuple[tuple[str, str, str], ...]:
        return (
            ("tile COLOUR SQUARE", "tile", "tile red F4"),
            ("leader LEADER SQUARE", "leader", "leader king J7"),
            ("withdraw LEADER", "withdraw", "withdraw trader"),
            ("catastrophe SQUARE", "catastrophe", "catastrophe C3"),
            ("swap COLOUR…", "swap", "swap red red blue"),
            ("pass", "pass", "pass"),
            ("support N", "support", "support 2"),
            ("war-order COLOUR", "war_order", "war-order green"),
            ("monument COLOUR-COLOUR SQUARE", "monument", "monument red-blue H4"),
            ("treasure SQUARE", "treasure", "treasure P2"),
        )

    # ------------------------------------------------------------ the game's page and timeline

    def page_turn(self, st: TigrisState, seats: Sequence[SeatSpec], lang: str) -> str:
        """``"Turn 7 · Ana (Bow)"``; ``"The end"`` once over."""
        if st.phase == "over":
            return tr(lang, "web.turn.end")
        who = self.seat_label(st, seats, st.active, lang)
        return tr(lang, "web.turn.turn", turn=st.turn, who=who)

    def page_marks(self, st: TigrisState) -> tuple[str, int, int]:
        return ("ended" if st.phase == "over" else "play"), 0, st.turn

    def page_battle(self, events: Sequence[Any]) -> bool:
        """A revolt or war decided (its report is drawn)."""
        return any(e.key in CONFLICT_OVER for e in events)

    def page_where(self, status: Status, lang: str) -> str | None:
        """``"Turn 7"``, ``"Game over · turn 31"``."""
        key = "web.where.over_turn" if status.over else "web.where.turn"
        return tr(lang, key, turn=status.round)

    def render_timeline(self, frames: Sequence[tuple[Any, Sequence[Any]]], lang: str) -> bytes:
        from render.tigris import render_timeline

        return render_timeline(frames, lang=lang)

    # ------------------------------------------------------------ undo

    def undo_why(
        self,
        before: TigrisState,
        seat: int,
        after: TigrisState,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        *,
        lang: str = "en",
    ) -> Why | None:
        """The conditions of :func:`rules.tigris.undo.undoable`, each in words."""
        if after.phase == "over":
            return "svc.undo.why.ended_game", {}
        if before.active != seat:
            return "svc.undo.why.not_your_turn", {}
        if after.active != seat or after.turn != before.turn:
            return "svc.undo.why.ended_turn", {}
        if any(e.reveals for e in events):
            return "svc.tigris.undo.drawn", {}
        if after.rng.counter != before.rng.counter:
            return "svc.undo.why.random", {}
        mine_b = [(p.kind, p.seat, p.square) for p in before.pending if p.seat != seat]
        mine_a = [(p.kind, p.seat, p.square) for p in after.pending if p.seat != seat]
        if mine_b != mine_a:
            others = sorted({p.seat for p in (*before.pending, *after.pending) if p.seat != seat})
            who = [self.seat_label(after, seats, s, lang) for s in others]
            return "svc.undo.why.others_decided", {"who": who, "n": len(who)}
        return None

    # ------------------------------------------------------------ images

    def render(self, req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
        from render.theme import DEFAULT as DEFAULT_OPTIONS
        from render.tigris import (
            changed_squares,
            render_board,
            render_conflict,
            render_hand,
            render_players,
            render_scores,
        )

        opts = options if options is not None else DEFAULT_OPTIONS
        st: TigrisState = frame.state
        v = view(st, req.seat)
        ev = list(frame.events)
        if req.kind in ("map", "map_zoom"):
            changed = changed_squares(ev, req.seat)
            return render_board(v, changed, options=opts, lang=req.lang)
        if req.kind in ("boards", "panel"):
            return render_players(v, options=opts, lang=req.lang)
        if req.kind == "hand":
            if req.seat is None:
                raise ValueError("a hand image needs a seat")
            return render_hand(v, req.seat, options=opts, lang=req.lang)
        if req.kind == "battle":
            return render_conflict(v, ev, seat=req.seat, options=opts, lang=req.lang)
        if req.kind == "scores":
            # the screens are lifted at the end (T-FINAL-1): the full state's points
            return render_scores(st if st.phase == "over" else v, options=opts, lang=req.lang)
        raise ValueError(f"unknown image kind {req.kind!r}")


ADAPTER = TigrisAdapter()
