"""A player's games in one place (issue #30), end to end: discord.py's real code against the
fake Discord server, over two servers and a DM.

- ``/games mine`` lists the player's games on every server the bot shares with them (their
  turn first, then waiting, then lobbies), each with its server's name, its game's title and
  a jump link to the turn post; in a DM too; a server the bot left says so.
- ``/away duration:… all:True`` sets away in every running game (each game's own limits: one
  refuses, the others are set), tells each game's channel; ``/away duration:end all:True``
  ends them all.
- ``/server settings``: shown and changed by members with Manage Server, refused to others;
  its cap on games per player refuses a new lobby and a join (nothing changes) and allows
  them under the cap."""

from __future__ import annotations

from typing import Any

from bot.app import TurnpostBot
from bot.cogs.game import fit_lines
from i18n import tr
from rules.games import game as game_face
from service.pacing import PacingSettings
from storage.models import GuildSettings
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import GUILD_ID, FakeDiscord, Harness, Request

G2 = 800_000_000_000_000_002
SECOND = "Second server"
CH1, CH2, CH3 = 555, 556, 557
DM = 9_001  # Ana's DM channel with the bot
ANA, BO, CY = 101, 102, 103
MANAGE_GUILD = str(1 << 5)
MANAGE_CHANNELS = str(1 << 4)


def bot_of(h: Harness) -> TurnpostBot:
    assert isinstance(h.client, TurnpostBot)
    return h.client


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


async def click(
    h: Harness, uid: int, message: dict[str, Any], custom_id: str, guild_id: int
) -> list[Request]:
    data = {"custom_id": custom_id, "component_type": 2}
    ch = int(message["channel_id"])
    return await h.feed(h.fake.interaction(3, uid, ch, data, message, guild_id=guild_id))


async def server_settings(
    h: Harness, uid: int, guild_id: int, perms: str, **opts: Any
) -> list[Request]:
    """``/server settings`` from a member with the channel permissions ``perms``."""
    options = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in opts.items()
    ]
    data = {
        "id": str(next(h.fake.ids)),
        "name": "server",
        "type": 1,
        "options": [{"name": "settings", "type": 1, "options": options}],
    }
    payload = h.fake.interaction(2, uid, CH1, data, guild_id=guild_id)
    payload["member"]["permissions"] = perms
    return await h.feed(payload)


async def two_servers(fake: FakeDiscord, make_bot: BotMaker) -> tuple[Harness, list[int]]:
    """Ana's games: on the test server a game against a computer player (CH1); on the second
    server a game against Bo (CH2) and a lobby of hers (CH3). Their ids, in that order."""
    h = await make_bot()
    h.deliver_guild(G2, SECOND)
    t = bot_of(h).tables
    t.next_seed = 3
    await h.command(ANA, CH1, "game", "new", players=2, ai=1, ai_level="random")
    await h.click(ANA, fake.messages[max(fake.messages)], "brz:l:1:start")
    await h.command(BO, CH2, "game", "new", guild_id=G2, players=2, ai=0)
    lobby = fake.messages[max(fake.messages)]
    await click(h, ANA, lobby, "brz:l:2:join", G2)
    await click(h, BO, lobby, "brz:l:2:start", G2)
    await h.command(ANA, CH3, "game", "new", guild_id=G2, players=3, ai=0)
    ids = []
    for ch in (CH1, CH2, CH3):
        rec = await t.store.get_active_game(ch)
        assert rec is not None
        ids.append(rec.id)
    assert ids == [1, 2, 3]
    return h, ids


async def ana_decides(h: Harness, game_id: int) -> bool:
    """Whether Ana decides now in the game (read from its state, not from the bot's list)."""
    t = bot_of(h).tables
    rec = await t.store.get_game(game_id)
    st = await t.svc.state(game_id)
    return bool(set(rec.seats_of(ANA)) & set(game_face(rec.game).deciders(st)))


def title(game: str) -> str:
    return tr("en", f"game.{game}")


async def test_games_mine_lists_every_server_in_a_dm_turn_first(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h, (g1, g2, lobby) = await two_servers(fake, make_bot)
    t = bot_of(h).tables
    reqs = await h.command(ANA, DM, "games", "mine", guild_id=None)
    said = answer(reqs)
    text = content(said)
    lines = text.splitlines()
    assert len(lines) == 3, text
    # every game once, with its server's name and its game's title (its registration's)
    for gid, server in ((g1, "Turnpost test guild"), (g2, SECOND), (lobby, SECOND)):
        [line] = [x for x in lines if f"#{gid} " in x]
        assert server in line
        rec = await t.store.get_game(gid)
        assert title(rec.game) in line
        post = rec.settings.open_post
        guild = GUILD_ID if gid == g1 else G2
        if post is not None:  # a jump link to the turn post
            assert (
                f"https://discord.com/channels/{guild}/{rec.channel_id}/{post.message_id}" in line
            )
            assert "turn post" in line
        else:
            assert f"https://discord.com/channels/{guild}/{rec.channel_id})" in line
    # both running games keep a turn post; the lobby links its channel
    assert "turn post" in lines[0] or "turn post" in lines[1]
    assert lines[2].startswith("Lobby") and f"#{lobby} " in lines[2]
    # their turn first, then waiting (by the games' states)
    ranks = {g1: 0 if await ana_decides(h, g1) else 1, g2: 0 if await ana_decides(h, g2) else 1}
    order = [g for g in (g1, g2) if ranks[g] == 0] + [g for g in (g1, g2) if ranks[g] == 1]
    for line, gid in zip(lines, order, strict=False):
        assert f"#{gid} " in line
        assert line.startswith("**Your turn**" if ranks[gid] == 0 else "Waiting for others")
    # the same on a server, privately
    said = answer(await h.command(ANA, CH1, "games", "mine"))
    assert said.ephemeral and content(said) == text
    # Bo sees his one game, not Ana's others
    bo = content(answer(await h.command(BO, DM, "games", "mine", guild_id=None)))
    assert bo.count("\n") == 0 and f"#{g2} " in bo
    # the bot leaves the second server: its games say so
    h.client._connection.parse_guild_delete({"id": str(G2)})
    gone = content(answer(await h.command(ANA, DM, "games", "mine", guild_id=None)))
    assert SECOND not in gone and gone.count("a server I am no longer on") == 2
    # Discord offers the command in DMs (the group's contexts: guild and bot DM)
    tree = bot_of(h).tree
    for name in ("games", "away"):
        cmd = tree.get_command(name)
        assert cmd is not None
        assert sorted(cmd.to_dict(tree)["contexts"]) == [0, 1], name
    # somebody with no game
    none = content(answer(await h.command(CY, DM, "games", "mine", guild_id=None)))
    assert none == "You have no game running on any server we share."


async def test_away_all_on_two_servers_one_game_refusing(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h, (g1, g2, lobby) = await two_servers(fake, make_bot)
    t = bot_of(h).tables
    # a day away in both games, on both servers: each channel is told, in one answer
    reqs = await h.command(ANA, DM, "away", guild_id=None, duration="1d", all=True)
    text = content(answer(reqs))
    assert text.count("away until <t:") == 2 and SECOND in text and "Turnpost test guild" in text
    for ch in (CH1, CH2):
        told = [r for r in reqs if r.method == "POST" and r.path == f"/channels/{ch}/messages"]
        assert len(told) == 1 and "is away until" in told[0].json["content"], ch
    reqs = await h.command(ANA, DM, "away", guild_id=None, duration="end", all=True)
    assert content(answer(reqs)).count("back, your clock runs again") == 2
    for g in (g1, g2):
        assert [b.end is not None for b in await t.store.breaks(g)] == [True]
    # the second server's game allows 2 days away at a time
    await t.svc.pacing.save_settings(g2, PacingSettings(deadline_hours=24, away_max_hours=48))
    reqs = await h.command(ANA, DM, "away", guild_id=None, duration="3d", all=True)
    said = answer(reqs)
    assert said.ephemeral
    text = content(said)
    lines = text.splitlines()
    assert lines[0] == "Away in all your running games:" and len(lines) == 3, text
    [set_] = [x for x in lines if f"#{g1} " in x]
    [refused] = [x for x in lines if f"#{g2} " in x]
    assert "away until <t:" in set_ and "Turnpost test guild" in set_
    assert "unchanged" in refused and "at most 2d" in refused and SECOND in refused
    assert f"#{lobby} " not in text  # a lobby has no clock
    # the set game's channel is told, as /away does; the refusing game's is not
    told = [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH1}/messages"]
    assert len(told) == 1 and "is away until" in told[0].json["content"]
    assert not [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH2}/messages"]
    # the status message says so; the store has one away period, in the first game only
    rec = await t.store.get_game(g1)
    status = fake.messages[int(rec.settings.status_message_id or 0)]
    assert "is away until" in str(status["components"])
    assert [b.seat for b in await t.store.breaks(g1)] == [0, 0]
    assert len(await t.store.breaks(g2)) == 1  # the first day's only
    # back everywhere: the first game ends its away, the second was never away
    reqs = await h.command(ANA, DM, "away", guild_id=None, duration="end", all=True)
    lines = content(answer(reqs)).splitlines()
    assert lines[0] == "Back in all your running games:"
    assert "back, your clock runs again" in next(x for x in lines if f"#{g1} " in x)
    assert "not away" in next(x for x in lines if f"#{g2} " in x)
    told = [r for r in reqs if r.method == "POST" and r.path == f"/channels/{CH1}/messages"]
    assert len(told) == 1 and "is back" in told[0].json["content"]
    assert all(b.end is not None for b in await t.store.breaks(g1))
    # a text that does not read changes nothing anywhere
    said = answer(await h.command(ANA, DM, "away", guild_id=None, duration="soon", all=True))
    assert "not a duration" in content(said)
    assert len(await t.store.breaks(g1)) == 2


async def test_away_without_all_in_a_dm_says_how(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h = await make_bot()
    said = answer(await h.command(ANA, DM, "away", guild_id=None, duration="3d"))
    assert "all: True" in content(said)


async def test_server_cap_refuses_and_allows(fake: FakeDiscord, make_bot: BotMaker) -> None:
    h, (_, _, lobby) = await two_servers(fake, make_bot)
    t = bot_of(h).tables
    [her_lobby] = [m for m in fake.messages.values() if int(m["channel_id"]) == CH3]
    # shown without options, to a member with Manage Server
    shown = content(answer(await server_settings(h, CY, G2, MANAGE_GUILD)))
    assert "a thread of their own" in shown and "no cap" in shown
    said = answer(await server_settings(h, CY, G2, MANAGE_GUILD, max_games=2))
    assert said.ephemeral and "Saved." in content(said) and "lobbies included): 2" in content(said)
    assert (await t.store.get_guild_settings(G2)).max_running_games == 2
    # Ana holds two on the second server (a game and her lobby): no third lobby there
    said = answer(await h.command(ANA, 558, "game", "new", guild_id=G2, players=2))
    assert content(said).startswith("You are in 2 games on this server")
    assert said.ephemeral and await t.store.get_active_game(558) is None
    public = [m for m in fake.messages.values() if int(m["channel_id"]) == 558]
    assert all(int(m.get("flags") or 0) & 64 for m in public), public
    # nor may she join Cy's lobby there (the seat stays free)
    await h.command(CY, 559, "game", "new", guild_id=G2, players=2)
    cy = await t.store.get_active_game(559)
    assert cy is not None
    lobby_post = fake.messages[max(fake.messages)]
    said = answer(await click(h, ANA, lobby_post, f"brz:l:{cy.id}:join", G2))
    assert "You are in 2 games on this server" in content(said)
    assert (await t.store.get_game(cy.id)).seats_of(ANA) == []
    # the first server has no cap: a lobby there is fine
    await h.command(ANA, 560, "game", "new", players=2)
    assert await t.store.get_active_game(560) is not None
    # she leaves her lobby on the second server: under the cap, she may join Cy's
    await click(h, ANA, her_lobby, f"brz:l:{lobby}:leave", G2)
    assert (await t.store.get_game(lobby)).status.value == "abandoned"
    await click(h, ANA, lobby_post, f"brz:l:{cy.id}:join", G2)
    assert (await t.store.get_game(cy.id)).seats_of(ANA) == [1]
    # 0: no cap again
    said = answer(await server_settings(h, CY, G2, MANAGE_GUILD, max_games=0, place="channel"))
    assert "no cap" in content(said) and "the channel itself" in content(said)
    assert await t.store.get_guild_settings(G2) == GuildSettings(game_place="channel")


async def test_server_settings_refused_without_manage_server(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    t = bot_of(h).tables
    before = await t.store.get_guild_settings(GUILD_ID)
    for opts in ({}, {"max_games": 1}, {"place": "channel"}):
        reqs = await server_settings(h, BO, GUILD_ID, MANAGE_CHANNELS, **opts)
        said = answer(reqs)
        assert said.ephemeral and "Manage Server" in content(said)
        assert not [r for r in reqs if r.method == "POST" and "/channels/" in r.path]
    assert await t.store.get_guild_settings(GUILD_ID) == before
    # the command is hidden by default from members without it (Discord's side)
    cmd = bot_of(h).tree.get_command("server")
    assert cmd is not None and cmd.default_permissions is not None
    assert cmd.default_permissions.manage_guild


def test_a_long_list_shows_what_fits_then_how_many_more() -> None:
    lines = [
        f"**Your turn** · game #{n} · a server · [turn post](https://x/{n:04})" for n in range(80)
    ]
    text = fit_lines(lines, "en")
    shown = text.splitlines()
    assert len(text) <= 2000 and 1 < len(shown) < 80
    assert shown[:-1] == lines[: len(shown) - 1]
    assert shown[-1] == f"…and {80 - (len(shown) - 1)} more games."
    assert fit_lines(lines[:3], "en") == "\n".join(lines[:3])
    assert fit_lines(lines, "pl").splitlines()[-1].startswith("…i jeszcze")
