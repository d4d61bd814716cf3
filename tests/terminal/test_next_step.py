"""Issue 29 item 8: the terminal says the next step. After every step it says what is still
possible in the game's words (``you may still: …; `end` to finish``); a mission's objectives
show wherever it can be chosen (the keep decision, ``legal``) or looked up (``rules I-1``,
``rules <name>``); a resumed game is greeted with its last steps and whose turn it is, the
players named; each game has its own ``help`` lines; a game played from its first step has
its first picture written at once."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import pytest

import i18n
from i18n.notation import localize
from service import catalog
from terminal import local
from terminal.local import LocalGame, ScriptSource, help_text

LANGS = ("en", "fr", "de", "hu", "pl", "pt-BR")


def _args(tmp_path: Path, *argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    local.add_arguments(p)
    base = ["--db", str(tmp_path / "g.sqlite3"), "--out", str(tmp_path / "out")]
    return p.parse_args([*base, "--workers", "0", *argv])


def _play(tmp_path: Path, lines: list[str], *argv: str) -> str:
    out = io.StringIO()

    def source(game: LocalGame) -> ScriptSource:
        return ScriptSource(lines, out)

    assert asyncio.run(local.play(_args(tmp_path, *argv), out=out, make_source=source)) == 0
    return out.getvalue()


def test_the_hint_says_what_is_still_possible_in_the_game_s_words(tmp_path: Path) -> None:
    script = ["colour green"]
    first = _play(tmp_path, script, "--seats", "Ana,ai:heuristic", "--seed", "3")
    assert "  you may: Colour" in first  # the first decision, before the prompt
    # the missions Ana was dealt, with their objectives, shown where she keeps them
    missions = re.findall(r"^  ((I{1,3})-\d+) .+ — era \2, \d+ VP: .+$", first, re.M)
    assert {era for _, era in missions} == {"I", "II", "III"}, first
    keep = [
        "keep " + " ".join(next(m for m, e in missions if e == era) for era in ("I", "II", "III"))
    ]
    (tmp_path / "b").mkdir()
    text = _play(tmp_path / "b", [*script, *keep], "--seats", "Ana,ai:heuristic", "--seed", "3")
    assert "  you may still: Monarch" in text  # after her own step, what is left of it


def test_a_tigris_step_names_what_is_left_and_the_step_that_finishes(tmp_path: Path) -> None:
    out = tmp_path / "out"
    text = _play(tmp_path, [], "--game", "tigris", "--seats", "Ana,ai:heuristic", "--seed", "3")
    assert "  you may: tile, leader, catastrophe, swap; `pass` to finish" in text
    # the first picture: the board of a game played from its first step, written at once
    assert sorted(p.name for p in out.iterdir()) == ["v0000-map-public.png"]


def test_the_hint_after_a_step_of_one_s_own_says_still(tmp_path: Path) -> None:
    async def first_tile() -> str:
        from service import GameService
        from storage import SqliteGameStore

        async with SqliteGameStore(str(tmp_path / "probe.sqlite3")) as store:
            svc = GameService(store)
            res = await svc.new_game(["Ana", "ai:heuristic"], game="tigris", seed=3)
            s = await svc.peek(res.game_id)
            return next(t for t in s.legal_texts(0) if t.startswith("tile"))

    tile = asyncio.run(first_tile())
    text = _play(tmp_path, [tile], "--game", "tigris", "--seats", "Ana,ai:heuristic", "--seed", "3")
    assert "  you may still: tile, leader, catastrophe, swap; `pass` to finish" in text


def test_a_resumed_game_is_greeted_with_its_last_steps_and_whose_turn(tmp_path: Path) -> None:
    _play(tmp_path, ["colour green"], "--seats", "Ana,ai:heuristic", "--seed", "3")
    text = _play(tmp_path, [], "--resume", "1")
    greeting = text.split("The last steps:", 1)[1]
    assert "  v1: Ana plays green." in greeting  # the log names players, not seats
    assert "Seat " not in greeting
    assert "To play now: Ana (green)" in greeting
    assert greeting.index("To play now") > greeting.index("v1:")


def test_the_log_names_the_players(tmp_path: Path) -> None:
    text = _play(tmp_path, ["colour green", "log"], "--seats", "Ana,ai:heuristic", "--seed", "3")
    log = text.split("Ana (green)> log", 1)[1]
    assert "v1: Ana plays green." in log
    assert "Computer (normal) (blue)" in log  # the computer seat by its level
    assert "Seat 1" not in log and "Seat 2" not in log


def test_rules_looks_missions_up_by_id_and_by_name(tmp_path: Path) -> None:
    lines = ["rules I-1", "rules brazilwood coast", "rules paraguayan war", "rules build 4"]
    text = _play(tmp_path, lines, "--seats", "Ana,ai:heuristic", "--seed", "3")
    brazilwood = "I-1 The Brazilwood Coast — era I, 1 VP: 2 sawmills, 1 sugar-cane field"
    assert text.count(brazilwood) == 2
    assert "III-5 Paraguayan War — era III" in text
    assert "R-BUILD-4 — " in text  # the rules reference still answers the rest


@pytest.mark.parametrize("lang", LANGS)
def test_missions_are_looked_up_in_every_language(lang: str) -> None:
    name = i18n.tr(lang, "term.mission.I-1")
    (found,) = catalog.lookup(name.lower(), "brazil", lang)
    assert found.startswith(f"I-1 {name} — ")
    assert catalog.lookup("I-1", "brazil", lang) == [found]
    assert catalog.lookup("I-1", "tigris", lang) == []  # a game without missions


@pytest.mark.parametrize("lang", LANGS)
def test_each_game_has_its_own_help(lang: str) -> None:
    brazil, tigris = help_text(lang, "brazil"), help_text(lang, "tigris")
    assert "R-BUILD-4" in brazil and "I-1" in brazil
    assert localize("build sawmill D3", lang) in brazil
    assert "T-WAR-6" in tigris and localize("tile red F4", lang, "tigris") in tigris
    plain = [help_text(lang, g) for g in catalog.games() if not catalog.help_keys(g)]
    assert plain, "a registered game without help lines of its own (the example game)"
    for other in (tigris, *plain):
        assert "R-BUILD-4" not in other and localize("build sawmill", lang) not in other
        assert "I-1" not in other
    for text in plain:  # the terminal's generic lines
        assert i18n.tr(lang, "terminal.help.rules") in text
        assert i18n.tr(lang, "terminal.help.score") in text
    assert "{" not in "".join([brazil, tigris, *plain])


def test_help_in_the_game_is_the_game_s(tmp_path: Path) -> None:
    text = _play(tmp_path, ["help"], "--game", "tigris", "--seats", "Ana,ai:heuristic")
    assert "rules T-WAR-6" in text
    assert "bombard" not in text and "missions" not in text and "sawmill" not in text
