"""Scenario 01142, The Devourer Below (Night of the Zealot, part 3): its setup, its
effect ops, its triggered abilities and its resolutions (rules A991–A995).

The rest of the engine calls in only through :data:`DEVOURER_BELOW`, the scenario's
:class:`~tcgcore_arkham_card.scenario_hooks.Scenario`: :func:`setup` at the end of the
scenario setup step (A991), :func:`identify_woods` when a location is revealed,
:func:`no_resolution` when every investigator has resigned or been defeated (A995.1),
:func:`effect` for the effect ops below, and :func:`collect` / :func:`resolve` for "after
it engages you" and "when it is defeated, each investigator at its location" forced
abilities. The keyword abilities of its encounter cards are generic rules keyed by card
data: the agenda's and Screeching Byakhee's fight/evade modifier
(:func:`.abilities.enemy_stat_mod`), the Yithian Observer's attack
(:func:`.enemies.attack_extra`), enemies that ready at the end of each turn
(:func:`.operations.ready_at_turn_end`, Umôrdhoth).

Effect ops (card data in ``data/cards_devourer.json``, scenario in
``data/scenario_01142.json``): ``cancel_move``, ``advance_act_if`` (``code``),
``refill_clues`` (``amount`` per investigator), ``db_resolution`` (``code``),
``wrath_per_fail``, ``wrath_point``, ``discard_chosen``, ``harm_both``,
``discard_until_spawn`` (``trait``, ``code``, ``amount`` doom, ``target``
``"two_if_3plus"``), ``madness_test`` (``skill``, ``difficulty``), ``madness_card``,
``vengeance`` (``code`` enemy, ``target`` location), ``spawn_got_away`` (``code``
location), ``clue_on_act`` (``amount`` per investigator), ``search_madness``,
``heal_enemy_self`` (``amount``), ``doom_nearest_enemy`` (``amount``) and
``reveal_another_if`` (``trait``).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

import tcgcore
from tcgcore import Event, Option, Trigger

from . import log_keys
from .cards import Effect, card_pool
from .operations import (
    SCENARIO_OWNER,
    _add_location,
    _refill_encounter,
    _spawn_at_location,
    add_doom,
    discard_card,
    end_with,
)
from .queries import (
    ENEMY_ZONE_PREFIXES,
    Z_DECK,
    Z_HAND,
    Eng,
    _traits,
    current_act,
    current_agenda,
    distances_from,
    dof,
    enemies_at,
    is_enemy,
    location_by_code,
    location_of,
    player_order,
    rebuild_adjacency,
    seats_at,
    zone_ids,
)
from .scenario_hooks import (
    Scenario,
)
from .state import (
    AdvanceAct,
    ArkhamState,
    Effects,
    HandSizeAnswer,
    Harm,
    ResolveEncounter,
    RevealToken,
)

__all__ = ["CODE", "DEVOURER_BELOW", "GOT_AWAY", "collect", "effect",
           "no_resolution", "resolve", "setup"]

#: The scenario's code.
CODE: Final = "01142"
#: Campaign-log prefix of each cultist who got away in The Midnight Masks (A991.5).
GOT_AWAY: Final = log_keys.GOT_AWAY
PAST_MIDNIGHT: Final = log_keys.PAST_MIDNIGHT
GHOUL_PRIEST_ALIVE: Final = log_keys.PRIEST_ALIVE
GHOUL_PRIEST: Final = "01116"
ELDER_THING: Final = "elder_thing"

_OPS: Final = frozenset({"cancel_move", "advance_act_if", "refill_clues", "db_resolution",
                  "wrath_per_fail", "wrath_point", "discard_chosen", "harm_both",
                  "discard_until_spawn", "madness_test", "madness_card", "vengeance",
                  "spawn_got_away", "clue_on_act", "search_madness", "heal_enemy_self",
                  "doom_nearest_enemy", "reveal_another_if"})

_EXTRAS: Final[dict[str, Any]] = {}


def extras() -> dict[str, Any]:
    """The scenario file's fields the generic :class:`~.cards.ScenarioDef` does not hold
    (woods, agents sets, per-resolution trauma and Madness weaknesses); read once.

    Raises:
        tcgcore.CardDataError: the file is missing or not JSON.
    """
    if not _EXTRAS:
        path = resources.files("tcgcore_arkham_card") / "data" / f"scenario_{CODE}.json"
        try:
            _EXTRAS.update(json.loads(path.read_bytes()))
        except (OSError, ValueError) as exc:
            raise tcgcore.CardDataError(f"scenario_{CODE}.json: {exc}") from None
    return _EXTRAS


def got_away(state: ArkhamState) -> list[str]:
    """The names/codes recorded under "cultists who got away" (one per entry; an entry
    may also list several, separated by commas)."""
    out: list[str] = []
    for entry in state.campaign_log:
        if entry.startswith(GOT_AWAY):
            out += [x.strip() for x in entry[len(GOT_AWAY):].split(",") if x.strip()]
    return out


#: The cultists of The Midnight Masks a "cultists who got away" entry can name (A991.5):
#: its Cultist deck (01137-01141) and The Masked Hunter.
KNOWN_CULTISTS: Final = ("01137", "01138", "01139", "01140", "01141", "01121b")


def known_got_away(state: ArkhamState) -> list[str]:
    """The card codes of the known cultists who got away (A991.5), each once, in the order
    the log first names them; entries naming anything else (unknown names, other cards)
    are left out. A name counts when it is a code or matches the card's name (any case)."""
    out: list[str] = []
    for name in got_away(state):
        code = _resolve_cultist(name)
        if code in KNOWN_CULTISTS and code not in out:
            out.append(code)
    return out


def starting_doom(count: int) -> int:
    """Doom on agenda 1 for ``count`` cultists who got away: 0, 1–2, 3–4, 5+ give 0, 1, 2,
    3 (A991.5)."""
    return min(3, (count + 1) // 2)


def _resolve_cultist(name: str) -> str:
    """Card code of a "cultist who got away" entry: a code, or a card name (any case);
    ``""`` when the card is not in the pool."""
    pool = card_pool()
    if name in pool:
        return name
    low = name.lower()
    for code, d in pool.items():
        if d.type_code == "enemy" and d.name.lower() == low:
            return code
    return ""


# ============================================================================ setup


#: The shared unrevealed side of the six Arkham Woods (A991.2).
WOODS_BACK: Final = "01150u"


def identify_woods(eng: Eng, loc: int) -> None:
    """A991.2: an unrevealed Arkham Woods becomes one of the Woods nobody has seen yet, at
    random, when it is revealed. The placeholder and the picked card of the hidden pool
    (zone ``removed``) swap codes, so no card id ever tells one Woods from another.
    Drawing the identity at reveal time gives each Woods the same chance as shuffling
    the six and dealing four face down at setup. Does nothing for other locations."""
    state = eng.state
    card = state.cards[loc]
    if card.code != WOODS_BACK:
        return
    woods = set(extras()["woods"])
    pool = [c for c in state.zones["removed"].cards if state.cards[c].code in woods]
    if not pool:  # pragma: no cover - six Woods for at most four placeholders
        return
    pick = pool[eng.rng.randbelow(len(pool))]
    eng.update_card(loc, code=state.cards[pick].code)
    eng.update_card(pick, code=WOODS_BACK)


def setup(eng: Eng) -> None:
    """A991: random woods, a random Agents set, the Ghoul Priest, starting doom, the Elder
    Thing token and the past-midnight discards (after the generic setup step)."""
    state = eng.state
    x = extras()
    keep = int(x.get("woods_in_play", 4))
    for _ in range(keep):
        _add_location(eng, WOODS_BACK, "locations")  # A991.2: unrevealed, identity unknown
    for code in x["woods"]:
        eng.add_card(code, SCENARIO_OWNER, "removed")  # the hidden pool of the six Woods
    rebuild_adjacency(state)
    agents: dict[str, list[str]] = x["agents"]
    names = sorted(agents)
    pick = names[eng.rng.randbelow(len(names))]  # A991.3
    for code in agents[pick]:
        eng.add_card(code, SCENARIO_OWNER, "encounter")
    for other in names:
        if other != pick:
            for code in agents[other]:
                eng.add_card(code, SCENARIO_OWNER, "removed")
    if GHOUL_PRIEST_ALIVE in state.campaign_log:
        eng.add_card(GHOUL_PRIEST, SCENARIO_OWNER, "encounter")  # A991.7
    eng.shuffle("encounter")
    doom = starting_doom(len(known_got_away(state)))
    ag = current_agenda(state)
    if doom and ag >= 0:
        eng.set_counter(ag, "doom", doom)  # A991.5
    if ELDER_THING not in state.bag:  # A991.6: for the rest of the campaign
        state.bag.append(ELDER_THING)
        state.chaos_add_out.append(ELDER_THING)
    if PAST_MIDNIGHT in state.campaign_log:  # A991.8
        for s in player_order(state):
            for _ in range(2):
                hand = state.zones[Z_HAND[s]].cards
                if hand:
                    discard_card(eng, hand[eng.rng.randbelow(len(hand))])
    eng.emit("scenario_setup", data={"woods": keep, "doom": doom})


# ============================================================================ effects


def _enemies_in_play(state: ArkhamState) -> list[int]:
    out: list[int] = []
    zones = state.zones
    for zid in zone_ids(state, ENEMY_ZONE_PREFIXES):
        for c in zones[zid].cards:
            if is_enemy(state, c):
                out.append(c)
    out.sort()
    return out


def _madness_code(eng: Eng) -> str:
    pool: list[str] = list(extras().get("madness", ()))
    return pool[eng.rng.randbelow(len(pool))]


def effect(eng: Eng, seat: int, e: Effect, source: int, margin: int) -> None:
    """Resolve one of this scenario's effect ops (see the module docstring)."""
    state = eng.state
    op = e.op
    n = state.num_players
    if op == "cancel_move":  # Twisting Paths (A992.3)
        state.inv[seat].limits["move_cancelled"] = 1
    elif op == "advance_act_if":  # act 2 objective (A993.5)
        act = current_act(state)
        if act >= 0 and state.cards[act].code == e.code:
            eng.push(AdvanceAct())
    elif op == "refill_clues" and source >= 0:  # Ritual Site (A992.6)
        need = e.amount * n
        if state.cards[source].counters.get("clues", 0) < need:
            eng.set_counter(source, "clues", need)
            eng.emit("clues_placed", card=source, amount=need)
    elif op == "db_resolution":
        resolution(eng, e.code)
    elif op == "wrath_per_fail":  # Umôrdhoth's Wrath (A994.1)
        eng.push(*[Effects(seat=seat, effects=(Effect(op="wrath_point"),), source=source)
                   for _ in range(margin)])
    elif op == "wrath_point":
        if not state.zones[Z_HAND[seat]].cards:
            eng.push(Harm(seat=seat, damage=1, horror=1, source=source))
        else:
            eng.push(Effects(seat=seat, source=source, effects=(Effect(
                op="choose", codes=("Discard a card from your hand",
                                    "Take 1 damage and 1 horror"),
                on_success=(Effect(op="discard_chosen"),),
                on_fail=(Effect(op="harm_both", amount=1),)),)))
    elif op == "harm_both":
        eng.push(Harm(seat=seat, damage=e.amount, horror=e.amount, source=source))
    elif op == "discard_chosen":
        hand = state.zones[Z_HAND[seat]].cards
        if len(hand) == 1:
            discard_card(eng, hand[0])
        elif hand:
            eng.ask(seat, "discard_card", "Choose a card to discard",
                    [Option(key=f"card:{c}", label=dof(state, c).name, card=c) for c in hand],
                    resume=HandSizeAnswer(seats=[seat]))
    elif op == "discard_until_spawn":
        count = 2 if e.target == "two_if_3plus" and n >= 3 else 1
        _discard_until_spawn(eng, e.trait, e.code, e.amount, count)
    elif op == "madness_test":  # The Will of Umôrdhoth (A993.2)
        eng.push(*[Effects(seat=s, effects=(Effect(
            op="test", skill=e.skill, difficulty=e.difficulty,
            on_fail=(Effect(op="madness_card"),)),), source=source)
            for s in player_order(state)])
    elif op == "madness_card":
        code = _madness_code(eng)
        cid = eng.add_card(code, seat, Z_HAND[seat]).id
        state.deck_add.append(f"{seat}:{code}")
        eng.emit("weakness_added", player=seat, card=cid, code=code)
    elif op == "vengeance":
        _vengeance(eng, e.code, e.target)
    elif op == "spawn_got_away":  # Unveiling the Plan (A993.4)
        loc = location_by_code(state, e.code)
        if loc >= 0:
            known = known_got_away(state)
            for name in got_away(state):
                code = _resolve_cultist(name)
                if code not in known:  # unknown, not a cultist, or named again (A991.5)
                    if code not in KNOWN_CULTISTS:
                        eng.emit("spawn_failed", data={"name": name})
                    continue
                known.remove(code)
                cid = eng.add_card(code, SCENARIO_OWNER, "setaside").id
                _spawn_at_location(eng, cid, loc)
    elif op == "clue_on_act":  # act 3 (A993.6)
        act = current_act(state)
        if act >= 0:
            counters = eng.add_counter(act, "clues", 1).counters
            eng.emit("clue_on_act", player=seat, card=act, amount=counters["clues"])
            if counters["clues"] >= e.amount * n:
                eng.push(AdvanceAct())
    elif op == "search_madness":  # The Yellow Sign (A994.3)
        deck = state.zones[Z_DECK[seat]].cards
        found = next((c for c in deck if dof(state, c).is_weakness()
                      and "Madness" in _traits(dof(state, c))), -1)
        if found >= 0:
            eng.move(found, Z_HAND[seat], kind="drawn")
        eng.shuffle(Z_DECK[seat])
        if found >= 0:
            eng.push(ResolveEncounter(seat=seat, card=found))
    elif op == "heal_enemy_self" and source >= 0:  # Relentless Dark Young
        counters = state.cards[source].counters
        if counters.get("damage", 0):
            eng.set_counter(source, "damage", max(0, counters["damage"] - e.amount))
            eng.emit("enemy_healed", card=source, amount=e.amount)
    elif op == "doom_nearest_enemy":  # cultist token (A995.3)
        here = state.inv[seat].location
        dist = distances_from(state, here) if here >= 0 else {}
        best = sorted((dist.get(location_of(state, x), 999), x) for x in _enemies_in_play(state))
        if best:
            add_doom(eng, best[0][1], e.amount)
    elif op == "reveal_another_if":  # elder thing token (A995.4)
        if any(e.trait in _traits(dof(state, x)) for x in _enemies_in_play(state)):
            eng.push(RevealToken())


def _discard_until_spawn(eng: Eng, trait: str, loc_code: str, doom: int, count: int) -> None:
    """Shuffle the encounter discard pile into the deck, then discard from the top until
    ``count`` enemies (with ``trait`` if given) turn up; each spawns at ``loc_code`` with
    ``doom`` doom (A993.1, A993.5)."""
    state = eng.state
    loc = location_by_code(state, loc_code)
    for cid in list(state.zones["encounter_discard"].cards):
        eng.move(cid, "encounter")
    eng.shuffle("encounter")
    found: list[int] = []
    while len(found) < count and state.zones["encounter"].cards:
        cid = state.zones["encounter"].cards[0]
        d = dof(state, cid)
        if d.type_code == "enemy" and (not trait or trait in _traits(d)):
            found.append(cid)
            eng.move(cid, "resolving", kind="encounter_revealed")
            continue
        eng.move(cid, "encounter_discard", kind="discarded")
    _refill_encounter(eng)
    for cid in found:
        if loc < 0:
            discard_card(eng, cid)
            continue
        _spawn_at_location(eng, cid, loc)
        if doom:
            add_doom(eng, cid, doom)


def _vengeance(eng: Eng, enemy: str, loc_code: str) -> None:
    """Agenda 3's other side (A993.3): Umôrdhoth spawns at the Ritual Site, and one card
    (01145b) replaces both the act and the agenda deck."""
    state = eng.state
    act = current_act(state)
    at_act1 = act >= 0 and state.cards[act].code == "01146"
    loc = location_by_code(state, loc_code)
    if loc < 0:
        for cid in list(state.zones["setaside"].cards):
            if state.cards[cid].code == loc_code:
                eng.move(cid, "locations", kind="put_into_play")
                rebuild_adjacency(state)
                loc = cid
                break
    elif not at_act1:
        for eid in enemies_at(state, loc):
            discard_card(eng, eid)
    for cid in list(state.zones["acts"].cards) + list(state.zones["agendas"].cards):
        eng.move(cid, "out", kind="removed")
    boss = next((c for c in state.zones["setaside"].cards if state.cards[c].code == enemy), -1)
    if boss < 0:
        boss = eng.add_card(enemy, SCENARIO_OWNER, "setaside").id
    if loc >= 0:
        _spawn_at_location(eng, boss, loc)
    eng.add_card("01145b", SCENARIO_OWNER, "acts")
    eng.emit("decks_replaced", code="01145b")


def resolution(eng: Eng, code: str) -> None:
    """End with resolution ``code``: each investigator's trauma and, for R3, a random
    Madness weakness for each (A995.5–A995.7)."""
    state = eng.state
    x = extras()
    for s in range(state.num_players):
        for kind in x.get("trauma_each", {}).get(code, ()):
            state.extra_trauma.append(f"{s}:{kind}")
        if code in x.get("madness_each", ()):
            state.deck_add.append(f"{s}:{_madness_code(eng)}")
    end_with(eng, code)


def no_resolution(state: ArkhamState) -> bool:
    """Every investigator resigned or was defeated (A995.1): in this scenario each one is
    killed and the investigators lose. Returns whether the result is a loss even when
    someone resigned."""
    if state.scenario != CODE:
        return False
    for s in range(state.num_players):
        for kind in extras().get("trauma_each", {}).get("R-none", ()):
            state.extra_trauma.append(f"{s}:{kind}")
    return state.resolutions.get("R-none") == "loss"


# ============================================================================ hooks


def collect(eng: Eng, event: Event) -> list[Trigger]:
    """Forced "after it engages you" (Young Deep One) and "when it is defeated, each
    investigator at its location" (Goat Spawn) abilities (A994.5, A994.7)."""
    state = eng.state
    if event.card is None:
        return []
    if event.kind == "enemy_engaged" and event.player is not None:
        d = dof(state, event.card)
        if "after_engage" in d.forced:
            return [Trigger(id="", player=event.player, ability="forced:after_engage",
                            source=event.card, label=f"{d.name}: forced")]
    elif event.kind == "enemy_defeated":
        d = dof(state, event.card)
        if "defeated_here" in d.forced:
            loc = location_of(state, event.card)
            return [Trigger(id="", player=state.lead, ability=f"db:defeated_here:{loc}",
                            source=event.card, label=f"{d.name}: forced")]
    return []


def resolve(eng: Eng, trigger: Trigger) -> bool:
    """Resolve a trigger made by :func:`collect`; False when it is not one of ours."""
    if not trigger.ability.startswith("db:defeated_here:") or trigger.source is None:
        return False
    state = eng.state
    loc = int(trigger.ability.rsplit(":", 1)[1])
    fx = dof(state, trigger.source).forced["defeated_here"]
    if loc >= 0:
        eng.push(*[Effects(seat=s, effects=fx, source=trigger.source)
                   for s in seats_at(state, loc)])
    return True


def check_pool() -> list[str]:
    """Codes the scenario file names that are missing from the card pool (tests)."""
    x = extras()
    codes = list(x["woods"]) + list(x["encounter"]) + list(x.get("madness", ()))
    for cards in x["agents"].values():
        codes += cards
    pool = card_pool()
    return [c for c in codes if c not in pool]


#: The Devourer Below's hooks into the generic rules (:mod:`.scenario_hooks`).
DEVOURER_BELOW: Final = Scenario(code=CODE, name="The Devourer Below", setup=setup,
                                 location_revealed=identify_woods, no_resolution=no_resolution,
                                 ops=_OPS, effect=effect,
                                 trigger_kinds=frozenset({"enemy_engaged", "enemy_defeated"}),
                                 collect=collect, resolve=resolve)
