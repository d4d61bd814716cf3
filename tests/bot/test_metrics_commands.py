"""The interactions' figures in ``/metrics`` (issue 30), end to end: slash commands, button
presses and refusals through discord.py against the fake Discord server, then ``/metrics``
scraped from the bot's ops server. Per command and per button kind: the first answer's and
the handler's histograms count each interaction once; refused commands are counted by command
and reason; no label value holds a user, a game, a channel or an interaction id."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import TurnpostBot
from bot.discord_views import NO_SEAT_KEY
from bot.ops import component_name
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord, custom_ids
from tests.bot.test_game import ANA, BO, CH, start_against_ai
from tests.bot.test_ops import get

FIRST = "turnpost_interaction_first_response_seconds"
TOTAL = "turnpost_interaction_seconds"
REFUSALS = "turnpost_command_refusals"
LABELS = ("kind", "name", "command", "reason")

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
async def ops_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotMaker]:
    async with bot_maker(fake, tmp_path / "bot.sqlite3", ops_port=0) as make:
        yield make


async def scrape(bot: TurnpostBot) -> Samples:
    """Every sample of the interactions' families: (sample name, sorted labels) -> value."""
    status, text = await get(bot, "/metrics")
    assert status == 200
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        if family.name in (FIRST, TOTAL, REFUSALS):
            for s in family.samples:
                out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def count(samples: Samples, family: str, **labels: str) -> float:
    """A histogram's ``_count`` (or a counter's ``_total``) with exactly these labels."""
    suffix = "_total" if family == REFUSALS else "_count"
    return samples.get((family + suffix, tuple(sorted(labels.items()))), 0.0)


def delta(after: Samples, before: Samples, family: str, **labels: str) -> float:
    return count(after, family, **labels) - count(before, family, **labels)


async def test_commands_and_presses_are_timed_and_refusals_counted(
    fake: FakeDiscord, ops_bot: BotMaker
) -> None:
    h = await ops_bot()
    bot: TurnpostBot = h.client  # type: ignore[assignment]
    before = await scrape(bot)
    await start_against_ai(fake, h)  # /game new, then the lobby's Start button (brz:l)
    await h.command(ANA, CH, "play", command="colour blue")
    await h.command(BO, CH, "play", command="colour red")  # Bo has no seat: refused
    await h.command(ANA, 556, "board")  # no game in that channel: refused
    await h.autocomplete(ANA, CH, "play", "command", "b")  # not measured
    after = await scrape(bot)

    for family in (FIRST, TOTAL):  # one observation per interaction, whatever it sent
        assert delta(after, before, family, kind="command", name="game new") == 1
        # two /play (the autocomplete of its option is not an answer to measure)
        assert delta(after, before, family, kind="command", name="play") == 2
        assert delta(after, before, family, kind="command", name="board") == 1
        assert delta(after, before, family, kind="button", name="brz:l") == 1
    assert delta(after, before, REFUSALS, command="play", reason="no_seat") == 1
    assert delta(after, before, REFUSALS, command="board", reason="no_game") == 1
    assert delta(after, before, REFUSALS, command="game new", reason="no_seat") == 0
    refused = sum(v for (n, _), v in after.items() if n == REFUSALS + "_total") - sum(
        v for (n, _), v in before.items() if n == REFUSALS + "_total"
    )
    assert refused == 2  # /game new and Ana's /play were not refused

    # the labels are names and kinds, never an id (users 101/102, channel 555, the game's,
    # the interactions' snowflakes): no label value but a bucket's bound holds a digit
    values = {v for (_, labels) in after for k, v in labels if k in LABELS}
    assert values >= {"command", "button", "game new", "play", "brz:l", "no_seat", "no_game"}
    assert not [v for v in values if re.search(r"\d", v)], values
    for uid in (str(ANA), str(BO), str(CH)):
        assert not [v for v in values if uid in v]


async def test_a_press_of_each_button_kind_is_labelled_by_its_prefix(
    fake: FakeDiscord, ops_bot: BotMaker
) -> None:
    """Pressing the turn post's *Take my turn* (``brz:t:GAME:VERSION``) by the player and by
    a spectator: both counted under ``brz:t``, never under the game or the version; the
    spectator's refused."""
    h = await ops_bot()
    bot: TurnpostBot = h.client  # type: ignore[assignment]
    await start_against_ai(fake, h)
    post = next(
        m
        for m in reversed(list(fake.messages.values()))
        if any(c.startswith("brz:t:") for c in custom_ids(m))
    )
    take = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
    before = await scrape(bot)
    await h.click(ANA, post, take)
    await h.click(BO, post, take)  # not Bo's turn: answered privately, counted the same
    after = await scrape(bot)
    assert delta(after, before, FIRST, kind="button", name="brz:t") == 2
    assert delta(after, before, TOTAL, kind="button", name="brz:t") == 2
    # Bo's press refused (no seat: a spectator), counted by the button's kind and the key
    assert delta(after, before, REFUSALS, command="brz:t", reason=NO_SEAT_KEY) == 1
    game = take.split(":")[2]
    names = {v for (_, labels) in after for k, v in labels if k == "name"}
    assert not [n for n in names if game in n]


def test_component_names_are_bounded() -> None:
    assert component_name("brz:t:12:40") == "brz:t"
    assert component_name("brz:c:3:7:1") == "brz:c"
    assert component_name("0f1e2d3c4b5a69788796a5b4c3d2e1f0") == "other"  # discord.py's own
    assert component_name("brz:123") == "other"
    assert component_name("") == "other"
    assert component_name("x" * 40 + ":y") == "other"
