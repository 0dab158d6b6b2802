"""The table plays on its WebSocket (issue 16 item 5: an action on the open socket costs the server
no HTTP request, and its version comes once, as the push).  When the socket cannot carry a change,
the same change goes by POST at the same seq, and the server counts it once."""

from __future__ import annotations

import pytest

from browser_helpers import MY_TURN, create_game, no_playback, open_seat, push_deck, seq, wait_seq_change

pytestmark = pytest.mark.browser


def test_actions_go_on_the_socket_and_by_post_when_it_fails(page, server):
    game = create_game(server, seed=15)     # two pushes, no spoil
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/actions" in r.url else None)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(f if isinstance(f, str) else str(f))))
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    page.wait_for_selector("#deck.clickable")
    before = seq(page)
    push_deck(page)                           # the two-click push
    wait_seq_change(page, before)
    assert not posts, posts
    sent = [f for f in frames if '"type":"action"' in f]
    assert len(sent) == 1 and '"action":"push"' in sent[0] and f'"seq":{before}' in sent[0] and '"ref":' in sent[0]
    assert "Player 1 pushes" in page.inner_text("#log")

    # A socket that takes the change but never answers (it died quietly): after a while the page
    # sends it again by POST at the same seq; the server applies it once.
    page.evaluate("""() => { WebSocket.prototype.send = function () { }; }""")
    page.wait_for_selector("#deck.clickable")
    at = seq(page)
    push_deck(page)
    page.wait_for_function(f"document.body.dataset.seq !== '{at}'")
    assert len(posts) == 1 and f"since={at}" in posts[0]
    assert int(seq(page)) >= int(at) + 1
    assert page.inner_text("#log").count("Player 1 pushes") == 2
    assert page.locator("#banner.error:not([hidden])").count() == 0
