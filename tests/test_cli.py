"""The tcgcore command line (run in-process and as a real subprocess)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from tcgcore.cli import main


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_games_lists_installed_games() -> None:
    code, text = _run("games")
    assert code == 0 and "sparks" in text and "guimi_revival" in text
    code, text = _run("games", "--json")
    names = [row["name"] for row in json.loads(text)]
    assert names == sorted(names) and "arkham_card" in names


def test_play_prints_a_readable_log_and_result() -> None:
    code, text = _run("play", "sparks", "--seed", "3")
    assert code == 0
    assert "--- round 1 ---" in text
    assert text.strip().splitlines()[-1].startswith("result: ")


def test_play_json_is_one_object_per_line() -> None:
    code, text = _run("play", "sparks", "--seed", "3", "--json", "-o", "target=2")
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 0 and rows[-1]["type"] == "result"
    assert {r["type"] for r in rows} == {"event", "decision", "result"}


def test_save_then_verify_replay(tmp_path: Path) -> None:
    for name in ("game.replay", "game.json"):
        path = tmp_path / name
        assert _run("play", "sparks", "--seed", "9", "--save", str(path))[0] == 0
        code, text = _run("replay", str(path), "--verify")
        assert code == 0 and "replay verified" in text
    doc = json.loads((tmp_path / "game.json").read_text())
    doc["digest"] = "0" * 32
    (tmp_path / "tampered.json").write_text(json.dumps(doc))
    code, text = _run("replay", str(tmp_path / "tampered.json"), "--json")
    assert code == 1 and json.loads(text)["ok"] is False


def test_bad_input_exits_2_with_a_message(tmp_path: Path) -> None:
    assert _run("play", "chess")[0] == 2
    assert _run("play", "sparks", "-o", "colour=red")[0] == 2
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01\x02")
    assert _run("replay", str(junk))[0] == 2
    assert _run("replay", str(tmp_path / "missing.bin"))[0] == 2


def test_module_and_console_script_entry_points() -> None:
    out = subprocess.run([sys.executable, "-m", "tcgcore", "play", "sparks", "--seed", "2"],
                         capture_output=True, text=True, check=True)
    assert "result:" in out.stdout and out.stderr == ""
    script = Path(sys.executable).parent / "tcgcore"
    assert script.exists(), "the tcgcore console script is installed beside python"
    out = subprocess.run([str(script), "games"], capture_output=True, text=True, check=True)
    assert "sparks" in out.stdout


def test_deck_flags_become_the_decks_option(tmp_path: Path) -> None:
    from tcgcore.cli import _game_options, build_parser

    deck = tmp_path / "mine.json"
    deck.write_text('{"cards": 1}')
    args = build_parser().parse_args(
        ["play", "sparks", "--decks", "seer,hunter", "--deck", str(deck), "--scenario", "x",
         "--difficulty", "hard", "-o", "target=3"])
    options = _game_options(args)
    # a file is passed as its text, so saves and replays carry the deck itself
    assert options == {"target": 3, "decks": ["seer", "hunter", '{"cards": 1}'],
                       "scenario": "x", "difficulty": "hard"}


def test_deck_check_needs_a_game_with_decks(tmp_path: Path) -> None:
    deck = tmp_path / "d.toml"
    deck.write_text("x = 1")
    assert _run("deck", "check", "sparks", str(deck))[0] == 2


def test_campaign_needs_a_game_with_a_campaign_runner() -> None:
    code, _ = _run("campaign", "sparks", "anything")
    assert code == 2


def test_campaign_dispatches_to_the_game_runner() -> None:
    code, text = _run("campaign", "arkham_card", "night_of_the_zealot", "--deck", "roland",
                      "--seed", "3")
    assert code == 0 and "The Gathering: resolution" in text
