"""The terminal's own texts in the chosen language (issue #17): `python -m turnpost local`, `demo` and
`export-html` print every text of their own from the catalogue's `terminal.*` messages in
`--lang`, the service's refusals in that language too (`Refused.text(lang)`), and English
exactly as before.

A game played in the pseudo-language finds hard-coded English: every catalogue text is in
brackets there, so a word outside brackets came from code. The texts that come from the service
(posts, the hand, the log, the legal commands, rules entries) are printed by
`LocalGame.relay`; here it brackets them, so what is left outside brackets is the terminal's
own code: the names of the players, the typed commands and the command grammar only."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import i18n
from service import ScoreRow, catalog
from service.games import adapter
from terminal import demo, export, local
from terminal.local import LOCAL_WORDS, LocalGame, ScriptSource, help_text, local_words
from tests.i18n.pseudo import unbracketed_words

ROOT = Path(__file__).resolve().parents[2]
LANGS = ["en", "pt-BR", "fr", "de", "hu", "pl"]

# `help` as the terminal printed it before its texts moved to the catalogue: English stays so
HELP_EN = """Commands (type a game command, or one of these):
  help             this text (and the game commands' grammar)
  legal            the commands you may type now
  undo             take back your last step (if it revealed nothing and the turn goes on)
  board            the game's state and scores as text; its pictures (the map, the players' boards) written as images
  hand             show one player's secret hand (asks whose; clears the screen after)
  score            public scores (hidden missions and gold cards not counted)
  log              the last steps of the game
  rules <ID|word>  the rules reference and the missions: rules R-BUILD-4, rules build 4, rules bombard, rules I-1, rules brazilwood coast
  quit             save and leave (resume with --resume GAME)
A line may start with a player's name, e.g. `Ana: build sawmill D3`. Tab completes commands."""

SCRIPT = [
    "help",
    "legal",
    "colour blue",
    "score",
    "board",
    "hand Ana",
    "hand Nobody",  # not a player: the terminal asks whose
    "rules R-BUILD-4",
    "rules xyzzy",  # no rule: the terminal says so
    "undo",  # Bo has no step of his own: the service's refusal (a Msg)
    "Ana: undo",  # a setup choice: refused too
    "build nonsense",  # a refused typed command (the engine's text)
    "log",
    "quit",
]


def _parse(add: object, argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add(p)  # type: ignore[operator]
    return p.parse_args(argv)


def _grammar_words() -> set[str]:
    """The words of the typed commands' grammar and examples (the canonical notation, the
    same in every language)."""
    return {w for cmd, _, ex in catalog.grammar() for w in (cmd + " " + ex).split()}


def _bracket_relayed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Texts the terminal relays from the service are put in brackets (they are the
    service's to translate): what is left outside brackets is the terminal's own."""
    relay = LocalGame.relay

    def bracketed(self: LocalGame, text: str) -> None:
        relay(self, "\n".join(f"[{line}]" for line in text.splitlines()))

    monkeypatch.setattr(LocalGame, "relay", bracketed)


def _play(tmp_path: Path, lang: str, lines: list[str]) -> tuple[str, LocalGame]:
    argv = ["--seats", "Ana,Bo,ai:random", "--seed", "1", "--lang", lang]
    argv += ["--db", str(tmp_path / f"{lang}.sqlite3"), "--out", str(tmp_path / f"img-{lang}")]
    out = io.StringIO()
    games: list[LocalGame] = []

    def source(game: LocalGame) -> ScriptSource:
        games.append(game)
        return ScriptSource(lines, out)

    args = _parse(local.add_arguments, argv)
    assert asyncio.run(local.play(args, out=out, make_source=source)) == 0
    return out.getvalue(), games[0]


@pytest.mark.slow
def test_a_local_game_in_the_pseudo_language_prints_no_hard_coded_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _bracket_relayed(monkeypatch)
    text, game = _play(tmp_path, i18n.PSEUDO, SCRIPT)
    assert game.lang == i18n.PSEUDO
    allowed = ["Ana", "Bo", "R-TURN-1", *LOCAL_WORDS, *SCRIPT, *_grammar_words()]
    found = {
        line: words for line in text.splitlines() if (words := unbracketed_words(line, allowed))
    }
    assert not found, found
    # every kind of the terminal's own lines was printed (in the pseudo-language)
    L = i18n.translator(i18n.PSEUDO)
    own: list[tuple[str, dict[str, Any]]] = [
        ("terminal.help.title", {}),
        ("terminal.help.game_commands", {}),
        ("terminal.images_folder", {"folder": (tmp_path / "img-pseudo").resolve()}),
        ("terminal.hand.say_one", {"names": ["Ana", "Bo"]}),
        ("terminal.rules.none", {"example": "R-VOC-4"}),
        (
            "terminal.score.row",
            {"who": "Bo", "score": adapter("brazil").score_text(0, i18n.PSEUDO)},
        ),
        ("terminal.saved", {"command": game.resume_command()}),
    ]
    for key, params in own:
        assert L(key, **params) in text, key
    # the service's refusals of `undo` are Msgs: shown in the terminal's language
    assert "! [Ýóú çáññót táké" in text
    assert game.errors == 3  # two undos and the typed command refused
    # the game itself speaks the terminal's language: its posts are the pseudo-language's
    assert text.startswith("[[Ñéw gámé #1 óñ ")


def test_the_local_game_is_created_in_the_terminal_language(tmp_path: Path) -> None:
    from storage import SqliteGameStore

    text, game = _play(tmp_path, "hu", ["score", "quit"])
    assert text.startswith("Új játék (#1), térkép: ")
    assert "  Ana: 0 GYP" in text and f"Mentve. Folytatás: {game.resume_command()}" in text

    async def language() -> str:
        async with SqliteGameStore(str(tmp_path / "hu.sqlite3")) as store:
            return (await store.get_game(game.game_id)).settings.language

    assert asyncio.run(language()) == "hu"


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_help_in_every_language(lang: str) -> None:
    text = help_text(lang)
    L = i18n.translator(lang)
    assert text.splitlines()[0] == L("terminal.help.title")
    own = catalog.help_keys()  # the default game's own lines (its scores, its rules)
    shown = local_words(lang)  # the terminal's commands in the language's words (issue #32)
    for word in LOCAL_WORDS:
        assert f"\n  {shown[word]} " in text
        assert L(own.get(word, f"terminal.help.{word}")) in text
    if lang == "en":
        assert text == HELP_EN
    else:
        assert "this text" not in text and "Commands (" not in text


@pytest.mark.slow
def test_lang_de_prints_the_help_and_the_terminal_texts_in_german(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("help\ncolour blue\nscore\nrules xyzzy\nquit\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env |= {"PYTHONPATH": str(ROOT), "LANG": "C"}
    env.pop("TURNPOST_DB", None)
    argv = ["local", "--lang", "de", "--seats", "Ana,Bo", "--seed", "1", "--script", str(script)]
    argv += ["--db", str(tmp_path / "g.sqlite3"), "--out", str(tmp_path / "img")]
    proc = subprocess.run(
        [sys.executable, "-m", "turnpost", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = proc.stdout
    assert "Befehle (tippe einen Spielbefehl oder einen dieser):" in out
    assert "  erlaubt           die Befehle, die du jetzt tippen darfst" in out  # its own words
    assert (
        "  regeln <ID|Wort>  die Regelübersicht und die Aufgaben: regeln R-BUILD-4, regeln bauen 4"
        in out
    )
    assert "Spielbefehle:" in out
    # the game's commands in German words (the canonical notation is read too)
    assert "farbe <Farbe>" in out and "z. B. farbe blau" in out
    assert f"Bilder werden in {(tmp_path / 'img').resolve()}/ gespeichert" in out
    assert "  Ana (blau): 0 SP" in out  # the player named in German too (seat_label)
    assert "keine Regel gefunden: versuche eine ID (R-VOC-4) oder ein Wort" in out
    db = tmp_path / "g.sqlite3"
    assert (
        f"Gespeichert. Weiter mit: bash {ROOT / 'scripts' / 'run.sh'} local --resume 1 --db {db}"
        in out
    )
    for english in ("this text", "Images are written", "no rule found", "Saved.", " VP"):
        assert english not in out


@pytest.mark.parametrize(
    ("lang", "argv", "expected"),
    [
        ("de", ["--players", "7"], "Fehler: --players muss zwischen 1 und 4 liegen, nicht 7"),
        (
            "de",
            ["--seats", "Ana,ai:genius"],
            "Fehler: unbekannte KI-Stufe 'genius': wähle leicht, mittel oder stark",
        ),
        ("hu", ["--web-host", " "], "hiba: a --web-host üres: adj meg egy címet"),
        (
            "pl",
            ["--seats", "Ana,Bo,Cy", "--players", "2"],
            "błąd: podano 3 miejsca dla 2 graczy (--players 2)",
        ),
        (
            "fr",
            ["--scenario", "nowhere"],
            "erreur\u00a0: carte inconnue «\u00a0nowhere\u00a0»\u00a0: choisissez ",
        ),
        ("pt-BR", ["--seats", "Ana,ana"], "erro: --seats: dois jogadores chamados 'ana'"),
    ],
)
def test_refusals_of_the_command_line_in_the_chosen_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    argv: list[str],
    expected: str,
) -> None:
    db = str(tmp_path / "g.sqlite3")
    args = _parse(local.add_arguments, ["--lang", lang, "--db", db, "--script", os.devnull, *argv])
    assert local.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(expected), err
    assert len(err.strip().splitlines()) == 1
    assert not Path(db).exists()  # refused before anything is created


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 2) -> str:
    """``local``'s one line on stderr for ``argv``."""
    assert local.main(_parse(local.add_arguments, ["--script", os.devnull, *argv])) == code
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_the_service_s_storage_s_and_the_web_server_s_refusals_in_hungarian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.sqlite3")
    hu = ["--lang", "hu", "--db", db]
    # the engine cannot set the game up (a Refused): its reason in Hungarian
    assert _refused([*hu, "--players", "2", "--scenario", "amazon"], capsys) == (
        "hiba: Az Amazonas: ez a térkép 3 játékosra való, nem 2 játékosra"
    )
    # SeatSpec.parse's reason
    assert _refused([*hu, "--seats", "Ana,,Bo"], capsys) == (
        "hiba: --seats 'Ana,,Bo': az egyik hely neve üres (a neveket vessző választja el)"
    )
    # the storage's refusals: a file that is not a database, a location that names none
    notes = tmp_path / "notes.txt"
    notes.write_text("these are my notes, not a database\n")
    assert _refused(["--lang", "hu", "--db", str(notes)], capsys) == (
        f"hiba: {notes}: nem SQLite-adatbázis, a fájl érintetlen marad "
        "(válassz másik fájlt a --db kapcsolóval)"
    )
    assert notes.read_text().startswith("these are my notes")
    assert _refused(["--lang", "hu", "--db", "mysql://db/brazil"], capsys).startswith(
        "hiba: --db: nem támogatott adatbázistípus: 'mysql'; adj meg egy fájlútvonalat (SQLite)"
    )
    # the page server cannot listen: the port is taken
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        other = str(tmp_path / "web.sqlite3")
        line = _refused(["--lang", "hu", "--db", other, "--web-port", str(port)], capsys)
    assert line == (
        f"hiba: --web: a játék oldala nem szolgálható ki itt: 127.0.0.1:{port} "
        "(a port foglalt: válassz másikat a --web-port kapcsolóval)"
    )
    # English as it always was (tests/test_cli_errors.py reads it too)
    assert _refused(
        ["--lang", "en", "--db", db, "--players", "2", "--scenario", "amazon"], capsys
    ) == ("error: Amazon is a map for 3 players, not 2")
    assert _refused(["--lang", "en", "--db", str(notes)], capsys) == (
        f"error: {notes} is not an SQLite database: refusing to touch it "
        "(choose another file with --db)"
    )


@pytest.mark.slow
def test_export_html_writes_the_page_in_the_language_asked_for_else_the_game_s(
    tmp_path: Path,
) -> None:
    _play(tmp_path, "hu", ["quit"])  # a game in Hungarian: hu.sqlite3
    db = str(tmp_path / "hu.sqlite3")
    pages: dict[str, str] = {}
    printed = io.StringIO()
    for lang in (None, "de", i18n.PSEUDO):
        out = tmp_path / f"page-{lang}"
        argv = ["1", str(out), "--db", db] + (["--lang", lang] if lang else [])
        args = _parse(export.add_arguments, argv)
        assert asyncio.run(export.export(args, out=printed, err=io.StringIO())) == 0
        pages[str(lang)] = (out / "index.html").read_text(encoding="utf-8")
        assert sorted(p.name for p in (out / "map").iterdir()) == ["0.png"]
    assert 'lang="hu"' in pages["None"]  # the game's language
    assert i18n.tr("hu", "web.step.start", title="\0", players=[]).split("\0")[0] in pages["None"]
    assert '<html lang="de"' in pages["de"] and i18n.tr("de", "web.tab.replay") in pages["de"]
    assert "Die Partie beginnt: Partie #1: Amazonas; Ana, Bo" in pages["de"]
    assert "The game begins" not in pages["de"] + pages["None"]
    assert '<html lang="en-XA"' in pages[i18n.PSEUDO]
    # what the command prints: the system's language without --lang, else --lang's
    assert i18n.tr("de", "terminal.export.page", game=1, path="\0").split("\0")[0] in (
        printed.getvalue()
    )


def test_refusals_of_demo_and_export_in_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _parse(demo.add_arguments, [str(tmp_path / "d"), "--max-rounds", "0", "--lang", "pl"])
    assert demo.main(args) == 2
    assert capsys.readouterr().err == "błąd: --max-rounds musi wynosić co najmniej 1, nie 0\n"
    db = tmp_path / "none.sqlite3"
    args = _parse(export.add_arguments, ["4", str(tmp_path / "p"), "--db", str(db), "--lang", "fr"])
    assert export.main(args) == 2
    assert capsys.readouterr().err == (
        f"erreur\u00a0: pas de partie n° 4 à exporter\u00a0: il n’y a pas de base de données {db} (--db)\n"
    )
    assert not (tmp_path / "d").exists() and not (tmp_path / "p").exists()


ROWS = [
    ScoreRow(0, "Ana (blue)", 31, {"units": 4, "gold_cards": 3, "exploration": 2}, winner=True),
    ScoreRow(1, "Bo (red)", 40, {"units": 9, "gold_cards": 0, "exploration": 1}, winner=False),
]


@pytest.mark.parametrize("lang", [*LANGS, i18n.PSEUDO])
def test_the_demo_score_table_in_every_language(lang: str) -> None:
    L = i18n.translator(lang)
    head, first, second = demo.score_table(ROWS, lang)
    for key in ("terminal.demo.player", "terminal.demo.total", "terminal.score.category.units"):
        assert L(key) in head
    assert L("terminal.score.category.gold_cards") in head
    assert first.startswith("Bo (red)") and not first.endswith(L("terminal.demo.winner"))
    assert second.startswith("Ana (blue)") and second.endswith("  " + L("terminal.demo.winner"))
    # the columns line up under their headings, however long the language's words are
    for line in (first, second):
        assert len(line.split()) >= 5
        assert len(line.rstrip().removesuffix(L("terminal.demo.winner")).rstrip()) == len(head)
    if lang == i18n.PSEUDO:
        for line in (head, first, second):
            assert not unbracketed_words(line, ["Ana", "Bo", "blue", "red"]), line


@pytest.mark.slow
def test_the_demo_in_the_pseudo_language_prints_no_hard_coded_english(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    argv = [str(tmp_path / "d"), "--players", "2", "--max-rounds", "1", "--no-images"]
    args = _parse(demo.add_arguments, [*argv, "--lang", i18n.PSEUDO])
    assert asyncio.run(demo.run_demo(args, out=out, err=err)) == 0
    names: list[str] = []  # the computer seats' names are translated too
    text = out.getvalue() + err.getvalue().replace("\r", "\n")
    found = {ln: w for ln in text.splitlines() if (w := unbracketed_words(ln, names))}
    assert not found, found
    L = i18n.translator(i18n.PSEUDO)
    assert L("terminal.demo.setup") in err.getvalue()
    assert L("terminal.demo.round", round=" 1") in err.getvalue()
    assert out.getvalue().startswith("[Štóppéd úñfíñíšhéd")

    async def language() -> str:
        from storage import SqliteGameStore

        async with SqliteGameStore(str(tmp_path / "d" / "demo.sqlite3")) as store:
            return (await store.get_game(1)).settings.language

    assert asyncio.run(language()) == i18n.PSEUDO  # the demo's game speaks it too


@pytest.mark.parametrize(
    ("lang", "n", "text"),
    [
        ("pl", 1, "Koniec gry po 1 rundzie, 1 turze i 1 ruchu."),
        ("pl", 3, "Koniec gry po 3 rundach, 3 turach i 3 ruchach."),
        ("pl", 25, "Koniec gry po 25 rundach, 25 turach i 25 ruchach."),
        ("de", 1, "Spielende nach 1 Runde, 1 Zug und 1 Schritt."),
        ("de", 12, "Spielende nach 12 Runden, 12 Zügen und 12 Schritten."),
        ("fr", 1, "Partie terminée après 1 manche, 1 tour et 1 action."),
        ("pt-BR", 2, "Fim de jogo após 2 rodadas, 2 turnos e 2 jogadas."),
        ("hu", 7, "A játék 7 forduló, 7 kör és 7 lépés után véget ért."),
        ("en", 1, "Game over after 1 round, 1 turn, 1 step."),
        ("en", 9, "Game over after 9 rounds, 9 turns, 9 steps."),
    ],
)
def test_the_demo_summary_counts_in_the_language_plural_forms(lang: str, n: int, text: str) -> None:
    assert i18n.tr(lang, "terminal.demo.over", rounds=n, turns=n, steps=n) == text


def test_the_terminal_catalogue_is_whole_in_every_language() -> None:
    from i18n.check import problems

    assert [p for code in i18n.supported() for p in problems(code, ("terminal.",))] == []


@pytest.mark.requires("prompt_toolkit")
def test_commands_are_typed_and_completed_in_the_terminal_language(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    (tmp_path / "typed").mkdir()
    text, _ = _play(tmp_path / "typed", "hu", ["legal", "szín kék", "Bo: colour red", "quit"])
    assert "  szín kék" in text and "  colour blue" not in text  # legal in the language's words
    assert "Ana színe: Kék." in text  # typed in Hungarian words
    assert " ! " not in text  # the canonical notation is accepted too
    _, game = _play(tmp_path, "hu", ["quit"])  # Ana chooses her colour
    with create_pipe_input() as pipe:
        source = local.PromptSource(game, input=pipe, output=DummyOutput())
        source.seat = 0
        assert source.candidates("he") == ["help"]
        assert sorted(source.candidates("szí")) == [
            "szín kék",
            "szín narancs",
            "szín vörös",
            "szín zöld",
        ]
        assert source.candidates("colour b") == ["szín kék"]  # the notation, completed in words
