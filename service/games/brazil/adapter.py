"""Brazil: Imperial's adapter in the service (:mod:`service.games`): its words for the
status line (era and round, the map), the hand (missions, combat and gold cards, peeks,
reserve), the score sheet, the events' sentences with the players named, the payment
chooser, the menus (:mod:`service.games.brazil.labels`), the undo check's reasons
(:mod:`service.undo`) and its pictures (``render``: map, boards, battle, scores)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, get_args

from i18n import tr, translator
from rules.brazil import (
    Cost,
    GameState,
    PaymentStep,
    RulesError,
    get_catalog,
    payment_step,
    pending_for,
    view,
)
from rules.brazil import apply as rules_apply
from rules.brazil import deciders as rules_deciders
from rules.brazil import legal_actions as rules_legal_actions
from rules.brazil import parse_action as rules_parse_action
from rules.brazil.actions import ChooseColour
from rules.brazil.events import Event, for_seat
from rules.brazil.messages import render_message
from rules.brazil.notation import GRAMMAR, describe_action
from rules.brazil.state import PendingKind
from service.games import GameAdapter, Why
from service.games.brazil import labels
from service.labels import Choice, Label
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


def engine_names(st: GameState) -> dict[str, int]:
    """The engine's names of the players ("Red", or "Seat 2" before a colour) -> seat."""
    return {
        (p.colour.capitalize() if p.colour else f"Seat {p.seat + 1}"): p.seat for p in st.players
    }


def named_description(
    st: GameState, action: Any, after: GameState, seats: Sequence[SeatSpec], *, lang: str = "en"
) -> str:
    """The engine's sentence about ``action`` (for everybody) with its player named as the
    table knows them: "Ana (blue) ends trading." rather than "Blue ends trading.". In
    another ``lang``, the sentence of the ``phrase.did.*`` messages (only actions that
    make no public event need one: their events say the rest)."""
    who = brazil_seat_label(after, seats, int(action.seat), lang)
    if lang != "en":
        from rules.brazil.messages import EN as ENGINE_EN

        kind = str(getattr(action, "type", ""))
        if kind == "war_card" and getattr(action, "play", False):
            kind = "other"
        key = f"phrase.did.{kind}" if f"phrase.did.{kind}" in ENGINE_EN else "phrase.did.other"
        return tr(lang, key, who=who)
    desc = describe_action(st, action, None)
    for name, seat in engine_names(after).items():
        if seat == int(action.seat) and desc.startswith(name + " "):
            return who + desc[len(name) :]
    return f"{who}: {desc}" if desc else f"{who} decided."


def event_text(event: Event, lang: str) -> str:
    """An event's sentence in ``lang`` (the engine's English when it has no key)."""
    if not event.key:
        return event.text
    try:
        return tr(lang, event.key, **event.params)
    except Exception:  # a sentence must never break a listing: the engine's own text
        return event.text


def named_text(event: Event, st: GameState, seats: Sequence[SeatSpec], *, lang: str = "en") -> str:
    """An event's sentence with the players named as the table knows them ("Ana (red)
    builds …" rather than "Red builds …"; "Ana plays red." rather than "Seat 1 plays red."),
    in ``lang`` (English: the engine's own catalogue and the game's component names; another
    language: :func:`i18n.tr`, component names in that language). An event stored without a
    key (before events had keys) has only its English text."""
    if not event.key:
        return event.text
    names = engine_names(st)
    params: dict[str, Any] = {}
    for k, v in event.params.items():
        if isinstance(v, str) and v in names:
            v = brazil_seat_label(st, seats, names[v], lang)
        elif isinstance(v, list):  # the winners: the players, not their colours
            v = [
                brazil_seat_label(st, seats, names[x], lang)
                if isinstance(x, str) and x in names
                else x
                for x in v
            ]
        params[k] = v
    key = event.key
    if key == "colour" and isinstance(params.get("number"), int):
        n = int(params["number"]) - 1
        name = seat_name(seats, n, lang)
        colour = params.get("colour")
        if isinstance(colour, str) and not colour.startswith("@"):
            colour = f"@term.colour.{colour}"  # stored before colours were term references
        key, params = "phrase.plays_colour", {"who": name, "colour": colour}
    try:
        if lang != "en":
            return tr(lang, key, **params)
        from rules.brazil.messages import catalog_names

        cat_names = catalog_names(get_catalog(st.data_pack))
        return render_message(key, params, names=cat_names)
    except Exception:  # a sentence must never break a turn: the engine's own text
        return event.text


# ---------------------------------------------------------------- undo (service.undo)

REVEALS: tuple[tuple[str, str], ...] = (
    # (an event key's prefix, the id of its words: svc.undo.reveal.<id>, svc.undo.since.<id>)
    ("explore", "explore"),  # a tile was flipped
    ("peek", "peek"),  # a tile was peeked at
    ("reshuffle", "reshuffle"),  # a deck was reshuffled
    ("draw_", "draw"),  # a card was drawn
    ("mission", "mission"),  # a mission was drawn or shown
    ("display", "display"),  # a painting was turned up
    ("build.city", "city"),  # a city tile was turned up
    ("espionage", "espionage"),  # a hand was spied on
    ("cards_revealed", "cards_revealed"),  # battle cards were revealed
    ("enemy_cards", "enemy_cards"),  # battle cards were drawn
    ("gold_card", "gold_card"),  # a gold card was shown
    ("pay.", "pay"),  # cards were paid face up
    ("discard_cards", "discard"),  # cards were discarded face up
    ("capitals_revealed", "capitals"),  # the capitals were turned up
)


def brazil_seat_label(st: Any, seats: Sequence[SeatSpec], seat: int, lang: str = "en") -> str:
    """A seat as Brazil: Imperial names it (:func:`service.games.seat_label`): the
    player and the colour chosen."""
    name = seat_name(seats, seat, lang)
    colour = st.players[seat].colour if seat < len(st.players) else None
    if not colour:
        return name
    if lang != "en":  # the colour's name without its gloss: "vert", not "vert (les brésiliens)"
        colour = translator(lang).name(f"term.colour.{colour}", colour).split(" (")[0].lower()
    return f"{name} ({colour})"


def reveal_id(events: Sequence[Event]) -> str | None:
    """The id of what the first revealing event showed (``"other"`` when unnamed)."""
    for e in events:
        if not e.reveals:
            continue
        key = e.key or e.kind
        for prefix, rid in REVEALS:
            if key.startswith(prefix):
                return rid
        return "other"  # something hidden was revealed
    return None


def reveal_reason(events: Sequence[Event], *, lang: str = "en") -> str | None:
    """Why a step's events of Brazil: Imperial forbid undo ("a tile was flipped"), in
    ``lang``, or None if none reveals."""
    rid = reveal_id(events)
    return None if rid is None else tr(lang, f"svc.undo.reveal.{rid}")


def default_answer(state: Any, seat: int) -> Any | None:
    """The engine's own "no cards" / "pass" answer to what ``seat`` must decide now, taken
    from ``rules.legal_actions`` (never made up): no combat cards; no War card; no palace;
    end the turn or pass. None if the decision has no such answer (a turn's first step; a
    discard, a colour, a mission: a choice to make, by the player or an AI standing in)."""
    acts = rules_legal_actions(state, seat)
    ranked: list[tuple[int, Any]] = []
    for a in acts:
        d = vars_of(a)
        t = d.get("type")
        if (
            (t == "commit_cards" and not d.get("cards"))
            or (t == "war_card" and not d.get("play"))
            or (t == "place_palace" and d.get("palace") is None)
        ):
            ranked.append((0, a))
        elif t == "end_turn":
            ranked.append((1, a))
        elif t == "pass_action":
            ranked.append((2, a))
    if not ranked:
        return None
    return min(ranked, key=lambda x: x[0])[1]


def vars_of(a: Any) -> dict[str, Any]:
    """An action's fields as a dict (actions are slotted dataclasses)."""
    import dataclasses

    return {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}


def refusal_why(
    before: GameState,
    seat: int,
    after: GameState,
    events: Sequence[Event],
    seats: Sequence[SeatSpec],
    lang: str = "en",
) -> Why | None:
    """Why ``seat``'s step cannot be taken back (the same conditions as
    :func:`rules.brazil.undo.undoable`), as a ``svc.undo.*`` message, or None."""
    if before.phase != "play":
        return "svc.undo.why.setup", {}
    if after.phase == "ended":
        return "svc.undo.why.ended_game", {}
    if after.current != seat or after.round != before.round:
        return "svc.undo.why.ended_turn", {}
    rid = reveal_id(events)
    if rid is not None:
        return f"svc.undo.since.{rid}", {}
    if after.rng.counter != before.rng.counter:
        return "svc.undo.why.random", {}
    mine_b = [(d.seat, d.kind, d.data) for d in before.pending if d.seat != seat]
    mine_a = [(d.seat, d.kind, d.data) for d in after.pending if d.seat != seat]
    if mine_b != mine_a:
        others = sorted({d.seat for d in (*before.pending, *after.pending) if d.seat != seat})
        if not others:
            return "svc.undo.why.another_decided", {}
        who = [brazil_seat_label(after, seats, s, lang) for s in others]
        return "svc.undo.why.others_decided", {"who": who, "n": len(who)}
    if before.current != seat:
        return "svc.undo.why.not_your_turn", {}
    return None


# ---------------------------------------------------------------- the adapter


BATTLE_EVENTS = frozenset({"battle_result", "expedition_result"})
HELP_ARGS: Mapping[str, str] = MappingProxyType(
    {
        **{
            n: f"error.class.{n}"  # the engine's own words for what a command names
            for n in (
                "building",
                "colour",
                "crop",
                "frame",
                "hex",
                "mission",
                "monarch",
                "painting",
                "product",
                "unit",
            )
        },
        **{
            n: f"brazil.help.arg.{n}"
            for n in (
                "arch",
                "card",
                "city",
                "era_token",
                "good",
                "goods_or_cards",
                "item",
                "palace",
            )
        },
        "palace_number": "brazil.help.arg.palace_number",
    }
)
"""The words of the placeholders of the grammar and the usages (``<hex>``), by name."""
"""The events of a step that fought (the page's *battle* mark)."""


class BrazilAdapter(GameAdapter):
    name = "brazil"
    secret_answers = frozenset({"combat_cards"})
    score_key = "brazil.score"  # victory points
    forced_answers = frozenset({"turn", *get_args(PendingKind)})  # one legal answer: no question
    has_timeline = True
    rules_prefix = "R-"
    has_payments = True
    has_colours = True
    undo_rule = "R-TURN-1"

    def build(
        self,
        players: int,
        scenario: str | None,
        seed: int | None,
        data_pack: str | None,
        options: Mapping[str, Any] | None = None,
    ) -> GameState:
        from rules.brazil import new_game as rules_new_game

        return rules_new_game(players, seed, scenario, data_pack=data_pack)

    def scenario_of(self, st: GameState) -> str:
        return str(st.map)

    def over(self, st: GameState) -> bool:
        return st.phase == "ended"

    def apply(
        self, st: GameState, action: Any, *, checked: bool = True
    ) -> tuple[GameState, list[Any]]:
        after, events = rules_apply(st, action, checked=checked)
        return after, list(events)

    def parse_action(self, data: Any) -> Any:
        return data if hasattr(data, "type") else rules_parse_action(data)

    def action_json(self, action: Any) -> str:
        return str(action.to_json())

    def describe(self, st: GameState, action: Any) -> str:
        return describe_action(st, action, None)

    def default_answer(self, st: GameState, seat: int) -> Any | None:
        return default_answer(st, seat)

    def pending_kind(self, st: GameState, seat: int) -> str:
        pend = pending_for(st, seat)
        return pend.kind if pend is not None else "turn"

    def event_dict(self, event: Event) -> dict[str, Any]:
        return event.model_dump(mode="json")

    def events_json(self, events: Sequence[Any]) -> str:
        return json.dumps([e.model_dump(mode="json") for e in events])

    def events_from_json(self, events_json: str | bytes | None) -> list[Event]:
        return [Event.model_validate(e) for e in json.loads(events_json or "[]")]

    def event_text(self, event: Event, lang: str) -> str:
        return event.text if lang == "en" else event_text(event, lang)

    def log_text(self, event: Event, st: GameState, seats: Sequence[SeatSpec], lang: str) -> str:
        # the players named as the table knows them (the engine's text names their colours)
        return named_text(event, st, seats, lang=lang)

    def round_of(self, st: GameState) -> int:
        return 0 if st.phase == "setup" else int(st.round)

    def progress(self, st: GameState) -> float:
        if st.phase == "setup":
            return 0.0
        return min(1.0, st.round / (st.max_rounds or 50))

    def turn_key(self, st: GameState) -> tuple[Any, ...]:
        return (st.current, st.round, st.phase)

    def playing(self, st: GameState) -> bool:
        return st.phase == "play"

    def begins_turn(self, events: Sequence[Event]) -> bool:
        return any(ev.kind in ("turn", "start") for ev in events)

    def seat_label(
        self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        return brazil_seat_label(st, seats, seat, lang)

    def board_text(self, st: GameState, seats: Sequence[SeatSpec], lang: str = "en") -> list[str]:
        return labels.board_lines(st, lambda seat: brazil_seat_label(st, seats, seat, lang), lang)

    def map_name(self, st: GameState, lang: str) -> str:
        cat = get_catalog(st.data_pack)
        scen = cat.maps[st.map].name if st.map in cat.maps else st.map
        return translator(lang).name(f"term.scenario.{st.map}", scen)

    def new_game_text(
        self, lang: str, game_id: int, st: GameState, seats: Sequence[SeatSpec]
    ) -> str:
        names = ", ".join(f"{brazil_seat_label(st, seats, i, lang)}" for i in range(len(seats)))
        scen = translator(lang).name(
            f"term.scenario.{st.map}", get_catalog(st.data_pack).maps[st.map].name
        )
        return tr(lang, "svc.core.new_game", id=game_id, map=scen, names=names)

    def status(
        self,
        game_id: int,
        st: GameState,
        seats: Sequence[SeatSpec],
        waiting: tuple[Decision, ...],
        lang: str,
    ) -> Status:
        return Status(
            game_id=game_id,
            game=self.name,
            scenario=self.map_name(st, lang),
            phase=st.phase,
            era=st.era,
            round=st.round,
            waiting=waiting,
        )

    def step_posts(
        self,
        before: GameState,
        action: Any,
        after: GameState,
        events: list[Any],
        seats: Sequence[SeatSpec],
        version: int,
        *,
        lang: str = "en",
        seat_langs: Mapping[int, str] | None = None,
    ) -> list[Post]:
        # each line names who did what (players by name); announcements credit nobody
        public = [named_text(e, after, seats, lang=lang) for e in for_seat(events, None)]
        if not public:
            public = [named_description(before, action, after, seats, lang=lang)]
        images: list[ImageRequest] = []
        turn_over = (
            before.current != after.current
            or before.round != after.round
            or before.phase != after.phase
        )
        if turn_over or after.phase == "ended":
            images.append(ImageRequest("map", None, version, lang=lang))
        if any(e.kind in ("battle_result", "expedition_result") for e in events):
            images.append(ImageRequest("battle", None, version, lang=lang))
        if after.phase == "ended":
            images += [
                ImageRequest("boards", None, version, lang=lang),
                ImageRequest("scores", None, version, lang=lang),
            ]
        ended = turn_over or after.phase == "ended"
        posts = [Post("public", " ".join(public), tuple(images), ends_turn=ended)]
        secret: dict[int, list[str]] = {}
        langs = seat_langs or {}
        for e in events:
            for s in e.visible_to or ():
                text = named_text(e, after, seats, lang=langs.get(s, lang))
                secret.setdefault(s, []).append(text)
        for s, texts in sorted(secret.items()):
            posts.append(Post(s, " ".join(texts)))
        return posts

    def hand_text(
        self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str = "en"
    ) -> str:
        v = view(st, seat)
        p = v.players[seat]
        cat = get_catalog(v.data_pack)
        L = translator(lang)

        def names(ids: Sequence[str], table: dict[str, Any], kind: str) -> str:
            # the name, and what a command types for it (a typed hint, in backticks)
            return (
                ", ".join(
                    f"{L.name(f'term.{kind}.{i}', table[i].name)} (`{i}`)" if i in table else i
                    for i in ids
                )
                or "-"
            )

        lines = [L("svc.core.hand", who=brazil_seat_label(st, seats, seat, lang))]
        if p.mission_offer:
            lines.append(
                L("svc.core.hand.offered", items=names(p.mission_offer, cat.missions, "mission"))
            )
        lines.append(L("svc.core.hand.kept", items=names(p.missions, cat.missions, "mission")))
        if p.revealed:
            lines.append(
                L("svc.core.hand.revealed", items=names(p.revealed, cat.missions, "mission"))
            )
        combat = names(p.combat_cards, cat.combat_cards, "combat_card")
        lines.append(L("svc.core.hand.combat", items=combat))
        lines.append(
            L("svc.core.hand.gold", items=names(p.gold_cards, cat.gold_cards, "gold_card"))
        )
        if p.peeks:
            seen = ", ".join(
                f"{h}: {L.name(f'term.exploration.{t}', cat.exploration[t].name)}"
                if t in cat.exploration
                else f"{h}: {t}"
                for h, t in sorted(p.peeks.items())
            )
            lines.append(L("svc.core.hand.peeked", items=seen))
        reserve = ", ".join(
            L("fmt.goods_item", n=n, good=f"@good.{k}")  # counted: "5 ziaren kawy"
            for k, n in sorted(p.reserve.items())
            if n
        )
        lines.append(L("svc.core.hand.reserve", items=reserve or "-"))
        return "\n".join(lines)

    def score_rows(
        self, st: GameState, seats: Sequence[SeatSpec], lang: str = "en"
    ) -> list[ScoreRow]:
        if st.phase == "ended" and st.result:
            winners = {int(w) for w in st.result.get("winners", [])}
            rows = []
            for r in st.result.get("scores", []):
                s = int(r["seat"])
                cats = {k: int(v) for k, v in r.items() if isinstance(v, int) and k != "seat"}
                cats.pop("total", None)
                cats.pop("tiebreak_science", None)
                who = brazil_seat_label(st, seats, s, lang)
                rows.append(ScoreRow(s, who, int(r["total"]), cats, s in winners))
            return rows
        from render.brazil.panels import public_vps

        vps = public_vps(view(st, None))
        return [
            ScoreRow(s, brazil_seat_label(st, seats, s, lang), vp, {})
            for s, vp in sorted(vps.items())
        ]

    def final_result(self, after: GameState) -> tuple[dict[int, int], frozenset[int]] | None:
        if after.phase != "ended" or after.result is None:
            return None
        res = after.result
        return (
            {int(r["seat"]): int(r["total"]) for r in res.get("scores", [])},
            frozenset(int(w) for w in res.get("winners", [])),
        )

    def choices(
        self, st: GameState, seat: int, legal: Sequence[Any], lang: str = "en"
    ) -> list[Any]:
        return labels.choices(st, seat, list(legal), lang=lang)

    def action_label(self, st: GameState, action: Any, lang: str = "en") -> Label:
        return labels.action_label(st, action, lang=lang)

    def group_label(
        self, members: Sequence[Choice], prefix: str, *, cut: bool = False, lang: str = "en"
    ) -> Label:
        """A group of the guided menu in the game's words: ``build sawmill`` reads "Build:
        Sawmill" (:func:`service.games.brazil.labels.group_label`)."""
        return labels.group_label(members, prefix, cut=cut, lang=lang)

    # ------------------------------------------------------------ the payment chooser

    def cost_line(self, st: GameState, action: Any, lang: str = "en") -> str:
        return labels.cost_line(st, action, lang=lang)

    def cost_text(self, cost: Cost, lang: str = "en") -> str:
        return labels.cost_text(cost, lang=lang)

    def pay_prompt(self, step: PaymentStep, lang: str = "en") -> str:
        return labels.pay_prompt(step, lang=lang)

    def pay_options(self, step: PaymentStep, lang: str = "en") -> list[str]:
        return labels.pay_options(step, lang=lang)

    def pay_item_text(self, st: GameState, seat: int, item: Any, lang: str = "en") -> str:
        return labels.pay_item_text(st, seat, item, lang=lang)

    def payment_path(self, st: GameState, action: Any, path: Sequence[int]) -> PaymentStep | None:
        """The payment step that the option numbers ``path`` lead to, paying ``action`` one
        token at a time (``rules.payment_step``); None if they no longer make sense."""
        chosen: list[Any] = []
        try:
            step = payment_step(st, action, chosen)
            for k in path:
                if step.complete or not 0 <= k < len(step.options):
                    return None
                chosen.append(step.options[k].item)
                step = payment_step(st, action, chosen)
        except RulesError:
            return None
        return step

    def grammar(self) -> tuple[tuple[str, str, str], ...]:
        return GRAMMAR

    help_keys = MappingProxyType(
        {"score": "brazil.help.score", "rules": "brazil.help.rules", "score_head": "bot.score.head"}
    )
    help_args = HELP_ARGS
    help_example = "build sawmill D3"

    def lookup(self, query: str, lang: str = "en") -> list[str]:
        """Missions by id or name (``I-1``, ``brazilwood coast``) with their objectives."""
        cat = get_catalog(None)
        return [labels.mission_line(cat, m, lang) for m in labels.find_missions(cat, query, lang)]

    def notes(self, st: GameState, seat: int, legal: Sequence[Any], lang: str = "en") -> list[str]:
        """The missions ``seat`` may keep or reveal now, each with its objectives."""
        ids: dict[str, None] = {}
        for a in legal:
            kind = getattr(a, "type", "")
            if kind == "keep_missions":
                ids.update(dict.fromkeys(a.keep))
            elif kind == "reveal_mission":
                ids[a.mission] = None
        cat = get_catalog(st.data_pack)
        return [line for m in ids if (line := labels.mission_line(cat, m, lang))]

    def use_data_packs(self, folder: str | None) -> None:
        from rules.brazil.catalog import set_packs_folder

        set_packs_folder(folder)

    def data_packs(self) -> str | None:
        from rules.brazil.catalog import packs_folder

        folder = packs_folder()
        return None if folder is None else str(folder)

    def colours(self, lang: str) -> list[tuple[str, str]]:
        L = translator(lang)
        return [
            (c.id, L.name(f"term.colour.{c.id}", str(getattr(c, "name", c.id))))
            for c in get_catalog(None).colours.values()
        ]

    def colour_to_choose(self, st: GameState) -> int | None:
        if st.phase != "setup":
            return None
        ds = rules_deciders(st)
        pend = pending_for(st, ds[0]) if ds else None
        if pend is None or pend.kind != "choose_colour":
            return None
        return ds[0]

    def colour_action(self, st: GameState, seat: int, colour: str) -> ChooseColour | None:
        action = ChooseColour(seat=seat, colour=colour)
        return action if action in rules_legal_actions(st, seat) else None

    def ai_colour(self, st: GameState, seat: int, wishes: Mapping[int, str]) -> ChooseColour | None:
        """The colour AI seat ``seat`` takes in the colour step when it must leave wished
        colours alone: its own seat's wish if legal (an AI standing in for a player), else
        the first legal colour in catalog order that no seat still to choose has wished.
        None when no wish of another seat is at stake (the AI then chooses itself)."""
        legal = {a.colour: a for a in rules_legal_actions(st, seat) if isinstance(a, ChooseColour)}
        own = wishes.get(seat)
        if own in legal:
            return legal[own]
        kept = {
            colour
            for n, colour in wishes.items()
            if n != seat and n < len(st.players) and st.players[n].colour is None
        }
        if not kept & legal.keys():
            return None
        free = [c for c in get_catalog(st.data_pack, st.data_pack_hash).colours if c in legal]
        left = [c for c in free if c not in kept]
        return legal[left[0]] if left else None

    def scenarios(self) -> list[tuple[str, str]]:
        return [(mid, str(getattr(m, "name", mid))) for mid, m in get_catalog(None).maps.items()]

    # ------------------------------------------------------------ the game's page and timeline

    has_eras = True

    def page_subject(self, scenario: str, data_pack: str | None, lang: str) -> str:
        """The map's name in ``lang`` (an old or unknown map id: its id)."""
        L = translator(lang)
        try:
            name = get_catalog(data_pack).maps[scenario].name
        except Exception:  # an old or unknown map id: its id is still a name
            name = scenario
        return name if L.lang == "en" else L.name(f"term.scenario.{scenario}", name)

    def page_seat(self, st: GameState, seats: Sequence[SeatSpec], seat: int, lang: str) -> str:
        """``"Ana (red)"``: the seat's player and colour once chosen (the page's words)."""
        L = translator(lang)
        name = seat_name(seats, seat, lang, L("web.seat.number", n=seat + 1))
        colour = self.page_colour(st, seat)
        if not colour:
            return name
        return L("web.seat.coloured", name=name, colour=L.name(f"web.colour.{colour}", colour))

    def page_colour(self, st: GameState, seat: int) -> str | None:
        return st.players[seat].colour if 0 <= seat < len(st.players) else None

    def page_turn(self, st: GameState, seats: Sequence[SeatSpec], lang: str) -> str:
        L = translator(lang)
        if st.phase == "setup":
            return L("web.turn.setup")
        if st.phase == "ended":
            return L("web.turn.end")
        who = self.page_seat(st, seats, st.current, lang)
        return L("web.turn.play", era=st.era, round=st.round, who=who)

    def page_marks(self, st: GameState) -> tuple[str, int, int]:
        return st.phase, st.era, st.round

    def page_text(
        self,
        before: GameState,
        action: Any,
        after: GameState,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        lang: str,
    ) -> str:
        public = [named_text(ev, after, seats, lang=lang) for ev in for_seat(list(events), None)]
        return " ".join(public) or named_description(before, action, after, seats, lang=lang)

    def page_battle(self, events: Sequence[Any]) -> bool:
        return any(ev.kind in BATTLE_EVENTS for ev in events)

    def decision_words(self, kind: str, lang: str) -> str | None:
        return None  # web.decision.<kind>

    def render_timeline(self, frames: Sequence[tuple[Any, Sequence[Any]]], lang: str) -> bytes:
        from render.brazil import render_timeline

        return render_timeline(frames, lang=lang)

    def undo_why(
        self,
        before: GameState,
        seat: int,
        after: GameState,
        events: Sequence[Any],
        seats: Sequence[SeatSpec],
        *,
        lang: str = "en",
    ) -> Why | None:
        return refusal_why(before, seat, after, events, seats, lang)

    def render(self, req: ImageRequest, frame: Frame, options: Any = None) -> bytes | None:
        from render.brazil import (
            RenderOptions,
            render_battle,
            render_boards,
            render_hand,
            render_map,
            render_map_zoom,
            render_panel,
            render_scores,
        )

        opts = options if options is not None else RenderOptions()
        v = view(frame.state, req.seat)
        ev = list(frame.events)
        if req.kind == "map":
            return render_map(v, ev, seat=req.seat, options=opts, lang=req.lang)
        if req.kind == "map_zoom":
            return render_map_zoom(v, ev, seat=req.seat, options=opts, lang=req.lang)
        if req.kind == "boards":
            return render_boards(v, seat=req.seat, options=opts, lang=req.lang)
        if req.kind == "panel":
            return render_panel(
                v, req.player if req.player is not None else 0, options=opts, lang=req.lang
            )
        if req.kind == "hand":
            if req.seat is None:
                raise ValueError("a hand image needs a seat")
            return render_hand(v, req.seat, options=opts, lang=req.lang)
        if req.kind == "battle":
            return render_battle(v, ev, seat=req.seat, options=opts, lang=req.lang)
        if req.kind == "scores":
            return render_scores(v, options=opts, lang=req.lang)
        raise ValueError(f"unknown image kind {req.kind!r}")


ADAPTER = BrazilAdapter()
