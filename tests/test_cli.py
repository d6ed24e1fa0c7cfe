"""The tcgcore command line (run in-process and as a real subprocess)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tcgcore
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


def test_games_says_which_game_modules_run_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tcgcore games`` names the modules of each game's package that run compiled (an
    optional mypyc build): none for the plain install of the example game."""
    import types

    code, text = _run("games", "--json")
    rows = {row["name"]: row for row in json.loads(text)}
    sparks = next(x for x in _run("games")[1].splitlines() if x.startswith("sparks"))
    assert code == 0 and rows["sparks"]["compiled"] == [] and "compiled" not in sparks
    arkham = [m for m in tcgcore.compiled_modules() if m.startswith("tcgcore_arkham_card.")]
    assert rows["arkham_card"]["compiled"] == arkham  # [] unless the compiled build is installed
    fake = types.ModuleType("tcgcore_guimi_revival.fake_rules")
    fake.__file__ = "/site-packages/tcgcore_guimi_revival/fake_rules.cpython-311-x86_64-linux-gnu.so"
    monkeypatch.setitem(sys.modules, fake.__name__, fake)
    code, text = _run("games", "--json")
    guimi = {row["name"]: row for row in json.loads(text)}["guimi_revival"]
    assert code == 0 and guimi["compiled"] == ["tcgcore_guimi_revival.fake_rules"]
    line = next(x for x in _run("games")[1].splitlines() if x.startswith("guimi_revival"))
    assert line.endswith("[compiled: 1 module]")


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


def test_deck_and_decks_are_the_same_option(tmp_path: Path) -> None:
    """``--deck`` and ``--decks`` both take comma-separated decks and may be repeated; seats
    follow the command-line order; a file whose name has a comma stays whole."""
    from tcgcore.cli import _game_options, build_parser

    odd = tmp_path / "a,b.toml"
    odd.write_text("x = 1")
    for argv in (["--deck", "seer,hunter"], ["--decks", "seer", "--deck", "hunter"],
                 ["--deck", "seer", "--decks", "hunter"]):
        args = build_parser().parse_args(["play", "sparks", *argv])
        assert _game_options(args)["decks"] == ["seer", "hunter"], argv
    args = build_parser().parse_args(["play", "sparks", "--deck", str(odd), "--decks", "x,y"])
    assert _game_options(args)["decks"] == ["x = 1", "x", "y"]


def test_play_guimi_with_deck_spelling_and_wrong_count() -> None:
    """Guimi takes ``--deck seer,hunter`` like ``--decks``; a wrong number of decks says how
    to give them."""
    code, text = _run("play", "guimi_revival", "--deck", "seer,hunter", "--max-decisions", "1")
    assert code == 0 and "stopped after 1 decisions" in text
    import contextlib

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code, _ = _run("play", "guimi_revival", "--deck", "seer", "--max-decisions", "1")
    assert code == 2
    assert "option decks must list 2 decks, one per seat (got 1 deck(s)); on the command " \
           "line: --decks A,B" in err.getvalue()


def _deck_check(tmp_path: Path, game: str, name: str, data: bytes | None) -> tuple[int, str]:
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    return _run("deck", "check", game, str(path))


def test_deck_check_bad_files_give_one_line_and_status_1(tmp_path: Path) -> None:
    """Missing, empty, binary and wrong-format deck files: one line naming the file and the
    problem, exit status 1 (unknown games stay status 2)."""
    cases: list[tuple[str, str, bytes | None, str]] = [
        ("arkham_card", "x.toml", b'revival = "rb_seer"\n[main]\nseer_b9 = 2\n',
         "not a JSON deck list (expected an object with investigator_code and slots; "
         "looks like a TOML (Guimi) deck list)"),
        ("arkham_card", "n.json", b"null\n", "not a JSON deck list (expected an object with "
                                              "investigator_code and slots; got null)"),
        ("arkham_card", "l.json", b"[1, 2]", "an ArkhamDB deck is a JSON object"),
        ("arkham_card", "t.toml", b"[main]\nx = 1\n", "looks like a TOML (Guimi) deck list)"),
        ("arkham_card", "w.txt", b"nobody\n", "not a JSON deck list nor a starter deck name"),
        ("guimi_revival", "n.json", b"null", "not a deck list (expected a TOML table or a "
                                             "JSON object with revival, main and extra; "
                                             "got null)"),
        ("guimi_revival", "l.json", b"[1, 2]\n", "got a list)"),
        ("guimi_revival", "o.json", b'{"a": 1}', "not a deck list: object contains unknown "
                                                 "field `a`"),
        ("guimi_revival", "bad.toml", b"not = [valid", "bad.toml: not valid TOML: Invalid value"),
    ]
    for game in ("arkham_card", "guimi_revival"):
        cases += [
            (game, "bin.dat", b"\xff\xfe\x00\x01deck", "not a text deck list (byte 0 is not "
                                                      "UTF-8; binary file?)"),
            (game, "empty.json", b"", "empty file (no deck list)"),
            (game, "blank.toml", b"  \n\n", "empty file (no deck list)"),
            (game, "missing.json", None, "no such file"),
        ]
    for game, name, data, needle in cases:
        code, text = _deck_check(tmp_path, game, name, data)
        lines = text.splitlines()
        assert code == 1, (game, name, text)
        assert len(lines) == 1 and lines[0].startswith(str(tmp_path / name) + ": "), text
        assert needle in lines[0], (game, name, text)
        assert lines[0].count(str(tmp_path / name)) == 1, text
    code, text = _run("deck", "check", "arkham_card", str(tmp_path / "missing.json"), "--json")
    assert code == 1 and json.loads(text) == {"legal": False, "problems": ["no such file"]}
    code, _ = _run("deck", "check", "arkham_card", str(tmp_path))
    assert code == 1


def test_deck_check_utf8_bom_and_starter_names(tmp_path: Path) -> None:
    """A byte-order mark is ignored; an Arkham file holding a starter name is that deck."""
    code, text = _deck_check(tmp_path, "arkham_card", "r.txt", b"roland\n")
    assert code == 0 and "legal arkham_card deck" in text
    code, text = _deck_check(tmp_path, "arkham_card", "bom.json", b"\xef\xbb\xbfnull")
    assert code == 1 and "got null" in text


# ---------------------------------------------------------------- messages of a first trial


def _run_err(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


class _ClosedPipe(io.StringIO):
    """An output whose reader went away after a few lines (``| head``)."""

    def write(self, text: str) -> int:
        if self.tell() > 200:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_closed_output_ends_quietly() -> None:
    """``tcgcore play GAME --json | head``: no error message, exit status 0."""
    import contextlib

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["play", "guimi_revival", "--json"], out=_ClosedPipe())
    assert code == 0 and err.getvalue() == ""


def test_resume_and_replay_name_missing_and_campaign_files(tmp_path: Path) -> None:
    camp = tmp_path / "camp.json"
    camp.write_text(json.dumps({"format": "tcgcore-arkham-campaign", "version": 1,
                                "campaign": {}}))
    for argv in (["play", "--resume", str(camp)], ["replay", str(camp)],
                 ["replay", str(camp), "--verify"]):
        code, _, err = _run_err(*argv)
        assert code == 2 and "Expected" not in err, err
        assert f"{camp} is a saved arkham_card campaign" in err
        assert f"tcgcore campaign arkham_card CAMPAIGN --resume {camp}" in err
    for argv in (["play", "--resume", str(tmp_path / "nope.sav")],
                 ["replay", str(tmp_path / "nope.replay")]):
        code, _, err = _run_err(*argv)
        assert code == 2 and err.strip() == f"tcgcore: error: {argv[-1]}: no such file", err


def test_a_deeply_nested_replay_file_is_a_one_line_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": 1, "what": "replay", "options": {"x": '
                    + "[" * 200_000 + "]" * 200_000 + "}}")
    for argv in (["replay", str(deep), "--verify"], ["replay", str(deep)]):
        code, _, err = _run_err(*argv)
        assert code == 2 and "Traceback" not in err
        assert err.startswith("tcgcore: error: not a tcgcore replay (JSON)"), err


def test_wrong_game_deck_files_are_named(tmp_path: Path) -> None:
    """A Guimi TOML deck given to Arkham, an ArkhamDB deck given to Guimi."""
    toml = tmp_path / "my_deck.toml"
    toml.write_text('revival = "rb_seer"\n\n[main]\nseer_b9 = 2\n')
    code, _, err = _run_err("play", "arkham_card", "--deck", str(toml))
    assert code == 2 and "looks like a TOML (Guimi) deck list" in err
    assert f"seat 0: {toml}" in err and "rb_seer" not in err, err
    daisy = tmp_path / "my_daisy.json"
    daisy.write_text(json.dumps({"id": 1, "name": "D", "investigator_code": "01002",
                                 "slots": {"01030": 2}}))
    code, text = _run("deck", "check", "guimi_revival", str(daisy))
    assert code == 1 and text.startswith(f"{daisy}: not a deck list (looks like an ArkhamDB "
                                         "deck (investigator_code/slots)"), text
    code, _, err = _run_err("play", "guimi_revival", "--deck", f"{daisy},{daisy}")
    assert code == 2 and "looks like an ArkhamDB deck" in err and f"seat 1: {daisy}" in err


def test_option_errors_list_what_is_accepted() -> None:
    code, _, err = _run_err("simulate", "guimi_revival", "--games", "1", "--rules",
                            "defeat_condition=deth")
    assert code == 2 and "defeat_condition is one of mad_while_dead, death" in err
    code, _, err = _run_err("play", "arkham_card", "--deck", "roland,roland")
    assert code == 2 and "seats 0 and 1 got the same investigator's deck (Roland Banks)" in err
    code, _, err = _run_err("play", "arkham_card", "--scenario", "nowhere")
    assert code == 2 and "01104 (The Gathering), 01120 (The Midnight Masks)" in err


def test_simulate_solo_game_has_no_first_player_line() -> None:
    """A solo (or co-operative) game has no decided games between seats: the first-player
    line is left out; a two-player game keeps it."""
    code, text = _run("simulate", "arkham_card", "--games", "2", "--deck", "agnes", "-q")
    assert code == 0 and "first player" not in text
    code, text = _run("simulate", "sparks", "--games", "6", "-q")
    assert code == 0 and "first player won" in text


def test_progress_is_one_finished_line_when_stderr_is_not_a_terminal() -> None:
    """Off a terminal the bar is written whole: every ``every`` seconds and at the end,
    with the games per second and the time left (or taken) at that pace."""
    import contextlib

    from tcgcore._progress import ProgressLine

    now = [0.0]
    line = ProgressLine(every=30, clock=lambda: now[0])
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        for done in range(1, 5):
            now[0] += 10
            line(done, 4)
    assert err.getvalue() == ("[" + "#" * 22 + "." * 8 + "] 3/4 games, 0.1 games/s, 0:00:10 left\n"
                              "[" + "#" * 30 + "] 4/4 games, 0.1 games/s in 0:00:40\n")


def test_play_takes_rules_options_like_simulate() -> None:
    """``--rules`` (the Guimi page's spelling) works for ``play`` as it does for ``simulate``."""
    from tcgcore.cli import _game_options, build_parser

    args = build_parser().parse_args(["play", "guimi_revival", "--rules", "defeat_condition=death",
                                      "-o", "first_player=p0"])
    assert _game_options(args) == {"defeat_condition": "death", "first_player": "p0"}
    code, _, err = _run_err("play", "guimi_revival", "--rules", "defeat_condition=deth")
    assert code == 2 and "defeat_condition is one of mad_while_dead, death" in err
