"""Card identity in Arkham views and events: zones named after a location
(``at.<location>``) and cards named in event data (harm's source, the enemy entering,
the location left, the spawn location) reach each seat as its aliases
(``GameSpec.card_zone_prefixes``, ``GameSpec.card_data_keys``)."""

from __future__ import annotations

from typing import Any

import pytest
from tcgcore_arkham_card import plugin

import tcgcore
from tcgcore._identity import alias_at
from tcgcore.testing import ConformanceError, IdentityWatch


def _play_until(kinds: set[str], seed: int, players: int = 2, *, to_location: bool = False
                ) -> tuple[tcgcore.Match[Any], tcgcore.Event]:
    m = tcgcore.new_match("arkham_card", seed=seed, players=players)
    agent = tcgcore.RandomAgent(seed)
    seen = 0
    while m.result is None:
        for ev in m.events_since(seen, player="all"):
            if ev.kind in kinds and ev.refs and (
                    not to_location or (ev.dst or "").startswith("at.")):
                return m, ev
        seen = m.state.event_count
        choice = m.pending
        assert choice is not None
        m.choose(choice.player, agent.decide(m, choice))
    raise AssertionError(f"no {kinds} event in seed {seed}")


def _answer_until_locations(m: tcgcore.Match[Any]) -> None:
    """Answer the setup choices (mulligans) until the scenario's locations are out."""
    agent = tcgcore.RandomAgent(0)
    while not any(z.startswith("at.") for z in m.state.zones):
        choice = m.pending
        assert choice is not None and m.result is None
        m.choose(choice.player, agent.decide(m, choice))


def test_a_location_zone_is_named_after_the_viewers_alias() -> None:
    m = tcgcore.new_match("arkham_card", seed=3, players=2)
    _answer_until_locations(m)
    locations = [c for c in m.state.cards if f"at.{c.id}" in m.state.zones]
    assert locations
    for viewer in (0, 1, None):
        names = {z.id for z in m.view(viewer).zones}
        for loc in locations:
            assert f"at.{loc.id}" not in names
            assert f"at.{tcgcore.card_alias(m.state, loc.id, viewer)}" in names


def test_a_spawn_names_its_location_by_the_seats_alias() -> None:
    m, raw = _play_until({"spawned"}, 4)
    loc = raw.data["location"]
    assert type(loc) is int
    for viewer in (0, 1, None):
        (mine,) = [e for e in m.events_since(raw.seq, player=viewer) if e.seq == raw.seq]
        v = 2 if viewer is None else viewer
        (ref,) = [r for r in raw.refs or () if r[0] == "location"]
        want = alias_at(m.state, loc, viewer, ref[3]) if ref[2] >> v & 1 else None
        assert mine.data["location"] == want and want != loc
        if raw.dst == f"at.{loc}":  # (an enemy that engages at once goes to a threat area)
            assert mine.dst == f"at.{alias_at(m.state, loc, viewer, ref[3])}"


def test_a_moved_card_names_the_location_zone_by_the_seats_alias() -> None:
    m, raw = _play_until({"moved", "spawned", "disengaged", "enemy_moved", "attached"}, 5,
                         to_location=True)
    assert raw.dst is not None and raw.dst.startswith("at.")
    for viewer in (0, 1, None):
        (mine,) = [e for e in m.events_since(raw.seq, player=viewer) if e.seq == raw.seq]
        loc = int((raw.dst or "")[3:])
        assert mine.dst != raw.dst
        (ref,) = [r for r in raw.refs or () if r[0] == "@dst"]
        if tcgcore.card_alias(m.state, loc, viewer) == alias_at(m.state, loc, viewer, ref[3]):
            assert mine.dst in {z.id for z in m.view(viewer).zones}  # the view's name for it


def test_the_identity_watch_catches_a_zone_named_after_an_instance_id(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin.spec, "card_zone_prefixes", ())
    m = tcgcore.new_match("arkham_card", seed=3, players=2)
    _answer_until_locations(m)
    with pytest.raises(ConformanceError, match="card_zone_prefixes"):
        IdentityWatch(m).check()
