"""The terminal's own commands in the reader's words (issue #32): ``help`` lists them as the
language writes them, they are typed so (any case, with or without accents) and in English
in every language, and no word of them is a typed word of any registered game (it would
hide the game's command); a prefix of a game's word is fine (the terminal's word is exact)."""

from __future__ import annotations

import pytest

import i18n
from i18n.notation import words
from rules.registry import registrations
from terminal.local import LOCAL_WORDS, fold, help_text, local_word, local_words

LANGS = i18n.supported()


@pytest.mark.parametrize("lang", LANGS)
def test_each_word_is_read_back_in_any_case_and_in_english(lang: str) -> None:
    shown = local_words(lang)
    assert len(set(shown.values())) == len(LOCAL_WORDS)
    for word, text in shown.items():
        assert local_word(lang, text) == word
        assert local_word(lang, text.upper()) == word
        assert local_word(lang, word) == word  # the English word, in every language
    assert local_word(lang, "xyzzy") is None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(registrations()))
def test_help_lists_the_languages_words_and_none_hides_a_game_command(lang: str, game: str) -> None:
    text = help_text(lang, game)
    for shown in local_words(lang).values():
        assert f"  {shown}" in text
        # not a whole typed word of the game (a prefix of one is fine: the word is exact)
        assert fold(shown) not in words(lang, game).read, (shown, game)


def test_hungarian_words_are_hungarian() -> None:
    assert local_word("hu", "allas") == "board"  # accents left out
    assert local_word("hu", "Súgó") == "help"
    assert "súgó" in help_text("hu") and "\n  board " not in help_text("hu")
