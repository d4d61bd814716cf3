"""Read a whole game's texts as a native reader would, by rule (issue #32).

``python -m devtools.textscan [--lang hu] [--game NAME] [--seed N] [--show N]`` plays, for every
registered game and every language, a whole seeded game at the terminal: a player typing in
the words of the language the commands a computer player chooses (now and then ``help``,
``score``, ``hand``, ``board``, ``log``, ``legal``, a word that is no command and a command
that breaks a rule) against a computer player. Every sentence shown is then checked:

- ``english``: an English fragment — a computer seat named "AI heuristic", or a word of the
  English catalogue that the language's own catalogue never uses;
- ``raw``: a raw id or key (``term.``, ``svc.``, ``@…``, ``{n}``, ``sugar_cane``);
- ``empty``: an empty list (``removed: .``, ``()``, ``, ,``);
- ``punct``: doubled punctuation (``..``, ``!.``, a space before a comma or a full stop);
- ``number``: a counted noun in the wrong form for its number (the forms come from the
  catalogues' own plural fields: ``1 points``, ``5 ziarna``);
- ``typography`` (French): a plain space before ``: ; ? !``, a straight apostrophe, a missing
  elision (``de Ana``);
- ``article`` (Hungarian): ``a(z)``, ``a`` before a vowel, ``az`` before a consonant-initial
  name or number;
- ``template``: the stilted "pays: …, for: …" shapes.

It prints, per language, the sentences read, the distinct ones, those with a defect (and the
rate), the counts per kind and, with ``--show``, examples. :func:`scan` is what the test suite
runs (``tests/i18n/test_native_read.py``) with a threshold of zero.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

from babel import Locale

import i18n
from i18n.grammar import hu_takes_az
from i18n.render import parse

KINDS = ("english", "raw", "empty", "punct", "number", "typography", "article", "template")


@dataclass
class Report:
    lang: str
    sentences: int = 0
    distinct: int = 0
    defects: dict[str, list[str]] = field(default_factory=dict)  # sentence -> kinds

    @property
    def defective(self) -> int:
        return len(self.defects)

    @property
    def rate(self) -> float:
        return self.defective / self.distinct if self.distinct else 0.0

    def kinds(self) -> Counter[str]:
        return Counter(k for ks in self.defects.values() for k in ks)


# ---------------------------------------------------------------- vocabulary


_WORD = re.compile(r"[^\W\d_]{2,}")
_PROTECT = re.compile(r"`[^`]*`|https?://\S+|\S*/\S+|<[^>]*>|\b[A-Z]+(?:-[A-Z]+)*-\d+\b")


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_PROTECT.sub(" ", text))}


def _all_texts(lang: str) -> list[str]:
    cat = i18n.catalogue(lang)
    return [v for v in cat.messages.values()]


@cache
def _vocabulary(lang: str) -> frozenset[str]:
    """The words the language's own texts use: its catalogue and its rules references."""
    from rules.registry import registrations
    from service.rulebook import game_path, rules_path

    out: set[str] = set()
    for v in _all_texts(lang):
        out |= _words(v)
    if lang != "en":
        for name in registrations():
            try:
                english = game_path(name)
            except KeyError:  # a game without a rules reference
                continue
            path = rules_path(lang, english)
            if path.name != english.name:  # the language's own, not English's
                out |= _words(path.read_text(encoding="utf-8"))
    return frozenset(out)


@cache
def _english_only(lang: str) -> frozenset[str]:
    """Words of the English catalogue that ``lang``'s catalogue never uses (at least 3
    letters; names of the components that stay the same are used by both)."""
    en = {w for w in _vocabulary("en") if len(w) >= 3}
    return frozenset(en - _vocabulary(lang))


@cache
def _paradigms(lang: str) -> dict[str, list[dict[str, str]]]:
    """first word -> the plural paradigms (category -> the counted words) it starts, from
    every plural field of the language's catalogue whose forms count with ``#`` (the words
    after the number: "ziarna kawy", "building types")."""
    found: dict[str, list[dict[str, str]]] = {}
    for text in _all_texts(lang):
        for _name, how, args in parse(text):
            if how != "plural":
                continue
            forms: dict[str, str] = {}
            for i, f in enumerate(args):
                cat, eq, form = f.partition("=")
                if not eq:
                    cat, form = ("one" if i == 0 else "other"), f
                m = re.search(
                    r"#\s+(?:(?:de|d’|of)\s+)?(" + _NOUN + r"(?:\s+" + _NOUN + r")*)", form
                )
                m = m or re.match(r"\s*(" + _NOUN + r"(?:\s+" + _NOUN + r")*)\s*$", form)
                if m:
                    forms[cat.strip()] = m.group(1).lower()
            if len(set(forms.values())) > 1:
                for w in {v.split()[0] for v in forms.values()}:
                    found.setdefault(w, []).append(forms)
    return found


def _agrees(lang: str, n: int, text: str) -> bool:
    """Whether the words after the number ``n`` (``text``) agree with it: the longest counted
    phrase of the catalogue they start with is the form ``n``'s plural category asks for."""
    low = text.lower()
    first = re.match(_NOUN, low)
    if first is None:
        return True
    best: tuple[int, bool] | None = None
    cat = _category(lang, n)
    for forms in _paradigms(lang).get(first.group(0), []):
        for phrase in forms.values():
            if re.match(re.escape(phrase) + r"(?![\w-])", low):
                ok = forms.get(cat, forms.get("other")) == phrase
                if best is None or len(phrase) > best[0] or (len(phrase) == best[0] and ok):
                    best = (len(phrase), ok)
    return best is None or best[1]


@cache
def _babel_locale(code: str) -> Locale:
    return Locale.parse(code)


def _category(lang: str, n: int) -> str:
    loc = _babel_locale(i18n.catalogue(lang).language.babel)
    return str(loc.plural_form(n))


# ---------------------------------------------------------------- checks

_KEY_HEADS = ("term", "svc", "bot", "word", "error", "fmt", "count", "phrase", "good", "terminal")
_RAW = re.compile(
    r"(?<![\w/])@?(?:" + "|".join((*_KEY_HEADS, "cmd", "render", r"[a-z]+\.(?:word|term)")) + r")"
    r"\.[a-z][a-z_0-9.]*|\{[A-Za-z_][A-Za-z0-9_]*[}|:]|(?<![\w/.-])[a-z]+_[a-z_]+(?![\w/.-])"
)
_EMPTY = re.compile(r"[:(]\s*[.,;)]|,\s*[,.]|\(\s*\)")
_PUNCT = re.compile(r"(?<!\.)\.\.(?!\.)|[!?,;:]\.(?!\.)| [.,](?!\d|\.)|::|;;|,,")
_NOUN = r"[^\W\d_]+(?:-[^\W\d_]+)*"
_NUMBER_WORD = re.compile(r"(?<![\w.,-])(\d+)\s+(?=[^\W\d_])")
_AI_NAME = re.compile(r"\bAI (?:random|heuristic|search)\b")
_FR_SPACE = re.compile(r"(?: |(?<=[\w)»>*]))[:;?!](?=\s|$)")
_FR_ELISION = re.compile(r"\b(?:[Dd]e|[Ll]e|[Ll]a|[Qq]ue) [AEIOUÉÈaeiouéèêàâîôûœ]\w*")
_HU_AZ = re.compile(r"\b[Aa]\(z\)")
_HU_A = re.compile(r"(?<![\w-])([Aa])(z?) (\S+)")
_TEMPLATES = {
    "hu": re.compile(r"fizet: [^.]*, ezért:"),
    "pl": re.compile(r"płaci: [^.]*, za:"),
}


def _fr_names() -> set[str]:
    """French component names that keep their own "de" (Machado de Assis)."""
    return {
        v
        for k, v in i18n.catalogue("fr").messages.items()
        if k.startswith("term.") and _FR_ELISION.search(v)
    }


def check(lang: str, sentence: str) -> list[str]:
    """The kinds of defect in one sentence shown to a reader of ``lang``."""
    kinds: list[str] = []
    bare = _PROTECT.sub("X", sentence)
    if lang != "en" and (_AI_NAME.search(sentence) or _words(sentence) & _english_only(lang)):
        kinds.append("english")
    if _RAW.search(bare):
        kinds.append("raw")
    if _EMPTY.search(bare.strip()):
        kinds.append("empty")
    if _PUNCT.search(bare):
        kinds.append("punct")
    for m in _NUMBER_WORD.finditer(bare):
        if not _agrees(lang, int(m.group(1)), bare[m.end() :]):
            kinds.append("number")
            break
    if lang == "fr":
        names = _fr_names()
        named = bare
        for nm in names:
            named = named.replace(nm, " ")
        if _FR_SPACE.search(bare) or "'" in bare or _FR_ELISION.search(named):
            kinds.append("typography")
    if lang == "hu":
        wrong = bool(_HU_AZ.search(bare))
        for m in _HU_A.finditer(bare):
            az = hu_takes_az(m.group(3))
            if az is None:
                continue
            if (az and not m.group(2)) or (
                not az and m.group(2) and (m.group(3)[0].isdigit() or m.group(3)[0].isupper())
            ):
                wrong = True
        if wrong:
            kinds.append("article")
    t = _TEMPLATES.get(lang)
    if t is not None and t.search(bare):
        kinds.append("template")
    return kinds


_SPLIT = re.compile(r"(?<=[.!?])(?<!\bpl\.)(?<!\bz\.)(?<!\bB\.)(?<!\bex\.)(?<!\bp\.)\s+(?=\S)|\n")


_ORDINAL = re.compile(r"(?:\b[IVXLC]+|\d+)\.$")


def sentences(texts: Iterable[str]) -> list[str]:
    """The sentences of texts: split after . ! ? (not after an ordinal, "II. kor", "3. kör",
    when the text goes on in lower case)."""
    out: list[str] = []
    for t in texts:
        pieces: list[str] = []
        for s in _SPLIT.split(t):
            s = s.strip()
            if pieces and _ORDINAL.search(pieces[-1]) and s[:1].islower():
                pieces[-1] += " " + s
            else:
                pieces.append(s)
        out += [s for s in pieces if s and re.search(r"[^\W\d_]", s)]
    return out


def read(lang: str, texts: Iterable[str]) -> Report:
    rep = Report(lang)
    seen: set[str] = set()
    for s in sentences(texts):
        rep.sentences += 1
        if s in seen:
            continue
        seen.add(s)
        if kinds := check(lang, s):
            rep.defects[s] = kinds
    rep.distinct = len(seen)
    return rep


# ---------------------------------------------------------------- a whole game at the terminal


def terminal_game(game: str, lang: str, seed: int, folder: Path) -> list[str]:
    """The lines of a whole game at the terminal in ``lang`` (the player types)."""
    from ai import make_agent
    from i18n.notation import localize
    from rules.games import game as face_of
    from terminal import local
    from terminal.local import LineSource, LocalGame

    face = face_of(game)
    players = max(2, face.min_players)
    seats = ["Ana"] + ["ai:heuristic"] * (players - 1)
    extras = ["help", "score", "hand Ana", "board", "log", "legal", "xyzzy 42"]

    class Typist(LineSource):
        def __init__(self, g: LocalGame, out: io.StringIO) -> None:
            self.g, self.out, self.n = g, out, 0
            self.agent = make_agent("heuristic", seed=seed, game=game)
            self.broke = False

        async def read(self, prompt: str, seat: int | None) -> str | None:
            self.n += 1
            if self.n > 3000:
                return None
            s = self.g.game
            assert s is not None and seat is not None
            if self.n % 23 == 1:
                line = extras[(self.n // 23) % len(extras)]
            elif self.n % 31 == 7 and not self.broke:
                # a command of the game that breaks a rule now: another seat's choice
                legal = set(face.legal_texts(s.state, seat))
                others = [
                    face.format_action(s.state, a)
                    for a in face.legal_actions(s.state, None)
                    if face.format_action(s.state, a) not in legal
                ]
                line = localize(others[0], lang, game=game) if others else "xyzzy"
                self.broke = True
            else:
                self.broke = False
                action = self.agent.decide(s.state, seat)
                line = localize(face.format_action(s.state, action), lang, game=game)
            print(f"{prompt}{line}", file=self.out)
            return line

        async def pause(self, prompt: str) -> None:
            print(prompt, file=self.out)

    argv = ["--game", game, "--seats", ",".join(seats), "--seed", str(seed), "--lang", lang]
    argv += ["--workers", "0", "--db", str(folder / f"{game}-{lang}.sqlite3")]
    argv += ["--out", str(folder / "img")]
    p = argparse.ArgumentParser()
    local.add_arguments(p)
    args = p.parse_args(argv)
    out = io.StringIO()
    asyncio.run(local.play(args, out=out, make_source=lambda g: Typist(g, out)))
    text = out.getvalue().replace(str(folder), "TMP")
    # the typed commands are the player's, not ours: the prompt lines' input left out
    return [line.split("> ", 1)[0] if "> " in line else line for line in text.splitlines()]


class _Text(HTMLParser):
    """The visible text of a page: each block's text on its own line (scripts' JSON left out;
    the sentences it holds are the steps', read from the page's own blocks)."""

    BLOCKS: ClassVar[set[str]] = {
        *("p", "li", "div", "h1", "h2", "h3", "h4", "td", "th", "tr", "button", "section", "a")
    }

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = [""]
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        if tag in self.BLOCKS or tag == "br" or (tag == "span" and dict(attrs).get("id")):
            self.lines.append("")  # a block, or a label of its own (a span with an id)
        for name, value in attrs:
            if name in ("alt", "title", "aria-label") and value:
                self.lines += [value, ""]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
        if tag in self.BLOCKS:
            self.lines.append("")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.lines[-1] += data


def web_texts(db: Path, lang: str) -> list[str]:
    """The texts of the game's web page in ``lang``: live, at its start and at a step."""
    from service.game import GameService
    from storage.location import open_readable
    from web.data import live_json, steps_json
    from web.page import render_page

    async def pages() -> list[str]:
        async with open_readable(str(db)) as (store, _copied):
            svc = GameService(store)
            live = live_json(await svc.archive.live(1, lang=lang), map_lang=False)
            steps = steps_json(await svc.archive.archive(1, lang=lang), map_lang=False)
        n = len(steps.get("steps", []))
        return [render_page(live, steps, lang=lang, step=s) for s in (None, 0, n // 2)]

    out: list[str] = []
    for html in asyncio.run(pages()):
        parser = _Text()
        parser.feed(html)
        out += [re.sub(r"[ \t\r\n]+", " ", line).strip() for line in parser.lines if line.strip()]
    return out


def game_texts(game: str, lang: str, seed: int) -> list[str]:
    """A whole game's texts in ``lang``: the terminal's, then its web page's."""
    with tempfile.TemporaryDirectory() as d:
        lines = terminal_game(game, lang, seed, Path(d))
        return lines + web_texts(Path(d) / f"{game}-{lang}.sqlite3", lang)


def scan(langs: Iterable[str], games: Iterable[str], seed: int = 3) -> dict[str, Report]:
    texts: dict[str, list[str]] = {}
    for lang in langs:
        for g in games:
            texts.setdefault(lang, []).extend(game_texts(g, lang, seed))
    return {lang: read(lang, t) for lang, t in texts.items()}


def main(argv: list[str] | None = None) -> int:
    from rules.registry import registrations

    p = argparse.ArgumentParser(prog="python -m devtools.textscan", description=__doc__)
    p.add_argument("--lang", action="append", help="language(s) (default: all)")
    p.add_argument("--game", action="append", help="game(s) (default: every registered one)")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--show", type=int, default=0, help="examples of defects to print")
    a = p.parse_args(argv)
    langs = a.lang or i18n.supported()
    games = a.game or list(registrations())
    reports = scan(langs, games, a.seed)
    print(f"{'lang':6} {'sentences':>9} {'distinct':>8} {'defects':>7} {'rate':>6}  kinds")
    for lang, r in reports.items():
        kinds = ", ".join(f"{k} {n}" for k, n in r.kinds().most_common())
        print(f"{lang:6} {r.sentences:9} {r.distinct:8} {r.defective:7} {r.rate:6.1%}  {kinds}")
        for s, ks in list(r.defects.items())[: a.show]:
            print(f"    [{','.join(ks)}] {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# ---------------------------------------------------------------- published terms


def _stem(word: str) -> str:
    w = word.lower().replace("'", "’")
    return w if len(w) <= 4 else w[: max(4, len(w) - 2)]


def glossary(lang: str) -> dict[str, str]:
    """term key -> the word printed in the language's rulebook (the glossaries of
    ``docs/glossary``: rows quoting a printed source «…»), for every game with one."""
    root = Path(__file__).resolve().parents[1] / "docs" / "glossary"
    out: dict[str, str] = {}
    from rules.registry import registrations

    others = [root / f"{name}.{lang}.md" for name in registrations()]
    for path in (root / f"{lang}.md", *others):
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.split("|")]
            if len(cells) >= 5 and cells[1].startswith("`") and "«" in cells[4]:
                out[cells[1].strip("`")] = cells[3]
    return out


def key_game(key: str) -> str:
    """The game a catalogue key belongs to: the registered game whose own prefix
    (``<game>.``) starts the key or follows a dot in it; "" for the default game's keys and
    the platform's."""
    from rules.registry import registrations

    for r in registrations().values():
        pre = (r.words_prefix or "").removesuffix("word.")
        if pre and (key.startswith(pre) or "." + pre in key):
            return r.name
    return ""


def published_terms(lang: str) -> tuple[int, int, list[tuple[str, str, str]]]:
    """How many of the catalogue's texts that name a thing of the rulebook use the rulebook's
    word for it: (using, naming, [(key, term, text) not using it]). A text names the thing when
    its English text holds the English name as a whole word (names of 4 letters or more)."""

    def bare(text: str) -> str:
        """The words of a template: its plural fields' forms kept, other fields left out."""
        text = re.sub(
            r"\{[A-Za-z_]+\|([^{}]*)\}",
            lambda m: " ".join(f.partition("=")[2] or f for f in m.group(1).split("|")),
            _PROTECT.sub(" ", text),
        )
        return re.sub(r"\{[^{}@]*\}", " ", text)

    en = {k: bare(v) for k, v in i18n.catalogue("en").messages.items()}
    cat = {k: bare(v) for k, v in i18n.catalogue(lang).messages.items()}
    game_of = key_game

    using = naming = 0
    missing: list[tuple[str, str, str]] = []
    for tkey, word in glossary(lang).items():
        english = en.get(tkey, "")
        if len(english) < 4 or not word:
            continue
        pat = re.compile(r"(?<!\w)" + re.escape(english.lower()) + r"(?!\w)")
        stems = [_stem(w) for w in re.findall(r"[^\W\d_]+", word)]
        for key, etext in en.items():
            if key == tkey or ".word." in "." + key or key.startswith("cmd.") or key not in cat:
                continue
            if game_of(key) != game_of(tkey):
                continue
            if not pat.search(etext.lower()) or "{@" + tkey + "}" in etext:
                continue
            naming += 1
            text = cat[key].lower().replace("'", "’")
            if "{@" + tkey + "}" in cat[key] or all(s in text for s in stems):
                using += 1
            else:
                missing.append((key, word, cat[key]))
    return using, naming, missing
