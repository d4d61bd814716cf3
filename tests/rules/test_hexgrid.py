"""Hex grid: axial coordinates, labels, neighbours, distance, edges and water."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.brazil.catalog import get_catalog
from rules.brazil.hexgrid import Hex, distance, normalise_label
from tests.helpers import PACK


def test_label_round_trip_and_case():
    assert Hex.parse("D7").label == "D7"
    assert normalise_label(" d07 ") == "D7"
    assert str(Hex.parse("A1")) == "A1"


@pytest.mark.parametrize("bad", ["", "7D", "DD", "D0", "D", "#3"])
def test_bad_labels_are_rejected_with_a_message(bad: str):
    with pytest.raises(ValueError, match="label"):
        Hex.parse(bad)


@given(st.integers(0, 25), st.integers(0, 40))
def test_offset_axial_round_trip(col: int, row: int):
    h = Hex.from_offset(col, row)
    assert h.to_offset() == (col, row)
    assert Hex.parse(h.label) == h


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_distance_is_a_metric(q1: int, r1: int, q2: int, r2: int):
    a, b = Hex(q1, r1), Hex(q2, r2)
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert all(a.distance(n) == 1 for n in a.neighbours())


def test_neighbours_on_the_test_map_and_edges__R_MOVE_3():
    b = get_catalog(PACK).boards["test-duel"]
    assert set(b.neighbours["C3"]) == {"D3", "C2", "B2", "B3", "B4", "C4"}
    assert distance("C3", "H6") == 7
    # R-MOVE-3 (Renovate): edge = fewer than 6 neighbours, water, or next to water.
    assert "A1" in b.edge  # a corner
    assert "H2" in b.edge and b.is_water("H2")  # water
    assert "G3" in b.edge  # next to water
    assert "D4" not in b.edge
