"""Fixed-shape encodings of views and options, for learning agents (``tcgcore.rl``).

A game may describe how a seat's :class:`tcgcore.View` becomes a fixed-length vector of
numbers (:class:`ObservationLayout`) and how the options of its choices map onto a fixed set
of action ids (:class:`ActionLayout`), through the optional ``GameSpec`` hooks
``observation_layout`` and ``action_layout``. Both are plain Python: a game needs no numpy,
and ``tcgcore.rl`` (the optional ``rl`` extra) turns them into arrays. A game without them
gets the generic encodings of ``tcgcore.rl``, built from zones, counts and card codes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._model import Option

__all__ = ["ActionLayout", "ObservationLayout"]


@dataclass(frozen=True)
class ObservationLayout:
    """A game's fixed-length encoding of one seat's view.

    Attributes:
        names: one name per feature (its length is the vector's length), for people
            reading a policy's weights.
        encode: ``encode(view) -> numbers``, exactly ``len(names)`` of them, computed from
            the :class:`tcgcore.View` alone (so it cannot see what the seat may not know),
            never from card instance ids (front ends may show them as per-viewer aliases).
        low, high: bounds of every feature; ``tcgcore.rl`` clips to them.
    """

    names: tuple[str, ...]
    encode: Callable[[View], Sequence[float]]
    low: float = -1.0
    high: float = 1.0


@dataclass(frozen=True)
class ActionLayout:
    """A game's fixed action space: option -> action id.

    Attributes:
        names: one name per action id (``len(names)`` ids, ``0..len(names)-1``).
        action_id: ``action_id(view, option) -> id or None`` for an option of
            ``view.pending`` (the seat's own choice, whose ``kind`` and option order the
            function may read). Options of one choice that get the same id are
            interchangeable: ``tcgcore.rl`` answers with the first of them. ``None``
            keeps an option out of the action space.
    """

    names: tuple[str, ...]
    action_id: Callable[[View, Option], int | None]


# Imported last, at run time too, so that typing.get_type_hints resolves the annotations.
from ._views import View  # noqa: E402
