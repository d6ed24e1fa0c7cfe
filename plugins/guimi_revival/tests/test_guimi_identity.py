"""Card identity in Guimi events: cards named in event data (an attack's target, the
units that swap slots, the attack order) reach each seat as its aliases (the rule of
``GameSpec.card_data_keys``), and only when the seat could identify the card."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_guimi_revival import rules
from tcgcore_guimi_revival.testing import new_match, registry

import tcgcore
from tcgcore._identity import alias_at
from tcgcore.testing import ConformanceError, IdentityWatch


def _play_until(kind: str, seed: int) -> tuple[tcgcore.Match[Any], tcgcore.Event]:
    m = new_match(seed=seed)
    agent = tcgcore.RandomAgent(seed)
    while m.result is None:
        for ev in m.events_since(0, player="all"):
            if ev.kind == kind:
                return m, ev
        choice = m.pending
        assert choice is not None
        m.choose(choice.player, agent.decide(m, choice))
    raise AssertionError(f"no {kind} event in seed {seed}")


def _expected(m: tcgcore.Match[Any], raw: tcgcore.Event, key: str,
              viewer: int | None) -> list[int]:
    """The aliases ``viewer`` must see in ``raw.data[key]``: of the cards it could
    identify when the event happened, under their sight epochs of that moment."""
    v = m.state.num_players if viewer is None else viewer
    return [alias_at(m.state, cid, viewer, epochs)
            for where, cid, seen, epochs in raw.refs or () if where == key and seen >> v & 1]


def test_an_attack_target_is_named_by_each_seats_alias() -> None:
    m, raw = _play_until("attack_declared", 1)
    target = raw.data["target"]
    assert type(target) is int and raw.refs is not None
    for viewer in (0, 1, None):
        (mine,) = [e for e in m.events_since(0, player=viewer) if e.seq == raw.seq]
        assert mine.refs is None
        want = _expected(m, raw, "target", viewer)
        assert mine.data["target"] == (want[0] if want else None)
        assert mine.data["target"] != target


def test_the_attack_order_lists_the_seats_aliases() -> None:
    m, raw = _play_until("attack_order", 2)
    ids = {int(x) for x in str(raw.data["order"]).split(",") if x}
    for viewer in (0, 1, None):
        (mine,) = [e for e in m.events_since(0, player=viewer) if e.seq == raw.seq]
        shown = [int(x) for x in str(mine.data["order"]).split(",") if x]
        assert shown == _expected(m, raw, "order", viewer)
        assert not set(shown) & ids


def test_event_words_name_the_card_behind_an_alias() -> None:
    m, raw = _play_until("attack_declared", 1)
    (mine,) = [e for e in m.events_since(0, player=0) if e.seq == raw.seq]
    assert tcgcore.describe_event(m.spec, m.state, mine) == \
        tcgcore.describe_event(m.spec, m.state, raw)


def test_the_identity_watch_catches_an_unlisted_card_data_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules.spec, "card_data_keys", frozenset({"attacker", "support"}))
    with pytest.raises(ConformanceError, match="card_data_keys"):
        for seed in range(6):
            m = tcgcore.new_match("guimi_revival", seed=seed, registry=registry())
            watch = IdentityWatch(m)
            agent = tcgcore.RandomAgent(seed)
            while m.result is None:
                choice = m.pending
                assert choice is not None
                m.choose(choice.player, agent.decide(m, choice))
                watch.check()
