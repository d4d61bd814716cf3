"""Kuhn poker on the platform's surfaces, the platform unchanged: the registries, the service
(a whole match with computer players, a human seat, the pictures, the storage's replay, the
timeline), the rules reference, the catalogues, the terminal and the demo."""

from __future__ import annotations

import argparse
import io
import random
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import i18n
from examples.kuhn.render import CARD_H, CARD_W, HEIGHT, WIDTH
from examples.kuhn.state import KuhnState
from i18n.catalogue import clear_locale_dirs
from rules.games import game, names
from rules.registry import Registration, register, registration, unregister
from service import Frame, GameService, ImageRequest, Refused, Result, catalog, render_image
from service.games import adapter
from service.rulebook import GAME_PATHS, lookup
from storage import SqliteGameStore
from storage.replay import default_replayer

RGB = tuple[int, int, int]


def image(png: bytes | None) -> Image.Image:
    assert png is not None and png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def share(img: Image.Image, box: tuple[int, int, int, int]) -> dict[str, float]:
    """The share of a box's pixels that are white, dark, red (a card's back) and green
    (the felt)."""
    crop = img.convert("RGB").crop(box)
    px: list[RGB] = []
    for y in range(crop.height):
        for x in range(crop.width):
            p = crop.getpixel((x, y))
            assert isinstance(p, tuple)
            px.append((int(p[0]), int(p[1]), int(p[2])))

    def frac(pred: Callable[[RGB], bool]) -> float:
        return sum(1 for p in px if pred(p)) / len(px)

    return {
        "white": frac(lambda p: min(p) > 225),
        "dark": frac(lambda p: max(p) < 70),
        "red": frac(lambda p: p[0] > 140 and p[1] < 120 and p[2] < 130),
        "green": frac(lambda p: p[1] > 90 and p[0] < 60 and p[2] < 100),
    }


def card_box(seat: int) -> tuple[int, int, int, int]:
    """Where the table draws ``seat``'s card (1.0 scale)."""
    x = WIDTH // 2 - CARD_W // 2
    y = 70 if seat == 1 else HEIGHT - 70 - CARD_H
    return x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6


# ------------------------------------------------------------------------------ registries


def test_the_registries_list_the_game() -> None:
    reg = registration("kuhn")
    assert reg is not None and reg.title == "Kuhn poker"
    assert "kuhn" in names() and game("kuhn").name == "kuhn"
    assert adapter("kuhn").name == "kuhn" and adapter("kuhn").rules_prefix == "K-"
    assert "kuhn" in catalog.games() and catalog.player_range("kuhn") == (2, 2)
    assert ("kuhn", "game.kuhn") in catalog.game_titles()
    assert i18n.tr("en", "game.kuhn") == "Kuhn poker"
    assert reg.load("agents")("search", seed=1).name == "search"
    assert GAME_PATHS["kuhn"] == Path(__file__).resolve().parents[1] / "rules.md"


# ------------------------------------------------------------------------------ the service


async def test_a_whole_match_with_computer_players(
    service: GameService, store: SqliteGameStore
) -> None:
    res = await service.new_game(
        ["ai:heuristic", "ai:search"], game="kuhn", seed=7, options={"hands": 7, "chips": 14}
    )
    assert res.ok and res.posts[0].text == (
        "New game #1 of Kuhn poker: Computer (normal), Computer (strong). A match of Kuhn poker "
        "begins: 7 hands, 14 chips each. Hand 1 of 7: both players ante 1; Computer (normal) "
        "acts first."
    )
    gid = res.game_id
    steps: list[Result] = []
    done = await service.run_ai_turns(gid, on_step=steps.append)
    assert done.over and done.applied == len(steps) >= 14  # two decisions a hand at least
    g = await service.peek(gid)
    assert g.over and g.game == "kuhn" and isinstance(g.state, KuhnState)
    assert g.state.hand == 7 and g.status().text() == "The game is over."
    rec = await store.get_game(gid)
    assert rec.game == "kuhn" and rec.status.value == "finished"
    assert adapter(rec.game).load(rec.state_json) == g.state
    rows = await service.reading.scores(gid)
    assert sum(r.total for r in rows) == 28 and any(r.winner for r in rows)
    assert [r.categories for r in rows] == [{"chips": r.total} for r in rows]
    texts = [p.text for st in steps for p in st.public()]
    assert sum(t.startswith("Final scores:") for t in texts) == 1
    # the public posts say what happened, without the hidden cards of a fold (K-INFO-1)
    public = " ".join(p.text for st in steps for p in st.public())
    assert "Hand 7 of 7" in public and "The match is over after 7 hands." in public
    assert "Computer (normal)" in public and "Player 1" not in public  # the seats named
    for st in steps:
        for post in st.posts:
            if post.audience != "public":
                assert "You are dealt the" in post.text
                assert [q.kind for q in post.images] == ["hand"]
                assert all(q.seat == post.audience for q in post.images)
            else:
                assert "You are dealt" not in post.text
                assert all(q.seat is None for q in post.images)
    # a table after every hand, the final chips once
    kinds = [q.kind for st in steps for p in st.public() for q in p.images]
    assert kinds.count("map") == 7 and kinds.count("scores") == 1
    drawn: dict[str, Image.Image] = {}
    for st in steps:
        for req, frame in st.images():
            drawn.setdefault(req.kind, image(await service.render(req, frame)))
    assert set(drawn) == {"map", "hand", "scores"}
    table = drawn["map"]
    assert table.size == (WIDTH, HEIGHT)
    for seat in (0, 1):  # a hand in play: both cards face down on the felt
        card = share(table, card_box(seat))
        assert card["red"] > 0.5 and card["white"] < 0.2, card
    assert share(table, (650, 240, 740, 300))["green"] > 0.9  # the felt
    hand = drawn["hand"]
    face = share(hand, (110, 65, 250, 270))
    assert face["white"] > 0.4 and face["dark"] + face["red"] > 0.03, face  # a card, a letter
    scores = share(drawn["scores"], (0, 0, 600, 240))
    assert scores["dark"] > 0.005 and scores["white"] > 0.5
    # the storage replays the match by the record's game
    report = await store.replay(gid, default_replayer("kuhn"))
    assert report.ok and report.steps == rec.version
    gif = await service.reading.timeline_image(gid)
    assert gif is not None and gif.startswith(b"GIF8")
    assert getattr(Image.open(io.BytesIO(gif)), "n_frames", 1) == 7


async def test_a_human_seat(service: GameService) -> None:
    res = await service.new_game(["Ana", "ai:heuristic"], game="kuhn", seed=3)
    gid = res.game_id
    assert [d.seat for d in res.next] == [0]  # K-TURN-1: the first player acts first
    assert await service.legal(gid, 0) == ["check", "bet"]
    refused = await service.act(gid, 0, "call")
    assert not refused.ok and refused.errors[0].rule == "K-BET-1"
    assert refused.errors[0].text() == "You cannot call now; you may: check, bet. (K-BET-1)"
    out_of_turn = await service.act(gid, 1, "bet")
    assert not out_of_turn.ok
    unreadable = await service.act(gid, 0, "raise 2")
    assert unreadable.errors[0].message.startswith("Cannot read 'raise 2'")
    hand = await service.reading.hand(gid, 0)
    st = (await service.peek(gid)).state
    card = {0: "Jack", 1: "Queen", 2: "King"}[st.players[0].card]
    assert hand.posts[0].audience == 0
    assert hand.posts[0].text.splitlines() == [
        "Hand of Ana:",
        f"  your card: {card}",
        "  your chips: 9; in the pot: 2",
    ]
    status = (await service.peek(gid)).status()
    assert status.text() == "Game (hand 1 of 5, Ana to act (pot: 2)); to decide: Ana"
    bet = await service.act(gid, 0, "bet")
    assert bet.ok and bet.public()[0].text == "Ana bets 1 chip."
    assert not bet.undo_allowed  # every decision is seen at once
    undo = await service.undo(gid, 0)
    assert not undo.ok
    await service.run_ai_turns(gid)
    g = await service.peek(gid)
    assert g.state.hand == 2 or g.over  # the AI answered: the hand is over
    with pytest.raises(Refused, match="exactly 2 players"):
        await service.new_game(["Ana", "Bo", "ai"], game="kuhn")


async def test_a_lobby_opens_and_starts_the_game(service: GameService) -> None:
    lobbies = service.lobbies
    with pytest.raises(Refused) as e:
        await lobbies.open(
            1,
            None,
            10,
            scenario=None,
            players=3,
            ai_seats=1,
            ai_level="heuristic",
            deadline_hours=24,
            game="kuhn",
        )
    assert "Kuhn poker" in e.value.text("en") and "2" in e.value.text("en")
    lobby = await lobbies.open(
        1,
        None,
        10,
        scenario=None,
        players=2,
        ai_seats=1,
        ai_level="search",
        deadline_hours=24,
        game="kuhn",
    )
    assert lobby.game == "kuhn"
    res = await lobbies.start(
        lobby, {10: "Ana"}, default_level="heuristic", default_scenario=None, seed=2
    )
    assert (
        res.ok
        and res.posts[0].text.startswith(
            f"New game #{res.game_id} of Kuhn poker: Ana, Computer (strong)."
        )
        and res.posts[0].text.endswith("Ana acts first.")
    )
    g = await service.peek(res.game_id)
    assert g.game == "kuhn" and g.state.hand == 1 and [p.chips for p in g.state.players] == [9, 9]


async def test_the_public_pictures_show_no_hidden_card_K_INFO_1(service: GameService) -> None:
    res = await service.new_game(["Ana", "Bo"], game="kuhn", seed=5)
    g = await service.peek(res.game_id)
    other = g.state.clone()
    other.players[1].card = ({0, 1, 2} - {c.card for c in g.state.players}).pop()
    for kind in ("map", "boards"):
        req = ImageRequest(kind, None, g.version, game="kuhn")
        assert render_image(req, Frame(g.version, g.state)) == render_image(
            req, Frame(g.version, other)
        ), kind
    # a seat's own table shows its card face up, the other's face down
    own = image(render_image(ImageRequest("map", 0, g.version, game="kuhn"), Frame(0, g.state)))
    assert share(own, card_box(0))["white"] > 0.4 and share(own, card_box(1))["red"] > 0.5


# ------------------------------------------------------------------------------ rules, words


def test_the_rules_reference() -> None:
    assert [e.id for e in lookup("K-BET-1", game="kuhn")] == ["K-BET-1"]
    assert lookup("bet 3", game="kuhn")[0].id == "K-BET-3"
    assert lookup("fold", game="kuhn")[0].id == "K-FOLD-1"
    entry = lookup("K-SHOW-1", game="kuhn")[0]
    assert entry.tag == "seed" and entry.section == "The end of a hand"


def test_the_service_s_rules_lookup(service: GameService) -> None:
    text = service.reading.rules("K-INFO-1", game="kuhn")[0]
    assert text.startswith("K-INFO-1 — Hidden cards [rulebook]")


def test_the_catalogues_keep_the_platform_s_words_and_add_the_game_s() -> None:
    assert i18n.tr("en", "svc.core.hand", who="Ana") == "Hand of Ana:"
    assert i18n.tr("en", "kuhn.check", player="Ana") == "Ana checks."
    assert i18n.tr("en", "render.kuhn.chips", n=1) == "1 chip"
    # another language's words come from the game's own folder
    assert i18n.tr("hu", "kuhn.bet", player="Ana", n=2) == "Ana 2 zsetont tesz."
    assert i18n.tr("hu", "svc.core.hand", who="Ana") != "Hand of Ana:"


# ------------------------------------------------------------------------------ terminal, demo


def test_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from turnpost.__main__ import main

    script = tmp_path / "script.txt"
    script.write_text("legal\nraise\nbet\nhand\nscore\nrules K-BET-1\nquit\n", encoding="utf-8")
    code = main(
        [
            "local",
            "--game",
            "kuhn",
            "--seats",
            "Ana,ai:heuristic",
            "--seed",
            "4",
            "--script",
            str(script),
            "--db",
            str(tmp_path / "local.sqlite3"),
            "--out",
            str(tmp_path / "out"),
            "--workers",
            "0",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "  check\n  bet" in out
    assert "Cannot read 'raise'" in out
    assert "Ana bets 1 chip." in out and "Computer (normal)" in out
    assert "your card:" in out
    assert "K-BET-1 — The first decision [rulebook]" in out
    assert list((tmp_path / "out").glob("*-map-public.png"))


async def test_the_demo(tmp_path: Path) -> None:
    # terminal.demo.run_demo as `python -m turnpost demo` calls it, with its own output streams
    # (its default `err=sys.stderr` is bound when the module is imported: a closed capture)
    from terminal import demo

    parser = argparse.ArgumentParser()
    demo.add_arguments(parser)
    outdir = tmp_path / "demo"
    args = parser.parse_args(["--game", "kuhn", "--players", "2", "--workers", "0", str(outdir)])
    out, err = io.StringIO(), io.StringIO()
    code = await demo.run_demo(args, out=out, err=err)
    out_text = out.getvalue()
    assert code == 0, (out_text, err.getvalue())
    assert "Game over after 5 rounds" in out_text and "chips" in out_text
    pngs = {p.name for p in outdir.glob("*.png")}
    assert {"final-map.png", "final-boards.png", "scores.png", "turn-005-map.png"} <= pngs
    assert (outdir / "timeline.gif").stat().st_size > 0
    table = Image.open(outdir / "turn-001-map.png").convert("RGB")
    assert share(table, card_box(0))["red"] > 0.5  # hand 2 in play: a card face down


# ------------------------------------------------------------------------------ the platform's gaps


def test_the_platform_s_agents_play_a_registered_game() -> None:
    from service.workers import make_agent

    agent = make_agent("heuristic", 1, "kuhn")
    st = game("kuhn").new_game(2, seed=1)
    assert agent.decide(st, 0) in game("kuhn").legal_actions(st, 0)


def test_a_game_s_locales_folder_is_served_beside_the_platform_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = tmp_path / "kuhn_locales_probe"
    (pkg / "locales" / "en").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "locales" / "en" / "probe.toml").write_text(
        '[messages]\n"probe.hello" = "Hello"\n', encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = Registration(
        name="kuhnprobe",
        title="Probe",
        min_players=2,
        max_players=2,
        face="examples.kuhn.game:GAME",
        adapter="examples.kuhn.adapter:ADAPTER",
        locales="kuhn_locales_probe:locales",
    )
    register(probe)
    clear_locale_dirs()  # the catalogues read again, the probe's folder too
    try:
        assert i18n.tr("en", "probe.hello") == "Hello"
        assert i18n.tr("en", "svc.core.hand", who="Ana") == "Hand of Ana:"
    finally:
        unregister("kuhnprobe")
        clear_locale_dirs()


def test_the_catalogues_are_whole_again_after_the_probe() -> None:
    assert i18n.tr("en", "svc.core.hand", who="Ana") == "Hand of Ana:"
    assert registration("kuhnprobe") is None


def test_a_random_state_renders_every_kind() -> None:
    st = game("kuhn").new_game(2, seed=random.Random(1).randrange(100))
    for kind in ("map", "boards", "scores"):
        assert image(render_image(ImageRequest(kind, None, 0, game="kuhn"), Frame(0, st)))
    assert render_image(ImageRequest("battle", None, 0, game="kuhn"), Frame(0, st)) is None
    with pytest.raises(ValueError, match="needs a seat"):
        render_image(ImageRequest("hand", None, 0, game="kuhn"), Frame(0, st))


# ------------------------------------------------------------------------------ translations

LOCALES = Path(__file__).resolve().parents[1] / "locales"
KUHN_KEYS = ("game.kuhn", "kuhn.", "svc.kuhn.", "render.kuhn.", "terminal.score.category.chips")


def test_the_translations_are_whole_and_served() -> None:
    """``examples/kuhn/locales/<lang>/kuhn.toml`` holds every English text of the game in
    every other language, served from the game's own folder (``Registration.locales``) beside
    the platform's catalogues, and passing the platform's catalogue check
    (:func:`i18n.check.problems`)."""
    from i18n.catalogue import catalogue, supported
    from i18n.check import problems

    assert {p.name for p in LOCALES.iterdir()} == set(supported()) - {"en"}
    english = {k for k in catalogue("en").messages if k.startswith(KUHN_KEYS)}
    assert len(english) == 62
    try:
        for code in sorted(set(supported()) - {"en"}):
            path = LOCALES / code / "kuhn.toml"
            messages = tomllib.loads(path.read_text(encoding="utf-8"))["messages"]
            assert set(messages) == english, code
            cat = catalogue(code)
            for key, text in messages.items():
                assert cat.messages[key] == text, key
                assert cat.sources[key] == path, key
            assert problems(code, KUHN_KEYS) == [], code
        assert i18n.tr("hu", "kuhn.bet", player="Ana", n=2) == "Ana 2 zsetont tesz."
        assert i18n.tr("pl", "render.kuhn.chips", n=5) == "5 żetonów"
        assert (
            i18n.tr("fr", "kuhn.hand.won", player="Ana", n=3) == "Ana remporte le pot de 3 jetons."
        )
        # a missing translation is found
        del catalogue("de").messages["kuhn.fold"]
        assert problems("de", KUHN_KEYS) == ["de: 'kuhn.fold' is missing"]
    finally:
        clear_locale_dirs()
    assert i18n.tr("de", "kuhn.fold", player="Ana") != "Ana folds."  # served again
