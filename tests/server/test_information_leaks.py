"""Nothing the server sends reveals another seat's hidden information.

Over a whole seeded game (actions, undos, several viewers), every HTTP response and every WebSocket
message for a viewer must be exactly what the server would send if the hidden information that
viewer cannot know were different: the same game with that order resampled (``determinize``) gives
the same bytes.  Besides, no message holds the seed, the history or the random state, a card of
another seat's deck or discard pile appears only in that seat's ``owned`` list (every card a player
owns is public, sorted by id, with no place or order), and one's own deck is never listed in its
order.
"""

from __future__ import annotations

import copy

import mysticvale as mv
import pytest
from conftest import choose
from fastapi.testclient import TestClient

from mysticvale.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Actions per game (several rounds, with shuffles and undos; a whole game takes about 450).
MAX_STEPS = 160
FORBIDDEN_KEYS = {"history", "seed", "rng", "states", "steps", "events", "token_digest", "config"}


def _sets_available(sets):
    try:
        mv.new_game(players=2, seed=1, sets=sets)
        return True
    except ValueError:
        return False


def _walk_keys(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, path
            yield from _walk_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_keys(v, f"{path}[{i}]")


def _card_ids(value):
    """Ids of every card (a dict with 'advancements') anywhere in ``value`` that says where
    it is: everywhere but the ``owned`` lists."""
    if isinstance(value, dict):
        if "advancements" in value and "id" in value:
            yield value["id"]
        for k, v in value.items():
            if k != "owned":
                yield from _card_ids(v)
    elif isinstance(value, list):
        for v in value:
            yield from _card_ids(v)


def _check_body(session, body, viewer, step):
    game = session.game
    for key, where in _walk_keys(body):
        assert key not in FORBIDDEN_KEYS, f"{key!r} at {where} sent to viewer {viewer}"
    # The same game with everything the viewer cannot know resampled gives the same answer
    # (for a spectator: every player's deck order, deck / discard split and unseen leader).
    for k in range(2):
        alt = copy.copy(session)
        alt._bodies = {}        # no cached answers: build them from the resampled game
        alt.game = game.determinize(viewer, 1000 * step + k)
        assert alt.state_for(viewer) == body, f"viewer {viewer} at step {step} sees hidden information"
    # Another seat's deck and discard cards appear only in its owned list: every player's
    # owned list is all of its cards, sorted by id; one's own deck is listed by id, not in order.
    st = game.state
    hidden = set()
    for p, pl in enumerate(st.players):
        owned = [c["id"] for c in body["observation"]["players"][p]["owned"]]
        assert owned == sorted(pl.deck + pl.field + pl.discard + pl.aside
                               + ([pl.on_deck] if pl.on_deck is not None else []))
        if p != viewer:
            hidden |= set(pl.deck) | set(pl.discard)
    shown = set(_card_ids(body["observation"]))
    assert not shown & hidden, f"viewer {viewer} is shown hidden cards {sorted(shown & hidden)}"
    if viewer is not None:
        own = [c["id"] for c in body["observation"]["players"][viewer]["deck"]]
        assert own == sorted(own)


@pytest.mark.parametrize("players, sets", [(2, ("base",)), (3, ("base", "vale_of_magic"))])
def test_no_response_or_message_reveals_hidden_information(tmp_path, players, sets):
    if not _sets_available(sets):
        pytest.skip(f"sets {sets} are not available in this engine")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", allow_seed=True)) as client:
        r = client.post("/api/games", json={"players": players, "sets": list(sets), "seed": 40 + players})
        assert r.status_code == 201
        gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
        session = client.app.state.manager.get(gid)
        viewers = [*range(players), None]
        sockets = [client.websocket_connect(f"/api/games/{gid}/ws" + (f"?token={tokens[v]}" if v is not None else ""))
                   for v in viewers]
        bodies: dict[tuple, dict] = {}
        try:
            for ws in sockets:
                ws.__enter__()
            step, undos = 0, 0
            while True:
                seq = session.seq
                for v in viewers:
                    body = client.get(f"/api/games/{gid}/state",
                                      params={"token": tokens[v]} if v is not None else None).json()
                    _check_body(session, body, v, step)
                    bodies[(v, seq)] = body
                if session.game.is_over() or step == MAX_STEPS:
                    break
                seat = session.game.current_player
                me = bodies[(seat, seq)]
                if me["can_undo"] and step % 3 == 0:
                    r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[seat], "seq": seq})
                    undos += 1
                else:
                    r = client.post(f"/api/games/{gid}/actions",
                                    json={"token": tokens[seat], "action": choose(seq, me["legal_actions"], 7),
                                          "seq": seq})
                assert r.status_code == 200, r.text
                answer = r.json()
                assert answer.pop("applied_seq") == seq + 1 and answer.pop("repeated") is False
                _check_body(session, answer, seat, step)
                step += 1
            assert undos > 0 and step == MAX_STEPS or session.game.is_over()
            final = session.seq
            # Every pushed state equals the checked HTTP body for the same viewer and seq.
            pushed = 0
            for v, ws in zip(viewers, sockets):
                while True:
                    msg = ws.receive_json()
                    assert msg.pop("type") == "state"
                    assert msg == bodies[(v, msg["seq"])]
                    pushed += 1
                    if msg["seq"] == final:
                        break
            assert pushed >= len(viewers) * 2
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
