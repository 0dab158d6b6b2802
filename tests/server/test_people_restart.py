"""Names, keys, claims, invitations, chat and settings survive ``kill -9`` of the server (issue 15 item 8).

A server subprocess is killed with SIGKILL after each kind of write was acknowledged, and once with
claims and chat messages in flight; after every restart everything acknowledged is there, exactly,
and a claim in flight is either whole (the seat held, its invitation gone) or not made at all.
"""

from __future__ import annotations

import threading

import httpx
import pytest
from conftest import server_on_backend
from waiting import HTTP_TIMEOUT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Api:
    def __init__(self, base: str) -> None:
        self.base = base

    def call(self, method: str, path: str, who: dict | None = None, **kw) -> httpx.Response:
        headers = {"X-Player-Key": who["key"]} if who else None
        return httpx.request(method, self.base + path, headers=headers, timeout=HTTP_TIMEOUT, **kw)

    def ok(self, method: str, path: str, who: dict | None = None, **kw):
        r = self.call(method, path, who, **kw)
        assert r.status_code in (200, 201), r.text
        return r.json()


def everything(api: Api, people: dict[str, dict], game_ids: list[str]) -> dict:
    """What every person and every spectator can read: it must be the same after a restart."""
    out: dict = {}
    for name, p in people.items():
        out[name] = (api.ok("GET", "/api/people/me", p), api.ok("GET", "/api/people/me/games", p),
                     api.ok("GET", "/api/people/me/settings", p))
    for gid in game_ids:
        out[gid] = (api.ok("GET", f"/api/games/{gid}/seats"), api.ok("GET", f"/api/games/{gid}/chat"))
    return out


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_people_claims_chat_and_settings_survive_sigkill(tmp_path, request, backend):
    srv = server_on_backend(tmp_path, request, backend)
    try:
        api = Api(srv.base)
        people = {n: api.ok("POST", "/api/people", json={"name": n}) for n in ("Anna", "Bob", "Cleo", "Dan")}
        a, b, c, d = people.values()
        api.ok("PATCH", "/api/people/me/settings", a, json={"email": "anna@example.org", "email_turns": True,
                                                             "sound": True, "language": "de"})
        g1 = api.ok("POST", "/api/games", a, json={"players": 3, "seed": 7, "open_seats": [2]})
        g2 = api.ok("POST", "/api/games", a, json={"players": 2, "seed": 8})
        api.ok("POST", f"/api/games/{g1['id']}/claim", b, json={"token": g1["seats"][1]["token"]})
        api.ok("POST", f"/api/games/{g1['id']}/chat", a, json={"text": "Willkommen! <b>hi</b>"})
        api.ok("POST", f"/api/games/{g1['id']}/chat", b, json={"text": "hallo\nzusammen"})
        ids = [g1["id"], g2["id"]]
        before = everything(api, people, ids)
        srv.kill()
        srv.start()
        assert everything(api, people, ids) == before
        row = before["Anna"][1]["games"]
        assert {r["id"] for r in row} == set(ids)
        assert next(r for r in row if r["id"] == g2["id"])["invitations"][0]["token"] == g2["seats"][1]["token"]

        # A claim and chat messages in flight when the server dies: all or nothing each.
        answers: list = []

        def send(method, path, who, body):
            try:
                answers.append((path, api.call(method, path, who, json=body).status_code))
            except httpx.HTTPError as exc:
                answers.append((path, exc))

        threads = [threading.Thread(target=send, args=("POST", f"/api/games/{g1['id']}/claim", c, {"seat": 2})),
                   threading.Thread(target=send, args=("POST", f"/api/games/{g2['id']}/claim", d,
                                                       {"token": g2["seats"][1]["token"]}))]
        threads += [threading.Thread(target=send, args=("POST", f"/api/games/{g1['id']}/chat", b, {"text": f"m{i}"}))
                    for i in range(3)]
        for t in threads:
            t.start()
        srv.kill()
        for t in threads:
            t.join()
        srv.start()
        after = everything(api, people, ids)
        for gid, claimant, seat in ((g1["id"], "Cleo", 2), (g2["id"], "Dan", 1)):
            held = [r for r in after[claimant][1]["games"] if r["id"] == gid]
            seats = after[gid][0]["seats"]
            anna_row = next(r for r in after["Anna"][1]["games"] if r["id"] == gid)
            if held:                                  # the claim was stored whole
                assert held[0]["seat"] == seat and seats[seat]["name"] == claimant and not seats[seat]["open"]
                assert seat not in [i["seat"] for i in anna_row["invitations"]]
            else:                                     # or not at all
                assert seats[seat]["name"] is None
                assert seats[seat]["open"] or seat in [i["seat"] for i in anna_row["invitations"]]
            acknowledged = (f"/api/games/{gid}/claim", 200) in answers
            assert not acknowledged or held
        chat = after[g1["id"]][1]["messages"]
        acked_chat = sum(1 for p, s in answers if p.endswith("/chat") and s == 201)
        assert len(chat) >= 2 + acked_chat and [m["n"] for m in chat] == list(range(1, len(chat) + 1))
        assert chat[:2] == before[g1["id"]][1]["messages"]
        # the keys still open the same seats, whose tokens still play
        row = next(r for r in after["Bob"][1]["games"] if r["id"] == g1["id"])
        st = httpx.get(f"{srv.base}/api/games/{g1['id']}/state", params={"token": row["token"]}, timeout=HTTP_TIMEOUT)
        assert st.status_code == 200 and st.json()["seat"] == 1
    finally:
        srv.kill()
