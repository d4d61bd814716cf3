"""Templates to text in a language: CLDR plural categories, lists, numbers and durations
from Babel; term references; the fallback to English."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from functools import lru_cache
from typing import Any, Literal

from babel import Locale
from babel.dates import format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.units import format_unit

from i18n.catalogue import DEFAULT, PSEUDO, Catalogue, catalogue, load_all, on_reset, warn_once
from i18n.grammar import join, polish_text
from rules.registry import generation, registrations

ListStyle = Literal[
    "standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"
]

CATEGORIES = ("zero", "one", "two", "few", "many", "other")

_FIELD = re.compile(
    r"\{(?:@(?P<term>[A-Za-z0-9_.\-]+)"
    r"|/(?P<command>[a-z][a-z0-9_\-]*(?: [a-z][a-z0-9_\-]*)*)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<rest>(?:\|[^{}|]*)+|(?::[^{}:]*){1,2})?)\}"
)

Part = tuple[str, str, tuple[str, ...]]


_PREFIXES: tuple[int, tuple[str, ...]] = (-1, ())


def word_prefixes() -> tuple[str, ...]:
    """The registered games' prefixes of their typed-command words (``word.``): a term
    reference to such a word shows its first alternative (``kaffee|kaffeebohnen``). Read
    once per state of the registrations (a game registered later is seen)."""
    global _PREFIXES
    now = generation()
    if _PREFIXES[0] != now:
        _PREFIXES = (now, tuple(r.words_prefix for r in registrations().values() if r.words_prefix))
    return _PREFIXES[1]


@lru_cache(maxsize=4096)
def parse(template: str) -> tuple[Part, ...]:
    """A template's parts: (literal, "", ()), (key, "term", ()), (path, "command", ()),
    (name, "value"|"plural"|"format", args)."""
    out: list[Part] = []
    pos = 0
    for m in _FIELD.finditer(template):
        if m.start() > pos:
            out.append((template[pos : m.start()], "", ()))
        if m.group("term"):
            out.append((m.group("term"), "term", ()))
        elif m.group("command"):
            out.append((m.group("command"), "command", ()))
        else:
            name, rest = m.group("name"), m.group("rest") or ""
            if rest.startswith("|"):
                out.append((name, "plural", tuple(rest[1:].split("|"))))
            elif rest.startswith(":"):
                out.append((name, "format", tuple(rest[1:].split(":"))))
            else:
                out.append((name, "value", ()))
        pos = m.end()
    if pos < len(template):
        out.append((template[pos:], "", ()))
    return tuple(out)


def placeholders(template: str) -> set[str]:
    """The parameter names a template needs."""
    return {name for name, how, _ in parse(template) if how not in ("", "term", "command")}


def plural_forms(template: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each plural field of a template: (parameter, forms)."""
    return [(n, args) for n, how, args in parse(template) if how == "plural"]


def command_keys(path: str) -> list[str]:
    """The name keys of a slash command's path as a template names it (``{/game status}``:
    ``cmd.game.name``, ``cmd.game.status.name``; ``-`` in a word is the key's ``_``)."""
    words = path.replace("-", "_").split()
    return [f"cmd.{'.'.join(words[: i + 1])}.name" for i in range(len(words))]


def commands(template: str) -> set[str]:
    """The slash commands a template names (``{/game status}``: ``game status``)."""
    return {n for n, how, _ in parse(template) if how == "command"}


def terms(template: str) -> set[str]:
    """The catalogue keys a template refers to: its terms and its slash commands' names."""
    out: set[str] = set()
    for n, how, _ in parse(template):
        if how == "term":
            out.add(n)
        elif how == "command":
            out.update(command_keys(n))
    return out


@lru_cache(maxsize=64)
def _locale(babel_code: str) -> Locale:
    return Locale.parse(babel_code)


def categories(code: str) -> list[str]:
    """The CLDR plural categories a language's integers use, in CLDR order (``other`` last)."""
    loc = _locale(catalogue(code).language.babel)
    tags = set(loc.plural_form.tags) | {"other"}
    return [c for c in CATEGORIES if c in tags]


def _plural(cat: Catalogue, n: int, forms: tuple[str, ...]) -> str:
    tag = _locale(cat.language.babel).plural_form(n)
    if any("=" in f for f in forms):
        table: dict[str, str] = {}
        for f in forms:
            k, _, v = f.partition("=")
            table[k.strip()] = v
        return table.get(tag, table.get("other", next(iter(table.values()), "")))
    # positional forms: English's (one, other)
    return forms[0] if tag == "one" or len(forms) == 1 else forms[min(1, len(forms) - 1)]


class _Renderer:
    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.locale = _locale(cat.language.babel)

    def template(self, key: str) -> str | None:
        t = self.cat.messages.get(key)
        if t is None and self.cat.code != DEFAULT:
            t = catalogue(DEFAULT).messages.get(key)
            if t is not None:
                warn_once(self.cat.code, key, "is missing (English shown)")
        return t

    def term(self, key: str) -> str:
        t = self.template(key)
        if t is None:
            warn_once(self.cat.code, key, "is missing from every catalogue")
            return key.rsplit(".", 1)[-1].replace("_", " ")
        if key.startswith(word_prefixes()) and "|" in t:
            t = t.split("|", 1)[0].strip()  # a typed word's alternatives: the one shown
        return polish_text(self.cat.language.babel, self.fill(key, t, {}))

    def command(self, path: str) -> str:
        """A slash command as this language's Discord client shows it: ``/`` and the names
        of its path (``{/game status}`` -> ``/játék állapot``), each the name the bot
        registers with Discord for the language's locales (``cmd.<path>.name``; English where
        the language lacks one, as Discord shows then)."""
        return "/" + " ".join(self.term(k) for k in command_keys(path))

    def scalar(self, v: Any) -> str:
        if isinstance(v, str):
            if v.startswith("@") and len(v) > 1:
                return self.term(v[1:])
            return v
        if isinstance(v, Mapping) and isinstance(v.get("key"), str):
            return self.message(str(v["key"]), v.get("params") or {})
        key, params = getattr(v, "key", None), getattr(v, "params", None)
        if isinstance(key, str) and isinstance(params, Mapping):  # an i18n.Msg: the reader's
            return self.message(key, params)
        return str(v)

    def goods(self, v: Mapping[str, int]) -> str:
        items = [
            self.message(f"count.good.{g}", {"n": n})
            if self.template(f"count.good.{g}") is not None
            else self.message("fmt.goods_item", {"n": n, "good": f"@good.{g}"})
            for g, n in v.items()
            if n > 0
        ]
        return ", ".join(items)

    def fmt(self, v: Any, args: tuple[str, ...]) -> str:
        how = args[0]
        if how == "lower":
            return self.scalar(v).lower()
        if how in ("id", "idwords"):  # the component's id (English's raw ids: sugar_cane)
            if isinstance(v, list | tuple) and not v and len(args) > 1:
                return args[1]
            ids = [
                str(x).rsplit(".", 1)[-1] if str(x).startswith("@") else str(x)
                for x in (v if isinstance(v, list | tuple) else [v])
            ]
            return ", ".join(x.replace("_", " ") if how == "idwords" else x for x in ids)
        if how == "goods":
            if not isinstance(v, Mapping):
                raise TypeError(f"goods parameter must be a mapping, not {v!r}")
            return self.goods(v)
        if how == "num":
            return format_decimal(v, locale=self.locale) if isinstance(v, int | float) else str(v)
        if how == "duration":  # seconds, to the minute
            return exact_duration(self.cat.code, float(v)) if isinstance(v, int | float) else str(v)
        if isinstance(v, list | tuple):
            if not v and len(args) > 1:
                return args[1]
            items = [self.scalar(x) for x in v]
            if how in ("and", "or"):
                if not items:
                    return ""
                style: ListStyle = "standard" if how == "and" else "or"
                return format_list(items, style=style, locale=self.locale)
            sep = {"list": ", ", "plus": " + ", "semi": "; "}.get(how, ", ")
            return sep.join(items)
        return self.scalar(v)

    def counted(self, n: Any, good: Any) -> str | None:
        """``{n} {good}`` with a number and a good: the good's counted form for the number
        (``count.good.<id>``: "5 ziaren kawy"), or None."""
        if not isinstance(n, int) or isinstance(n, bool) or not isinstance(good, str):
            return None
        if not good.startswith("@good."):
            return None
        key = "count.good." + good.removeprefix("@good.")
        if self.template(key) is None:
            return None
        return self.message(key, {"n": n})

    def fill(self, key: str, template: str, params: Mapping[str, Any]) -> str:
        out: list[str] = []
        parts = parse(template)
        skip = 0
        for i, (name, how, args) in enumerate(parts):
            if skip:
                skip -= 1
                continue
            if not how:
                if out and out[-1].endswith(".") and name.startswith("."):
                    name = name[1:]  # "Alfons I." + "." : one full stop
                out.append(name)
                continue
            if (
                how == "value"
                and i + 2 < len(parts)
                and parts[i + 1] == (" ", "", ())
                and parts[i + 2][1] == "value"
            ):
                form = self.counted(params.get(name), params.get(parts[i + 2][0]))
                if form is not None:  # a counted good: its noun agrees with its number
                    out.append(form)
                    skip = 2
                    continue
            if how == "term":
                out.append(self.term(name))
            elif how == "command":
                out.append(self.command(name))
            else:
                if name not in params:
                    warn_once(self.cat.code, key, f"lacks parameter {name!r}")
                    out.append("{" + name + "}")
                    continue
                v = params[name]
                if how == "plural":
                    n = v if isinstance(v, int) and not isinstance(v, bool) else 0
                    form = _plural(self.cat, n, args)
                    out.append(form.replace("#", str(n)) if "#" in form else form)
                elif how == "format":
                    out.append(self.fmt(v, args))
                elif isinstance(v, list | tuple):
                    out.append(", ".join(self.scalar(x) for x in v))
                else:
                    out.append(self.scalar(v))
            if len(out) > 1 and out[-1]:  # the word before an inserted value: d’, az…
                out[-2] = join(self.cat.language.babel, out[-2], out[-1])
        return "".join(out)

    def message(self, key: str, params: Mapping[str, Any]) -> str:
        t = self.template(key)
        if t is None:
            warn_once(self.cat.code, key, "is missing from every catalogue")
            return key
        return polish_text(self.cat.language.babel, self.fill(key, t, params))


_renderers: dict[str, _Renderer] = {}
on_reset.append(_renderers.clear)  # catalogues loaded anew (a folder added): new renderers


def _renderer(code: str) -> _Renderer:
    r = _renderers.get(code)
    if r is None:
        cats = load_all()
        r = _Renderer(cats.get(code) or cats[DEFAULT])
        if len(_renderers) < 64:
            _renderers[code] = r
    return r


FIELD = _FIELD
"""A template's fields (``{name}``, ``{@term}``, ``{/command}``…) as a pattern."""


def template_of(lang: str, key: str) -> str | None:
    """The template of ``key`` in ``lang`` (English when the language lacks it), or None."""
    return _renderer(lang).template(key)


def term_text(lang: str, key: str) -> str:
    """The term ``key`` in ``lang`` (a typed word: its first alternative)."""
    return _renderer(lang).term(key)


def tr(lang: str, key: str, /, **params: Any) -> str:
    """The text of ``key`` with ``params`` in ``lang`` (English when the language lacks it)."""
    return _renderer(lang).message(key, params)


def render_template(lang: str, template: str, params: Mapping[str, Any]) -> str:
    """A template given as text (not a key), in ``lang``."""
    r = _renderer(lang)
    return polish_text(r.cat.language.babel, r.fill("<template>", template, params))


def typeset(lang: str, text: str) -> str:
    """A text made by code (``f"{hex}: {what}"``) in the language's typography: what every
    catalogue text gets when rendered (French no-break spaces before ``: ; ? !`` and one
    apostrophe; :func:`i18n.grammar.polish_text`)."""
    return polish_text(_renderer(lang).cat.language.babel, text)


def number(lang: str, n: float) -> str:
    return format_decimal(n, locale=_renderer(lang).locale)


def fmt_list(lang: str, items: Sequence[str], style: ListStyle = "standard") -> str:
    """``A, B and C`` as the language writes it (``style``: CLDR's standard, or, unit...)."""
    if not items:
        return ""
    return format_list(list(items), style=style, locale=_renderer(lang).locale)


def duration(lang: str, seconds: float, *, threshold: float = 1.5) -> str:
    """A duration in words ("5 hours", "5 godzin"), rounded to its largest unit."""
    return format_timedelta(
        timedelta(seconds=seconds), threshold=threshold, locale=_renderer(lang).locale
    )


_LENGTHS: dict[str, tuple[Literal["narrow", "short", "long"], ...]] = {
    "en": ("narrow", "short", "long"),  # 1d 12h 5m
}


def exact_duration(lang: str, seconds: float) -> str:
    """A duration to the minute in the language's short unit words: ``1d 12h`` (English),
    ``1 Tg. 12 Std.``, ``1 nap 12 ó``; CLDR units from Babel (the first length whose data the
    locale has)."""
    cat = _renderer(lang).cat
    loc = _locale(cat.language.babel)
    mins = int(seconds // 60)
    days, rest = divmod(mins, 1440)
    hours, m = divmod(rest, 60)
    lengths = _LENGTHS.get(cat.language.babel, ("short", "long", "narrow"))
    parts: list[str] = []
    for n, unit in ((days, "day"), (hours, "hour"), (m, "minute")):
        if n or (unit == "minute" and not parts):
            for length in lengths:
                text = format_unit(n, f"duration-{unit}", length=length, locale=loc)
                if "duration-" not in text:
                    break
            parts.append(text)
    return " ".join(parts)


class Translator:
    """One language's texts: ``L("key", **params)``, ``L.term(key)``, ``L.list(items)``,
    ``L.number(n)``, ``L.duration(seconds)``."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in load_all() else DEFAULT
        self._r = _renderer(self.lang)

    def __call__(self, key: str, /, **params: Any) -> str:
        return self._r.message(key, params)

    def has(self, key: str) -> bool:
        return key in self._r.cat.messages

    def term(self, key: str) -> str:
        return self._r.term(key)

    def name(self, key: str, fallback: str) -> str:
        """The term ``key`` in this language (English when it lacks it), or ``fallback``
        (e.g. the component data's own name) when no catalogue has the key."""
        if key in self._r.cat.messages or key in catalogue(DEFAULT).messages:
            return self._r.term(key)
        return fallback

    def list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        return fmt_list(self.lang, [self._r.scalar(x) for x in items], style)

    def number(self, n: float) -> str:
        return number(self.lang, n)

    def duration(self, seconds: float) -> str:
        return duration(self.lang, seconds)

    @property
    def pseudo(self) -> bool:
        return self.lang == PSEUDO


def translator(lang: str) -> Translator:
    return Translator(lang)
