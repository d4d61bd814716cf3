"""Discord's published limits as the fake Discord server checks them
(:mod:`devtools.discord_limits`): each limit refuses a payload just past it and takes one at
it, so every end-to-end test fails on what the real Discord would refuse."""

from __future__ import annotations

from typing import Any

import pytest

from devtools.discord_limits import (
    IS_V2,
    channel_edit_problems,
    message_problems,
    thread_problems,
)


def v2(*comps: dict[str, Any]) -> dict[str, Any]:
    return {"flags": IS_V2, "components": list(comps)}


def text(s: str) -> dict[str, Any]:
    return {"type": 10, "content": s}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(cid: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


def select(n: int, **kw: Any) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": str(i)} for i in range(n)]
    return {"type": 3, "custom_id": "s", "options": options, **kw}


def container(*comps: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(comps)}


def test_a_plain_turn_post_is_taken() -> None:
    body = v2(
        container(
            text("Round 3: **Ana** builds a sawmill."),
            {"type": 12, "items": [{"media": {"url": "attachment://map.png"}}]},
            row(
                button("a:1"),
                button("a:2"),
                {"type": 2, "style": 5, "url": "https://x", "label": "Page"},
            ),
        ),
        text("<@1> decides now."),
    )
    body["allowed_mentions"] = {"users": ["1"], "parse": []}
    assert message_problems(body, {"map.png": b"x"}) == []


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"content": "x" * 2001}, "content of 2001"),
        ({"flags": IS_V2, "content": "x", "components": [text("y")]}, "IS_COMPONENTS_V2"),
        ({"embeds": [{"title": "x" * 257}]}, "title of 257"),
        ({"embeds": [{"description": "x" * 4000}, {"description": "y" * 2001}]}, "6001"),
        ({"embeds": [{}] * 11, "content": "x"}, "11 embeds"),
        (v2(*[text("x")] * 41), "41 components"),
        (v2(text("x" * 2000), text("y" * 2001)), "4001 characters"),
        (v2(row(*[button(f"b{i}") for i in range(6)])), "6 buttons"),
        (v2(row(button("b", "x" * 81))), "label of 81"),
        (v2(row(button("x" * 101))), "custom_id of 101"),
        (v2(row(select(26))), "26 options"),
        (v2(row(select(0))), "0 options"),
        (v2(row(select(2), button("b"))), "shares its action row"),
        (v2(row(select(3, placeholder="p" * 151))), "placeholder"),
        (v2(row(select(2, max_values=3))), "min/max"),
        (v2(row(button("same"), button("same"))), "share a custom_id"),
        (v2({"type": 12, "items": []}), "0 items"),
        (v2({"type": 12, "items": [{"media": {"url": "a"}}] * 11}), "11 items"),
        (v2({"type": 9, "components": [text("a")]}), "accessory"),
        (v2({"type": 9, "components": [text("a")] * 4, "accessory": button("b")}), "1 to 3"),
        (v2(text("")), "empty text display"),
        (v2(container({"type": 17, "components": [text("a")]})), "a container holds"),
        (v2(container(text("a")) | {"accent_color": 0x1000000}), "accent"),
        (v2({"type": 14, "spacing": 3}), "spacing"),
        ({"content": "x", "components": [text("y")]}, "need IS_COMPONENTS_V2"),
        ({"content": "x", "components": [row(button(f"r{i}")) for i in range(6)]}, "6 action rows"),
        ({"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "both"),
        ({"content": "x", "allowed_mentions": {"users": [str(i) for i in range(101)]}}, "101"),
        ({}, "an empty message"),
    ],
)
def test_past_a_limit_is_refused(body: dict[str, Any], problem: str) -> None:
    found = message_problems(body)
    assert any(problem in p for p in found), found


def test_the_limits_themselves_are_taken() -> None:
    at = v2(
        *[text("x" * 100)] * 34,
        row(*[button(f"b{i}", "l" * 80) for i in range(5)]),
    )
    assert message_problems(at) == []  # 40 components, 5 buttons of 80 characters
    assert message_problems(v2(*at["components"], text("one more"))) == [
        "41 components (at most 40)"
    ]
    assert message_problems(v2(row(select(25, placeholder="p" * 150)))) == []
    assert message_problems({"content": "x" * 2000}) == []
    assert message_problems(v2(text("x" * 4000))) == []
    assert message_problems({"content": "x"}, {f"f{i}.png": b"" for i in range(10)}) == []
    assert message_problems({"content": "x"}, {f"f{i}.png": b"" for i in range(11)}) == [
        "11 files (at most 10)"
    ]
    assert message_problems({"flags": IS_V2}, edit=True) == []  # an edit may change nothing


def test_threads_and_forum_posts() -> None:
    assert thread_problems({"name": "Game #12", "auto_archive_duration": 10080}, forum=False) == []
    assert thread_problems({"name": "x" * 101}, forum=False)
    assert thread_problems({"name": "g", "auto_archive_duration": 100}, forum=False)
    assert thread_problems({"name": "g"}, forum=True) == ["a forum post needs its first message"]
    post = {"name": "g", "message": {"content": "Lobby"}, "applied_tags": ["1", "2"]}
    assert thread_problems(post, forum=True) == []
    assert thread_problems(post | {"applied_tags": [str(i) for i in range(6)]}, forum=True)
    tags = [{"name": n} for n in ("open", "running", "finished")]
    assert channel_edit_problems({"available_tags": tags, "archived": False}) == []
    assert channel_edit_problems({"available_tags": [{"name": "x" * 21}]})
    assert channel_edit_problems({"available_tags": [{"name": f"t{i}"} for i in range(21)]})
    assert channel_edit_problems({"available_tags": [{"name": "a"}, {"name": "a"}]})
    assert channel_edit_problems({"name": ""})
