"""The languages and their catalogues: loading, the registry, the pseudo-language.

A language is found in a locale folder: ``<dir>/<code>/*.toml`` (several files, merged) or
``<dir>/<code>.toml`` (one file). Each file has a ``[messages]`` table and one of them a
``[meta]`` table::

    [meta]
    name = "Magyar"          # the language's own name, for menus
    english = "Hungarian"    # its English name
    babel = "hu"             # the Babel (CLDR) locale: plurals, numbers, lists, durations
    discord = ["hu"]         # the Discord client locales it serves

    [messages]
    "lobby.joined" = "{who} csatlakozott."

The project's own folder is ``i18n/locales``; :func:`add_locale_dir` (or the
``TURNPOST_LOCALES`` environment variable, folders separated by the path separator) adds more:
adding a language is one catalogue file, no code.
"""

from __future__ import annotations

import logging
import os
import tomllib
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale

from i18n.pseudo import pseudo_messages
from rules.registry import registrations

log = logging.getLogger("i18n")

DEFAULT = "en"
PSEUDO = "pseudo"
"""The pseudo-language: English accented, 35 % longer and bracketed (tests find hard-coded
English as unbracketed text). Not offered to users."""

LOCALES = Path(__file__).with_name("locales")
_extra_dirs: list[Path] = []


class UnknownLanguage(ValueError):
    """A language code that no catalogue serves; the message lists the supported ones."""

    def __init__(self, code: str) -> None:
        self.code = code
        names = ", ".join(f"{c} ({languages()[c].name})" for c in supported())
        super().__init__(f"Unknown language {code!r}. Supported: {names}.")


@dataclass(frozen=True)
class Language:
    """One language's description (its catalogue's ``[meta]``)."""

    code: str
    name: str
    english: str
    babel: str
    discord: tuple[str, ...] = ()

    @property
    def locale(self) -> Locale:
        return Locale.parse(self.babel)


@dataclass
class Catalogue:
    """One language's templates by key."""

    language: Language
    messages: dict[str, str] = field(default_factory=dict)
    sources: dict[str, Path] = field(default_factory=dict)  # key -> the file that holds it

    @property
    def code(self) -> str:
        return self.language.code

    def get(self, key: str) -> str | None:
        return self.messages.get(key)


def add_locale_dir(path: str | Path) -> None:
    """Serve the languages of another folder too (a later folder's language wins)."""
    p = Path(path)
    if p not in _extra_dirs:
        _extra_dirs.append(p)
    _reset()


def clear_locale_dirs() -> None:
    """Forget the folders :func:`add_locale_dir` added."""
    _extra_dirs.clear()
    _reset()


def _dirs() -> list[Path]:
    """The folders whose languages are served, a later folder's language replacing an
    earlier one's (the platform's, then ``TURNPOST_LOCALES``', then :func:`add_locale_dir`'s)."""
    # (the deprecated BRAZIL_LOCALES too: i18n sits below storage.environ)
    value = os.environ.get("TURNPOST_LOCALES", os.environ.get("BRAZIL_LOCALES", ""))
    env = [Path(x) for x in value.split(os.pathsep) if x]
    return [LOCALES, *env, *_extra_dirs]


def _game_dirs() -> list[Path]:
    """The registered games' own catalogue folders (``Registration.locales``): their messages
    are added to the languages the folders above serve."""
    return [p for reg in registrations().values() if (p := reg.path("locales")) is not None]


def _engine_messages() -> list[Mapping[str, str]]:
    """Each registered game's English engine messages (the fallback of every catalogue)."""
    tables: list[Mapping[str, str]] = []
    for reg in registrations().values():
        if reg.engine_messages:
            table = reg.load("engine_messages")
            if not isinstance(table, Mapping):
                raise TypeError(f"{reg.engine_messages} is not a table of messages")
            tables.append(table)
    return tables


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _read(path: Path) -> tuple[dict[str, object], dict[str, str]]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    meta = data.get("meta", {})
    messages = data.get("messages", {})
    if not isinstance(meta, dict) or not isinstance(messages, dict):
        raise ValueError(f"{path}: [meta] and [messages] must be tables")
    out: dict[str, str] = {}
    for k, v in messages.items():
        if not isinstance(v, str):
            raise ValueError(f"{path}: message {k!r} is not a text (quote keys with dots)")
        out[k] = _nfc(v)
    return meta, out


def _files(d: Path) -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    if not d.is_dir():
        return found
    for p in sorted(d.iterdir()):
        if p.is_dir() and not p.name.startswith((".", "_")):
            files = sorted(p.glob("*.toml"))
            if files:
                found[p.name] = files
        elif p.suffix == ".toml":
            found[p.stem] = [p]
    return found


_catalogues: dict[str, Catalogue] | None = None
on_reset: list[Callable[[], None]] = []
"""Called when the catalogues are loaded anew (the renderers' caches)."""


def _reset() -> None:
    global _catalogues
    _catalogues = None
    _warned.clear()
    for f in on_reset:
        f()


def load_all() -> dict[str, Catalogue]:
    global _catalogues
    if _catalogues is not None:
        return _catalogues
    cats: dict[str, Catalogue] = {}
    for d in _dirs():
        for code, files in _files(d).items():
            meta: dict[str, object] = {}
            messages: dict[str, str] = {}
            sources: dict[str, Path] = {}
            for f in files:
                m, msgs = _read(f)
                meta.update(m)
                for k, v in msgs.items():
                    if k in messages:
                        raise ValueError(f"{f}: key {k!r} is also in {sources[k]}")
                    messages[k] = v
                    sources[k] = f
            disc = meta.get("discord", [])
            lang = Language(
                code=code,
                name=str(meta.get("name", code)),
                english=str(meta.get("english", meta.get("name", code))),
                babel=str(meta.get("babel", code.replace("-", "_"))),
                discord=tuple(str(x) for x in disc) if isinstance(disc, list) else (),
            )
            cats[code] = Catalogue(lang, messages, sources)
    for d in _game_dirs():
        for code, files in _files(d).items():
            cat = cats.get(code)
            if cat is None:
                log.warning(
                    "%s: no catalogue serves language %r: its messages are not read", d, code
                )
                continue
            for f in files:
                for k, v in _read(f)[1].items():
                    if k in cat.messages:
                        raise ValueError(f"{f}: key {k!r} is also in {cat.sources.get(k)}")
                    cat.messages[k] = v
                    cat.sources[k] = f
    en = cats.setdefault(
        DEFAULT, Catalogue(Language(DEFAULT, "English", "English", "en", ("en-US", "en-GB")))
    )
    for table in _engine_messages():
        for k, v in table.items():
            en.messages.setdefault(k, _nfc(v))
    pseudo = Language(PSEUDO, "Pseudo", "Pseudo-language", "en", ())
    cats[PSEUDO] = Catalogue(pseudo, pseudo_messages(en.messages))
    _catalogues = cats
    return cats


def languages() -> dict[str, Language]:
    """Every language served, the pseudo-language included, by code."""
    return {c: cat.language for c, cat in load_all().items()}


def supported() -> list[str]:
    """The languages offered to users (English first, then by code)."""
    codes = [c for c in load_all() if c != PSEUDO]
    return sorted(codes, key=lambda c: (c != DEFAULT, c))


def catalogue(code: str) -> Catalogue:
    """The catalogue of a served language (:class:`UnknownLanguage` otherwise)."""
    cats = load_all()
    try:
        return cats[code]
    except KeyError:
        raise UnknownLanguage(code) from None


def resolve(code: str | None) -> str | None:
    """The served language for a code as people and programs write it — ``pt_BR``,
    ``pt-br``, ``pt``, ``de-DE``, ``en-GB``, a Discord locale, a language's own or English
    name — or None."""
    if not code:
        return None
    cats = load_all()
    raw = code.strip()
    if raw in cats:
        return raw
    low = raw.lower().replace("_", "-").split(".")[0]  # de_DE.UTF-8 -> de-de
    for c, cat in cats.items():
        names = {c.lower(), cat.language.babel.lower().replace("_", "-")}
        names |= {d.lower() for d in cat.language.discord}
        names |= {cat.language.name.lower(), cat.language.english.lower()}
        if low in names:
            return c
    base = low.split("-")[0]
    for c in supported():
        if c.lower().split("-")[0] == base:
            return c
    return None


def require(code: str) -> str:
    """:func:`resolve`, or :class:`UnknownLanguage` naming the supported languages."""
    found = resolve(code)
    if found is None:
        raise UnknownLanguage(code)
    return found


def discord_locales() -> dict[str, str]:
    """Discord client locale -> served language, for every locale a catalogue claims."""
    out: dict[str, str] = {}
    for c, cat in load_all().items():
        for d in cat.language.discord:
            out[d] = c
    return out


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else
    English."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        for part in value.split(":"):
            if part and part not in ("C", "POSIX") and not part.startswith("C."):
                found = resolve(part)
                if found:
                    return found
    return DEFAULT


_warned: set[tuple[str, str]] = set()


def warn_once(code: str, key: str, why: str) -> None:
    if (code, key) not in _warned:
        _warned.add((code, key))
        log.warning("message %r %s in %s", key, why, code)
