"""The game's only source of chance: small, exact, serializable random streams.

A game owns one :class:`Rng` made of named sub-streams (one per player deck, one per
supply deck, ...), so that adding a shuffle in one place never changes the order of
another deck.  Each stream is a SplitMix64 generator whose whole state is one integer,
which makes cloning and JSON round trips exact and cheap.
"""

from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, name: str) -> int:
    """A stream's starting state from the game seed and the stream's name."""
    digest = hashlib.blake2b(f"{seed}:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Rng:
    """Named SplitMix64 streams; ``states`` is the complete, JSON-ready state."""

    __slots__ = ("seed", "states")

    def __init__(self, seed: int, states: dict[str, int] | None = None) -> None:
        self.seed = seed
        self.states: dict[str, int] = dict(states) if states else {}

    def _next(self, stream: str) -> int:
        s = self.states.get(stream)
        if s is None:
            s = derive_seed(self.seed, stream)
        s = (s + _GOLDEN) & _MASK
        self.states[stream] = s
        return _mix(s)

    def below(self, stream: str, n: int) -> int:
        """A uniform integer in ``range(n)`` drawn from ``stream`` (n >= 1)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _MASK - (_MASK + 1) % n
        while True:
            r = self._next(stream)
            if r <= limit:
                return r % n

    def shuffle(self, stream: str, items: list) -> None:
        """Fisher-Yates shuffle of ``items`` in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(stream, i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "Rng":
        return Rng(self.seed, self.states)

    def to_dict(self) -> dict:
        return {"seed": self.seed, "states": dict(sorted(self.states.items()))}

    @classmethod
    def from_dict(cls, data: dict) -> "Rng":
        return cls(int(data["seed"]), {str(k): int(v) for k, v in data["states"].items()})
