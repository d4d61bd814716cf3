# PLACEHOLDER until the page lands (branch web-front replaces this file whole)
import html
import json
from typing import Any


def render_page(
    live: dict[str, Any], steps: dict[str, Any], *, step: int | None = None, static: bool = False
) -> str:
    data = json.dumps({"live": live, "steps": steps}).replace("<", "\\u003c")
    return (
        "<html><body><h1>"
        + html.escape(live["title"])
        + '</h1><script id="game-data" type="application/json">'
        + data
        + "</script></body></html>"
    )


def error_page(status: int, title: str, message: str) -> str:
    return f"<html><body><h1>{html.escape(title)}</h1><p>{html.escape(message)}</p></body></html>"
