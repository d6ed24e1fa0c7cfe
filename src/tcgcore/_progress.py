"""Progress of long runs (:func:`tcgcore.simulate`, the balance lab): a line with the games done,
the rate and the time left."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

__all__ = ["ProgressLine"]


class ProgressLine:
    """A progress callback for :func:`simulate`: a one-line bar on stderr with the games
    done, the games per second since the run started and the time left at that pace,
    redrawn in place on a terminal. When stderr is not a terminal (a file, a pipe: a long
    cluster run's log) a whole line is written every ``every`` seconds and at the end.

    Use a new one per run (it starts its clock when made)::

        simulate("guimi_revival", games=10_000, progress=ProgressLine())

    Args:
        every: seconds between two lines when stderr is not a terminal.
        clock: seconds as a float, monotonic (``time.monotonic``).
    """

    def __init__(self, every: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._every = every
        self._start = clock()
        self._last_line = self._start

    def __call__(self, done: int, total: int) -> None:
        """Show that ``done`` of ``total`` games are played."""
        now = self._clock()
        elapsed = now - self._start
        width = 30
        filled = width * done // total if total else width
        text = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
        if elapsed > 0 and done:
            rate = done / elapsed
            text += f", {rate:.1f} games/s"
            if done < total:
                text += f", {_clock_text((total - done) / rate)} left"
            else:
                text += f" in {_clock_text(elapsed)}"
        try:
            tty = sys.stderr.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty:
            sys.stderr.write("\r" + text + "\033[K" + ("\n" if done >= total else ""))
        elif done >= total or now - self._last_line >= self._every:
            self._last_line = now
            sys.stderr.write(text + "\n")
        sys.stderr.flush()


def _clock_text(seconds: float) -> str:
    """``h:mm:ss`` of a duration in seconds."""
    whole = round(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
