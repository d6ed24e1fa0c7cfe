"""What players read in the terminal is words: no internal name (snake_case ids, option keys,
zone ids, raw effect ops or condition names, choice kinds) in a prompt, an option label, a log
line, the board or a card's text, in seeded games of Guimi Revival and Arkham Horror; plus the
numbers a decision needs, the log header and auto-pass of optional windows.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

import tcgcore
from tcgcore._terminal import (
    TerminalUI,
    describe_event,
    log_header,
    render_board,
    render_choice,
)
from tcgcore.cli import main

#: what must never reach a player's screen, by what it would be
FORBIDDEN = {
    "snake_case name": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "option key or objective id": re.compile(r"\b[a-z]+:[0-9a-z_]+\b"),
    "zone id": re.compile(r"\b[a-z]+\.\d+\b"),
    "choice kind tag": re.compile(r"\[[a-z_]+\]"),
    "resolution id": re.compile(r"\bR-none\b"),
    "blank card name": re.compile(r"·  "),
    "unfitted plural": re.compile(r"\b1 actions\b"),
    "unknown card": re.compile(r"\bof \?"),
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _problems(where: str, line: str) -> list[str]:
    found = [f"{where}: {what} {m.group(0)!r} in {line!r}"
             for what, pattern in FORBIDDEN.items() for m in pattern.finditer(line)]
    # the ignition mark reads as words in English text (Chinese card text keeps it)
    if "【起】" in line and not CJK.search(line.replace("【起】", "")):
        found.append(f"{where}: untranslated 【起】 in {line!r}")
    return found


def _screens(game: str, seed: int, agent: str) -> list[str]:
    """Every text a seat reads while a seeded game is played by ``agent`` agents."""
    match = tcgcore.new_match(game, seed=seed)
    spec = match.spec
    agents = [tcgcore.make_agent(spec, agent, seed * 10 + s) for s in range(match.players)]
    problems: list[str] = []
    seen = 0
    decisions = 0
    while match.result is None and decisions < 1500:
        choice = match.pending
        assert choice is not None
        view = match.view(choice.player)
        assert view.pending is not None
        lines = render_choice(view.pending)
        if decisions % 4 == 0:
            lines += render_board(spec, view)
        problems += [p for line in lines for p in _problems("screen", line)]
        match.choose(choice.player, agents[choice.player].decide(match, choice))
        decisions += 1
        for seat in range(match.players):
            for ev in match.events_since(seen, player=seat):
                problems += _problems("log", describe_event(spec, match.state, ev, viewer=seat))
        seen = match.state.event_count
    for line in render_board(spec, match.view(0)):
        problems += _problems("screen", line)
    assert spec.card_text is not None
    for code in sorted({c.code for c in match.state.cards}):
        for line in (spec.card_text(code) or "").splitlines():
            problems += _problems(f"card text of {code}", line)
    return problems


@pytest.mark.parametrize(("game", "seed", "agent"), [
    ("guimi_revival", 0, "heuristic"), ("guimi_revival", 1, "random"),
    ("arkham_card", 3, "heuristic"), ("arkham_card", 1, "random"),
])
def test_players_read_words_not_internal_names(game: str, seed: int, agent: str) -> None:
    problems = _screens(game, seed, agent)
    assert problems == [], "\n".join(sorted(set(problems))[:30])


def _play_until(match: tcgcore.Match[Any], kind: str, limit: int = 2000) -> tcgcore.Choice:
    agents = [tcgcore.make_agent(match.spec, "heuristic", s) for s in range(match.players)]
    for _ in range(limit):
        choice = match.pending
        assert choice is not None, "the game ended first"
        if choice.kind == kind:
            return choice
        match.choose(choice.player, agents[choice.player].decide(match, choice))
    raise AssertionError(f"no {kind} choice in {limit} decisions")


PROMPT = re.compile(r"^(.+?) \((-?\d+)\)(?: \+ support .+)? attacks (.+?) \((-?\d+)\): "
                    r"attack (-?\d+) vs defence (-?\d+)\. ")


@pytest.mark.parametrize("kind", ["support", "intercept"])
def test_guimi_support_and_intercept_prompts_name_attacker_target_and_totals(kind: str) -> None:
    """095.1-095.3: the support and intercept prompts carry what the hit check adds up."""
    for seed in range(6):
        match = tcgcore.new_match("guimi_revival", seed=seed)
        try:
            choice = _play_until(match, kind)
        except AssertionError:
            continue
        view = match.view(choice.player)
        assert view.pending is not None
        if "(an item: defence only from interceptors): " in view.pending.prompt:
            assert " vs defence 0. " in view.pending.prompt  # 096.3: an item has no strength
            continue
        found = PROMPT.match(view.pending.prompt)
        assert found, view.pending.prompt
        data = choice.options[0].data
        attacker, target = int(str(data["attacker"])), int(str(data["target"]))
        stats = view.panel["stats"]
        state = match.state
        att_str = stats[str(tcgcore.card_alias(state, attacker, choice.player))][0]
        tgt_str = stats[str(tcgcore.card_alias(state, target, choice.player))][0]
        assert int(found.group(2)) == att_str and int(found.group(4)) == tgt_str
        assert int(found.group(6)) == tgt_str
        support = str(data.get("support", ""))
        extra = sum(stats[str(tcgcore.card_alias(state, int(c), choice.player))][0]
                    for c in support.split(",") if c)
        assert int(found.group(5)) == att_str + extra
        # each option names the character with its current strength and agility
        assert all(re.search(r"\(strength -?\d+, agility \d+\)$", o.label)
                   for o in view.pending.options), [o.label for o in view.pending.options]
        return
    pytest.fail(f"no {kind} choice in six seeded games")


def test_guimi_board_shows_current_strength_and_the_slots_the_options_use() -> None:
    match = tcgcore.new_match("guimi_revival", seed=1)
    choice = _play_until(match, "support")
    view = match.view(choice.player)
    board = "\n".join(render_board(match.spec, view))
    assert "bp_str" not in board and "bp_weak" not in board
    units = [line for line in board.splitlines() if "unit zone:" in line]
    assert units and all(re.search(r"\b[FB][12]: ", line) for line in units)
    assert re.search(r"\[strength \d+, agility \d+", board)


def test_arkham_board_shows_costs_icons_and_enemy_numbers() -> None:
    match = tcgcore.new_match("arkham_card", seed=3)
    agents = [tcgcore.make_agent(match.spec, "heuristic", 1)]
    enemy_seen = False
    for _ in range(300):
        choice = match.pending
        if choice is None:
            break
        board = "\n".join(render_board(match.spec, match.view(0)))
        assert re.search(r"your hand \(hidden from others\): .*\[cost \d+", board) or \
            "your hand" not in board or "hand 0" in board
        if re.search(r"at [A-Z][a-z]+: .*\[fight \d+, evade \d+, attack \d+ damage \d+ "
                     r"horror, health \d+", board):
            enemy_seen = True
            assert re.search(r"enemies: .* fight \d+, evade \d+", board)
            break
        match.choose(choice.player, agents[choice.player].decide(match, choice))
    assert enemy_seen
    commit = _play_until(tcgcore.new_match("arkham_card", seed=3), "commit")
    assert re.search(r"test\? \(so far \d+ \w+ vs difficulty \d+", commit.prompt), commit.prompt


def test_every_log_starts_with_a_header() -> None:
    out = io.StringIO()
    assert main(["play", "guimi_revival", "--seed", "3", "--max-decisions", "5"], out=out,
                inp=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "# Guimi Revival 0.2.0 · seed 3 · 2 players".replace(
        "0.2.0", tcgcore.default_registry().game("guimi_revival").version)
    assert lines[1] == "# P0 · the game's default deck · played by the heuristic agent"
    match = tcgcore.new_match("guimi_revival", seed=2, decks=["seer", "hunter"])
    head = log_header(match, {0: "you", 1: "the random agent"})
    assert head[1:] == ["# P0 · deck seer · played by you",
                        "# P1 · deck hunter · played by the random agent"]


def _terminal_game(mode: str, seed: int, game: str = "guimi_revival"
                   ) -> tuple[str, tcgcore.Match[Any]]:
    """P0 typed by a person who answers as the heuristic agent would; P1 (if any) the agent."""
    match = tcgcore.new_match(game, seed=seed)
    mind = tcgcore.make_agent(match.spec, "heuristic", 0)

    class Person:
        def readline(self) -> str:
            m = ui.match
            if m.result is not None or m.pending is None:
                return "quit\n"
            keys = mind.decide(m, m.pending)
            numbers = [str([o.key for o in m.pending.options].index(k) + 1) for k in keys]
            return (" ".join(numbers) or "none") + "\n"

    out = io.StringIO()
    others = {s: tcgcore.make_agent(match.spec, "heuristic", s) for s in range(1, match.players)}
    ui = TerminalUI(match, humans=[0], agents=others, inp=Person(), out=out,
                    auto_pass=mode)  # type: ignore[arg-type]
    assert ui.run() == 0
    return out.getvalue(), ui.match


def test_auto_pass_answers_only_windows_with_nothing_to_play() -> None:
    """Auto-pass is a front-end setting: "smart" passes the quick-event windows (074.8) in
    which nothing can be activated, and the match is the same as when every window is
    asked and the person passes."""
    asked, never = _terminal_game("never", 4)
    smart_screen, smart = _terminal_game("smart", 4)
    assert never.digest() == smart.digest() and never.decisions == smart.decisions
    windows = asked.count("P0, Activate a set quick event?")
    assert windows > 0, "the seeded game has no quick-event window"
    passable = asked.count("P0, Activate a set quick event?\n  1) Do not activate\nAnswer")
    assert smart_screen.count("P0, Activate a set quick event?") == windows - passable
    assert passable == 0 or "passed automatically" in smart_screen


def test_damage_is_assigned_in_one_answer_in_the_terminal() -> None:
    """A701: the investigator assigns all of an attack's damage; the game asks point by point
    (``spec.point_choices``) and the terminal takes the whole assignment in one answer and
    gives it point by point, so the recorded decisions are the ones typed point by point."""
    from tcgcore_arkham_card import scenario
    from tcgcore_arkham_card.testkit import desc, enemy, investigator

    def fresh() -> tcgcore.Match[Any]:
        return scenario(desc(investigator("t_inv_guard", ["t_guts"] * 6, assets=["t_dog"]),
                             phase="enemy", enemies=[{"code": "t_boss", "engaged": 0}]))

    by_points = fresh()
    dog = enemy(by_points, "t_dog")
    assert by_points.pending is not None and by_points.pending.kind == "assign_damage"
    assert "(2 of 2 left to assign)" in by_points.pending.prompt
    for key in (f"asset:{dog}", "inv", "inv", "inv"):  # 2 damage, then 2 horror
        assert by_points.pending is not None
        by_points.choose(0, key)

    match = fresh()
    typed = iter(["2 1", "1 1", "quit"])  # option 1 is the investigator, 2 the dog
    out = io.StringIO()

    class Person:
        def readline(self) -> str:
            return next(typed) + "\n"

    ui = TerminalUI(match, humans=[0], inp=Person(), out=out)
    ui.run()
    screen = out.getvalue()
    assert "several (such as 1 1 2) for several points at once" in screen
    assert [d.keys for d in ui.match.decisions] == [d.keys for d in by_points.decisions]
    assert ui.match.digest() == by_points.digest()


def test_arkham_auto_pass_skips_the_windows_that_only_hide_a_hand() -> None:
    """A913.2: commit windows with nothing to commit and "no card to play now" windows are
    asked so that a hand stays hidden; "smart" auto-pass answers them, the game is the same."""
    asked, never = _terminal_game("never", 3, "arkham_card")
    smart_screen, smart = _terminal_game("smart", 3, "arkham_card")
    # the same game, except that where the person typed into such a window (the heuristic
    # says "yes" to a "no card to play now" window, which does nothing) auto-pass passed
    assert len(never.decisions) == len(smart.decisions)
    for typed, auto in zip(never.decisions, smart.decisions, strict=True):
        assert typed == auto or (typed.kind == auto.kind and auto.keys in (["no"], ["none"]))
    assert never.result is not None and never.result == smart.result
    fillers = asked.count("no card to play now (answer no)?") + asked.count("1) Commit nothing")
    assert fillers > 0
    assert "no card to play now (answer no)?" not in smart_screen
    assert "1) Commit nothing" not in smart_screen and "passed automatically" in smart_screen
