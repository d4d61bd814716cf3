"""``python -m devtools.loadtest`` runs (a tiny configuration; the figures are printed, never
asserted on) and its ``--kill`` mode: the bot SIGKILLed inside a save's transaction and at a
random moment, restarted, and nothing acknowledged lost (issue #12, "Load and faults")."""

from __future__ import annotations

import io

import pytest

from devtools.killtest import kill_run
from devtools.loadtest import main, parser, percentile, run


@pytest.mark.slow
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


@pytest.mark.slow
async def test_loadtest_ramp_runs() -> None:
    args = parser().parse_args(
        ["--games", "2", "--rate", "2", "--duration", "2", "--ramp", "2,4",
         "--ramp-duration", "4", "--no-images"]
    )  # fmt: skip
    out = io.StringIO()
    figures = await run(args, out)
    assert "ramp rate" in out.getvalue()
    assert figures["errors"] == [] and figures["mismatched"] == []


@pytest.mark.slow
async def test_loadtest_compares_threads_and_the_pool_with_ai_games_thinking() -> None:
    """``--compare-pool --ai-games``: the same test twice in one run (threads, then the
    process pool), computer players thinking during the main run, the figures side by side."""
    args = parser().parse_args(
        ["--games", "2", "--rate", "2", "--duration", "3", "--seed", "4", "--no-ramp",
         "--ai-games", "2", "--compare-pool", "--workers", "2"]
    )  # fmt: skip
    out = io.StringIO()
    figures = await run(args, out)
    text = out.getvalue()
    assert "=== threads (--no-pool) ===" in text
    assert "=== process pool (2 worker processes) ===" in text
    assert "side by side" in text and "(2 AI games thinking)" in text
    assert [f["workers"] for f in figures["compare"]] == [0, 2]
    assert all(f["ai_steps"] > 0 for f in figures["compare"]), text  # they did think
    assert figures["errors"] == [] and figures["mismatched"] == [] and figures["duplicates"] == 0


@pytest.mark.slow
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
    for opt in ("--games", "--rate", "--duration", "--seed", "--faults", "--no-images", "--kill",
                "--no-pool", "--compare-pool", "--ai-games", "--workers"):  # fmt: skip
        assert opt in text
    with pytest.raises(SystemExit):
        main(["--faults"])
    assert main(["--rate", "0"]) == 2
    assert main(["--ai-games", "-1"]) == 2 and main(["--workers", "0"]) == 2
    with pytest.raises(SystemExit):
        main(["--no-pool", "--compare-pool"])
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([1.0] * 99 + [9.0], 0.99) == 1.0
