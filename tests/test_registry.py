"""Issue 28: a game declares itself once (rules.registry), and every platform list of games
derives from the registrations: the rules faces, the service adapters, the workers' preload,
the rules references, the catalogues' engine messages, the typed-command words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import i18n.notation
import rules.games
import service.rulebook
import service.workers
from rules.registry import (
    Registration,
    RegistrationError,
    default_name,
    register,
    registration,
    registrations,
    resolve,
    unregister,
)
from service.games import GameAdapter, adapter

REGS = list(registrations().values())


def test_the_installed_games_are_registered_through_the_entry_points() -> None:
    assert {"brazil", "tigris"} <= set(registrations())
    assert default_name() == next(iter(registrations()))
    assert [r.name for r in REGS if r.default] == [default_name()]


@pytest.mark.parametrize("reg", REGS, ids=lambda r: r.name)
def test_every_reference_of_a_registration_resolves(reg: Registration) -> None:
    face = reg.load("face")
    assert isinstance(face, rules.games.Game)
    assert (face.name, face.title) == (reg.name, reg.title)
    assert (face.min_players, face.max_players) == (reg.min_players, reg.max_players)
    assert isinstance(reg.load("adapter"), GameAdapter)
    for ref in ("agents", "tournament", "engine_messages"):
        if getattr(reg, ref):
            assert reg.load(ref) is not None
    for module in reg.preload:
        assert resolve(module) is not None
    if reg.rulebook:
        path = reg.path("rulebook")
        assert path is not None and path.is_file()
    if reg.locales:
        path = reg.path("locales")
        assert path is not None and path.is_dir()


@pytest.mark.parametrize("reg", REGS, ids=lambda r: r.name)
def test_the_platform_lists_derive_from_the_registrations(reg: Registration) -> None:
    assert reg.name in rules.games.names()
    assert rules.games.game(reg.name).name == reg.name
    assert adapter(reg.name).name == reg.name
    assert set(reg.preload) <= set(service.workers.PRELOAD)
    if reg.rulebook:
        assert service.rulebook.game_path(reg.name) == reg.path("rulebook")
    if reg.words_prefix:
        assert i18n.notation.GAMES[reg.name] == reg.words_prefix
    assert (reg.name in i18n.notation.COMPOUNDS) == reg.compound_words


@pytest.fixture
def extra() -> Iterator[Registration]:
    """A second registration of Tigris' parts under another name, registered in-process."""
    reg = Registration(
        name="tigris_copy",
        title="Tigris copy",
        min_players=2,
        max_players=4,
        face="rules.tigris.game:GAME",
        adapter="service.games.tigris.adapter:ADAPTER",
    )
    register(reg)
    yield reg
    unregister(reg.name)


def test_a_game_registered_in_process_is_listed_and_forgotten(extra: Registration) -> None:
    assert registration("tigris_copy") is extra
    assert "tigris_copy" in rules.games.names()
    # its face is Tigris', named "tigris": the registry refuses a face of another game
    with pytest.raises(TypeError, match="not the face of game 'tigris_copy'"):
        rules.games.game("tigris_copy")
    unregister("tigris_copy")
    assert "tigris_copy" not in rules.games.names()
    with pytest.raises(rules.games.UnknownGame):
        rules.games.game("tigris_copy")


def test_two_games_of_one_name_are_refused(extra: Registration) -> None:
    with pytest.raises(RegistrationError, match="registered already"):
        register(Registration("tigris_copy", "again", 2, 4, face="x:y", adapter="x:y"))


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"name": "Chess"}, "lower-case identifier"),
        ({"name": "two words"}, "lower-case identifier"),
        ({"min_players": 0}, "no range"),
        ({"min_players": 3, "max_players": 2}, "no range"),
    ],
)
def test_a_malformed_registration_is_refused(fields: dict[str, Any], says: str) -> None:
    base: dict[str, Any] = {
        "name": "chess",
        "title": "Chess",
        "min_players": 2,
        "max_players": 2,
        "face": "x:y",
        "adapter": "x:y",
    }
    with pytest.raises(RegistrationError, match=says):
        Registration(**{**base, **fields})


def test_a_reference_that_does_not_resolve_says_which() -> None:
    with pytest.raises(
        RegistrationError, match=re.escape("'rules.nothing_here:GAME' does not resolve")
    ):
        resolve("rules.nothing_here:GAME")
    with pytest.raises(RegistrationError, match="does not resolve"):
        resolve("rules.games:NoSuchThing")
    reg = Registration("chess", "Chess", 2, 2, face="x:y", adapter="x:y")
    with pytest.raises(RegistrationError, match="chess: no agents"):
        reg.load("agents")


def test_an_adapter_missing_a_hook_cannot_be_made() -> None:
    class Half(GameAdapter):
        name = "tigris"

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]


def test_a_cache_keyed_by_the_generation_sees_a_game_registered_later() -> None:
    """``generation()`` changes on every (un)registration: the words' prefixes that the
    catalogues read (i18n.render) include a game registered after their first reading."""
    from dataclasses import replace

    from i18n.render import word_prefixes
    from rules.registry import generation, register, registrations, unregister

    before = word_prefixes()
    first = next(iter(registrations().values()))
    g0 = generation()
    register(replace(first, name="probe", default=False, words_prefix="probe.word."))
    try:
        assert generation() != g0
        assert "probe.word." in word_prefixes()
    finally:
        unregister("probe")
    assert word_prefixes() == before
