"""The scenario builder and card data refuse unknown effect ops, keywords, prey forms and
fields when they are read, naming the path of the field (A912.1, A912.2), and the builder
puts tokens on assets, threat-area cards and gives weakness enemies a bearer (A912.3)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from tcgcore_arkham_card import scenario
from tcgcore_arkham_card.card_checks import EFFECT_OPS, KEYWORDS, prey_known
from tcgcore_arkham_card.cards import card_pool, parse_cards
from tcgcore_arkham_card.testkit import answer, desc, enemy, st

import tcgcore

TREACHERY = {"code": "x_gloom", "name": "Gloom", "type_code": "treachery"}


def _card(**fields: Any) -> dict[str, Any]:
    return {**TREACHERY, **fields}


@pytest.mark.parametrize(("card", "message"), [
    (_card(revelation=[{"op": "dammage", "amount": 1}]),
     "cards[0].revelation[0].op: unknown effect op 'dammage' (did you mean 'damage'?)"),
    (_card(revelation=[{"op": "test", "skill": "willpower", "difficulty": 3,
                        "on_fail": [{"op": "horor", "amount": 1}]}]),
     "cards[0].revelation[0].on_fail[0].op: unknown effect op 'horor'"),
    (_card(revelation=[{"op": "damage", "amuont": 1}]),
     "cards[0].revelation[0].amuont: unknown field 'amuont' (did you mean 'amount'?)"),
    (_card(forced={"round_end": [{"op": "nope"}]}),
     "cards[0].forced.round_end[0].op: unknown effect op 'nope'"),
    (_card(type_code="asset", abilities=[{"kind": "action", "effects": [{"op": "drawcards"}]}]),
     "cards[0].abilities[0].effects[0].op: unknown effect op 'drawcards'"),
    (_card(type_code="asset", abilities=[{"kind": "action", "exhausts": True}]),
     "cards[0].abilities[0].exhausts: unknown field 'exhausts'"),
    (_card(type_code="enemy", keywords=["hunter", "huntre"]),
     "cards[0].keywords[1]: unknown keyword 'huntre'"),
    (_card(type_code="enemy", prey="bearer_only"), "cards[0].prey: unknown prey 'bearer_only'"),
    (_card(type_code="enemy", prey="highest:luck"), "cards[0].prey: unknown prey 'highest:luck'"),
    (_card(revelaton=[]), "cards[0].revelaton: unknown field 'revelaton'"),
    (_card(type_code="investigator", elder_sign={"modifer": 1}),
     "cards[0].elder_sign.modifer: unknown field 'modifer'"),
])
def test_A912_2_the_builder_refuses_unknown_vocabulary_with_the_path(
        card: dict[str, Any], message: str) -> None:
    """A described card with a mistake fails when the scenario is built, not when the card
    is played, and the message names the field's path."""
    with pytest.raises(tcgcore.OptionsError, match=re.escape(message)):
        scenario(desc(cards=[card]))


def test_A912_2_token_effects_are_checked_too() -> None:
    with pytest.raises(tcgcore.OptionsError,
                       match=re.escape("token_effects.skull.on_fail[0].op: unknown effect op")):
        scenario(desc(token_effects={"skull": {"modifier": -1, "on_fail": [{"op": "zap"}]}}))
    with pytest.raises(tcgcore.OptionsError,
                       match=re.escape("token_effects.skull.modifer: unknown field")):
        scenario(desc(token_effects={"skull": {"modifer": -1}}))


def test_A912_2_a_good_card_with_arkhamdb_fields_is_accepted() -> None:
    card = _card(pack_code="core", position=1, illustrator="someone",
                 revelation=[{"op": "damage", "amount": 1}])
    m = scenario(desc(cards=[card], encounter_deck=["x_gloom"]))
    assert st(m).extra_defs["x_gloom"].revelation[0].op == "damage"


def test_A912_1_card_data_files_refuse_unknown_ops_and_keywords_but_not_arkhamdb_fields() -> None:
    """A card data file may carry fields the engine does not read (ArkhamDB exports), but an
    unknown op, keyword or prey form is a CardDataError naming the card and the field."""
    ok = parse_cards(json.dumps([_card(flavor="x", octgn_id="y")]), source="f.json")
    assert "x_gloom" in ok
    for bad, where in ((_card(revelation=[{"op": "dammage"}]), "revelation[0].op"),
                       (_card(keywords=["surg"]), "keywords[0]"),
                       (_card(prey="most:luck"), "prey")):
        with pytest.raises(tcgcore.CardDataError, match=re.escape(f"f.json: card x_gloom.{where}")):
            parse_cards(json.dumps([bad]), source="f.json")


def test_A912_1_the_builtin_pool_uses_only_known_vocabulary() -> None:
    """Every op, keyword and prey form of the shipped data is one the engine knows, and the
    rule modules' own op sets are part of EFFECT_OPS."""
    from tcgcore_arkham_card import card_choices, devourer_below, effects, midnight_masks

    for ops in (effects._PLAYER_OPS, card_choices.CHOICE_OPS, midnight_masks.OPS,
                devourer_below._OPS):
        assert ops <= EFFECT_OPS
    for d in card_pool().values():
        assert set(d.keywords) <= KEYWORDS, d.code
        assert prey_known(d.prey), d.code


def test_A912_3_tokens_on_assets_and_threat_area_cards() -> None:
    """Clues, doom, resources, damage and horror may be put on an asset or on a card in a
    threat area; a bad token count is refused with its path."""
    m = scenario(desc({"code": "t_inv_guard", "location": "t_loc_a",
                       "assets": [{"code": "01016", "clues": 2, "doom": 1}],
                       "threat": [{"code": "01011", "resources": 3}, "t_voices"]}))
    gun, debts = enemy(m, "01016"), enemy(m, "01011")
    assert st(m).cards[gun].counters["clues"] == 2 and st(m).cards[gun].counters["doom"] == 1
    assert st(m).cards[debts].counters["resources"] == 3
    assert st(m).cards[enemy(m, "t_voices")].zone == "threat.0"
    with pytest.raises(tcgcore.OptionsError,
                       match=re.escape("investigators[0].threat[0].clues must be an integer")):
        scenario(desc({"code": "t_inv_guard", "threat": [{"code": "01007", "clues": -1}]}))
    with pytest.raises(tcgcore.OptionsError,
                       match=re.escape("investigators[0].threat[0]: unknown field 'clue'")):
        scenario(desc({"code": "t_inv_guard", "threat": [{"code": "01007", "clue": 1}]}))


def test_A912_3_an_enemy_owner_is_its_bearer() -> None:
    m = scenario(desc({"code": "t_inv_guard"}, {"code": "t_inv_seeker"},
                      enemies=[{"code": "01101", "location": "t_loc_d", "owner": 1}]))
    answer(m, "inv:0")
    assert st(m).cards[enemy(m, "01101")].owner == 1
    with pytest.raises(tcgcore.OptionsError, match=re.escape("enemies[0].owner: 3 is not")):
        scenario(desc(enemies=[{"code": "01101", "location": "t_loc_d", "owner": 3}]))
