"""``python -m devtools.loadtest`` runs (a tiny configuration; the figures are printed, never
asserted on) and its ``--kill`` mode: the bot SIGKILLed inside a save's transaction and at a
random moment, restarted, and nothing acknowledged lost (issue #12, "Load and faults")."""

from __future__ import annotations

import io

import pytest

from devtools.fakediscord import FakeDiscord, Request
from devtools.killtest import kill_run
from devtools.loadtest import (
    announced_versions,
    end_posted,
    main,
    parser,
    percentile,
    refusal_line,
    run,
)


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
async def test_loadtest_counts_discords_refusals_and_the_steps_never_announced() -> None:
    """Discord's refusals injected (issue #30): the report counts them by kind and counts
    the steps saved that no public post showed; the players' copies still equal the store
    (a refused answer is no lost step)."""
    args = parser().parse_args(
        ["--games", "3", "--rate", "3", "--duration", "4", "--seed", "3", "--no-ramp",
         "--no-images", "--workers", "1",
         "--faults", "edit_quota=0.1,late=0.05,expired=0.05,no_permission=0.05,"
                     "too_large=0.05,deleted=0.05,seed=3"]
    )  # fmt: skip
    out = io.StringIO()
    figures = await run(args, out)
    text = out.getvalue()
    assert "refusals by kind: " in text and "steps saved but never announced: " in text, text
    assert sum(figures["refusals"].values()) == figures["faulted"] > 0, text
    assert set(figures["refusals"]) <= {
        "edit_quota", "late", "expired", "no_permission", "too_large", "deleted"
    }  # fmt: skip
    assert figures["unannounced"] >= 0 and figures["mismatched"] == [], text


def test_announced_versions_and_refusal_counts() -> None:
    """The versions a channel heard of: the newest Take-my-turn button of the public posts
    and edits Discord accepted; a refused one (or one answered 404) does not count."""

    def post(path: str, version: int, status: int, method: str = "POST") -> Request:
        button = {"type": 2, "custom_id": f"brz:t:7:{version}"}
        body = {"components": [{"type": 1, "components": [button]}]}
        return Request(method, path, {}, body, status=status)

    fake = FakeDiscord()
    fake.requests += [
        post("/channels/5/messages", 3, 200),
        post("/channels/5/messages/1", 4, 200, "PATCH"),
        post("/channels/5/messages/1", 6, 404, "PATCH"),  # the message was deleted
        Request("POST", "/channels/5/messages", {}, {"content": "the end"}, status=200),
    ]
    fake.faulted.append(("edit_quota", post("/channels/5/messages/1", 5, 429, "PATCH")))
    fake.refused.append(("late", Request("POST", "/interactions/1/t/callback", {}, {})))
    assert announced_versions(fake) == {7: 4}
    assert end_posted(fake, 5, 4) and not end_posted(fake, 5, 6) and not end_posted(fake, 6, 4)
    assert refusal_line(fake.refusals()) == "edit_quota 1, late 1"
    assert refusal_line({}) == "none"


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
                "--no-pool", "--compare-pool", "--ai-games", "--workers", "--buckets"):  # fmt: skip
        assert opt in text
    for kind in ("edit_quota", "late", "expired", "dm_closed", "no_permission", "too_large"):
        assert kind in text
    assert "deleted" in text and "never announced" in text
    with pytest.raises(SystemExit):
        main(["--faults"])
    assert main(["--rate", "0"]) == 2
    assert main(["--ai-games", "-1"]) == 2 and main(["--workers", "0"]) == 2
    with pytest.raises(SystemExit):
        main(["--no-pool", "--compare-pool"])
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([1.0] * 99 + [9.0], 0.99) == 1.0
