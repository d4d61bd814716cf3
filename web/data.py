"""The public JSON of a game's page (``live.json``, ``steps.json``), built from the game
service's archive: the one shape the page's script, the server and the static export share.

Everything here comes from :mod:`service.archive`, which hands out public things only. The
texts are in the archive's language (``lang``: the game's language), which the JSON names.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from i18n import translator
from service.archive import Archive, LiveView, decision_text


def _iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat().replace("+00:00", "Z")


def map_path(version: int, lang: str | None = None) -> str:
    """A step's map, relative to the page: ``map/57.png?lang=de`` served (the language in
    the address: a browser keeps a map drawn in one language apart from another, so a
    ``/game language`` change shows the new one), ``map/57.png`` (``lang`` None) in a static
    copy, whose maps are in its one language."""
    return f"map/{version}.png" if lang is None else f"map/{version}.png?lang={lang}"


def live_json(lv: LiveView, *, map_lang: bool = True) -> dict[str, Any]:
    """The game now: title, where it stands, who decides (with deadlines), public scores, the
    last turn's sentences, the map and the number of steps; in ``lv.lang``."""
    L = translator(lv.lang)
    st = lv.status
    if lv.abandoned:
        where = L("web.where.abandoned")
    elif lv.where is not None:  # the game's own words (Tigris & Euphrates: "Turn 7")
        where = lv.where
    elif st.phase == "setup":
        where = L("web.where.setup")
    elif st.over:
        where = L("web.where.over", era=st.era, round=st.round)
    else:
        where = L("web.where.play", era=st.era, round=st.round)
    waiting = []
    for d in st.waiting:
        due = lv.deadlines.get(d.seat)
        waiting.append(
            {
                "seat": d.seat,
                "who": d.who,
                "colour": lv.colours.get(d.seat),
                "what": decision_text(d.kind, lv.lang, lv.game),
                "ai": d.ai,
                "deadline": _iso(due),
                "paused": d.seat in lv.deadlines and due is None,
            }
        )
    return {
        "game": lv.game_id,
        "lang": lv.lang,
        "title": lv.title,
        "version": lv.version,
        "phase": st.phase,
        "where": where,
        "over": st.over or lv.finished or lv.abandoned,
        "finished": lv.finished,
        "abandoned": lv.abandoned,
        "waiting": waiting,
        "scores": [
            {
                "seat": r.seat,
                "who": r.who,
                "colour": lv.colours.get(r.seat),
                "total": None if r.hidden else r.total,
                "winner": r.winner,
                **({"hidden": True} if r.hidden else {}),
            }
            for r in sorted(lv.scores, key=lambda r: r.seat)
        ],
        "last_turn": list(lv.last_turn),
        "map": map_path(lv.version, lv.lang if map_lang else None),
        "steps": lv.steps,
    }


def steps_json(arch: Archive, *, map_lang: bool = True) -> dict[str, Any]:
    """Every public step (with its map) and the game's turns, for the replay."""
    return {
        "game": arch.game_id,
        "lang": arch.lang,
        "version": arch.version,
        "title": arch.title,
        "game_name": arch.game,
        "eras": arch.eras,
        "battle_word": arch.battle_word,
        "steps": [
            {
                "n": s.n,
                "version": s.version,
                "kind": s.kind,
                "text": s.text,
                "turn": s.turn,
                "phase": s.phase,
                "era": s.era,
                "round": s.round,
                "battle": s.battle,
                "era_start": s.era_start,
                "ends_turn": s.ends_turn,
                "undone": s.undone,
                "map": map_path(s.version, arch.lang if map_lang else None),
            }
            for s in arch.steps
        ],
        "turns": [{"label": t.label, "first": t.first} for t in arch.turns],
    }
