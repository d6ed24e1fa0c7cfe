"""Whole games: agents, the play/simulate jobs, the front-end hooks, deck files, and the scripted
proofs that sequence 0 and the Great Old One are reachable by playing the cards."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import msgspec
import pytest
from tcgcore_guimi_revival import default_decks, get_pool
from tcgcore_guimi_revival.agents import HeuristicAgent
from tcgcore_guimi_revival.decks import PRECONS, check_deck_text
from tcgcore_guimi_revival.options import RulesOptions
from tcgcore_guimi_revival.plugin import card_name, card_text, find_card, render_panel
from tcgcore_guimi_revival.testing import new_match, registry

import tcgcore
from tcgcore.cli import main as cli_main

DATA = Path(__file__).resolve().parents[1] / "src" / "tcgcore_guimi_revival" / "data"
ROOT = Path(__file__).resolve().parents[3]


def _play(seed: int, decks: list[str], opponent: str) -> tcgcore.Match[Any]:
    """A full seeded game: a heuristic in seat 0 against ``opponent`` in seat 1."""
    m = new_match(seed, decks=decks)
    other: tcgcore.Agent = HeuristicAgent(seed + 1) if opponent == "heuristic" \
        else tcgcore.RandomAgent(seed)
    tcgcore.play_out(m, [HeuristicAgent(seed), other])
    return m


# ----------------------------------------------------------------------------- proofs


def test_a_real_game_reaches_sequence_0() -> None:
    """088: a heuristic climbs from sequence 9 to sequence 0 in a game played from setup
    (seed 97, Error against Darkness, heuristic against random)."""
    m = _play(97, ["marauder", "sleepless"], "random")
    promoted = [e.amount for e in m.events_since(0, player="all") if e.kind == "promoted" and e.player == 0]
    assert promoted[-1] == 0
    assert promoted == sorted((a or 0 for a in promoted), reverse=True)
    assert any(e.kind == "extra_activated" and e.code == "god_marauder"
               for e in m.events_since(0, player="all"))


@pytest.mark.parametrize(("seed", "decks", "opponent", "source"), [
    (85, ["assassin", "assassin"], "random", "src_city_of_calamity"),
    (201, ["assassin", "assassin"], "heuristic", "src_city_of_calamity"),
])
def test_a_real_game_ends_with_a_great_old_one(seed: int, decks: list[str], opponent: str,
                                               source: str) -> None:
    """089, 132.1: games played from setup end with a Great Old One (seed 85: Demoness
    against Demoness and a random player; seed 201: Demoness against Demoness, two heuristics)."""
    m = _play(seed, decks, opponent)
    assert m.result is not None and m.result.reason == "great_old_one"
    assert m.result.winners == [0]
    kinds = [(e.kind, e.code) for e in m.events_since(0, player="all") if e.player == 0]
    assert ("extra_activated", source) in kinds
    assert ("extra_activated", f"god_{decks[0]}") in kinds
    assert any(k == "ascension_began" for k, _ in kinds)


def test_card_coverage_sample() -> None:
    """A small sample of the coverage run recorded in balance.md (with its scripted games, the
    three above): every main-deck card and RB of every precon is played, and every extra-deck
    card is at least set; the God and Source cards' activations are shown by the games above
    and by the balance run."""
    from tcgcore_guimi_revival.balance import coverage

    used, _ = coverage(3, showcase=True)
    main: set[str] = set()
    extra: set[str] = set()
    for d in default_decks().values():
        main |= {d.revival, *d.main_codes()}
        extra |= set(d.extra)
    assert not main - used
    pool = get_pool("builtin").cards
    need_low = {c for c in extra if pool[c].extra_kind not in ("god", "source")}
    assert len(need_low - used) <= 2, sorted(need_low - used)


# ----------------------------------------------------------------------------- agents


def test_agents_are_registered_and_deterministic() -> None:
    """spec.agents has random and heuristic; the default is heuristic; same seed, same game."""
    spec = registry().game("guimi_revival")
    assert spec.default_agent == "heuristic" and "heuristic" in spec.agents
    a, b = _play(5, ["hunter", "assassin"], "random"), _play(5, ["hunter", "assassin"], "random")
    assert a.digest() == b.digest() and a.result == b.result


def test_heuristic_decides_from_the_view_only() -> None:
    """The heuristic's answer does not change when hidden cards (the opponent's hand and both
    decks) are different: it only reads the view, its events and card definitions."""
    m = new_match(3, decks=["seer", "sailor"])
    agent0 = HeuristicAgent(1)
    rnd = tcgcore.RandomAgent(2)
    for _ in range(150):
        ch = m.pending
        assert ch is not None
        if ch.player == 0:
            twin = m.clone()
            st = twin.state
            hidden = st.zones["hand.1"].cards + st.zones["deck.1"].cards
            codes = [st.cards[c].code for c in hidden]
            for c, code in zip(hidden, reversed(codes), strict=True):
                twin.engine.update_card(c, code=code)
            assert HeuristicAgent(1).decide(twin, ch) == agent0.decide(m, ch)
            m.choose(0, agent0.decide(m, ch))
        else:
            m.choose(1, rnd.decide(m, ch))
        if m.result is not None:
            break


def test_heuristic_beats_random_in_a_sample() -> None:
    """A 24-game sample (the 500-game measurement is in balance.md): the heuristic wins most."""
    wins = 0
    for i, (a, b) in enumerate(zip(PRECONS * 2, PRECONS[1:] + PRECONS[:1] + PRECONS,
                                   strict=True)):
        for seat in (0, 1):
            m = new_match(100 + i, decks=[a, b])
            agents: list[tcgcore.Agent] = [tcgcore.RandomAgent(i), tcgcore.RandomAgent(i)]
            agents[seat] = HeuristicAgent(i)
            tcgcore.play_out(m, agents)
            assert m.result is not None
            wins += seat in m.result.winners
    assert wins >= 18


# ----------------------------------------------------------------------------- jobs


def test_cli_play_default_prints_a_readable_game() -> None:
    """``tcgcore play guimi_revival``: two heuristics, two precons, a readable log."""
    out = io.StringIO()
    assert cli_main(["play", "guimi_revival", "--seed", "7"], out=out) == 0
    text = out.getvalue()
    for needle in ("=== Round 1 ===", "[main phase]", "PROMOTES", "attack order:",
                   " vs defence ", "damage check", "result: "):
        assert needle in text, needle


def test_cli_play_with_deck_files_json_and_save(tmp_path: Path) -> None:
    """``--decks`` takes precon names or deck files (their text is the option value, so the
    save carries the deck); ``--json`` streams events; ``--save`` writes a replay."""
    deck = tmp_path / "my.toml"
    deck.write_text((DATA / "decks" / "sailor.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    save = tmp_path / "game.json"
    out = io.StringIO()
    assert cli_main(["play", "guimi_revival", "--seed", "2", "--decks", f"{deck},hunter",
                     "--agents", "heuristic,random", "--json", "--save", str(save)],
                    out=out) == 0
    assert '"type":"result"' in out.getvalue()
    record = tcgcore.ReplayRecord.from_bytes(save.read_bytes())
    assert "revival" in str(record.options["decks"][0])
    m = tcgcore.replay(record)
    assert m.state.cards[m.state.rb[0]].code == "rb_sailor"


def test_simulate_accepts_every_rules_option() -> None:
    """``tcgcore simulate --rules OPTION=VALUE`` accepts every rules option (section 14)."""
    import typing

    for name, field_type in typing.get_type_hints(RulesOptions).items():
        values = typing.get_args(field_type) or (8,)
        for value in values[1:] or values:
            rep = tcgcore.simulate("guimi_revival", games=1, seed=1, registry=registry(),
                                   agents=["heuristic", "random"], options={name: value})
            assert rep.games == 1, (name, value)
    out = io.StringIO()
    assert cli_main(["simulate", "guimi_revival", "--games", "4", "--decks", "seer,hunter",
                     "--agents", "heuristic,random", "--rules", "defeat_condition=death",
                     "--rules", "first_player=p1"], out=out) == 0
    text = out.getvalue()
    assert "first player won" in text and "how games ended" in text


def test_simulate_reports_the_first_player() -> None:
    """The state names its first player ``first_player`` for the simulation report."""
    m = new_match(4, first_player="p1")
    assert m.state.first_player == 1 == m.state.first


# ----------------------------------------------------------------------------- decks


def test_precon_deck_files_are_legal_and_cover_the_pathways() -> None:
    """Six precons, one per pathway, each a legal deck file (041-043)."""
    decks = default_decks()
    pool = get_pool("builtin").cards
    assert list(decks) == list(PRECONS)
    assert {pool[d.revival].pathway for d in decks.values()} == set(PRECONS)
    for name in PRECONS:
        path = DATA / "decks" / f"{name}.toml"
        assert check_deck_text(path.read_text(encoding="utf-8"), str(path)) == []


def test_deck_check_reports_every_violation(tmp_path: Path) -> None:
    """``tcgcore deck check guimi_revival FILE`` lists every problem (and JSON decks work)."""
    bad = tmp_path / "bad.toml"
    bad.write_text('revival = "seer_b9"\nextra = ["god_seer", "god_seer", "seer_b9"]\n'
                   '[main]\nseer_b9 = 5\nseer_potion8 = 1\nnobody = 1\n', encoding="utf-8")
    out = io.StringIO()
    assert cli_main(["deck", "check", "guimi_revival", str(bad)], out=out) != 0
    text = out.getvalue()
    for rule in ("041.1", "041.2", "041.3", "042.2", "043.1", "043.2", "unknown card"):
        assert rule in text, rule
    assert check_deck_text("not = [valid", "x.toml")[0].startswith("x.toml")
    assert check_deck_text('{"revival": "rb_seer", "main": {}, "extra": []}', "x.json")
    good = tmp_path / "good.toml"
    good.write_text((DATA / "decks" / "seer.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    out = io.StringIO()
    assert cli_main(["deck", "check", "guimi_revival", str(good)], out=out) == 0
    assert "legal" in out.getvalue()


def test_decks_option_takes_deck_text() -> None:
    """The ``decks`` option takes precon names or a deck file's text."""
    text = (DATA / "decks" / "marauder.toml").read_text(encoding="utf-8")
    m = new_match(0, decks=[text, "sleepless"])
    assert m.state.cards[m.state.rb[0]].code == "rb_marauder"
    with pytest.raises(tcgcore.DeckError):
        new_match(0, decks=['revival = "rb_seer"\nmain = []\n', "seer"])


# ----------------------------------------------------------------------------- front end


def test_card_name_text_and_find() -> None:
    """card_name, card_text (both names, type, pathway, sequence, rank, numbers, abilities)
    and find_card (id, English or Chinese name, unique prefix)."""
    assert card_name("seer_b7") == "Magician (魔术师)"
    text = card_text("seer_b7") or ""
    for needle in ("Magician / 魔术师", "beyonder", "Fool", "sequence 7", "Rank: low",
                   "Strength 500", "Activated ability:"):
        assert needle in text, needle
    assert "Ritual: to sequence 5 of the Fool pathway" in (card_text("seer_potion5") or "")
    assert "Activation condition" in (card_text("god_seer") or "")
    assert card_text("nobody") is None and card_name("nobody") == "nobody"
    assert find_card("Magician") == "seer_b7"
    assert find_card("魔术师") == "seer_b7"
    assert find_card("SEER_B7") == "seer_b7"
    assert find_card("Law of Conv") == "ev_convergence"
    assert find_card("") is None and find_card("zzz") is None


def test_render_panel_from_the_view() -> None:
    """render_panel draws sequence, characteristics, Spirit World, status, corruption,
    madness, phase and whose turn from the view."""
    m = _play(97, ["marauder", "sleepless"], "random")
    lines = render_panel(m.view(1))
    assert lines[0].startswith("Round ")
    text = "\n".join(lines)
    for needle in ("sequence 0 Error 错误", "characteristics", "Spirit World", "status",
                   "corruption"):
        assert needle in text, needle
    assert render_panel(tcgcore.View(game="guimi_revival", viewer=0, num_players=2,
                                     active_player=0, turn=0, event_count=0)) == []


def test_describe_covers_every_event_kind_of_a_game() -> None:
    """describe_event gives a readable line (never the generic fallback) for every event of
    a full game."""
    from tcgcore_guimi_revival.plugin import describe

    m = _play(101, ["assassin", "assassin"], "random")
    for e in m.events_since(0, player="all"):
        line = describe(m.state, e)
        assert line and "{" not in line, (e.kind, line)


def test_a_save_with_an_unknown_card_code_is_refused() -> None:
    """012.1 / saves: a hand-edited save naming a card the pool does not have is refused at load."""
    m = new_match(5)
    doc = msgspec.json.decode(m.to_json())
    doc["state"]["cards"][3][1] = "zzz"
    with pytest.raises(tcgcore.StateDecodeError, match="unknown code 'zzz'"):
        tcgcore.Match.from_json(msgspec.json.encode(doc), registry=registry())
