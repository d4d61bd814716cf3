"""Discord's published limits on what a bot sends, checked on every request the fake Discord
server receives (:mod:`devtools.fakediscord`): a message (content, embeds, Components V2),
its files and mentions, a thread or forum post and a forum's tags. A request that breaks one
is answered 400 with Discord's code 50035 ("Invalid Form Body") and the problem, as Discord
does, so every end-to-end and load test fails on a payload the real Discord would refuse.

Sources (Discord developer documentation, 2025-2026): *Message Resource* (content 2000
characters, 10 embeds, 10 files, allowed mentions), *Embed Limits* (title 256, description
4096, 25 fields of name 256 and value 1024, footer 2048, author 256, 6000 in all), *Component
Reference* (action rows of 1-5 buttons or one select; button label 80; custom id 1-100;
select options 1-25 of label, value and description 100, placeholder 150; Components V2: 40
components in all, 4000 characters of text displays, sections of 1-3 text displays with one
accessory, galleries of 1-10 items, descriptions 1024), *Channel Resource* (thread name 1-100,
auto-archive 60/1440/4320/10080 minutes, a forum post needs a first message, 5 applied tags,
20 available tags of 20 characters).

    problems = message_problems(body, files)   # [] when Discord would take it
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = [
    "IS_V2",
    "channel_edit_problems",
    "message_problems",
    "thread_problems",
]

IS_V2 = 1 << 15
"""The message flag of Components V2 (no content, no embeds: components only)."""

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
FILES = 10
V2_COMPONENTS = 40
V2_TEXT = 4000
ROWS = 5  # action rows of a message without Components V2
BUTTONS_PER_ROW = 5
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MEDIA_DESCRIPTION = 1024
GALLERY_ITEMS = 10
SECTION_TEXTS = 3
MENTIONS = 100
THREAD_NAME = 100
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
APPLIED_TAGS = 5
AVAILABLE_TAGS = 20
TAG_NAME = 20

_IN_CONTAINER = {1, 9, 10, 12, 13, 14}  # action row, section, text, gallery, file, separator
_TOP_V2 = _IN_CONTAINER | {17}
_SELECTS = {3, 5, 6, 7, 8}


def _walk(comps: list[Any]) -> Iterator[dict[str, Any]]:
    for c in comps:
        if isinstance(c, dict):
            yield c
            yield from _walk(c.get("components") or [])
            acc = c.get("accessory")
            if isinstance(acc, dict):
                yield acc


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _embed_problems(embeds: list[Any]) -> list[str]:
    found: list[str] = []
    if len(embeds) > EMBEDS:
        found.append(f"{len(embeds)} embeds (at most {EMBEDS})")
    total = 0
    for n, e in enumerate(embeds):
        if not isinstance(e, dict):
            continue
        limits = (("title", 256), ("description", 4096))
        for key, most in limits:
            size = len(_text(e.get(key)))
            total += size
            if size > most:
                found.append(f"embed {n}: {key} of {size} characters (at most {most})")
        fields = e.get("fields") or []
        if len(fields) > 25:
            found.append(f"embed {n}: {len(fields)} fields (at most 25)")
        for f in fields:
            name, value = _text(f.get("name")), _text(f.get("value"))
            total += len(name) + len(value)
            if len(name) > 256 or len(value) > 1024:
                found.append(f"embed {n}: a field over 256/1024 characters")
        for key, sub, most in (("footer", "text", 2048), ("author", "name", 256)):
            size = len(_text((e.get(key) or {}).get(sub)))
            total += size
            if size > most:
                found.append(f"embed {n}: {key} of {size} characters (at most {most})")
    if total > EMBED_TOTAL:
        found.append(f"embeds of {total} characters in all (at most {EMBED_TOTAL})")
    return found


def _component_problems(c: dict[str, Any], v2: bool) -> list[str]:
    kind = c.get("type")
    found: list[str] = []
    cid = c.get("custom_id")
    if cid is not None and not 1 <= len(str(cid)) <= CUSTOM_ID:
        found.append(f"custom_id of {len(str(cid))} characters (1 to {CUSTOM_ID})")
    if kind == 1:  # action row
        inner = [x for x in c.get("components") or [] if isinstance(x, dict)]
        kinds = {x.get("type") for x in inner}
        if not inner:
            found.append("an empty action row")
        elif kinds & _SELECTS and len(inner) != 1:
            found.append("a select shares its action row")
        elif kinds == {2} and len(inner) > BUTTONS_PER_ROW:
            found.append(f"{len(inner)} buttons in a row (at most {BUTTONS_PER_ROW})")
    elif kind == 2:  # button
        label = _text(c.get("label"))
        if len(label) > BUTTON_LABEL:
            found.append(f"a button label of {len(label)} characters (at most {BUTTON_LABEL})")
        if not label and not c.get("emoji"):
            found.append("a button without label or emoji")
        link = c.get("style") == 5
        if link and (not c.get("url") or cid is not None):
            found.append("a link button needs a url and no custom_id")
        if not link and c.get("style") != 6 and cid is None:
            found.append("a button without custom_id")
    elif kind == 3:  # string select
        options = c.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS:
            found.append(f"a select of {len(options)} options (1 to {SELECT_OPTIONS})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            found.append("a select with two options of one value")
        for o in options:
            for key in ("label", "value", "description"):
                size = len(_text(o.get(key)))
                if size > OPTION_TEXT:
                    found.append(f"a select option's {key} of {size} characters (at most 100)")
            if not _text(o.get("label")) or not _text(o.get("value")):
                found.append("a select option without label or value")
        low, high = int(c.get("min_values", 1)), int(c.get("max_values", 1))
        if not 0 <= low <= high <= min(SELECT_OPTIONS, max(len(options), 1)):
            found.append(f"a select's min/max values {low}/{high} do not fit its options")
    if kind in _SELECTS and len(_text(c.get("placeholder"))) > PLACEHOLDER:
        found.append(f"a placeholder over {PLACEHOLDER} characters")
    if not v2:
        return found
    if kind == 9:  # section
        texts = c.get("components") or []
        if not 1 <= len(texts) <= SECTION_TEXTS or any(t.get("type") != 10 for t in texts):
            found.append(f"a section holds 1 to {SECTION_TEXTS} text displays")
        acc = c.get("accessory")
        if not isinstance(acc, dict) or acc.get("type") not in (2, 11):
            found.append("a section needs a button or a thumbnail as its accessory")
    elif kind == 10 and not _text(c.get("content")):
        found.append("an empty text display")
    elif kind == 11 and len(_text(c.get("description"))) > MEDIA_DESCRIPTION:
        found.append(f"a thumbnail description over {MEDIA_DESCRIPTION} characters")
    elif kind == 12:  # media gallery
        items = c.get("items") or []
        if not 1 <= len(items) <= GALLERY_ITEMS:
            found.append(f"a gallery of {len(items)} items (1 to {GALLERY_ITEMS})")
        for item in items:
            if len(_text(item.get("description"))) > MEDIA_DESCRIPTION:
                found.append(f"a gallery item's description over {MEDIA_DESCRIPTION}")
            if not _text((item.get("media") or {}).get("url")):
                found.append("a gallery item without media url")
    elif kind == 13 and not _text((c.get("file") or {}).get("url")).startswith("attachment://"):
        found.append("a file component must show an attachment:// upload")
    elif kind == 14 and c.get("spacing", 1) not in (1, 2):
        found.append("a separator's spacing is 1 or 2")
    elif kind == 17:  # container
        inner = c.get("components") or []
        if not inner or any(x.get("type") not in _IN_CONTAINER for x in inner):
            found.append("a container holds rows, sections, texts, galleries, files, separators")
        colour = c.get("accent_color")
        if colour is not None and not 0 <= int(colour) <= 0xFFFFFF:
            found.append("an accent colour outside 0 to 0xFFFFFF")
    return found


def _mention_problems(allowed: Mapping[str, Any] | None) -> list[str]:
    if not allowed:
        return []
    found: list[str] = []
    parse = set(allowed.get("parse") or [])
    for key in ("users", "roles"):
        listed = allowed.get(key) or []
        if len(listed) > MENTIONS:
            found.append(f"allowed_mentions.{key}: {len(listed)} ids (at most {MENTIONS})")
        if listed and key in parse:
            found.append(f"allowed_mentions: {key} both parsed and listed")
    return found


def message_problems(
    body: Mapping[str, Any], files: Mapping[str, bytes] | None = None, *, edit: bool = False
) -> list[str]:
    """What Discord would refuse in a message's JSON body (a post, an edit with ``edit``,
    an interaction's message or a follow-up) and its uploaded ``files``."""
    found: list[str] = []
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_V2)
    content = _text(body.get("content"))
    embeds = body.get("embeds") or []
    comps = [c for c in body.get("components") or [] if isinstance(c, dict)]
    if v2 and (content or embeds):
        found.append("content and embeds cannot be sent with IS_COMPONENTS_V2")
    if len(content) > CONTENT:
        found.append(f"content of {len(content)} characters (at most {CONTENT})")
    found += _embed_problems(embeds)
    if len(files or {}) > FILES:
        found.append(f"{len(files or {})} files (at most {FILES})")
    everything = list(_walk(comps))
    if v2:
        if len(everything) > V2_COMPONENTS:
            found.append(f"{len(everything)} components (at most {V2_COMPONENTS})")
        text = sum(len(_text(c.get("content"))) for c in everything if c.get("type") == 10)
        if text > V2_TEXT:
            found.append(f"{text} characters of text displays (at most {V2_TEXT})")
        if any(c.get("type") not in _TOP_V2 for c in comps):
            found.append("a top-level component of a kind Components V2 does not take there")
    else:
        if len(comps) > ROWS:
            found.append(f"{len(comps)} action rows (at most {ROWS})")
        if any(c.get("type") != 1 for c in comps):
            found.append("components other than action rows need IS_COMPONENTS_V2")
    for c in everything:
        found += _component_problems(c, v2)
    ids = [str(c["custom_id"]) for c in everything if c.get("custom_id") is not None]
    if len(set(ids)) != len(ids):
        found.append("two components share a custom_id")
    found += _mention_problems(body.get("allowed_mentions"))
    if not edit and not (content or embeds or comps or files or body.get("sticker_ids")):
        found.append("an empty message")
    return found


def thread_problems(body: Mapping[str, Any], *, forum: bool) -> list[str]:
    """What Discord would refuse in a new thread (``forum``: a forum post, which needs its
    first message)."""
    found: list[str] = []
    name = _text(body.get("name"))
    if not 1 <= len(name) <= THREAD_NAME:
        found.append(f"a thread name of {len(name)} characters (1 to {THREAD_NAME})")
    minutes = body.get("auto_archive_duration")
    if minutes is not None and int(minutes) not in ARCHIVE_MINUTES:
        found.append(f"auto_archive_duration {minutes} (one of {ARCHIVE_MINUTES})")
    if forum:
        message = body.get("message")
        if not isinstance(message, dict):
            found.append("a forum post needs its first message")
        else:
            found += message_problems(message)
        tags = body.get("applied_tags") or []
        if len(tags) > APPLIED_TAGS:
            found.append(f"{len(tags)} applied tags (at most {APPLIED_TAGS})")
    return found


def channel_edit_problems(body: Mapping[str, Any]) -> list[str]:
    """What Discord would refuse in a channel's or thread's edit (``PATCH /channels/ID``)."""
    found: list[str] = []
    if "name" in body and not 1 <= len(_text(body.get("name"))) <= THREAD_NAME:
        found.append(f"a name of 1 to {THREAD_NAME} characters")
    minutes = body.get("auto_archive_duration")
    if minutes is not None and int(minutes) not in ARCHIVE_MINUTES:
        found.append(f"auto_archive_duration {minutes} (one of {ARCHIVE_MINUTES})")
    tags = body.get("available_tags")
    if tags is not None:
        if len(tags) > AVAILABLE_TAGS:
            found.append(f"{len(tags)} available tags (at most {AVAILABLE_TAGS})")
        names = [_text(t.get("name")) for t in tags]
        if any(not 1 <= len(n) <= TAG_NAME for n in names):
            found.append(f"a tag name of 1 to {TAG_NAME} characters")
        if len(set(names)) != len(names):
            found.append("two tags of one name")
    applied = body.get("applied_tags")
    if applied is not None and len(applied) > APPLIED_TAGS:
        found.append(f"{len(applied)} applied tags (at most {APPLIED_TAGS})")
    return found
