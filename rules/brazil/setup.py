"""Creating a game and the setup decisions (R-SETUP-1..7)."""

from __future__ import annotations

import secrets
from typing import Any

from rules.brazil import actions as A
from rules.brazil.catalog import FRAMES, get_catalog
from rules.brazil.game import Context, parse_hex
from rules.brazil.messages import Param, msg, term_ref
from rules.brazil.state import Exploration, GameState, Pending, PendingKind, Player, Rng, Tile, Turn
from rules.errors import InvalidAction


def new_game(
    players: int,
    seed: int | None = None,
    map_id: str | None = None,
    *,
    data_pack: str | None = None,
    colours: list[str] | None = None,
    city_limit: int | None = None,
) -> GameState:
    """A new game waiting for its setup decisions.

    ``seed`` fixes every shuffle and draw of the game (the same seed and actions give the
    same game). Without one, a fresh 64-bit seed is drawn from the operating system's
    cryptographic source (``secrets.randbits(64)``), so a game's decks cannot be guessed
    from when it was started; it is kept in the state (hidden from every view).

    ``map_id`` defaults to the first map for the player count (R-SETUP-1). ``colours``, if
    given, assigns colours by seat and skips the colour choice (R-SETUP-4: chosen or random).
    ``city_limit`` caps the cities per player (R-BUILD-10; default none). ``data_pack`` is
    the *name* of a data pack in the packs folder the application configured
    (:func:`rules.brazil.catalog.set_packs_folder`); the state records the name and the pack's
    content hash, never a path.
    Bad arguments raise :class:`InvalidAction` (a ``ValueError``) naming the argument.
    """
    if not _is_int(players) or not 1 <= players <= 4:
        raise InvalidAction.of("R-SETUP-1", "error.setup.players", value=repr(players))
    if seed is None:
        seed = secrets.randbits(64)
    elif not _is_int(seed):
        raise InvalidAction.of("R-SETUP-2", "error.setup.seed", value=repr(seed))
    if city_limit is not None and (not _is_int(city_limit) or city_limit < 0):
        raise InvalidAction.of("R-BUILD-10", "error.setup.city_limit", value=repr(city_limit))
    cat = get_catalog(data_pack)
    maps = cat.maps_for(players)
    if map_id is None:
        if not maps:
            raise InvalidAction.of("R-SETUP-1", "error.setup.no_map", n=players)
        map_id = sorted(m.id for m in maps)[0]
    if map_id not in cat.maps:
        raise InvalidAction.of(
            "R-SETUP-1", "error.setup.map", id=map_id, maps=list[Param](sorted(cat.maps))
        )
    mp = cat.maps[map_id]
    if mp.players != players:
        raise InvalidAction.of(
            "R-SETUP-1",
            "error.setup.map_players",
            map=f"@term.scenario.{map_id}",
            n=mp.players,
            players=players,
        )
    board = cat.boards[map_id]
    solo = players == 1
    st = GameState(
        data_pack=data_pack,
        data_pack_hash=cat.pack_hash,
        map=map_id,
        solo=solo,
        city_limit=city_limit,
        max_rounds=mp.max_rounds,
        rng=Rng(seed=seed),
        players=[Player(seat=i) for i in range(players)],
    )
    rng = st.rng
    # R-SETUP-1: capital tiles face down at random on the sites (the first-player one always).
    caps = sorted(cat.capitals.values(), key=lambda c: (not c.first_player, c.id))
    chosen = [caps[0].id]
    rest = [c.id for c in caps[1:]]
    rng.shuffle(rest)
    chosen += rest[: players - 1]
    rng.shuffle(chosen)
    st.capital_tiles = dict(zip(board.capital_sites, chosen, strict=True))
    # Exploration tiles face down at random on the fog hexes; the rest are out of the game.
    tiles = [t.id for t in cat.exploration.values() for _ in range(t.count)]
    rng.shuffle(tiles)
    for hex_, tile in zip(board.fog, tiles, strict=False):
        st.exploration[hex_] = _expl(tile)
    # R-SETUP-2: decks, city piles.
    st.combat_deck = [c.id for c in cat.combat_cards.values() for _ in range(c.count)]
    rng.shuffle(st.combat_deck)
    st.gold_deck = [c.id for c in cat.gold_cards.values() for _ in range(c.count)]
    rng.shuffle(st.gold_deck)
    cities = list(cat.cities)
    rng.shuffle(cities)
    half = (len(cities) + 1) // 2
    st.city_piles = [cities[:half], cities[half:]]
    st.supply = {t.id: t.count for t in cat.buildings.values()}
    # R-SETUP-3: paintings by frame, 2 of each on display.
    for fr in FRAMES:
        deck = [p.id for p in cat.paintings.values() if p.frame == fr]
        rng.shuffle(deck)
        for _ in range(2):
            if deck:
                st.display.append(deck.pop())
        st.painting_decks[fr] = deck
    for era in (1, 2, 3):
        deck = [m.id for m in cat.missions.values() if m.era == era]
        rng.shuffle(deck)
        st.mission_decks[str(era)] = deck
    # Solo (R-SOLO-1): green board; the orange capital and army are preset.
    if solo:
        if board.enemy_capital is not None:
            st.tiles[board.enemy_capital] = Tile(kind="capital", id="enemy_capital", owner=-1)
        for pu in mp.preset_units:
            st.enemy_units[pu.unit] = pu.hex
        colours = ["green"]
    # R-SETUP-4 colour choice (or given).
    if colours is not None:
        if len(colours) != players or len(set(colours)) != players:
            raise InvalidAction.of("R-SETUP-4", "error.setup.colours", n=players)
        for seat, c in enumerate(colours):
            if c not in cat.colours:
                raise InvalidAction.of(
                    "R-SETUP-4", "error.unknown.colour", id=c, colours=list(cat.colours)
                )
            take_colour(st, seat, c)
        deal_missions(st)
    else:
        st.setup_step = "colour"
        st.pending.append(_pending(0, "choose_colour"))
    return st


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _expl(tile: str) -> Exploration:
    return Exploration(tile=tile)


def _pending(seat: int, kind: PendingKind, **data: Any) -> Pending:
    data.setdefault("blocking", True)
    return Pending(seat=seat, kind=kind, data=dict(data))


def take_colour(st: GameState, seat: int, colour: str) -> None:
    cat = get_catalog(st.data_pack, st.data_pack_hash)
    p = st.players[seat]
    p.colour = colour
    p.units = {u.id: "board" for u in cat.colours[colour].units}
    p.products = list(cat.products)


def monarch_options(st: GameState, seat: int) -> list[str]:
    cat = get_catalog(st.data_pack, st.data_pack_hash)
    colour = st.players[seat].colour
    if colour is None:
        return []
    return [m for t in cat.colours[colour].monarch_tiles for m in t.sides]


def deal_missions(st: GameState) -> None:
    """R-SETUP-5: 2 missions of each era to every player; each keeps 1 per era. Then monarchs."""
    st.setup_step = "missions"
    for p in st.players:
        for era in ("1", "2", "3"):
            deck = st.mission_decks[era]
            for _ in range(2):
                if deck:
                    p.mission_offer.append(deck.pop())
    for p in st.players:
        st.pending.append(_pending(p.seat, "keep_missions"))
        st.pending.append(_pending(p.seat, "choose_monarch"))


def start_capitals(st: GameState) -> None:
    """R-SETUP-6: a random player chooses a capital first, then clockwise."""
    st.setup_step = "capital"
    st.capital_chooser = st.rng.choice(st.n)
    st.pending.append(_pending(st.capital_chooser, "choose_capital"))


# ------------------------------------------------------------------ setup decisions


def choose_colour(g: Context, a: A.ChooseColour, pend: Pending) -> None:
    s = g.s
    if a.colour not in g.cat.colours:
        raise InvalidAction.of(
            "R-SETUP-4", "error.unknown.colour", id=a.colour, colours=list(g.cat.colours)
        )
    taken = {p.colour for p in s.players}
    g.require(
        a.colour not in taken,
        "R-SETUP-4",
        "error.setup.colour_taken",
        colour=term_ref("colour", a.colour),
    )
    take_colour(s, a.seat, a.colour)
    g.emit(
        "colour",
        {"number": a.seat + 1, "colour": term_ref("colour", a.colour)},
        a.seat,
        colour=a.colour,
    )
    nxt = a.seat + 1
    if nxt < s.n:
        g.push(nxt, "choose_colour")
    else:
        deal_missions(s)
        g.emit("missions_dealt", {})


def keep_missions(g: Context, a: A.KeepMissions, pend: Pending) -> None:
    p = g.p(a.seat)
    keep = list(a.keep)
    eras = sorted(g.cat.missions[m].era for m in keep if m in g.cat.missions)
    for m in keep:
        g.require(m in p.mission_offer, "R-SETUP-5", "error.setup.mission_not_dealt", id=m)
    offered_eras = sorted({g.cat.missions[m].era for m in p.mission_offer})
    g.require(
        eras == offered_eras and len(set(keep)) == len(keep),
        "R-SETUP-5",
        "error.setup.keep_missions",
    )
    for m in p.mission_offer:
        if m not in keep:
            g.s.mission_decks[str(g.cat.missions[m].era)].insert(0, m)  # bottom of its deck
    p.missions = keep
    p.mission_offer = []
    g.emit("missions_kept", {"who": g.name(a.seat)}, a.seat)
    _maybe_capitals(g)


def choose_monarch(g: Context, a: A.ChooseMonarch, pend: Pending) -> None:
    opts = monarch_options(g.s, a.seat)
    g.require(
        a.monarch in opts,
        "R-SETUP-5",
        "error.setup.monarch",
        monarchs=[term_ref("monarch", m) for m in opts],
    )
    g.p(a.seat).monarch = a.monarch
    g.emit(
        "monarch",
        {"who": g.name(a.seat), "monarch": term_ref("monarch", a.monarch)},
        a.seat,
        monarch=a.monarch,
    )
    _maybe_capitals(g)


def _maybe_capitals(g: Context) -> None:
    if not any(d.kind in ("keep_missions", "choose_monarch") for d in g.s.pending):
        start_capitals(g.s)
        g.emit(
            "capitals_revealed",
            {
                "capitals": [
                    msg("phrase.capital_at", hex=h, capital=term_ref("capital", c))
                    for h, c in sorted(g.s.capital_tiles.items())
                ],
                "chooser": g.name(g.s.capital_chooser),
            },
        )


def choose_capital(g: Context, a: A.ChooseCapital, pend: Pending) -> None:
    s = g.s
    at = parse_hex(g, a.at)
    g.require(at in s.capital_tiles, "R-SETUP-6", "error.setup.capital_site", hex=at)
    g.require(at not in s.tiles, "R-SETUP-6", "error.setup.capital_taken", hex=at)
    cap = g.cat.capitals[s.capital_tiles[at]]
    p = g.p(a.seat)
    p.capital = at
    s.tiles[at] = Tile(kind="capital", id=cap.id, owner=a.seat, palace=1)
    p.palaces.remove(1)
    g.emit(
        "capital",
        {"who": g.name(a.seat), "hex": at},
        a.seat,
        hex=at,
    )
    g.gain(a.seat, {cap.resource: 1}, "@phrase.why.capital")
    if cap.first_player:
        s.first_player = a.seat
    nxt = (a.seat + 1) % s.n
    if s.players[nxt].capital is None:
        g.push(nxt, "choose_capital")
        return
    s.phase = "play"
    s.setup_step = "done"
    s.current = s.first_player
    s.round = 1
    s.turn = Turn()
    g.emit(
        "start",
        {"who": g.name(s.current)},
        s.current,
    )
