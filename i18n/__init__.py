"""Languages: message catalogues per language, CLDR plurals and formats (Babel), fallbacks.

Every word the product shows is a message key of a catalogue. A language is a folder
``i18n/locales/<code>/`` of TOML files (or one file ``<code>.toml`` in an added folder) with a
``[meta]`` table (its name in its own language, the Babel locale, the Discord locale codes)
and a ``[messages]`` table of templates keyed by message key. English is the reference: its
catalogue is the engines' sentences and terms (Brazil's :data:`rules.brazil.messages.EN`, *Tigris &
Euphrates*' :data:`rules.tigris.messages.CATALOGUE`: ``tigris.*``) plus ``locales/en/*.toml``.

    from i18n import tr, lang_of
    tr("fr", "lobby.joined", who="Ana")
    L = translator("pl"); L("draw_gold", who="Ana", n=5); L.list(["A", "B", "C"])

Templates: ``{name}`` a value; ``{name:and}`` / ``{name:or}`` a list as the language writes
it (Babel's CLDR list patterns), ``{name:list}`` joined by commas, ``{name:goods}`` a goods
mapping; ``{n:num}`` a number in the language's format; ``{x:lower}`` lower case, ``{x:id}`` /
``{x:idwords}`` a term reference's id (English's raw ids); ``{s:duration}`` seconds as
``1d 12h`` in the language's unit words (CLDR); ``{n|one=card|other=cards}`` the
form of the CLDR plural category of ``n`` in the language (``zero one two few many other``;
``other`` is the fallback; positional forms ``{n|card|cards}`` are English's one/other; a
``#`` in a form stands for the number);
``{@term.building.sawmill}`` a term of the catalogue; ``{/game status}`` a slash command as the
reader's Discord client names it (``/`` and each ``cmd.<path>.name``). A parameter whose value is a text
``@key`` (a *term reference*) is replaced by that term in the reader's language.

A key missing from a language falls back to English and is logged once; a key missing from
English too shows the key itself (logged once): never a traceback for a missing text.
"""

from i18n.catalogue import (
    DEFAULT,
    PSEUDO,
    Catalogue,
    Language,
    UnknownLanguage,
    add_locale_dir,
    catalogue,
    discord_locales,
    languages,
    require,
    resolve,
    supported,
    system_language,
)
from i18n.msg import Msg, msg, text_of
from i18n.render import (
    Translator,
    duration,
    exact_duration,
    fmt_list,
    number,
    render_template,
    tr,
    translator,
    typeset,
)

__all__ = [
    "DEFAULT",
    "PSEUDO",
    "Catalogue",
    "Language",
    "Msg",
    "Translator",
    "UnknownLanguage",
    "add_locale_dir",
    "catalogue",
    "discord_locales",
    "duration",
    "exact_duration",
    "fmt_list",
    "languages",
    "msg",
    "number",
    "render_template",
    "require",
    "resolve",
    "supported",
    "system_language",
    "text_of",
    "tr",
    "translator",
    "typeset",
]
