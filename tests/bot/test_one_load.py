"""One load per interaction (issue 16): a guided turn's Confirm press and a ``/play`` command,
each through discord.py's real code against the fake Discord server, read the game from the
store once, validate its state once, list the decider's choices once per state they show,
and take the game's one lock once.

Counted for exactly one interaction each (from the interaction to the bot's last request):
- loads: the store's ``get_game`` / ``get_active_game`` (the game record with its state);
- validations: ``GameState.model_validate_json`` (a state parsed from JSON);
- listings: ``legal_actions`` / ``legal_texts`` called by the service or the Discord side;
- lock acquisitions: the game's :class:`service.locks.GameLock` (the only lock map).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import random
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import rules.brazil.engine
import rules.brazil.notation
import rules.games
from rules.brazil import GameState
from tests.bot.conftest import BotMaker
from tests.bot.fakediscord import FakeDiscord, Harness, custom_ids
from tests.bot.test_game import ANA, CH, Game, start_against_ai

LOADS = ("get_game", "get_active_game")


class Counts:
    def __init__(self) -> None:
        self.store: Counter[str] = Counter()
        self.validations = 0
        self.listings: Counter[str] = Counter()
        self.active = False

    @property
    def loads(self) -> int:
        return sum(self.store[n] for n in LOADS)


@contextlib.contextmanager
def counting(h: Harness, mp: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Count what the bot does while the block runs (see module doc)."""
    c = Counts()
    store = h.client.tables.svc.store  # type: ignore[attr-defined]
    names = [n for n in dir(type(store)) if not n.startswith("_")]
    for name in names:
        fn = getattr(store, name)
        if not callable(fn) or not hasattr(type(store), name):
            continue

        def wrap(name: str, fn: Any) -> Any:
            @functools.wraps(fn)
            async def counted(*a: Any, **k: Any) -> Any:
                if c.active:
                    c.store[name] += 1
                return await fn(*a, **k)

            return counted

        import inspect

        if inspect.iscoroutinefunction(fn):
            mp.setattr(store, name, wrap(name, fn))
    original = GameState.model_validate_json.__func__  # type: ignore[attr-defined]

    def validate(cls: Any, *a: Any, **k: Any) -> Any:
        if c.active:
            c.validations += 1
        return original(cls, *a, **k)

    mp.setattr(GameState, "model_validate_json", classmethod(validate))
    listing = {
        "legal_actions": rules.brazil.engine.legal_actions,
        "legal_texts": rules.brazil.notation.legal_texts,
    }
    for modname, mod in list(sys.modules.items()):
        if mod is None or modname.split(".")[0] not in ("service", "bot"):
            continue
        for attr, val in list(vars(mod).items()):
            for kind, fn in listing.items():
                if val is fn:

                    def wrap_list(kind: str, fn: Any) -> Any:
                        @functools.wraps(fn)
                        def counted(*a: Any, **k: Any) -> Any:
                            if c.active:
                                c.listings[kind] += 1
                            return fn(*a, **k)

                        return counted

                    mp.setattr(mod, attr, wrap_list(kind, fn))
    # the service lists through the game's face (service.games): count there too
    from service.games import adapter

    A = adapter("brazil")
    face = A.face

    def face_listing(*a: Any, **k: Any) -> Any:
        if c.active:
            c.listings["legal_actions"] += 1
        return face.legal_actions(*a, **k)

    counted_face = dataclasses.replace(face, legal_actions=face_listing)
    mp.setattr(A, "face", counted_face)
    mp.setitem(rules.games._LOADED, "brazil", counted_face)
    c.active = True
    try:
        yield c
    finally:
        c.active = False
        if os.environ.get("COUNTS_PRINT"):  # the figures, for a before/after note
            print(f"\nstore calls {sum(c.store.values())}: {dict(c.store)}")
            print(f"validations {c.validations}; listings {dict(c.listings)}")


async def _ready(fake: FakeDiscord, make_bot: BotMaker) -> tuple[Harness, Game, int]:
    """A game of Ana against a computer player, at the start of Ana's first play turn."""
    h = await make_bot()
    g = Game(fake, h)
    await start_against_ai(fake, h)
    return h, g, await _to_anas_play_turn(g)


async def _to_anas_play_turn(g: Game) -> int:
    """Play typed random commands for Ana until her turn of the play phase begins."""
    for _ in range(400):
        gid, st = await g.state()
        if st.phase == "play" and st.current == 0 and not st.pending and 0 in _deciders(st):
            return gid
        await g.play_typed(st)
    raise AssertionError("Ana's turn never came")


def _deciders(st: GameState) -> list[int]:
    from rules.brazil import deciders

    return deciders(st)


@pytest.mark.slow
async def test_confirm_press_reads_the_game_once(
    fake: FakeDiscord, make_bot: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, g, gid = await _ready(fake, make_bot)
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    assert not hasattr(h.client.tables, "_locks"), "one lock owner: the service"  # type: ignore[attr-defined]

    # the guided flow up to a Confirm of a step that leaves the turn to Ana
    rng = random.Random(5)
    post = g.last_turn_post()
    turn = next(cid for cid in custom_ids(post) if cid.startswith("brz:t:"))
    await h.click(ANA, post, turn)
    msg = fake.messages[
        max(
            m
            for m, v in fake.messages.items()
            if any(c.startswith("brz:s:") for c in custom_ids(v))
        )
    ]
    confirm = None
    for _ in range(12):
        ids = custom_ids(msg)
        confirm = next((cid for cid in ids if cid.startswith("brz:c:")), None)
        if confirm is not None:
            break
        sel = next(c for c in g.walk(msg) if c.get("custom_id", "").startswith("brz:s:"))
        options = [o for o in sel["options"] if not o["label"].startswith(("End", "Pass"))]
        await h.select(ANA, msg, sel["custom_id"], rng.choice(options or sel["options"])["value"])
    assert confirm is not None, "the guided flow reached Confirm"

    lock = svc.lock(gid)
    taken = lock.acquisitions
    v0 = (await svc.places.record(gid)).version
    with counting(h, monkeypatch) as c:
        reqs = await h.click(ANA, msg, confirm)
    # the steps the service took after the press (a turn left with only its end, which ends
    # by itself, and the computer player's turn): one listing of each state they left
    others = (await svc.places.record(gid)).version - v0 - 1
    assert any("Done." in (r.text() + str((r.json or {}).get("content", ""))) for r in reqs)
    still_mine = 0 in _deciders(await svc.state(gid))
    assert c.loads == 1, c.store
    assert c.validations == 1
    # one listing of the pressed state; one more of the new state for the next menu when
    # the turn stays Ana's; one per step the service took after it
    assert sum(c.listings.values()) <= (2 if still_mine else 1) + others, c.listings
    assert lock.acquisitions - taken == 1


@pytest.mark.slow
async def test_play_command_reads_the_game_once(
    fake: FakeDiscord, make_bot: BotMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, _, gid = await _ready(fake, make_bot)
    svc = h.client.tables.svc  # type: ignore[attr-defined]
    st = await svc.state(gid)
    from rules.brazil import format_action, legal_actions

    action = next(
        a for a in legal_actions(st, 0) if not format_action(st, a).startswith(("end", "pass"))
    )
    text = format_action(st, action)
    lock = svc.lock(gid)
    taken = lock.acquisitions
    v0 = (await svc.places.record(gid)).version
    with counting(h, monkeypatch) as c:
        reqs = await h.command(ANA, CH, "play", command=text)
    others = (await svc.places.record(gid)).version - v0 - 1  # the steps the service took
    assert any("Done:" in r.text() + str((r.json or {}).get("content", "")) for r in reqs)
    assert c.loads == 1, c.store
    assert c.validations == 1
    # the typed command's own reading, and one per step the service took after it
    assert sum(c.listings.values()) <= 1 + others, c.listings
    assert lock.acquisitions - taken == 1
