"""End-to-end: Tigris & Euphrates in Discord (issue 18), discord.py's real code against the
fake Discord server. A whole 3-player game — Ana and Bo human, one computer player — from
``/game new game:tigris`` to the final score through interactions only: typed ``/play``
commands, the guided "Take my turn" / "Decide" menus (a conflict's support, the war order, a
monument), at least one revolt and one war (the humans steer into them), the automatic
"support 0" of a player with nothing to commit after the random wait, and every request body
scanned for the hidden information (T-INFO-1/2): no player's tiles behind the screen and no
player's points in any post the channel sees. Also: ``/game new game:chess`` refused, the
``game`` option's autocomplete, the lobby's player count per game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rules.games import game as rules_game
from rules.games import names
from rules.tigris.data import COLOURS
from rules.tigris.state import TigrisState
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, components_of, custom_ids
from tests.bot.test_game import ANA, BO, CH, public, texts_to

AI_SEAT = 2
SEED = 11
T = rules_game("tigris")


def tiles_text(counts: list[int] | tuple[int, ...]) -> str:
    """A hand's tiles as the hand text writes them (English): ``2 black, 1 red``."""
    return ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(counts) if n)


def points_text(score: list[int] | tuple[int, ...]) -> str:
    """A player's points per colour as the hand text writes them: ``black 0, red 2, …``."""
    return ", ".join(f"{COLOURS[c]} {n}" for c, n in enumerate(score))


class Table:
    """The game seen from the test: its states at every version, and the scan."""

    def __init__(self, fake: FakeDiscord, h: Harness) -> None:
        self.fake, self.h = fake, h
        self.rng = random.Random(SEED)
        self.secrets: dict[str, str] = {}  # secret text -> what it is
        self.leaks: list[str] = []
        self.seen: set[str] = set()  # event keys of the game (from the log's states)
        self.guided = 0
        self.typed = 0
        self.scanned = 0
        self.sent_support = 0  # "support N" the humans sent themselves

    @property
    def tables(self) -> Any:
        return self.h.client.tables  # type: ignore[attr-defined]

    async def state(self) -> tuple[int, TigrisState]:
        store = self.tables.store
        rec = await store.get_active_game(CH)
        if rec is None:
            rec = (await store.list_games(channel_id=CH, limit=1))[0]
        st = await self.tables.svc.state(rec.id)
        return rec.id, st

    def learn(self, st: TigrisState) -> None:
        """The secrets of ``st``: each player's tiles behind the screen (two colours or
        more: one colour alone reads like a public "commits 2 red tiles") and points."""
        if st.phase == "over":
            return  # the screens are lifted at the end (T-FINAL-1)
        for i, p in enumerate(st.players):
            if sum(1 for n in p.hand if n) >= 2:
                self.secrets[tiles_text(p.hand)] = f"seat {i}'s tiles"
            if sum(p.score) > 0:
                self.secrets[points_text(p.score)] = f"seat {i}'s points"

    def private_channels(self) -> set[str]:
        return {str(c) for c in self.fake.dms.values()} | {str(t) for t in self.fake.threads}

    def scan(self, reqs: list[Request]) -> None:
        """Every request the channel (or anyone but the owner) may see: no secret."""
        private = self.private_channels()
        for r in reqs:
            if r.ephemeral or r.json is None:
                continue
            if "/callback" in r.path and r.json.get("type") == 8:
                continue  # autocomplete: the asker's own commands
            if any(f"/channels/{c}/" in r.path for c in private):
                continue  # DMs and private threads: the player's own place
            body = r.text()
            self.scanned += 1
            assert "behind the screen:" not in body, body[:300]
            for text, what in self.secrets.items():
                if text in body:
                    self.leaks.append(f"{what} ({text}) in {r.method} {r.path}: {body[:200]}")

    def turn_post(self) -> dict[str, Any]:
        msgs = [
            m
            for m in self.fake.messages.values()
            if m["channel_id"] == str(CH) and any(c.startswith("brz:t:") for c in custom_ids(m))
        ]
        return msgs[-1]

    def pick(self, st: TigrisState, seat: int) -> Any:
        """The seat's action: one that starts a revolt or a war while none was seen (the
        test steers into conflicts), else a random legal one, passing less often."""
        acts = T.legal_actions(st, seat)
        want = [k for k in ("tigris.revolt.start", "tigris.war.start") if k not in self.seen]
        if want and not st.pending:
            tries = [a for a in acts if a.kind in ("leader", "tile")]
            self.rng.shuffle(tries)
            for a in tries[:120]:
                _, events = T.apply(st, a)
                if any(e.key in want for e in events):
                    return a
        moves = [a for a in acts if a.kind != "pass"] or acts
        return self.rng.choice(moves)

    async def typed_play(self, uid: int, st: TigrisState, action: Any) -> list[Request]:
        text = T.format_action(st, action)
        reqs = await self.h.command(uid, CH, "play", command=text)
        answers = " ".join(texts_to(reqs, uid))
        assert "did not work" not in answers, (text, answers)
        self.typed += 1
        return reqs

    async def guided_play(self, uid: int, st: TigrisState, seat: int, action: Any) -> list[Request]:
        """The turn post's button, then the menus narrowed down to ``action``, then Confirm."""
        index = T.legal_actions(st, seat).index(action)
        target = T.format_action(st, action)
        post = self.turn_post()
        button = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
        reqs = await self.h.click(uid, post, button)
        cb = next(r for r in reqs if r.path.endswith("/callback"))
        assert cb.ephemeral, "the guided turn is private"
        msg = self.fake.messages[max(self.fake.messages)]
        out = list(reqs)
        for _ in range(8):
            ids = custom_ids(msg)
            confirm = [c for c in ids if c.startswith("brz:c:")]
            if confirm:
                assert f"`{target}`" in msg["content"]  # the command one may type
                reqs = await self.h.click(uid, msg, confirm[0])
                assert "did not work" not in " ".join(texts_to(reqs, uid))
                self.guided += 1
                return out + reqs
            sel = next(c for c in components_of(msg) if c.get("custom_id", "").startswith("brz:s:"))
            assert 1 <= len(sel["options"]) <= 25
            value = next(
                o["value"]
                for o in sel["options"]
                if o["value"] == f"i:{index}"
                or (o["value"].startswith("p:") and target.startswith(o["value"][2:]))
            )
            out += await self.h.select(uid, msg, sel["custom_id"], value)
        raise AssertionError(f"the guided menus did not reach {target!r}")


async def open_lobby(fake: FakeDiscord, h: Harness, **options: Any) -> dict[str, Any]:
    await h.command(ANA, CH, "game", "new", **options)
    return fake.messages[max(fake.messages)]


async def test_game_option_refuses_an_unknown_game_and_lists_the_games(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """``/game new game:chess`` is refused privately, naming the games; the ``game``
    option's autocomplete lists every registered game by its title (in the user's language);
    Tigris's player count is checked (2-4) and its lobby has no colour menu."""
    h = await make_bot()
    reqs = await h.command(ANA, CH, "game", "new", game="chess")
    said = " ".join(texts_to(reqs, ANA))
    assert "no game `chess`" in said and "brazil" in said and "tigris" in said
    assert all(r.ephemeral for r in reqs if r.interaction_user == ANA and "/callback" in r.path)
    assert not await h.client.tables.store.list_games(channel_id=CH, limit=None)  # type: ignore[attr-defined]
    titles = await h.autocomplete(ANA, CH, "game", "game", "", sub="new")
    assert titles == names() and {"brazil", "tigris"} <= set(titles)  # every registered game
    assert await h.autocomplete(ANA, CH, "game", "game", "eup", sub="new") == ["tigris"]
    one = await h.command(ANA, CH, "game", "new", game="tigris", players=1)
    assert any("2 to 4 players" in t for t in texts_to(one, ANA))
    lobby = await open_lobby(fake, h, game="tigris", players=3)
    text = str(lobby["components"])
    assert "Tigris & Euphrates — new game #" in text
    assert set(custom_ids(lobby)) == {f"brz:l:{lobby_id(lobby)}:{op}" for op in OPS}


OPS = ("join", "leave", "ai", "start")


def lobby_id(lobby: dict[str, Any]) -> int:
    return int(next(c for c in custom_ids(lobby) if c.startswith("brz:l:")).split(":")[2])


@pytest.mark.slow
async def test_whole_tigris_game_in_discord_T_INFO_1_T_CONFLICT_3(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", auto_answer_delay=(5.0, 9.0)) as make:
        await whole_game(fake, await make())


async def whole_game(fake: FakeDiscord, h: Harness) -> None:
    g = Table(fake, h)
    waits: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)

    g.tables.sleep = no_sleep
    lobby = await open_lobby(fake, h, game="tigris", players=3, ai_level="random")
    gid = lobby_id(lobby)
    await h.click(BO, lobby, f"brz:l:{gid}:join")
    await h.click(ANA, lobby, f"brz:l:{gid}:ai")
    assert f"<@{BO}>" in str(lobby["components"])
    g.tables.next_seed = SEED
    reqs = await h.click(ANA, lobby, f"brz:l:{gid}:start")
    _, st = await g.state()
    assert isinstance(st, TigrisState) and len(st.players) == 3
    g.learn(st)
    g.scan(reqs)
    first = [r.text() for r in public(reqs)]
    assert any("Tigris & Euphrates" in t for t in first), first
    status = [r for r in reqs if "### Game #" in r.text()]
    assert status and "Tigris & Euphrates" in status[0].text()

    # the hand: ephemeral, its image, the tiles behind the screen and the own points
    hand = await h.command(ANA, CH, "hand")
    assert all(r.ephemeral for r in hand if r.interaction_user == ANA)
    assert any("hand.png" in r.files for r in hand)
    assert any(tiles_text(st.players[0].hand) in r.text() for r in hand)
    g.scan([r for r in hand if not r.ephemeral])
    # Bo's private place: his DMs (the hand now, then each draw's news with the hand)
    await h.command(BO, CH, "hand", where="dm")
    dm = fake.dms[BO]
    # autocomplete of /play: the decider's legal commands; nothing for a spectator
    who = {0: ANA, 1: BO}
    decider = T.deciders(st)[0]
    if decider in who:
        got = await h.autocomplete(who[decider], CH, "play", "command", "")
        legal = T.legal_texts(st, decider)
        assert got and all(any(t.startswith(c) for t in legal) for c in got)
    assert await h.autocomplete(103, CH, "play", "command", "") == []

    kinds_guided: set[str] = set()
    for step in range(3000):
        _, st = await g.state()
        g.learn(st)
        if st.phase == "over":
            break
        ds = T.deciders(st)
        assert ds and ds[0] != AI_SEAT, "the computer player plays by itself"
        seat = ds[0]
        action = g.pick(st, seat)
        g.sent_support += action.kind == "support"
        if action.kind in ("support", "war_order", "monument", "treasure") or step % 7 == 3:
            reqs = await g.guided_play(who[seat], st, seat, action)
            kinds_guided.add(action.kind)
        else:
            reqs = await g.typed_play(who[seat], st, action)
        _, after = await g.state()
        g.learn(after)
        g.scan(reqs)
        for r in public(reqs):
            for k, word in (("tigris.revolt.start", "Revolt of"), ("tigris.war.start", "War of")):
                if word in r.text():
                    g.seen.add(k)
    _, st = await g.state()
    assert st.phase == "over", "the game did not end"
    assert {"tigris.revolt.start", "tigris.war.start"} <= g.seen, g.seen
    assert "support" in kinds_guided and g.typed > 20 and g.guided > 5
    assert g.leaks == [], g.leaks[:5]
    in_dm = [
        r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{dm}/messages"
    ]
    assert len(in_dm) > 3 and all("hand.png" in r.files for r in in_dm)
    assert any("You draw:" in r.text() for r in in_dm)
    # the scan sees what it looks for: a hand's tiles in a channel post would be a leak
    assert g.secrets and g.scanned > 100
    probe = Request("POST", f"/channels/{CH}/messages", {}, {"content": next(iter(g.secrets))})
    g.scan([probe])
    assert g.leaks  # (one, or more when one hand's text is part of another's)
    # a human with no tile to commit: the bot answered "support 0" for them, after the wait
    log = await g.tables.store.get_log(gid)
    human_support = sum(
        1 for e in log if e.seat in who and e.action_json and '"kind":"support"' in e.action_json
    )
    assert human_support > g.sent_support, (human_support, g.sent_support)
    posts = [r for r in fake.requests if r.path == f"/channels/{CH}/messages"]
    texts = " ".join(r.text() for r in posts)
    assert "commits" in texts and " wins " in texts  # the conflicts' posts
    assert any("battle.png" in r.files for r in posts)  # a conflict's report
    last = posts[-1]
    assert "scores.png" in last.files and "map.png" in last.files
    rec = await g.tables.store.get_game(gid)
    assert rec.status.value == "finished"
    status_msg = fake.messages[int(rec.settings.status_message_id or 0)]
    assert "The game is over" in str(status_msg["components"])
    # the bot's automatic answers (support 0 with nothing to commit) waited a random time
    assert waits and all(5.0 <= w <= 9.0 for w in waits)
