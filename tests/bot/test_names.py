"""Menus and buttons speak the game's words (issue 22), end to end: a game played through the
guided turn (Take my turn → menus → Confirm) against the fake Discord server, every menu
option's label and every confirmation scanned for the engine's notation ids (``I-3``,
``queen_victoria``, ``sawmill``, ``brawler2``, card ids) where the catalog has a name. The
command itself stays shown, in code, after the name."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from rules.brazil import deciders, get_catalog
from rules.brazil.catalog import GOODS
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, custom_ids
from tests.bot.test_game import ANA, Game, start_against_ai


def notation_ids() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Two patterns of the catalog's ids that have a name of their own: every such id (for
    labels and names: ``sawmill``, ``militia``, ``I-3``), and the id-shaped ones only (an
    underscore, a digit or a hyphen: ``queen_victoria``, ``brawler2``) for prose, where a
    card's text may say "retreat" as a plain word."""
    cat = get_catalog(None)
    named: dict[str, str] = {}
    for table in (
        cat.missions,
        cat.monarchs,
        cat.sides,
        cat.cities,
        cat.capitals,
        cat.gold_cards,
        cat.combat_cards,
        cat.paintings,
        cat.exploration,
        cat.products,
        cat.colours,
    ):
        for ident, entry in table.items():
            named[ident] = entry.name
    for u in cat.units.values():
        named[u.id] = u.name
    for g in GOODS:
        named[g] = g.replace("_", " ")
    words = {w for g in GOODS for w in g.split("_")}  # "coffee" the good, "sugar" in "sugar cane"
    every = {i for i, name in named.items() if i != name and i not in words}
    shaped = {i for i in every if re.search(r"[_\d-]", i)}

    def pattern(ids: set[str]) -> re.Pattern[str]:
        alts = "|".join(map(re.escape, sorted(ids, key=len, reverse=True)))
        return re.compile(rf"(?<![\w-])({alts})(?![\w-])")

    return pattern(every), pattern(shaped)


def _menu_msg(g: Game) -> dict[str, Any]:
    return g.fake.messages[
        max(
            m
            for m, v in g.fake.messages.items()
            if any(c.startswith("brz:s:") for c in custom_ids(v))
        )
    ]


class Scanner:
    def __init__(self) -> None:
        self.every, self.shaped = notation_ids()
        self.found: list[str] = []
        self.labels: list[str] = []
        self.confirms: list[str] = []

    def menu(self, msg: dict[str, Any]) -> None:
        self.prose(str(msg.get("content") or ""))
        for c in Game.walk(msg):
            for o in c.get("options", []) if c.get("custom_id", "").startswith("brz:s:") else []:
                self.labels.append(o["label"])
                self.name(o["label"], "option label")
                self.prose(o.get("description") or "", "option description")

    def confirm(self, content: str) -> None:
        self.confirms.append(content)
        bold = re.findall(r"\*\*(.+?)\*\*", content)
        assert bold, content
        for b in bold:
            self.name(b, "confirmation name")
        assert re.search(r"`[^`]+`", content), f"the command in code: {content}"
        self.prose(content, "confirmation")

    def name(self, text: str, where: str = "") -> None:
        hit = self.every.search(text)
        if hit:
            self.found.append(f"{hit.group(0)!r} in {where}: {text}")

    def prose(self, text: str, where: str = "text") -> None:
        text = re.sub(r"`[^`]*`", "", text)  # the command one may type: notation on purpose
        hit = self.shaped.search(text)
        if hit:
            self.found.append(f"{hit.group(0)!r} in {where}: {text[:200]}")


async def play_guided(g: Game, rng: random.Random, scan: Scanner) -> None:
    """Take my turn → a random option at each menu → Confirm, scanning every step."""
    h = g.h
    post = g.last_turn_post()
    turn = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
    await h.click(ANA, post, turn)
    msg = _menu_msg(g)
    for _ in range(12):
        confirm = [c for c in custom_ids(msg) if c.startswith("brz:c:")]
        if confirm:
            scan.confirm(str(msg.get("content") or ""))
            await h.click(ANA, msg, confirm[0])
            if any(c.startswith("brz:s:") for c in custom_ids(msg)):
                scan.menu(msg)  # "Done. Still yours:" and the next menu
            return
        scan.menu(msg)
        sel = next(c for c in Game.walk(msg) if c.get("custom_id", "").startswith("brz:s:"))
        await h.select(ANA, msg, sel["custom_id"], rng.choice(sel["options"])["value"])
    raise AssertionError("the guided flow did not reach Confirm")


@pytest.mark.slow
async def test_menus_and_confirmations_name_things_not_ids(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    g = Game(fake, h)
    await start_against_ai(fake, h)
    rng = random.Random(22)
    scan = Scanner()
    for _ in range(400):
        _, st = await g.state()
        if st.phase == "ended" or len(scan.confirms) >= 90:
            break
        assert 0 in deciders(st), "the AI seat plays by itself"
        await play_guided(g, rng, scan)
    assert scan.found == [], "\n".join(scan.found[:20])
    assert len(scan.confirms) >= 30
    # what the menus showed: names where the notation has ids
    cat = get_catalog(None)
    shown = "\n".join(scan.labels + scan.confirms)
    assert any(m.name in shown for m in cat.missions.values()), "missions by name"
    assert any(m.name in shown for m in cat.monarchs.values()), "monarchs by name"
    assert any(s.name in shown for s in cat.sides.values()), "buildings by name"
    assert any(lab.startswith("Keep missions: ") for lab in scan.labels)
    assert any(lab.startswith("Monarch: ") for lab in scan.labels)
    # the command stays shown after the name, in code: `keep I-3 II-7 III-4`
    assert any(re.search(r"`keep I+-\d", c) for c in scan.confirms)


def test_the_scan_finds_ids() -> None:
    """The scan is not blind: notation as the menus showed it before issue 22 is caught."""
    scan = Scanner()
    for old in (
        "keep I-3 II-7 III-4",
        "monarch queen_victoria",
        "build sawmill D3",
        "cards militia",
        "move brawler2 E5",
        "gold in_hoc_signo_vinces",
    ):
        scan.name(old)
    assert len(scan.found) == 6, scan.found
    scan.found.clear()
    for ok in (
        "Keep missions: Sugar Mills of Pernambuco",
        "Monarch: Queen Victoria",
        "Build: Sawmill at D3",
        "Move: Brawler 2 to E5",
        "Import: sugar cane",
    ):
        scan.name(ok)
    assert scan.found == []
