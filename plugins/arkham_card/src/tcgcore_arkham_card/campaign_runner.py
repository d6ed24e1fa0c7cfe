"""Playing a campaign scenario after scenario (rules A980): AI or human seats, the
campaign log carried over, a readable summary after each scenario, the deck upgrade
step, a state file saved after each scenario, and ArkhamDB deck export at the end.

``tcgcore campaign arkham_card night_of_the_zealot --deck roland [--deck FILE …]`` runs
:func:`run_campaign_cli` (the game's ``campaign_runner`` hook).

Night of the Zealot plays The Gathering (01104), The Midnight Masks (01120) and The
Devourer Below (01142), in that order (:data:`CAMPAIGNS`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

import tcgcore

from .agent import HeuristicAgent
from .campaign import (
    Campaign,
    CampaignInvestigator,
    available_investigators,
    buy_card,
    check_lost,
    record_scenario,
    replace_investigator,
    scenario_options,
)
from .campaign_tools import (
    _purchases,
    _removable,
    export_deck,
    load_campaign_file,
    save_campaign,
    upgrade_policy,
)
from .cards import card_pool, load_scenario
from .decks import STARTERS, deck_codes, load_deck, starter_deck

__all__ = ["CAMPAIGNS", "MISSING", "SaveRequested", "TextAgent", "run_campaign",
           "run_campaign_cli", "start_campaign"]

#: The scenarios of each campaign, in order (A980.2).
CAMPAIGNS: dict[str, tuple[str, ...]] = {"night_of_the_zealot": ("01104", "01120", "01142")}
#: Scenarios of each campaign not implemented yet (named in the summary; none left).
MISSING: dict[str, tuple[str, ...]] = {"night_of_the_zealot": ()}


class SaveRequested(Exception):
    """A person typed ``save [FILE]`` during a scenario, or their input ended (A980.6).

    Attributes:
        path: the file named after ``save``, or ``None`` for the ``--save`` file.
    """

    def __init__(self, path: Path | None = None) -> None:
        super().__init__(str(path or ""))
        self.path = path


_HELP = ("Answer with option numbers or keys separated by spaces (an empty line chooses "
         "nothing where that is allowed). Commands: 'board' shows your board again, "
         "'save [FILE]' saves the campaign with this scenario in progress and stops "
         "(resume with --resume FILE), 'help' shows this.")


class TextAgent:
    """A person at the terminal: before each decision, the events since the seat's last
    decision and its board; then the choice with numbered options. An answer is option
    numbers or keys separated by spaces; anything else is explained and asked again.
    ``save [FILE]`` during a scenario saves the campaign with the scenario in progress and
    stops; so does the end of the input when the campaign has a save file."""

    def __init__(self, out: TextIO, inp: TextIO, *, log_tail: int = 15) -> None:
        self.out = out
        self.inp = inp
        self.can_save = False
        self.log_tail = log_tail
        self._seen: dict[tuple[int, int], int] = {}  # (match id, seat) -> events shown
        self._board: list[str] = []

    def decide(self, match: tcgcore.Match[Any], choice: tcgcore.Choice) -> list[str]:
        """Show the seat what happened since its last decision (events redacted for it)
        and its board (:func:`tcgcore.render_board` of its view), then ask until the
        answer is a legal selection."""
        seat = choice.player
        key = (id(match), seat)
        since = self._seen.get(key, match.state.event_count
                               - len(match.events_since(0, player="all")))
        events = match.events_since(since, player=seat)
        if len(events) > self.log_tail:
            self.out.write(f"… {len(events) - self.log_tail} earlier event(s)\n")
            events = events[-self.log_tail:]
        for ev in events:
            self.out.write(f"  * {tcgcore.describe_event(match.spec, match.state, ev)}\n")
        self._seen[key] = match.state.event_count
        self._board = tcgcore.render_board(match.spec, match.view(seat))
        for line in self._board:
            self.out.write(line + "\n")
        shown = match.seat_choice(seat)  # the seat's keys: cards named as its view does
        try:
            keys = self.ask(shown if shown is not None else choice, in_match=True)
            return list(match.engine_keys(seat, keys)) if shown is not None else keys
        finally:
            self._board = []

    def ask(self, choice: tcgcore.Choice, *, in_match: bool = False) -> list[str]:
        """Print ``choice`` and read a legal selection (``in_match``: a match decision,
        where ``save`` is allowed).

        Raises:
            SaveRequested: ``save`` during a match, or the input ended while the campaign
                has a save file.
            tcgcore.OptionsError: the input ended with nothing to save to, or 100 answers
                in a row were not legal.
        """
        for _ in range(100):
            self.out.write(f"\n[seat {choice.player}] {choice.prompt}\n")
            for i, o in enumerate(choice.options):
                self.out.write(f"  {i + 1}. {o.label}\n")
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                if in_match and self.can_save:
                    raise SaveRequested  # keep what was played
                raise tcgcore.OptionsError("arkham_card: input ended during the campaign")
            words = line.split()
            if words[:1] == ["help"]:
                self.out.write(_HELP + "\n")
                continue
            if words[:1] == ["board"]:
                self.out.write("\n".join(self._board or ["(no board outside a scenario)"])
                               + "\n")
                continue
            if words[:1] == ["save"]:
                if not in_match:
                    self.out.write("saving is possible during a scenario's decisions; the "
                                   "campaign file is written after this step anyway\n")
                elif len(words) > 1:
                    path = Path(" ".join(words[1:]))
                    problem = _unwritable(path)
                    if not problem:
                        raise SaveRequested(path)
                    self.out.write(f"cannot save to {path}: {problem}\n")
                elif self.can_save:
                    raise SaveRequested
                else:
                    self.out.write("no campaign file: type 'save FILE'\n")
                continue
            picked: list[str] = []
            bad = ""
            for word in words:
                if word.isdigit() and 1 <= int(word) <= len(choice.options):
                    picked.append(choice.options[int(word) - 1].key)
                elif word in choice.keys:
                    picked.append(word)
                else:
                    bad = word
                    break
            if bad:
                self.out.write(f"not accepted: {bad!r} is neither an option number "
                               f"(1-{len(choice.options)}) nor an option key; type 'help'\n")
                continue
            if len(set(picked)) != len(picked):
                self.out.write("not accepted: an option is named twice\n")
                continue
            if choice.min <= len(picked) <= choice.max:
                return picked
            self.out.write(f"not accepted: choose {choice.min} to {choice.max} option(s)\n")
        raise tcgcore.OptionsError("arkham_card: no legal answer given")


def start_campaign(decks: list[str], *, difficulty: str = "standard",
                   seed: int = 1) -> Campaign:
    """A new campaign from deck values (starter names or ArkhamDB JSON text); each
    ``01000`` becomes a basic weakness drawn once, with ``seed`` (A980.1)."""
    rng = tcgcore.Rng.from_seed(seed)
    invs = []
    pool = card_pool()
    for i, value in enumerate(decks):
        deck = load_deck(value, f"deck {i + 1}")
        codes = deck_codes(deck, rng)
        levelled = sorted({c for c in codes if (pool[c].xp or 0) > 0})
        if levelled:  # a new campaign starts with level-0 decks and 0 experience (A980.9)
            raise tcgcore.DeckError(
                f"arkham_card: deck {i + 1} ({pool[deck.investigator].name})",
                [f"{pool[c].name} ({c}) is level {pool[c].xp}: a new campaign starts with "
                 "level-0 cards only" for c in levelled])
        invs.append(CampaignInvestigator(code=deck.investigator, deck=codes))
    if len({i.code for i in invs}) != len(invs) or not 1 <= len(invs) <= 4:
        raise tcgcore.OptionsError("arkham_card: 1 to 4 decks of different investigators")
    return Campaign(difficulty=difficulty, investigators=invs)


def _replace_retired(camp: Campaign, seed: int) -> Campaign:
    """A killed or insane investigator is replaced by the first unused core investigator
    with its starter deck (A954.2); none left: the campaign is lost (A954.3)."""
    for seat, inv in enumerate(camp.investigators):
        if not (inv.killed or inv.insane):
            continue
        free = [c for c in available_investigators(camp) if c in STARTERS]
        if not free:
            return check_lost(camp)
        deck = deck_codes(starter_deck(free[0]), tcgcore.Rng.from_seed(seed + seat))
        camp = replace_investigator(camp, seat, free[0], deck)
    return camp


def _summary(camp: Campaign, code: str, result: tcgcore.Result, out: TextIO) -> None:
    pool = card_pool()
    res = result.detail.get("resolution", "R-none")
    res = "none (no resolution)" if res == "R-none" else res
    out.write(f"\n=== {load_scenario(code).name}: resolution {res} "
              f"({result.detail.get('outcome', '')}) ===\n")
    out.write(f"victory display: {result.detail.get('victory', 0)}\n")
    for inv in camp.investigators:
        state = "killed" if inv.killed else "insane" if inv.insane else "active"
        out.write(f"  {pool[inv.code].name}: {inv.xp} experience, trauma "
                  f"{inv.physical} physical / {inv.mental} mental, {state}"
                  + (f", story: {', '.join(pool[s].name for s in inv.story)}"
                     if inv.story else "") + "\n")
    live = [_log_line(e) for e in camp.log if e not in camp.crossed]
    out.write("campaign log: " + ("; ".join(live) if live else "(empty)") + "\n")


def _story_choices(before: Campaign, after: Campaign, humans: frozenset[int],
                   agent: TextAgent) -> Campaign:
    """A story asset earned by a resolution (Lita Chantler) may be declined (A980.5): a
    human seat answers a choice, an AI seat keeps it."""
    pool = card_pool()
    for seat, inv in enumerate(after.investigators):
        new = [c for c in inv.story if c not in before.investigators[seat].story]
        for code in new:
            if seat not in humans:
                continue
            choice = tcgcore.Choice(
                player=seat, kind="story_asset",
                prompt=f"{pool[inv.code].name} earns {pool[code].name}: add it to the deck?",
                options=[tcgcore.Option(key="keep", label=f"Add {pool[code].name}"),
                         tcgcore.Option(key="decline", label="Decline")])
            if agent.ask(choice) == ["decline"]:
                inv.story.remove(code)
    return after


def _human_upgrades(camp: Campaign, seat: int, agent: TextAgent) -> Campaign:
    pool = card_pool()
    for _ in range(40):
        inv = camp.investigators[seat]
        buys = [p for p in _purchases(camp, seat) if p[1] <= inv.xp]
        if not buys or inv.killed or inv.insane:
            return camp
        opts = [tcgcore.Option(key="done", label="Keep the deck")]
        for i, (_, cost, add, remove) in enumerate(buys):
            what = f"upgrade to {pool[add].name} ({add})" if remove is None else \
                f"buy {pool[add].name} ({add})"
            opts.append(tcgcore.Option(key=f"buy{i}", label=f"{what}, {cost} xp"))
        choice = tcgcore.Choice(player=seat, kind="upgrade", options=opts,
                                prompt=f"{pool[inv.code].name}: {inv.xp} experience to spend")
        key = agent.ask(choice)[0]
        if key == "done":
            return camp
        _, _, add, remove = buys[int(key[3:])]
        if remove is not None:
            remove = _choose_removal(camp, seat, add, remove, agent)
        camp = buy_card(camp, seat, add, remove)
    return camp


def _choose_removal(camp: Campaign, seat: int, add: str, suggested: str,
                    agent: TextAgent) -> str:
    """A new card needs a card to leave the deck (A956.3): the person picks any card that
    may be removed (not a weakness, signature or story card, A956.4), the policy's
    suggestion first."""
    pool = card_pool()
    inv = camp.investigators[seat]
    idef = pool[inv.code]
    codes = sorted({c for c in inv.deck if c in pool and _removable(idef, pool[c], c)},
                   key=lambda c: (c != suggested, pool[c].name, c))
    opts = [tcgcore.Option(key=f"out:{c}", label=f"{pool[c].name} ({c}, level "
                                                 f"{pool[c].xp or 0})") for c in codes]
    choice = tcgcore.Choice(player=seat, kind="upgrade_removal", options=opts,
                            prompt=f"{pool[add].name} comes in: which card leaves the deck?")
    return agent.ask(choice)[0][4:]


def _check_resumed(match: tcgcore.Match[Any], camp: Campaign, code: str) -> None:
    """A scenario in progress in a campaign file must be the next scenario, played by the
    campaign's investigators (A979.1).

    Raises:
        tcgcore.OptionsError: naming the mismatch.
    """
    scenario = match.options.get("scenario")
    if scenario != code:
        raise tcgcore.OptionsError(f"arkham_card: bad campaign file: the scenario in progress "
                                   f"is {scenario!r}, but the next scenario is {code!r}")
    invs = [i.code for i in camp.investigators]
    if match.options.get("investigators") != invs:
        raise tcgcore.OptionsError("arkham_card: bad campaign file: the scenario in progress "
                                   "is played by other investigators than the campaign's")


def _final_scenario(code: str) -> str:
    """The last scenario of the campaign ``code`` belongs to (``""`` if none)."""
    for scenarios in CAMPAIGNS.values():
        if code in scenarios:
            return scenarios[-1]
    return ""


def run_campaign(camp: Campaign, remaining: list[str], *, seed: int = 1,
                 humans: frozenset[int] = frozenset(), out: TextIO, inp: TextIO,
                 save: Path | None = None, max_decisions: int = 5000,
                 stop_after: int | None = None,
                 match_json: str = "") -> tuple[Campaign, list[tuple[str, str]]]:
    """Play ``remaining`` scenarios in order (A980.2).

    ``match_json`` continues a scenario in progress (the first of ``remaining``);
    ``stop_after`` stops the current scenario after that many decisions and, with
    ``save``, writes it into the state file (A980.6).

    Returns:
        The campaign afterwards and ``(scenario, resolution)`` for each scenario played.
    """
    played: list[tuple[str, str]] = []
    text = TextAgent(out, inp)
    text.can_save = save is not None
    todo = list(remaining)
    while todo and not camp.lost:
        code = todo[0]
        if match_json:  # a scenario in progress (A980.6)
            match = tcgcore.Match.from_json(match_json, game="arkham_card")
            match_json = ""
            _check_resumed(match, camp, code)
        else:
            before = camp
            camp = _replace_retired(camp, seed + 97 * len(camp.played))
            _say_replacements(before, camp, out)
            if camp.lost:
                break
            match = tcgcore.new_match("arkham_card", seed=seed + len(camp.played),
                                      players=len(camp.investigators),
                                      **scenario_options(camp, code))
        n = len(camp.investigators)
        agents: dict[int, tcgcore.Agent] = {
            s: (text if s in humans else HeuristicAgent(seed * 31 + s + len(match.decisions)))
            for s in range(n)}
        limit = max_decisions if stop_after is None else min(max_decisions, stop_after)
        target = save
        try:
            tcgcore.play_out(match, agents, max_decisions=limit)
        except SaveRequested as req:
            stop_after = 0
            target = req.path or save
        result = match.result
        if result is None and stop_after is not None and target is not None:
            target.write_bytes(save_campaign(camp, todo, match.to_json().decode(), seed=seed,
                                             humans=sorted(humans)))
            out.write(f"stopped during {load_scenario(code).name}; campaign saved to {target} "
                      f"(continue with: tcgcore campaign arkham_card night_of_the_zealot "
                      f"--resume {target} --save {target})\n")
            return camp, played
        if result is None:
            raise tcgcore.EngineError(f"arkham_card: {code} did not finish in "
                                      f"{limit} decisions")
        before = camp
        camp = record_scenario(camp, result, scenario=code)
        camp = _story_choices(before, camp, humans, text)
        camp = check_lost(camp)
        todo.pop(0)
        if not todo and result.detail.get("outcome") == "loss" and \
                code == _final_scenario(code):
            camp.lost = True  # the campaign's last scenario was lost (A980.8)
        played.append((code, str(result.detail.get("resolution", "R-none"))))
        _summary(camp, code, result, out)
        for s in range(n):  # the upgrade step (A980.3)
            before = camp
            camp = _human_upgrades(camp, s, text) if s in humans else upgrade_policy(camp, s)
            _say_purchases(before, camp, s, out)
        if save is not None:
            save.write_bytes(save_campaign(camp, todo, seed=seed, humans=sorted(humans)))
            out.write(f"campaign saved to {save}\n")
    return camp, played


def _say_replacements(before: Campaign, after: Campaign, out: TextIO) -> None:
    """Name each killed or insane investigator and who takes the seat (A954.2)."""
    pool = card_pool()
    for s, (old, new) in enumerate(zip(before.investigators, after.investigators,
                                       strict=True)):
        if old.code != new.code:
            fate = "was killed" if old.killed else "went insane"
            out.write(f"{pool[old.code].name} {fate}; {pool[new.code].name} (starter deck) "
                      f"takes seat {s}\n")


def _say_purchases(before: Campaign, after: Campaign, seat: int, out: TextIO) -> None:
    """List what the upgrade step added to and removed from a seat's deck (A980.3)."""
    pool = card_pool()
    old, new = before.investigators[seat], after.investigators[seat]
    added, removed = list(new.deck), list(old.deck)
    for code in old.deck:
        if code in added:
            added.remove(code)
            removed.remove(code)
    if not added and not removed:
        return
    spent = old.xp - new.xp
    out.write(f"  {pool[new.code].name} spends {spent} experience: "
              + ", ".join([f"+{pool[c].name} ({c})" for c in added]
                          + [f"-{pool[c].name} ({c})" for c in removed]) + "\n")


def _log_line(entry: str) -> str:
    """A campaign-log entry for people: list members named, not coded (A952.3)."""
    prefix, sep, code = entry.rpartition(": ")
    d = card_pool().get(code) if sep else None
    return f"{prefix}: {d.name}" if d is not None else entry


def _unwritable(path: Path) -> str:
    """Why a file cannot be written at ``path`` (``""`` when it can, as far as one can tell
    without writing it)."""
    if path.is_dir():
        return "it is a folder"
    if not path.parent.is_dir():
        return f"there is no folder {path.parent}"
    return ""


def _read_file(path: Path, what: str) -> bytes:
    """A file's bytes for the campaign command; a missing, unreadable or non-UTF-8 file is
    an :class:`tcgcore.OptionsError` naming it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise tcgcore.OptionsError(f"arkham_card: {what} {path}: cannot read it "
                                   f"({exc.strerror or exc})") from None
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise tcgcore.OptionsError(f"arkham_card: {what} {path}: not a text file (binary?)") \
            from None
    return data


def run_campaign_cli(argv: list[str], out: TextIO, inp: TextIO) -> int:
    """``tcgcore campaign arkham_card NAME --deck D … [--difficulty D] [--seed N]
    [--human SEAT …] [--save FILE] [--resume FILE] [--export DIR]``."""
    p = argparse.ArgumentParser(prog="tcgcore campaign arkham_card")
    p.add_argument("name", choices=sorted(CAMPAIGNS))
    p.add_argument("--deck", "--decks", action="extend", nargs="+", default=[], metavar="FILE",
                   help="ArkhamDB deck files or starter deck names, one per investigator "
                        "(repeat the option or separate with commas)")
    p.add_argument("--difficulty", default="standard",
                   choices=["easy", "standard", "hard", "expert"])
    p.add_argument("--seed", type=int, default=None,
                   help="campaign seed (default 1; a resumed campaign keeps its own)")
    p.add_argument("--human", type=int, nargs="+", default=None, metavar="SEAT",
                   help="seats played at the terminal (with --resume: default the seats "
                        "saved in the file)")
    p.add_argument("--save", metavar="FILE", help="campaign state file written after each scenario")
    p.add_argument("--resume", metavar="FILE", help="continue a saved campaign")
    p.add_argument("--export", metavar="DIR", help="write each deck as ArkhamDB JSON at the end")
    p.add_argument("--stop-after", type=int, default=None, metavar="N",
                   help="with --save: stop the scenario after N decisions and save it")
    args = p.parse_args(argv)
    if args.stop_after is not None and not args.save:
        p.error("--stop-after needs --save FILE (the stopped scenario is saved there)")
    if args.stop_after is not None and args.stop_after < 1:
        p.error("--stop-after needs a number of decisions, 1 or more")
    if args.resume and args.deck:
        p.error("--resume continues a campaign with its own decks; --deck is for a new one")
    if args.save and _unwritable(Path(args.save)):  # before anything is played
        p.error(f"--save {args.save}: {_unwritable(Path(args.save))}")
    if args.export and Path(args.export).exists() and not Path(args.export).is_dir():
        p.error(f"--export {args.export}: a file is in the way (give a folder)")
    match_json = ""
    seed = 1 if args.seed is None else args.seed
    humans = list(args.human or [])
    if args.resume:
        saved = load_campaign_file(_read_file(Path(args.resume), "campaign file"))
        camp, remaining, match_json = saved.campaign, list(saved.remaining), saved.match
        seed = saved.seed if args.seed is None else args.seed
        humans = saved.humans if args.human is None else humans
    else:
        if not args.deck:
            p.error("give one --deck per investigator (or --resume FILE)")
        values = []
        for group in args.deck:
            names = [group] if Path(group).is_file() else [d for d in group.split(",") if d]
            for d in names:
                path = Path(d)
                values.append(_read_file(path, "deck file").decode("utf-8-sig")
                              if path.is_file() else d)
        camp = start_campaign(values, difficulty=args.difficulty, seed=seed)
        remaining = list(CAMPAIGNS[args.name])
    bad = [h for h in humans if not 0 <= h < len(camp.investigators)]
    if bad:
        p.error(f"--human {bad[0]}: the campaign has seats 0..{len(camp.investigators) - 1}")
    camp, played = run_campaign(camp, remaining, seed=seed, humans=frozenset(humans),
                                out=out, inp=inp, save=Path(args.save) if args.save else None,
                                stop_after=args.stop_after, match_json=match_json)
    if not camp.lost and len(played) < len(remaining):
        return 0  # stopped during a scenario and saved; --resume continues it
    missing = MISSING.get(args.name, ())
    if camp.lost:
        out.write("\nThe campaign is lost.\n")
    elif camp.played and camp.played[-1].startswith(CAMPAIGNS[args.name][-1] + ":"):
        out.write(f"\nThe campaign is won ({camp.played[-1].split(':')[1]}).\n")
    elif missing:
        out.write("\nNot implemented yet, so the campaign stops here: "
                  + ", ".join(missing) + ".\n")
    if args.export:
        folder = Path(args.export)
        folder.mkdir(parents=True, exist_ok=True)
        for s, inv in enumerate(camp.investigators):
            target = folder / f"{s}_{inv.code}.json"
            target.write_text(export_deck(camp, s), encoding="utf-8")
            out.write(f"deck of seat {s} exported to {target}\n")
    return 0
