"""Human play in the terminal: the board, answers, commands, saves, undo and hot-seat secrecy.

The UI is driven in-process (``TerminalUI`` on text streams, with a typist that answers from
the current choice) and through the real ``tcgcore play --human`` command with piped input.
"""

from __future__ import annotations

import copy
import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tcgcore
from tcgcore._terminal import (
    CLEAR_SCREEN,
    TerminalUI,
    _lookup_card,
    describe_event,
    parse_answer,
    render_board,
    render_choice,
    render_result,
)
from tcgcore.cli import main

from .helpers import give_hand, skip_mulligans


class Typist:
    """An input source whose next line comes from a callback (the "person" at the keyboard)."""

    def __init__(self, answer: Callable[[], str | None]) -> None:
        self.answer = answer
        self.typed: list[str] = []

    def readline(self) -> str:
        line = self.answer()
        if line is None:
            return ""
        self.typed.append(line)
        return line + "\n"


def _first_legal(choice: tcgcore.Choice) -> str:
    """What a lazy human types: the first option, or 'none' when nothing is allowed."""
    return "none" if choice.min == 0 else " ".join(str(i + 1) for i in range(choice.min))


def _front_end_games() -> list[str]:
    reg = tcgcore.default_registry()
    return [g for g in tcgcore.games() if g == "sparks" or reg.game(g).render_panel is not None]


def _run_cli(*args: str, stdin: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tcgcore", *args], input=stdin, text=True,
                          capture_output=True, timeout=timeout)


# ---------------------------------------------------------------- every game with a front end


@pytest.mark.parametrize("game", _front_end_games())
def test_a_human_plays_a_few_decisions_of_each_game(game: str) -> None:
    match = tcgcore.new_match(game, seed=11)
    if match.result is not None and match.result.reason == "skeleton":
        pytest.skip(f"{game} is still a skeleton")
    spec = match.spec
    human = match.pending.player if match.pending is not None else 0
    answered = 0

    def answer() -> str | None:
        nonlocal answered
        pending = ui.match.pending
        if ui.match.result is not None or pending is None or answered >= 6:
            return "quit"
        if pending.player != human:  # pragma: no cover - only humans read input
            return None
        answered += 1
        return _first_legal(pending)

    out = io.StringIO()
    agents = {s: tcgcore.RandomAgent(s) for s in range(match.players) if s != human}
    ui = TerminalUI(match, humans=[human], agents=agents, inp=Typist(answer), out=out)
    assert ui.run() == 0
    screen = out.getvalue()
    assert answered >= 1
    assert f"=== {spec.title} · round" in screen and f"you are P{human}" in screen
    assert screen.startswith(f"# {spec.title} {spec.version} · seed 11")  # the log header
    assert re.search(r"^\s+1\) ", screen, re.M), "options are numbered"
    if spec.render_panel is not None:  # the last board drawn is the match as it stands
        for line in spec.render_panel(ui.match.view(human)):
            assert line in screen
    # another seat's owner-only zones are shown as counts only
    for zone in ui.match.view(human).zones:
        if zone.visibility == "owner" and zone.owner != human and zone.count:
            words = tcgcore.zone_words(spec, zone.id, kind=zone.kind, owner=zone.owner)
            assert re.search(rf"{re.escape(words)}[^\n]*: \d+ cards? \(hidden\)", screen)


# ---------------------------------------------------------------- sparks in detail


def test_board_shows_public_zones_own_hand_counts_and_panel() -> None:
    match = tcgcore.new_match("sparks", seed=5)
    hand = give_hand(match, 0, ["flare", "spark3", "spark4"])
    skip_mulligans(match)
    match.choose(0, f"card:{hand[0]}")  # set face down
    view1 = match.view(1)
    text = "\n".join(render_board(match.spec, view1))
    assert "round 1 · P0's turn · you are P1" in text
    assert "P0's arena: [face-down card]" in text and "Flare" not in text
    assert "P0's hand: 2 cards (hidden)" in text and "P0's deck: 9 cards" in text
    assert "Scores: P0 0 - P1 0 (first to 4)" in text
    assert view1.pending is not None
    choice = "\n".join(render_choice(view1.pending))
    assert "1) " in choice and "card:" not in choice  # words, not option keys
    assert "card:" in "\n".join(render_choice(view1.pending, keys=True))
    mine = "\n".join(render_board(match.spec, match.view(0)))
    assert f"Flare #{tcgcore.card_alias(match.state, hand[0], 0)} (face down)" in mine
    assert "Waiting for P1 to decide" in mine


def test_generic_board_without_game_hooks() -> None:
    spec = copy.copy(tcgcore.new_match("sparks", seed=1).spec)
    spec.render_panel = None
    spec.card_name = None
    view = tcgcore.View(
        game="toy", viewer=0, num_players=2, active_player=1, turn=4, event_count=0,
        zones=[
            tcgcore.ZoneView(id="field.0", kind="field", owner=0, count=2, cards=[
                tcgcore.CardView(id=3, code="knight", exhausted=True, counters={"damage": 2}),
                None,
                tcgcore.CardView(id=4, code="sword", attached_to=3),
            ]),
            tcgcore.ZoneView(id="hand.1", kind="hand", owner=1, visibility="owner", count=4),
            tcgcore.ZoneView(id="row", kind="row", count=1, cards=[tcgcore.CardView(face_down=True)]),
            tcgcore.ZoneView(id="void", kind="void"),
        ],
        panel={"phase": "combat", "life": [20, 17]},
    )
    text = "\n".join(render_board(spec, view))
    assert "turn 4 · P1's turn · phase: combat · you are P0" in text  # no panel round
    assert "your field: 1: knight #3 [exhausted; damage 2] | 3: sword #4 [on #3]" in text
    assert "P1's hand: 4 cards (hidden)" in text
    assert "row: [face-down card]" in text and "empty: void" in text
    assert "life: [20, 17]" in text


def test_parse_answer_numbers_keys_and_multi_select() -> None:
    choice = tcgcore.Choice(player=0, kind="pick", prompt="Pick", min=0, max=3, options=[
        tcgcore.Option(key="a", label="A"), tcgcore.Option(key="b", label="B"),
        tcgcore.Option(key="c d", label="C")])
    assert parse_answer(choice, "2") == ["b"]
    assert parse_answer(choice, "1, 3") == ["a", "c d"]
    assert parse_answer(choice, "a b") == ["a", "b"]
    assert parse_answer(choice, "c d") == ["c d"]  # a whole line that is a key
    assert parse_answer(choice, "none") == []
    for bad in ("4", "0", "zebra", "   "):
        with pytest.raises(ValueError):
            parse_answer(choice, bad)
    one = tcgcore.Choice(player=0, kind="main_action", prompt="Pick", options=choice.options)
    for bad, words in (("1 2", "choose at most 1 option, got 2"), ("1 1", "given twice"),
                       ("none", "choose at least 1 option; 'none' is not allowed")):
        with pytest.raises(ValueError, match=words) as info:
            parse_answer(one, bad)
        assert "main_action" not in str(info.value)


def test_invalid_input_explains_and_asks_again() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    lines = iter(["7", "banana", "1 1", "", "card", "log x", "save", "undo", "quit"])
    out = io.StringIO()
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(1)},
                    inp=Typist(lambda: next(lines, None)), out=out)
    before = match.digest()
    assert ui.run() == 0
    screen = out.getvalue()
    assert "Not accepted: there is no option 7: choose 1..3" in screen
    assert "Not accepted: 'banana' is neither an option number" in screen
    assert "Not accepted: an option is given twice" in screen
    assert "Type an option number or key" in screen
    assert "usage: card NAME" in screen and "usage: log [N]" in screen and "usage: save FILE" in screen
    assert "Undo is only available in solo games" in screen
    assert screen.count("P0> ") == 9 and match.digest() == before and match.decisions == []


def test_commands_help_view_log_card() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    own_id = tcgcore.card_alias(match.state, match.state.zones["hand.0"].cards[0], 0)
    lines = iter(["help", "view", "log 3", "card blaze", "card FLARE", "card dragon",
                  f"card #{own_id}",
                  f"card #{match.state.zones['hand.1'].cards[0]}", "quit"])
    out = io.StringIO()
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(1)},
                    inp=Typist(lambda: next(lines, None)), out=out)
    assert ui.run() == 0
    screen = out.getvalue()
    assert "save FILE     save the match" in screen
    assert screen.count("=== Sparks · round 0") == 2
    assert "P1 draws a card" in screen and re.search(r"^\s+\d+ P1 draws a card", screen, re.M)
    assert "Blaze (blaze) value 6: After this card is revealed" in screen
    assert "Flare (flare) value 5" in screen and "no card called 'dragon'" in screen
    own = match.state.cards[match.state.zones["hand.0"].cards[0]].code
    assert match.spec.card_text is not None
    assert str(match.spec.card_text(own)) in screen
    assert f"no card #{match.state.zones['hand.1'].cards[0]} that you can see" in screen


def test_card_command_without_game_texts() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    spec = copy.copy(match.spec)
    spec.card_text = None
    spec.find_card = None
    view = match.view(0)
    code = match.state.cards[match.state.zones["hand.0"].cards[0]].code
    name = match.spec.card_name(code) if match.spec.card_name else code
    assert "provides no card texts" in _lookup_card(spec, view, name)
    assert _lookup_card(spec, view, "unknown thing") == "no card called 'unknown thing'"


def test_card_command_reads_an_all_digit_word_as_a_code_when_no_visible_card_has_that_id(
) -> None:
    """Arkham's card codes are all digits ("01006"): a bare number is an instance id only
    when the viewer sees a card with that id; ``#N`` is always an id."""
    match = tcgcore.new_match("sparks", seed=3)
    spec = copy.copy(match.spec)
    spec.find_card = lambda word: "blaze" if word == "01006" else None
    spec.card_text = lambda code: f"text of {code}"
    view = match.view(0)
    assert _lookup_card(spec, view, "01006") == "text of blaze"
    assert _lookup_card(spec, view, "#01006") == "no card #1006 that you can see"
    assert _lookup_card(spec, view, "99") == "no card #99 that you can see"
    own = match.state.zones["hand.0"].cards[0]
    assert _lookup_card(spec, view, str(tcgcore.card_alias(match.state, own, 0))) == \
        f"text of {match.state.cards[own].code}"


def test_end_of_input_returns_1_and_a_finished_match_returns_0(tmp_path: Path) -> None:
    match = tcgcore.new_match("sparks", seed=3)
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(1)},
                    inp=io.StringIO(""), out=io.StringIO())
    assert ui.run() == 1

    match = tcgcore.new_match("sparks", seed=3, target=2)
    replay = tmp_path / "game.json"
    out = io.StringIO()
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(1)},
                    inp=Typist(lambda: _first_legal(ui.match.pending) if ui.match.pending else None),
                    out=out, replay_path=str(replay))
    assert ui.run() == 0
    assert match.result is not None and "Match over: " in out.getvalue()
    assert tcgcore.replay(replay.read_bytes()).digest() == match.digest()


def test_undo_takes_back_the_last_own_decision() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    snapshots: list[str] = []
    script = iter(["none", "1", "undo", "undo", "undo", "quit"])

    def answer() -> str | None:
        snapshots.append(ui.match.digest())
        return next(script, None)

    out = io.StringIO()
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(1)},
                    inp=Typist(answer), out=out, allow_undo=True)
    assert ui.run() == 0
    screen = out.getvalue()
    # mulligan, set_card, then two undos go back to the set_card and the mulligan prompts
    assert snapshots[3] == snapshots[1] and snapshots[4] == snapshots[0]
    assert "Undone: 3 decision(s)" in screen and "Undone: 2 decision(s)" in screen
    assert "Nothing to undo" in screen
    assert ui.match.decisions == []


def test_undo_refused_with_several_humans() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    with pytest.raises(tcgcore.TcgcoreError, match="single human"):
        TerminalUI(match, humans=[0, 1], inp=io.StringIO(), out=io.StringIO(), allow_undo=True)
    code = main(["play", "sparks", "--human", "0", "1", "--allow-undo"], out=io.StringIO(),
                inp=io.StringIO())
    assert code == 2


def test_hot_seat_log_shows_each_seat_only_its_own_draws() -> None:
    match = tcgcore.new_match("sparks", seed=8)
    # Enter for P0, P0 keeps its hand, Enter for P1, P1 reads the log and quits
    script = iter(["", "none", "", "log 50", "quit"])
    out = io.StringIO()
    answer = lambda: next(script, None)  # noqa: E731
    ui = TerminalUI(match, humans=[0, 1], inp=Typist(answer), out=out, clear=True)
    assert ui.run() == 0
    screen = out.getvalue()
    assert screen.count(CLEAR_SCREEN) >= 4
    p1 = screen.split("Pass the device to P1.")[1]
    assert p1.count("P0 draws a card") >= 3 * 2  # once before the decision, once in the log
    assert not re.search(r"P0 draws (?!a card)", p1)
    assert re.search(r"P1 draws (?!a card)", p1)
    p0 = screen.split("Pass the device to P1.")[0]
    assert not re.search(r"P1 draws (?!a card)", p0)


def _rigged_save(path: Path) -> tuple[list[int], list[int]]:
    """A sparks match after the mulligans: P0 holds Blaze, Blaze, Flare; P1 Ember, Shield, Spark."""
    match = tcgcore.new_match("sparks", seed=21)
    mine = give_hand(match, 0, ["blaze", "blaze", "flare"])
    theirs = give_hand(match, 1, ["ember", "shield", "spark3"])
    skip_mulligans(match)
    path.write_bytes(match.to_bytes())
    return mine, theirs


def test_hot_seat_turn_never_shows_the_other_hand(tmp_path: Path) -> None:
    save = tmp_path / "rigged.sav"
    p0_hand, _ = _rigged_save(save)
    typed = "\n".join(["", "1", "", "log 100", f"card #{p0_hand[1]}", "view", "1", "quit"]) + "\n"
    proc = _run_cli("play", "--resume", str(save), "--human", "0", "1", stdin=typed)
    assert proc.returncode == 0, proc.stderr
    screen = proc.stdout
    before, _, after = screen.partition("Pass the device to P1.")
    assert "Blaze" in before and "your hand (hidden from others): Blaze" in before
    # P1's screen until P1 answers: the prompts for 'log 100', 'card #..', 'view', then '1'
    cut = -1
    for _ in range(4):
        cut = after.index("P1> ", cut + 1)
    p1_turn = after[:cut]
    assert "Pass the device" not in p1_turn
    assert "your hand (hidden from others): Ember" in p1_turn
    assert "P0's hand: 2 cards (hidden)" in p1_turn and "P0's arena: [face-down card]" in p1_turn
    assert "P0 sets a card face down" in p1_turn
    assert f"no card #{p0_hand[1]} that you can see" in p1_turn
    p1_turn = p1_turn.replace(f"no card #{p0_hand[1]} that you can see", "")
    for secret in ("Blaze", "Flare", *(rf"#{cid}\b" for cid in p0_hand)):
        assert not re.search(secret, p1_turn), f"{secret} leaked into P1's screen"


def test_save_and_resume_through_the_command_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "match.sav"
    typed = "\n".join(["none", "2", "banana", "1", f"save {save}", "quit"]) + "\n"
    first = _run_cli("play", "sparks", "--seed", "6", "--human", "0", stdin=typed)
    assert first.returncode == 0, first.stderr
    assert "Not accepted: 'banana'" in first.stdout
    assert f"Saved to {save}. Continue with: tcgcore play --resume {save}" in first.stdout
    last_board = first.stdout[first.stdout.rindex("=== Sparks"):]
    last_board = last_board[: last_board.index("P0> ")]
    saved = tcgcore.Match.from_bytes(save.read_bytes())
    assert len(saved.decisions) >= 4 and saved.pending is not None and saved.pending.player == 0

    assert saved.meta["human_seats"] == [0]
    # the save remembers which seats were human: no --human needed to resume
    resumed = _run_cli("play", "--resume", str(save), stdin="view\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    boards = ["=== Sparks" + b[: b.index("P0> ")] for b in resumed.stdout.split("=== Sparks")[1:]]
    assert boards == [last_board, last_board]  # where it stopped; 'view' draws it again
    assert saved.view(0) == tcgcore.Match.from_bytes(save.read_bytes()).view(0)

    finish = _run_cli("play", "sparks", "--resume", str(save), "--human", "0",
                      "--save", str(tmp_path / "end.replay"), stdin="1\n" * 200)
    assert finish.returncode == 0, finish.stderr
    assert "Match over: " in finish.stdout
    record = tcgcore.ReplayRecord.from_bytes((tmp_path / "end.replay").read_bytes())
    assert record.decisions[: len(saved.decisions)] == saved.decisions
    tcgcore.replay(record)

    assert main(["play", "guimi_revival", "--resume", str(save), "--human", "0"],
                out=io.StringIO(), inp=io.StringIO()) == 2
    assert "expected a 'guimi_revival' save" in capsys.readouterr().err
    assert main(["play", "--resume", str(save), "--seed", "3"], out=io.StringIO(),
                inp=io.StringIO()) == 2
    assert "come from the save" in capsys.readouterr().err


def test_resume_continues_exactly(tmp_path: Path) -> None:
    match = tcgcore.new_match("sparks", seed=12)
    path = tmp_path / "m.json"
    script = iter(["none", "2", f"save {path}", "quit"])
    ui = TerminalUI(match, humans=[0], agents={1: tcgcore.RandomAgent(4)},
                    inp=Typist(lambda: next(script, None)), out=io.StringIO())
    assert ui.run() == 0
    loaded = tcgcore.Match.from_bytes(path.read_bytes())
    assert loaded.digest() == match.digest() and loaded.decisions == match.decisions
    assert loaded.view(0) == match.view(0)


def test_cli_human_option_errors() -> None:
    err = io.StringIO()
    assert main(["play", "sparks", "--human", "2"], out=err, inp=io.StringIO()) == 2
    assert main(["play", "sparks", "--human", "0", "--json"], out=err, inp=io.StringIO()) == 2
    assert main(["play"], out=err, inp=io.StringIO()) == 2
    assert main(["play", "sparks", "--allow-undo"], out=err, inp=io.StringIO()) == 2


def test_quit_writes_the_replay_so_far(tmp_path: Path) -> None:
    target = tmp_path / "so-far.replay"
    out = io.StringIO()
    code = main(["play", "sparks", "--seed", "2", "--human", "1", "--save", str(target)],
                out=out, inp=io.StringIO("none\nquit\n"))
    assert code == 0 and "Replay written to" in out.getvalue()
    record: Any = tcgcore.ReplayRecord.from_bytes(target.read_bytes())
    assert record.result is None and tcgcore.replay(record).pending is not None


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_hot_seat_in_a_real_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    match = tcgcore.new_match("sparks", seed=4)
    p0_hand = list(match.state.zones["hand.0"].cards)
    child = pexpect.spawn(sys.executable, ["-m", "tcgcore", "play", "sparks", "--seed", "4",
                                           "--human", "0", "1"],
                          encoding="utf-8", timeout=30, dimensions=(60, 160))
    try:
        child.expect("Pass the device to P0")
        assert CLEAR_SCREEN in child.before, "a terminal gets its screen cleared between seats"
        child.sendline("")
        child.expect("P0> ")
        assert f"#{tcgcore.card_alias(match.state, p0_hand[0], 0)}" in child.before
        child.sendline("2 banana")
        child.expect("Not accepted: 'banana'")
        child.sendline("none")
        child.expect("Pass the device to P1")
        assert CLEAR_SCREEN in child.before
        child.sendline("")
        child.expect("P1> ")
        screen = child.before
        assert "you are P1" in screen and "P0's hand: 3 cards (hidden)" in screen
        assert not any(re.search(rf"#{cid}\b", screen) for cid in p0_hand)
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------- header and generic log lines


def test_guimi_header_agrees_with_its_panel_in_main_and_battle_phases() -> None:
    """The header takes the round and the turn player from the game's panel: Guimi counts
    rounds (``state.turn`` counts turns) and its battle phase is nobody's turn."""
    match = tcgcore.new_match("guimi_revival", seed=1)
    agents = [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)]
    seen = set()
    while True:
        view = match.view(0)
        text = "\n".join(render_board(match.spec, view))
        header, panel = text.splitlines()[0], view.panel
        assert f"round {panel['round']} ·" in header, header
        assert f"Round {panel['round']} " in text
        if panel["turn_player"] is None:
            assert "'s turn" not in header and "battle (no turn player)" in text
            seen.add("battle")
        else:
            assert f"P{panel['turn_player']}'s turn" in header
            assert f"P{panel['turn_player']}'s turn  (first player" in text
            seen.add(str(panel["phase"]))
        if match.result is not None or {"battle", "main"} <= seen:
            break
        choice = match.pending
        assert choice is not None
        match.choose(choice.player, agents[choice.player].decide(match, choice))
    assert {"battle", "main"} <= seen


def test_sparks_and_arkham_headers_name_their_rounds() -> None:
    sparks = tcgcore.new_match("sparks", seed=2)
    assert "=== Sparks · round 0 · P0's turn" in render_board(sparks.spec, sparks.view(0))[0]
    arkham = tcgcore.new_match("arkham_card", seed=2)
    head = render_board(arkham.spec, arkham.view(0))[0]
    assert head.startswith("=== Arkham Horror: The Card Game · round 0 · P0's turn · phase: setup"), head


def test_generic_log_lines_read_moves_as_sentences() -> None:
    spec = copy.copy(tcgcore.new_match("sparks", seed=1).spec)
    spec.describe_event = None
    state = tcgcore.new_match("sparks", seed=1).state
    drawn = tcgcore.Event(seq=1, kind="drawn", player=0, card=3, code="spark3", src="deck.0",
                          dst="hand.0")
    assert describe_event(spec, state, drawn) == "P0 draws Spark (P0's deck -> P0's hand)"
    assert (describe_event(spec, state, drawn, viewer=0)
            == "P0 draws Spark (your deck -> your hand)")
    hidden = tcgcore.Event(seq=2, kind="drawn", player=1, src="deck.1", dst="hand.1")
    assert describe_event(spec, state, hidden) == "P1 draws a card (P1's deck -> P1's hand)"
    odd = tcgcore.Event(seq=3, kind="banished", player=1, card=4, code="spark3",
                        src="arena.1", dst="void")
    assert describe_event(spec, state, odd) == "P1: Spark (banished) (P1's arena -> void)"
    game = tcgcore.new_match("sparks", seed=1)
    assert describe_event(game.spec, game.state, drawn) == "P0 draws Spark (P0's deck -> P0's hand)"


def test_sparks_log_lines_use_words_not_event_kinds() -> None:
    match = tcgcore.new_match("sparks", seed=3)
    tcgcore.play_out(match, [tcgcore.RandomAgent(1), tcgcore.RandomAgent(2)])
    lines = [describe_event(match.spec, match.state, ev) for ev in match.events_since(0)]
    assert any("draws a card (Ember)" in line or "the clash is scored" in line for line in lines)
    for line in lines:
        assert "_" not in line and "{" not in line, line


def test_the_result_line_reads_the_reason_code_as_words() -> None:
    result = tcgcore.Result(winners=[1], losers=[0], reason="deck_out")
    assert render_result(result) == "Match over: winner(s): P1 (deck out)"
