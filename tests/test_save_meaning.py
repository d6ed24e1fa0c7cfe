"""A save that loads can be played on: loading checks meaning, not only shape.

Each test edits one fact of a real save (as a hostile or careless host would) and checks that
loading refuses it with a :class:`tcgcore.StateDecodeError` naming the game and the field path.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import tcgcore
from tcgcore import Match


def _doc(match: Match[Any]) -> dict[str, Any]:
    return dict(msgspec.json.decode(match.to_json()))


def _refused(doc: dict[str, Any], pattern: str) -> None:
    with pytest.raises(tcgcore.StateDecodeError, match=pattern):
        Match.from_json(msgspec.json.encode(doc))


def _played_to(game: str, kind: str, seed: int = 1, **options: Any) -> Match[Any]:
    """A match of ``game`` at its first pending choice of ``kind`` (random legal answers)."""
    rng = random.Random(seed)
    for s in range(seed, seed + 40):
        match = tcgcore.new_match(game, seed=s, **options)
        for _ in range(400):
            choice = match.pending
            if choice is None:
                break
            if choice.kind == kind:
                return match
            keys = choice.keys
            count = rng.randint(choice.min, min(choice.max, len(keys)))
            match.choose(choice.player, rng.sample(keys, count))
    raise AssertionError(f"no {kind} choice reached")


def test_every_option_is_answerable_by_the_step_that_asked() -> None:
    doc = _doc(tcgcore.new_match("sparks", seed=7))
    options = doc["state"]["pending"]["options"]
    options[0] = dict(options[0], key="card:x")
    _refused(doc, r"sparks save: pending: not the mulligan choice")


def test_a_waiting_step_names_a_seat_of_the_match() -> None:
    doc = _doc(tcgcore.new_match("sparks", seed=7))
    doc["state"]["stack"][1]["player"] = 182
    _refused(doc, r"sparks save: stack\[1\]\.player: 182 is not a seat")


def test_a_trigger_names_a_seat_of_the_match() -> None:
    doc = _doc(_played_to("sparks", "use_trigger"))
    step = doc["state"]["stack"][-1]
    step["trigger"]["player"] = 2**34
    _refused(doc, r"sparks save: stack\[\d+\]\.trigger\.player: 17179869184 is not a seat")


def test_counts_stay_inside_the_range_saves_can_hold() -> None:
    doc = _doc(tcgcore.new_match("sparks", seed=7))
    doc["state"]["event_count"] = 2**64 - 1
    _refused(doc, r"sparks save: event_count: 18446744073709551615 is outside 0\.\.")


def test_the_answer_is_read_only_by_the_step_on_top() -> None:
    doc = _doc(tcgcore.new_match("sparks", seed=7))
    stack = doc["state"]["stack"]
    stack[0], stack[-1] = stack[-1], stack[0]
    _refused(doc, r"sparks save: stack\[0\]: MulliganAnswer reads an answer, but it does not wait")


def test_guimi_per_seat_lists_have_one_entry_per_seat() -> None:
    doc = _doc(tcgcore.new_match("guimi_revival", seed=3))
    doc["state"]["ascend_round"] = [-1]
    _refused(doc, r"guimi_revival save: ascend_round: 1 entries, one per seat needed")


def test_guimi_main_phase_choice_is_the_one_the_rules_offer() -> None:
    doc = _doc(_played_to("guimi_revival", "main_action"))
    options = doc["state"]["pending"]["options"]
    options.insert(0, dict(options[0], key="move:0:3"))
    _refused(doc, r"guimi_revival save: pending\.options")


def test_guimi_effect_ops_are_known() -> None:
    match = tcgcore.new_match("guimi_revival", seed=3)
    doc = _doc(match)
    doc["state"]["stack"].insert(0, {"step": "guimi.do_effect", "op": "eeemies_forced"})
    _refused(doc, r"guimi_revival save: stack\[0\]\.op: 'eeemies_forced' is not a known effect op")


def test_arkham_skill_tests_test_a_skill() -> None:
    doc = _doc(tcgcore.new_match("arkham_card", seed=3, players=2))
    doc["state"]["test"] = {"seat": 0, "skill": "skill ", "difficulty": 2}
    _refused(doc, r"arkham_card save: test\.skill: 'skill ' is not a known skill")


def test_arkham_effect_ops_are_known() -> None:
    doc = _doc(tcgcore.new_match("arkham_card", seed=3, players=2))
    doc["state"]["stack"].insert(0, {"step": "arkham.effects", "seat": 0,
                                     "effects": [{"op": "eeemies_forced"}]})
    _refused(doc, r"arkham_card save: stack\[0\]\.effects\[0\]\.op: 'eeemies_forced' is not "
                  r"a known effect op")


def test_arkham_seats_have_their_zones() -> None:
    doc = _doc(tcgcore.new_match("arkham_card", seed=3, players=2))
    del doc["state"]["zones"]["discard.1"]
    _refused(doc, r"arkham_card save: zones\['discard\.1'\]: missing")


def test_arkham_scenario_matches_its_act_and_agenda_cards() -> None:
    doc = _doc(_played_to("arkham_card", "action", players=2))  # the act and agenda are out
    assert doc["state"]["scenario"] == "01104"  # The Gathering
    doc["state"]["scenario"] = "01120"  # The Midnight Masks: other acts and agendas
    _refused(doc, r"arkham_card save: scenario: '01120' does not match the cards \((act|agenda) "
                  r"0110\d belongs to another scenario\)")


def test_unmodified_saves_of_every_game_still_load() -> None:
    for game, players in (("sparks", 2), ("guimi_revival", 2), ("arkham_card", 4)):
        match = _played_to(game, "mulligan", players=players)
        assert Match.from_bytes(match.to_bytes()).state_bytes() == match.state_bytes()


def test_guimi_card_pool_is_a_bounded_regular_file() -> None:
    doc = _doc(tcgcore.new_match("guimi_revival", seed=3))
    doc["state"]["pool"] = "/dev/zero"  # reading it would never end
    _refused(doc, r"guimi_revival save: pool: '/dev/zero' is not a card pool file")


def test_arkham_connections_join_locations_in_play() -> None:
    doc = _doc(_played_to("arkham_card", "action", players=2))
    assert doc["state"]["adj"]
    key = next(iter(doc["state"]["adj"]))
    doc["state"]["adj"][key] = [99999]
    _refused(doc, r"arkham_card save: adj\[.*\]: 99999 is not a location in play")


def test_arkham_action_choice_is_the_one_the_rules_offer() -> None:
    doc = _doc(_played_to("arkham_card", "action", players=2))
    options = doc["state"]["pending"]["options"]
    options.insert(0, dict(options[-1], key="fight:5"))
    _refused(doc, r"arkham_card save: pending\.options")


def test_sparks_steps_wait_in_an_order_the_rules_make() -> None:
    doc = _doc(tcgcore.new_match("sparks", seed=7))
    stack = doc["state"]["stack"]  # StartRound, Mulligan(1), MulliganAnswer(0)
    stack[0], stack[1] = stack[1], stack[0]
    _refused(doc, r"sparks save: stack: steps in an order the rules never wait in \(MRm\)")


def test_a_pending_choice_waits_on_a_step_that_reads_its_answer() -> None:
    doc = _doc(tcgcore.new_match("guimi_revival", seed=3))
    doc["state"]["stack"][-1] = {"step": "guimi.start_round"}
    _refused(doc, r"guimi_revival save: stack\[\d+\]: the pending 'mulligan' choice waits for a "
                  r"StartRound step, which reads no answer")


def test_a_step_that_reads_one_answer_gets_one() -> None:
    doc = _doc(_played_to("arkham_card", "action", players=2))
    doc["state"]["pending"]["min"] = 0
    _refused(doc, r"arkham_card save: pending\.min: ActionChosen reads one answer")


def test_guimi_battle_steps_work_on_an_attack_in_progress() -> None:
    doc = _doc(tcgcore.new_match("guimi_revival", seed=3))
    doc["state"]["stack"].insert(0, {"step": "guimi.hit_check"})
    _refused(doc, r"guimi_revival save: stack\[0\]: HitCheck waits, but no attack is in progress")


def test_a_trigger_order_choice_picks_one_trigger() -> None:
    doc = _doc(_played_to("sparks", "order_triggers"))
    doc["state"]["pending"]["min"] = 0
    _refused(doc, r"sparks save: pending: a trigger order choice")


def test_arkham_answers_read_as_numbers_carry_one() -> None:
    doc = _doc(tcgcore.new_match("arkham_card", seed=3, players=2))
    pending = doc["state"]["pending"]
    assert pending["kind"] == "mulligan"
    pending["options"][0] = dict(pending["options"][0], key="keep")
    _refused(doc, r"arkham_card save: pending\.options\[0\]\.key: 'keep' is not what "
                  r"MulliganAnswer reads")


def test_arkham_a_numbered_answer_without_its_number_is_refused() -> None:
    doc = _doc(tcgcore.new_match("arkham_card", seed=3, players=2))
    pending = doc["state"]["pending"]
    pending["options"][0] = dict(pending["options"][0], key="card")
    _refused(doc, r"arkham_card save: pending\.options\[0\]\.key: 'card' is not what "
                  r"MulliganAnswer reads")


def test_arkham_every_resume_step_says_which_keys_it_reads() -> None:
    import tcgcore_arkham_card.plugin  # noqa: F401  (loads the rules before validation)
    from tcgcore_arkham_card import validation
    from tcgcore_arkham_card.state import ActionChosen

    assert set(validation._READS) | {ActionChosen} == set(validation.RESUME_STEPS)


def test_arkham_a_key_of_another_step_is_refused() -> None:
    doc = _doc(_played_to("arkham_card", "fast_window", players=2))
    options = doc["state"]["pending"]["options"]
    options[0] = dict(options[0], key="enemy:3")  # what an attack order reads, not a window
    _refused(doc, r"arkham_card save: pending\.options\[0\]\.key: 'enemy:3' is not what "
                  r"TestWindowAnswer reads")


def test_arkham_a_fast_ability_key_names_card_and_ability() -> None:
    doc = _doc(_played_to("arkham_card", "fast_window", players=2))
    options = doc["state"]["pending"]["options"]
    options[0] = dict(options[0], key="fast:4", card=4)
    _refused(doc, r"arkham_card save: pending\.options\[0\]\.key: 'fast:4' is not what "
                  r"TestWindowAnswer reads")


def test_arkham_harm_is_assigned_to_the_investigator_or_an_asset() -> None:
    doc = _doc(_played_to("arkham_card", "assign_damage", players=2))
    options = doc["state"]["pending"]["options"]
    options[0] = dict(options[0], key="mental")
    _refused(doc, r"arkham_card save: pending\.options\[0\]\.key: 'mental' is not what "
                  r"HarmAnswer reads")


def test_guimi_every_answer_step_says_which_keys_it_reads() -> None:
    from tcgcore_guimi_revival import validation
    from tcgcore_guimi_revival.state import MainAnswer

    assert set(validation._HEADS) | {MainAnswer} == set(validation.RESUME_STEPS)


def test_guimi_a_key_of_another_step_is_refused() -> None:
    doc = _doc(tcgcore.new_match("guimi_revival", seed=3))
    pending = doc["state"]["pending"]
    assert pending["kind"] == "mulligan"
    card = pending["options"][0]["card"]
    pending["options"][0] = dict(pending["options"][0], key=f"attack:{card}")
    _refused(doc, r"guimi_revival save: pending\.options\[0\]\.key: 'attack:\d+' is not an "
                  r"answer of this step")


def test_arkham_a_connection_is_listed_once() -> None:
    doc = _doc(_played_to("arkham_card", "action", players=2))
    here = next(iter(doc["state"]["adj"]))
    there = int(here)  # (any location in play does: a location of the scenario)
    doc["state"]["adj"][here] = [there, there]
    _refused(doc, r"arkham_card save: adj\[.*\]: a connection is listed twice")
