"""Data packs are referred to by name in a packs folder the application configures; the
state records the name and the pack's content hash, never a path (issue 7, pack names)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from rules.brazil import GameState, legal_actions, new_game
from rules.brazil.catalog import (
    DataError,
    get_catalog,
    load_catalog,
    pack_hash,
    packs_folder,
    set_packs_folder,
)

TEST_PACKS = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def packs(tmp_path: Path) -> Iterator[Path]:
    before = packs_folder()
    (tmp_path / "mypack").mkdir()
    (tmp_path / "mypack" / "cities.toml").write_text('[[cities]]\nid = "recife"\nvp = 9\n')
    set_packs_folder(tmp_path)
    yield tmp_path
    set_packs_folder(before)


def test_game_records_pack_name_and_hash(packs: Path) -> None:
    st = new_game(2, 1, data_pack="mypack")
    assert st.data_pack == "mypack"
    assert st.data_pack_hash == pack_hash(packs / "mypack")
    assert st.data_pack_hash is not None and st.data_pack_hash.startswith("sha256:")
    assert get_catalog("mypack").cities["recife"].vp == 9
    assert str(packs) not in st.model_dump_json()  # no path in the state
    again = GameState.model_validate_json(st.model_dump_json())
    assert again == st
    assert legal_actions(again)


@pytest.mark.parametrize("bad", ["/etc", "../mypack", "my/pack", ".hidden", "", "a b", "~x"])
def test_pack_names_only(packs: Path, bad: str) -> None:
    with pytest.raises(DataError, match="pack name"):
        new_game(2, 1, data_pack=bad)
    st = new_game(2, 1)
    data = st.model_dump()
    data["data_pack"] = bad
    with pytest.raises(ValidationError):  # an imported state cannot point at a path
        GameState.model_validate(data)


def test_unknown_pack_lists_the_known_ones(packs: Path) -> None:
    with pytest.raises(DataError) as e:
        new_game(2, 1, data_pack="nosuch")
    assert "nosuch" in str(e.value) and "mypack" in str(e.value)


def test_no_packs_folder_configured(packs: Path) -> None:
    set_packs_folder(None)
    with pytest.raises(DataError, match="no packs folder"):
        new_game(2, 1, data_pack="mypack")


def test_changed_pack_is_detected_by_its_hash(packs: Path) -> None:
    st = new_game(2, 1, data_pack="mypack")
    (packs / "mypack" / "cities.toml").write_text('[[cities]]\nid = "recife"\nvp = 1\n')
    set_packs_folder(packs)  # the application reloads its packs
    with pytest.raises(DataError, match="changed"):
        legal_actions(st)
    forged = st.model_copy(update={"data_pack_hash": "sha256:" + "0" * 64})
    with pytest.raises(DataError, match="changed"):
        legal_actions(forged)


def test_the_tests_pack_is_registered_by_name() -> None:
    assert packs_folder() == TEST_PACKS
    assert "test-duel" in get_catalog("pack").maps


def test_a_folder_still_loads_for_the_describe_tool(packs: Path) -> None:
    cat = load_catalog(packs / "mypack")
    assert cat.cities["recife"].vp == 9
    assert cat.pack_hash == pack_hash(packs / "mypack")
