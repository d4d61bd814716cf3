"""Issue #29 items 3 and 5, measured over whole games through the fake Discord server: a
battle-heavy Brazil game (two humans seeking each other's units, and a computer player) and a
war-heavy Tigris game (two humans steering into revolts and wars, and a computer player).

Per turn: the public posts the channel gets (and keeps), the pings, the map uploads; and over
the game: no new turn post with an empty summary, never more than one post with buttons.
``COUNTS_PRINT=1`` prints the figures."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules.brazil import GameState, deciders
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, components_of, custom_ids
from tests.bot.test_battle import pick
from tests.bot.test_game import CH, is_status, texts_to
from tests.bot.test_tigris_discord import AI_SEAT, T, Table, lobby_id, open_lobby

ANA, BO, CY = 101, 102, 103


@dataclass
class Counts:
    """What the channel got, request by request (a hook of the fake server)."""

    fake: FakeDiscord
    posts: int = 0  # new public messages of the game (the status message aside)
    pings: int = 0  # users pinged by them
    maps: int = 0  # map uploads (a new post's or an edit's)
    map_bytes: int = 0
    edits: int = 0
    deletes: int = 0
    empty: list[str] = field(default_factory=list)  # new posts whose summary says nothing
    stale: int = 0  # moments with more than one post with buttons

    def __call__(self, r: Request) -> None:
        if not r.path.startswith(f"/channels/{CH}/messages") or is_status(r):
            return
        if r.method == "DELETE":
            self.deletes += 1
            return
        if r.method not in ("POST", "PATCH") or "/pins/" in r.path:
            return
        if "map.png" in r.files:
            self.maps += 1
            self.map_bytes += len(r.files["map.png"])
        if r.method == "PATCH":
            self.edits += 1
            return
        if r.path != f"/channels/{CH}/messages":
            return
        self.posts += 1
        users = ((r.json or {}).get("allowed_mentions") or {}).get("users") or []
        self.pings += len(users)
        texts = [c.get("content", "") for c in components_of(r.json or {}) if c.get("type") == 10]
        if texts and not texts[0].strip("\u200b \n"):
            self.empty.append(r.text()[:300])

    def check_buttons(self) -> None:
        with_buttons = [
            m
            for m in self.fake.messages.values()
            if m["channel_id"] == str(CH) and any(c.startswith("brz:t:") for c in custom_ids(m))
        ]
        self.stale += len(with_buttons) > 1

    def standing(self) -> int:
        """The game's posts still in the channel (lobby and status message aside)."""
        return sum(
            1
            for mid in self.fake.channel_messages.get(CH, [])
            if mid in self.fake.messages
            and "map.png" in str(self.fake.messages[mid].get("components"))
        )

    def report(self, name: str, turns: int, battles: int) -> dict[str, float]:
        per = {
            "posts": self.posts / turns,
            "standing": self.standing() / turns,
            "pings": self.pings / turns,
            "maps": self.maps / turns,
        }
        if os.environ.get("COUNTS_PRINT"):
            print(
                f"\n{name}: {turns} turns, {battles} battles/wars: {self.posts} posts "
                f"({self.standing()} standing, {self.deletes} deleted), {self.pings} pings, "
                f"{self.edits} edits, {self.maps} map uploads "
                f"({self.map_bytes / 1e6:.1f} MB), {len(self.empty)} empty summaries, "
                f"{self.stale} moments with stale buttons; per turn "
                + ", ".join(f"{k} {v:.3f}" for k, v in per.items())
            )
        return per


def check(per: dict[str, float], counts: Counts) -> None:
    assert per["standing"] <= 1.2, per
    assert per["pings"] <= 1.1, per
    assert per["maps"] <= 1.2, per
    assert counts.empty == [], counts.empty[:3]
    assert counts.stale == 0


@pytest.mark.slow
async def test_a_battle_heavy_brazil_game_is_one_post_per_turn(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h: Harness = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await h.command(ANA, CH, "game", "new", players=2)
    lobby = fake.messages[max(fake.messages)]
    await h.click(CY, lobby, "brz:l:1:join")
    tables.next_seed = 5
    counts = Counts(fake)
    fake.on_request.append(counts)
    await h.click(ANA, lobby, "brz:l:1:start")
    rng = random.Random(5)
    users = {0: ANA, 1: CY}
    rec = await tables.store.get_active_game(CH)
    battles = 0
    for _ in range(3000):
        st: GameState = await tables.svc.state(rec.id)
        if st.phase == "ended":
            break
        seat = deciders(st)[0]
        reqs = await h.command(users[seat], CH, "play", command=pick(st, seat, rng))
        assert "did not work" not in " ".join(texts_to(reqs, users[seat]))
        counts.check_buttons()
    assert st.phase == "ended"
    log = await tables.store.get_log(rec.id)
    battles = sum('"commit_cards"' in (e.action_json or "") for e in log) // 2
    turns = 1 + sum(
        1 for e in log for ev in json.loads(e.events_json or "[]") if ev.get("kind") == "turn"
    )
    assert battles > 5, battles
    check(counts.report("brazil", turns, battles), counts)


class WarTable(Table):
    """The Tigris test's table, its humans steering into revolts and wars all game long."""

    def pick(self, st: Any, seat: int) -> Any:
        acts = T.legal_actions(st, seat)
        if not st.pending:
            tries = [a for a in acts if a.kind in ("leader", "tile")]
            self.rng.shuffle(tries)
            for a in tries[:60]:
                _, events = T.apply(st, a)
                if any(e.key in ("tigris.revolt.start", "tigris.war.start") for e in events):
                    return a
        moves = [a for a in acts if a.kind != "pass"] or acts
        return self.rng.choice(moves)


@pytest.mark.slow
async def test_a_war_heavy_tigris_game_is_one_post_per_turn(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", auto_answer_delay=(5.0, 9.0)) as make:
        h = await make()
        g = WarTable(fake, h)

        async def no_sleep(seconds: float) -> None:
            pass

        g.tables.sleep = no_sleep
        lobby = await open_lobby(fake, h, game="tigris", players=3, ai_level="random")
        gid = lobby_id(lobby)
        await h.click(BO, lobby, f"brz:l:{gid}:join")
        await h.click(ANA, lobby, f"brz:l:{gid}:ai")
        g.tables.next_seed = 11
        counts = Counts(fake)
        fake.on_request.append(counts)
        await h.click(ANA, lobby, f"brz:l:{gid}:start")
        who = {0: ANA, 1: BO}
        conflicts = 0
        for _ in range(3000):
            _, st = await g.state()
            if st.phase == "over":
                break
            seat = T.deciders(st)[0]
            assert seat != AI_SEAT
            reqs = await g.typed_play(who[seat], st, g.pick(st, seat))
            conflicts += sum(1 for r in reqs if "battle.png" in r.files and "/channels/" in r.path)
            counts.check_buttons()
        assert st.phase == "over"
        log = await g.tables.store.get_log(gid)
        turns = 1 + sum((e.events_json or "").count("tigris.turn.start") for e in log)
        assert conflicts > 5, conflicts
        check(counts.report("tigris", turns, conflicts), counts)
