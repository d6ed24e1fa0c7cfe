"""``tcgcore replay``: stepping through a replay, perspectives, verification and versions."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tcgcore
from tcgcore._terminal import ReplayStepper
from tcgcore.cli import main


@pytest.fixture(scope="module")
def replay_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One finished sparks match saved as a msgpack replay and as a JSON replay."""
    folder = tmp_path_factory.mktemp("replays")
    binary, text = folder / "game.replay", folder / "game.json"
    for path in (binary, text):
        assert main(["play", "sparks", "--seed", "9", "--save", str(path)], out=io.StringIO()) == 0
    return binary, text


def _step(path: Path, *commands: str, extra: tuple[str, ...] = ()) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["replay", str(path), *extra], out=out, inp=io.StringIO("\n".join(commands) + "\n"))
    return code, out.getvalue()


def _screens(text: str) -> list[str]:
    """Split stepper output at its prompts: one chunk per command answered."""
    return re.split(r"replay \d+/\d+> ", text)


def test_msgpack_is_compact_and_both_variants_carry_versions(replay_files: tuple[Path, Path]) -> None:
    binary, text = replay_files
    assert len(binary.read_bytes()) < len(text.read_bytes())
    doc = json.loads(text.read_text())
    assert doc["what"] == "replay" and doc["game"] == "sparks" and doc["game_version"] == "1.0.0"
    assert doc["plugins"]["tcgcore"] == tcgcore.__version__ and doc["format"] == tcgcore.FORMAT_VERSION
    assert tcgcore.ReplayRecord.from_bytes(binary.read_bytes()) == tcgcore.ReplayRecord.from_bytes(
        text.read_bytes())


def test_step_forward_back_jump_and_board(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    record = tcgcore.ReplayRecord.from_bytes(binary.read_bytes())
    total = len(record.decisions)
    code, text = _step(binary, "n", "", "b", "p", "b", "g 5", "r 3", "end", "n", "start", "q")
    assert code == 0
    assert text.startswith("replay verified: sparks 1.0.0, seed 9")
    screens = _screens(text)
    assert f"[0/{total}] round 0: the match as created" in screens[0]
    assert f"[1/{total}] round 0: P0 answered mulligan" in screens[1]
    assert f"[2/{total}] round 1: P1 answered mulligan" in screens[2]
    board_at_2, board_at_1 = screens[3], screens[5]
    assert "omniscient" in board_at_2 and "P0's deck (hidden zone, top first):" in board_at_2
    assert f"[1/{total}]" in screens[4] and board_at_1 != board_at_2
    assert f"[5/{total}]" in screens[6]
    assert re.search(rf"\[\d+/{total}\] round 3:", screens[7])
    assert f"[{total}/{total}]" in screens[8] and "Match over: " in screens[8]
    assert "(at the end of the replay)" in screens[9]
    assert f"[0/{total}] round 0: the match as created" in screens[10]


def test_backwards_equals_forwards(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    record = tcgcore.ReplayRecord.from_bytes(binary.read_bytes())
    forward = ReplayStepper(record, inp=io.StringIO(), out=io.StringIO(), checkpoint_every=4)
    boards = []
    for pos in range(len(record.decisions) + 1):
        forward.goto(pos)
        boards.append(forward.match.digest())
    backward = ReplayStepper(record, inp=io.StringIO(), out=io.StringIO(), checkpoint_every=4)
    backward.goto(len(record.decisions))
    for pos in reversed(range(len(record.decisions) + 1)):
        backward.goto(pos)
        assert backward.match.digest() == boards[pos], pos
    assert boards[-1] == record.digest


def test_perspectives_hide_what_the_seat_may_not_know(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    code, text = _step(binary, "b", "seat 1", "b", "seat none", "b", "seat 7", "seat all", "q",
                       extra=("--seat", "0"))
    assert code == 0
    screens = _screens(text)
    as_p0, as_p1, spectator = screens[1], screens[3], screens[5]
    assert "you are P0" in as_p0 and "your hand (hidden from others):" in as_p0
    assert "P1's hand: 3 cards (hidden)" in as_p0
    assert "you are P1" in as_p1 and "P0's hand: 3 cards (hidden)" in as_p1
    assert "spectator" in spectator and "P0's hand: 3 cards (hidden)" in spectator
    assert "P1's hand: 3 cards (hidden)" in spectator
    assert "usage: seat 0..1 | all | none" in screens[6]
    # the setup log as P0: its own draws named, P1's not
    assert re.search(r"P0 draws (?!a card)", screens[0]) and "P1 draws a card" in screens[0]


def test_decision_keys_shown_only_to_their_seat(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    record = tcgcore.ReplayRecord.from_bytes(binary.read_bytes())
    index = next(i for i, d in enumerate(record.decisions) if d.kind == "set_card" and d.player == 1)
    _, as_p0 = _step(binary, f"g {index + 1}", "q", extra=("--seat", "0"))
    _, as_p1 = _step(binary, f"g {index + 1}", "q", extra=("--seat", "1"))
    (key,) = record.decisions[index].keys
    assert "P1 answered set_card\n" in as_p0 and key not in _screens(as_p0)[1]
    assert re.search(rf"P1 answered set_card: \w[\w ]* \(\d\) \({key}\)", as_p1)


def test_verify_and_json_keep_their_behaviour(replay_files: tuple[Path, Path]) -> None:
    binary, text = replay_files
    for path in (binary, text):
        code, out = _step(path, extra=("--verify",))
        assert code == 0 and out.startswith("replay verified") and "replay 0/" not in out
    code, out = _step(binary, extra=("--json",))
    assert code == 0 and json.loads(out)["ok"] is True


def _variant(source: Path, target: Path, **changes: object) -> Path:
    doc = json.loads(source.read_text())
    doc.update(changes)
    target.write_text(json.dumps(doc))
    return target


def test_other_versions_are_refused_or_replayed(replay_files: tuple[Path, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    _, text = replay_files
    newer_major = _variant(text, tmp_path / "v2.json", game_version="2.0.0")
    code, _ = _step(newer_major, extra=("--verify",))
    err = capsys.readouterr().err
    assert code == 2 and "replay is from sparks 2.0.0; the installed plugin is 1.0.0" in err
    code, _ = _step(newer_major, "q")
    assert code == 2 and "cannot replay it" in capsys.readouterr().err

    minor = _variant(text, tmp_path / "v1.json", game_version="1.4.2",
                     plugins={"tcgcore": "0.0.9"})
    code, out = _step(minor, extra=("--verify",))
    assert code == 0 and "replay verified: sparks 1.4.2" in out
    code, out = _step(minor, "q")
    assert code == 0 and f"note: recorded with tcgcore 0.0.9, installed: {tcgcore.__version__}" in out

    future = _variant(text, tmp_path / "f.json", format=99)
    code, _ = _step(future, extra=("--verify",))
    assert code == 2 and "format 99 is not supported" in capsys.readouterr().err

    unknown = _variant(text, tmp_path / "chess.json", game="chess")
    code, _ = _step(unknown, "q")
    assert code == 2 and "chess" in capsys.readouterr().err

    save = tmp_path / "a-save.bin"
    save.write_bytes(tcgcore.new_match("sparks", seed=1).to_bytes())
    code, _ = _step(save, "q")
    assert code == 2 and "expected a replay" in capsys.readouterr().err


def test_a_diverging_replay_steps_up_to_the_divergence(replay_files: tuple[Path, Path],
                                                       tmp_path: Path) -> None:
    _, text = replay_files
    doc = json.loads(text.read_text())
    doc["decisions"][4][1] = ["card:999"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(doc))
    code, out = _step(broken, "end", "q")
    assert code == 1 and "replay does NOT verify: decision 4:" in out
    assert "[4/4]" in out
    tampered = _variant(text, tmp_path / "digest.json", digest="0" * 32)
    code, out = _step(tampered, "q")
    assert code == 1 and "final state differs" in out


def test_round_jump_beyond_the_end(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    code, out = _step(binary, "r 999", "r x", "g", "frobnicate", "help", "q")
    assert code == 0
    assert "round 999 is not in this replay" in out and "usage: r R" in out
    assert "usage: g K" in out and "unknown command 'frobnicate'" in out and "n [K] / Enter" in out


def test_replay_stepping_as_a_real_process(replay_files: tuple[Path, Path]) -> None:
    binary, _ = replay_files
    proc = subprocess.run([sys.executable, "-m", "tcgcore", "replay", str(binary), "--seat", "1"],
                          input="n\nb\nq\n", text=True, capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "[1/" in proc.stdout and "you are P1" in proc.stdout
