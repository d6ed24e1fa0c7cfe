"""Named card codes the heuristic agent's plans look for (Night of the Zealot), by
scenario. Only the plans and these names mention card codes."""

from __future__ import annotations

# ---- every scenario
#: Lita Chantler, the story ally won at The Gathering's Parlor (A216.1-A216.2) whom The
#: Devourer Below's Resolution 3 needs (A994.6); kept alive and in her ally slot.
LITA_CHANTLER = "01117"

# ---- The Midnight Masks (01120, A98)
#: Act 1, Uncovering the Conspiracy: the scenario's only act (A983.2).
UNCOVERING_THE_CONSPIRACY = "01123"
#: Agenda 2, Time Is Running Short: midnight strikes when its doom runs out (A983.5).
TIME_IS_RUNNING_SHORT = "01122"
#: The Masked Hunter (agenda 1's back, A984.2).
THE_MASKED_HUNTER = "01121b"
#: The unique cultists and what parleying with them costs (A984.4-A984.6).
HERMAN_COLLINS = "01138"
PETER_WARREN = "01139"
VICTORIA_DEVEREUX = "01140"
RUTH_TURNER = "01141"

# ---- The Devourer Below (01142, A99)
#: Agenda 2, The Ritual Begins: every enemy +1 fight and +1 evade (A993.2).
THE_RITUAL_BEGINS = "01144"
#: Agenda 3, Vengeance Awaits, and its back (Umôrdhoth's side).
VENGEANCE_AWAITS = "01145"
THE_DEVOURER_BELOW_AGENDA = "01145b"
#: Acts 1-3.
INVESTIGATING_THE_TRAIL = "01146"
INTO_THE_DARKNESS = "01147"
DISRUPTING_THE_RITUAL = "01148"
#: Arkham Woods: Quiet Glade (heals), the Ritual Site (act 2's goal, A993.5) and Umôrdhoth.
QUIET_GLADE = "01155"
RITUAL_SITE = "01156"
UMORDHOTH = "01157"
#: the cards during which The Devourer Below's plan applies (resigning there loses, A995.1)
DEVOURER_BELOW_ACTS = (INVESTIGATING_THE_TRAIL, INTO_THE_DARKNESS, DISRUPTING_THE_RITUAL,
                       THE_DEVOURER_BELOW_AGENDA)
