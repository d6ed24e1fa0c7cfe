"""Persistence of the web table's matches in SQLite (:mod:`sqlite3`).

Each match is one row (game, seat secrets, who plays each seat, its latest save) plus one row
per accepted decision, written in the same transaction as the save, so a server killed at any
moment restarts with every match at its last accepted decision. On restart a match is rebuilt
by re-playing its decisions from its seed and options (which brings its game log back too) and
checked against the latest save's digest; when they disagree (a game version that changed its
rules), the save wins and the log starts empty.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

import msgspec

from .._match import Match

__all__ = ["MatchRow", "Store"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created REAL NOT NULL,
    tokens TEXT NOT NULL,
    admin TEXT NOT NULL,
    seats TEXT NOT NULL,
    save BLOB NOT NULL,
    decisions INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    match TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    keys TEXT NOT NULL,
    PRIMARY KEY (match, n)
);
"""


class MatchRow(msgspec.Struct, kw_only=True):
    """A stored match: id, game, seat secrets, admin secret, seat players (``"human"`` or an
    agent name), the latest save (bytes) and the decisions (seat, keys) in order."""

    id: str
    game: str
    tokens: list[str]
    admin: str
    seats: list[str]
    save: bytes
    decisions: list[tuple[int, list[str]]]


class Store:
    """The matches of one ``--db`` file (``":memory:"`` keeps them for the process only).

    Thread-safe: one connection behind a lock (writes are a few small rows per decision).
    """

    def __init__(self, path: str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        if path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def add(self, match_id: str, match: Match[Any], tokens: list[str], admin: str,
            seats: list[str]) -> None:
        """Store a new match with its decisions so far."""
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute(
                "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (match_id, match.game, time.time(), msgspec.json.encode(tokens).decode(), admin,
                 msgspec.json.encode(seats).decode(), match.to_bytes()))
            self._write_decisions(match_id, match, 0)
            self._db.execute("COMMIT")

    def record(self, match_id: str, match: Match[Any]) -> None:
        """Store the decisions accepted since the last call and the match's latest save."""
        with self._lock:
            self._db.execute("BEGIN")
            row = self._db.execute("SELECT decisions FROM matches WHERE id = ?",
                                   (match_id,)).fetchone()
            if row is None:
                self._db.execute("ROLLBACK")
                return
            self._write_decisions(match_id, match, int(row[0]))
            self._db.execute("COMMIT")

    def _write_decisions(self, match_id: str, match: Match[Any], have: int) -> None:
        decisions = match.decisions
        self._db.executemany(
            "INSERT OR REPLACE INTO decisions VALUES (?, ?, ?, ?)",
            [(match_id, n, d.player, msgspec.json.encode(d.keys).decode())
             for n, d in enumerate(decisions[have:], start=have)])
        self._db.execute("UPDATE matches SET save = ?, decisions = ? WHERE id = ?",
                         (match.to_bytes(), len(decisions), match_id))

    def truncate(self, match_id: str, match: Match[Any]) -> None:
        """Store ``match`` after an undo: its decisions (fewer than stored) and its save."""
        with self._lock:
            self._db.execute("BEGIN")
            n = len(match.decisions)
            self._db.execute("DELETE FROM decisions WHERE match = ? AND n >= ?", (match_id, n))
            self._db.execute("UPDATE matches SET save = ?, decisions = ? WHERE id = ?",
                             (match.to_bytes(), n, match_id))
            self._db.execute("COMMIT")

    def remove(self, match_id: str) -> None:
        """Forget a match and its decisions."""
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM decisions WHERE match = ?", (match_id,))
            self._db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
            self._db.execute("COMMIT")

    def rows(self) -> list[MatchRow]:
        """Every stored match, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, tokens, admin, seats, save FROM matches ORDER BY created"
            ).fetchall()
            out = []
            for mid, game, tokens, admin, seats, save in rows:
                dec = self._db.execute("SELECT seat, keys FROM decisions WHERE match = ? ORDER BY n",
                                       (mid,)).fetchall()
                out.append(MatchRow(
                    id=mid, game=game, tokens=msgspec.json.decode(tokens),
                    admin=admin, seats=msgspec.json.decode(seats), save=bytes(save),
                    decisions=[(int(s), msgspec.json.decode(k)) for s, k in dec]))
            return out

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
