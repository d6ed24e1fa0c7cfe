"""Record the golden corpus: seeded games of every game, scenario, deck and agent.

    python tests/golden/record.py            # re-record every game (about a minute)
    python tests/golden/record.py --check    # replay the corpus and report differences

Each game is one compact JSON file in ``tests/golden/games/``: the game, seed, seats and
options, the agents that played it (names and seeds, for the record only: the replay needs
no agent), every decision's keys in order, the state digest (``Match.digest``) after setup
and after a few decisions on the way, the final digest and the result.
``tests/test_golden_corpus.py`` replays every file and compares each digest; a change that
moves a digest changed what some game does. Re-record (and review the diff of the corpus)
only when that is intended, such as a new field in the state.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tcgcore

HERE = Path(__file__).resolve().parent
GAMES = HERE / "games"

#: digests kept on the way (besides the one after setup and the final one)
CHECKPOINTS = 4

#: a game stops after this many decisions (a long random Arkham game is cut, not lost)
MAX_DECISIONS = 600


@dataclass(frozen=True)
class Config:
    """One recorded game: its file name, game, seats, options, agents (one per seat) and
    match seed (the agents' seeds are ``31 * seed + seat``)."""

    name: str
    game: str
    seed: int
    agents: tuple[str, ...]
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


def _configs() -> list[Config]:
    out: list[Config] = []
    # Sparks: the default game, a short and a long deck, random and search agents
    out += [Config(f"sparks-default-{s}", "sparks", s, ("random", "random")) for s in (1, 2, 3)]
    out.append(Config("sparks-short-4", "sparks", 4, ("random", "random"),
                      options={"copies": 1, "target": 2}))
    out.append(Config("sparks-long-5", "sparks", 5, ("random", "random"),
                      options={"copies": 5, "target": 12}))
    out.append(Config("sparks-ismcts-6", "sparks", 6, ("ismcts:iterations=12", "random")))
    # Guimi Revival: every precon deck in both seats, heuristic and random agents, and the
    # rules options of section 14 that change play the most
    decks = ("assassin", "hunter", "marauder", "sailor", "seer", "sleepless")
    for i, deck in enumerate(decks):
        other = decks[(i + 1) % len(decks)]
        out.append(Config(f"guimi-{deck}-{other}-heuristic", "guimi_revival", 10 + i,
                          ("heuristic", "heuristic"), options={"decks": [deck, other]}))
        out.append(Config(f"guimi-{other}-{deck}-random", "guimi_revival", 20 + i,
                          ("random", "heuristic") if i % 2 else ("heuristic", "random"),
                          options={"decks": [other, deck]}))
    out.append(Config("guimi-default-random", "guimi_revival", 30, ("random", "random")))
    variants: list[dict[str, Any]] = [
        {"defeat_condition": "death", "first_player": "p1"},
        {"state_check_order": "madness_first", "threshold_checks": "while_at_or_above",
         "strength_floor": "none"},
        {"damage_step_losses": "sequential", "potion_prevention": "whole_hit",
         "untap_scope": "all", "quick_event_from_hand": "allowed"},
        {"characteristic_on_unit": "active", "dead_rb_can_promote": "yes",
         "ascension_start": "automatic", "trigger_rb_scope": "include"},
    ]
    for i, opts in enumerate(variants):
        out.append(Config(f"guimi-rules-{i}", "guimi_revival", 40 + i, ("heuristic", "heuristic"),
                          options=opts))
    # Arkham: each scenario, one to four investigators (every starter deck), each difficulty,
    # heuristic and random agents
    starters = ("roland", "daisy", "skids", "agnes", "wendy")
    difficulties = ("easy", "standard", "hard", "expert")
    seed = 100
    for scenario in ("01104", "01120", "01142"):
        for players in (1, 2, 3, 4):
            seed += 1
            team = [starters[(seed + k) % len(starters)] for k in range(players)]
            out.append(Config(
                f"arkham-{scenario}-{players}p-heuristic", "arkham_card", seed,
                ("heuristic",) * players, players,
                {"scenario": scenario, "decks": team,
                 "difficulty": difficulties[(seed + players) % 4]}))
        seed += 1
        out.append(Config(f"arkham-{scenario}-2p-random", "arkham_card", seed,
                          ("random", "heuristic"), 2,
                          {"scenario": scenario, "decks": [starters[seed % 5],
                                                           starters[(seed + 2) % 5]]}))
        seed += 1
        out.append(Config(f"arkham-{scenario}-solo-random", "arkham_card", seed, ("random",), 1,
                          {"scenario": scenario, "decks": [starters[seed % 5]]}))
    out.append(Config("arkham-default-solo", "arkham_card", 130, ("heuristic",), 1))
    out.append(Config("arkham-campaign-2p", "arkham_card", 131, ("heuristic", "heuristic"), 2,
                      {"mode": "campaign", "scenario": "01120", "decks": ["agnes", "roland"],
                       "trauma": [[1, 0], [0, 1]], "chaos_add": ["-2", "cultist"],
                       "lead": 1}))
    return out


CONFIGS = _configs()


def _keys(keys: list[str]) -> Any:
    """A decision as stored: one key as a string, none or several as a list."""
    return keys[0] if len(keys) == 1 else list(keys)


def record(config: Config) -> dict[str, Any]:
    """Play one configured game with its agents and return the corpus entry."""
    match = tcgcore.new_match(config.game, seed=config.seed, players=config.players,
                              keep_events=False, **config.options)
    seats = match.state.num_players
    if len(config.agents) != seats:
        raise SystemExit(f"{config.name}: {len(config.agents)} agents for {seats} seats")
    agents = [tcgcore.make_agent(match.spec, name, 31 * config.seed + seat)
              for seat, name in enumerate(config.agents)]
    decisions: list[Any] = []
    digests: list[str] = [match.digest()]
    while match.result is None and len(decisions) < MAX_DECISIONS:
        choice = match.pending
        assert choice is not None
        keys = list(agents[choice.player].decide(match, choice))
        match.choose(choice.player, keys)
        decisions.append(_keys(keys))
        digests.append(match.digest())
    step = max(1, len(decisions) // (CHECKPOINTS + 1))
    marks = {str(i): digests[i] for i in range(0, len(decisions), step)}
    return {
        "game": config.game,
        "game_version": match.spec.version,
        "seed": config.seed,
        "players": seats,
        "options": config.options,
        "agents": list(config.agents),
        "agent_seeds": [31 * config.seed + seat for seat in range(seats)],
        "decisions": decisions,
        "digests": marks,
        "final": digests[-1],
        "result": _result(match),
    }


def _result(match: tcgcore.Match[Any]) -> dict[str, Any] | None:
    """The result as stored: winners, losers, draw and reason (the detail is in the digest)."""
    result = match.result
    if result is None:
        return None
    return {"winners": list(result.winners), "losers": list(result.losers),
            "draw": result.draw, "reason": result.reason}


def replay_file(path: Path) -> str | None:
    """Replay one corpus file; ``None`` when every digest and the result match, else the
    first difference (the decision it shows up after)."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    match = tcgcore.new_match(entry["game"], seed=entry["seed"], players=entry["players"],
                              keep_events=False, **entry["options"])
    marks: dict[str, str] = entry["digests"]
    for i, keys in enumerate(entry["decisions"]):
        mark = marks.get(str(i))
        if mark is not None and match.digest() != mark:
            return f"digest after {i} decisions differs ({match.digest()} != {mark})"
        choice = match.pending
        if choice is None:
            return f"decision {i}: the match has no pending choice"
        try:
            match.choose(choice.player, [keys] if isinstance(keys, str) else keys)
        except tcgcore.IllegalChoice as exc:
            return f"decision {i}: {exc}"
    if match.digest() != entry["final"]:
        return f"final digest differs ({match.digest()} != {entry['final']})"
    if _result(match) != entry["result"]:
        return f"result differs ({_result(match)} != {entry['result']})"
    return None


def dump(entry: dict[str, Any]) -> str:
    """The file text of an entry: one field a line, the decisions on one line."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}"
             for k, v in entry.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    """Record (default) or check the corpus; ``NAME ...`` limits it to those games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="replay and compare, write nothing")
    parser.add_argument("names", nargs="*", help="only these games (file names without .json)")
    args = parser.parse_args(argv)
    wanted = [c for c in CONFIGS if not args.names or c.name in args.names]
    if args.check:
        bad = 0
        for config in wanted:
            problem = replay_file(GAMES / f"{config.name}.json")
            if problem:
                bad += 1
                print(f"{config.name}: {problem}")
        print(f"{len(wanted) - bad} of {len(wanted)} games replay identically")
        return 1 if bad else 0
    GAMES.mkdir(exist_ok=True)
    if not args.names:
        known = {f"{c.name}.json" for c in CONFIGS}
        for old in GAMES.glob("*.json"):
            if old.name not in known:
                old.unlink()
    for config in wanted:
        entry = record(config)
        (GAMES / f"{config.name}.json").write_text(dump(entry), encoding="utf-8")
        print(f"{config.name}: {len(entry['decisions'])} decisions, "
              f"{(entry['result'] or {}).get('reason', 'cut')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
