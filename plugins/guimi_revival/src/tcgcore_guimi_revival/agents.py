"""Automatic players for Guimi Revival: ``random`` (the core's uniform agent) and ``heuristic``.

The heuristic plays to win. It climbs the sequences (plays the next potion, activates it,
promotes, sets the extra-deck cards in a useful order, gathers sequence-1 characteristics with
``converge`` and walks on to sequence 0 and the Great Old One), respects the rank gates, does the
support/intercept arithmetic of 095-096 before attacking or defending (a sure hit first; else an
attack the defender must intercept or lose, when the attacker is not needed to intercept a later
attacker, since a failed attack costs only the tap), and uses Source triggers and removal on the
biggest threat.

It decides only from what its seat may know, read through a :class:`tcgcore.SeatReader` (the
answers of ``match.view(seat)``, each computed when asked), the pending choice (whose options
carry the public facts of the attack in progress) and the card definitions of the match's
pool; it never looks at hidden cards. It is
deterministic: ties are broken by option order, and its seeded RNG is only used for the
mulligan's bottom order.
"""

from __future__ import annotations

from typing import Any

import tcgcore
from tcgcore import Choice, Match, Rng

from .cards import RANK_GATE, CardDef
from .seat_facts import Seen, agility

__all__ = ["HeuristicAgent", "make_heuristic", "make_random"]

#: reward / set_extra priority by extra kind (own-pathway cards first)
_EXTRA_ORDER = ("blasphemy_card", "blasphemy_slate", "uniqueness", "god", "grade0_own",
                "grade0_other", "source")


def make_random(seed: int) -> tcgcore.Agent:
    """The uniformly random agent (``tcgcore.RandomAgent``)."""
    return tcgcore.RandomAgent(seed)


def make_heuristic(seed: int) -> tcgcore.Agent:
    """A :class:`HeuristicAgent` with this seed."""
    return HeuristicAgent(seed)


def _op_of(choice: Choice) -> str:
    """The effect op (or Source id) a target choice is for, from its options' data."""
    for o in choice.options:
        op = o.data.get("op")
        if op is not None:
            return str(op)
    return ""


class HeuristicAgent:
    """A rules-aware player (see the module docstring). Deterministic for a given seed."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng.from_seed(seed)

    # ------------------------------------------------------------------ entry point

    def decide(self, match: Match[Any], choice: Choice) -> list[str]:
        """Answer ``choice`` for its seat: decided on what the seat may know (its
        :class:`tcgcore.SeatReader`), whose pending choice names cards by the seat's aliases
        as the view does, then translated back to the engine's keys
        (:meth:`tcgcore.Match.engine_keys`)."""
        seen = Seen(match, choice.player)
        shown = seen.reader.pending
        if shown is None:  # not this seat's choice
            return [o.key for o in choice.options[:max(choice.min, 1)]]
        answer = self._decide(seen, shown, match)
        engine = match.pending
        if engine is None or len(engine.options) != len(shown.options):
            return list(match.engine_keys(choice.player, answer))
        # the seat's options are the engine's, in the same order (Match.engine_keys
        # without building the seat's choice a second time)
        to_engine = {o.key: e.key for o, e in zip(shown.options, engine.options, strict=True)}
        return [to_engine.get(k, "\x00" + k) for k in answer]

    def _decide(self, seen: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        kind = choice.kind
        keys = [o.key for o in choice.options]
        handler = getattr(self, f"_{kind}", None)
        if handler is not None:
            answer: list[str] = handler(seen, choice, match)
            return answer
        if choice.min == 0:
            return []
        if "pass" in keys:
            return ["pass"]
        return [keys[0]]

    # ------------------------------------------------------------------ setup

    def _mulligan(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        out = []
        for o in choice.options:
            d = s.d(o.card)
            if d is None or d.rank is None:
                continue
            if RANK_GATE[d.rank] <= 4 and not d.is_potion:
                out.append(o.key)  # a high or angel card is dead weight for many turns
        return out[:3]

    # ------------------------------------------------------------------ promotion

    def _promotion(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        keys = [o.key for o in choice.options]
        if "ascend" in keys:
            return ["ascend"]
        promos = [k for k in keys if k.startswith("promote:")]
        me = s.players[s.seat]
        undigested = int(me.get("stack", 0)) - int(me.get("digested", 0))
        # with an undigested characteristic the attempt needs a check (085.1), and a failed
        # check wastes the characteristic: wait for the RB's next attack to digest it
        deck_ok = not s.late() or s.seq(s.seat) <= 3 or (
            int(me.get("deck", 0)) > int(s.players[s.opp].get("deck", 0)))
        if promos and undigested == 0 and deck_ok:
            return [promos[0]]
        return ["pass"]

    def _reward_order(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        return ["set_first"]

    def _extra_rank(self, s: Seen, cid: int | None) -> int:
        d = s.d(cid)
        if d is None or d.extra_kind is None:
            return 99
        kind: str = d.extra_kind
        if kind == "grade0_sealed_artifact":
            kind = "grade0_own" if d.pathway == s.rb_path(s.seat) else "grade0_other"
        return _EXTRA_ORDER.index(kind) if kind in _EXTRA_ORDER else 50

    def _reward_pick(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        best = min(choice.options, key=lambda o: self._extra_rank(s, o.card))
        return [best.key]

    # ------------------------------------------------------------------ main phase

    def _main_action(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        me = s.seat
        seq = s.seq(me)
        path = s.rb_path(me)
        sw_count = s.zone_size(f"spirit.{me}")
        by_verb: dict[str, list[tuple[str, int | None]]] = {}
        for o in choice.options:
            by_verb.setdefault(o.key.split(":")[0], []).append((o.key, o.card))
        opp_beyonders = s.beyonders(s.opp)
        my_slots = s.slots(me)
        status_fd = int(s.players[me].get("status_face_down", 0))
        deck_left = int(s.players[me].get("deck", 0))

        # 1. extra-deck activations (their conditions are checked by the rules)
        for key, _ in by_verb.get("extra", []):
            return [key]
        # 2. activate the potion we need next (or the one after, when there is room)
        for key, cid in by_verb.get("potion", []):
            d = s.d(cid)
            if d is not None and d.pathway == path and d.sequence is not None and (
                    d.sequence == seq - 1 or (d.sequence == seq - 2 and sw_count < 5)):
                return [key]
        # 3. sacrifice a sequence-(seq-1) Beyonder into the Spirit World when no potion is there
        need_char = not any(
            (sd := s.d(c)) is not None and sd.pathway == path and sd.sequence == seq - 1
            for c in s.ids(f"spirit.{me}"))
        # 4. plays from hand
        need_potion = not any(
            (sd := s.d(c)) is not None and sd.is_potion and sd.pathway == path
            and sd.sequence == seq - 1
            for c in s.ids(f"hand.{me}") + s.ids(f"spirit.{me}")
            + [x for x in my_slots if x is not None])
        potion_ritual = any(
            (sd := s.d(c)) is not None and sd.is_potion and sd.pathway == path
            and sd.sequence == seq - 1
            for c in s.ids(f"spirit.{me}") + [x for x in my_slots if x is not None])
        plays = by_verb.get("play", [])
        empty_slots = sum(1 for c in my_slots if c is None)
        potion_plays = []
        item_plays = []
        beyonder_plays = []
        for key, cid in plays:
            d = s.d(cid)
            if d is None:
                continue
            slot = int(key.split(":")[2])
            if d.is_potion:
                if d.pathway == path and d.sequence is not None and seq - 2 <= d.sequence < seq:
                    potion_plays.append((d.sequence, -slot, key))
                elif (d.pathway == path and d.sequence is not None and d.sequence < seq
                      and empty_slots >= 3):
                    potion_plays.append((d.sequence - 10, -slot, key))  # its ritual, later
            elif d.is_beyonder:
                beyonder_plays.append((-self._play_score(s, d, seq, path, need_char,
                                                         need_potion), slot, key))
            elif d.extra_kind in ("blasphemy_slate", "blasphemy_card"):
                # their rituals (083.3) are needed when the next characteristic is there but
                # no potion ritual is: play them just before the promotion (items can be
                # destroyed, 096)
                if 1 <= seq - 1 <= 5 and not need_char and not potion_ritual:
                    item_plays.append((0, -slot, key))
            elif d.extra_kind is not None:
                continue  # a God, Uniqueness, Source or artifact belongs in the Spirit World
            elif d.card_type == "item":
                item_plays.append((1, -slot, key))
        if potion_plays:
            return [max(potion_plays)[2]]  # the nearest sequence first, back slots first
        # events from hand
        ev = self._pick_event(s, by_verb.get("event", []), seq, path, status_fd, deck_left,
                              opp_beyonders)
        if ev is not None:
            return [ev]
        empty = sum(1 for c in my_slots if c is None)
        if item_plays and (empty >= 2 or not beyonder_plays):
            return [min(item_plays)[2]]
        # keep a slot free for the climb's items (potions, Blasphemy Card and Slate)
        climbing = seq > 1 and any(
            (hd := s.d(c)) is not None and ((hd.is_potion and hd.pathway == path
                                            and hd.sequence is not None and hd.sequence < seq)
                                            or hd.extra_kind is not None)
            for c in s.ids(f"hand.{me}"))
        if beyonder_plays and (empty >= 2 or not climbing):
            return [min(beyonder_plays)[2]]
        # set events that were set earlier
        for key, cid in by_verb.get("flip", []):
            d = s.d(cid)
            if d is not None and self._event_useful(s, d, seq, path, status_fd, deck_left,
                                                    opp_beyonders):
                return [key]
        # 5. ignition abilities (the RB's seek first: it feeds the next promotion)
        ignites = sorted(by_verb.get("ignite", []), key=lambda kc: 0 if (
            (d := s.d(kc[1])) is not None
            and d.abilities[int(kc[0].split(":")[2])].effects[0].op == "seek") else 1)
        for key, cid in ignites:
            d = s.d(cid)
            if d is None:
                continue
            idx = int(key.split(":")[2])
            ab = d.abilities[idx]
            if all(self._effect_useful(s, e.op, e.amount, seq, path, status_fd, deck_left,
                                       opp_beyonders, source=cid, need_char=need_char)
                   for e in ab.effects):
                return [key]
        return ["end"]

    def _play_score(self, s: Seen, d: CardDef, seq: int, path: str | None, need_char: bool,
                    need_potion: bool) -> int:
        """How much playing Beyonder ``d`` now is worth (strength, plus its uses on the
        climb: a search for the missing potion, a card that can become the next
        characteristic)."""
        score = d.strength // 100
        ops = {e.op for ab in d.abilities for e in ab.effects}
        if "search_potion" in ops and need_potion and not s.late():
            score += 30
        if "to_spirit" in ops and need_char and d.pathway == path and d.sequence == seq - 1:
            score += 25
        return score

    def _event_useful(self, s: Seen, d: CardDef, seq: int, path: str | None, status_fd: int,
                      deck_left: int, opp_beyonders: list[int]) -> bool:
        if d.event_kind == "continuous":
            return True
        return all(self._effect_useful(s, e.op, e.amount, seq, path, status_fd, deck_left,
                                       opp_beyonders) for ab in d.abilities for e in ab.effects)

    def _pick_event(self, s: Seen, events: list[tuple[str, int | None]], seq: int,
                    path: str | None, status_fd: int, deck_left: int,
                    opp_beyonders: list[int]) -> str | None:
        best: tuple[int, str] | None = None
        for key, cid in events:
            d = s.d(cid)
            if d is None:
                continue
            up = key.endswith(":up")
            if d.event_kind == "quick":
                score = 2 if not up else -1  # set quick events for the battle phase
            elif not up:
                continue
            elif any(e.op == "converge" for ab in d.abilities for e in ab.effects):
                score = 10 if seq <= 2 and self._effect_useful(
                    s, "converge", 1, seq, path, status_fd, deck_left, opp_beyonders) else -1
            elif d.event_kind == "continuous" and (
                    seq <= 3 or s.zone_size(f"spirit.{s.seat}") > 3):
                score = -1  # it would take a Spirit World place the climb needs (034.1)
            elif self._event_useful(s, d, seq, path, status_fd, deck_left, opp_beyonders):
                score = 5 if d.event_kind == "normal" else 4
            else:
                score = -1
            if score > 0 and (best is None or score > best[0]):
                best = (score, key)
        return best[1] if best is not None else None

    def _effect_useful(self, s: Seen, op: str, amount: int, seq: int, path: str | None,
                       status_fd: int, deck_left: int, opp_beyonders: list[int],
                       source: int | None = None, need_char: bool = False) -> bool:
        me = s.seat
        opp = s.players[s.opp]
        if op == "draw":  # every card drawn brings deck-out (133.1) nearer
            return deck_left > 10 + amount and deck_left > int(opp.get("deck", 0)) + 2 + amount
        if op in ("heal", "revive"):
            return status_fd > 0 or bool(s.players[me].get("dead"))
        if op in ("weaken", "tap_unit"):
            return any(not s.tapped(c) for c in opp_beyonders)
        if op in ("destroy_unit", "bounce"):
            return any(s.strength(c) <= amount for c in opp_beyonders)
        if op == "destroy_item":
            return any(c is not None and (d := s.d(c)) is not None and d.card_type == "item"
                       for c in s.slots(s.opp))
        if op == "destroy_event":
            return any((d := s.d(c)) is not None and d.card_type == "event"
                       for c in s.ids(f"spirit.{s.opp}"))
        if op in ("strength", "shield"):
            return bool(s.beyonders(me))
        if op == "untap":
            return any(s.tapped(c) for c in s.slots(me) if c is not None)
        if op == "madden":  # a mad RB cannot intercept; mad while dead loses (131.1)
            return not opp.get("mad")
        if op == "corrupt":
            return True
        if op == "to_spirit":
            d = s.d(source)
            return (need_char and d is not None and d.sequence == seq - 1
                    and s.zone_size(f"spirit.{me}") < 7)
        if op == "converge":
            return seq <= 2 and s.zone_size(f"spirit.{me}") < 7
        if op == "search_potion":
            return not s.late() and not any(
                (d := s.d(c)) is not None and d.is_potion and d.sequence == seq - 1
                for c in s.ids(f"hand.{me}") + [x for x in s.slots(me) if x is not None])
        if op == "search_beyonder":
            return (deck_left > int(opp.get("deck", 0)) + 2
                    and sum(1 for x in s.slots(me) if x is None) >= 2)
        if op == "set_extra":
            return s.zone_size(f"spirit.{me}") < 6
        if op == "recur":
            return True
        if op == "spirit_to_hand":
            return False
        if op == "seek":
            return need_char and seq >= 3 and deck_left > 4 and s.zone_size(
                f"spirit.{me}") < 7
        if op == "digest":
            me_p = s.players[me]
            return int(me_p.get("stack", 0)) > int(me_p.get("digested", 0))
        return True

    # ------------------------------------------------------------------ effects

    def _order_effects(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        return [choice.options[0].key]

    def _effect_target(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        op = _op_of(choice)
        me = s.seat
        opts = choice.options
        if op == "seek":  # the Underworld first: it costs no card of the main deck
            return [opts[0].key]
        if op in ("search_potion", "search_beyonder"):
            seq = s.seq(me)

            def score(code: str) -> tuple[int, int]:
                d = s.defs[code]
                sq = d.sequence if d.sequence is not None else 9
                if d.is_potion:
                    return (0 if sq < seq else 1, -(sq if sq < seq else -sq))
                gate = RANK_GATE[d.rank] if d.rank else 9
                return (0 if seq <= gate else 1, -d.strength)

            return [min(opts, key=lambda o: score(o.key.split(":", 1)[1])).key]
        if op == "set_extra":
            return [min(opts, key=lambda o: self._extra_rank(s, o.card)).key]
        if op == "converge":
            def where(o: Any) -> int:
                zone = s.where(o.card)
                return {"underworld": 0, "hand": 1}.get(zone.split(".")[0], 2)
            return [min(opts, key=where).key]
        if op in ("strength", "shield", "chaos_sea", "city_of_calamity", "brood_hive"):
            return [max(opts, key=lambda o: (not s.tapped(o.card or -1),
                                              s.strength(o.card or -1))).key]
        if op == "recur":
            def printed(o: Any) -> int:
                code = s.code(o.card)
                return s.defs[code].strength if code is not None else 0
            return [max(opts, key=printed).key]
        if op == "spirit_to_hand" or op == "sefirah_castle":
            seq = s.seq(me)

            def junk(o: Any) -> int:
                d = s.d(o.card)
                if d is None:
                    return 5
                if d.sequence is not None and d.sequence >= seq and d.extra_kind is None:
                    return 0  # a characteristic we have passed
                if d.card_type == "event":
                    return 1 if d.event_kind == "continuous" else 2
                if d.extra_kind in ("blasphemy_slate", "blasphemy_card"):
                    return 3
                if d.extra_kind is not None:
                    return 9  # needed face up in the Spirit World (088, 089)
                return 4
            return [min(opts, key=junk).key]
        # opponent targets: the strongest
        return [max(opts, key=lambda o: s.strength(o.card or -1)).key]

    _source_trigger = _effect_target

    # ------------------------------------------------------------------ battle

    def _quick_event(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        quick = [o for o in choice.options if o.key != "pass"]
        if not quick or not s.phase.startswith("battle"):
            return ["pass"]
        for o in quick:
            d = s.d(o.card)
            if d is None:
                continue
            if all(self._effect_useful(s, e.op, e.amount, s.seq(s.seat), s.rb_path(s.seat), 0,
                                       99, s.beyonders(s.opp))
                   for ab in d.abilities for e in ab.effects):
                return [o.key]
        return ["pass"]

    def _attack(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        me = s.seat
        attacker = next((int(str(o.data["attacker"])) for o in choice.options
                         if "attacker" in o.data), None)
        att = s.strength(attacker) if attacker is not None else 0
        support = sum(s.strength(c) for c in self._supporters(s))
        rb = s.rb(me)
        best: tuple[int, str] | None = None
        for o in choice.options:
            if o.key == "pass" or o.card is None:
                continue
            t = o.card
            d = s.d(t)
            if d is None:
                continue
            inter = s.interceptors(s.opp, t)
            if d.card_type == "item":
                defence = max((s.strength(c) for c in inter), default=0)
                value = att
                score = 30 if d.is_potion or d.extra_kind else 20
            else:
                defence = s.strength(t) + sum(s.strength(c) for c in inter)
                value = att + support
                score = 100 if d.card_type == "revival_beyonder" else 40 + s.strength(t) // 100
            if value >= defence and (best is None or score > best[0]):
                best = (score, o.key)
        if best is not None:
            return [best[1]]
        forcing = self._forcing_target(s, choice, attacker, att + support)
        if forcing is not None:
            return [forcing]
        undigested = int(s.players[me].get("stack", 0)) - int(s.players[me].get("digested", 0))
        deck_left = int(s.players[me].get("deck", 0))
        digester = any((d := s.d(c)) is not None and any(
            e.op == "digest" for ab in d.abilities for e in ab.effects)
            for c in s.slots(me) if c is not None)
        if attacker is not None and attacker == rb and (not s.late() or s.seq(me) <= 4) and (
                undigested > 1 or (undigested == 1 and not digester)
                or deck_left > int(s.players[s.opp].get("deck", 0)) + 4):
            # an RB attack still digests and makes an attack check (104, 101)
            for o in choice.options:
                d = s.d(o.card)
                if d is not None and d.card_type == "revival_beyonder":
                    return [o.key]
            return [choice.options[0].key]
        return ["pass"]

    def _forcing_target(self, s: Seen, choice: Choice, attacker: int | None,
                        value: int) -> str | None:
        """An attack that is no sure hit but costs nothing: a target that the defender must
        intercept or lose (its own strength, or an item's 0, is at most ``value``, 095.3,
        096.3), made when the attacker is not needed to intercept later this battle.

        A failed attack does nothing to the attacker (098.2 removes only hit units): its
        only cost is the tap, which keeps it from intercepting attacks that come after it
        in the attack order (094.3, 095.2). Without this, an attacker that counted every
        possible interceptor against itself passed as soon as the defending board was built
        up, and games ended by deck-out with both boards full. Forcing interceptions taps
        the defender's characters, which then cannot attack (094.2) nor intercept the next
        attacker. The RB forces only while the deck race (133.1) is not close, since its
        attack check (101.2) takes the top card of its own deck.
        """
        if attacker is None:
            return None
        me = s.seat
        if attacker == s.rb(me) and s.late():
            return None
        if self._later_attackers(s, attacker):
            return None
        best: tuple[int, str] | None = None
        for o in choice.options:
            if o.key == "pass" or o.card is None:
                continue
            d = s.d(o.card)
            if d is None:
                continue
            own = 0 if d.card_type == "item" else s.strength(o.card)
            if own > value:
                continue
            score = (100 if d.card_type == "revival_beyonder" else
                     30 if d.card_type == "item" else 40 + own // 100)
            if best is None or score > best[0]:
                best = (score, o.key)
        return best[1] if best is not None else None

    def _later_attackers(self, s: Seen, attacker: int) -> bool:
        """Whether ``attacker`` is needed to intercept later in this battle: an opposing
        character that may still attack after it (an untapped, non-mad front-row Beyonder
        card or RB whose agility is not above the attacker's, 093.1-093.3; a tie counts as
        later) could hit one of this seat's characters only once ``attacker`` is tapped
        (its value, with every untapped back-row supporter of its side, reaches the
        character's defence without ``attacker`` but not with it, 095.3)."""
        mine = agility(s, attacker)
        me, opp = s.seat, s.opp
        rivals = [c for c in s.slots(opp)[:2] if c is not None]
        rb = s.rb(opp)
        if rb is not None and not s.mad(opp):
            rivals.append(rb)
        their_support = sum(s.strength(c) for c in s.slots(opp)[2:] if c is not None
                            and (d := s.d(c)) is not None and d.is_beyonder
                            and not s.tapped(c) and not s.counters(c).get("mad"))
        mine_rb = s.rb(me)
        targets = [c for c in s.slots(me)[:2] if c is not None and c != attacker]
        if mine_rb is not None and mine_rb != attacker:
            targets.append(mine_rb)
        help_ = s.strength(attacker)
        for c in rivals:
            d = s.d(c)
            if (d is None or d.card_type == "item" or s.tapped(c)
                    or s.counters(c).get("mad") or agility(s, c) > mine):
                continue
            value = s.strength(c) + their_support
            for t in targets:
                td = s.d(t)
                if td is None or not (td.is_beyonder or td.card_type == "revival_beyonder"):
                    continue
                without = s.strength(t) + sum(s.strength(i) for i in s.interceptors(me, t)
                                              if i != attacker)
                if without <= value < without + help_:
                    return True
        return False

    def _supporters(self, s: Seen) -> list[int]:
        back = s.slots(s.seat)[2:]
        out = []
        for c in back:
            d = s.d(c)
            if (c is not None and d is not None and d.is_beyonder and not s.tapped(c)
                    and not s.counters(c).get("mad")):  # 112.7
                out.append(c)
        return out

    def _support(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        info = choice.options[0].data
        attacker, target = int(str(info["attacker"])), int(str(info["target"]))
        need = s.strength(target) + sum(s.strength(c) for c in s.interceptors(s.opp, target))
        have = s.strength(attacker)
        if have >= need:
            return []
        picked = []
        for o in sorted(choice.options, key=lambda o: -s.strength(o.card or -1)):
            picked.append(o.key)
            have += s.strength(o.card or -1)
            if have >= need:
                return picked
        return []

    def _intercept(self, s: Seen, choice: Choice, match: Match[Any]) -> list[str]:
        info = choice.options[0].data
        attacker, target = int(str(info["attacker"])), int(str(info["target"]))
        supporters = [int(x) for x in str(info.get("support", "")).split(",") if x]
        value = s.strength(attacker) + sum(s.strength(c) for c in supporters)
        td = s.d(target)
        is_item = td is not None and td.card_type == "item"
        base = 0 if is_item else s.strength(target)
        if base > value:
            return []
        rb = s.rb(s.seat)
        # cheapest useful interceptors: back row, then front row, then the RB
        slots = s.slots(s.seat)

        def cost(o: Any) -> tuple[int, int]:
            c = o.card
            if c == rb:
                return (2, 0)
            return (0 if c in slots[2:] else 1, s.strength(c or -1))

        if is_item:
            for o in sorted(choice.options, key=cost):
                if s.strength(o.card or -1) > value:
                    return [o.key]
            return []
        worth = target == rb or (td is not None and (td.strength >= 700 or td.is_beyonder))
        if not worth:
            return []
        picked = []
        total = base
        for o in sorted(choice.options, key=cost):
            picked.append(o.key)
            total += s.strength(o.card or -1)
            if total > value:
                return picked
        return []
