"""Ratings on Discord end to end (issue #31): discord.py's real code against the fake Discord
server, a real SQLite file, and whole matches of the registry's small two-player game
(:data:`SMALL`: the example game) played by typed ``/play`` commands, each rated when it ends.

``/leaderboard`` lists the server's players by the service's table (places, display names,
ratings, provisional ones marked) and the asker's own place; ``/rating`` gives a player's
rating and history; ``/season start|end`` is for members with Manage Server only, and an
ended season's final table stays readable."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from i18n import tr
from rules.games import game, names
from service import catalog
from service.games import adapter_of, title_key
from service.rating import SETTLED_GAMES
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import EPHEMERAL, GUILD_ID, FakeDiscord, Harness, Request

CH = 555
ANA, BO, CY = 812_345_678_901_234_101, 812_345_678_901_234_102, 812_345_678_901_234_103
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy_*"}
MANAGE_GUILD = str(1 << 5)
MANAGE_CHANNELS = str(1 << 4)

SMALL = next(
    n
    for n in names()
    if game(n).min_players == game(n).max_players == 2 and game(n).next_deciders is not None
)
"""A game of exactly two players (quick to play whole)."""


def answer(reqs: list[Request]) -> Request:
    """The interaction's own answer (its callback or follow-up with text)."""
    said = [
        r
        for r in reqs
        if ("/callback" in r.path or "/webhooks/" in r.path)
        and r.json
        and ((r.json.get("data") or {}).get("content") or r.json.get("content"))
    ]
    assert said, reqs
    return said[-1]


def content(r: Request) -> str:
    body = r.json or {}
    return str((body.get("data") or {}).get("content") or body.get("content") or "")


def private(r: Request) -> bool:
    body = r.json or {}
    flags = int((body.get("data") or {}).get("flags") or body.get("flags") or 0)
    return bool(flags & EPHEMERAL) or r.ephemeral


async def command(
    h: Harness,
    uid: int,
    cmd: str,
    sub: str | None = None,
    *,
    perms: str | None = None,
    user: int | None = None,
    **opts: Any,
) -> list[Request]:
    """``/cmd [sub] opts`` of ``uid`` in the game channel; ``perms``: the member's
    permissions (default: all); ``user``: a ``player`` option naming that user."""
    options: list[dict[str, Any]] = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in opts.items()
    ]
    data: dict[str, Any] = {"id": str(next(h.fake.ids)), "name": cmd, "type": 1}
    if user is not None:
        options.append({"name": "player", "type": 6, "value": str(user)})
        u = {
            "id": str(user),
            "username": NAMES[user],
            "global_name": NAMES[user],
            "discriminator": "0",
            "avatar": None,
        }
        member = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "flags": 0}
        data["resolved"] = {"users": {str(user): u}, "members": {str(user): member}}
    data["options"] = [{"name": sub, "type": 1, "options": options}] if sub else options
    payload = h.fake.interaction(2, uid, CH, data)
    if perms is not None:
        payload["member"]["permissions"] = perms
    return await h.feed(payload)


async def match(h: Harness, fake: FakeDiscord, first: int, second: int, seed: int) -> int:
    """A whole match of :data:`SMALL` between ``first`` and ``second``, typed ``/play``
    commands chosen at random (``seed``): the finished game's id."""
    t = h.client.tables  # type: ignore[attr-defined]
    await h.command(first, CH, "game", "new", game=SMALL, players=2, ai=0)
    lobby = fake.messages[max(fake.messages)]
    gid = int(re.search(r"brz:l:(\d+):join", str(lobby)).group(1))  # type: ignore[union-attr]
    await h.click(second, lobby, f"brz:l:{gid}:join")
    t.next_seed = seed
    await h.click(first, lobby, f"brz:l:{gid}:start")
    users = {s.seat: s.user_id for s in (await t.store.get_game(gid)).seats}
    rng = random.Random(seed)
    for _ in range(200):
        st = await t.svc.state(gid)
        A = adapter_of(st)
        if A.over(st):
            break
        seat = A.face.deciders(st)[0]
        text = A.face.format_action(st, rng.choice(A.face.legal_actions(st, seat)))
        await h.command(users[seat], CH, "play", command=text)
    rec = await t.store.get_game(gid)
    assert rec.status.value == "finished", rec.status
    return gid


SLOW = pytest.mark.slow  # whole matches through Discord


@pytest.fixture
async def played(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """A bot serving the web pages (on a free port), after three rated matches on the test
    server: Ana–Bo, Bo–Ana, Ana–Bo."""
    fake.users.update(NAMES)
    async with bot_maker(fake, tmp_path / "bot.sqlite3", web_port=0) as make:
        h = await make()
        for n, (a, b) in enumerate(((ANA, BO), (BO, ANA), (ANA, BO))):
            await match(h, fake, a, b, seed=10 + n)
        yield h


def rows_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"\d+\. ", line)]


@SLOW
async def test_the_leaderboard_is_the_services_table_with_the_askers_place(
    fake: FakeDiscord, played: Harness
) -> None:
    h = played
    t = h.client.tables  # type: ignore[attr-defined]
    table = await t.svc.ratings.table(GUILD_ID, SMALL)
    assert [r.name for r in table] and {r.name for r in table} == {"Ana", "Bo"}
    assert all(r.games == 3 and r.provisional for r in table)  # 3 < SETTLED_GAMES
    assert SETTLED_GAMES > 3
    said = answer(await command(h, CY, "leaderboard", game=SMALL))
    text = content(said)
    assert private(said)
    title = title_key(SMALL)
    assert tr("en", title) in text.splitlines()[0]
    # one line per player, in the table's order, with its place, name, rating and games
    expected = [f"{r.place}. {r.name} · {r.rating:,} (provisional) · 3 games" for r in table]
    assert rows_of(text) == expected
    assert "Provisional: fewer than 5 rated games so far." in text
    # Cy has played nothing: told so; no user id anywhere
    assert "You have no rated game of" in text
    assert str(ANA) not in text and str(BO) not in text and "u:" not in text
    # Ana is in the table: no "You:" line for her (her row is the table's)
    mine = content(answer(await command(h, ANA, "leaderboard", game=SMALL)))
    assert rows_of(mine) == expected and "You" not in mine
    # without game: the channel's game's table
    assert rows_of(content(answer(await command(h, ANA, "leaderboard")))) == expected
    # the answer links the web page, which shows the same table by display names only
    m = re.search(r"On the web: <(http://[^>]+)>", text)
    assert m is not None, text
    assert m.group(1).endswith(f"/s/{GUILD_ID}/leaderboard/{SMALL}")
    async with aiohttp.ClientSession() as http, http.get(m.group(1)) as resp:
        assert resp.status == 200
        page = await resp.text()
    names = re.findall(r'<span class="name">(.*?)</span>', page)
    assert names == [r.name for r in table]
    assert str(ANA) not in page and str(BO) not in page and "u:" not in page


@SLOW
async def test_the_askers_place_below_the_top(
    fake: FakeDiscord, played: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Cy plays one match too; with a table of one row, the last player's place is told
    # under it, and Cy's name is shown as written (markdown escaped)
    h = played
    t = h.client.tables  # type: ignore[attr-defined]
    await match(h, fake, CY, ANA, seed=30)
    table = await t.svc.ratings.table(GUILD_ID, SMALL)
    assert len(table) == 3
    text = content(answer(await command(h, BO, "leaderboard", game=SMALL)))
    assert "Cy\\_\\*" in text and "Cy_*" not in text
    last = table[-1]
    assert last.place > 1 and last.user_id is not None
    monkeypatch.setattr(sys.modules["bot.cogs.ratings"], "TOP", 1)  # the extension's module
    text = content(answer(await command(h, last.user_id, "leaderboard", game=SMALL)))
    assert rows_of(text) == [
        f"1. {table[0].name} · {table[0].rating:,} (provisional) · {table[0].games} games"
    ]
    games = f"{last.games} game" + ("s" if last.games != 1 else "")
    assert f"You: {last.place}. of 3 · {last.rating:,} (provisional) · {games}" in text


@SLOW
async def test_rating_tells_the_history_newest_first(fake: FakeDiscord, played: Harness) -> None:
    h = played
    t = h.client.tables  # type: ignore[attr-defined]
    row, history = await t.svc.ratings.of(GUILD_ID, SMALL, BO)
    assert row is not None and len(history) == 3
    for asker, target in ((BO, None), (ANA, BO)):
        said = answer(await command(h, asker, "rating", user=target))
        text = content(said)
        assert private(said)
        assert f"<@{BO}>" in text.splitlines()[0]
        assert f"{row.rating:,} (provisional) · {row.place}. of 2 · 3 rated games" in text
        lines = [x for x in text.splitlines() if x.startswith("- #")]
        assert len(lines) == 3
        for line, h_ in zip(lines, reversed(history), strict=True):
            assert line.startswith(f"- #{h_.game_id} · <t:")
            assert f"place {h_.place} · {h_.before:,} → {h_.after:,}" in line
        # each game starts where the one before ended
        assert [c.before for c in history[1:]] == [c.after for c in history[:-1]]
    # a game named; a player without rated games
    text = content(answer(await command(h, CY, "rating", game=SMALL)))
    assert "has no rated game of" in text
    text = content(answer(await command(h, CY, "rating")))
    assert "has no rated game on this server yet" in text


async def test_an_unknown_game_is_refused_naming_the_games(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    said = answer(await command(h, ANA, "leaderboard", game="chess"))
    assert private(said) and "I do not know the game `chess`" in content(said)
    assert all(tr("en", key) in content(said) for _, key in catalog.game_titles())


@SLOW
async def test_seasons_are_for_managers_and_keep_their_final_table(
    fake: FakeDiscord, played: Harness
) -> None:
    h = played
    t = h.client.tables  # type: ignore[attr-defined]
    # without Manage Server: refused, privately, nothing started, nothing posted
    tries: tuple[tuple[str, dict[str, Any]], ...] = (
        ("start", {"game": SMALL, "name": "Spring"}),
        ("end", {"game": SMALL}),
    )
    for sub, opts in tries:
        reqs = await command(h, BO, "season", sub, perms=MANAGE_CHANNELS, **opts)
        said = answer(reqs)
        assert private(said) and "Manage Server" in content(said)
    assert await t.svc.ratings.seasons(GUILD_ID, SMALL) == []
    group = h.client.tree.get_command("season")  # type: ignore[attr-defined]
    assert group is not None and group.default_permissions is not None
    assert group.default_permissions.manage_guild
    # no season yet: /season end says so
    said = answer(await command(h, ANA, "season", "end", perms=MANAGE_GUILD, game=SMALL))
    assert private(said) and "No season of" in content(said)
    # started by a manager: told in the channel (public), pinging nobody
    said = answer(
        await command(
            h, ANA, "season", "start", perms=MANAGE_GUILD, game=SMALL, name="Spring  2027"
        )
    )
    assert not private(said) and "Season **Spring 2027**" in content(said)
    assert (said.json.get("data") or said.json).get("allowed_mentions", {}).get("parse") == []
    # a second start while it runs: refused
    said = answer(
        await command(h, ANA, "season", "start", perms=MANAGE_GUILD, game=SMALL, name="Other")
    )
    assert private(said) and "is still running" in content(said)
    # one match in the season: the season's table has it alone
    await match(h, fake, BO, ANA, seed=40)
    season = (await t.svc.ratings.seasons(GUILD_ID, SMALL))[-1]
    stable = await t.svc.ratings.table(GUILD_ID, SMALL, season=season.number)
    assert {r.games for r in stable} == {1}
    text = content(answer(await command(h, CY, "leaderboard", game=SMALL, season="spring 2027")))
    assert text.splitlines()[0].endswith("season Spring 2027")
    assert rows_of(text) == [
        f"{r.place}. {r.name} · {r.rating:,} (provisional) · 1 game" for r in stable
    ]
    # ended: its final table is kept and shown as such; the all-time table goes on
    said = answer(await command(h, ANA, "season", "end", perms=MANAGE_GUILD, game=SMALL))
    assert not private(said) and "is over" in content(said)
    await match(h, fake, ANA, BO, seed=41)
    text = content(answer(await command(h, CY, "leaderboard", game=SMALL, season="Spring 2027")))
    assert "(over: its final table)" in text.splitlines()[0]
    assert f"/s/{GUILD_ID}/leaderboard/{SMALL}?season={season.number}>" in text
    assert rows_of(text) == [
        f"{r.place}. {r.name} · {r.rating:,} (provisional) · 1 game" for r in stable
    ]
    alltime = content(answer(await command(h, CY, "leaderboard", game=SMALL)))
    assert all(" · 5 games" in r for r in rows_of(alltime))
    # an unknown season: told, with the seasons there are
    text = content(answer(await command(h, CY, "leaderboard", game=SMALL, season="Winter")))
    assert "no season called “Winter”" in text and "Seasons: Spring 2027." in text
    # the name is taken now
    said = answer(
        await command(h, ANA, "season", "start", perms=MANAGE_GUILD, game=SMALL, name="spring 2027")
    )
    assert private(said) and "already had a season called" in content(said)


async def test_no_hard_coded_english_in_the_replies(fake: FakeDiscord, make_bot: BotMaker) -> None:
    """A user reading the pseudo-language sees every reply of these commands in brackets."""
    from i18n import PSEUDO
    from tests.i18n.pseudo import unbracketed_words

    fake.users.update(NAMES)
    h = await make_bot()
    await h.client.tables.svc.languages.set_user_language(CY, PSEUDO)  # type: ignore[attr-defined]
    for reqs in (
        await command(h, CY, "leaderboard", game=SMALL),
        await command(h, CY, "leaderboard", game="chess"),
        await command(h, CY, "leaderboard", game=SMALL, season="Spring"),
        await command(h, CY, "rating"),
        await command(h, CY, "rating", game=SMALL),
        await command(h, CY, "season", "end", perms=MANAGE_GUILD, game=SMALL),
        await command(h, CY, "season", "start", perms=MANAGE_CHANNELS, game=SMALL, name="X"),
    ):
        text = content(answer(reqs))
        assert text.startswith("[") and unbracketed_words(text, ["Pseudo"]) == [], text
