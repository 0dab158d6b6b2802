"""Seat links in the browser (issue 22): the token leaves the address bar once read and the table
survives a reload; a used invitation says so; "sign out everywhere" in the person's panel signs out
the other devices and keeps this one at its seats.

Ben opens his invitation on a new device (desktop), picks his name and takes his seat: the address
becomes ``/games/ID`` and a reload opens the same seat.  Cleo opens the same link afterwards (a
phone, in German) and is told that the invitation was already used.  Ben's second device (the
phone) holds his key too; Ben signs out everywhere on the desktop: his table there reopens at his
seat with its new token, and the phone is back at the name panel.
"""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urljoin

import pytest

from browser_helpers import HTTP_TIMEOUT, screenshot

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def _req(method: str, url: str, payload=None, headers=None) -> tuple[int, dict]:
    data = json.dumps(payload).encode() if payload is not None else None
    h = {"Content-Type": "application/json"} if data else {}
    h.update(headers or {})
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=h),
                                    timeout=HTTP_TIMEOUT) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode())


def _device(browser, phone: bool = False, language: str | None = None):
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())              # the confirmation of "sign out everywhere"
    prefs = {"animations": False, **({"language": language} if language else {})}
    page.add_init_script(f"if (!localStorage.getItem('mysticvale.settings')) "
                         f"localStorage.setItem('mysticvale.settings', {json.dumps(json.dumps(prefs))})")
    return ctx, page, errors


def _my_seat(page) -> str:
    page.wait_for_selector("#players .player.me", state="attached")
    return page.get_attribute("#players .player.me", "data-seat")


def test_the_token_leaves_the_address_a_used_invitation_says_so_and_sign_out_everywhere(browser, server, shot_dir):
    status, anna = _req("POST", server + "/api/people", {"name": "Agnes"})
    assert status == 201
    status, game = _req("POST", server + "/api/games", {"players": 2, "seed": 71},
                        {"X-Player-Key": anna["key"]})
    assert status == 201
    gid = game["id"]
    invitation = urljoin(server, game["seats"][1]["url"])
    assert "#token=" in invitation
    devices = []
    try:
        ctx, ben, ben_errors = _device(browser)
        devices.append((ctx, ben_errors))
        ben.goto(invitation)
        ben.wait_for_selector("#name-panel")
        ben.fill("#person-name", "Bert")
        ben.click("#name-btn")
        assert _my_seat(ben) == "1"
        assert ben.url == f"{server}/games/{gid}"          # the token read, and gone from the address
        ben.wait_for_selector("#field")
        ben.reload()                                       # the same seat after a reload
        assert _my_seat(ben) == "1" and "#token=" not in ben.url
        token_before = ben.evaluate(f"sessionStorage.getItem('mysticvale.seat.{gid}')")
        assert token_before and token_before != game["seats"][1]["token"]    # the claim's fresh token

        # Cleo (a phone, German) opens the invitation Ben used: a clear page, and she may watch
        ctx, cleo, cleo_errors = _device(browser, phone=True, language="de")
        devices.append((ctx, cleo_errors))
        cleo.goto(invitation)
        cleo.wait_for_selector("#error-page[data-status='410']")
        assert "schon benutzt" in cleo.inner_text("#error-page h1")
        assert "#token=" not in cleo.url
        screenshot(cleo, shot_dir / "invitation-used-de-phone.png")
        cleo.click("#watch-game")
        cleo.wait_for_selector("#field")
        assert cleo.locator("#players .player.me").count() == 0     # a spectator

        # The same page in English on a desktop
        ctx, dora, dora_errors = _device(browser, language="en")
        devices.append((ctx, dora_errors))
        dora.goto(invitation)
        dora.wait_for_selector("#error-page[data-status='410']")
        assert dora.inner_text("#error-page h1") == "This invitation was already used"
        screenshot(dora, shot_dir / "invitation-used-en-desktop.png")

        # Ben's phone holds his key too (his personal link)
        ben_key = ben.evaluate("JSON.parse(localStorage.getItem('mysticvale.person')).key")
        ctx, phone, phone_errors = _device(browser, phone=True, language="de")
        devices.append((ctx, phone_errors))
        phone.goto(f"{server}/#key={ben_key}")
        phone.wait_for_selector("#create-form")
        phone.wait_for_selector("#lobby-live.live:not(.down)")       # its lobby socket is open

        # Sign out everywhere, from the person's panel in a second tab of the desktop
        lobby = ben.context.new_page()
        lobby.on("dialog", lambda d: d.accept())
        lobby.goto(server + "/")
        lobby.click("#person-btn")
        lobby.wait_for_selector("#sign-out-everywhere")
        screenshot(lobby, shot_dir / "profile-sign-out-en-desktop.png")
        lobby.click("#sign-out-everywhere")
        lobby.wait_for_selector("#profile .note:has-text('Signed out everywhere')")
        new_key = lobby.evaluate("JSON.parse(localStorage.getItem('mysticvale.person')).key")
        assert new_key != ben_key
        assert _req("GET", server + "/api/people/me", headers={"X-Player-Key": ben_key})[0] == 403
        # the desktop's table reopens at Ben's seat with its new token
        ben.wait_for_function(f"sessionStorage.getItem('mysticvale.seat.{gid}') !== {json.dumps(token_before)}")
        assert _my_seat(ben) == "1"
        ben.wait_for_selector("#field")
        # the phone is signed out: its lobby asks for a name again
        phone.wait_for_selector("#name-panel #name-error:not([hidden])")
        screenshot(phone, shot_dir / "signed-out-de-phone.png")
        # the German panel offers it too
        phone.fill("#person-name", "Bodo")
        phone.click("#name-btn")
        phone.wait_for_selector("#create-form")
        phone.click("#person-btn")
        phone.wait_for_selector("#sign-out-everywhere")
        assert phone.inner_text("#sign-out-everywhere") == "Überall abmelden"
        screenshot(phone, shot_dir / "profile-sign-out-de-phone.png")
    finally:
        for ctx, errors in devices:
            ctx.close()
        for _ctx, errors in devices:
            assert not errors, f"JavaScript errors in the page: {errors}"
