"""The structs of a test scenario description (``docs/arkham_card/scenario-format.md``).

They live apart from ``scenario_setup.py``, which reads them, because that module is compiled in
the optional mypyc build and a compiled module may define no msgspec Struct (mypyc drops class
keywords such as ``kw_only=`` and ``forbid_unknown_fields=``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from .cards import TokenEffect


class _InvDesc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    code: str
    willpower: int | None = None
    intellect: int | None = None
    combat: int | None = None
    agility: int | None = None
    health: int | None = None
    sanity: int | None = None
    location: str = ""
    hand: list[str] = []
    deck: list[str] = []
    discard: list[str] = []
    assets: list[str | dict[str, Any]] = []
    threat: list[str | dict[str, Any]] = []
    resources: int = 5
    clues: int = 0
    damage: int = 0
    horror: int = 0


class _LocDesc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    code: str
    revealed: bool = True
    clues: int | None = None
    doom: int = 0
    connections: list[str] | None = None


class _EnemyDesc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    code: str
    location: str = ""
    engaged: int | None = None
    exhausted: bool = False
    damage: int = 0
    doom: int = 0
    owner: int | None = None


class Description(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A test scenario description (see ``docs/arkham_card/scenario-format.md``)."""

    investigators: list[_InvDesc]
    locations: list[_LocDesc]
    cards: list[dict[str, Any]] = []
    difficulty: str = "standard"
    enemies: list[_EnemyDesc] = []
    set_aside: list[str] = []
    acts: list[str] = msgspec.field(default_factory=lambda: ["t_act_none"])
    agendas: list[str] = msgspec.field(default_factory=lambda: ["t_agenda_long"])
    agenda_doom: int = 0
    encounter_deck: list[str] = []
    encounter_discard: list[str] = []
    victory: list[str] = []
    chaos_bag: list[str] | None = None
    tokens: list[str] = []
    token_effects: dict[str, TokenEffect] | None = None
    resolutions: dict[str, str] = msgspec.field(
        default_factory=lambda: {"R1": "win", "R2": "loss"})
    phase: str = "investigation"
    round: int = 1
    lead: int = 0
