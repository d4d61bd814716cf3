"""End-to-end: discord.py's real code against the fake Discord server. A whole game from the
lobby to the final score through interactions only (slash commands, buttons, menus), the
map on every public post, no secret in any public post or spectator reply, the wrong user
refused, stale presses answered, a restart mid-game keeping the game and its buttons."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from rules.brazil import GameState, deciders, format_action, get_catalog, legal_actions, pending_for
from storage import GameStatus, PrivatePlace
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, custom_ids
from tests.service.test_service import hidden_names

CH = 555
ANA, BO = 101, 102  # Ana plays; Bo watches (a spectator)
SEED = 3


def public(reqs: list[Request]) -> list[Request]:
    """The public posts of the game (the status message aside)."""
    return [
        r
        for r in reqs
        if r.method == "POST" and r.path == f"/channels/{CH}/messages" and not is_status(r)
    ]


def turn_writes(reqs: list[Request], channel: int = CH) -> list[Request]:
    """Posts and edits of the game's turn posts (the status message aside): what the channel
    shows of the turn (issue 22: a turn's post is edited in place while its player decides)."""
    return [
        r
        for r in reqs
        if r.path.startswith(f"/channels/{channel}/messages")
        and r.method in ("POST", "PATCH")
        and not is_status(r)
    ]


def is_status(r: Request) -> bool:
    """The game's status message (posted once, then edited in place)."""
    return "### Game #" in r.text()


def status_writes(reqs: list[Request]) -> list[Request]:
    return [r for r in reqs if r.path.startswith(f"/channels/{CH}/messages") and is_status(r)]


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
    def __init__(self, fake: FakeDiscord, h: Harness, seed: int = SEED) -> None:
        self.fake, self.h = fake, h
        self.rng = random.Random(seed)
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
        edits = [r for r in turn_writes(reqs) if r.method == "PATCH"]
        for r in reqs:
            if r in public(reqs):
                self.public_posts += 1
                assert "map.png" in r.files, "a public post without the map"
                assert "attachment://map.png" in r.text()
                assert r.json.get("flags", 0) & (1 << 15) and not r.json.get("content")
            elif r in edits:  # a turn post edited in place: public too, secrets scanned
                # its map uploaded with the post, or kept (an edit keeps the attachments)
                assert "attachment://map.png" in r.text(), "an edited turn post without the map"
            elif (
                is_status(r)
                or r.interaction_user == BO
                or (
                    not r.ephemeral and r.interaction_user is not None and "/callback" not in r.path
                )
            ):
                pass
            else:
                continue
            # the scenario's name is public (a card may share a word with it: "War")
            body = r.text().replace(get_catalog(None).maps[st.map].name, "")
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
                # (or, when that press ended the game, that it is over)
                said = texts_to(again, ANA)
                assert any("no longer available" in t or "game is over" in t for t in said), said
                self.guided += 1
                return
            sel = next(c for c in self.walk(msg) if c.get("custom_id", "").startswith("brz:s:"))
            value = self.rng.choice([o["value"] for o in sel["options"]])
            reqs = await self.h.select(ANA, msg, sel["custom_id"], value)
            await self.scan(reqs)
        raise AssertionError("the guided flow did not reach Confirm")

    @staticmethod
    def walk(msg: dict[str, Any]) -> list[dict[str, Any]]:
        from tests.bot.fakediscord import components_of

        return components_of(msg)


@pytest.mark.slow
async def test_whole_game_through_interactions_R_SETUP_5(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    assert any(r.method == "PUT" and "/guilds/" in r.path for r in fake.requests)  # synced
    g = Game(fake, h)
    # lobby: Ana opens it, Bo joins and leaves, Ana adds an AI and starts
    await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    assert set(custom_ids(lobby)) == {
        f"brz:l:1:{op}" for op in ("join", "leave", "ai", "start")
    } | {
        "brz:k:1"  # the colour menu
    }
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
    assert any("You have no seat in this game" in t for t in texts_to(refused, BO))  # issue 22
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
    assert "Final scores" in last.text() and {
        "map.png",
        "scores.png",
        "boards.png",
        "timeline.gif",
    } <= set(last.files)
    assert last.files["timeline.gif"][:6] in (b"GIF89a", b"GIF87a")
    assert sum(len(b) for b in last.files.values()) <= 10 * 1024 * 1024
    assert "attachment://timeline.gif" in last.text()
    # the upload limit is respected: no timeline when it would not fit
    tables = h.client.tables  # type: ignore[attr-defined]
    assert await tables.timeline(gid, 1000) is None
    assert g.public_posts > 20
    status = fake.messages[int(rec.settings.status_message_id or 0)]
    assert "The game is over" in str(status["components"])
    stats = await h.command(ANA, CH, "stats")
    assert any("1 finished games" in t for t in texts_to(stats, ANA))
    for cmd in ("score", "log"):
        assert texts_to(await h.command(BO, CH, cmd), BO)


async def start_against_ai(fake: FakeDiscord, h: Harness, seed: int = SEED) -> list[Request]:
    """Ana opens a 2-seat lobby with one random AI and starts it with ``seed``; the requests
    of the Start press."""
    await h.command(ANA, CH, "game", "new", players=2, ai=1, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    h.client.tables.next_seed = seed  # type: ignore[attr-defined]
    return await h.click(ANA, lobby, "brz:l:1:start")


@pytest.mark.slow
async def test_one_status_message_edited_in_place(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """Posted (and pinned) when the game starts, its id kept in the game's settings, then
    edited in place (PATCH) after every turn: scenario, era, round, whose turn, deadline."""
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    reqs = await start_against_ai(fake, h)
    posted = [r for r in status_writes(reqs) if r.method == "POST"]
    assert len(posted) == 1
    gid, _ = await Game(fake, h).state()
    rec = await tables.store.get_game(gid)
    mid = int(rec.settings.status_message_id or 0)
    msg = fake.messages[mid]
    assert msg["pinned"] and "Setup" in msg["components"][0]["components"][0]["content"]
    assert "<@101>" in str(msg["components"]) and "<t:" in str(msg["components"])
    assert posted[0].json["allowed_mentions"]["parse"] == []  # it pings nobody
    rng = random.Random(SEED)
    seen_rounds = set()
    for _ in range(60):
        st = await tables.svc.state(gid)
        if st.phase == "play" and st.round >= 2:
            break
        text = format_action(st, rng.choice(legal_actions(st, 0)))
        reqs = await h.command(ANA, CH, "play", command=text)
        writes = status_writes(reqs)
        assert all(r.method == "PATCH" and r.path.endswith(f"/{mid}") for r in writes), writes
        content = fake.messages[mid]["components"][0]["components"][0]["content"]
        seen_rounds |= set(re.findall(r"round (\d+)", content))
        assert f"Game #{gid}" in content
    assert {"1", "2"} <= seen_rounds, seen_rounds
    assert sum(1 for r in fake.requests if r.method == "POST" and is_status(r)) == 1


def channel_posts(fake: FakeDiscord, channel: int) -> list[Request]:
    return [
        r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{channel}/messages"
    ]


@pytest.mark.slow
async def test_hand_in_a_private_thread_or_dms_R_SETUP_5(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """``/hand where:thread`` opens a private thread (type 12, not invitable) with only the
    player added; their private news then goes there as it happens, and never to a public
    post; ``where:dm`` moves it to DMs; ``where:here`` back to ephemeral-on-request."""
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await start_against_ai(fake, h)
    g = Game(fake, h)
    gid, _ = await g.state()
    nope = await h.command(BO, CH, "hand", where="thread")
    assert any("no seat" in t for t in texts_to(nope, BO)) and not fake.threads
    await h.command(ANA, CH, "hand", where="thread")
    assert len(fake.threads) == 1
    tid, thread = next(iter(fake.threads.items()))
    assert thread["type"] == 12 and thread["invitable"] is False and thread["members"] == [ANA]
    first = channel_posts(fake, tid)
    assert len(first) == 1 and "Manage Threads" in first[0].text()
    assert "hand.png" in first[0].files

    async def play_until_news(channel: int) -> list[Request]:
        before = len(channel_posts(fake, channel))
        for _ in range(400):
            _, st = await g.state()
            if st.phase == "ended":
                break
            await g.play_typed(st)
            news = channel_posts(fake, channel)[before:]
            if news:
                return news
        raise AssertionError("no private news for Ana")

    news = await play_until_news(tid)
    assert all("only for you" in r.text() for r in news)
    secret_texts = [r.json["content"].split("only for you: ", 1)[1] for r in news]
    for r in public(fake.requests):
        assert all(t not in r.text() for t in secret_texts)
    await h.command(ANA, CH, "hand", where="dm")
    dm = fake.dms[ANA]
    assert len(channel_posts(fake, dm)) == 1
    in_thread = len(channel_posts(fake, tid))
    await play_until_news(dm)
    assert len(channel_posts(fake, tid)) == in_thread, "no more news in the thread"
    rec = await tables.store.get_game(gid)
    assert rec.settings.private_places[ANA] == PrivatePlace(where="dm", channel_id=int(dm))
    here = await h.command(ANA, CH, "hand", where="here")
    assert all(r.ephemeral for r in here if r.interaction_user == ANA)
    assert ANA not in (await tables.store.get_game(gid)).settings.private_places
    assert g.leaks == []


async def test_lobby_colour_choice_R_SETUP_4(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """R-SETUP-4: colours wished in the lobby's menu are taken for those seats when the
    game starts (the AI seat in between chooses its own); a taken colour is refused."""
    cy = 103
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await h.command(ANA, CH, "game", "new", players=3, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    menu = next(c for c in Game.walk(lobby) if c.get("custom_id") == "brz:k:1")
    assert {o["value"] for o in menu["options"]} == set(get_catalog(None).colours)
    refused = await h.select(BO, lobby, "brz:k:1", "red")
    assert any("Join the game first" in t for t in texts_to(refused, BO))
    await h.select(ANA, lobby, "brz:k:1", "red")
    assert "red" in str(lobby["components"])
    await h.click(ANA, lobby, "brz:l:1:ai")
    await h.click(cy, lobby, "brz:l:1:join")
    taken = await h.select(cy, lobby, "brz:k:1", "red")
    assert any("taken" in t for t in texts_to(taken, cy))
    await h.select(cy, lobby, "brz:k:1", "blue")
    tables.next_seed = SEED
    reqs = await h.click(ANA, lobby, "brz:l:1:start")
    _, st = await Game(fake, h).state()
    assert st.players[0].colour == "red" and st.players[2].colour == "blue"
    assert st.players[1].colour not in (None, "red", "blue")
    assert all((p := pending_for(st, d)) is None or p.kind != "choose_colour" for d in deciders(st))
    assert any("red" in r.text() for r in public(reqs))


def _payable_choice(st: GameState) -> tuple[int, list[int], Any] | None:
    """A legal action of seat 0 whose payment has a choice: (its index, the option numbers
    walked — the last option at each token —, the payment), if that differs from the default."""
    from rules.brazil import cost_of, default_payment, payment_step

    for i, a in enumerate(legal_actions(st, 0)):
        cost = cost_of(st, a)
        if cost is None or not cost.tokens:
            continue
        step, path = payment_step(st, a), list[int]()
        while not step.complete and len(path) < 12:
            k = len(step.options) - 1
            path.append(k)
            step = payment_step(st, a, [*step.chosen, step.options[k].item])
        if step.complete and path and step.payment != default_payment(st, a):
            return i, path, step.payment
    return None


async def guide_to_a_payment_choice(
    fake: FakeDiscord, h: Harness, g: Game
) -> tuple[int, list[int], Any, GameState, dict[str, Any]]:
    """Play typed turns until Ana may pay for a legal action in more than one way, then open
    the guided turn and narrow its menus down to that action's confirm step: (the action's
    index, the payment path, the payment, the state, the confirm message)."""
    found = None
    for _ in range(300):
        _, st = await g.state()
        found = _payable_choice(st) if deciders(st) == [0] else None
        if found is not None:
            break
        await g.play_typed(st)
    assert found is not None, "no action with a payment choice"
    index, path, payment = found
    target = format_action(st, legal_actions(st, 0)[index])
    post = g.last_turn_post()
    await h.click(ANA, post, next(c for c in custom_ids(post) if c.startswith("brz:t:")))
    msg = fake.messages[max(fake.messages)]
    for _ in range(10):  # narrow the guided menus down to the target command
        if any(c.startswith("brz:c:") for c in custom_ids(msg)):
            break
        sel = next(c for c in Game.walk(msg) if c.get("custom_id", "").startswith("brz:s:"))
        value = next(
            o["value"]
            for o in sel["options"]
            if o["value"] == f"i:{index}"
            or (o["value"].startswith("p:") and target.startswith(o["value"][2:]))
        )
        await h.select(ANA, msg, sel["custom_id"], value)
    return index, path, payment, st, msg


@pytest.mark.slow
async def test_change_payment_walks_the_engine_chooser_R_VOC_2(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """R-VOC-2: "Change payment" on the confirm step walks rules.payment_step one token at a
    time (a menu of the sources), and Confirm applies exactly the payment chosen."""
    from rules.brazil import apply

    h = await make_bot()
    await start_against_ai(fake, h)
    g = Game(fake, h)
    index, path, payment, st, msg = await guide_to_a_payment_choice(fake, h, g)
    change = next(c for c in custom_ids(msg) if c.startswith("brz:p:"))
    assert "Default payment" in msg["content"]
    await h.click(ANA, msg, change)
    for k in path:
        sel = next(c for c in Game.walk(msg) if c.get("custom_id", "").startswith("brz:y:"))
        assert 1 <= len(sel["options"]) <= 25
        reqs = await h.select(ANA, msg, sel["custom_id"], str(k))
        await g.scan(reqs)
    assert "Confirm with this payment" in msg["content"]
    ok = next(c for c in custom_ids(msg) if c.startswith("brz:q:"))
    # a stranger's press is refused and changes nothing
    assert any("no seat" in t for t in texts_to(await h.click(BO, msg, ok), BO))
    reqs = await h.click(ANA, msg, ok)
    await g.scan(reqs)
    action = legal_actions(st, 0)[index]
    want, _ = apply(st, action.replace(payment=payment))
    default, _ = apply(st, action)
    _, now = await g.state()
    assert want.players[0] != default.players[0], "the walked payment is another one"
    assert now.players[0] == want.players[0]
    assert g.leaks == []


@pytest.mark.slow
async def test_colour_wish_after_a_player_who_chooses_in_game_R_SETUP_4(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    """Ana wished nothing and chooses in the game; Cy's wish (a later seat) is taken when
    the colour step reaches Cy."""
    cy = 103
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    await h.click(cy, lobby, "brz:l:1:join")
    await h.select(cy, lobby, "brz:k:1", "blue")
    tables.next_seed = SEED
    await h.click(ANA, lobby, "brz:l:1:start")
    _, st = await Game(fake, h).state()
    assert deciders(st) == [0] and pending_for(st, 0).kind == "choose_colour"  # type: ignore[union-attr]
    await h.command(ANA, CH, "play", command="colour red")
    _, st = await Game(fake, h).state()
    assert [p.colour for p in st.players] == ["red", "blue"]
