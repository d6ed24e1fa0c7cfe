"""The heuristic agent on Night of the Zealot (A977.1, A977.2).

Checks the scenario-specific decisions of :class:`HeuristicAgent`: how it reads the
symbol tokens of The Midnight Masks (A983.4) and The Devourer Below (A995.2–A995.4)
from public facts, that it resigns from The Midnight Masks only with the last action
before midnight or when about to be defeated (A983.5), that it refuses Offer of Power's
doom (A994.4), that it never pushes Lita Chantler out of the ally slot (A994.6) nor lets
her soak harm its holder can take, that it burns the house to earn her (A216.2), that it
plays Dark Memory rather than keep it in hand, and that its play stays reproducible from
the seeds.
"""

from __future__ import annotations

from typing import Any

from tcgcore_arkham_card.agent import HeuristicAgent
from tcgcore_arkham_card.agent.loop import _scenario_bag
from tcgcore_arkham_card.agent.tactics import _Ctx

import tcgcore


def _panel(act: str, agenda: str, enemies: dict[str, Any]) -> dict[str, Any]:
    return {"act": {"code": act, "clues_needed": 0, "group_clues": 0},
            "agenda": {"code": agenda, "doom": 0, "doom_in_play": 0, "threshold": 8},
            "enemies": enemies, "investigators": [],
            "chaos_bag": {"+1": 1, "0": 2, "skull": 2, "cultist": 1, "tablet": 1,
                          "elder_thing": 1, "auto_fail": 1}}


def test_A983_4_agent_reads_midnight_masks_tokens_from_cultist_doom() -> None:
    agent = HeuristicAgent(0)
    panel = _panel("01123", "01122", {
        "5": {"code": "01169", "doom": 3, "health": 1, "damage": 0, "engaged": -1},
        "6": {"code": "01172", "doom": 4, "health": 4, "damage": 0, "engaged": -1}})
    bag = _scenario_bag(agent, panel)
    # skull: the most doom on one Cultist enemy (the Nightgaunt is no Cultist)
    assert bag["-3"] == 2 + 1  # two skulls and the tablet
    assert bag["-2"] == 1  # cultist
    assert "skull" not in bag and bag["auto_fail"] == 1


def test_A995_2_agent_reads_devourer_tokens_from_monsters_and_ancient_ones() -> None:
    agent = HeuristicAgent(0)
    panel = _panel("01148", "01145", {
        "5": {"code": "01160", "doom": 0, "health": 2, "damage": 0, "engaged": -1},
        "6": {"code": "01161", "doom": 0, "health": 3, "damage": 0, "engaged": -1}})
    bag = _scenario_bag(agent, panel)
    assert bag["-2"] == 2 + 1  # skulls: two Monsters; cultist -2
    assert bag["-3"] == 1 and bag["-5"] == 1  # tablet, elder thing
    panel["enemies"]["7"] = {"code": "01157", "doom": 0, "health": 10, "damage": 0,
                             "engaged": -1}
    assert _scenario_bag(agent, panel)["-7"] == 1  # A995.4: another token with Umôrdhoth
    # The Gathering keeps its symbols (estimated by success_chance)
    assert _scenario_bag(agent, _panel("01108", "01105", {}))["skull"] == 2


def test_A994_4_agent_takes_horror_rather_than_offer_of_power_doom() -> None:
    agent = HeuristicAgent(0)
    me = {"health": 9, "damage": 0, "sanity": 5, "horror": 0, "skills": {}}
    panel = _panel("01146", "01143", {})
    panel["investigators"] = [me]
    choice = tcgcore.Choice(player=0, kind="choose_effect", prompt="Choose one", options=[
        tcgcore.Option(key="a", label="Draw 2 cards, 2 doom on the agenda"),
        tcgcore.Option(key="b", label="Take 2 horror")])
    assert agent._choose_effect(_Ctx(agent, panel, 0, {}, []), choice) == ["b"]
    me["horror"] = 3  # 2 horror would defeat: take the doom
    assert agent._choose_effect(_Ctx(agent, panel, 0, {}, []), choice) == ["a"]


def test_A994_6_agent_never_discards_lita_for_another_ally() -> None:
    agent = HeuristicAgent(0)
    panel = _panel("01146", "01143", {})
    choice = tcgcore.Choice(player=0, kind="slot_discard", prompt="Discard", options=[
        tcgcore.Option(key="asset:11", label="Lita Chantler", card=11),
        tcgcore.Option(key="asset:12", label="Guard Dog", card=12)])
    ctx = _Ctx(agent, panel, 0, {11: "01117", 12: "01021"}, [])
    assert agent._slot_discard(ctx, choice) == ["asset:12"]


def test_A994_6_agent_keeps_lita_out_of_harm_unless_it_would_be_defeated() -> None:
    agent = HeuristicAgent(0)
    me = {"health": 9, "damage": 0, "sanity": 5, "horror": 0, "skills": {},
          "assets": [{"id": 11, "code": "01117"}]}
    panel = _panel("01146", "01143", {})
    panel["investigators"] = [me]
    choice = tcgcore.Choice(player=0, kind="assign_damage", prompt="Assign", options=[
        tcgcore.Option(key="asset:11", label="Lita Chantler", card=11),
        tcgcore.Option(key="inv", label="Roland Banks")])
    ctx = _Ctx(agent, panel, 0, {11: "01117"}, [])
    assert agent._assign(ctx, choice) == ["inv"]
    me["damage"] = 8  # the next point would defeat her holder: she soaks it
    assert agent._assign(_Ctx(agent, panel, 0, {11: "01117"}, []), choice) == ["asset:11"]


def test_A216_2_agent_burns_the_house_to_earn_lita() -> None:
    agent = HeuristicAgent(0)
    panel = _panel("01110", "01107", {})
    choice = tcgcore.Choice(player=0, kind="choose_effect", prompt="Choose one", options=[
        tcgcore.Option(key="a", label="Burn the house to the ground (Resolution 1)"),
        tcgcore.Option(key="b", label="Leave the house standing (Resolution 2)")])
    assert agent._choose_effect(_Ctx(agent, panel, 0, {}, []), choice) == ["a"]


def test_A977_2_agent_plays_dark_memory_unless_its_doom_advances_the_agenda() -> None:
    agent = HeuristicAgent(0)
    panel = _panel("01146", "01143", {})
    choice = tcgcore.Choice(player=0, kind="action", prompt="Act", options=[
        tcgcore.Option(key="play:21", label="Play Dark Memory", card=21),
        tcgcore.Option(key="end_turn", label="End turn")])
    ctx = _Ctx(agent, panel, 0, {21: "01013"}, [21])
    assert agent._shed_weakness(ctx, choice) == "play:21"
    panel["agenda"]["doom_in_play"] = 7  # its doom would advance the agenda now
    assert agent._shed_weakness(_Ctx(agent, panel, 0, {21: "01013"}, [21]), choice) is None


def _play(seed: int, decks: list[str], scenario: str,
          watch: Any = None) -> tcgcore.Match[Any]:
    m = tcgcore.new_match("arkham_card", seed=seed, players=len(decks), decks=decks,
                          scenario=scenario)
    agents = [HeuristicAgent(seed * 10 + s) for s in range(len(decks))]
    while m.result is None:
        c = m.pending
        assert c is not None
        keys = agents[c.player].decide(m, c)
        if watch is not None:
            watch(m, c, keys)
        m.choose(c.player, keys)
    return m


def test_A983_5_agent_resigns_only_before_midnight_or_near_defeat() -> None:
    resigns: list[tuple[str, int, int, int]] = []

    def watch(m: tcgcore.Match[Any], c: tcgcore.Choice, keys: list[str]) -> None:
        if c.kind != "action":
            return
        label = c.option(keys[0]).label
        if label.endswith(": resign"):
            p = m.view(c.player).panel
            me, ag = p["investigators"][c.player], p["agenda"]
            left = min(me["health"] - me["damage"], me["sanity"] - me["horror"])
            resigns.append((ag["code"], ag["threshold"] - ag["doom_in_play"], me["actions"],
                            left))

    for seed in range(4):
        _play(seed, ["roland"], "01120", watch)
    assert resigns, "the agent never resigned in four games"
    for agenda, doom_left, actions, left in resigns:
        before_midnight = agenda == "01122" and doom_left <= 1 and actions <= 1
        assert before_midnight or left <= 3, (agenda, doom_left, actions, left)


def test_A977_1_agent_notz_play_is_reproducible() -> None:
    a = _play(3, ["roland", "agnes"], "01142")
    b = _play(3, ["roland", "agnes"], "01142")
    assert [d.keys for d in a.decisions] == [d.keys for d in b.decisions]
    assert a.result is not None and b.result is not None
    assert a.result.detail == b.result.detail
