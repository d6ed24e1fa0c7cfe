"""Campaign play from the command line: AI and human seats, the summary, the upgrade
step, the state file and deck export (A980)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tcgcore_arkham_card.campaign import Campaign
from tcgcore_arkham_card.campaign_runner import (
    TextAgent,
    _human_upgrades,
    _replace_retired,
    run_campaign,
    start_campaign,
)
from tcgcore_arkham_card.campaign_tools import load_campaign, save_campaign
from tcgcore_arkham_card.decks import parse_deck
from tcgcore_arkham_card.plugin import spec


def _cli(*argv: str, inp: str = "") -> tuple[int, str]:
    out = io.StringIO()
    assert spec.campaign_runner is not None
    code = spec.campaign_runner(list(argv), out, io.StringIO(inp))
    return code, out.getvalue()


def test_A980_1_start_campaign_draws_weaknesses_once() -> None:
    a = start_campaign(["roland", "agnes"], seed=4)
    b = start_campaign(["roland", "agnes"], seed=4)
    assert a == b and [i.code for i in a.investigators] == ["01001", "01004"]
    assert all("01000" not in i.deck for i in a.investigators)
    assert all(len(i.deck) == 30 + 2 + 1 for i in a.investigators)


def test_A980_2_A980_7_seeded_campaign_plays_saves_and_exports(tmp_path: Path) -> None:
    save = tmp_path / "camp.json"
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "wendy",
                      "--seed", "3", "--save", str(save), "--export", str(tmp_path / "decks"))
    assert code == 0
    assert "=== The Gathering: resolution" in text and "campaign log:" in text
    camp, remaining = load_campaign(save.read_bytes())
    assert remaining == [] and camp.played and camp.played[0].startswith("01104:")
    # A980.7: the three scenarios in order, unless the campaign was lost on the way
    assert [p.split(":")[0] for p in camp.played] == \
        ["01104", "01120", "01142"][:len(camp.played)]
    if len(camp.played) == 3:
        assert "=== The Midnight Masks" in text and "=== The Devourer Below" in text
        assert "elder_thing" in camp.chaos_add  # A957.1, added once
        assert camp.chaos_add.count("elder_thing") == 1
        assert ("The campaign is won" in text) != ("The campaign is lost" in text)  # A980.8
    exported = sorted((tmp_path / "decks").iterdir())
    # A980.4: one deck per seat, named after the seat's investigator at the end (a killed
    # or insane one has been replaced)
    assert [p.name for p in exported] == [f"{seat}_{inv.code}.json"
                                          for seat, inv in enumerate(camp.investigators)]
    deck = parse_deck(exported[0].read_text(encoding="utf-8"))
    assert sum(deck.slots.values()) == len(camp.investigators[0].deck) + \
        len(camp.investigators[0].story)
    # the same seed gives the same campaign
    save2 = tmp_path / "camp2.json"
    _cli("night_of_the_zealot", "--deck", "roland", "--deck", "wendy", "--seed", "3",
         "--save", str(save2))
    assert load_campaign(save2.read_bytes())[0] == camp


def test_A980_2_resume_plays_the_remaining_scenarios(tmp_path: Path) -> None:
    camp = start_campaign(["daisy"], seed=2)
    path = tmp_path / "c.json"
    path.write_bytes(save_campaign(camp, ["01104"]))
    code, text = _cli("night_of_the_zealot", "--resume", str(path), "--save", str(path))
    assert code == 0 and "The Gathering" in text
    back, remaining = load_campaign(path.read_bytes())
    assert remaining == [] and len(back.played) == 1
    assert "Not implemented yet" not in text and "The campaign is" not in text


def test_A980_3_human_upgrade_step_and_text_agent() -> None:
    camp = start_campaign(["roland"], seed=1)
    camp.investigators[0].xp = 3
    out = io.StringIO()
    # a bad answer, one purchase, the card that leaves (the second in the list), done
    agent = TextAgent(out, io.StringIO("x\n2\n2\n1\n"))
    after = _human_upgrades(camp, 0, agent)
    assert after.investigators[0].xp < 3 and "Keep the deck" in out.getvalue()
    assert "which card leaves the deck?" in out.getvalue()  # A956.3: the person picks it
    gone = [c for c in camp.investigators[0].deck if c not in after.investigators[0].deck]
    assert len(gone) == 1 and len(after.investigators[0].deck) == len(camp.investigators[0].deck)
    assert "not accepted: 'x'" in out.getvalue()


def test_A980_2_no_scenarios_left_changes_nothing() -> None:
    camp = Campaign()
    after, played = run_campaign(camp, [], out=io.StringIO(), inp=io.StringIO())
    assert after == camp and played == []


def test_A980_4_missing_deck_is_an_error() -> None:
    try:
        _cli("night_of_the_zealot")
    except SystemExit as exc:
        assert exc.code == 2
    else:  # pragma: no cover
        raise AssertionError("expected a usage error")


def test_A980_2_a_lost_campaign_stops() -> None:
    camp = start_campaign(["roland"], seed=1)
    camp.lost = True
    after, played = run_campaign(camp, ["01104"], out=io.StringIO(), inp=io.StringIO())
    assert played == [] and after.lost
    assert isinstance(json.loads(save_campaign(after)), dict)


def test_A980_2_killed_investigator_is_replaced_before_the_next_scenario() -> None:
    camp = start_campaign(["roland"], seed=1)
    camp.investigators[0].killed = True
    camp.retired.append("01001")
    after = _replace_retired(camp, 1)
    inv = after.investigators[0]
    assert inv.code == "01002" and inv.xp == 0 and not inv.killed
    assert not after.lost


def test_A980_5_lita_may_be_declined_by_a_human_lead() -> None:
    from tcgcore_arkham_card.campaign import record_scenario
    from tcgcore_arkham_card.campaign_runner import _story_choices

    import tcgcore

    camp = start_campaign(["roland"], seed=1)
    result = tcgcore.Result(winners=[], reason="resolution",
                            detail={"resolution": "R-none", "victory": 0, "lead": 0})
    after = record_scenario(camp, result, scenario="01104")
    assert after.investigators[0].story == ["01117"]
    out = io.StringIO()
    declined = _story_choices(camp, after, frozenset({0}), TextAgent(out, io.StringIO("2\n")))
    assert declined.investigators[0].story == [] and "Lita Chantler" in out.getvalue()
    after = record_scenario(camp, result, scenario="01104")
    kept = _story_choices(camp, after, frozenset(), TextAgent(out, io.StringIO("")))
    assert kept.investigators[0].story == ["01117"]  # an AI lead keeps her


def test_A980_2_text_agent_answers_match_choices() -> None:
    import tcgcore

    m = tcgcore.new_match("arkham_card", seed=1)
    choice = m.pending
    assert choice is not None
    out = io.StringIO()
    shown = m.seat_choice(choice.player)  # a person types the keys of the seat's view
    assert shown is not None
    picked = TextAgent(out, io.StringIO(f"{shown.options[0].key}\n")).decide(m, choice)
    assert picked == [choice.options[0].key] and choice.prompt in out.getvalue()


def test_A980_6_save_during_a_scenario_and_resume(tmp_path: Path) -> None:
    from tcgcore_arkham_card.campaign_tools import load_campaign_file

    path = tmp_path / "mid.json"
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "--seed", "3",
                      "--save", str(path), "--stop-after", "40")
    assert code == 0 and "stopped during The Gathering" in text
    saved = load_campaign_file(path.read_bytes())
    assert saved.remaining == ["01104", "01120", "01142"] and saved.match
    assert not saved.campaign.played
    code, text = _cli("night_of_the_zealot", "--resume", str(path), "--save", str(path))
    assert code == 0 and "=== The Gathering" in text
    done = load_campaign_file(path.read_bytes())
    assert done.remaining == [] and not done.match and done.campaign.played[0][:5] == "01104"
    assert len(done.campaign.played) == 3 or done.campaign.lost


def test_A980_6_a_human_types_save(tmp_path: Path) -> None:
    from tcgcore_arkham_card.campaign_tools import load_campaign_file

    path = tmp_path / "h.json"
    code, text = _cli("night_of_the_zealot", "--deck", "agnes", "--human", "0",
                      "--save", str(path), inp="save\n")
    assert code == 0 and "stopped during The Gathering" in text
    assert load_campaign_file(path.read_bytes()).match


def test_A980_9_resume_keeps_the_seed_and_the_human_seats(tmp_path: Path) -> None:
    from tcgcore_arkham_card.campaign_tools import load_campaign_file

    path = tmp_path / "s.json"
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "--human", "0",
                      "--seed", "9", "--save", str(path), inp="save\n")
    assert code == 0 and "--resume" in text  # the message says how to continue
    saved = load_campaign_file(path.read_bytes())
    assert saved.seed == 9 and saved.humans == [0] and saved.match
    # resumed without --seed/--human: still seed 9 and a person at seat 0
    code, text = _cli("night_of_the_zealot", "--resume", str(path), "--save", str(path),
                      inp="save\n")
    assert code == 0 and "stopped during The Gathering" in text
    again = load_campaign_file(path.read_bytes())
    assert again.seed == 9 and again.humans == [0]


def test_A980_9_an_interrupted_campaign_plays_on_as_the_uninterrupted_one(
        tmp_path: Path) -> None:
    whole, cut = tmp_path / "w.json", tmp_path / "c.json"
    _cli("night_of_the_zealot", "--deck", "roland", "--seed", "2", "--save", str(whole))
    _cli("night_of_the_zealot", "--deck", "roland", "--seed", "2", "--save", str(cut),
         "--stop-after", "30")
    _cli("night_of_the_zealot", "--resume", str(cut), "--save", str(cut))
    a, b = load_campaign(whole.read_bytes()), load_campaign(cut.read_bytes())
    assert a[0].played == b[0].played and a[0].log == b[0].log


def test_A980_9_a_new_campaign_refuses_levelled_cards(tmp_path: Path) -> None:
    from tcgcore_arkham_card.campaign_tools import export_deck

    import tcgcore

    camp = start_campaign(["roland"], seed=1)
    camp.investigators[0].deck[camp.investigators[0].deck.index("01016")] = "01029"
    deck = tmp_path / "levelled.json"
    deck.write_text(export_deck(camp, 0), encoding="utf-8")
    try:
        _cli("night_of_the_zealot", "--deck", str(deck))
    except tcgcore.DeckError as exc:
        assert "Shotgun (01029) is level 4" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a levelled deck must be refused")


def test_A980_9_bad_campaign_files_are_refused_with_the_reason(tmp_path: Path) -> None:
    import pytest
    from tcgcore_arkham_card.campaign_tools import load_campaign_file

    import tcgcore

    good = json.loads(save_campaign(start_campaign(["roland", "agnes"], seed=1),
                                    ["01120", "01142"]))
    cases: dict[str, Callable[[dict[str, Any]], object]] = {
        "investigators is missing": lambda d: d["campaign"].pop("investigators"),
        "1 to 4 investigators": lambda d: d["campaign"].update(investigators=[]),
        "xp: must not be negative": lambda d: d["campaign"]["investigators"][0].update(xp=-5),
        "unknown scenario": lambda d: d.update(remaining=["01999"]),
        "in campaign order": lambda d: d.update(remaining=["01142", "01120"]),
        "not an investigator card": lambda d: d["campaign"]["investigators"][0].update(
            code="01016"),
        "humans: seat(s) [5]": lambda d: d.update(humans=[5]),
    }
    for message, spoil in cases.items():
        data = json.loads(json.dumps(good))
        spoil(data)
        with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
            load_campaign_file(json.dumps(data))


def test_A980_9_a_scenario_in_progress_must_be_the_next_one(tmp_path: Path) -> None:
    import pytest

    import tcgcore

    path = tmp_path / "m.json"
    _cli("night_of_the_zealot", "--deck", "roland", "--save", str(path), "--stop-after", "20")
    data = json.loads(path.read_bytes())
    data["remaining"] = ["01142"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(tcgcore.OptionsError, match="scenario in progress is '01104'"):
        _cli("night_of_the_zealot", "--resume", str(path))


def test_A980_4_deck_options_and_usage_errors(tmp_path: Path) -> None:
    import pytest

    import tcgcore

    code, _ = _cli("night_of_the_zealot", "--decks", "roland,agnes", "--seed", "1",
                   "--stop-after", "5", "--save", str(tmp_path / "x.json"))
    assert code == 0
    from tcgcore_arkham_card.campaign_tools import load_campaign_file
    camp = load_campaign_file((tmp_path / "x.json").read_bytes()).campaign
    assert [i.code for i in camp.investigators] == ["01001", "01004"]
    with pytest.raises(SystemExit):
        _cli("night_of_the_zealot", "--deck", "roland", "--stop-after", "5")  # no --save
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\x8b\xff\x00")
    with pytest.raises(tcgcore.OptionsError, match=r"deck\.bin: not a text file"):
        _cli("night_of_the_zealot", "--deck", str(binary))


def test_A980_2_a_human_sees_the_board_and_the_events() -> None:
    import tcgcore

    m = tcgcore.new_match("arkham_card", seed=1)
    choice = m.pending
    assert choice is not None
    shown = m.seat_choice(choice.player)
    assert shown is not None
    out = io.StringIO()
    TextAgent(out, io.StringIO(f"{shown.options[0].key}\n")).decide(m, choice)
    text = out.getvalue()
    assert f"({choice.options[0].key})" not in text  # the seat's keys, not the engine's
    assert "Roland Banks" in text and "you are P0" in text  # the seat's board
    assert "*" in text  # the events so far


def test_A216_2_lita_goes_to_a_survivor_when_the_lead_is_killed() -> None:
    from tcgcore_arkham_card.campaign import record_scenario

    import tcgcore

    camp = start_campaign(["roland", "agnes"], seed=1)
    result = tcgcore.Result(winners=[], reason="resolution",
                            detail={"resolution": "R3", "victory": 0, "lead": 0,
                                    "extra_trauma0": "killed"})
    after = record_scenario(camp, result, scenario="01104")
    assert after.investigators[0].killed and after.investigators[0].story == []
    assert after.investigators[1].story == ["01117"]
    both = tcgcore.Result(winners=[], reason="resolution",
                          detail={"resolution": "R3", "victory": 0, "lead": 0,
                                  "extra_trauma0": "killed", "extra_trauma1": "killed"})
    nobody = record_scenario(camp, both, scenario="01104")
    assert all(i.story == [] for i in nobody.investigators)
    r2 = tcgcore.Result(winners=[], reason="resolution",
                        detail={"resolution": "R2", "victory": 0, "lead": 0})
    assert record_scenario(camp, r2, scenario="01104").investigators[0].story == []


def test_A980_6_a_wrong_answer_is_explained_and_asked_again() -> None:
    import tcgcore

    m = tcgcore.new_match("arkham_card", seed=1)
    choice = m.pending
    assert choice is not None and choice.kind == "mulligan" and choice.min == 0
    out = io.StringIO()
    picked = TextAgent(out, io.StringIO("xyz\nhelp\nboard\n1\n")).decide(m, choice)
    text = out.getvalue()
    assert "not accepted: 'xyz'" in text and "Commands:" in text
    assert picked == [choice.options[0].key]  # 'xyz' was not taken as "choose nothing"


def test_A980_6_save_to_a_named_file_and_when_input_ends(tmp_path: Path) -> None:
    from tcgcore_arkham_card.campaign_tools import load_campaign_file

    named = tmp_path / "mine.json"
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "--human", "0",
                      inp=f"save {tmp_path / 'no' / 'x.json'}\nsave {named}\n")
    assert code == 0 and "cannot save to" in text and f"campaign saved to {named}" in text
    assert load_campaign_file(named.read_bytes()).match
    other = tmp_path / "other.json"  # another file than --save, before --save exists
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "--human", "0",
                      "--save", str(tmp_path / "later.json"), inp=f"save {other}\n")
    assert code == 0 and load_campaign_file(other.read_bytes()).match
    assert not (tmp_path / "later.json").exists()
    eof = tmp_path / "eof.json"
    code, text = _cli("night_of_the_zealot", "--deck", "roland", "--human", "0",
                      "--save", str(eof), inp="")
    assert code == 0 and load_campaign_file(eof.read_bytes()).match  # nothing is lost


def test_A980_4_paths_and_options_checked_before_playing(tmp_path: Path) -> None:
    import pytest

    for argv in (["--deck", "roland", "--save", str(tmp_path / "none" / "c.json")],
                 ["--deck", "roland", "--save", str(tmp_path / "c.json"),
                  "--stop-after", "0"],
                 ["--resume", str(tmp_path / "c.json"), "--deck", "roland"]):
        with pytest.raises(SystemExit):
            _cli("night_of_the_zealot", *argv)
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(SystemExit):
        _cli("night_of_the_zealot", "--deck", "roland", "--export", str(blocker))


def test_A954_2_A980_3_the_summary_names_replacements_purchases_and_cultists() -> None:
    out = io.StringIO()
    camp = start_campaign(["roland", "agnes"], seed=4)
    camp.investigators[0].killed = True
    camp.retired.append("01001")
    camp.investigators[1].xp = 3
    run_campaign(camp, ["01120"], seed=4, out=out, inp=io.StringIO())
    text = out.getvalue()
    assert "Roland Banks was killed; Daisy Walker (starter deck) takes seat 0" in text
    assert "spends" in text and "experience: +" in text
    assert "cultists who got away: 01" not in text  # named, not coded


def test_A980_7_A980_8_a_seeded_heuristic_campaign_finishes_with_a_valid_outcome() -> None:
    """The whole Night of the Zealot with the heuristic agent: three scenarios in order,
    each ending with a resolution of its scenario file (or none), then won or lost."""
    from tcgcore_arkham_card.campaign_runner import CAMPAIGNS
    from tcgcore_arkham_card.cards import load_scenario

    for seed in (3, 11):
        camp = start_campaign(["roland", "wendy"], seed=seed)
        after, played = run_campaign(camp, list(CAMPAIGNS["night_of_the_zealot"]),
                                     seed=seed, out=io.StringIO(), inp=io.StringIO())
        assert [code for code, _ in played] == ["01104", "01120", "01142"]
        for code, res in played:
            assert res == "R-none" or res in load_scenario(code).resolutions
        last = played[-1][1]
        assert after.lost == (last == "R-none")  # A980.8
        assert after.played == [f"{c}:{r}" for c, r in played]
        assert "elder_thing" in after.chaos_add
        for inv in after.investigators:
            assert inv.xp >= 0 and inv.physical >= 0 and inv.mental >= 0
