"""Deterministic ways to play a table's game to a chosen situation, for the server and browser tests.

A table's game is the engine's game with ``finish_turn`` (server/sessions.py); with people in every
seat no bot's choice enters, so a seed and a policy that reads only the game give the same game on
every run.  :class:`Wants` buys the advancements it is told to whenever the commons offer one and
otherwise picks by a fixed pseudo-random rule; :func:`drive` plays a server's game with it, the
engine's copy in lockstep, until a condition holds.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Callable

import mysticvale as mv
from mysticvale.engine.rng import Rng
from mysticvale.engine.zones import net_decay, stats
from waiting import HTTP_TIMEOUT

#: When Played "you may discard another card in your field" (file 000): a choice that reveals nothing.
OWLS = ("Mindful Owl", "Deadwood Harvester")


def pick(seq: int, legal: list[str], salt: int) -> str:
    """A fixed pseudo-random pick, a function of the record number only (as tests/server's choose)."""
    return legal[Rng(1000 * salt + seq).below("pick", len(legal))]


class Wants:
    """Buy the named advancements when offered; ``discard_decay``: answer "discard a field card"
    with the card of most decay; ``push_below``: push while the decay showing is below it (and one
    time in three above it); otherwise :func:`pick`."""

    def __init__(self, names: tuple[str, ...], *, salt: int = 5, discard_decay: bool = False,
                 push_below: int | None = None, vales: bool = False) -> None:
        self.names, self.salt, self.discard_decay, self.push_below, self.vales = \
            set(names), salt, discard_decay, push_below, vales

    def __call__(self, g: mv.Game, seq: int) -> str:
        st = g.state
        p = g.current_player
        legal = [str(a) for a in g.legal_actions()]
        pending = st.pending[-1] if st.pending else None
        if self.discard_decay and pending and pending.kind == "discard_field":
            discards = [a for a in legal if a.startswith("discard ")]
            if discards:
                return max(discards, key=lambda a: stats(st, int(a.split("#")[1])).get("decay"))
        if self.vales:
            vale = next((a for a in legal if a.startswith("vale ")), None)
            if vale:
                return vale
        commons = g.observe(p)["commons"]
        for a in legal:
            verb, *args = a.split()
            if verb == "buy" and len(args) == 1 and args[0][0].isdigit():
                level, pos = args[0].split(".")
                c = commons[level][int(pos) - 1]
                if c and c["name"] in self.names:
                    return a
        if self.push_below is not None and "push" in legal and not pending:
            low = net_decay(st, p) < self.push_below
            return "push" if low or Rng(seq).below("x", 3) == 0 else "pass"
        return pick(seq, legal, self.salt)


def _post(url: str, payload: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as resp:
        return json.loads(resp.read().decode())


def drive(server: str, game: dict, engine: mv.Game, policy: Callable[[mv.Game, int], str],
          until: Callable[[mv.Game], bool], limit: int = 3000) -> int:
    """Play the server's ``game`` (every seat a person) by ``policy`` until ``until(engine)``, with
    ``engine`` (the same game made by the engine) following every action; returns the seq reached."""
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seq = 0
    for _ in range(limit):
        if until(engine):
            return seq
        assert not engine.is_over(), "the game ended before the situation came"
        action = policy(engine, seq)
        answer = _post(f"{server}/api/games/{game['id']}/actions",
                       {"token": tokens[engine.current_player], "action": action, "seq": seq})
        engine.apply_action(action)
        seq = answer["seq"]
    raise AssertionError(f"the situation did not come in {limit} actions")
