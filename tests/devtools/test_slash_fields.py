"""The rewriting of literal slash commands into ``{/…}`` fields (devtools.slash_fields)."""

from __future__ import annotations

from pathlib import Path

import i18n
from devtools.slash_fields import Converter, main


def test_literal_commands_become_fields_in_english_and_in_the_language() -> None:
    hu = Converter("hu")
    kez = i18n.catalogue("hu").messages["cmd.hand.name"]
    thread = i18n.catalogue("hu").messages["cmd.choice.where.thread"]
    where = i18n.catalogue("hu").messages["cmd.hand.opt.where.name"]
    assert hu.convert("lásd `/game status`.") == "lásd `{/game status}`."
    assert hu.convert(f"a `/{kez}` és a `/{kez} {where}:{thread}`") == (
        "a `{/hand}` és a `{/hand} {@cmd.hand.opt.where.name}: {@cmd.choice.where.thread}`"
    )
    assert hu.convert("`/{@cmd.game.name} {@cmd.game.new.name}` új") == "`{/game new}` új"
    assert Converter("en").convert("(3 earlier lines in /log)") == "(3 earlier lines in {/log})"
    for same in ("`{/seat back}`", "1/2 and/or https://x.org/game", "`/nothing`"):
        assert hu.convert(same) == same


def test_the_command_rewrites_a_folder_once(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    f = tmp_path / "en" / "x.toml"
    f.write_text('[messages]\n"a.b" = "Use `/seat back` or `/pause`."\n', encoding="utf-8")
    assert main(["--dir", str(tmp_path), "--write"]) == 0
    assert '"a.b" = "Use `{/seat back}` or `{/pause}`."' in f.read_text(encoding="utf-8")
    before = f.read_text(encoding="utf-8")
    assert main(["--dir", str(tmp_path), "--write"]) == 0
    assert f.read_text(encoding="utf-8") == before
