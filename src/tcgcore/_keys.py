"""Option keys: the one codec that builds and parses them.

An option key is a verb followed by ``:``-separated parts: ``end``, ``card:34``,
``play:34:0``, ``event:30:up``, ``code:hunter_b9``. A game builds every key with
:func:`option_key` (or :func:`card_option`, which also sets the option's ``card``) and reads
every answer as :class:`Key` values, which a resume handler registered with
:meth:`tcgcore.GameSpec.resumes` receives already parsed; no game code splits a key string.

The identity rule of views (``docs/architecture.md``, "Card identity in views") is kept by
construction: :func:`card_option` writes the card's instance id as the key's first part and
names it as the option's ``card``, which is what the seat-facing choice translates.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from ._errors import EngineError
from ._model import Option, Scalar

__all__ = ["KEY_SEPARATOR", "Key", "card_option", "option_key", "parse_key"]

#: what separates a key's verb and parts
KEY_SEPARATOR = ":"


class Key(msgspec.Struct, frozen=True, gc=False):
    """A parsed option key: ``play:34:0`` is ``Key("play", ("34", "0"))`` (immutable,
    compared by value).

    Attributes:
        verb: the first part (what the option does: ``"play"``, ``"card"``, ``"end"``).
        parts: the other parts, as text, in order.
    """

    verb: str
    parts: tuple[str, ...]

    def number(self, index: int = 0) -> int:
        """Part ``index`` (0 = the first after the verb) as an integer.

        Raises:
            EngineError: the key has no such part, or it is not a decimal integer.
        """
        try:
            text = self.parts[index]
        except IndexError:
            raise EngineError(f"option key {self.text_key()!r} has no part {index}") from None
        if not (text.isdecimal() or (text[:1] == "-" and text[1:].isdecimal())):
            raise EngineError(f"option key {self.text_key()!r}: part {index} ({text!r}) is "
                              "not an integer")
        return int(text)

    def text(self, index: int = 0) -> str:
        """Part ``index`` (0 = the first after the verb) as text.

        Raises:
            EngineError: the key has no such part.
        """
        try:
            return self.parts[index]
        except IndexError:
            raise EngineError(f"option key {self.text_key()!r} has no part {index}") from None

    @property
    def card(self) -> int:
        """The card instance id a :func:`card_option` key names (its first part).

        Raises:
            EngineError: the key has no first part or it is not an integer.
        """
        return self.number(0)

    def text_key(self) -> str:
        """The key as the string it was parsed from (:func:`option_key` of its parts)."""
        return KEY_SEPARATOR.join((self.verb, *self.parts))


def option_key(verb: str, *parts: int | str) -> str:
    """Build an option key: ``option_key("play", 34, 0) == "play:34:0"``.

    Args:
        verb: what the option does; non-empty, without ``:``.
        parts: integers (written in decimal) or text without ``:``.

    Raises:
        EngineError: an empty verb, or a verb or part containing ``:`` (it could not be
            parsed back), or a part that is neither an int nor a str.
    """
    if not verb or KEY_SEPARATOR in verb:
        raise EngineError(f"option key verb {verb!r} must be non-empty and contain no "
                          f"{KEY_SEPARATOR!r}")
    if not parts:
        return verb
    texts = [verb]
    for part in parts:
        if type(part) is int:
            texts.append(str(part))
        elif isinstance(part, str) and KEY_SEPARATOR not in part:
            texts.append(part)
        else:
            raise EngineError(f"option key {verb!r}: part {part!r} must be an int or a text "
                              f"without {KEY_SEPARATOR!r}")
    return KEY_SEPARATOR.join(texts)


def parse_key(key: str) -> Key:
    """Split an option key into its verb and parts (the inverse of :func:`option_key`):
    ``parse_key("event:30:up") == Key("event", ("30", "up"))``."""
    verb, *parts = key.split(KEY_SEPARATOR)
    return Key(verb, tuple(parts))


def card_option(verb: str, card: int, label: str, *parts: int | str,
                data: Mapping[str, Scalar] | None = None) -> Option:
    """An option about one card: key ``verb:<card>[:parts…]`` and ``Option.card`` set, so
    the seat-facing choice shows the card by the seat's alias (read it back with
    :attr:`Key.card`).

    Args:
        verb: what choosing the card does (``"card"``, ``"play"``).
        card: the card's instance id.
        label: the words a person sees (never an id).
        parts: further key parts after the card (a slot, a mode).
        data: extra facts for front ends and agents (card ids only under the names the
            game lists in ``GameSpec.card_data_keys``).

    Raises:
        EngineError: as :func:`option_key`.
    """
    if not parts and type(card) is int and verb and KEY_SEPARATOR not in verb:
        key = f"{verb}{KEY_SEPARATOR}{card}"  # the usual case, built without the loop
    else:
        key = option_key(verb, card, *parts)
    if data:
        return Option(key=key, label=label, card=card, data=dict(data))
    return Option(key=key, label=label, card=card)
