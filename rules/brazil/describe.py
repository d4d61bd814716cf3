"""A readable dump of the component data: ``python -m rules describe``."""

from __future__ import annotations

from pathlib import Path

from rules.brazil.catalog import load_catalog
from rules.brazil.payment import describe_cost


def _table(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    line = "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=False))
    out = [f"\n== {title} ({len(rows)})", line, "  ".join("-" * w for w in widths)]
    for r in rows:
        out.append("  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=False)))
    return "\n".join(out)


def _goods(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {g.replace('_', ' ')}" for g, n in d.items()) or "-"


def describe(pack: str | Path | None = None) -> str:
    """The data as tables; ``pack`` is a pack folder (``Path``) or a pack name (``str``)."""
    cat = load_catalog(pack)
    parts = [f"Component data{' with data pack ' + str(pack) if pack else ''}: all files valid."]
    rows = []
    for t in cat.buildings.values():
        for s in t.sides:
            rows.append(
                [
                    t.id,
                    str(t.era),
                    "/".join(t.terrain),
                    str(t.count),
                    s.name,
                    describe_cost(s.cost),
                    _goods(s.production),
                    str(s.vp),
                    s.source,
                ]
            )
    parts.append(
        _table(
            "Buildings",
            ["tile", "era", "terrain", "count", "side", "cost", "production", "VP", "source"],
            rows,
        )
    )
    parts.append(
        _table(
            "Cities",
            ["city", "cost", "VP", "source"],
            [[c.name, describe_cost(c.cost), str(c.vp), c.source] for c in cat.cities.values()],
        )
    )
    parts.append(
        _table(
            "Capitals",
            ["tile", "first player", "resource", "source"],
            [
                [c.name, "yes" if c.first_player else "", c.resource, c.source]
                for c in cat.capitals.values()
            ],
        )
    )
    rows = []
    for c in cat.colours.values():
        mons = " | ".join(
            " / ".join(cat.monarchs[m].name for m in t.sides) for t in c.monarch_tiles
        )
        for u in c.units:
            rows.append([c.id, mons, u.name, str(u.vp), u.ability, describe_cost(u.cost), u.source])
    parts.append(
        _table(
            "Colours and units",
            ["colour", "monarchs", "unit", "VP/FP", "ability", "cost", "source"],
            rows,
        )
    )
    parts.append(
        _table(
            "Monarchs",
            ["monarch", "power", "source"],
            [[m.name, m.text, m.source] for m in cat.monarchs.values()],
        )
    )
    parts.append(
        _table(
            "Products",
            ["product", "shape", "cost", "VP", "source"],
            [
                [p.name, p.shape, describe_cost(p.cost), str(p.vp), p.source]
                for p in cat.products.values()
            ],
        )
    )
    parts.append(
        _table(
            "Arches",
            ["arch", "slot", "extra move", "cost", "source"],
            [
                [a.name, a.slot or "-", a.extra_move, describe_cost(a.cost), a.source]
                for a in cat.arches.values()
            ],
        )
    )
    parts.append(
        _table(
            "Paintings",
            ["frame", "painting", "cost", "VP", "effect", "source"],
            [
                [p.frame, p.name, describe_cost(p.cost), str(p.vp), p.text, p.source]
                for p in cat.paintings.values()
            ],
        )
    )
    parts.append(
        _table(
            "Gold cards",
            ["card", "count", "kind", "effect", "source"],
            [[c.name, str(c.count), c.kind, c.text, c.source] for c in cat.gold_cards.values()],
        )
    )
    parts.append(
        _table(
            "Combat cards",
            ["card", "count", "effect", "source"],
            [[c.name, str(c.count), c.text, c.source] for c in cat.combat_cards.values()],
        )
    )
    parts.append(
        _table(
            "Exploration tiles",
            ["tile", "count", "effect", "source"],
            [[t.name, str(t.count), t.text, t.source] for t in cat.exploration.values()],
        )
    )
    rows = []
    from rules.brazil.scoring import describe_objective

    for m in cat.missions.values():
        obs = "; ".join(
            describe_objective(o) + (f" ({o.vp} VP)" if o.vp else "") for o in m.objectives
        )
        rows.append([m.id, m.name, str(m.vp), obs, m.source])
    parts.append(_table("Missions", ["id", "name", "VP", "objectives", "source"], rows))
    rows = []
    for mp in cat.maps.values():
        b = cat.boards[mp.id]
        land = sum(1 for t in b.terrain.values() if t != "water")
        water = len(b.terrain) - land
        rows.append(
            [
                mp.id,
                mp.name,
                str(mp.players),
                mp.conflict,
                str(land),
                str(water),
                str(len(b.fog)),
                " ".join(b.capital_sites),
                mp.feature,
            ]
        )
    parts.append(
        _table(
            "Maps",
            [
                "id",
                "name",
                "players",
                "conflict",
                "land",
                "water",
                "fog",
                "capital sites",
                "feature",
            ],
            rows,
        )
    )
    return "\n".join(parts)
