"""Every public text of every registered game is a sentence in the table's language with
names, never ids (issue #29, item 6): seeded games of computer players through the service
(:class:`service.GameService`), in English and in other languages, and every public post,
every public event's sentence with the players named (:meth:`~service.games.GameAdapter.log_text`;
not the engine's own :meth:`~service.games.GameAdapter.event_text`, which names players by
colour for want of seats) and the log checked.

What a text may not hold (:func:`defects`):

- an *internal id*: the last part of a key of the English catalogue (the platform's and every
  registered game's engine messages, :func:`i18n.catalogue`) that no word of a sentence looks
  like — one holding ``_`` or mixing letters and digits: the ids of components named by the
  ``term.*`` keys (``sugar_cane``, ``sepe_tiaraju``, ``war_chest``, the missions' ``I-3``, the
  units' ``archer1``) and of the keys themselves. Text between backticks is a typed command
  (a hint such as ```keep I-3 II-7```): its ids are the notation, and are not checked;
- an empty list: a colon or an opening parenthesis followed by nothing before the end of the
  clause (``removed: .``, ``hand: ;``, ``()``), or a list joiner with nothing after it;
- a colour where the player is named as the winner (``Red wins.``): a colour name of the
  catalogue (``term.colour.*``) directly before ``wins``/``win`` and not in parentheses;

and in English only (the mistakes a reader notices first):

- ``a`` before a vowel sound (``a academy``) or ``an`` before a consonant;
- a number and a noun of a countable thing that disagree (``1 red points``, ``2 tile``).

The quick variant plays one seed per game and language; the slow one many more.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from i18n.catalogue import catalogue
from service import GameService, Result
from service.games import adapter
from storage import SqliteGameStore
from tests.conformance.common import GAMES, player_counts

LANGS = ("en", "fr")
"""English and one other language (every check but the English grammar holds in each)."""

QUICK_SEEDS = (1,)
SLOW_SEEDS = tuple(range(2, 10))
MAX_STEPS = 3_000
"""A game not over after this many steps is checked as far as it went."""


# ---------------------------------------------------------------------------- the rules


@functools.cache
def internal_ids() -> frozenset[str]:
    """The ids no sentence may show (see the module docstring)."""
    out = set()
    for key in catalogue("en").messages:
        last = key.rsplit(".", 1)[-1]
        if "_" in last or (re.search(r"\d", last) and re.search(r"[A-Za-z]", last)):
            out.add(last)
    return frozenset(out)


@functools.cache
def _id_pattern() -> re.Pattern[str]:
    ids = sorted(internal_ids(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")


@functools.cache
def _colour_pattern() -> re.Pattern[str]:
    names = {
        v.strip()
        for k, v in catalogue("en").messages.items()
        if k.startswith("term.colour.") and v.strip()
    }
    alts = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(r"(?<![(\w])(" + alts + r") (?:wins|win)\b")


_CODE = re.compile(r"`[^`]*`")
_EMPTY = (
    # "removed: ." / "hand: ;" / a text or a paragraph ending ":"
    re.compile(r":[ \t]*(?:[.;,)]|\Z|\n[ \t]*(?:\n|\Z))"),
    re.compile(r"\([ \t]*\)"),  # "()"
    re.compile(r"(?:,| and| \+)[ \t]*[.;:)]"),  # "a, ." / "x and ."
)
_ARTICLE = (
    # "a academy", "a unit" is right ("a yoo-"), "a one" too
    re.compile(r"\b[Aa] (?!uni|use|usu|eu|one\b|once\b)[aeiouAEIOU]\w*"),
    # "an sawmill" ("an hour", "an honest" are right; "an FP" reads "an eff-")
    re.compile(r"\b[Aa]n (?!hour|honest|heir|[A-Z]{2})[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z]\w*"),
)
_COUNTED = (
    "point",
    "tile",
    "card",
    "unit",
    "mission",
    "supporter",
    "temple",
    "leader",
    "treasure",
    "building",
    "painting",
    "resource",
    "round",
    "turn",
    "step",
    "player",
    "monument",
)
_ONE_MANY = re.compile(r"(?<![\d.,])\b1 (?:[a-z]+ )?(?:" + "|".join(_COUNTED) + r")s\b")
_MANY_ONE = re.compile(
    r"(?<![\d.,])\b(?:0|[2-9]|[1-9]\d+) (?:[a-z]+ )?(?:" + "|".join(_COUNTED) + r")\b(?!s)"
)


def defects(text: str, lang: str) -> list[str]:
    """What is wrong with ``text`` (see the module docstring): one line per defect."""
    prose = _CODE.sub("`…`", text)
    out = [f"internal id {m.group(1)!r}" for m in _id_pattern().finditer(prose)]
    for pat in _EMPTY:
        out += [f"empty list {m.group(0)!r}" for m in pat.finditer(prose)]
    out += [f"a colour wins {m.group(0)!r}" for m in _colour_pattern().finditer(prose)]
    if lang == "en":
        for pat in _ARTICLE:
            out += [f"article {m.group(0)!r}" for m in pat.finditer(prose)]
        out += [f"plural {m.group(0)!r}" for m in _ONE_MANY.finditer(prose)]
        out += [f"singular {m.group(0)!r}" for m in _MANY_ONE.finditer(prose)]
    return out


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("Ana pays 1 sepe tiaraju card.", False),  # the id's words: not told from a name
        ("Ana pays 1 sepe_tiaraju card.", True),
        ("reserve: sugar_cane 1", True),
        ("Ana plays [war_chest].", True),
        ("Ana keeps I-3.", True),
        ("Type `keep I-3 II-7` to keep them.", False),
        ("Ana builds a academy at D3.", True),
        ("Ana builds an academy at D3.", False),
        ("Ana takes a unification tile.", False),
        ("0 tiles of Bo (Bull)'s side removed: .", True),
        ("Ana's hand: ; her missions: none.", True),
        ("The game is over. Red wins.", True),
        ("The game is over. Ana (red) wins.", False),
        ("Ana gains 1 red points.", True),
        ("Ana gains 1 red point.", False),
        ("Ana draws 2 tile.", True),
        ("Final scores:\n  Ana: 3 VP", False),
    ],
)
def test_the_rules_tell_a_defect(text: str, wrong: bool) -> None:
    assert bool(defects(text, "en")) is wrong, defects(text, "en")


# ---------------------------------------------------------------------------- the games


async def _texts(tmp: Path, game: str, players: int, seed: int, lang: str) -> list[str]:
    """Every text of one seeded game of random computer players in ``lang``: every post
    (public and private), every public event's sentence, the log, and each seat's hand every
    few steps."""
    A = adapter(game)
    texts: list[str] = []
    async with SqliteGameStore(str(tmp / f"{game}-{seed}-{lang}.sqlite3")) as store:
        svc = GameService(store)
        try:
            res = await svc.new_game(["ai:random"] * players, game=game, seed=seed, language=lang)
            assert res.ok, res
            seats = (await svc.peek(res.game_id)).seats

            def collect(r: Result) -> None:
                texts.extend(p.text for p in r.posts)
                for frame in r.frames.values():
                    events = A.public(frame.events)
                    texts.extend(A.log_text(e, frame.state, seats, lang) for e in events)
                    if frame.version % 10 == 0 or r.over:
                        texts.extend(
                            A.hand_text(frame.state, seats, s, lang) for s in range(players)
                        )

            collect(res)
            await svc.run_ai_turns(res.game_id, on_step=collect, max_steps=MAX_STEPS)
            texts.extend(await svc.reading.log(res.game_id, last=10_000, lang=lang))
        finally:
            await svc.aclose()
    return texts


def _cases(seeds: tuple[int, ...]) -> Iterator[Any]:
    for game in GAMES:
        counts = player_counts(game)
        for lang in LANGS:
            for seed in seeds:
                yield pytest.param(game, counts[seed % len(counts)], seed, lang)


async def _check(tmp: Path, game: str, players: int, seed: int, lang: str) -> None:
    texts = await _texts(tmp, game, players, seed, lang)
    assert texts
    found: dict[str, str] = {}
    for text in texts:
        for d in defects(text, lang):
            found.setdefault(d, text)
    report = "\n".join(f"{d}: in {t!r}" for d, t in sorted(found.items()))
    assert not found, f"{len(found)} defects:\n{report}"


@pytest.mark.parametrize(("game", "players", "seed", "lang"), list(_cases(QUICK_SEEDS)))
async def test_public_texts_name_things_in_sentences(
    tmp_path: Path, game: str, players: int, seed: int, lang: str
) -> None:
    await _check(tmp_path, game, players, seed, lang)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "seed", "lang"), list(_cases(SLOW_SEEDS)))
async def test_public_texts_of_many_games_name_things_in_sentences(
    tmp_path: Path, game: str, players: int, seed: int, lang: str
) -> None:
    await _check(tmp_path, game, players, seed, lang)
