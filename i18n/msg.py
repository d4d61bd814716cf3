"""A text to show later in the reader's language: a message key and its parameters.

The service returns :class:`Msg` where it does not know who reads (a refusal, a post line):
the surface renders it with ``m.text(lang)``; ``str(m)`` is the English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from i18n.render import tr


@dataclass(frozen=True)
class Msg:
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return tr(lang, self.key, **self.params)

    def __str__(self) -> str:
        return self.text()


def msg(key: str, /, **params: Any) -> Msg:
    return Msg(key, params)


def text_of(m: str | Msg, lang: str = "en") -> str:
    """A plain text as it is; a :class:`Msg` in ``lang``."""
    return m.text(lang) if isinstance(m, Msg) else m
