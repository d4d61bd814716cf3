"""The typed command language in every language: the canonical notation and each language's
words for its verbs and components.

Commands keep one canonical notation (``build sawmill D3``, :mod:`rules.brazil.notation`) that works
in every language; a language adds its own words for the canonical tokens — the keys
``word.<token>`` of its catalogue (``i18n/locales/<code>/words.toml``): ``construir serraria D3``,
``épít fűrésztelep D3``. A word may be several words (``pole trzciny``) and may list
alternatives separated by ``|`` (the first is the one shown).

- :func:`localize` writes a canonical command with the language's words;
- :func:`canonical` reads the language's words, the canonical tokens, or a mix of both, back
  to the canonical command (case and accents folded, so ``epit futesztelep`` reads too; an
  unambiguous beginning of a word reads as that word); anything it does not know (hexes,
  numbers, mission ids, misspellings) is left as typed for :func:`rules.brazil.notation.parse_text`
  to read or explain;
- :func:`complete` lists the commands that start with what the user typed, in their language.

Separators of the notation (spaces, ``+``, ``@``, ``:``, ``,``) are kept; a number glued to a
word (``+2cards``) keeps its number.

Each game has its own notation and words (:data:`GAMES`): Brazil's are ``word.<token>``
(the default of every function here), *Tigris & Euphrates*' ``tigris.word.<token>``
(``game="tigris"``: ``lapka piros F4`` for ``tile red F4``, :mod:`rules.tigris.notation`). A
game's tokens are the keys its English catalogue has under its prefix; the games' words
never meet, so one word may mean different things in two games.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from i18n.catalogue import DEFAULT, PSEUDO, Catalogue, catalogue, load_all
from i18n.render import FIELD, render_template, template_of, term_text, tr
from rules.registry import default_name, registration, registrations

WORD = "word."
"""The default game's prefix of its typed-command words (Brazil: Imperial's ``word.<token>``)."""
GAMES: dict[str, str] = {
    name: reg.words_prefix for name, reg in registrations().items() if reg.words_prefix
}
"""Each game's prefix of the typed-command words in the catalogues (its registration's
``words_prefix``; a game without one is typed in its canonical notation only)."""
DEFAULT_GAME = default_name()
COMPOUNDS = frozenset(name for name, reg in registrations().items() if reg.compound_words)
"""The games whose notation joins tokens with ``-`` (Tigris' monuments, ``red-blue``): such an
atom, when it is no word itself, is written and read part by part (``piros-kék``)."""
_SPLIT = re.compile(r"(\s+|[+@:,])")
_NUMBERED = re.compile(r"(\d+)(\D.*)")
_SPECIAL = str.maketrans(
    {
        "ł": "l",
        "Ł": "L",
        "ß": "ss",
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "đ": "d",
        "ı": "i",
    }
)
MIN_PREFIX = 3


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """A word as it is compared: lower case, no accents (ł → l, ß → ss), no apostrophes or
    dots, and hyphens, underscores and spaces all one space."""
    t = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    t = t.replace("'", "").replace("\u2019", "").replace(".", "")
    return re.sub(r"[\s_\-]+", " ", t).strip()


@dataclass
class Words:
    """One language's words: token -> words shown, and folded word -> token."""

    lang: str
    show: dict[str, str] = field(default_factory=dict)  # token -> the word shown
    read: dict[str, str] = field(default_factory=dict)  # folded word -> token
    canon: dict[str, str] = field(default_factory=dict)  # folded token -> token
    tokens: frozenset[str] = frozenset()
    longest: int = 1  # the most atoms a word has
    starts: frozenset[str] = frozenset()  # the first atom of each word of several atoms

    def alternatives(self, token: str) -> list[str]:
        return [w for w, t in self.read.items() if t == token]


def alternatives(text: str) -> list[str]:
    """The words of one catalogue entry (``kaffee|kaffeebohnen``)."""
    return [a.strip() for a in text.split("|") if a.strip()]


_cache: dict[tuple[str, str], tuple[Catalogue, Catalogue, Words]] = {}


def _prefix(game: str) -> str | None:
    """The game's word prefix; None for a registered game typed in its notation only."""
    found = GAMES.get(game)
    if found is None and registration(game) is None:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(registrations())})")
    return found


def words(lang: str, game: str = DEFAULT_GAME) -> Words:
    """The words of ``lang`` for ``game``'s notation (English — the canonical notation — for an
    unknown language)."""
    prefix = _prefix(game)
    cats = load_all()
    code = lang if lang in cats else DEFAULT
    if prefix is None:
        return Words(code)
    cat, en = cats[code], cats[DEFAULT]
    hit = _cache.get((code, game))
    if hit is not None and hit[0] is cat and hit[1] is en:
        return hit[2]
    tokens = frozenset(k[len(prefix) :] for k in en.messages if k.startswith(prefix))
    w = Words(code, tokens=tokens)
    for t in sorted(tokens):
        w.canon.setdefault(fold(t), t)
    for t in sorted(tokens):
        text = cat.messages.get(prefix + t) or t
        alts = alternatives(text) or [t]
        w.show[t] = alts[0]
        for a in alts:
            w.read.setdefault(fold(a), t)
    w.longest = max((len(k.split()) for k in w.read), default=1)
    # a word of several atoms starts with its first atom as written (``jean-maurice de
    # nassau``) or as folded (``jean maurice de nassau``)
    starts: set[str] = set()
    for t in tokens:
        for a in alternatives(cat.messages.get(prefix + t) or t):
            if " " in fold(a):
                starts |= {fold(a.split()[0]), fold(a).split()[0]}
    w.starts = frozenset(starts)
    _cache[(code, game)] = (cat, en, w)
    return w


def _parts(text: str) -> list[str]:
    """Atoms at even indices, separators at odd ones."""
    return _SPLIT.split(text)


def localize(text: str, lang: str, game: str = DEFAULT_GAME) -> str:
    """A canonical command written with the words of ``lang`` (``build sawmill D3`` ->
    ``construir serraria D3`` in pt-BR); what has no word (hexes, numbers) stays."""
    w = words(lang, game)
    if w.lang == DEFAULT:
        return text
    parts = _parts(text)
    for i in range(0, len(parts), 2):
        atom = parts[i]
        low = atom.lower()
        if low in w.show:
            parts[i] = w.show[low]
        elif (m := _NUMBERED.fullmatch(low)) and m.group(2) in w.show:
            parts[i] = m.group(1) + w.show[m.group(2)]
        elif game in COMPOUNDS and "-" in low and all(p in w.show for p in low.split("-")):
            parts[i] = "-".join(w.show[p] for p in low.split("-"))
    return "".join(parts)


def _common_prefix(items: Iterable[str]) -> str:
    items = sorted(items)
    if not items:
        return ""
    a, b = items[0], items[-1]
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _one(w: Words, atom: str) -> str | None:
    """The canonical token for one atom, or None."""
    low = atom.lower()
    if low in w.tokens:
        return low
    f = fold(atom)
    if not f:
        return None
    if f in w.read:
        return w.read[f]
    if (m := _NUMBERED.fullmatch(low)) and (t := _one(w, m.group(2))) is not None:
        return m.group(1) + t
    if f in w.canon:
        return w.canon[f]
    if len(f) >= MIN_PREFIX and f.replace(" ", "").isalpha():
        found = {t for k, t in w.read.items() if k.startswith(f)}
        canon = {t for k, t in w.canon.items() if k.startswith(f)}
        if canon and not (canon <= found and len(found) == 1):
            return None  # a beginning of canonical tokens too: the rules' parser settles it
        if len(found) == 1:
            return found.pop()
        prefix = _common_prefix(found)  # archer1, archer2 -> archer: settled by what is legal
        if len(prefix) >= MIN_PREFIX:
            return prefix
    return None


def canonical(text: str, lang: str, game: str = DEFAULT_GAME) -> str:
    """The canonical command for text typed in ``lang``: the language's words, the canonical
    tokens, or a mix, in any case, with or without accents (``Épít Fűrésztelep d3`` ->
    ``build sawmill d3``). Words of several words are read as one; what is not a word of the
    language stays as typed."""
    w = words(lang, game)
    parts = _parts(text.strip())
    folded = [fold(p) if i % 2 == 0 else "" for i, p in enumerate(parts)]
    out: list[str] = []
    i = 0
    n = len(parts)
    while i < n:
        atom = parts[i]
        done = False
        if folded[i] in w.starts:
            # a word of several atoms, separated by spaces only (longest first)
            for k in range(min(w.longest, (n - i + 1) // 2), 1, -1):
                j = i + 2 * (k - 1)
                if not all(parts[i : j + 1 : 2]) or not all(
                    s.isspace() for s in parts[i + 1 : j : 2]
                ):
                    continue
                t = w.read.get(" ".join(folded[i : j + 1 : 2]))
                if t is not None:
                    out.append(t)
                    i = j + 1
                    done = True
                    break
        if not done:
            t = _one(w, atom) if atom else None
            if t is None and game in COMPOUNDS and "-" in atom.strip("-"):
                subs = [_one(w, p) if p else None for p in atom.split("-")]
                t = "-".join(x for x in subs if x) if all(subs) else None
            out.append(atom if t is None else t)
            i += 1
        if i < n:  # the separator after the atom (or word)
            out.append(parts[i])
            i += 1
    return "".join(out)


def complete(
    prefix: str, candidates: Sequence[str], lang: str, game: str = DEFAULT_GAME
) -> list[str]:
    """The ``candidates`` (canonical commands, e.g. the legal ones) that start with ``prefix``
    as the user types it — in ``lang``'s words, canonically, or mixed; case and accents
    folded — shown in ``lang``, sorted."""
    p = " ".join(prefix.split())
    if prefix.endswith(" ") and p:
        p += " "
    fp = _fold_text(p)
    cp = _fold_text(canonical(p, lang, game)) + (" " if p.endswith(" ") else "")
    out: set[str] = set()
    for c in candidates:
        shown = localize(c, lang, game)
        fc = _fold_text(c)
        if _fold_text(shown).startswith(fp) or fc.startswith(fp) or fc.startswith(cp):
            out.add(shown)
    return sorted(out, key=lambda s: (_fold_text(s), s))


def _fold_text(text: str) -> str:
    """A whole command folded for comparison, separators kept."""
    parts = _parts(text)
    return "".join(
        fold(x) if i % 2 == 0 else (" " if x.isspace() else x) for i, x in enumerate(parts)
    )


def problems(lang: str, game: str | None = DEFAULT_GAME) -> list[str]:
    """What is wrong with a language's words: not lower case, separators or a leading digit
    inside a word, two tokens sharing a word, a word that is another canonical token (of the
    same game; ``game=None``: every game's words)."""
    if game is None:
        return [p for g in GAMES for p in problems(lang, g)]
    prefix = _prefix(game)
    if prefix is None:
        return []
    w = words(lang, game)
    if w.lang != lang:
        return [f"{lang}: unknown language"]
    cat = catalogue(lang)
    out: list[str] = []
    seen: dict[str, str] = {}
    for t in sorted(w.tokens):
        text = cat.messages.get(prefix + t)
        if text is None:
            out.append(f"{lang}: {prefix}{t} is missing")
            continue
        for a in alternatives(text):
            if a != a.lower() and lang != "pseudo":
                out.append(f"{lang}: {prefix}{t} {a!r} is not lower case")
            if _SPLIT.search(a.replace(" ", "")) or a[:1].isdigit():
                out.append(
                    f"{lang}: {prefix}{t} {a!r} has a separator (+ @ : ,) or starts with a digit"
                )
            f = fold(a)
            if f in seen and seen[f] != t:
                out.append(f"{lang}: {a!r} is a word of both {seen[f]} and {t}")
            seen[f] = t
            if a.lower() in w.tokens and a.lower() != t:
                out.append(f"{lang}: {prefix}{t} {a!r} is the canonical token {a.lower()!r}")
    return out


# ====================================================== refusals in the player's notation

COMMAND_PARAMS = frozenset({"text", "command", "commands", "options", "usage", "verb", "word"})
"""The parameters of a game's refusals that hold commands of its notation (what was typed, the
legal commands, a command's usage): written in the player's notation by :func:`refusal`."""
_SPAN = re.compile(r"`([^`\n]+)`")


def typed_notation(text: str, lang: str, game: str = DEFAULT_GAME) -> str:
    """The language whose words ``text`` is typed in: English (the canonical notation) when
    its first word is a canonical token and no word of ``lang``, else ``lang``."""
    w = words(lang, game)
    atoms = [a for a in _parts(text.strip())[::2] if a]
    if w.lang == DEFAULT or not atoms:
        return w.lang
    first = fold(atoms[0])
    if first not in w.read and (first in w.canon or atoms[0].lower() in w.tokens):
        return DEFAULT
    return w.lang


_PLACEHOLDER = re.compile(r"<([^<>]+)>|(?<![\w-])([A-Z]+(?:-[A-Z]+)*)(?![\w-])")
_ARG_WORDS = re.compile(r"[a-z][a-z_]*(?: [a-z][a-z_]*)*")
_WORD = re.compile(r"[^\W\d][\w\-]*|\d+[^\W\d][\w\-]*")


def localize_usage(
    text: str, lang: str, game: str = DEFAULT_GAME, args: Mapping[str, str] | None = None
) -> str:
    """A command's usage (``build <building|city> <hex>``, ``tile COLOUR SQUARE``) or a
    command written with ``lang``'s words: its tokens as :func:`localize` writes them, its
    placeholders (``<hex>``, an upper-case ``SQUARE``) in the words of ``args`` (the game's
    placeholder name, lower case with ``_`` for spaces -> catalogue key; an upper-case
    placeholder stays upper case); what is neither stays."""
    args = args or {}
    if lang == PSEUDO:
        lang = DEFAULT  # the pseudo-language types the canonical notation

    shown = words(lang, game).show

    def word(atom: str) -> str:
        if "_" in atom and atom.lower() not in shown and atom.replace("_", "-") in shown:
            atom = atom.replace("_", "-")  # a verb's name (keep_unit) as it is typed
        return localize(atom, lang, game)

    def words_of(seg: str) -> str:
        return _WORD.sub(lambda m: word(m.group(0)), seg)

    def arg(run: str) -> str:
        key = args.get(run.replace(" ", "_"))
        if key is not None:
            return term_text(lang, key)
        if " " in run:
            return " ".join(arg(w) for w in run.split(" "))
        return localize(run, lang, game)

    out: list[str] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        upper = m.group(2)
        if upper is not None and not all(p.lower() in args for p in upper.split("-")):
            continue  # an upper-case word that is no placeholder of the game (a rule ID)
        out.append(words_of(text[pos : m.start()]))
        if upper is None:
            out.append("<" + _ARG_WORDS.sub(lambda a: arg(a.group(0)), m.group(1)) + ">")
        else:
            out.append("-".join(arg(p.lower()).upper() for p in upper.split("-")))
        pos = m.end()
    out.append(words_of(text[pos:]))
    return "".join(out)


def localize_spans(
    text: str, lang: str, game: str = DEFAULT_GAME, args: Mapping[str, str] | None = None
) -> str:
    """``text`` with each command in backticks (```war yes```, ```retreat <hex>```) written
    with ``lang``'s words (:func:`localize_usage`); the template fields inside a span
    (``{verb}``) are kept as they are."""

    def one(m: re.Match[str]) -> str:
        inner = m.group(1)
        out: list[str] = []
        pos = 0
        for f in FIELD.finditer(inner):
            out.append(localize_usage(inner[pos : f.start()], lang, game, args))
            out.append(f.group(0))
            pos = f.end()
        out.append(localize_usage(inner[pos:], lang, game, args))
        return "`" + "".join(out) + "`"

    return _SPAN.sub(one, text)


def _command_text(v: str, lang: str, game: str, args: Mapping[str, str] | None) -> str:
    if v.startswith("@"):
        return v  # a term reference: the reader's language already
    if "`" in v:
        return localize_spans(v, lang, game, args)
    return localize_usage(v, lang, game, args)


def refusal(
    lang: str,
    key: str,
    params: Mapping[str, Any],
    game: str = DEFAULT_GAME,
    notation: str | None = None,
    args: Mapping[str, str] | None = None,
) -> str:
    """A game's refusal ``key`` in ``lang`` with the commands it names — the commands of its
    parameters (:data:`COMMAND_PARAMS`, in nested messages too) and those its templates write
    in backticks — in the words of ``notation`` (the language the player typed in:
    :func:`typed_notation`; default ``lang``); ``args``: the words of the game's placeholders
    (:func:`localize_usage`)."""
    return _refusal(lang, key, params, game, notation or lang, False, args or {})


def _refusal(
    lang: str,
    key: str,
    params: Mapping[str, Any],
    game: str,
    nl: str,
    commands: bool,
    args: Mapping[str, str],
) -> str:
    template = template_of(lang, key)
    if template is None:
        return tr(lang, key, **params)
    if nl != DEFAULT:
        template = localize_spans(template, nl, game, args)

    prefix = GAMES.get(game)

    def value(v: Any, cmd: bool) -> Any:
        if isinstance(v, Mapping) and isinstance(v.get("key"), str):
            return _refusal(lang, str(v["key"]), v.get("params") or {}, game, nl, cmd, args)
        if isinstance(v, list | tuple):
            return [value(x, cmd) for x in v]
        if isinstance(v, str) and prefix and v.startswith("@" + prefix):
            return localize(v[len(prefix) + 1 :], nl, game)  # a command's word, as typed
        if isinstance(v, str) and cmd and nl != DEFAULT:
            return _command_text(v, nl, game, args)
        return v

    filled = {n: value(v, commands or n in COMMAND_PARAMS) for n, v in params.items()}
    return render_template(lang, template, filled)


__all__ = [
    "COMMAND_PARAMS",
    "DEFAULT_GAME",
    "GAMES",
    "Words",
    "alternatives",
    "canonical",
    "complete",
    "fold",
    "localize",
    "localize_spans",
    "localize_usage",
    "problems",
    "refusal",
    "typed_notation",
    "words",
]
