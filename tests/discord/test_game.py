"""End-to-end: discord.py's real code against the fake Discord server. A whole game from the
lobby to the final score through interactions only (slash commands, buttons, menus), the
map on every public post, no secret in any public post or spectator reply, the wrong user
refused, stale presses answered, a restart mid-game keeping the game and its buttons."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from rules import GameState, deciders, format_action, legal_actions
from storage import GameStatus
from tests.bot.test_service import hidden_names
from tests.discord.conftest import BotMaker
from tests.discord.fakediscord import FakeDiscord, Harness, Request, custom_ids

CH = 555
ANA, BO = 101, 102  # Ana plays; Bo watches (a spectator)
SEED = 3


def public(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH}/messages"]


def texts_to(reqs: list[Request], uid: int) -> list[str]:
    """What the bot answered the interactions of ``uid`` (message texts)."""
    out = []
    for r in reqs:
        if r.interaction_user != uid or r.json is None:
            continue
        body = r.json.get("data", r.json) if "/callback" in r.path else r.json
        if body:
            out.append(str(body.get("content") or "") + r.text())
    return out


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


class Game:
    def __init__(self, fake: FakeDiscord, h: Harness) -> None:
        self.fake, self.h = fake, h
        self.rng = random.Random(SEED)
        self.leaks: list[str] = []
        self.public_posts = 0
        self.guided = 0

    async def state(self) -> tuple[int, GameState]:
        rec = await self.h.client.tables.store.get_active_game(CH)  # type: ignore[attr-defined]
        if rec is None:  # finished
            games = await self.h.client.tables.store.list_games(channel_id=CH, limit=1)  # type: ignore[attr-defined]
            rec = games[0]
        st = await self.h.client.tables.svc.state(rec.id)  # type: ignore[attr-defined]
        return rec.id, st

    async def scan(self, reqs: list[Request]) -> None:
        """No hidden card or mission name in public posts or in Bo's (a spectator's) replies."""
        _, st = await self.state()
        hidden = hidden_names(st)
        for r in reqs:
            if r in public(reqs):
                self.public_posts += 1
                assert "map.png" in r.files, "a public post without the map"
                assert "attachment://map.png" in r.text()
                assert r.json.get("flags", 0) & (1 << 15) and not r.json.get("content")
            elif r.interaction_user == BO or (
                not r.ephemeral and r.interaction_user is not None and "/callback" not in r.path
            ):
                pass
            else:
                continue
            body = r.text()
            for name, ident in hidden.items():
                if _mentions(body, name):
                    self.leaks.append(f"{name} ({ident}) in {r.method} {r.path}: {body[:200]}")

    def last_turn_post(self) -> dict[str, Any]:
        msgs = [
            m
            for m in self.fake.messages.values()
            if m["channel_id"] == str(CH) and any(c.startswith("brz:t:") for c in custom_ids(m))
        ]
        return msgs[-1]

    async def play_typed(self, st: GameState) -> None:
        action = self.rng.choice(legal_actions(st, 0))
        text = format_action(st, action)
        reqs = await self.h.command(ANA, CH, "play", command=text)
        await self.scan(reqs)
        answers = " ".join(texts_to(reqs, ANA))
        assert "did not work" not in answers, (text, answers)

    async def play_guided(self) -> None:
        """Take my turn -> menus (random option each step) -> Confirm."""
        post = self.last_turn_post()
        turn = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
        reqs = await self.h.click(ANA, post, turn)
        await self.scan(reqs)
        cb = next(r for r in reqs if r.path.endswith("/callback"))
        assert cb.ephemeral, "the guided flow is private"
        msg = self.fake.messages[
            max(
                m
                for m, v in self.fake.messages.items()
                if any(c.startswith("brz:s:") for c in custom_ids(v))
            )
        ]
        for _ in range(10):
            ids = custom_ids(msg)
            confirm = [c for c in ids if c.startswith("brz:c:")]
            if confirm:
                before = copy.deepcopy(msg)  # a second press sends the message as it was
                reqs = await self.h.click(ANA, msg, confirm[0])
                await self.scan(reqs)
                assert "did not work" not in " ".join(texts_to(reqs, ANA))
                # a double press changes nothing and says so
                again = await self.h.click(ANA, before, confirm[0])
                assert any("no longer available" in t for t in texts_to(again, ANA))
                self.guided += 1
                return
            sel = next(c for c in self.walk(msg) if c.get("custom_id", "").startswith("brz:s:"))
            value = self.rng.choice([o["value"] for o in sel["options"]])
            reqs = await self.h.select(ANA, msg, sel["custom_id"], value)
            await self.scan(reqs)
        raise AssertionError("the guided flow did not reach Confirm")

    @staticmethod
    def walk(msg: dict[str, Any]) -> list[dict[str, Any]]:
        from tests.discord.fakediscord import components_of

        return components_of(msg)


async def test_whole_game_through_interactions_R_SETUP_5(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    assert any(r.method == "PUT" and "/guilds/" in r.path for r in fake.requests)  # synced
    g = Game(fake, h)
    # lobby: Ana opens it, Bo joins and leaves, Ana adds an AI and starts
    await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    assert set(custom_ids(lobby)) == {f"brz:l:1:{op}" for op in ("join", "leave", "ai", "start")}
    again = await h.command(BO, CH, "game", "new")
    assert any("already has a game" in t for t in texts_to(again, BO))
    await h.click(BO, lobby, "brz:l:1:join")
    assert "<@102>" in str(lobby["components"])
    await h.click(BO, lobby, "brz:l:1:leave")
    await h.click(ANA, lobby, "brz:l:1:ai")
    h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
    reqs = await h.click(ANA, lobby, "brz:l:1:start")
    await g.scan(reqs)
    assert public(reqs), "the game's first post"
    first = public(reqs)[-1]
    # R-SETUP-5: secret missions; the RNG seed is hidden from every view (it reveals decks)
    assert all("seed" not in r.text().lower() for r in public(reqs))
    assert "<@101>" in first.text() and [
        str(u) for u in first.json["allowed_mentions"]["users"]
    ] == ["101"]
    gid, st = await g.state()

    # autocomplete: at most 25 of Ana's legal commands
    choices = await h.autocomplete(ANA, CH, "play", "command", "")
    legal = {format_action(st, a) for a in legal_actions(st, 0)}
    assert 0 < len(choices) <= 25 and all(any(t.startswith(c) for t in legal) for c in choices)
    assert await h.autocomplete(BO, CH, "play", "command", "") == []
    # the wrong user is refused, privately
    refused = await h.click(
        BO,
        g.last_turn_post(),
        next(c for c in custom_ids(g.last_turn_post()) if c.startswith("brz:t:")),
    )
    assert any("Not your turn" in t for t in texts_to(refused, BO))
    assert all(r.ephemeral for r in refused if r.interaction_user == BO)
    nope = await h.command(BO, CH, "play", command="pass")
    assert any("no seat" in t for t in texts_to(nope, BO))
    bad = await h.command(ANA, CH, "play", command="fly to the moon")
    errs = texts_to(bad, ANA)
    assert any("did not work" in t for t in errs) and all(
        r.ephemeral for r in bad if "/callback" in r.path or "/webhooks/" in r.path
    )
    assert not public(bad)

    spect = await h.command(BO, CH, "board")
    await g.scan(spect)
    assert any("map.png" in r.files for r in spect)

    restarted = hand_checked = False
    for step in range(3000):
        gid, st = await g.state()
        if st.phase == "ended":
            break
        assert deciders(st) == [0] or 0 in deciders(st), "the AI seat plays by itself"
        if not hand_checked and hidden_names(st):
            # the hand: private, and the scan can fail (it finds the hidden names there)
            hand = await h.command(ANA, CH, "hand")
            hidden = hidden_names((await g.state())[1])
            assert all(r.ephemeral for r in hand if r.interaction_user == ANA)
            assert any(_mentions(r.text(), n) for r in hand for n in hidden)
            assert any("hand.png" in r.files for r in hand)
            hand_checked = True
        if step == 30 and not restarted:
            # a restart: a new client over the same database; the old post's button works
            post = g.last_turn_post()
            h = await make_bot()
            g.h = h
            restarted = True
        if step == 30:
            assert g.last_turn_post()["id"] == post["id"]  # posted by the old client
            await g.play_guided()
        elif step % 9 == 4:
            await g.play_guided()
        else:
            await g.play_typed(st)
    gid, st = await g.state()
    assert st.phase == "ended", "the game did not end"
    assert restarted and hand_checked and g.guided >= 3
    assert g.leaks == []
    rec = await h.client.tables.store.get_game(gid)  # type: ignore[attr-defined]
    assert rec.status is GameStatus.FINISHED
    last = [r for r in fake.requests if r.path == f"/channels/{CH}/messages"][-1]
    assert "Final scores" in last.text() and {"map.png", "scores.png", "boards.png"} <= set(
        last.files
    )
    assert g.public_posts > 20
    stats = await h.command(ANA, CH, "stats")
    assert any("1 finished games" in t for t in texts_to(stats, ANA))
    for cmd in ("score", "log"):
        assert texts_to(await h.command(BO, CH, cmd), BO)
