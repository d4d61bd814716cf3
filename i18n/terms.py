"""The catalogue keys of the game's terms: ``term.<kind>.<id>`` with the catalog's ids.

    from i18n.terms import term_key
    L.term(term_key("building", "sawmill"))        # "Fűrésztelep" in hu
    L.term(term_key("unit", "green.archer1"))      # units are keyed colour.unit, as in the catalog
    tr("pl", "x", what=ref("painting", "oca"))     # a term reference, shown in the reader's language

Kinds (the catalog's tables): building (building sides), city, capital, colour, unit
(``colour.unit``), monarch, product, arch, painting, gold_card, combat_card, exploration,
mission, scenario (maps); and era (1-3), action (action types), terrain, frame, shape, noun.
The goods keep the engine's keys ``good.<id>``.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = (
    "building",
    "city",
    "capital",
    "colour",
    "unit",
    "monarch",
    "product",
    "arch",
    "painting",
    "gold_card",
    "combat_card",
    "exploration",
    "mission",
    "scenario",
    "era",
    "action",
    "terrain",
    "frame",
    "shape",
    "noun",
)


def term_key(kind: str, ident: str | int) -> str:
    """The catalogue key of a term (``good`` -> ``good.<id>``)."""
    if kind == "good":
        return f"good.{ident}"
    if kind not in KINDS:
        raise ValueError(f"unknown kind of term {kind!r} (kinds: {', '.join(KINDS)})")
    return f"term.{kind}.{ident}"


def ref(kind: str, ident: str | int) -> str:
    """A term reference (``@term.<kind>.<id>``) for a message parameter: rendered in the
    reader's language."""
    return "@" + term_key(kind, ident)


__all__ = ["KINDS", "ref", "term_key"]
