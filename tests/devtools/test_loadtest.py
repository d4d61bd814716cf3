"""``python -m devtools.loadtest`` runs (a tiny configuration; the figures are printed, never
asserted on) and its ``--kill`` mode: the bot SIGKILLed inside a save's transaction and at a
random moment, restarted, and nothing acknowledged lost (issue #12, "Load and faults")."""

from __future__ import annotations

import io

import pytest

from devtools.killtest import kill_run
from devtools.loadtest import main, parser, percentile, run


async def test_loadtest_runs_a_tiny_configuration_with_faults() -> None:
    args = parser().parse_args(
        ["--games", "3", "--rate", "3", "--duration", "4", "--seed", "2", "--no-ramp",
         "--faults", "429=0.05,global=0.02,latency=0.002"]
    )  # fmt: skip
    out = io.StringIO()
    figures = await run(args, out)
    text = out.getvalue()
    for needle in (
        "ack latency: p50",
        "acknowledged within 3 s",
        "action to map posted",
        "errors: 0",
    ):
        assert needle in text, text
    assert figures["errors"] == [] and figures["duplicates"] == 0
    assert figures["mismatched"] == []  # the stored games equal the players' copies
    assert figures["maps"] > 0 and figures["faulted"] > 0


async def test_loadtest_ramp_runs() -> None:
    args = parser().parse_args(
        ["--games", "2", "--rate", "2", "--duration", "2", "--ramp", "2,4",
         "--ramp-duration", "4", "--no-images"]
    )  # fmt: skip
    out = io.StringIO()
    figures = await run(args, out)
    assert "ramp rate" in out.getvalue()
    assert figures["errors"] == [] and figures["mismatched"] == []


async def test_kill_inside_a_save_and_at_random_loses_nothing() -> None:
    out = io.StringIO()
    res = await kill_run(kills=2, games=2, seed=3, out=out)
    assert res["in_save"] == 1, out.getvalue()  # the first kill hit an open transaction
    assert res["acknowledged"] > 0
    assert (res["lost"], res["duplicates"], res["extra"]) == (0, 0, 0), out.getvalue()
    assert (res["bad_buttons"], res["stuck"]) == (0, 0), res["problems"]
    assert res["problems"] == []
    # (pending reminders firing once after a restart: devtools.killtest.RESTART_CHECKS)
    assert "tried: 2 kills" in out.getvalue() and "lost: 0" in out.getvalue()


def test_help_and_arguments() -> None:
    text = parser().format_help()
    for opt in ("--games", "--rate", "--duration", "--seed", "--faults", "--no-images", "--kill"):
        assert opt in text
    with pytest.raises(SystemExit):
        main(["--faults"])
    assert main(["--rate", "0"]) == 2
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([1.0] * 99 + [9.0], 0.99) == 1.0
