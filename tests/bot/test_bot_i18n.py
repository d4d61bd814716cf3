"""The bot's own texts in the reader's language (issue 17), through the fake Discord server.

- Private replies (the guided turn's menus and buttons, errors, the hand's places, refusals)
  are written in the user's language (their ``/language`` choice here), while the public
  posts of the game (the turn post's footer and buttons, the status message, the lobby) are
  written in the game's language.
- A game whose language is German has German footers, buttons and status message; its
  players still read their private replies in their own language.
- In the pseudo-language (every catalogue text in brackets, :mod:`tests.i18n.pseudo`), a
  whole game played through interactions leaves no word of the bot's own texts outside
  brackets: every text the bot writes comes from a catalogue. (The texts the service writes
  — a turn's summary lines, the lobby's text, the hand, the log — are the service's and are
  checked there; the bot's texts around them are checked here.)
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import i18n
import i18n.notation
from bot.app import TurnpostBot
from devtools.textscan import read
from rules.brazil import format_action, legal_actions
from service.pacing import POLICY_KEY, FakeClock
from service.results import ai_level_word
from tests.bot.conftest import BotMaker, bot_maker
from tests.bot.fakediscord import FakeDiscord, Harness, Request, custom_ids, walk_components
from tests.bot.test_game import ANA, BO, CH, SEED, Game, start_against_ai, texts_to
from tests.i18n.pseudo import unbracketed_words

TURN_ACCENT, LOBBY_ACCENT, STATUS_ACCENT = 0x2E7D32, 0x1565C0, 0x6A1B9A


def body_of(r: Request) -> dict[str, Any]:
    """The message a request writes (an interaction callback's ``data``, else the body)."""
    if not isinstance(r.json, dict):
        return {}
    if "/callback" in r.path:
        data = r.json.get("data")
        return data if isinstance(data, dict) else {}
    return r.json


def writes(reqs: list[Request]) -> list[Request]:
    """The requests that write a message: channel posts and edits, interaction callbacks
    and follow-ups."""
    return [
        r
        for r in reqs
        if r.method in ("POST", "PATCH")
        and ("/messages" in r.path or "/callback" in r.path or "/webhooks/" in r.path)
        and body_of(r)
    ]


def containers(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in body.get("components") or [] if c.get("type") == 17]


def own_texts(body: dict[str, Any]) -> list[str]:
    """Every text a message shows: its content, the texts of its layout (a turn post's
    summary and a lobby's text too), the labels of its buttons, the placeholders and
    options of its menus."""
    out: list[str] = []
    if body.get("content"):
        out.append(str(body["content"]))
    for c in walk_components(body.get("components") or []):
        kind = c.get("type")
        if kind == 10:
            out.append(str(c.get("content") or ""))
        elif kind == 2 and c.get("label"):
            out.append(str(c["label"]))
        elif kind == 3:
            if c.get("placeholder"):
                out.append(str(c["placeholder"]))
            for o in c.get("options") or []:
                out.extend([str(o.get("label") or ""), str(o.get("description") or "")])
    return [t for t in out if t]


def footer(body: dict[str, Any]) -> str:
    """A turn post's footer: its texts after the summary."""
    (box,) = containers(body)
    texts = [str(c.get("content")) for c in box["components"] if c.get("type") == 10]
    return "\n".join(texts[1:])


def labels(body: dict[str, Any]) -> set[str]:
    return {
        str(c["label"])
        for c in walk_components(body.get("components") or [])
        if c.get("type") == 2 and c.get("label")
    }


def placeholders(body: dict[str, Any]) -> set[str]:
    return {
        str(c["placeholder"])
        for c in walk_components(body.get("components") or [])
        if c.get("type") == 3 and c.get("placeholder")
    }


def turn_posts(reqs: list[Request]) -> list[dict[str, Any]]:
    """The bodies of the game's turn posts written (posted or edited) in the channel."""
    out = []
    for r in writes(reqs):
        body = body_of(r)
        if r.path.startswith(f"/channels/{CH}/messages") and any(
            b.get("accent_color") == TURN_ACCENT for b in containers(body)
        ):
            out.append(body)
    return out


def status_posts(reqs: list[Request]) -> list[str]:
    out = []
    for r in writes(reqs):
        for box in containers(body_of(r)):
            if box.get("accent_color") == STATUS_ACCENT:
                out += [str(c.get("content")) for c in box["components"] if c.get("type") == 10]
    return out


def private_to(reqs: list[Request], uid: int) -> list[dict[str, Any]]:
    return [body_of(r) for r in writes(reqs) if r.interaction_user == uid and r.ephemeral]


async def guided_menu(fake: FakeDiscord, h: Harness, uid: int) -> tuple[list[Request], Any]:
    """``uid`` presses the last turn post's Take-my-turn button: the requests, and the
    ephemeral menu message it opened (None if none)."""
    post = Game(fake, h).last_turn_post()
    turn = next(c for c in custom_ids(post) if c.startswith("brz:t:"))
    reqs = await h.click(uid, post, turn)
    menus = [
        m for m in fake.messages.values() if any(c.startswith("brz:s:") for c in custom_ids(m))
    ]
    return reqs, (menus[-1] if menus else None)


# ============================================================================ a user's language


async def test_a_hungarian_player_reads_hungarian_replies_in_an_english_game(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    tables = h.client.tables  # type: ignore[attr-defined]
    await tables.svc.languages.set_user_language(ANA, "hu")
    started = await start_against_ai(fake, h)
    # the game's public posts: English (the game's language)
    post = turn_posts(started)[-1]
    assert "<@101>: please decide (choose colour) — by <t:" in footer(post)
    assert {"Decide", "My hand"} <= labels(post)
    assert any("Waiting for <@101> (choose colour)" in t for t in status_posts(started))

    # the guided turn's menu: Hungarian, for Ana only
    reqs, menu = await guided_menu(fake, h, ANA)
    (reply,) = private_to(reqs, ANA)
    assert reply["content"].startswith("Válassz:")  # the colour (setup): one group
    assert "Vissza" in labels(reply) and "Válassz…" in placeholders(reply)
    assert menu is not None and menu["flags"] & 64  # ephemeral
    # a spectator (English) pressing it: refused in English
    reqs, _ = await guided_menu(fake, h, BO)
    assert any("You have no seat in this game." in t for t in texts_to(reqs, BO))

    # an error of a typed command: Hungarian
    bad = await h.command(ANA, CH, "play", command="fly to the moon")
    assert any(t.startswith("Ez nem sikerült:") for t in texts_to(bad, ANA)), texts_to(bad, ANA)
    # the hand's private place: Hungarian, the DM's note too
    dm = await h.command(ANA, CH, "hand", where="dm")
    said = texts_to(dm, ANA)
    assert any("Mostantól a privát híreid a közvetlen üzeneteid közé érkeznek." in t for t in said)
    in_dm = [r.text() for r in dm if r.path == f"/channels/{fake.dms[ANA]}/messages"]
    assert in_dm and "A játék privát hírei ide érkeznek" in in_dm[0]
    # a slash command's refusal: Hungarian for Ana, English for Bo
    refused = texts_to(await h.command(BO, CH, "undo"), BO)
    assert any("You have no seat in this game." in t for t in refused), refused
    status = texts_to(await h.command(ANA, CH, "game", "status"), ANA)
    assert any("számú játék (előkészület)" in t and "(színválasztás)" in t for t in status), status

    # Ana plays in Hungarian words; the game's posts stay English
    _, st = await Game(fake, h).state()
    command = format_action(st, legal_actions(st, 0)[0])
    typed = i18n.notation.localize(command, "hu")
    assert typed != command
    played = await h.command(ANA, CH, "play", command=typed)
    assert any(t.startswith("Kész: `") for t in texts_to(played, ANA)), texts_to(played, ANA)
    footers = [footer(p) for p in turn_posts(played) if footer(p)]
    assert footers and all("<@101>: " in f and " — by <t:" in f for f in footers), footers


async def test_a_german_game_writes_its_public_posts_in_german(
    fake: FakeDiscord, make_bot: BotMaker
) -> None:
    h = await make_bot()
    await h.command(ANA, CH, "game", "new", players=2, ai=1, ai_level="random", language="de")
    lobby = fake.messages[max(fake.messages)]
    assert {"Beitreten", "Verlassen", "KI hinzufügen", "Starten"} <= labels(lobby)
    assert "Deine Farbe (freiwillig)…" in placeholders(lobby)
    h.client.tables.next_seed = SEED  # type: ignore[attr-defined]
    started = await h.click(ANA, lobby, "brz:l:1:start")
    assert "Als Partie #1 gestartet." in str(lobby["components"])
    post = turn_posts(started)[-1]
    assert "<@101>: bitte entscheide (Farbe wählen) — bis <t:" in footer(post), footer(post)
    assert {"Entscheiden", "Meine Hand"} <= labels(post)
    assert "Decide" not in labels(post)
    status = "\n".join(status_posts(started))
    assert (
        "### Partie #1: Cisplatinischer Krieg" in status
        and "Warten auf <@101> (Farbe wählen) — Frist <t:" in status
    )
    # custom_ids do not depend on the language
    assert {c.split(":")[1] for c in custom_ids(post)} == {"t", "h"}
    # Ana's own replies: her language (her Discord app's: English), not the game's
    reqs, _ = await guided_menu(fake, h, ANA)
    (reply,) = private_to(reqs, ANA)
    assert reply["content"].startswith("Choose:") and "Back" in labels(reply)


# ============================================================================ the pseudo-language


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
async def pbot(fake: FakeDiscord, tmp_path: Path, clock: FakeClock) -> AsyncIterator[BotMaker]:
    """A bot whose scheduler is ticked by hand on ``clock``, with a moderators' log."""

    def set_clock(bot: TurnpostBot) -> None:
        bot.pacer.clock = clock

    async with bot_maker(
        fake,
        tmp_path / "bot.sqlite3",
        after_login=set_clock,
        pacing_tick_seconds=0,
        mod_log_channel=777,
        moderator_role_id=888,
    ) as make:
        yield make


async def tick(h: Harness) -> list[Request]:
    """One tick of the scheduler: the requests it made."""
    before = len(h.fake.requests)
    await h.client.pacer.tick()  # type: ignore[attr-defined]
    return h.fake.requests[before:]


def alternatives(texts: set[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(t) for t in sorted(texts, key=len, reverse=True)))


def english_phrases() -> re.Pattern[str]:
    """Runs of three words or more of the English catalogue's templates (the components'
    rules texts ``text.*`` among them), outside their placeholders: such a run inside a
    pseudo-language text is a text rendered in English where the reader's language was due
    (a bracket hides it from :func:`unbracketed_words`)."""
    placeholder = re.compile(r"\{(?:[^{}]|\{[^{}]*\})*\}")
    runs: set[str] = set()
    for template in i18n.catalogue("en").messages.values():
        for chunk in placeholder.split(template):
            chunk = chunk.strip(" .,:;!?()—-*_`'\"[]\n")
            if len(re.findall(r"[^\W\d_]{2,}", chunk)) >= 3:
                runs.add(chunk)
    return alternatives(runs)


@pytest.mark.slow
async def test_a_whole_game_in_the_pseudo_language_has_no_hard_coded_english(
    fake: FakeDiscord, pbot: BotMaker, clock: FakeClock
) -> None:
    """Every text the bot sends in a whole game — posts and their edits (the turn posts'
    summaries, the lobby, the status message), ephemeral replies, DMs, reminders and flags —
    is a catalogue's: no word outside brackets but players' names, hex labels and numbers."""
    h = await pbot()
    tables = h.client.tables  # type: ignore[attr-defined]
    svc = tables.svc
    await svc.languages.set_user_language(ANA, i18n.PSEUDO)
    await svc.languages.set_user_language(BO, i18n.PSEUDO)
    # the lobby's first post is English (``/game new`` offers no pseudo-language): the
    # game's language is set right after, and every later text is checked
    await h.command(ANA, CH, "game", "new", players=2, ai_level="random")
    lobby = fake.messages[max(fake.messages)]
    rec = await svc.store.get_active_game(CH)
    await svc.languages.set_game_language(rec.id, i18n.PSEUDO)
    reqs = await h.click(BO, lobby, "brz:l:1:join")
    reqs += await h.click(BO, lobby, "brz:l:1:leave")
    reqs += await h.click(ANA, lobby, "brz:l:1:ai")
    tables.next_seed = SEED
    reqs += await h.click(ANA, lobby, "brz:l:1:start")
    reqs += await h.command(ANA, CH, "game", "deadline", duration="2d")
    reqs += await h.command(ANA, CH, "game", "policy", policy="ai", level="random")
    reqs += await h.command(ANA, CH, "game", "policy", policy="wait")
    reqs += await h.command(ANA, CH, "game", "deadline", duration="24h")
    g = Game(fake, h)
    rng = random.Random(SEED)
    reminded = False
    for step in range(3000):
        gid, st = await g.state()
        if st.phase == "ended":
            break
        if step < 2:
            reqs += await h.command(ANA, CH, ("board", "score")[step])
        elif step < 5:
            reqs += await h.command(ANA, CH, ("hand", "log", "undo")[step - 2])
        if step == 3:
            reqs += await h.command(ANA, CH, "game", "status")
            reqs += await h.command(BO, CH, "play", command="pass")  # no seat
            reqs += await h.command(ANA, CH, "play", command="fly to the moon")
            reqs += await h.command(ANA, CH, "hand", where="dm")
        if step == 6 and not reminded:
            # the reminders (Ana's language), the mute button, the deadline (the game's)
            clock.advance(hours=12)
            ticked = await tick(h)
            reqs += ticked
            ping = next(r for r in ticked if r.method == "POST" and r.json)
            mute = next(c for c in custom_ids(ping.json) if c.startswith("brz:r:"))
            reqs += await h.click(ANA, fake.messages[max(fake.messages)], mute)
            clock.advance(hours=13)
            reqs += await tick(h)
            reminded = True
        if step % 9 == 4:
            got, menu = await guided_menu(fake, h, ANA)
            reqs += got
            for _ in range(10):
                if menu is None:
                    break
                ids = custom_ids(menu)
                confirm = [c for c in ids if c.startswith("brz:c:")]
                if confirm:
                    reqs += await h.click(ANA, menu, confirm[0])
                    break
                sel = next(
                    c for c in Game.walk(menu) if c.get("custom_id", "").startswith("brz:s:")
                )
                value = rng.choice([o["value"] for o in sel["options"]])
                reqs += await h.select(ANA, menu, sel["custom_id"], value)
            continue
        command = format_action(st, rng.choice(legal_actions(st, 0)))
        reqs += await h.command(ANA, CH, "play", command=command)
    _, st = await g.state()
    assert st.phase == "ended", "the game did not end"
    assert reminded
    reqs += await h.command(ANA, CH, "stats")
    reqs += await h.command(ANA, CH, "games", "mine")
    reqs += await h.command(ANA, CH, "game", "status")

    s = await svc.peek(gid)
    names = [seat.name for seat in s.seats]
    # inside brackets, English where the pseudo-language was due: a catalogue text rendered
    # in English (a language not passed on), a seat's colour in English
    english = english_phrases()
    labels_en = [s.who(i) for i in range(len(s.seats))]
    found: dict[str, list[str]] = {}
    checked = 0
    dms = {f"/channels/{c}/messages" for c in fake.dms.values()}
    kinds: set[str] = set()
    for r in writes(reqs):
        if r.path in dms:
            kinds.add("dm")
        elif r.interaction_user is None:
            kinds.add("post" if r.method == "POST" else "edit")
        elif r.ephemeral:
            kinds.add("ephemeral")
        for text in own_texts(body_of(r)):
            checked += 1
            words = unbracketed_words(text, names)
            prose = re.sub(r"`[^`]*`", " ", text)
            words += [m.group(0) for m in english.finditer(prose)]
            words += [label for label in labels_en if label in prose]
            if words:
                found.setdefault(" ".join(sorted(set(words))), []).append(text[:300])
    assert checked > 300 and kinds == {"dm", "post", "edit", "ephemeral"}, (checked, kinds)
    assert found == {}, {k: v[:2] for k, v in found.items()}
    # and the checks can fail: the same game's texts in English have words outside brackets,
    # an English text inside a pseudo one is found, and so is a seat's English colour
    plain = own_texts({"content": i18n.tr("en", "bot.next.your_turn")})
    assert unbracketed_words(plain[0], names) == ["your", "turn"]
    policy = i18n.tr(i18n.PSEUDO, "bot.pace.policy_set", policy=i18n.tr("en", POLICY_KEY["wait"]))
    assert not unbracketed_words(policy) and english.search(policy)
    assert all(re.fullmatch(r".+ \([a-z]+\)", label) for label in labels_en), labels_en


# ============================================================================ every language

OTHER = {"en": "hu", "pt-BR": "de", "fr": "pl", "de": "fr", "hu": "pt-BR", "pl": "en"}
"""For each game language, the language its player chose with ``/language``."""


def lines_of(texts: list[str]) -> list[str]:
    return [line.strip() for t in texts for line in t.split("\n") if line.strip()]


def english_only(lang: str) -> set[str]:
    """The English catalogue's whole texts (no placeholder) that ``lang`` translates: one of
    them shown as a whole line to a reader of ``lang`` is English left untranslated."""
    en, there = i18n.catalogue("en").messages, i18n.catalogue(lang).messages
    return {
        v.strip()
        for k, v in en.items()
        if "{" not in v and k in there and there[k] != v and re.search(r"[^\W\d_]{3,}", v)
    }


@pytest.mark.slow
@pytest.mark.parametrize("lang", list(OTHER))
async def test_a_whole_game_in_each_language_public_posts_in_the_games_private_in_the_players(
    fake: FakeDiscord, pbot: BotMaker, clock: FakeClock, lang: str
) -> None:
    """Lobby → start → the setup and a first turn by hand → the player's time runs out with
    the AI policy: an AI plays for them to the natural end. Every public post (lobby, turn
    posts and their edits, status message, notices, the end) is in the game's language, every
    private reply in the player's own (``/language``)."""
    mine = OTHER[lang]
    h = await pbot()
    tables = h.client.tables  # type: ignore[attr-defined]

    async def no_images(*_: Any, **__: Any) -> list[Any]:
        return []  # the texts are what is checked here: no picture drawn (faster)

    async def no_timeline(*_: Any) -> None:
        return None

    tables.publisher.images = no_images
    tables.publisher._timeline = no_timeline
    reqs = await h.command(ANA, CH, "language", language=mine)
    reqs += await h.command(
        ANA, CH, "game", "new", players=2, ai=1, ai_level="random", language=lang
    )
    lobby = fake.messages[max(fake.messages)]
    tables.next_seed = SEED
    reqs += await h.click(ANA, lobby, "brz:l:1:start")
    g = Game(fake, h)
    reqs += await h.command(ANA, CH, "hand")
    reqs += await h.command(ANA, CH, "score")
    guided = False
    for _ in range(40):  # the setup and the first turn
        _, st = await g.state()
        if st.phase == "play" and st.round > 1:
            break
        if st.phase == "play" and not guided:
            got, menu = await guided_menu(fake, h, ANA)
            reqs += got
            guided = menu is not None
        command = format_action(st, random.Random(SEED).choice(legal_actions(st, 0)))
        reqs += await h.command(ANA, CH, "play", command=command)
    reqs += await h.command(ANA, CH, "game", "policy", policy="ai", level="random")
    clock.advance(hours=25)
    reqs += await tick(h)  # time is up: an AI plays for Ana, to the end
    _, st = await g.state()
    assert st.phase == "ended", "the game did not end"
    reqs += await h.command(ANA, CH, "score")
    reqs += await h.command(ANA, CH, "game", "status")

    public: list[str] = []
    private: list[str] = []
    for r in writes(reqs):
        texts = own_texts(body_of(r))
        if r.interaction_user == ANA and r.ephemeral:
            private += texts
        elif r.path.startswith(f"/channels/{CH}/") or (
            r.interaction_user is not None and not r.ephemeral
        ):
            public += texts
    # markers: texts of each language's catalogue, where the reader sees them
    L, M = i18n.translator(lang), i18n.translator(mine)
    shown = "\n".join(public)
    for key in ("bot.button.take_turn", "bot.button.hand", "svc.core.final", "bot.status.over"):
        assert L(key) in shown, (lang, key)
    level = ai_level_word(lang, "random")  # the level in the game's words (issue #32)
    assert L("svc.notice.stand_in_post", who="user101", level=level) in shown
    said = "\n".join(private)
    assert M("bot.language.set", language=i18n.languages()[mine].name) in said
    assert M("bot.score.head") in said and M("bot.button.back") in said
    done = M("bot.play.done", command="`").split("`")[0]
    assert any(t.startswith(done) for t in private), (done, private[:5])
    # and no whole line in English where the reader's language has its own text
    for reader, texts in ((lang, public), (mine, private)):
        if reader != "en":
            left = english_only(reader) & set(lines_of(texts))
            assert not left, (reader, sorted(left)[:10])
        # and every sentence read by rule (issue #32): no English fragment, raw id, empty
        # list, doubled punctuation, wrong number agreement, typography or article
        report = read(reader, texts)
        assert not report.defects, (reader, list(report.defects.items())[:20])
