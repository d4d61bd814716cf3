"""Text that fits its box, and initials in the image's language (issue 32).

Every text drawn into a bounded box goes through :mod:`render.fit`: measured with its font,
drawn smaller, wrapped between words, or shortened after a whole word — never cut in two.
The helper records each line drawn (its text, the text it came from, its box and its font)
while the tests record; the images of seeded games of every registered game, in every
language, are drawn and every line checked. The initials on pieces, seats and goods come
from the language's catalogue (``render.initial.*``) and tell its colours, unit kinds and
goods apart."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import i18n
from render import fit as F
from render.canvas import Canvas
from render.theme import PAPER, RenderOptions
from render.words import Drawn, recording, words
from rules.registry import registration, registrations, resolve

LANGS = list(i18n.supported())
GROUPS = {
    "colour": ("blue", "orange", "green", "red"),
    "unit": ("basic", "transport", "bombard", "founder"),
    "good": ("sugar_cane", "coffee", "brazilwood", "cotton", "gold", "science"),
}

# ---------------------------------------------------------------------------- the helper


def test_a_text_that_fits_is_drawn_whole_at_its_size() -> None:
    f = F.fit_text("Gemälde erwerben", 1000, 20, "bold")
    assert f == F.Fitted(("Gemälde erwerben",), 20)


def test_a_long_text_wraps_between_words_where_the_box_has_lines() -> None:
    w = F.extent("Gemälde", 20, "bold") + 4
    f = F.fit_text("Gemälde erwerben", w + 30, 20, "bold", lines=2)
    assert f.lines == ("Gemälde", "erwerben") and not f.shortened
    assert all(F.extent(ln, f.size, "bold") <= w + 30 for ln in f.lines)


def test_a_text_too_long_is_shortened_after_a_whole_word() -> None:
    text = "Król Alfons I Zdobywca"
    w = F.extent("Król Alfons I…", 18, "semibold") + 2
    f = F.fit_text(text, w, 22, "semibold", least=18)
    assert f.shortened and f.lines == ("Król Alfons I…",)
    assert F.whole_words(text, f.lines[0])
    # never "Król Alfons I Zdoby…"
    assert not F.whole_words(text, "Król Alfons I Zdoby…")
    assert not F.whole_words("Gemälde erwerben", "Gemälde erwe…")
    assert not F.whole_words("Pomarańczowy", "Pomarań.")


def test_one_word_too_long_is_drawn_smaller_and_whole() -> None:
    w = F.extent("Pomarańczowy", 12, "bold")
    f = F.fit_text("Pomarańczowy", w, 24, "bold", least=20)
    assert f.lines == ("Pomarańczowy",) and f.size <= 12


@pytest.mark.parametrize("text", ["Gemälde erwerben", "Król Alfons I Zdobywca", "A, B, C, D"])
@pytest.mark.parametrize("width", [20, 60, 90, 140])
@pytest.mark.parametrize("lines", [1, 2])
def test_every_line_of_a_fitted_text_is_whole_words_within_the_box(
    text: str, width: int, lines: int
) -> None:
    f = F.fit_text(text, width, 22, "bold", least=16, lines=lines)
    assert 1 <= len(f.lines) <= lines
    for ln in f.lines:
        assert F.whole_words(text, ln), ln
        if " " in ln or ln.endswith(F.ELLIPSIS):
            assert F.extent(ln, f.size, "bold") <= width, (ln, f.size)


def test_no_pixel_of_a_fitted_text_falls_outside_its_box() -> None:
    """A pixel check: long texts drawn into a box of a blank page leave every pixel outside
    the box paper-coloured."""
    opts = RenderOptions()
    for anchor, x in (("lm", 100.0), ("mm", 200.0), ("rm", 300.0)):
        cv = Canvas(400, 200, opts)
        cv.text_in(x, 60, "Cesarska Akademia Sztuk Pięknych w Rio", 200, 24, "bold", anchor=anchor)
        cv.text_in(x, 140, "Gemälde erwerben und ausstellen", 200, 22, anchor=anchor, lines=2)
        img = cv.img
        for y in range(img.height):
            for xx in (*range(0, 98), *range(302, 400)):
                assert img.getpixel((xx, y)) == PAPER, (anchor, xx, y)
        assert img.crop((100, 0, 300, 200)).getextrema() != ((250, 250), (248, 248), (240, 240))


# ---------------------------------------------------------------------------- initials


@pytest.mark.parametrize("lang", LANGS)
def test_initials_are_distinct_and_from_the_languages_terms(lang: str) -> None:
    t = words(lang)
    names: dict[str, Callable[[str], str]] = {
        "colour": lambda c: t.colour(c),
        "unit": lambda k: t(
            {"basic": "render.legend.basic", "founder": "render.legend.monarch"}.get(
                k, f"render.legend.{k}"
            )
        ),
        "good": lambda g: t.L(f"good.{g}") if t.L.has(f"good.{g}") else g.replace("_", " "),
    }
    for group, ids in GROUPS.items():
        got = {i: t.initial(group, i) for i in ids}
        assert all(t.L.has(f"render.initial.{group}.{i}") for i in ids), (lang, group)
        assert len(set(got.values())) == len(ids), (lang, group, got)
        for i, ini in got.items():
            term = names[group](i).lower()
            # the initial's letters are a word's first letter(s) of the term, in order
            starts = [w for w in term.replace("-", " ").split() if w[:1] == ini[:1].lower()]
            assert starts, (lang, group, i, ini, term)
            rest = iter(starts[0])
            assert all(ch in rest for ch in ini.lower()), (lang, group, i, ini, term)


# ---------------------------------------------------------------------------- the images


def _brazil(lang: str) -> list[Drawn]:
    from devtools.brazil.render_games import play, with_event
    from render.brazil import mapimg as M
    from render.brazil import (
        render_battle,
        render_boards,
        render_hand,
        render_map,
        render_scores,
    )
    from rules.brazil import view

    g = _games.setdefault("brazil", play(4, 1))
    M.static_layer.cache_clear()
    with recording() as texts:
        for sn in (g[1], g[len(g) // 2], g[-1]):
            v = view(sn.state, None)
            render_map(v, sn.events, lang=lang)
            render_boards(v, lang=lang)
            for p in sn.state.players:
                render_hand(view(sn.state, p.seat), p.seat, lang=lang)
        render_scores(view(g[-1].state, None), lang=lang)
        for kind in ("battle_result", "expedition_result"):
            b = with_event(g, kind)
            assert b is not None
            render_battle(view(b.state, None), b.events, lang=lang)
    return list(texts)


def _tigris(lang: str) -> list[Drawn]:
    from render.tigris import board as B
    from render.tigris import (
        changed_squares,
        render_board,
        render_conflict,
        render_hand,
        render_players,
        render_scores,
    )
    from render.tigris.bench import play, with_event
    from rules import tigris as T

    g = _games.setdefault("tigris", play(4, 1))
    B.static_layer.cache_clear()
    with recording() as texts:
        for sn in (g[1], g[len(g) // 2], g[-1]):
            render_board(T.view(sn.state, None), changed_squares(sn.events), lang=lang)
            render_players(T.view(sn.state, None), lang=lang)
            for seat in range(len(sn.state.players)):
                render_hand(T.view(sn.state, seat), seat, lang=lang)
        render_scores(g[-1].state, lang=lang)
        for kind in ("tigris.war.start", "tigris.revolt.start"):
            c = with_event(g, kind)
            assert c is not None
            render_conflict(T.view(c.state, None), c.events, lang=lang)
    return list(texts)


_games: dict[str, list] = {}  # type: ignore[type-arg]
DRAWERS: dict[str, Callable[[str], list[Drawn]]] = {"brazil": _brazil, "tigris": _tigris}


def _drawer(game: str) -> Callable[[str], list[Drawn]]:
    """The images of a seeded game of ``game``: the two shipped games' here; any other
    game names its own sampler, ``options["image_samples"]`` of its registration (a
    ``"module:function"`` drawing its images in a language)."""
    if game in DRAWERS:
        return DRAWERS[game]
    reg = registration(game)
    assert reg is not None
    ref = reg.options.get("image_samples")
    assert isinstance(ref, str), f"{game}: name its images' sampler in options['image_samples']"
    sample = resolve(ref)

    def draw(lang: str) -> list[Drawn]:
        with recording() as texts:
            sample(lang)
        return list(texts)

    return draw


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(registrations()))
def test_every_drawn_text_fits_its_box_and_keeps_whole_words(game: str, lang: str) -> None:
    """Start, middle and end of a seeded game and its battle/conflict images: every line
    drawn through the helper holds whole words of its text (never "Gemälde erwe…"), lies
    within its box (its painted pixels), and no text anywhere ends with an ellipsis that
    its own text does not."""
    texts = _drawer(game)(lang)
    fitted = [d for d in texts if d.source is not None]
    assert len(fitted) > 20
    bad: list[str] = []
    for d in texts:
        if d.text.endswith(F.ELLIPSIS) and d.source is None:
            bad.append(f"{d.text!r}: shortened outside the helper")
        if d.source is not None and not F.whole_words(d.source, d.text):
            bad.append(f"{d.text!r} cuts a word of {d.source!r}")
        if d.ink is not None and d.limit is not None:
            x0, _, x1, _ = d.ink
            lx0, _, lx1, _ = d.limit
            if x0 < lx0 - 4 or x1 > lx1 + 1:
                bad.append(f"{d.text!r} {d.ink} leaves its box {d.limit} (font {d.font})")
    assert not bad, bad[:10]
    # the six languages fit wrapped or a little smaller, whole, and readable on a phone
    shortened = [d.text for d in fitted if d.text.endswith(F.ELLIPSIS)]
    assert not shortened, shortened
    tiny = [(d.text, d.font) for d in fitted if d.font is not None and d.font[1] < 15]
    assert not tiny, tiny


@pytest.mark.parametrize("lang", LANGS)
def test_the_conflict_points_agree_with_their_number(lang: str) -> None:
    """CLDR plurals on the conflict image: "gagne 1 point", never "gagne 1 points"."""
    t = words(lang)
    one = t("render.tigris.conflict.points", player="X", n=1, colour="c")
    two = t("render.tigris.conflict.points", player="X", n=2, colour="c")
    for wrong in ("1 points", "1 pontos", "1 Siegpunkte", "1 punkty", "1 point ("):
        assert wrong not in one or (lang == "fr" and wrong == "1 point ("), one
    if lang in ("en", "fr", "pt-BR", "de"):  # the noun takes the plural after 2
        assert one.replace("1", "2") != two, (one, two)


def _next_to(text: str, n: str) -> set[str]:
    w = re.findall(r"\w+", text.lower())
    i = w.index(n)
    return set(w[max(0, i - 1) : i]) | set(w[i + 1 : i + 2])


@pytest.mark.parametrize("lang", LANGS)
def test_images_name_the_round_as_the_texts_do(lang: str) -> None:
    """The image's word for Brazil's round is the texts' word for it ("Manche 44" in French,
    as the status line says, not "Tour 44")."""
    L = i18n.translator(lang)
    img = L("render.title.play", scenario="S", era=2, round=44)
    for key in ("svc.status.where", "bot.status.where", "web.where.play"):
        text = L(key, era=2, round=44)
        assert _next_to(text, "44") & _next_to(img, "44"), (lang, img, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_tigris_image_names_its_turn_as_the_texts_do(lang: str) -> None:
    """Tigris' counter on the board (``v.turn``, one player's turn) has the word its event
    and status texts give the same counter (Hungarian "44. forduló" in all three)."""
    L = i18n.translator(lang)
    img = L("render.tigris.title", turn=44)
    for text in (
        L("tigris.turn.start", turn=44, player="X"),
        L("svc.tigris.where", turn=44, who="X", n=2),
    ):
        assert _next_to(text, "44") & _next_to(img, "44"), (lang, img, text)
