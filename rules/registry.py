"""Games register themselves: one :class:`Registration` per game, found through one mechanism.

A game is one folder plus one registration. The registration is a record in the game's own
package that names, as ``"module:attribute"`` references, everything the platform needs of the
game — its rules face, its service adapter, its computer players and tournament, its English
engine messages, its catalogues' folder, its typed-command words, its rules reference — and
says what it is (title, player range). The platform never imports a game's package by name:
it reads the registrations and imports what they name when first asked (a game's modules are
loaded only when that game is played).

Registrations are found through the entry-point group :data:`ENTRY_POINT_GROUP` of the
installed distributions (``pyproject.toml``)::

    [project.entry-points."turnpost.games"]
    brazil = "rules.brazil.registration:REGISTRATION"

so a game in another distribution registers itself by installing. :func:`register` adds one
in-process (a test's temporary game). Every platform list of games — the rules registry
(:mod:`rules.games`), the service's adapters, the worker processes' preload, the rules
references, the catalogues, the typed-command words, the computer players — derives from
:func:`registrations`.

This module is part of the pure engine layer: it imports nothing of the project, and a
registration record only holds names and strings (importing one imports nothing else).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "ENTRY_POINT_GROUP",
    "Registration",
    "RegistrationError",
    "default_name",
    "failures",
    "register",
    "registration",
    "registrations",
    "resolve",
    "unregister",
]

ENTRY_POINT_GROUP = "turnpost.games"
"""The entry-point group games register in (a frozen name: installed games use it)."""


class RegistrationError(RuntimeError):
    """A registration that cannot be used: a duplicate name, a reference that does not
    resolve, an entry point that is not a :class:`Registration`."""


@dataclass(frozen=True)
class Registration:
    """What the platform knows of one game, by name (see the module docstring).

    References are ``"package.module:attribute"`` strings, imported on first use
    (:func:`resolve`); a reference may be None when the game has no such part.
    """

    name: str
    """The game's name: a lower-case identifier, stored with each game record."""
    title: str
    """The English title; the catalogues' ``game.<name>`` in other languages."""
    min_players: int
    max_players: int
    face: str
    """The rules face: a :class:`rules.games.Game`."""
    adapter: str
    """The service adapter: a ``service.games.GameAdapter`` instance."""
    agents: str | None = None
    """The computer players' factory: ``make_agent(level, seed=0, **options) -> agent``."""
    agent_levels: tuple[str, ...] = ()
    """The computer players' levels, weakest first (``random``, ``heuristic``, ``search``)."""
    tournament: str | None = None
    """``run_tournament(names, games, *, seed, budget, iterations, max_rounds, workers,
    paired)``:
    the game's AI tournament (its report, :class:`ai.report.TournamentResult`)."""
    engine_messages: str | None = None
    """The English templates of the engine's own messages (a ``dict[str, str]``): events,
    refusals, terms — the fallback of every catalogue."""
    locales: str | None = None
    """A folder of catalogues, ``"package:relative/folder"`` holding ``<lang>/*.toml`` (or
    ``<lang>.toml``), served beside the platform's own (None: the game's messages live in the
    platform's folder)."""
    words_prefix: str | None = None
    """The catalogue prefix of the game's typed-command words (``word.``, ``tigris.word.``);
    None: the game's commands are typed in its canonical notation only."""
    compound_words: bool = False
    """Whether the notation joins tokens with ``-`` (Tigris' monuments, ``red-blue``): such a
    token is written and read part by part in another language."""
    rulebook: str | None = None
    """The English rules reference, ``"package:relative/path.md"`` (its translations beside it
    as ``<stem>.<lang>.md``)."""
    describe: str | None = None
    """``describe(data_pack: Path | None) -> str``: a readable dump of the game's component
    data (``python -m rules describe --game NAME``)."""
    preload: tuple[str, ...] = ()
    """Modules a worker process imports ahead (the game's drawing and adapter)."""
    default: bool = False
    """The game of stored records and commands that name none (one game at most)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Free-form facts for the game's own tools (not read by the platform)."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise RegistrationError(f"a game's name must be a lower-case identifier: {self.name!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise RegistrationError(
                f"{self.name}: players {self.min_players}..{self.max_players} is no range"
            )

    def load(self, ref_name: str) -> Any:
        """The object a reference field (``face``, ``adapter``, …) names, imported now;
        :class:`RegistrationError` when the field is empty or does not resolve."""
        ref = getattr(self, ref_name)
        if not isinstance(ref, str) or not ref:
            raise RegistrationError(f"{self.name}: no {ref_name}")
        return resolve(ref)

    def path(self, ref_name: str) -> Path | None:
        """The file or folder a ``"package:relative/path"`` field (``rulebook``,
        ``locales``) names (None: the field is empty)."""
        ref = getattr(self, ref_name)
        if not ref:
            return None
        package, _, rel = str(ref).partition(":")
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise RegistrationError(f"{self.name}: {ref_name} names no package: {ref!r}")
        return Path(next(iter(spec.submodule_search_locations))).resolve() / rel


def resolve(ref: str) -> Any:
    """The object ``"package.module:attribute"`` names (``:attr.attr`` may go deeper)."""
    module, _, attr = ref.partition(":")
    try:
        found: Any = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            found = getattr(found, part)
    except (ImportError, AttributeError) as e:
        raise RegistrationError(f"{ref!r} does not resolve: {e}") from e
    return found


_FOUND: dict[str, Registration] | None = None
_ADDED: dict[str, Registration] = {}
_REMOVED: set[str] = set()


_FAILED: dict[str, str] = {}


def _discover() -> dict[str, Registration]:
    """The installed registrations. One that cannot be loaded (its package is missing, it is
    no :class:`Registration`, it names another game) is left out with a warning, and said in
    :func:`failures`: the other games stay playable."""
    found: dict[str, Registration] = {}
    _FAILED.clear()
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            reg = ep.load()
        except Exception as e:
            _FAILED[ep.name] = f"entry point {ep.name} = {ep.value} does not load: {e}"
        else:
            if not isinstance(reg, Registration):
                _FAILED[ep.name] = f"entry point {ep.name} = {ep.value} is not a Registration"
            elif reg.name != ep.name:
                _FAILED[ep.name] = f"entry point {ep.name} registers a game named {reg.name!r}"
            else:
                found[reg.name] = reg
        if ep.name in _FAILED:
            warnings.warn(_FAILED[ep.name], RuntimeWarning, stacklevel=2)
    return found


def failures() -> dict[str, str]:
    """The installed registrations left out, by entry-point name, with the reason."""
    registrations()
    return dict(_FAILED)


_ALL: dict[str, Registration] | None = None
_GENERATION = 0
"""The answer of :func:`registrations`, kept until :func:`register` or :func:`unregister`
change it (the rules registry asks for it on every lookup of a game)."""


def _table() -> dict[str, Registration]:
    global _ALL
    if _ALL is None:
        _ALL = _ordered()
    return _ALL


def registrations() -> dict[str, Registration]:
    """Every registered game by name, the default first, then by name (a copy)."""
    return dict(_table())


def _ordered() -> dict[str, Registration]:
    global _FOUND
    if _FOUND is None:
        _FOUND = _discover()
    every = {**_FOUND, **_ADDED}
    for name in _REMOVED:
        every.pop(name, None)
    defaults = [r.name for r in every.values() if r.default]
    if len(defaults) > 1:
        raise RegistrationError(f"more than one default game: {', '.join(sorted(defaults))}")
    return {n: every[n] for n in sorted(every, key=lambda n: (not every[n].default, n))}


def registration(name: str) -> Registration | None:
    """The registration of game ``name`` (None: no such game)."""
    return _table().get(name)


def default_name() -> str:
    """The default game's name (the registration marked ``default``, else the first)."""
    regs = _table()
    if not regs:
        raise RegistrationError(f"no game is registered (entry points {ENTRY_POINT_GROUP!r})")
    return next(iter(regs))


def register(reg: Registration) -> None:
    """Register a game in this process (beside the installed ones; a test's game)."""
    current = registrations()
    if reg.name in current and _ADDED.get(reg.name) is not reg:
        raise RegistrationError(f"a game named {reg.name!r} is registered already")
    _REMOVED.discard(reg.name)
    _ADDED[reg.name] = reg
    _forget()


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (or hide an installed one)."""
    _ADDED.pop(name, None)
    _REMOVED.add(name)
    _forget()


def generation() -> int:
    """A number that changes whenever a game is registered or unregistered in this process
    (what a cache of something read from the registrations is keyed by)."""
    return _GENERATION


def _forget() -> None:
    global _ALL, _GENERATION
    _ALL = None
    _GENERATION += 1
