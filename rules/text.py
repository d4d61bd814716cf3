"""Messages without sentences in code: the template language every game's engine and the
catalogues share (:mod:`rules.games`' games; the languages in :mod:`i18n`).

A message is a ``key`` and ``params``; its English is a template of the game's English
table. Templates: ``{name}`` a value; ``{n|one|other}`` the English plural form of the
integer ``n``; ``{x:list}``, ``{x:and}``, ``{x:plus}``, ``{x:semi}`` a list joined;
``{x:goods}`` a ``{good: count}`` mapping; ``{x:id}``/``{x:idwords}`` a term reference's id;
``{x:lower}``. A parameter is a scalar, a term reference ``"@key"`` (the table's ``key``, or
a component's name by ``names``), a nested message ``{"key": ..., "params": {...}}`` or a
list of these.

Each game registers its English table (:func:`register_english`), so an error made with only
a key and parameters (:class:`rules.errors.RulesError`) finds its English whatever the game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from typing_extensions import TypeAliasType

Param = TypeAliasType("Param", "str | int | bool | list[Param] | dict[str, Param]")
"""A message parameter: a scalar, a term reference (``"@term.<kind>.<id>"``), a nested
message (``{"key": ..., "params": {...}}``), a list of these, or a ``{good: count}``
mapping."""

PluralRule = Callable[[int], int]
TermNames = Callable[[str], str | None]
"""The English of a component term (``"term.building.sawmill"`` -> ``"Sawmill"``), or None."""


def plural_en(n: int) -> int:
    """English plural rule: form 0 for exactly one, form 1 otherwise."""
    return 0 if n == 1 else 1


JOINS = {"list": ", ", "and": " and ", "plus": " + ", "semi": "; "}


def msg(key: str, **params: Param) -> dict[str, Param]:
    """A nested message: a parameter rendered as the sentence of message ``key``."""
    return {"key": key, "params": dict(params)}


class MessageError(KeyError):
    """An unknown message key or a parameter missing from an emit."""


_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)((?:\|[^{}|]*)+|(?::[^{}:]*){1,2})?\}")


@lru_cache(maxsize=1024)
def _parse(template: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Split a template into (literal, "", ()) and (name, "plural"|"join"|"", args) parts."""
    out: list[tuple[str, str, tuple[str, ...]]] = []
    pos = 0
    for m in _FIELD.finditer(template):
        if m.start() > pos:
            out.append((template[pos : m.start()], "", ()))
        name, rest = m.group(1), m.group(2) or ""
        if rest.startswith("|"):
            out.append((name, "plural", tuple(rest[1:].split("|"))))
        elif rest.startswith(":"):
            out.append((name, "join", tuple(rest[1:].split(":"))))
        else:
            out.append((name, "value", ()))
        pos = m.end()
    if pos < len(template):
        out.append((template[pos:], "", ()))
    return tuple(out)


def placeholders(template: str) -> set[str]:
    """The parameter names a template needs."""
    return {name for name, how, _ in _parse(template) if how}


def _id(v: Any) -> str:
    """A term reference's id: ``"@good.sugar_cane"`` -> ``sugar_cane``."""
    s = str(v)
    return s.rsplit(".", 1)[-1] if s.startswith("@") else s


class Renderer:
    """Renders messages of one table: ``names`` gives the English of component terms
    (``term.<kind>.<id>``, ``text.<kind>.<id>``) the table does not hold."""

    def __init__(
        self, catalogue: Mapping[str, str], plural: PluralRule, names: TermNames | None
    ) -> None:
        self.catalogue = catalogue
        self.plural = plural
        self.names = names

    def term(self, key: str) -> str:
        if key in self.catalogue:
            return self.message(key, {})
        if key.startswith(("term.", "text.")) and self.names is not None:
            found = self.names(key)
            if found is not None:
                return found
        return key.rsplit(".", 1)[-1].replace("_", " ")

    def scalar(self, v: Any) -> str:
        if type(v) is str:
            return self.term(v[1:]) if v.startswith("@") and len(v) > 1 else v
        if isinstance(v, Mapping) and isinstance(v.get("key"), str):
            return self.message(v["key"], v.get("params") or {})
        return str(v)

    def value(self, v: Any, how: str, args: tuple[str, ...]) -> str:
        if how == "plural":
            if not isinstance(v, int) or isinstance(v, bool):
                raise MessageError(f"plural parameter must be an integer, not {v!r}")
            i = self.plural(v)
            return args[min(i, len(args) - 1)]
        fmt = args[0] if how == "join" else ""
        if fmt == "goods":
            if not isinstance(v, dict):
                raise MessageError(f"goods parameter must be a mapping, not {v!r}")
            return ", ".join(
                f"{n} {self.catalogue.get('good.' + g) or g.replace('_', ' ')}"
                for g, n in v.items()
                if n > 0
            )
        if fmt in ("id", "idwords"):
            if isinstance(v, list) and not v and len(args) > 1:
                return args[1]
            ids = [_id(x) for x in v] if isinstance(v, list) else [_id(v)]
            if fmt == "idwords":
                ids = [x.replace("_", " ") for x in ids]
            return ", ".join(ids)
        if fmt == "lower":
            return self.scalar(v).lower()
        if isinstance(v, list):
            if not v and how == "join" and len(args) > 1:
                return args[1]
            sep = JOINS[fmt] if how == "join" else JOINS["list"]
            return sep.join(self.scalar(x) for x in v)
        return self.scalar(v)

    def message(self, key: str, params: Mapping[str, Any]) -> str:
        try:
            template = self.catalogue[key]
        except KeyError:
            raise MessageError(f"no template for message key {key!r}") from None
        parts: list[str] = []
        for name, how, args in _parse(template):
            if not how:
                parts.append(name)
                continue
            try:
                v = params[name]
            except KeyError:
                raise MessageError(f"message {key!r} needs parameter {name!r}") from None
            if how == "value" and not isinstance(v, list):
                parts.append(self.scalar(v))  # what value() does with it, one call fewer
            else:
                parts.append(self.value(v, how, args))
        return "".join(parts)


def render_message(
    key: str,
    params: Mapping[str, Param],
    catalogue: Mapping[str, str],
    plural: PluralRule = plural_en,
    names: TermNames | None = None,
) -> str:
    """The sentence for ``key`` with ``params`` in ``catalogue``: nested messages and term
    references ``@key`` from it too, component terms by ``names``."""
    return Renderer(catalogue, plural, names).message(key, params)


_ENGLISH: list[tuple[Mapping[str, str], TermNames | None]] = []


def register_english(table: Mapping[str, str], names: TermNames | None = None) -> None:
    """A game's English table (and its component names): where :func:`english_message`
    finds the keys of that game."""
    if all(t is not table for t, _ in _ENGLISH):
        _ENGLISH.append((table, names))


def english_message(key: str, params: Mapping[str, Param]) -> str:
    """The English of message ``key`` from the registered table that holds it (the key
    itself if none does)."""
    for table, names in _ENGLISH:
        if key in table:
            return render_message(key, params, table, plural_en, names)
    return key
