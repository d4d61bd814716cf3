"""Images in the language of their audience (issue 17): every text drawn is a catalogue text
or a term, the fonts have every letter of the six languages, texts are NFC, and no text of any
image, in any language or the 35 % longer pseudo-language, crosses its box or the image edge."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import i18n
import render.theme as TH
from devtools.brazil.render_games import Snapshot, with_event
from render import draw as D
from render.brazil import (
    render_battle,
    render_boards,
    render_hand,
    render_map,
    render_map_zoom,
    render_panel,
    render_scores,
)
from render.canvas import Canvas
from render.theme import PAPER, RenderOptions
from render.words import Drawn, english_words, recording
from rules.brazil import get_catalog, view

BEARING = 4  # px: how far a glyph may reach left of its origin (J, j at 30 px)
LANGS = ["en", "pt-BR", "fr", "de", "hu", "pl", i18n.PSEUDO]
LETTERS = "őűłąęćńśźżãõçéèêäöüßŐŰŁĄĘĆŃŚŹŻÃÕÇÉÈÊÄÖÜ"
BASE = {"ł": "l", "Ł": "L", "ß": "B"}  # the letters they are not composed from
EN_RENDER = Path(i18n.__file__).with_name("locales") / "en" / "render.toml"


def mid(game4: list[Snapshot]) -> Snapshot:
    return game4[len(game4) * 2 // 3]


def every_image(game4: list[Snapshot], lang: str) -> dict[str, bytes]:
    """Every image kind of a mid-game state (each seat's hand, a battle, an expedition, the
    final score sheet) in ``lang``."""
    sn = mid(game4)
    v = view(sn.state, None)
    battle = with_event(game4, "battle_result")
    expedition = with_event(game4, "expedition_result")
    assert battle is not None and expedition is not None
    out: dict[str, bytes | None] = {
        "map": render_map(v, sn.events, lang=lang),
        "zoom": render_map_zoom(view(battle.state, None), battle.events, lang=lang),
        "boards": render_boards(v, lang=lang),
        "panel": render_panel(v, 1, lang=lang),
        "battle": render_battle(view(battle.state, None), battle.events, lang=lang),
        "expedition": render_battle(view(expedition.state, None), expedition.events, lang=lang),
        "scores": render_scores(view(game4[-1].state, None), lang=lang),
    }
    for p in sn.state.players:
        out[f"hand {p.seat}"] = render_hand(view(sn.state, p.seat), p.seat, lang=lang)
    assert all(data is not None for data in out.values())
    return {k: d for k, d in out.items() if d is not None}


@pytest.fixture(scope="module")
def drawn(game4: list[Snapshot]) -> dict[str, tuple[dict[str, bytes], list[Drawn]]]:
    """Each language's images and the texts drawn on them."""
    out = {}
    for lang in LANGS:
        with recording() as texts:
            images = every_image(game4, lang)
        out[lang] = (images, list(texts))
    return out


# ---------------------------------------------------------------------------- fonts


def _fonts_used(game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The font files every image kind opens."""
    paths: set[str] = set()
    real = ImageFont.truetype

    def truetype(f: object, *a: object, **k: object) -> ImageFont.FreeTypeFont:
        paths.add(str(f))
        return real(f, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont, "truetype", truetype)
    TH.font.cache_clear()
    D.text_sprite.cache_clear()
    try:
        every_image(game4, "hu")
    finally:
        TH.font.cache_clear()
    return paths


def _mask(f: ImageFont.FreeTypeFont, ch: str) -> bytes:
    im = Image.new("L", (60, 70))
    ImageDraw.Draw(im).text((10, 5), ch, font=f, fill=255)
    return im.tobytes()


@pytest.mark.slow
def test_every_font_used_has_every_letter_of_the_languages(
    game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _fonts_used(game4, monkeypatch)
    assert len(paths) >= 3  # regular, semibold, bold, extrabold Open Sans
    for path in sorted(paths):
        f = ImageFont.truetype(path, 32)
        notdef = _mask(f, "\u2713")  # a glyph Open Sans lacks: drawn as the .notdef box
        assert _mask(f, "a") != notdef  # the probe tells a glyph from the box
        for ch in LETTERS:
            got = _mask(f, ch)
            base = BASE.get(ch, unicodedata.normalize("NFD", ch)[0])
            assert got != notdef, (path, ch)
            assert got != _mask(f, base), (path, ch)  # the accent is drawn, not dropped


def test_text_is_normalised_to_nfc_before_drawing() -> None:
    decomposed = "Pe\u0301ter, Pa\u0301l, o\u030b"  # é á ő as letter + combining mark
    with recording() as texts:
        cv = Canvas(300, 100, RenderOptions())
        cv.text(10, 10, decomposed)
        cv.text_in(10, 40, decomposed, 280)
        img = Image.new("RGB", (300, 60), PAPER)
        D.draw_text(img, (10, 10), decomposed, 20)
    want = unicodedata.normalize("NFC", decomposed)
    assert want != decomposed
    assert [d.text for d in texts] == [want, want, want]


# ---------------------------------------------------------------------------- words


def test_the_english_images_are_the_default(game4: list[Snapshot]) -> None:
    sn = mid(game4)
    v = view(sn.state, None)
    assert render_boards(v, lang="en") == render_boards(v)
    assert render_hand(view(sn.state, 0), 0, lang="en") == render_hand(view(sn.state, 0), 0)
    # an unknown code draws English, never a traceback
    assert render_boards(v, lang="xx") == render_boards(v)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", {"Aufgaben-Karten", "Vorrat", "Epoche"}),
        ("hu", {"Küldetéskártyák", "Készlet", "kor ·"}),
        ("pl", {"Karty misji", "Zapasy"}),
        ("fr", {"Cartes Mission", "Réserve"}),
        ("pt-BR", {"Cartas de missão", "Reserva"}),
    ],
)
def test_each_language_draws_its_own_words(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str, words: set[str]
) -> None:
    text = "\n".join(d.text for d in drawn[lang][1])
    assert all(w in text for w in words), [w for w in words if w not in text]
    english = "\n".join(d.text for d in drawn["en"][1])
    assert "Missions kept" in english and "Missions kept" not in text


def _untranslated_names() -> list[str]:
    """Component names whose term the catalogue does not have yet: drawn as the catalog's
    English name (the fallback), so not hard-coded English of the renderer."""
    cat = get_catalog()
    en = i18n.catalogue("en").messages
    books: list[tuple[str, dict[str, str]]] = [
        ("monarch", {k: x.name for k, x in cat.monarchs.items()}),
        ("mission", {k: x.name for k, x in cat.missions.items()}),
        ("painting", {k: x.name for k, x in cat.paintings.items()}),
        ("gold_card", {k: x.name for k, x in cat.gold_cards.items()}),
        ("combat_card", {k: x.name for k, x in cat.combat_cards.items()}),
        ("exploration", {k: x.name for k, x in cat.exploration.items()}),
        ("arch", {k: x.name for k, x in cat.arches.items()}),
        ("product", {k: x.name for k, x in cat.products.items()}),
        ("scenario", {k: x.name for k, x in cat.maps.items()}),
        ("city", {k: x.name for k, x in cat.cities.items()}),
        ("capital", {k: x.name for k, x in cat.capitals.items()}),
        ("building", {s.id: s.name for b in cat.buildings.values() for s in b.sides}),
        (
            "building",
            {s.id: s.id.replace("_", " ") for b in cat.buildings.values() for s in b.sides},
        ),
        ("unit", {k: x.name for k, x in cat.units.items()}),
    ]
    names = {
        name for kind, book in books for k, name in book.items() if f"term.{kind}.{k}" not in en
    }
    return sorted(names, key=len, reverse=True)


@pytest.mark.slow
def test_the_pseudo_language_images_hold_no_english(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]],
) -> None:
    """R-less check of issue 17: every text the images draw in the pseudo-language is a
    catalogue text (bracketed, accented); English left in it is hard-coded."""
    assert english_words("Reserve 3") == ["Reserve"]  # the probe finds English...
    assert english_words("[Réšérvé~~] 3 · II · D7") == []  # ...and passes the pseudo-language
    assert english_words("ríght: Ýóúř hand") == ["hand"]
    names = _untranslated_names()
    # a name may be wrapped over two lines or shortened with an ellipsis
    name_words = {w for n in names for w in n.split()}

    def english(text: str) -> list[str]:
        for n in names:
            text = text.replace(n, " ")
        cut = text.endswith("…")
        return [
            w
            for w in english_words(text)
            if w not in name_words and not (cut and any(n.startswith(w) for n in name_words))
        ]

    assert sum(len(english(d.text)) for d in drawn["en"][1]) > 100  # English is seen
    found = {d.text: english(d.text) for d in drawn[i18n.PSEUDO][1] if english(d.text)}
    assert not found


# ---------------------------------------------------------------------------- fit


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_crosses_its_box_or_the_image_edge(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str
) -> None:
    """Every text's painted pixels (its glyph mask where it was pasted) lie inside the box it
    was given and at least one pixel inside the page: nothing is cut off by the image edge
    or runs into its neighbour, however long the language's words. (A glyph may reach a few
    pixels before its origin — the side bearing of ``J`` — on the side a text is anchored.)"""
    texts = drawn[lang][1]
    assert len(texts) > 300
    bad: list[str] = []
    for d in texts:
        if d.ink is None:
            continue
        x0, y0, x1, y1 = d.ink
        w, h = d.page
        if x0 < 1 or y0 < 1 or x1 > w - 1 or y1 > h - 1:
            bad.append(f"{d.text!r} {d.ink} leaves the {w}x{h} page")
        if d.limit is not None:
            lx0, ly0, lx1, ly1 = d.limit
            if x0 < lx0 - BEARING or x1 > lx1 + 1 or y0 < ly0 - 1 or y1 > ly1 + 1:
                bad.append(f"{d.text!r} {d.ink} leaves its box {d.limit}")
    assert not bad, bad[:10]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_no_two_texts_overlap(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str
) -> None:
    """No text runs into another on the same page (a label pushed into its neighbour by a
    longer word): their painted pixels' boxes do not intersect."""
    bad: list[str] = []
    texts = [d for d in drawn[lang][1] if d.ink is not None]
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if b.sheet != a.sheet:
                continue
            assert a.ink is not None and b.ink is not None
            w = min(a.ink[2], b.ink[2]) - max(a.ink[0], b.ink[0])
            h = min(a.ink[3], b.ink[3]) - max(a.ink[1], b.ink[1])
            if w > 1 and h > 1:
                bad.append(f"{a.text!r} {a.ink} and {b.text!r} {b.ink}")
    assert not bad, bad[:10]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_the_image_edges_are_background(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], lang: str
) -> None:
    """A pixel test on the images themselves: the outermost two rows and columns of every
    image are the paper colour (a text or box reaching the edge would be cut there); the
    zoom is a crop of the map below its header, cut through the hexes by design."""
    for name, data in drawn[lang][0].items():
        if name == "zoom":
            continue
        img = Image.open(io.BytesIO(data)).convert("RGB")
        w, h = img.size
        frame = [img.getpixel((x, y)) for x in range(w) for y in (0, 1, h - 2, h - 1)] + [
            img.getpixel((x, y)) for y in range(h) for x in (0, 1, w - 2, w - 1)
        ]
        off = [p for p in frame if max(abs(a - b) for a, b in zip(p, PAPER, strict=True)) > 40]  # type: ignore[arg-type]
        assert not off, (name, len(off))


@pytest.mark.slow
def test_longer_languages_only_add_legend_rows(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]],
) -> None:
    """Pages grow downwards for longer texts; none grows wider than the phone-tuned width."""
    for lang in LANGS:
        for name, data in drawn[lang][0].items():
            w_en = Image.open(io.BytesIO(drawn["en"][0][name])).width
            assert Image.open(io.BytesIO(data)).width == w_en, (lang, name)


# ---------------------------------------------------------------------------- catalogue


@pytest.mark.slow
def test_card_texts_are_drawn_in_the_language(
    drawn: dict[str, tuple[dict[str, bytes], list[Drawn]]], game4: list[Snapshot]
) -> None:
    """A hand shows its cards' rules texts (``text.<kind>.<id>``) in the owner's language."""
    state = mid(game4).state
    held = [(c, "gold_card") for p in state.players for c in p.gold_cards]
    held += [(c, "combat_card") for p in state.players for c in p.combat_cards]
    assert held
    for lang in ("de", "hu", "pl"):
        text = " ".join(d.text for d in drawn[lang][1])
        for id_, kind in held:
            first = i18n.tr(lang, f"text.{kind}.{id_}").split()[:3]
            assert " ".join(first) in text, (lang, id_)


@pytest.mark.parametrize("lang", [c for c in i18n.supported() if c != "en"])
def test_render_catalogue_is_whole(lang: str) -> None:
    from i18n.check import problems

    assert problems(lang, ("render.",)) == []


def _iter_lines() -> Iterator[str]:
    yield from EN_RENDER.read_text(encoding="utf-8").splitlines()


def test_render_keys_are_namespaced() -> None:
    keys = [ln.split("=")[0].strip().strip('"') for ln in _iter_lines() if ln.startswith('"')]
    assert keys and all(k.startswith("render.") for k in keys)


@pytest.mark.parametrize("lang", ["de", "hu", i18n.PSEUDO])
def test_longer_texts_stay_readable_on_a_phone(
    game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Shrinking to fit stops where English's own bar is (issue 9): no page text under
    15 px, no map text under 14 px; past that a text is wrapped or shortened after a whole
    word instead."""
    import render.canvas as C

    seen: list[tuple[str, int]] = []
    real_mask, real_sprite = C.text_mask, D.text_sprite

    def mask(text: str, size: int, *a: Any) -> Any:
        seen.append((text, size))
        return real_mask(text, size, *a)

    def sprite(text: str, size: int, *a: Any) -> Any:
        seen.append((text, size))
        return real_sprite(text, size, *a)

    monkeypatch.setattr(C, "text_mask", mask)
    monkeypatch.setattr(D, "text_sprite", sprite)
    sn = mid(game4)
    v = view(sn.state, None)
    render_boards(v, lang=lang)
    render_hand(view(sn.state, 1), 1, lang=lang)
    render_scores(view(game4[-1].state, None), lang=lang)

    # the pseudo-language's words are longer than any language's: one word too long for its
    # box is drawn smaller, whole (never cut in two, issue 32)
    def small(floor: int) -> list[tuple[str, int]]:
        return [(x, n) for x, n in seen if n < floor and (lang != i18n.PSEUDO or " " in x)]

    assert seen and not small(15), small(15)
    seen.clear()
    render_map(v, sn.events, lang=lang)
    assert seen and not small(14), small(14)


@pytest.mark.parametrize("lang", ["de", "hu", i18n.PSEUDO])
def test_hidden_cards_are_never_drawn_in_any_language(
    game4: list[Snapshot], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """A spectator's images name no card in a hand and no face-down tile, in their language
    too (the names drawn are the language's terms); the owner's hand names its own."""
    import render.brazil.mapimg as M
    import render.canvas as C
    from render.words import words

    t = words(lang)
    sn = mid(game4)
    state = sn.state
    cat = get_catalog(state.data_pack)

    def named(kind: str, ids: list[str], book: dict[str, Any]) -> set[str]:
        return {t.term(kind, i, book[i].name) for i in ids}

    secrets: set[str] = set()
    for p in state.players:
        secrets |= named("combat_card", p.combat_cards, cat.combat_cards)
        secrets |= named("gold_card", p.gold_cards, cat.gold_cards)
        secrets |= named("mission", p.missions, cat.missions)
    hidden = [e.tile for e in state.exploration.values() if not e.face_up]
    secrets |= named("exploration", hidden, cat.exploration)
    public: set[str] = set()
    for p in state.players:
        public |= named("painting", p.paintings, cat.paintings)
        public |= named("mission", p.revealed, cat.missions)
        public |= named("exploration", p.kept_tiles, cat.exploration)
    shown = [e.tile for e in state.exploration.values() if e.face_up]
    public |= named("exploration", shown, cat.exploration)
    secrets -= public
    assert secrets

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, s: str, *a: object, **k: object) -> None:
        drawn.append(str(s))
        real(self, xy, s, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    for f in (D.text_sprite, D.piece_sprite, M.badge_sprite, M.static_layer, C.text_mask):
        f.cache_clear()
    v = view(state, None)
    render_map(v, sn.events, lang=lang)
    render_boards(v, lang=lang)
    render_panel(v, 0, lang=lang)
    seen = "\n".join(drawn)
    assert not sorted(s for s in secrets if s in seen)
    drawn.clear()
    render_hand(view(state, 0), 0, lang=lang)
    own = named("combat_card", state.players[0].combat_cards, cat.combat_cards)
    own |= named("mission", state.players[0].missions, cat.missions)
    assert own and all(any(name in d for d in drawn) for name in own)
