"""Component data: every file loads and validates; data packs override and are validated;
errors name the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.brazil.catalog import load_catalog
from rules.errors import DataError


def test_defaults_load_with_every_component():
    cat = load_catalog()
    assert sum(t.count for t in cat.buildings.values()) == 50
    assert len(cat.cities) == 8 and all(c.vp == 5 for c in cat.cities.values())
    assert len(cat.capitals) == 4 and sum(c.first_player for c in cat.capitals.values()) == 1
    assert set(cat.colours) == {"green", "orange", "red", "blue"}
    assert len(cat.monarchs) == 10
    assert len(cat.products) == 6
    assert len(cat.paintings) == 24
    assert all(
        sum(p.frame == f for p in cat.paintings.values()) == 8 for f in ("red", "pink", "blue")
    )
    assert sum(c.count for c in cat.gold_cards.values()) == 20
    assert sum(c.count for c in cat.combat_cards.values()) == 24
    assert sum(t.count for t in cat.exploration.values()) == 18
    assert len(cat.missions) == 24
    assert len(cat.maps) == 9
    assert sorted(m.players for m in cat.maps.values()) == [1, 2, 2, 3, 3, 3, 4, 4, 4]


def test_every_entry_keeps_its_source():
    cat = load_catalog()
    groups = [
        cat.buildings,
        cat.cities,
        cat.capitals,
        cat.colours,
        cat.monarchs,
        cat.products,
        cat.arches,
        cat.paintings,
        cat.gold_cards,
        cat.combat_cards,
        cat.exploration,
        cat.missions,
        cat.maps,
    ]
    for group in groups:
        for entry in group.values():
            assert entry.source, entry


def test_green_roster_matches_the_seed():
    cat = load_catalog()
    vps = [u.vp for u in cat.colours["green"].units]
    assert vps == [2, 2, 3, 4, 5]
    assert [t.sides for t in cat.colours["green"].monarch_tiles] == [
        ["pedro_ii", "dom_oba_ii"],
        ["pedro_i", "tibirica"],
    ]


def test_data_pack_overrides_and_adds_entries(tmp_path: Path):
    (tmp_path / "cities.toml").write_text('[[cities]]\nid = "recife"\ncost = ["gold"]\n')
    (tmp_path / "combat_cards.toml").write_text(
        '[[cards]]\nid = "militia"\ncount = 5\n'
        '[[cards]]\nid = "cannonade"\nname = "Cannonade"\ncount = 1\neffect = "fp"\n'
        'params = { fp = 3 }\ntext = "+3 FP."\nsource = "faq"\n'
    )
    cat = load_catalog(tmp_path)
    assert cat.cities["recife"].cost == ["gold"]
    assert cat.cities["recife"].name == "Recife"  # other fields kept
    assert cat.combat_cards["militia"].count == 5
    assert cat.combat_cards["cannonade"].params == {"fp": 3}


def test_data_pack_file_can_replace_the_defaults(tmp_path: Path):
    lines = ["replace = true"]
    for i in range(8):
        lines.append(
            f'[[cities]]\nid = "c{i}"\nname = "City {i}"\ncost = ["gold"]\nvp = 4\nsource = "faq"'
        )
    (tmp_path / "cities.toml").write_text("\n".join(lines) + "\n")
    cat = load_catalog(tmp_path)
    assert sorted(cat.cities) == [f"c{i}" for i in range(8)]
    assert all(c.vp == 4 for c in cat.cities.values())


def test_broken_pack_names_file_entry_and_field(tmp_path: Path):
    (tmp_path / "buildings.toml").write_text('[[tiles]]\nid = "A"\ncount = "many"\n')
    with pytest.raises(DataError) as e:
        load_catalog(tmp_path)
    msg = str(e.value)
    assert "buildings.toml" in msg and "'A'" in msg and "'count'" in msg


def test_bad_cost_token_is_explained(tmp_path: Path):
    (tmp_path / "products.toml").write_text('[[products]]\nid = "dye"\ncost = ["rum"]\n')
    with pytest.raises(DataError, match=r"products.toml: entry 'dye', field 'cost'.*rum"):
        load_catalog(tmp_path)


def test_not_toml_and_missing_pack(tmp_path: Path):
    (tmp_path / "cities.toml").write_text("[[cities]\n")
    with pytest.raises(DataError, match="not valid TOML"):
        load_catalog(tmp_path)
    with pytest.raises(DataError, match="not found"):
        load_catalog(tmp_path / "nope")


def test_pack_map_must_have_capitals_for_its_players(tmp_path: Path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tiny.toml").write_text(
        'id = "tiny"\nname = "Tiny"\nplayers = 2\nsource = "design"\nrows = ["pCp", "ppp"]\n'
    )
    with pytest.raises(DataError, match=r"tiny.*1 capital sites"):
        load_catalog(tmp_path)


def test_unknown_map_character_is_reported(tmp_path: Path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "x.toml").write_text(
        'id = "x"\nname = "X"\nplayers = 1\nsource = "design"\nrows = ["pCpZ"]\n'
    )
    with pytest.raises(DataError, match=r"x.toml: entry 'x', field 'rows'.*Z"):
        load_catalog(tmp_path)


def test_describe_prints_every_table():
    from rules.brazil.describe import describe

    text = describe()
    for title in (
        "Buildings",
        "Cities",
        "Colours and units",
        "Monarchs",
        "Products",
        "Paintings",
        "Gold cards",
        "Combat cards",
        "Exploration tiles",
        "Missions",
        "Maps",
    ):
        assert f"== {title}" in text
    assert "Sawmill" in text and "Guararapes" in text


# ---------------------------------------------------------------- strict packs (issue 7, defect 6)


def test_misspelled_pack_file_is_refused_naming_the_known_files(tmp_path: Path):
    (tmp_path / "monarch.toml").write_text('[[monarchs]]\nid = "manuel_i"\nname = "X"\n')
    with pytest.raises(DataError) as e:
        load_catalog(tmp_path)
    msg = str(e.value)
    assert "monarch.toml" in msg and "monarchs.toml" in msg and "cities.toml" in msg


def test_unknown_file_in_pack_maps_folder_is_refused(tmp_path: Path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "tiny.txt").write_text("rows = []\n")
    with pytest.raises(DataError, match=r"tiny.txt"):
        load_catalog(tmp_path)


def test_same_id_twice_in_a_pack_file_is_refused(tmp_path: Path):
    (tmp_path / "cities.toml").write_text(
        '[[cities]]\nid = "recife"\nvp = 1\n[[cities]]\nid = "recife"\nvp = 2\n'
    )
    with pytest.raises(DataError, match=r"cities.toml: entry 'recife', field 'id': duplicate"):
        load_catalog(tmp_path)


def test_id_must_be_a_string(tmp_path: Path):
    (tmp_path / "cities.toml").write_text("[[cities]]\nid = [1]\nvp = 1\n")
    with pytest.raises(DataError, match=r"cities.toml: entry #1 .*field 'id'"):
        load_catalog(tmp_path)


def test_building_override_side_must_exist(tmp_path: Path):
    (tmp_path / "monarchs.toml").write_text(
        '[[monarchs]]\nid = "manuel_i"\nbuilding_override = { side = "nosuchside" }\n'
    )
    with pytest.raises(DataError) as e:
        load_catalog(tmp_path)
    msg = str(e.value)
    assert "monarchs.toml" in msg and "'manuel_i'" in msg and "building_override" in msg
    assert "nosuchside" in msg


@pytest.mark.parametrize(
    ("stem", "table", "eid"),
    [
        ("exploration", "tiles", "unknown_species"),
        ("gold_cards", "cards", "commerce"),
        ("combat_cards", "cards", "militia"),
        ("buildings", "tiles", "A"),
    ],
)
def test_absurd_counts_are_refused(tmp_path: Path, stem: str, table: str, eid: str):
    (tmp_path / f"{stem}.toml").write_text(f'[[{table}]]\nid = "{eid}"\ncount = 99999999999\n')
    with pytest.raises(DataError, match=rf"{stem}.toml: entry '{eid}', field 'count'"):
        load_catalog(tmp_path)


def test_non_utf8_file_is_a_data_error(tmp_path: Path):
    (tmp_path / "cities.toml").write_bytes(b'[[cities]]\nid = "recife"\nname = "R\xe9cife"\n')
    with pytest.raises(DataError, match=r"cities.toml: not UTF-8"):
        load_catalog(tmp_path)


def test_folder_named_like_a_file_is_a_data_error(tmp_path: Path):
    (tmp_path / "cities.toml").mkdir()
    with pytest.raises(DataError, match=r"cities.toml: .*folder"):
        load_catalog(tmp_path)
    (tmp_path / "cities.toml").rmdir()
    (tmp_path / "maps").write_text("")
    with pytest.raises(DataError, match=r"maps: .*folder"):
        load_catalog(tmp_path)
