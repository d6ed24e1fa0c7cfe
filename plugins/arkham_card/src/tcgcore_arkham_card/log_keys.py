"""Night of the Zealot campaign-log entries (A952.1, A952.3), in one place.

The Gathering writes the house and Ghoul Priest entries through its scenario file
(``data/scenario_01104.json``); The Midnight Masks writes the cultist lists, one entry per
member as the list's prefix followed by a card code, and "it is past midnight"; The
Devourer Below reads them. The strings are the log's wording, so a saved campaign file
keeps them as they are.
"""

from __future__ import annotations

__all__ = ["GOT_AWAY", "HOUSE_BURNED", "HOUSE_STANDING", "INTERROGATED", "PAST_MIDNIGHT",
           "PRIEST_ALIVE"]

#: The Gathering R2, R3 and no resolution: The Midnight Masks starts at Your House.
HOUSE_STANDING = "your house is still standing"
#: The Gathering R1: Your House is gone and The Midnight Masks starts at Rivertown.
HOUSE_BURNED = "your house has burned to the ground"
#: The Ghoul Priest is shuffled into both later encounter decks while this is not crossed out.
PRIEST_ALIVE = "the Ghoul Priest is still alive"
#: Prefix of each member of the list "Cultists We Interrogated" (followed by a card code).
INTERROGATED = "cultists we interrogated: "
#: Prefix of each member of the list "Cultists Who Got Away" (followed by a card code).
GOT_AWAY = "cultists who got away: "
#: The Midnight Masks R2: each investigator discards 2 random cards of the opening hand
#: in The Devourer Below.
PAST_MIDNIGHT = "it is past midnight"
