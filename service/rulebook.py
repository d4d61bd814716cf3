"""The rules reference (`docs/rules.md`) as data: parse it, look rules up, format for chat.

Used by the Discord bot's rules lookup and by the local terminal. The file's format:
`## N. Section` headings (a `##` heading without a number holds no entries), and under
them one entry per rule ID — a heading, then its text starting with the source tag:

    ### R-BUILD-4 — Where a building may go
    [seed] One short paragraph (optionally followed by a list) …

`load_rulebook()` reads the package data file `service/data/rules.md` (`DEFAULT_PATH`). In
the repository that is a symbolic link to `docs/rules.md`, the one copy of the text, so a
checkout and an editable install read `docs/rules.md` itself; a wheel ships the file's
contents in its place (pyproject.toml's package-data), so an installed bot finds its
rulebook too. Another file can be passed instead (`load_rulebook(path)`,
`lookup(query, path=path)`).

Languages: the reference exists in every language of the product, with the same rule IDs,
sections and source tags: `docs/rules.<lang>.md` (`rules.pt-BR.md`, `rules.fr.md` …), linked
the same way as `service/data/rules.<lang>.md`. Every lookup takes `lang` (a language code
as `i18n.resolve` accepts it: `pt-BR`, `pt_BR`, `de-DE` …) and reads that language's file
next to the English one (`rules_path`); a language without a file, or an unknown one, reads
English. Words are searched in the language's own words, accents and case folded
(`ágyú` = `agyu`, `złoto` = `zloto`), a word's last letter left free in the inflected
languages (`odlewnia` finds `odlewnię`). Each document names its ID families in its own words
by writing `Word (R-FAMILY)` (the actions' list does), so `construir 4` finds R-BUILD-4 in
Portuguese and `építés 4` in Hungarian; the English family words and every ID work in all.

    >>> [e.id for e in lookup("build 4")]
    ['R-BUILD-4']
    >>> lookup("R-BUILD-4", lang="fr")[0].title
    'Où un bâtiment peut aller'
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import i18n
from rules.games import DEFAULT as DEFAULT_GAME
from rules.registry import registrations

__all__ = [
    "CHAT_LIMIT",
    "DEFAULT_PATH",
    "GAME_PATHS",
    "RuleEntry",
    "Rulebook",
    "RulebookError",
    "format_entry",
    "game_path",
    "load_rulebook",
    "lookup",
    "normalize_rule_id",
    "parse_rulebook",
    "rules_path",
]

# Package data (see above): resolves to docs/rules.md in a checkout, a plain file in a wheel.
GAME_PATHS: dict[str, Path] = {
    name: path
    for name, reg in registrations().items()
    if (path := reg.path("rulebook")) is not None
}
"""Each game's rules reference (English; its translations beside it), by the game's name,
from its registration (Brazil: Imperial's ``R-`` IDs in ``docs/rules.md``, Tigris &
Euphrates' ``T-`` IDs in ``docs/tigris/rules.md``)."""
DEFAULT_PATH = GAME_PATHS[DEFAULT_GAME]
"""The default game's rules reference."""
CHAT_LIMIT = 1900  # characters: a Discord message (2,000) with room to spare

_ID = re.compile(r"[A-Z]-[A-Z]+-[0-9]+")
_SECTION = re.compile(r"^## (?:(\d+)\.\s+)?(.+?)\s*$")
_ENTRY = re.compile(r"^### ([A-Z]-[A-Z]+-[0-9]+) — (\S.*?)\s*$")
_TAG = re.compile(r"^\[(seed|faq|ruling|design)([^\]]*)\]\s*")
_LIST_ITEM = re.compile(r"^(?:- |\d+\. )")
_FAMILY_WORD = re.compile(r"([^\W\d_][\w'’-]*)\s+\([A-Z]-([A-Z]+)\)")
_QUERY_ID = re.compile(r"^([A-Z][\s_-]+)?([A-Z]+)[\s_-]*([0-9]+)$")
_WORD = re.compile(r"[^\W_]+")
# letters that Unicode does not decompose into a base letter and an accent
_FOLD_EXTRA = str.maketrans({"ł": "l", "ß": "ss", "ø": "o", "đ": "d", "æ": "ae", "œ": "oe"})
_STOPWORDS_EN = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "my",
        "of",
        "on",
        "or",
        "the",
        "to",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "with",
        "you",
        "your",
    ]
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The commonest function words of each language (folded: lower case, no accents).
_STOPWORDS_BY_LANG: dict[str, frozenset[str]] = {
    "pt-BR": _words(
        "a as o os um uma uns umas e ou de do da dos das em no na nos nas por para com como "
        "que qual quando onde quem se eu meu minha seu sua posso pode e sao ao aos"
    ),
    "fr": _words(
        "a au aux le la les l un une des du de d et ou en dans sur par pour avec comment "
        "que qu quoi quand ou qui si je j mon ma mes est sont peut puis on ce ces"
    ),
    "de": _words(
        "der die das den dem des ein eine einen einem einer und oder in im an am auf mit von "
        "vom zu zum zur fur wie was wann wo wer ich mein meine ist sind kann darf es"
    ),
    "hu": _words(
        "a az egy es vagy is de hogy mi mit mikor hol ki ha en en nem van vannak lehet "
        "meg el ra be ki fel le"
    ),
    "pl": _words(
        "a i w we z ze na do od o u po za czy lub albo jak co kiedy gdzie kto jesli "
        "moj moja jest sa moge mozna sie to ten ta"
    ),
}


class RulebookError(ValueError):
    """`docs/rules.md` is malformed (names the line)."""


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """One rule: `id` like `R-BUILD-4`, a short `title`, its `text` (paragraphs joined,
    list items one per line), its source `tag` as written (`seed`, `seed PL, faq`,
    `ruling` …) and the `section` it stands in (`Combat`)."""

    id: str
    title: str
    text: str
    tag: str
    section: str

    @property
    def family(self) -> str:
        """The ID's middle part: `BUILD` for `R-BUILD-4`."""
        return self.id.split("-")[1]

    @property
    def kind(self) -> str:
        """The kind of source: `seed`, `faq`, `ruling` or `design`."""
        return self.tag.split()[0].rstrip(",")


@dataclass(frozen=True, slots=True)
class Rulebook:
    """All entries in document order, and the section names in order."""

    entries: tuple[RuleEntry, ...]
    sections: tuple[str, ...]
    lang: str = "en"
    # the document's own words for ID families, from its `Word (R-FAMILY)` mentions (folded):
    # `construir` -> BUILD in Portuguese, `epites` -> BUILD in Hungarian
    family_words: tuple[tuple[str, str], ...] = ()

    @property
    def prefix(self) -> str:
        """The letter every ID of this reference starts with: `R` (Brazil: Imperial), `T`
        (Tigris & Euphrates)."""
        return self.entries[0].id.split("-")[0] if self.entries else "R"

    def get(self, rule_id: str) -> RuleEntry | None:
        """The entry for an ID in any accepted spelling (see `normalize_rule_id`)."""
        key = normalize_rule_id(rule_id, self.prefix)
        return next((e for e in self.entries if e.id == key), None)

    def section(self, name: str) -> list[RuleEntry]:
        """The entries of a section (`combat`) or of an ID family (`build`, `renovate`)."""
        q = _fold(name).strip()
        for title in self.sections:
            if q in (_fold(title), _fold(_short_title(title))):
                return [e for e in self.entries if e.section == title]
        family = self._family(q) if _WORD.fullmatch(q) else None
        return [e for e in self.entries if e.family == family] if family else []

    def lookup(self, query: str, limit: int = 5) -> list[RuleEntry]:
        """Find rules for a player's query.

        - an ID in any spelling (`R-BUILD-4`, `r-build-4`, `R_BUILD_4`, `build-4`,
          `build 4`, `renovate 2`) gives that entry; a full `R-…` ID that does not exist
          gives nothing;
        - a section or family name (`combat`, `palaces`) gives all its entries in order
          (`limit` does not apply: a section is a table of contents);
        - anything else is a keyword search over titles and texts, accent- and
          case-insensitive (`sepe` finds Sepé), best first, at most `limit` entries.
        """
        q = query.strip()
        if not q:
            return []
        m = _QUERY_ID.match(_fold(q).upper())
        if m:
            family = self._family(m.group(2).lower())
            given = m.group(1)[0] if m.group(1) else self.prefix
            hit = self.get(f"{given}-{family}-{int(m.group(3))}") if family else None
            if hit is not None:
                return [hit]
            if m.group(1):
                return []
        listed = self.section(q)
        if listed:
            return listed
        return self._search(q, limit)

    # ----------------------------------------------------------------- internals

    def _family(self, word: str) -> str | None:
        """`build` → BUILD, `renovate` → RENOV, `exploration` → EXPLORE, `pal` → PALACE."""
        families = list(dict.fromkeys(e.family for e in self.entries))
        w = word.lower()
        for alias, fam in self.family_words:
            if w == alias:
                return fam
        for fam in families:
            f = fam.lower()
            if w == f or (len(w) >= 3 and w.startswith(f)):
                return fam
        if len(w) < 3:
            return None
        for fam in families:
            f = fam.lower()
            if f.startswith(w) or len(_common_prefix(w, f)) >= 5:
                return fam
        return None

    def _search(self, query: str, limit: int) -> list[RuleEntry]:
        stop = _STOPWORDS_EN | _STOPWORDS_BY_LANG.get(self.lang, frozenset())
        tokens = [t for t in _WORD.findall(_fold(query)) if t not in stop]
        if self.lang != "en":  # inflected languages: `odlewnia` finds `odlewnię`, `armata` `armaty`
            tokens = [t[:-1] if len(t) >= 5 else t for t in tokens]
        if not tokens or limit <= 0:
            return []
        docs = [(_WORD.findall(_fold(e.title)), _WORD.findall(_fold(e.text))) for e in self.entries]
        n = len(self.entries)
        scored: list[tuple[int, float, int]] = []
        weights: dict[str, float] = {}
        for t in set(tokens):
            df = sum(1 for title, text in docs if _hits(t, title) or _hits(t, text))
            weights[t] = math.log((n + 1) / (df + 1)) + 1.0
        phrase = " ".join(tokens)
        for i, (title, text) in enumerate(docs):
            matched = 0
            score = 0.0
            for t in set(tokens):
                h_title, h_text = _hits(t, title), _hits(t, text)
                if h_title or h_text:
                    matched += 1
                    score += weights[t] * (3 * h_title + min(h_text, 3))
            if matched == 0:
                continue
            if len(tokens) > 1 and phrase in " ".join(title + text):
                score += 5.0
            scored.append((matched, score, i))
        scored.sort(key=lambda s: (-s[0], -s[1], s[2]))
        return [self.entries[i] for _, _, i in scored[:limit]]


def normalize_rule_id(text: str, prefix: str = "R") -> str | None:
    """`r-build-4`, `R_BUILD_4`, `build-4`, `build 4` → `R-BUILD-4`; `t-war-6` → `T-WAR-6`
    (an ID without its game's letter gets ``prefix``); None if not ID-shaped.

    Only the spelling is normalised (the family word is taken as written); use
    `Rulebook.get` or `lookup` to also accept `renovate 2` for `R-RENOV-2`."""
    m = _QUERY_ID.match(_fold(text).strip().upper())
    if not m:
        return None
    given = m.group(1)[0] if m.group(1) else prefix
    return f"{given}-{m.group(2)}-{int(m.group(3))}"


def parse_rulebook(markdown: str, lang: str = "en") -> Rulebook:
    """Parse the rules reference; raises `RulebookError` naming the line of any defect
    (an entry without a source tag or text, a repeated ID, a `###` heading that is not an
    entry, an entry outside a section)."""
    entries: list[RuleEntry] = []
    sections: list[str] = []
    section: str | None = None
    current: tuple[int, str, str] | None = None  # line number, id, title
    body: list[str] = []

    def close() -> None:
        nonlocal current
        if current is None:
            return
        line_no, rule_id, title = current
        assert section is not None
        raw = "\n".join(body).strip()
        m = _TAG.match(raw)
        if not m:
            raise RulebookError(f"line {line_no}: {rule_id} must start with a tag like [seed]")
        text = _unwrap(raw[m.end() :])
        if not text:
            raise RulebookError(f"line {line_no}: {rule_id} has no text")
        tag = (m.group(1) + m.group(2)).strip()
        entries.append(RuleEntry(rule_id, title, text, tag, section))
        current = None

    for line_no, line in enumerate(markdown.splitlines(), start=1):
        if line.startswith("#"):
            close()
            body = []
            if line.startswith("### "):
                m = _ENTRY.match(line)
                if not m:
                    raise RulebookError(
                        f"line {line_no}: a ### heading must be '### R-XXX-N — title': {line!r}"
                    )
                if section is None:
                    raise RulebookError(f"line {line_no}: {m.group(1)} is outside a section")
                if any(e.id == m.group(1) for e in entries):
                    raise RulebookError(f"line {line_no}: {m.group(1)} appears twice")
                current = (line_no, m.group(1), m.group(2))
            elif line.startswith("## "):
                sm = _SECTION.match(line)
                assert sm is not None
                section = sm.group(2) if sm.group(1) else None
                if section is not None:
                    sections.append(section)
        elif current is not None:
            body.append(line)
    close()
    if not entries:
        raise RulebookError("no rule entries found")
    families = {e.family for e in entries}
    words = {
        _fold(m.group(1)): m.group(2)
        for m in _FAMILY_WORD.finditer(markdown)
        if m.group(2) in families
    }
    return Rulebook(
        tuple(entries),
        tuple(s for s in sections if any(e.section == s for e in entries)),
        lang,
        tuple(sorted(words.items())),
    )


def rules_path(lang: str = "en", path: str | Path | None = None) -> Path:
    """The file of a language's rules reference: next to the English one (`path`, default
    `DEFAULT_PATH`), named with the language code (`rules.md` -> `rules.fr.md`). English's
    own file when the language has none, is English or is unknown."""
    return _located(lang, path)[0]


def load_rulebook(path: str | Path | None = None, *, lang: str = "en") -> Rulebook:
    """Read and parse the rules reference in a language (see `rules_path`): `path` names the
    English file (default: the packaged `docs/rules.md`, `DEFAULT_PATH`). Parsed once per
    file (cached)."""
    p, code = _located(lang, path)
    return _load(p.resolve(), code)


def _located(lang: str, path: str | Path | None) -> tuple[Path, str]:
    """The file to read for `lang` and the language it is written in."""
    base = Path(path) if path is not None else DEFAULT_PATH
    code = _language(lang)
    if code != "en":
        translated = base.with_name(f"{base.stem}.{code}{base.suffix}")
        if translated.is_file():
            return translated, code
    return base, "en"


@functools.lru_cache(maxsize=16)
def _load(path: Path, lang: str = "en") -> Rulebook:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"rules reference not found at {path}; pass the location of a copy of "
            "docs/rules.md explicitly (load_rulebook(path))"
        ) from None
    return parse_rulebook(unicodedata.normalize("NFC", text), lang)


def lookup(
    query: str,
    limit: int = 5,
    *,
    path: str | Path | None = None,
    lang: str = "en",
    game: str | None = None,
) -> list[RuleEntry]:
    """`Rulebook.lookup` on the rules reference in language `lang` (English when it has
    none); `path` names the English file (default: the reference of `game`, `GAME_PATHS`,
    the default game's `DEFAULT_PATH` when no game is named)."""
    if path is None and game is not None:
        path = game_path(game)
    return load_rulebook(path, lang=lang).lookup(query, limit)


def example_id(game: str | None = None) -> str:
    """A rule ID of ``game``'s reference to show as an example (``R-BUILD-4``, ``T-WAR-6``): its
    first rule numbered 4 or more in a family, else its first entry's."""
    entries = load_rulebook(game_path(game)).entries
    for e in entries:
        parts = e.id.split("-")
        if len(parts) == 3 and parts[2].isdigit() and int(parts[2]) >= 4:
            return e.id
    return entries[0].id if entries else ""


def game_path(game: str | None) -> Path:
    """The English rules reference of ``game`` (by name; None: the default game);
    ``KeyError`` for a game that has none."""
    return GAME_PATHS[DEFAULT_GAME if game is None else game]


def _language(lang: str | None) -> str:
    """A served language's code for `lang` in any accepted spelling, else English."""
    if not lang or lang == "en":
        return "en"
    return i18n.resolve(lang) or "en"


def source_label(tag: str, lang: str = "en") -> str:
    """A source tag as a reader of ``lang`` reads it: each part's kind in words (``seed`` ->
    "rulebook", ``faq`` -> "FAQ", ``ruling``, ``data``: ``rules.source.<kind>``), what
    follows the kind kept (``seed PL`` -> "rulebook PL")."""
    from i18n import tr

    parts = []
    for part in tag.split(","):
        kind, _, rest = part.strip().partition(" ")
        word = tr(lang, f"rules.source.{kind}") if kind in SOURCE_KINDS else kind
        parts.append(f"{word} {rest}".strip())
    return ", ".join(parts)


SOURCE_KINDS = ("seed", "faq", "ruling", "data")
_MARK = re.compile(r"\[((?:seed|faq|ruling|data)\b[^\]]*)\]")
"""The kinds of source a rule's tag names, each with its words in the catalogues."""


def format_entry(
    entry: RuleEntry, width: int = CHAT_LIMIT, *, markdown: bool = True, lang: str = "en"
) -> str:
    """Chat-ready text of one entry, at most `width` characters: a bold heading with the
    source tag (in ``lang``'s words), then the text. Longer text is cut after the last whole
    sentence that fits and ends with " …". `markdown=False` leaves out the bold `**` marks
    (for a terminal)."""
    if width < 1:
        raise ValueError("width must be positive")
    from i18n.grammar import polish_text

    heading = f"{entry.id} — {entry.title}"
    tag = source_label(entry.tag, lang)
    # the source marks inside the text ([seed PL], [faq]) in the reader's words too, and the
    # language's typography (French spacing)
    body = _MARK.sub(lambda m: f"[{source_label(m.group(1), lang)}]", entry.text)
    body = polish_text(_language(lang).replace("-", "_"), body)
    if markdown:
        head, text = f"**{heading}** [{tag}]", body
    else:
        head, text = f"{heading} [{tag}]", re.sub(r"\*\*(.+?)\*\*", r"\1", body)
    full = f"{head}\n{text}"
    if len(full) <= width:
        return full
    budget = width - 1  # room for "…"
    cut = full[:budget]
    ends = [m.end() for m in re.finditer(r"(?<!e\.g)[.!?;:](?=\s)|[.!?]$", cut)]
    ends = [e for e in ends if e > len(head)]
    if ends:
        cut = cut[: ends[-1]]
    else:
        space = cut.rfind(" ", len(head) + 1)
        cut = cut[:space] if space > len(head) else cut
    return cut.rstrip() + " …"


def _unwrap(text: str) -> str:
    """Join hard-wrapped lines: paragraphs separated by a blank line, list items one per line."""
    blocks: list[list[str]] = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for raw in para.splitlines():
            line = raw.strip()
            if not line:
                continue
            if lines and not _LIST_ITEM.match(line):
                lines[-1] = f"{lines[-1]} {line}"
            else:
                lines.append(line)
        if lines:
            blocks.append(lines)
    return "\n\n".join("\n".join(lines) for lines in blocks)


def _fold(text: str) -> str:
    """Lower case without accents: `Sepé Tiaraju` → `sepe tiaraju`."""
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(_FOLD_EXTRA))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _short_title(title: str) -> str:
    """`Actions (the 7 arches)` → `Actions`; `Solo mode — Battle of Guararapes` → `Solo mode`."""
    return re.split(r"\s+(?:\(|—)", title, maxsplit=1)[0]


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def _hits(token: str, words: list[str]) -> int:
    """How many words match `token`: equal, or (tokens of 4+ letters) starting with it."""
    if len(token) >= 4:
        return sum(1 for w in words if w.startswith(token))
    return sum(1 for w in words if w == token)
