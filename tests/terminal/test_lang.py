"""`--lang` for `python -m turnpost local|demo` (issue #17): the system locale's language by
default, an unknown one refused with the list of supported languages (no traceback), and the
terminal's `rules` command answering from the rules reference in the chosen language."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import i18n
from terminal import demo, local
from terminal.local import BadArguments, LocalGame, ScriptSource, chosen_language

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def _env(lang: str | None = None) -> dict[str, str]:
    """The environment of a child process with the system locale `lang` (None: C)."""
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env["PYTHONPATH"] = str(ROOT)
    env.pop("TURNPOST_DB", None)
    env["LANG"] = lang or "C"
    return env


def _bot(tmp_path: Path, *argv: str, lang: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "turnpost", *argv],
        cwd=tmp_path,
        env=_env(lang),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _parse(add: object, argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add(p)  # type: ignore[operator]
    return p.parse_args(argv)


def _clear_locale(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", lang)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["local", "demo"])
def test_an_unknown_lang_lists_the_supported_languages(tmp_path: Path, command: str) -> None:
    argv = [command, "--lang", "klingon"] + (["OUT"] if command == "demo" else [])
    proc = _bot(tmp_path, *argv)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "error: argument --lang: Unknown language 'klingon'. Supported:" in proc.stderr
    for code in i18n.supported():
        assert f"{code} ({i18n.languages()[code].name})" in proc.stderr
    assert not (tmp_path / "OUT").exists() and not (tmp_path / "turnpost.sqlite3").exists()


@pytest.mark.parametrize("add", [local.add_arguments, demo.add_arguments])
def test_lang_defaults_to_the_system_locale(monkeypatch: pytest.MonkeyPatch, add: object) -> None:
    extra = ["OUT"] if add is demo.add_arguments else []
    _clear_locale(monkeypatch, "pl_PL.UTF-8")
    assert _parse(add, extra).lang == "pl"
    _clear_locale(monkeypatch, "de_AT.UTF-8")
    assert _parse(add, extra).lang == "de"
    _clear_locale(monkeypatch, "C.UTF-8")
    assert _parse(add, extra).lang == "en"
    _clear_locale(monkeypatch, "ja_JP.UTF-8")  # a language the product does not speak
    assert _parse(add, extra).lang == "en"
    # --lang wins, in the spellings people use
    assert _parse(add, [*extra, "--lang", "pt_br"]).lang == "pt-BR"
    assert _parse(add, [*extra, "--lang", "Magyar"]).lang == "hu"


def test_chosen_language_of_arguments_made_in_code(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch, "fr_FR.UTF-8")
    assert chosen_language(argparse.Namespace()) == "fr"
    assert chosen_language(argparse.Namespace(lang=None)) == "fr"
    assert chosen_language(argparse.Namespace(lang="de-DE")) == "de"
    with pytest.raises(BadArguments, match=r"Unknown language 'zz'\. Supported: en \(English\)"):
        chosen_language(argparse.Namespace(lang="zz"))


SCRIPT = "rules R-BUILD-4\nrules {word} 4\nrules {search}\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("argv", "system", "word", "search", "title", "found"),
    [
        (["--lang", "hu"], None, "építés", "ágyú", "Hová kerülhet egy épület", "Ágyúzás"),
        (
            ["--lang", "pt-BR"],
            "de_DE.UTF-8",
            "construir",
            "canhao",
            "Onde uma construção",
            "Bombardear",
        ),
        ([], "de_DE.UTF-8", "bauen", "Kanone", "Wo ein Gebäude stehen darf", "Beschießen"),
        ([], None, "build", "bombard", "Where a building may go", "Bombarding"),
    ],
)
def test_the_rules_command_answers_in_the_chosen_language(
    tmp_path: Path,
    argv: list[str],
    system: str | None,
    word: str,
    search: str,
    title: str,
    found: str,
) -> None:
    script = tmp_path / "rules.txt"
    script.write_text(SCRIPT.format(word=word, search=search), encoding="utf-8")
    db, out = str(tmp_path / "g.sqlite3"), str(tmp_path / "img")
    proc = _bot(
        tmp_path,
        *["local", "--seats", "Ana,Bo", "--db", db, "--out", out, "--script", str(script), *argv],
        lang=system,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.count(f"R-BUILD-4 — {title}") == 2, proc.stdout
    assert f"R-MOVE-6 — {found}" in proc.stdout
    assert "no rule found" not in proc.stdout


def test_the_local_game_keeps_the_language_for_its_texts(tmp_path: Path) -> None:
    args = _parse(
        local.add_arguments,
        ["--seats", "Ana,Bo", "--db", str(tmp_path / "g.sqlite3"), "--lang", "pl"],
    )
    games: list[LocalGame] = []
    out = io.StringIO()

    def source(game: LocalGame) -> ScriptSource:
        games.append(game)
        return ScriptSource(["rules bitwa", "rules nieistniejące"], out)

    assert asyncio.run(local.play(args, out=out, make_source=source)) == 0
    (game,) = games
    assert game.lang == "pl"
    assert "R-COMBAT-13 — Armia w grze solo" in out.getvalue()
    assert "nie znaleziono zasady" in out.getvalue()  # the terminal's own text, in Polish
    assert "no rule found" not in out.getvalue()
    assert [t.split("\n")[0] for t in game.rules("R-SOLO-2")] == [
        "R-SOLO-2 — Zwycięstwo w pojedynkę [instrukcja]"
    ]
