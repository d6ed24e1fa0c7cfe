"""Card identity as a seat sees it: sight epochs and per-viewer aliases.

Inside the engine a card is named by its instance id (its index in ``GameState.cards``,
which follows the order in which setup created the cards, i.e. deck-list order). A seat
never sees that id. It sees an **alias**: a keyed pseudo-random permutation of the pair
(instance id, *sight epoch*) under a key made from the match seed and the viewer:

* the **sight epoch** of a card for a viewer (seat ``0..n-1``, or ``n`` for a spectator)
  counts how often that viewer lost sight of the card: the engine bumps it whenever the
  card goes where the viewer cannot see it (into a hand or deck the viewer cannot look
  into, face down, or shown in an event and then left hidden). A card therefore gets a
  fresh alias for a viewer each time it comes back into that viewer's sight, and keeps
  its alias while it stays in sight (a seat follows its own hand, a front end follows a
  card moving between public zones);
* the permutation is a six-round Feistel network over 32 bits (16 bits of instance id,
  16 bits of epoch, which wrap) whose round functions are random byte tables drawn from
  SHAKE-256 keyed by the match seed and the viewer; it is injective, so two cards never
  share an alias for one viewer, and without the key an alias says nothing a seat can use
  about the instance id (nor about deck-list order). The key derives from the match seed,
  which already determines every shuffle of the match: whoever knows the seed knows the
  hidden cards anyway.

Aliases are a pure function of the state (seed and ``GameState.sight``), so saves,
replays and determinism are unchanged by them; they are computed only when a view, a
seat-facing choice or a seat-facing event is built, and memoised.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

import msgspec

from ._model import ALL_PLAYERS, CardInstance, Choice, Event, GameState, Option, Zone

__all__ = ["card_alias", "card_named", "seat_choice", "seat_event", "sight_epoch",
           "zone_alias"]

_replace = msgspec.structs.replace
_MAX_CARDS = 1 << 16


_ROUNDS = 6


@lru_cache(maxsize=4096)
def _round_tables(seed: int, viewer: int) -> tuple[tuple[bytes, bytes, bytes, bytes], ...]:
    """The round functions of ``viewer``'s permutation in matches of ``seed``: per round
    four random byte tables (256 entries each) cut from one SHAKE-256 output keyed by
    seed and viewer; a round maps a 16-bit half ``x`` (bytes ``lo``, ``hi``) to
    ``(A[lo] ^ B[hi]) | (C[lo] ^ D[hi]) << 8``."""
    raw = hashlib.shake_256(b"tcgcore.alias" + seed.to_bytes(8, "little")
                            + viewer.to_bytes(2, "little")).digest(_ROUNDS * 1024)
    return tuple((raw[r * 1024:r * 1024 + 256], raw[r * 1024 + 256:r * 1024 + 512],
                  raw[r * 1024 + 512:r * 1024 + 768], raw[r * 1024 + 768:r * 1024 + 1024])
                 for r in range(_ROUNDS))


#: memo of the permutation: (seed, viewer) -> {id << 16 | epoch: alias}; a pure function,
#: so a bounded memo shared by every match of one seed (and its clones) is safe
_MEMO: dict[tuple[int, int], dict[int, int]] = {}


def alias_table(seed: int, viewer: int) -> dict[int, int]:
    """The memo of ``viewer``'s aliases in matches of ``seed`` (see :func:`_alias`)."""
    table = _MEMO.get((seed, viewer))
    if table is None:
        if len(_MEMO) >= 512:
            _MEMO.clear()
        table = _MEMO[(seed, viewer)] = {}
    return table


def _permute(seed: int, viewer: int, card_id: int, epoch: int) -> int:
    """A Feistel network over (16-bit id, 16-bit epoch): a permutation of 32-bit words."""
    left, right = card_id & 0xFFFF, epoch & 0xFFFF
    for a, b, c, d in _round_tables(seed, viewer):
        lo, hi = right & 0xFF, right >> 8
        left, right = right, left ^ (a[lo] ^ b[hi]) ^ (c[lo] ^ d[hi]) << 8
    return left << 16 | right


def _alias(seed: int, viewer: int, card_id: int, epoch: int) -> int:
    """The alias of (``card_id``, ``epoch``) for ``viewer`` in a match of ``seed``."""
    table = alias_table(seed, viewer)
    slot = (card_id & 0xFFFF) << 16 | (epoch & 0xFFFF)
    alias = table.get(slot)
    if alias is None:
        if len(table) >= 1 << 16:
            table.clear()
        alias = table[slot] = _permute(seed, viewer, card_id, epoch)
    return alias


def _unalias(seed: int, viewer: int, alias: int) -> tuple[int, int]:
    """The (instance id, epoch) an alias stands for (the inverse permutation)."""
    left, right = alias >> 16 & 0xFFFF, alias & 0xFFFF
    for a, b, c, d in reversed(_round_tables(seed, viewer)):
        lo, hi = left & 0xFF, left >> 8
        left, right = right ^ (a[lo] ^ b[hi]) ^ (c[lo] ^ d[hi]) << 8, left
    return left, right


def _viewer_index(state: GameState[Any], viewer: int | None) -> int:
    return state.num_players if viewer is None else viewer


def sight_epoch(state: GameState[Any], card_id: int, viewer: int | None) -> int:
    """How many times ``viewer`` (``None``: a spectator) lost sight of a card so far."""
    width = state.num_players + 1
    i = card_id * width + _viewer_index(state, viewer)
    sight = state.sight
    return sight[i] if i < len(sight) else 0


def card_alias(state: GameState[Any], card_id: int, viewer: int | None) -> int:
    """The id ``viewer`` (a seat, or ``None`` for a spectator) sees for card ``card_id`` now.

    A non-negative int below ``2**32``; unique among the cards of the match for that
    viewer; it changes each time the viewer loses sight of the card (see the module text).
    Games use it in ``view_extra`` for any card id they put in a panel.

    Raises:
        ValueError: ``card_id`` is not below 65536 (the alias space holds 16 bits of id).
    """
    if not 0 <= card_id < _MAX_CARDS:
        raise ValueError(f"card instance id {card_id} is outside 0..{_MAX_CARDS - 1}")
    n = state.num_players
    v = n if viewer is None else viewer
    i = card_id * (n + 1) + v
    sight = state.sight
    epoch = sight[i] if i < len(sight) else 0
    table = _MEMO.get((state.seed, v))  # the memo's hit inline: panels call this per card
    if table is not None:
        got = table.get(card_id << 16 | (epoch & 0xFFFF))
        if got is not None:
            return got
    return _alias(state.seed, v, card_id, epoch)


def alias_at(state: GameState[Any], card_id: int, viewer: int | None,
             sight: tuple[int, ...] | None) -> int:
    """The alias of a card for ``viewer`` under the epochs ``sight`` an event recorded."""
    v = _viewer_index(state, viewer)
    epoch = sight[v] if sight is not None and v < len(sight) else 0
    return _alias(state.seed, v, card_id & 0xFFFF, epoch)


def lose_sight(state: GameState[Any], card_id: int, losers: int) -> None:
    """Bump the sight epoch of ``card_id`` for every viewer whose bit is set in ``losers``
    (bits ``0..n-1`` are seats, bit ``n`` the spectator)."""
    width = state.num_players + 1
    sight = state.sight
    base = card_id * width
    need = base + width
    if len(sight) < need:
        sight.extend([0] * (need - len(sight)))
    v = 0
    while losers and v < width:
        if losers & 1:
            sight[base + v] = (sight[base + v] + 1) & 0xFFFF
        losers >>= 1
        v += 1


def sight_snapshot(state: GameState[Any], card_id: int) -> tuple[int, ...] | None:
    """The card's epochs for every viewer now (``None`` when all are 0), for an event."""
    width = state.num_players + 1
    base = card_id * width
    sight = state.sight
    if base >= len(sight):
        return None
    return tuple(sight[base:base + width])


def _data_cards(state: GameState[Any], data: dict[str, Any], keys: frozenset[str],
                viewer: int | None, *, only_seen: bool) -> dict[str, Any]:
    """``data`` with the card ids under ``keys`` replaced by ``viewer``'s aliases (with
    ``only_seen``, a card the viewer cannot see now is left out: ``None``)."""
    out = dict(data)
    cards = state.cards
    for key in keys & data.keys():
        value = data[key]
        ids = [value] if type(value) is int else (
            [int(x) for x in value.split(",") if x.strip().lstrip("-").isdigit()]
            if type(value) is str else None)
        if ids is None:
            continue
        shown: list[int | None] = []
        for cid in ids:
            if not 0 <= cid < len(cards):
                shown.append(cid if cid < 0 else None)
                continue
            card = cards[cid]
            zone = state.zones.get(card.zone)
            if only_seen and (zone is None or not can_see(viewer, card, zone)):
                shown.append(None)
            else:
                shown.append(card_alias(state, cid, viewer))
        if type(value) is int:
            out[key] = shown[0]
        else:
            out[key] = ",".join(str(x) for x in shown if x is not None)
    return out


def can_see(viewer: int | None, card: CardInstance, zone: Zone) -> bool:
    """Whether ``viewer`` (``None``: a spectator) may identify ``card`` in ``zone``: nobody
    sees into a hidden zone, a face-down card is seen by its controller only, a face-up
    card in a public zone by everybody, in an owner zone by the zone's owner."""
    vis = zone.visibility
    if vis == "hidden":
        return False
    if card.face_down:
        return viewer is not None and viewer == card.controller
    return vis == "public" or (viewer is not None and viewer == zone.owner)


@lru_cache(maxsize=4096)
def zone_card(prefixes: tuple[str, ...], zone_id: str) -> int | None:
    """The card instance id a zone id ends in when it is one of ``prefixes`` followed by
    digits (``at.12`` -> 12 under ``("at.",)``), else ``None``."""
    for prefix in prefixes:
        if zone_id.startswith(prefix):
            rest = zone_id[len(prefix):]
            if rest.isdigit() and rest.isascii() and len(rest) <= 5:
                return int(rest)
    return None


def zone_alias(state: GameState[Any], zone_id: str, viewer: int | None,
               prefixes: tuple[str, ...]) -> str:
    """``zone_id`` as ``viewer`` sees it: a zone named after a card (a prefix of
    ``prefixes`` and an instance id) is named after the viewer's alias of that card
    (``at.12`` -> ``at.3054217789``); any other zone id is returned as it is."""
    cid = zone_card(prefixes, zone_id) if prefixes else None
    if cid is None or cid >= len(state.cards):
        return zone_id
    return zone_id[:len(zone_id) - len(str(cid))] + str(card_alias(state, cid, viewer))


def _card_ids(value: Any) -> list[int]:
    """The card ids a card data field holds: an int, or comma-separated ints as text."""
    if type(value) is int:
        return [value]
    if type(value) is str:
        return [int(x) for x in value.split(",") if x.strip().isdigit() and len(x) < 8]
    return []


def event_refs(state: GameState[Any], keys: frozenset[str], prefixes: tuple[str, ...],
               data: dict[str, Any] | None, src: str | None, dst: str | None
               ) -> tuple[tuple[str, int, int, tuple[int, ...]], ...] | None:
    """What an event must remember of the cards it names outside ``card`` (``Event.refs``):
    per card named in a ``data`` field of ``keys`` or by a ``src``/``dst`` zone id of
    ``prefixes``, the viewers that could identify it now and its sight epochs now."""
    named: list[tuple[str, int]] = []
    if data and keys:
        for key in keys & data.keys():
            named.extend((key, cid) for cid in _card_ids(data[key]))
    if prefixes:
        if src is not None and (cid := zone_card(prefixes, src)) is not None:
            named.append(("@src", cid))
        if dst is not None and (cid := zone_card(prefixes, dst)) is not None:
            named.append(("@dst", cid))
    if not named:
        return None
    cards = state.cards
    zones = state.zones
    n = state.num_players
    width = n + 1
    sight = state.sight
    out: list[tuple[str, int, int, tuple[int, ...]]] = []
    for where, cid in named:
        if not 0 <= cid < len(cards):
            continue
        card = cards[cid]
        zone = zones.get(card.zone)
        seen = 0
        if zone is not None:
            for v in range(width):
                if can_see(v if v < n else None, card, zone):
                    seen |= 1 << v
        base = cid * width
        epochs = tuple(sight[base:base + width]) if base < len(sight) else (0,) * width
        out.append((where, cid, seen, epochs))
    return tuple(out) if out else None


def _refs_for(state: GameState[Any], event: Event, viewer: int | None) -> dict[str, Any]:
    """The fields of ``event`` that name cards through ``refs``, as ``viewer`` reads them:
    card data fields by the viewer's alias of that moment (a card the viewer could not
    identify then: ``None``, or left out of a list), zone ids after the card's alias."""
    v = _viewer_index(state, viewer)
    seed = state.seed
    assert event.refs is not None
    data = dict(event.data)
    src, dst = event.src, event.dst
    lists: dict[str, list[str]] = {}
    for where, cid, seen, epochs in event.refs:
        alias = _alias(seed, v, cid, epochs[v] if v < len(epochs) else 0)
        if where == "@src" and src is not None:
            src = src[:len(src) - len(str(cid))] + str(alias)
        elif where == "@dst" and dst is not None:
            dst = dst[:len(dst) - len(str(cid))] + str(alias)
        elif type(event.data.get(where)) is int:
            data[where] = alias if seen >> v & 1 else None
        else:
            shown = lists.setdefault(where, [])
            if seen >> v & 1:
                shown.append(str(alias))
    for key in data:
        if key in lists:
            data[key] = ",".join(lists[key])
    return {"data": data, "src": src, "dst": dst, "refs": None}


def card_named(state: GameState[Any], number: int) -> int | None:
    """The card instance a number in a seat-facing event, view or choice names, for a
    front end's words (``describe_event``, ``render_panel``): an instance id (below the
    number of cards), or any viewer's alias of a card, present or from an earlier sight
    epoch of the card; ``None`` when it names none. It answers from the whole state, so
    only code that holds the state (in-process front ends) can use it."""
    cards = state.cards
    if 0 <= number < len(cards):
        return number
    if not 0 <= number < 1 << 32:
        return None
    for v in range(state.num_players + 1):
        cid, epoch = _unalias(state.seed, v, number)
        if cid < len(cards) and epoch <= sight_epoch(state, cid, v if v < state.num_players
                                                      else None):
            return cid
    return None


def seat_event(state: GameState[Any], event: Event, viewer: int | None) -> Event:
    """``event`` as ``viewer`` receives it: identity fields blanked unless the viewer may
    see them, the card named by the viewer's alias from when the event happened, the
    other cards it names (``refs``: card data fields, zones named after a card) by the
    viewer's aliases of that moment, and no internal sight record."""
    if event.refs is not None:
        event = _replace(event, **_refs_for(state, event, viewer))
    if not event.visible_to(viewer):
        if event.card is None and event.code is None and not event.secret \
                and event.sight is None:
            return event
        return _replace(event, card=None, code=None, secret={}, sight=None)
    card = event.card
    if card is None:
        return event if event.sight is None else _replace(event, sight=None)
    code = event.code
    if code is None and 0 <= card < len(state.cards):
        code = state.cards[card].code  # a front end names the card it is shown
    return _replace(event, card=alias_at(state, card, viewer, event.sight), code=code,
                    sight=None)


def _key_for(key: str, card: int, alias: int) -> str:
    """``key`` with the first ``:``-separated part that spells ``card`` replaced by
    ``alias`` (later parts are the game's other numbers: ``ignite:7:7``)."""
    token = str(card)
    if token not in key:
        return key
    parts = key.split(":")
    for i, part in enumerate(parts):
        if part == token:
            parts[i] = str(alias)
            return ":".join(parts)
    return key


def seat_choice(state: GameState[Any], viewer: int, card_keys: frozenset[str] = frozenset()
                ) -> tuple[Choice, dict[str, str]] | None:
    """The pending choice as ``viewer`` sees it, and its seat keys mapped to engine keys.

    ``None`` unless ``viewer`` must answer the pending choice. Every option's ``card`` is
    the viewer's alias, and in its key the first ``:``-separated part equal to the card's
    instance id is replaced by that alias (the rule every game keeps: a key names a card
    only as its option's ``card``); card ids in ``data`` fields named by ``card_keys``
    become aliases too. The choice is a fresh copy.
    """
    pending = state.pending
    if pending is None or pending.player != viewer:
        return None
    options: list[Option] = []
    keys: dict[str, str] = {}
    seed = state.seed
    width = state.num_players + 1
    sight = state.sight
    known = len(sight)
    table = alias_table(seed, viewer)
    for opt in pending.options:
        card = opt.card
        data = (_data_cards(state, opt.data, card_keys, viewer, only_seen=False)
                if card_keys else dict(opt.data)) if opt.data else {}
        if card is None:
            new = Option(key=opt.key, label=opt.label, data=data)
        else:
            i = card * width + viewer
            epoch = sight[i] if i < known else 0
            alias = table.get((card & 0xFFFF) << 16 | epoch)
            if alias is None:
                alias = _alias(seed, viewer, card, epoch)
            new = Option(key=_key_for(opt.key, card, alias), label=opt.label, card=alias,
                         data=data)
        if new.key in keys:  # an alias spelled like another option's key: keep the engine's
            new = _replace(new, key=opt.key)
        keys[new.key] = opt.key
        options.append(new)
    return (Choice(player=pending.player, kind=pending.kind, prompt=pending.prompt,
                   options=options, min=pending.min, max=pending.max, seq=pending.seq), keys)


#: every viewer bit of a match of ``n`` seats (seats and the spectator, bit ``n``)
def viewers_mask(n: int) -> int:
    """Bits ``0..n`` set: every seat and the spectator."""
    return (2 << n) - 1


assert ALL_PLAYERS == -1  # lose_sight masks rely on -1 having every viewer bit set
