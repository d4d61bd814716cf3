"""Component data: schema, loading, validation and data packs.

Every component of the game lives in ``rules/data/brazil/*.toml`` (maps in ``rules/data/brazil/maps/``).
Each entry carries a ``source``: ``seed`` (a rulebook), ``faq`` (designer FAQ) or ``design``
(our own value, to be corrected by a group that owns the physical game).

A *data pack* is a folder with files of the same names holding only the entries to change:
an entry with a known ``id`` has its fields replaced (tables are merged key by key), an
unknown ``id`` adds an entry. A pack file with ``replace = true`` at the top stands instead
of the default file (its entries are all there is). Packs are validated exactly like the
defaults; a broken file fails with a :class:`DataError` that names the file, the entry and
the field.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rules.brazil.hexgrid import Hex
from rules.errors import DataError

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "brazil"

CROPS: tuple[str, ...] = ("sugar_cane", "coffee", "brazilwood", "cotton")
ELEMENTS: tuple[str, ...] = ("gold", "science")
GOODS: tuple[str, ...] = CROPS + ELEMENTS
# Cost tokens: a crop, an element, "any" (any crop) or alternatives "a|b" of crops.
Source = Literal["seed", "faq", "design", "ruling"]
Terrain = Literal["plain", "forest", "gold_mine", "water"]
Shape = Literal["square", "pentagon", "octagon"]
Frame = Literal["red", "pink", "blue"]
ARCHES: tuple[str, ...] = (
    "recruit",
    "painting",
    "build",
    "renovate",
    "manufacture",
    "import",
    "trade",
)
Arch = Literal["recruit", "painting", "build", "renovate", "manufacture", "import", "trade"]
FRAMES: tuple[str, ...] = ("red", "pink", "blue")


# A sane bound on any count in the data (copies of a card, tiles, objectives): the game's
# components number in the tens; a huge count would only exhaust memory when decks are built.
MAX_COUNT = 1000


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_cost(tokens: list[str]) -> list[str]:
    for tok in tokens:
        parts = tok.split("|")
        if tok in ELEMENTS or tok == "any":
            continue
        if all(p in CROPS for p in parts):
            continue
        raise ValueError(
            f"cost token '{tok}' is not a crop ({', '.join(CROPS)}), gold, science, 'any' "
            "or alternatives of crops like 'sugar_cane|coffee'"
        )
    return tokens


def _check_goods(goods: dict[str, int]) -> dict[str, int]:
    for k, v in goods.items():
        if k not in GOODS:
            raise ValueError(f"'{k}' is not a good ({', '.join(GOODS)})")
        if v < 0:
            raise ValueError(f"amount of {k} must not be negative")
    return goods


class BuildingSide(_Model):
    id: str
    name: str
    cost: list[str]
    production: dict[str, int]
    vp: int = Field(ge=0)
    source: str

    _c = field_validator("cost")(_check_cost)
    _p = field_validator("production")(_check_goods)


class BuildingTile(_Model):
    id: str
    era: int = Field(ge=1, le=3)
    terrain: list[Literal["plain", "forest", "gold_mine", "any"]]
    count: int = Field(ge=0, le=MAX_COUNT)
    sides: list[BuildingSide] = Field(min_length=2, max_length=2)
    source: str


class City(_Model):
    id: str
    name: str
    cost: list[str]
    vp: int = Field(ge=0)
    source: str

    _c = field_validator("cost")(_check_cost)


class Capital(_Model):
    id: str
    name: str
    first_player: bool = False
    resource: str
    source: str


class Unit(_Model):
    id: str
    name: str
    vp: int = Field(ge=0)
    ability: Literal["none", "transport", "bombard", "founder"] = "none"
    basic: bool = False
    cost: list[str]
    source: str

    _c = field_validator("cost")(_check_cost)


class MonarchTile(_Model):
    sides: list[str] = Field(min_length=1, max_length=2)


class Colour(_Model):
    id: str
    name: str
    monarch_tiles: list[MonarchTile]
    units: list[Unit] = Field(min_length=5, max_length=5)
    source: str


class BuildingOverride(_Model):
    side: str
    first: int = Field(ge=1)
    vp: int = Field(ge=0)
    production: dict[str, int]

    _p = field_validator("production")(_check_goods)


class Monarch(_Model):
    id: str
    name: str
    power: str
    text: str
    building_override: BuildingOverride | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    source: str


class Product(_Model):
    id: str
    name: str
    shape: Shape
    cost: list[str]
    vp: int = Field(ge=0)
    source: str

    _c = field_validator("cost")(_check_cost)


class ArchDef(_Model):
    id: Arch
    name: str
    slot: Shape | None = None
    extra_move: Literal["capital", "forest", "own_tile", "edge", "gold_mine", "tactical"]
    cost: list[str] = Field(default_factory=list)
    source: str

    _c = field_validator("cost")(_check_cost)


class Painting(_Model):
    id: str
    name: str
    frame: Frame
    cost: list[str]
    vp: int = Field(ge=0)
    effect: str
    params: dict[str, Any] = Field(default_factory=dict)
    text: str
    source: str

    _c = field_validator("cost")(_check_cost)


class GoldCard(_Model):
    id: str
    name: str
    count: int = Field(ge=0, le=MAX_COUNT)
    kind: Literal["end", "free", "war"]
    effect: str
    params: dict[str, Any] = Field(default_factory=dict)
    text: str
    source: str


class CombatCard(_Model):
    id: str
    name: str
    count: int = Field(ge=0, le=MAX_COUNT)
    effect: str
    params: dict[str, Any] = Field(default_factory=dict)
    text: str
    source: str


class ExplorationTile(_Model):
    id: str
    name: str
    count: int = Field(ge=0, le=MAX_COUNT)
    kind: Literal[
        "unknown_species",
        "minas_gerais",
        "river_basin",
        "quilombo",
        "cultura",
        "mandioca",
        "bandeiras",
    ]
    fp: int | None = None
    reward_vp: int = 0
    reward_goods: dict[str, int] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    text: str
    source: str

    @field_validator("reward_goods")
    @classmethod
    def _goods_or_any(cls, v: dict[str, int]) -> dict[str, int]:
        _check_goods({k: n for k, n in v.items() if k != "any"})
        return v


OBJECTIVE_KINDS = (
    "buildings",
    "cities",
    "products",
    "paintings",
    "units_deployed",
    "units_on_map",
    "building_types",
    "upgraded_arches",
    "palaces",
    "occupied",
    "science",
)
BUILDING_TYPES = (
    "sawmill",
    "trading_post",
    "sugar_field",
    "farm",
    "foundry",
    "cotton_plantation",
    "church",
    "academy",
)


class Objective(_Model):
    kind: Literal[
        "buildings",
        "cities",
        "products",
        "paintings",
        "units_deployed",
        "units_on_map",
        "building_types",
        "upgraded_arches",
        "palaces",
        "occupied",
        "science",
    ]
    count: int = Field(ge=1, le=MAX_COUNT)
    type: str | None = None  # building side id, for kind = buildings
    era: int | None = Field(default=None, ge=1, le=3)  # building era, for kind = buildings
    shape: Shape | None = None  # for products
    frame: Frame | None = None  # for paintings
    vp: int = Field(default=0, ge=0)  # era III objectives only

    @field_validator("type")
    @classmethod
    def _type_known(cls, v: str | None) -> str | None:
        if v is not None and v not in BUILDING_TYPES:
            raise ValueError(f"unknown building type '{v}' (one of {', '.join(BUILDING_TYPES)})")
        return v


class Mission(_Model):
    id: str
    era: int = Field(ge=1, le=3)
    name: str
    vp: int = Field(default=0, ge=0)  # era I/II: the card's VP; era III: sum of objectives
    objectives: list[Objective] = Field(min_length=1)
    source: str


class PresetUnit(_Model):
    hex: str
    unit: str


class MapDef(_Model):
    id: str
    name: str
    players: int = Field(ge=1, le=4)
    conflict: str = "-"
    feature: str = ""
    source: str
    rows: list[str] = Field(min_length=1)
    preset_units: list[PresetUnit] = Field(default_factory=list)
    enemy_colour: str | None = None
    max_rounds: int | None = None
    enemy_capital_fp: int = Field(default=0, ge=0)  # solo: FP of the orange capital [design]

    @field_validator("rows")
    @classmethod
    def _rows_legend(cls, rows: list[str]) -> list[str]:
        for i, row in enumerate(rows):
            bad = set(row) - set(MAP_LEGEND)
            if bad:
                raise ValueError(
                    f"row {i + 1} has unknown characters {sorted(bad)}; legend: "
                    + ", ".join(f"'{k}' {v}" for k, v in MAP_LEGEND.items())
                )
        return rows


MAP_LEGEND: dict[str, str] = {
    ".": "no hex",
    "p": "plain",
    "f": "forest",
    "g": "gold mine",
    "w": "water",
    "?": "fog (plain with a face-down exploration tile)",
    "C": "capital site (plain)",
    "O": "solo enemy capital (plain)",
}
_TERRAIN_OF = {
    "p": "plain",
    "f": "forest",
    "g": "gold_mine",
    "w": "water",
    "?": "plain",
    "C": "plain",
    "O": "plain",
}


@dataclass(frozen=True)
class Board:
    """A map compiled for fast look-ups: everything keyed by hex label."""

    map: MapDef
    terrain: Mapping[str, str]
    neighbours: Mapping[str, tuple[str, ...]]
    fog: tuple[str, ...]
    capital_sites: tuple[str, ...]
    enemy_capital: str | None
    edge: frozenset[str]
    order: tuple[str, ...]  # all labels in reading order
    distances: dict[tuple[str, str], int] = field(default_factory=dict, compare=False)

    def distance(self, a: str, b: str) -> int:
        key = (a, b)
        d = self.distances.get(key)
        if d is None:
            d = Hex.parse(a).distance(Hex.parse(b))
            self.distances[key] = d
        return d

    def is_water(self, label: str) -> bool:
        return self.terrain.get(label) == "water"


def compile_board(m: MapDef) -> Board:
    terrain: dict[str, str] = {}
    fog: list[str] = []
    caps: list[str] = []
    enemy: str | None = None
    order: list[str] = []
    for row, line in enumerate(m.rows):
        for col, ch in enumerate(line):
            if ch == ".":
                continue
            label = Hex.from_offset(col, row).label
            terrain[label] = _TERRAIN_OF[ch]
            order.append(label)
            if ch == "?":
                fog.append(label)
            elif ch == "C":
                caps.append(label)
            elif ch == "O":
                enemy = label
    neigh: dict[str, tuple[str, ...]] = {}
    for label in order:
        h = Hex.parse(label)
        ns = []
        for n in h.neighbours():
            col, row = n.to_offset()
            if 0 <= col < 26 and row >= 0 and n.label in terrain:
                ns.append(n.label)
        neigh[label] = tuple(ns)
    # R-MOVE-3 (Renovate): edge = fewer than 6 neighbours on the map, water, or next to water.
    edge = frozenset(
        lab
        for lab in order
        if len(neigh[lab]) < 6
        or terrain[lab] == "water"
        or any(terrain[n] == "water" for n in neigh[lab])
    )
    return Board(
        map=m,
        terrain=terrain,
        neighbours=neigh,
        fog=tuple(fog),
        capital_sites=tuple(caps),
        enemy_capital=enemy,
        edge=edge,
        order=tuple(order),
    )


# --------------------------------------------------------------------------- loading


_FILES: dict[str, tuple[str, type[_Model]]] = {
    # file stem: (table name in the file, model)
    "buildings": ("tiles", BuildingTile),
    "cities": ("cities", City),
    "capitals": ("capitals", Capital),
    "colours": ("colours", Colour),
    "monarchs": ("monarchs", Monarch),
    "products": ("products", Product),
    "arches": ("arches", ArchDef),
    "paintings": ("paintings", Painting),
    "gold_cards": ("cards", GoldCard),
    "combat_cards": ("cards", CombatCard),
    "exploration": ("tiles", ExplorationTile),
    "missions": ("missions", Mission),
}


@dataclass(frozen=True)
class Catalog:
    """All component data, validated. Look-ups by id."""

    buildings: dict[str, BuildingTile]
    sides: dict[str, BuildingSide]
    side_tile: dict[str, str]
    cities: dict[str, City]
    capitals: dict[str, Capital]
    colours: dict[str, Colour]
    units: dict[str, Unit]  # keyed "colour.unit"
    monarchs: dict[str, Monarch]
    products: dict[str, Product]
    arches: dict[str, ArchDef]
    paintings: dict[str, Painting]
    gold_cards: dict[str, GoldCard]
    combat_cards: dict[str, CombatCard]
    exploration: dict[str, ExplorationTile]
    missions: dict[str, Mission]
    maps: dict[str, MapDef]
    boards: dict[str, Board]
    pack: str | None = None  # the data pack's name (or folder, when loaded from one)
    pack_dir: Path | None = None
    pack_hash: str | None = None  # content hash of the pack's files (see pack_hash())

    def building_era(self, side_id: str) -> int:
        return self.buildings[self.side_tile[side_id]].era

    def other_side(self, side_id: str) -> str:
        tile = self.buildings[self.side_tile[side_id]]
        a, b = tile.sides
        return b.id if a.id == side_id else a.id

    def maps_for(self, players: int) -> list[MapDef]:
        return [m for m in self.maps.values() if m.players == players]


def _read_toml(path: Path) -> dict[str, Any]:
    if path.is_dir():
        raise DataError(f"{path}: is a folder; a data file must be a TOML file")
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as e:
        raise DataError(f"{path}: file not found") from e
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text (byte {e.start}: {e.reason})") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path}: not valid TOML: {e}") from e
    except OSError as e:
        raise DataError(f"{path}: cannot be read: {e.strerror or e}") from None


def _ignored(p: Path) -> bool:
    """Files a pack may hold besides data: hidden files and a README."""
    return p.name.startswith(".") or (p.is_file() and p.stem.upper() == "README")


def check_pack_files(pack: Path) -> None:
    """Refuse anything in a pack folder that is not a known data file (a misspelled
    ``monarch.toml`` would otherwise be silently ignored)."""
    known = [f"{stem}.toml" for stem in _FILES]
    for p in sorted(pack.iterdir()):
        if _ignored(p):
            continue
        if p.name == "maps":
            if not p.is_dir():
                raise DataError(f"{p}: must be a folder of map files (maps/NAME.toml)")
            for m in sorted(p.iterdir()):
                if not _ignored(m) and m.suffix != ".toml":
                    raise DataError(f"{m}: unknown file in the maps folder; maps are NAME.toml")
            continue
        if p.name not in known:
            raise DataError(
                f"{p}: unknown file '{p.name}' in data pack; known names: "
                + ", ".join(sorted(known))
                + ", maps/"
            )


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def _validate(path: Path, entry: Mapping[str, Any], model: type[_Model]) -> Any:
    try:
        return model.model_validate(entry)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(p) for p in err["loc"]) or "(entry)"
        ident = entry.get("id", "?") if isinstance(entry, Mapping) else "?"
        more = f" (and {e.error_count() - 1} more problems)" if e.error_count() > 1 else ""
        raise DataError(f"{path}: entry '{ident}', field '{loc}': {err['msg']}{more}") from e


def _entries(path: Path, table: str) -> tuple[list[dict[str, Any]], bool]:
    """The entries of one file, and whether the file asks to replace the defaults."""
    doc = _read_toml(path)
    raw = doc.get(table, [])
    if not isinstance(raw, list) or not all(isinstance(x, dict) for x in raw):
        raise DataError(f"{path}: '{table}' must be an array of tables ([[{table}]])")
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        if "id" not in entry:
            raise DataError(f"{path}: entry #{i + 1} of [[{table}]], field 'id': missing")
        eid = entry["id"]
        if not isinstance(eid, str):
            raise DataError(f"{path}: entry #{i + 1} of [[{table}]], field 'id': not a string")
        if eid in seen:
            raise DataError(f"{path}: entry '{eid}', field 'id': duplicate id")
        seen.add(eid)
    replace = doc.get("replace", False)
    if not isinstance(replace, bool):
        raise DataError(f"{path}: field 'replace' must be true or false")
    return list(raw), replace


def _load_kind(stem: str, pack: Path | None) -> dict[str, Any]:
    table, model = _FILES[stem]
    path = DATA_DIR / f"{stem}.toml"
    merged: dict[str, dict[str, Any]] = {}
    origin: dict[str, Path] = {}
    for entry in _entries(path, table)[0]:
        merged[entry["id"]] = entry
        origin[entry["id"]] = path
    if pack is not None and (pack / f"{stem}.toml").exists():
        ppath = pack / f"{stem}.toml"
        entries, replace = _entries(ppath, table)
        if replace:  # the pack's file stands instead of the default one
            merged, origin = {}, {}
        for entry in entries:
            eid = entry["id"]
            merged[eid] = _deep_merge(merged.get(eid, {}), entry)
            origin[eid] = ppath
    return {eid: _validate(origin[eid], e, model) for eid, e in merged.items()}


def _load_maps(pack: Path | None) -> dict[str, MapDef]:
    files: dict[str, Path] = {p.stem: p for p in sorted((DATA_DIR / "maps").glob("*.toml"))}
    out: dict[str, MapDef] = {}
    raw: dict[str, tuple[Path, dict[str, Any]]] = {}
    for _stem, p in files.items():
        doc = _read_toml(p)
        raw[doc.get("id", p.stem)] = (p, doc)
    if pack is not None and (pack / "maps").is_dir():
        ids: dict[str, Path] = {}
        for p in sorted((pack / "maps").glob("*.toml")):
            doc = _read_toml(p)
            mid = doc.get("id", p.stem)
            if not isinstance(mid, str):
                raise DataError(f"{p}: field 'id': not a string")
            if mid in ids:
                raise DataError(f"{p}: entry '{mid}', field 'id': duplicate id (also {ids[mid]})")
            ids[mid] = p
            base = raw.get(mid, (p, {}))[1]
            raw[mid] = (p, _deep_merge(base, doc))
    for mid, (p, doc) in raw.items():
        out[mid] = _validate(p, doc, MapDef)
    return out


def _where(stem: str, cat: Catalog) -> Path:
    """The file an entry of ``stem`` most likely came from (the pack's, if it has one)."""
    if cat.pack_dir is not None and (cat.pack_dir / f"{stem}.toml").is_file():
        return cat.pack_dir / f"{stem}.toml"
    return DATA_DIR / f"{stem}.toml"


def _cross_check(cat: Catalog) -> None:
    """Relations between files (a unit's colour, a monarch's id, a map's capital count...)."""
    for c in cat.colours.values():
        for t in c.monarch_tiles:
            for mid in t.sides:
                if mid not in cat.monarchs:
                    raise DataError(
                        f"{DATA_DIR / 'colours.toml'}: entry '{c.id}', field 'monarch_tiles': "
                        f"unknown monarch '{mid}'"
                    )
    for mp in cat.maps.values():
        b = cat.boards[mp.id]
        path = DATA_DIR / "maps" / f"{mp.id}.toml"
        if len(b.capital_sites) != mp.players:
            raise DataError(
                f"{path}: entry '{mp.id}', field 'rows': {len(b.capital_sites)} capital sites "
                f"('C') for a {mp.players}-player map"
            )
        if len(b.fog) > sum(t.count for t in cat.exploration.values()):
            raise DataError(f"{path}: entry '{mp.id}', field 'rows': more fog hexes than tiles")
        for pu in mp.preset_units:
            if pu.hex not in b.terrain:
                raise DataError(
                    f"{path}: entry '{mp.id}', field 'preset_units': hex {pu.hex} not on the map"
                )
            if mp.enemy_colour is None or f"{mp.enemy_colour}.{pu.unit}" not in cat.units:
                raise DataError(
                    f"{path}: entry '{mp.id}', field 'preset_units': unknown unit '{pu.unit}'"
                )
    for mon in cat.monarchs.values():
        ov = mon.building_override
        if ov is not None and ov.side not in cat.sides:
            raise DataError(
                f"{_where('monarchs', cat)}: entry '{mon.id}', field "
                f"'building_override.side': unknown building side '{ov.side}' (sides: "
                + ", ".join(sorted(cat.sides))
                + ")"
            )
    for m in cat.missions.values():
        for ob in m.objectives:
            if ob.kind == "buildings" and ob.type is not None and ob.type not in cat.sides:
                raise DataError(
                    f"{DATA_DIR / 'missions.toml'}: entry '{m.id}', field 'objectives': "
                    f"unknown building '{ob.type}'"
                )


# ---------------------------------------------------------------- data packs by name

PACK_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
_PACK_NAME = re.compile(PACK_NAME_PATTERN)
_packs_folder: Path | None = None


def set_packs_folder(folder: str | Path | None) -> None:
    """Set the folder where data packs are looked up by name (``folder/NAME/``).

    The application calls this at start-up (e.g. with the ``TURNPOST_PACKS_DIR`` setting it
    reads); the rules engine reads no environment. ``None``: no packs, only the defaults.
    Setting it (again) drops the cached catalogs, so changed packs are re-read and checked
    against the hashes recorded in games.
    """
    global _packs_folder
    _packs_folder = Path(folder) if folder is not None else None
    _cached_catalog.cache_clear()


def packs_folder() -> Path | None:
    """The folder data packs are looked up in (None: not configured)."""
    return _packs_folder


def check_pack_name(name: object) -> str:
    """``name`` if it is a valid pack name (letters, digits, ``_ . -``; no paths)."""
    if not isinstance(name, str) or not _PACK_NAME.match(name):
        raise DataError(
            f"{name!r} is not a data pack name: a pack name is letters, digits, '_', '.' and "
            "'-' (starting with a letter or digit), never a path"
        )
    return name


def pack_path(name: str) -> Path:
    """The folder of the data pack called ``name`` in the packs folder."""
    check_pack_name(name)
    folder = _packs_folder
    if folder is None:
        raise DataError(
            f"data pack '{name}': no packs folder is configured "
            "(the application calls rules.brazil.catalog.set_packs_folder)"
        )
    path = folder / name
    if not path.is_dir():
        known = (
            sorted(p.name for p in folder.iterdir() if p.is_dir() and _PACK_NAME.match(p.name))
            if folder.is_dir()
            else []
        )
        raise DataError(
            f"data pack '{name}' not found in {folder}; packs: " + (", ".join(known) or "none")
        )
    return path


def pack_hash(folder: Path) -> str:
    """SHA-256 of a pack folder's files (names and contents; hidden files left out), as
    ``"sha256:HEX"``: recorded in a game's state, checked when its catalog is loaded."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not p.is_file():
            continue
        data = p.read_bytes()
        h.update(f"{rel.as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return "sha256:" + h.hexdigest()


def load_catalog(pack: str | Path | None = None) -> Catalog:
    """Load and validate all data, optionally with a data pack on top: a ``str`` is a pack
    name looked up in the packs folder (:func:`set_packs_folder`), a ``Path`` a pack folder
    given directly (command-line tools)."""
    if isinstance(pack, str):
        cat = load_catalog(pack_path(pack))
        return dataclasses.replace(cat, pack=pack)
    ppath = pack
    if ppath is not None and not ppath.is_dir():
        raise DataError(f"{ppath}: data pack folder not found")
    if ppath is not None:
        check_pack_files(ppath)
    kinds = {stem: _load_kind(stem, ppath) for stem in _FILES}
    sides: dict[str, BuildingSide] = {}
    side_tile: dict[str, str] = {}
    for tile in kinds["buildings"].values():
        for s in tile.sides:
            sides[s.id] = s
            side_tile[s.id] = tile.id
    units: dict[str, Unit] = {}
    for c in kinds["colours"].values():
        for u in c.units:
            units[f"{c.id}.{u.id}"] = u
    maps = _load_maps(ppath)
    cat = Catalog(
        buildings=kinds["buildings"],
        sides=sides,
        side_tile=side_tile,
        cities=kinds["cities"],
        capitals=kinds["capitals"],
        colours=kinds["colours"],
        units=units,
        monarchs=kinds["monarchs"],
        products=kinds["products"],
        arches=kinds["arches"],
        paintings=kinds["paintings"],
        gold_cards=kinds["gold_cards"],
        combat_cards=kinds["combat_cards"],
        exploration=kinds["exploration"],
        missions=kinds["missions"],
        maps=maps,
        boards={mid: compile_board(m) for mid, m in maps.items()},
        pack=str(ppath) if ppath else None,
        pack_dir=ppath,
        pack_hash=pack_hash(ppath) if ppath else None,
    )
    _cross_check(cat)
    return cat


@lru_cache(maxsize=8)
def _cached_catalog(pack: str | None) -> Catalog:
    return load_catalog(pack)


def get_catalog(pack: str | None = None, expected_hash: str | None = None) -> Catalog:
    """The cached catalog for the data pack named ``pack`` (None = the defaults).

    ``expected_hash`` (a game's ``data_pack_hash``) must match the pack's content hash,
    else :class:`DataError`: the pack changed since the game started.
    """
    cat = _cached_catalog(pack)
    if expected_hash is not None and cat.pack_hash != expected_hash:
        raise DataError(
            f"data pack '{pack}' has changed since this game started "
            f"(recorded {expected_hash}, now {cat.pack_hash})"
        )
    return cat
