"""Undo at a table with yucata's turn order (the engine's ``finish_turn``; file 000): a When Played
choice made in the Prep phase can be taken back until the player reveals the next card, and no
undo ever goes back past a card revealed from a deck."""

from __future__ import annotations

import mysticvale as mv
import pytest
from table_policies import OWLS, Wants

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: With seed 1 and this policy (buy a Mindful Owl or Deadwood Harvester when offered) the Prep plays
#: one of them after about 100 actions; their When Played choice reveals nothing.
SEED = 1
_policy = Wants(OWLS)


def _act(client, gid, token, action, seq):
    r = client.post(f"/api/games/{gid}/actions", json={"token": token, "action": action, "seq": seq})
    assert r.status_code == 200, r.text
    return r.json()


def _undo(client, gid, token, seq):
    return client.post(f"/api/games/{gid}/undo", json={"token": token, "seq": seq})


def test_a_when_played_choice_in_the_prep_is_undone_until_the_reveal(client):
    r = client.post("/api/games", json={"players": 2, "seed": SEED})
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
    g = mv.new_game(players=2, seed=SEED, finish_turn=True)     # the server's game, followed here
    seq = 0
    while not (g.state.pending and g.state.pending[-1].kind == "discard_field" and g.state.turn.phase == "prep"):
        assert seq < 1500 and not g.is_over(), "the Prep never played a Mindful Owl"
        a = _policy(g, seq)
        seat = g.current_player
        answer = _act(client, gid, tokens[seat], a, seq)
        g.apply_action(a)
        seq = answer["seq"]
    seat = g.current_player
    token = tokens[seat]
    at_choice = client.get(f"/api/games/{gid}/state", params={"token": token}).json()
    assert at_choice["observation"]["pending"]["kind"] == "discard_field"
    # What brought the Prep here revealed cards: it stays.
    assert at_choice["can_undo"] is False
    discard = next(a for a in at_choice["legal_actions"] if a.startswith("discard "))

    used = _act(client, gid, token, discard, seq)
    assert used["observation"]["pending"]["kind"] == "reveal_next" and used["legal_actions"] == ["reveal"]
    assert used["can_undo"] is True                     # nothing revealed since the choice
    r = _undo(client, gid, token, used["seq"])
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["observation"] == at_choice["observation"]
    assert undone["legal_actions"] == at_choice["legal_actions"] and undone["can_undo"] is False
    assert _undo(client, gid, token, undone["seq"]).status_code == 409      # no further

    # Chosen again (the other way), then the deck: the reveal can never be taken back.
    declined = _act(client, gid, token, "skip", undone["seq"])
    assert declined["legal_actions"] == ["reveal"] and declined["can_undo"] is True
    revealed = _act(client, gid, token, "reveal", declined["seq"])
    assert revealed["can_undo"] is False
    r = _undo(client, gid, token, revealed["seq"])
    assert r.status_code == 409 and "revealed hidden information" in r.json()["detail"]
    # The Prep went on by itself to its end (or to another choice); the turn ends with Finish Turn.
    g.apply_action("skip")
    g.apply_action("reveal")
    assert revealed["observation"] == g.observe(seat)
    while g.state.pending and g.state.pending[-1].kind != "finish_turn":
        a = _policy(g, revealed["seq"])
        revealed = _act(client, gid, token, a, revealed["seq"])
        g.apply_action(a)
    assert revealed["legal_actions"] == ["finish"]
    done = _act(client, gid, token, "finish", revealed["seq"])
    assert done["observation"]["current_player"] != seat
