"""The heuristic investigator agent (``spec.agents["heuristic"]``, the default agent).

It decides from what its seat may know only, read through a :class:`tcgcore.SeatReader`
(the answers of ``match.view(seat)``, each computed when asked) — the public panel
(:func:`.plugin.view_extra`), the zones the seat may see (its own hand) and the printed card
definitions — never from hidden cards, deck order or the chaos bag's next token. Success
chances are estimated from the bag's public contents. Ties are broken in a fixed order (the
agent keeps its own seeded :class:`tcgcore.Rng` and never touches the match's), so a game is
reproducible from the match seed and the agent seed.

Plan, in order of priority on each action: advance the act when the clues are there;
resign when the final agenda is about to run out (or when close to defeat at a resign
location); deal with engaged enemies (fight when the chance and the payoff are good,
evade otherwise, and neither when both are hopeless); defeat the Ghoul Priest in act 3
(winning Lita Chantler over at the Parlor first when the parley has a fair chance);
play useful assets and events; investigate for clues; move toward clues (or to the act's
objective location when the group has the clues); otherwise draw or gain resources.
A fast ability that deals damage (Beat Cop) finishes an enemy worth it. In a team, a free
investigator who fights better takes on an enemy engaged with a teammate in trouble
(attacking it when a miss would not hurt the teammate much, A413.3, engaging it
otherwise) or walks up to two locations to help. Falling back to resign from the Ghoul
Priest is only tried with an action left to resign on arrival. Allies soak horror for an
investigator with 6 sanity or less; Lita Chantler never soaks harm unless the next point
would defeat her holder. In The Gathering's last act the lead burns the house
(Resolution 1): the group earns Lita Chantler (A216.2), whom The Devourer Below needs.

Symbol tokens are valued with the current scenario's reference card where it depends on
public facts (The Midnight Masks: doom on Cultists; The Devourer Below: Monsters in play,
and the Elder Thing's extra token while Umôrdhoth is in play), and enemies get The Ritual
Begins' +1 fight and evade.

The Midnight Masks (A98): parley where it is cheap (Peter Warren with 2 clues, Victoria
Devereux with 5 resources, Herman Collins with 4 cards), evade Ruth Turner (she is
interrogated) and The Masked Hunter while clues matter, spend clues on the act as soon as
the group can, attack Cultists here (doom carriers first), hunt cultists carrying 2 or
more doom, then unique cultists it can parley or beat, then gather clues; only useful
assets are played; it resigns only with the last action before midnight or when the next
attack would defeat it.

The Devourer Below (A99): never resign (it loses); gather Act 1's clues quickly, each
investigator walking to one fixed target (the best investigate chance less 0.15 per step,
enemies and entry tests such as Arkham Woods 01150 counted) so nobody ping-pongs through
the Main Path, and investigating Twisting Paths rather than fighting its exit test; play
Lita Chantler at once (saving resources for her), otherwise at most one weapon, booster or
ally a turn (never one that places doom, never one that would push Lita out); kill
doom-carrying enemies it can finish, heal at Quiet Glade, walk to the Ritual Site for Act
2 with two clues in hand while the agenda allows (a fragile investigator leaves the
entering, and Last Rites' enemies, to a sturdier teammate), use Act 3's action whenever it
has a clue (the better of willpower and agility; before fighting when one attack of
opportunity is survivable), investigate for Act 3's clues at any chance rather than idle,
take attacks of opportunity rather than trade hopeless blows while the ritual is at stake;
once Umôrdhoth is in play, Lita's holder brings her to it (Resolution 3), the others keep
away, and without Lita it is attacked.

Layout: :mod:`.loop` (the decision loop, :class:`HeuristicAgent`), :mod:`.tactics` (the
generic moves and what a decision may look at), :mod:`.plans` (one plan per scenario,
hooked into the loop), :mod:`.codes` (the card codes the plans name).
"""

from __future__ import annotations

from .loop import HeuristicAgent
from .tactics import success_chance

__all__ = ["HeuristicAgent", "success_chance"]
