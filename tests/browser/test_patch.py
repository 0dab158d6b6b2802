"""The client applies protocol-2 deltas (js/patch.js) exactly as the server's reference
(server/updates.py apply_ops): real observations of a seeded game and random JSON, in Chromium."""

from __future__ import annotations

import json
import random

import pytest

import mysticvale as mv
from mysticvale.server.updates import diff

pytestmark = pytest.mark.browser


def _random(rng: random.Random, depth: int = 0):
    k = rng.randrange(6 if depth < 3 else 3)
    if k == 0:
        return rng.randrange(4)
    if k == 1:
        return rng.choice(["a", "b", None, 1.5])
    if k == 2:
        return None
    if k == 3:
        return [_random(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("abcd"): _random(rng, depth + 1) for _ in range(rng.randrange(4))}


def _cases():
    rng = random.Random(3)
    cases = []
    for _ in range(300):
        old, new = _random(rng), _random(rng)
        if isinstance(old, list) and rng.random() < 0.5:
            new = old[: rng.randrange(len(old) + 1)] + [_random(rng, 2)] + old[rng.randrange(len(old) + 1):]
        cases.append([old, new, diff(old, new)])
    g = mv.new_game(players=3, seed=8, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    prev = g.observe(2)
    for step in range(150):
        if g.is_over():
            break
        legal = g.legal_actions()
        g.apply_action(legal[step * 7 % len(legal)])
        cur = g.observe(2)
        cases.append([prev, cur, diff(prev, cur)])
        prev = cur
    return json.loads(json.dumps(cases))


def test_the_client_applies_deltas_as_the_server_means_them(page, server):
    cases = _cases()
    page.goto(server + "/static/index.html")
    results = page.evaluate("""async (cases) => {
        const { applyOps } = await import('/static/js/patch.js');
        return cases.map(([old, _new, ops]) => applyOps(structuredClone(old), ops));
    }""", cases)
    for (old, new, ops), got in zip(cases, results):
        assert got == new, (old, ops)
