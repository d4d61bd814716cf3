"""Every registered game played whole through Discord (issue 28, item 2): discord.py's real
code against the fake Discord server (:mod:`tests.bot.fakediscord`), the bot as it runs.

For each game of :func:`rules.games.names` (read when the tests are collected; no branch
per game): ``/game new game:<name>`` opens a lobby of the game's fewest players (two at
least), one human (Ana, seat 0) and computer players in the other seats; Ana starts it and
plays every decision of hers through the bot's interactions — typed ``/play command:`` with
a legal command, and now and then the guided "Take my turn" menus narrowed down to the
command and confirmed — while the computer players play by themselves, until the game is
over. Then: the game is finished in storage; no secret was in any post the channel (or a
spectator) sees; every interaction was answered; nothing was logged as an error. On the way,
what the bot offers for the game: ``/game new``'s menus (the game among the games, its own
maps or boards only), the lobby's colour menu exactly when the game has colour wishes, Ana's
hand privately and in her DMs, ``/play``'s autocomplete (her legal commands), ``/game
status``, ``/rules`` of the channel's game, ``/undo`` (taken back or refused: answered).

The secrets are derived from the game itself: a line of a seat's hand (the adapter's
``hand_text``) that is not the same in every full state dealt at random from what another
seat sees (``face.determinize`` of that seat's ``face.view``) depends on what that other seat
may not know; so does a distinctive item of such a line (a card's name) missing from one of
those dealt hands. Each step's requests are scanned for what is still hidden after the step
(a step may reveal what was hidden before it). The scan is shown able to fail: a probe post
holding any one secret seen is caught.
"""

from __future__ import annotations

import logging
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from rules.games import names
from rules.registry import registration
from service.games import GameAdapter, adapter
from service.results import SeatSpec
from storage import GameStatus
from tests.bot.conftest import bot_maker
from tests.bot.conftest import fake as fake  # the fake Discord server, as tests/bot has it
from tests.bot.fakediscord import FakeDiscord, Harness, Request, components_of, custom_ids
from tests.bot.test_alt_text import check_alt_texts
from tests.bot.test_game import texts_to

GAMES: list[str] = names()
"""Every registered game, the default first (read at collection time)."""

CH = 555
ANA, BO = 101, 102  # Ana plays seat 0; Bo watches (a spectator)
SEED = 5
MAX_STEPS = 3000
"""Ana's decisions at most (a whole game of the registered games takes far fewer)."""
GUIDED_EVERY = 5
"""Every so many of Ana's decisions goes through the guided menus (the others are typed)."""
SAMPLES = 3
MIN_ITEM = 10
"""Full states dealt per observer when deriving a seat's secrets."""


def lines(text: str) -> set[str]:
    return {ln.strip() for ln in text.splitlines() if ln.strip()}


def items(line: str) -> list[str]:
    """The distinctive items of a hand's line ``what: a, b; c``: those of several words and
    ten characters or more (``Hereditary Captaincies [I-2]``, not ``2 red``)."""
    listed = line.split(": ", 1)[-1].replace("; ", ", ").split(", ")
    return [x.strip() for x in listed if len(x.strip()) >= MIN_ITEM and " " in x.strip()]


class Table:
    """One game seen from the test: its state, the secrets so far, the scan's findings, and
    the interactions sent (each must be answered)."""

    def __init__(self, name: str, fake: FakeDiscord, h: Harness) -> None:
        self.name, self.fake, self.h = name, fake, h
        self.A: GameAdapter = adapter(name)
        self.rng = random.Random(SEED)
        self.secrets: dict[str, str] = {}  # secret text -> whose (every one seen)
        self.current: dict[str, str] = {}  # the secrets of the state now
        self.leaks: list[str] = []
        self.unanswered: list[str] = []
        self.scanned = 0
        self.typed = self.guided = 0
        self.looked = False

    @property
    def tables(self) -> Any:
        return self.h.client.tables  # type: ignore[attr-defined]

    async def record(self) -> Any:
        store = self.tables.store
        rec = await store.get_active_game(CH)
        return rec if rec is not None else (await store.list_games(channel_id=CH, limit=1))[0]

    async def state(self) -> tuple[int, Any]:
        rec = await self.record()
        return rec.id, await self.tables.svc.state(rec.id)

    # ------------------------------------------------------------ interactions

    def answered(self, what: str, reqs: list[Request]) -> list[Request]:
        """``reqs`` (one interaction's requests) hold its answer (the callback)."""
        if not any(r.path.endswith("/callback") for r in reqs):
            self.unanswered.append(what)
        return reqs

    async def command(
        self, uid: int, name: str, sub: str | None = None, **kw: Any
    ) -> list[Request]:
        reqs = await self.h.command(uid, CH, name, sub, **kw)
        return self.answered(f"/{name} {sub or ''} {kw}", reqs)

    async def click(self, uid: int, msg: dict[str, Any], cid: str) -> list[Request]:
        return self.answered(f"press {cid}", await self.h.click(uid, msg, cid))

    async def select(self, uid: int, msg: dict[str, Any], cid: str, value: str) -> list[Request]:
        return self.answered(f"menu {cid}={value}", await self.h.select(uid, msg, cid, value))

    async def autocomplete(
        self, uid: int, command: str, sub: str, focused: str, value: str, **given: Any
    ) -> list[str]:
        """The choices offered for option ``focused`` of ``/<command> <sub>`` while the
        options ``given`` are filled in."""
        fake = self.fake
        opts = [{"name": k, "type": 3, "value": v} for k, v in given.items()]
        opts.append({"name": focused, "type": 3, "value": value, "focused": True})
        data = {
            "id": str(next(fake.ids)),
            "name": command,
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        }
        reqs = await self.h.feed(fake.interaction(4, uid, CH, data))
        cb = [r for r in self.answered(f"autocomplete {focused}", reqs) if "/callback" in r.path]
        assert cb and cb[0].json["type"] == 8, reqs
        return [c["value"] for c in cb[0].json["data"]["choices"]]

    # ------------------------------------------------------------ secrets and the scan

    def learn(self, st: Any, seats: list[SeatSpec]) -> None:
        """The secrets of ``st`` (:attr:`current`; :attr:`secrets`: all seen so far): each
        seat's hand lines that another seat may not know, and the distinctive items of such
        a line (a card's name of several words, not a count like ``2 red``)."""
        self.current = {}
        if self.A.over(st):
            return  # the game's end may lift what was hidden
        g = self.A.face
        n = self.A.seat_count(st)
        for seat in range(n):
            text = self.A.hand_text(st, seats, seat)
            for other in range(n):
                if other == seat:
                    continue
                seen = g.view(st, other)
                dealt = [
                    self.A.hand_text(g.determinize(seen, other, self.rng), seats, seat)
                    for _ in range(SAMPLES)
                ]
                whose = f"seat {seat}'s (hidden from seat {other})"
                common = lines(dealt[0]).intersection(*(lines(d) for d in dealt[1:]))
                for line in lines(text) - common:
                    self.current[line] = whose
                    for item in items(line):
                        if not all(item in d for d in dealt):
                            self.current[item] = whose
        self.secrets.update(self.current)

    def private_channels(self) -> set[str]:
        return {str(c) for c in self.fake.dms.values()} | {str(t) for t in self.fake.threads}

    def scan(self, reqs: list[Request], *, spectator: bool = False) -> None:
        """Every request the channel sees (``spectator``: Bo's private answers too) holds no
        secret."""
        private = self.private_channels()
        for r in reqs:
            if r.json is None:
                continue
            if "/callback" in r.path and r.json.get("type") == 8:
                continue  # autocomplete: the asker's own commands
            if r.ephemeral and not (spectator and r.interaction_user == BO):
                continue  # an answer to its asker only
            if any(f"/channels/{c}/" in r.path for c in private):
                continue  # DMs and private threads: the player's own place
            body = r.text()
            self.scanned += 1
            for text, whose in self.current.items():
                if text in body:
                    self.leaks.append(f"{whose} {text!r} in {r.method} {r.path}: {body[:200]}")

    # ------------------------------------------------------------ Ana's decisions

    def pick(self, st: Any) -> Any:
        return self.rng.choice(self.A.face.legal_actions(st, 0))

    async def typed_play(self, st: Any, action: Any) -> list[Request]:
        text = self.A.face.format_action(st, action)
        reqs = await self.command(ANA, "play", command=text)
        answers = " ".join(texts_to(reqs, ANA))
        assert "did not work" not in answers, (text, answers)
        self.typed += 1
        return reqs

    def turn_post(self) -> dict[str, Any]:
        msgs = [
            m
            for m in self.fake.messages.values()
            if m["channel_id"] == str(CH) and any(c.startswith("brz:t:") for c in custom_ids(m))
        ]
        assert msgs, "no turn post with a 'Take my turn' button"
        return msgs[-1]

    async def guided_play(self, st: Any, action: Any) -> list[Request]:
        """The turn post's button, the menus narrowed down to ``action``, then Confirm."""
        index = self.A.face.legal_actions(st, 0).index(action)
        target = self.A.face.format_action(st, action)
        post = self.turn_post()
        button = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
        out = await self.click(ANA, post, button)
        cb = next(r for r in out if r.path.endswith("/callback"))
        assert cb.ephemeral, "the guided turn is private"
        msg = self.fake.messages[max(self.fake.messages)]
        for _ in range(10):
            confirm = [c for c in custom_ids(msg) if c.startswith("brz:c:")]
            if confirm:
                reqs = await self.click(ANA, msg, confirm[0])
                assert "did not work" not in " ".join(texts_to(reqs, ANA))
                self.guided += 1
                return out + reqs
            menu = next(
                c for c in components_of(msg) if c.get("custom_id", "").startswith("brz:s:")
            )
            assert 1 <= len(menu["options"]) <= 25
            value = next(
                o["value"]
                for o in menu["options"]
                if o["value"] == f"i:{index}"
                or (o["value"].startswith("p:") and target.startswith(o["value"][2:]))
            )
            out += await self.select(ANA, msg, menu["custom_id"], value)
        raise AssertionError(f"the guided menus did not reach {target!r}")


def players_of(name: str) -> int:
    face = adapter(name).face
    return min(max(2, face.min_players), face.max_players)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_through_discord(
    game: str, fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    started = time.monotonic()
    async with bot_maker(fake, tmp_path / "bot.sqlite3") as make:
        h = await make()
        g = Table(game, fake, h)

        async def no_sleep(seconds: float) -> None:  # the automatic answers' random wait
            return None

        g.tables.sleep = no_sleep
        await play_whole_game(g, game)
    errors = [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info or "Traceback" in r.getMessage()
    ]
    assert errors == [], errors[:5]
    print(
        f"{game}: {g.typed} typed, {g.guided} guided, {len(g.secrets)} secrets, {g.scanned} scanned, {time.monotonic() - started:.1f}s"
    )


async def play_whole_game(g: Table, game: str) -> None:
    fake, A = g.fake, g.A
    players = players_of(game)
    # /game new's menus: the game among the games, its own maps or boards (none: none)
    assert game in await g.autocomplete(ANA, "game", "new", "game", "")
    maps = await g.autocomplete(ANA, "game", "new", "scenario", "", game=game)
    assert maps == [sid for sid, _ in A.scenarios()][:25], maps
    # the lobby: /game new game:<name>, the computer players, Start
    reqs = await g.command(
        ANA, "game", "new", game=game, players=players, ai=players - 1, ai_level="random"
    )
    said = " ".join(texts_to(reqs, ANA))
    lobby = fake.messages[max(fake.messages)]
    ids = [c for c in custom_ids(lobby) if c.startswith("brz:l:")]
    assert ids, f"/game new game:{game} opened no lobby: {said[:300]}"
    gid = int(ids[0].split(":")[2])
    assert f"brz:l:{gid}:start" in ids
    colours = any(c.startswith("brz:k:") for c in custom_ids(lobby))
    assert colours == A.has_colours, "a colour menu exactly when the game has colour wishes"
    g.tables.next_seed = SEED
    reqs = await g.click(ANA, lobby, f"brz:l:{gid}:start")
    gid, st = await g.state()
    rec = await g.record()
    assert rec.game == game and rec.status.is_active and rec.status is not GameStatus.LOBBY
    assert A.seat_count(st) == players
    seats = list((await g.tables.svc.peek(gid)).seats)
    g.learn(st, seats)
    g.scan(reqs)
    g.scan(await g.command(ANA, "hand", where="dm"))  # her private news: in her DMs now
    dm = fake.dms[ANA]
    assert [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH}/messages"], (
        "the game's first post"
    )

    hand_checked = spectated = False
    for step in range(MAX_STEPS):
        gid, st = await g.state()
        if A.over(st):
            break
        deciders = A.face.deciders(st)
        assert 0 in deciders, f"the computer players play by themselves: {deciders}"
        mine = [t for t, w in g.current.items() if w.startswith("seat 0'")]
        if not hand_checked and mine:
            # Ana's hand, privately: it holds her secrets (the scan would see them)
            hand = await g.command(ANA, "hand")
            assert all(r.ephemeral for r in hand if r.interaction_user == ANA)
            said = " ".join(r.text() for r in hand)
            assert any(t in said for t in mine), (mine, said[:500])
            hand_checked = True
        if step == 3 and not spectated:  # a spectator looks: nothing hidden in what he sees
            for cmd in ("board", "hand", "score", "log"):
                g.scan(await g.command(BO, cmd), spectator=True)
            spectated = True
        if step == 1:
            await look_around(g, game, st)
        action = g.pick(st)
        if step % GUIDED_EVERY == 2:
            reqs = await g.guided_play(st, action)
        else:
            reqs = await g.typed_play(st, action)
        g.learn((await g.state())[1], seats)  # what is still hidden after the step
        g.scan(reqs)
    else:
        raise AssertionError(f"{game}: not over after {MAX_STEPS} of Ana's decisions")

    gid, st = await g.state()
    assert A.over(st) and A.face.deciders(st) == []
    assert g.looked
    rec = await g.tables.store.get_game(gid)
    assert rec.status is GameStatus.FINISHED and rec.game == game
    assert spectated and g.typed > 0 and g.guided > 0
    assert g.unanswered == [], g.unanswered[:5]
    assert g.leaks == [], g.leaks[:5]
    assert g.scanned > 0
    if g.secrets:  # the scan sees what it looks for: a secret in a channel post is a leak
        assert hand_checked
        for text, whose in g.secrets.items():
            g.current = {text: whose}
            probe = Request("POST", f"/channels/{CH}/messages", {}, {"content": f"… {text} …"})
            g.scan([probe])
        assert len(g.leaks) == len(g.secrets), "the scan misses a secret in a channel post"
    status = fake.messages[int(rec.settings.status_message_id or 0)]
    assert "The game is over" in str(status["components"])
    in_dm = [
        r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{dm}/messages"
    ]
    assert in_dm and all(r.interaction_user is None for r in in_dm)
    assert any("hand.png" in r.files for r in in_dm), "her hand's picture in her DMs"
    # every picture posted (turn posts, battles, the end's scores and timeline, the private
    # ones) carries its alt text, the channel's in the game's language
    assert {"map", "timeline"} <= set(check_alt_texts(fake.requests, "en", CH))


async def look_around(g: Table, game: str, st: Any) -> None:
    """Ana's other commands mid-game: /play's autocomplete (her legal commands), /game
    status, /rules of the channel's game (the first rule of its reference), /undo (taken
    back or refused, answered either way)."""
    legal = g.A.face.legal_texts(st, 0)
    offered = await g.h.autocomplete(ANA, CH, "play", "command", "")
    assert offered and all(any(t.startswith(c) for t in legal) for c in offered), offered
    assert await g.h.autocomplete(BO, CH, "play", "command", "") == []
    assert texts_to(await g.command(ANA, "game", "status"), ANA)
    reg = registration(game)
    book = reg.path("rulebook") if reg is not None else None
    if book is not None:
        first = re.search(r"^### ([A-Z]-[A-Z]+-[0-9]+) ", book.read_text(encoding="utf-8"), re.M)
        assert first, book
        said = " ".join(texts_to(await g.command(ANA, "rules", query=first.group(1)), ANA))
        assert first.group(1) in said, f"/rules {first.group(1)} in a game of {game}: {said[:200]}"
    reqs = await g.command(ANA, "undo")
    assert texts_to(reqs, ANA)
    g.scan(reqs)
    g.looked = True
