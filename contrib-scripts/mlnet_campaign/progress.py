# SPDX-License-Identifier: GPL-2.0-only
"""The progress line of a campaign: runs done, failures so far, skipped runs, elapsed, ETA.

On a terminal the line is redrawn in place; otherwise (logs, CI) a line is printed at most every
``interval`` seconds and at the end. Every failure is also printed on its own line with the
run's last error line.
"""

import sys
import time


def clock(seconds):
    """1234.5 -> '20:34'; 4000 -> '1:06:40'."""
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Counts finished runs of one invocation and prints the progress line."""

    def __init__(self, total, skipped=0, stream=None, interval=2.0, width=24):
        self.total = total  # runs to execute in this invocation
        self.skipped = skipped  # runs already done before it
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.width = width
        self.ok = 0
        self.failed = 0
        self.t0 = time.monotonic()
        self.last = -1e9
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def restart(self):
        """Start the clock now (executors call it when their workers are ready)."""
        self.t0 = time.monotonic()

    @property
    def done(self):
        return self.ok + self.failed

    def line(self):
        elapsed = time.monotonic() - self.t0
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * self.width)
        eta = "--:--"
        if self.done:
            eta = clock(elapsed / self.done * (self.total - self.done))
        return (f"campaign: {self.done}/{self.total} runs [{bar:<{self.width}}] {frac:4.0%}  "
                f"failed {self.failed}  skipped {self.skipped}  elapsed {clock(elapsed)}  "
                f"ETA {eta}")

    def show(self, force=False):
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.line() + "\033[K")
        elif force or now - self.last >= self.interval:
            self.stream.write(self.line() + "\n")
        else:
            return
        self.last = now
        self.stream.flush()

    def update(self, status):
        """Count one finished run (its status record)."""
        if status.get("ok"):
            self.ok += 1
        else:
            self.failed += 1
            if self.tty:
                self.stream.write("\r\033[K")
            self.stream.write(f"campaign: point {status['point']} failed "
                              f"(exit {status.get('exitCode')}): {status.get('error')}\n")
        self.show(force=self.done == self.total)

    def finish(self):
        if self.tty:
            self.stream.write("\n")
        elif self.last < 0 or self.done != self.total:
            self.show(force=True)
        self.stream.flush()
