"""How many threads a generated token gets: chosen by the speed measured on this machine, now.

Generating decodes one token at a time; each decode runs the model's layers with a barrier after
every operation, so on few cores the threads spend much of a token waiting for each other, and how
they wait decides the speed: two threads that spin briefly are fastest on a quiet machine and
slowest when another process wants the cores, while one thread never waits (figures:
docs/history.md, "Token threads"). :class:`TokenThreads` times every one-token decode and keeps,
per thread count, a running mean of its seconds; a lane running alone generates with the faster
count, and tries the other every ``PROBE`` tokens so that the choice follows the machine's load.
Reading a prompt (many tokens a decode) is compute-bound and always takes every thread.
"""

from __future__ import annotations

import threading
from collections.abc import MutableMapping

SPIN_COUNT = "1000"
"""libgomp's spins before a waiting thread sleeps (``GOMP_SPINCOUNT``; its default, 300,000, spins
for milliseconds, which starves a loaded machine: docs/history.md)."""

PROBE = 32
"""Every PROBE one-token decodes, one runs on the other thread count to keep its figure fresh."""

_WEIGHT = 0.2
"""Weight of the newest decode in a running mean."""


def configure_openmp(environ: MutableMapping[str, str]) -> None:
    """Before llama.cpp loads: brief spinning, unless the user chose how OpenMP threads wait."""
    if "OMP_WAIT_POLICY" not in environ:
        environ.setdefault("GOMP_SPINCOUNT", SPIN_COUNT)


class TokenThreads:
    """Threads for one-token decodes, chosen between 1 and ``most`` by measured seconds."""

    def __init__(self, most: int) -> None:
        self.most = max(1, most)
        self.seconds: dict[int, float] = {}
        """Running mean of a one-token decode's seconds, by thread count."""
        self._count = 0
        self._lock = threading.Lock()

    def choose(self) -> int:
        if self.most == 1:
            return 1
        with self._lock:
            for threads in (self.most, 1):
                if threads not in self.seconds:
                    return threads
            self._count += 1
            best = min(self.seconds, key=self.seconds.__getitem__)
            if self._count % PROBE == 0:
                return 1 if best == self.most else self.most
            return best

    def record(self, threads: int, seconds: float) -> None:
        with self._lock:
            before = self.seconds.get(threads)
            self.seconds[threads] = seconds if before is None else before + _WEIGHT * (seconds - before)
