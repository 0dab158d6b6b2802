"""Helpers shared by the browser tests (kept out of conftest so test modules can import them)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urljoin

from ports import free_port
from waiting import HTTP_TIMEOUT, PATIENCE, PATIENCE_MS, wait_for


def http_json(method: str, url: str, payload: dict | None = None) -> dict:
    """A small JSON request helper for set-up steps the tests do not click through."""
    data = json.dumps(payload).encode() if payload is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as resp:
        return json.loads(resp.read().decode())


#: The browser tests are one client address that creates a few dozen games within a minute and
#: dozens of people (names) within ten (each test its own), and joins open tables; the server's
#: per-address bounds (20 games a minute, 20 people and 10 seats at open tables per 10 minutes by
#: default) are for strangers, and tests/server (test_bad_input.py, test_people.py, test_tables.py)
#: check them.  Without this a full run answered 429.
BROWSER_TEST_LIMITS = ("--games-per-minute", "1000", "--bot-only-per-minute", "1000", "--people-per-10min", "1000",
                       "--joins-per-10min", "1000")


class ServerProcess:
    """``mysticvale serve`` as a subprocess on 127.0.0.1:``port`` with its SQLite file in ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    def start(self, timeout: float = PATIENCE) -> "ServerProcess":
        """Start the server and wait until /api/health answers; RuntimeError with its log if not."""
        cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve",
               "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
               "--allow-seed", *BROWSER_TEST_LIMITS]
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.data_dir)
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n"
                                   f"{self.log_path.read_text()[-3000:]}")
            try:
                http_json("GET", self.base + "/api/health")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    self.proc.kill()
                    raise RuntimeError(f"the server did not answer /api/health within {timeout} s") from None
                time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=PATIENCE)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class PatientBrowser:
    """The session's Chromium: every browser context it opens waits up to :data:`PATIENCE_MS` for a
    condition (a selector, a function, a navigation) unless a test says otherwise."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, **options):
        ctx = self._browser.new_context(**options)
        ctx.set_default_timeout(PATIENCE_MS)
        return ctx

    def __getattr__(self, name):
        return getattr(self._browser, name)


# -- driving the table ------------------------------------------------------------------------------
MY_TURN = "document.body.dataset.myturn === 'yes' || document.body.dataset.over === 'yes'"


def create_game(server: str, seed: int, bots: dict[str, str] | None = None, players: int = 2,
                sets: tuple[str, ...] = ("base",), leaders: bool = False, ruleset: str = "yucata") -> dict:
    return http_json("POST", server + "/api/games", {
        "players": players, "sets": list(sets), "leaders": leaders, "ruleset": ruleset,
        "bots": bots if bots is not None else {"1": "random"}, "seed": seed})


def seat_state(server: str, game: dict, seat: int) -> dict:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return http_json("GET", f"{server}/api/games/{game['id']}/state?token={token}")


def play_api(server: str, game: dict, seat: int, choose, until, limit: int = 3000) -> dict:
    """Play ``seat`` through the HTTP API (``choose(state) -> action``), waiting for bots, until
    ``until(state)`` holds for a state where it is that seat's decision (or the game is over);
    ``limit`` counts the seat's actions and the other seats' moves waited for."""
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    for _ in range(limit):
        st = seat_state(server, game, seat)
        if st["observation"]["over"] or (st["legal_actions"] and until(st)):
            return st
        if not st["legal_actions"]:
            wait_for(lambda: seat_state(server, game, seat)["seq"] != st["seq"])     # another seat moves
            continue
        http_json("POST", f"{server}/api/games/{game['id']}/actions",
                  {"token": token, "action": choose(st), "seq": st["seq"]})
    raise AssertionError("the state was not reached")


def open_seat(page, server: str, game: dict, seat: int = 0) -> None:
    url = next(s["url"] for s in game["seats"] if s["seat"] == seat)
    page.goto(urljoin(server, url))
    page.wait_for_selector("#field")


def no_playback(page) -> None:
    """Show other players' moves at once (the animations setting off), before the page loads."""
    use_settings(page, animations=False)


def use_settings(page, **settings) -> None:
    """Settings of this device, put in place before the page loads."""
    page.add_init_script(f"localStorage.setItem('mysticvale.settings', JSON.stringify({json.dumps(settings)}))")


def seq(page) -> str:
    return page.evaluate("document.body.dataset.seq")


def wait_seq_change(page, before: str) -> None:
    """Wait until the page shows a version other than ``before``."""
    page.wait_for_function(f"document.body.dataset.seq !== {before!r}")


def click_and_wait(page, selector: str) -> None:
    """Click ``selector`` and wait for the next version of the game (the click's action or undo)."""
    before = seq(page)
    page.click(selector)
    wait_seq_change(page, before)


def seat_url(server: str, game: dict, seat: int | None) -> str:
    """The address of ``seat``'s invitation link (None: the spectator's)."""
    if seat is None:
        return urljoin(server, f"/games/{game['id']}")
    return urljoin(server, next(s["url"] for s in game["seats"] if s["seat"] == seat))


def no_horizontal_scroll(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


#: What covers the window rather than the page (fixed): a dialog, the zoom, the spoil banner, the
#: tour, a keyword tooltip.  A full-page screenshot would draw it over the first screen only.
COVERS_WINDOW = ".overlay, #zoom:not([hidden]), #big-banner:not([hidden]), #tour, .help-tip:not([hidden])"


def screenshot(page, path, full_page: bool = False) -> None:
    """A screenshot for review, as a player sees the page: animations with an end (a banner popping
    in, cards of a turn played back flying) finished first; a full-page shot taken from the top of the page (taken scrolled, it draws the
    sticky bars where the page stood) and the scroll put back; a viewport shot instead while a
    dialog or anything else that covers the window is open (a full page would show its backdrop
    over the first screen only)."""
    page.evaluate("""async () => {
      // (a few rounds: a step of another player's turn played back may start the next step's)
      for (let round = 0; round < 8; round++) {
        const running = document.getAnimations().filter((a) => {
          const t = a.effect && a.effect.getComputedTiming();
          return a.playState === 'running' && !!t && Number.isFinite(t.endTime); });
        if (!running.length) return;
        await Promise.all(running.map((a) => a.finished.catch(() => null)));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    }""")
    if full_page and not page.locator(COVERS_WINDOW).count():
        y = page.evaluate("window.scrollY")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=True)
        page.evaluate(f"window.scrollTo(0, {y})")
    else:
        page.screenshot(path=str(path))




def views(browser, url: str, path_prefix: Path, ready: str, *, before=None, tour_offer: bool = False) -> list[Path]:
    """Screenshots of the page at ``url`` as four players see it: desktop (1366x900) and phone
    (390x844), English and German, each in a fresh context with animations off (and the first-game
    tour already declined unless ``tour_offer``), taken once ``ready`` (a selector) is there.
    ``before(page)`` may act first (open a tab).  Returns the paths (``<prefix>-desktop-en.png``, ...)."""
    paths = []
    for size, viewport in (("desktop", {"width": 1366, "height": 900}), ("phone", PHONE)):
        for lang in ("en", "de"):
            ctx = browser.new_context(viewport=viewport, is_mobile=size == "phone", has_touch=size == "phone")
            try:
                pg = ctx.new_page()
                use_settings(pg, animations=False, language=lang, languageAsked=True)
                if not tour_offer:
                    pg.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
                pg.goto(url)
                pg.wait_for_selector(ready, state="attached")
                if before is not None:
                    before(pg)
                pg.mouse.move(2, 2)
                path = Path(f"{path_prefix}-{size}-{lang}.png")
                screenshot(pg, path)
                paths.append(path)
            finally:
                ctx.close()
    return paths


# -- phone size --------------------------------------------------------------------------------------
#: The phone the tests hold (an iPhone 12-14's CSS viewport).
PHONE = {"width": 390, "height": 844}


@contextmanager
def phone_page(browser, **settings):
    """A page in a fresh touch context at phone size (settings of this device put in place first, as
    :func:`use_settings`); JavaScript errors in the page fail the test, as the ``page`` fixture's do."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    if settings:
        use_settings(pg, **settings)
    try:
        yield pg
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def phone_tabs_shown(page) -> bool:
    """Whether the table shows its phone tabs (field, commons, players, log)."""
    return page.evaluate("(() => { const t = document.querySelector('#tabs'); return !!t && !!t.offsetParent; })()")


def open_tab(page, tab: str) -> None:
    """On a phone: show the tab ``tab`` (a no-op when it is shown already)."""
    if page.evaluate("document.querySelector('.table').dataset.tab") != tab:
        page.click(f"#tabs [data-tab={tab}]")
        page.wait_for_selector(f".table[data-tab={tab}]")


def tab_of(page, target: str) -> str | None:
    """The phone tab holding the element ``target`` (None: it is in no tab, e.g. the sticky bar)."""
    return page.locator(target).first.evaluate(
        "el => { const s = el.closest('section[data-tab]'); return s ? s.dataset.tab : null; }")


_BOXES_JS = """(sels) => sels.map((s) => {
  const el = document.querySelector(s);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? {x: r.x, y: r.y, width: r.width, height: r.height} : null;
})"""


def boxes(page, *selectors: str) -> list[dict]:
    """The boxes of the first element of each of ``selectors``, measured in one step of the page,
    once every one of them is shown.  The table draws itself anew on each change, replacing its
    elements: boxes read one at a time (``locator.bounding_box()``) may come from two drawings,
    or from an element the page has just replaced (None), so they are read here all at once, in
    the page, and read again until each element is on the page and has a size."""
    return wait_for(lambda: (lambda got: got if all(got) else None)(page.evaluate(_BOXES_JS, list(selectors))))


#: The element's box as the page stands, read in the page in one step (``locator.evaluate``
#: finds the element and runs this at once): a box read apart from finding the element could
#: belong to an element the table's next drawing has dropped.
_BOX_JS = """(el) => { const r = el.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height}; }"""


def in_viewport(page, target: str) -> bool:
    """Whether ``target`` (a Playwright selector) is wholly on screen as the page stands
    (without scrolling to it)."""
    box = page.locator(target).first.evaluate(_BOX_JS)
    size = page.viewport_size
    return bool(box["width"] or box["height"]) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1 \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1


def count_sent_changes(page) -> None:
    """From now on the page counts the actions and undos it sends, on its socket or by POST
    (``window.__sent``).  A click sends its action in its own handler (js/table.js ``send`` and
    transport.js ``change`` call ``WebSocket.send`` or ``fetch`` before their first wait), so a test
    reads the count right after the click to know that the click sent nothing: no waiting to see
    whether something comes."""
    page.evaluate("""() => { if (window.__sent !== undefined) return; window.__sent = 0;
      const f = window.fetch;
      window.fetch = (url, opts) => { if (/\\/(actions|undo)(\\?|$)/.test(String(url))) window.__sent += 1; return f(url, opts); };
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        if (/"type":"(action|undo)"/.test(String(data))) window.__sent += 1;
        return send.call(this, data); }; }""")


def sent_changes(page) -> int:
    """How many actions and undos the page sent since :func:`count_sent_changes`."""
    return page.evaluate("window.__sent")


def push_deck(page) -> None:
    """The two-click push as a player makes it: a click arms the deck, the next one pushes.  An armed
    deck disarms after 6 s (js/table.js ARM_MS), which a loaded machine can take between two
    clicks: the deck is armed (again) right before the pushing click, as a player would."""
    for _ in range(5):
        if page.locator("#deck.armed").count():
            break
        page.click("#deck")
    else:
        raise AssertionError("a click on the deck does not arm it")
    page.click("#deck")


def click_and_see(page, target: str, selector: str, text: str) -> None:
    """Click ``target`` and wait until an element ``selector`` has said ``text`` since the click: a
    passing state (a copy button says "Copied" for 1.5 s), so the page itself records it rather
    than a poll from here, which a loaded machine can make later than the moment."""
    page.evaluate("""([sel, text]) => { window.__saw = false;
      const look = () => { if ([...document.querySelectorAll(sel)].some((e) => e.textContent === text)) window.__saw = true; };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true }); }""",
                  [selector, text])
    page.click(target)
    page.wait_for_function("window.__saw === true")


def long_press(page, target, height: float = 0.5, until: str = "#zoom.touch:not([hidden])") -> None:
    """A finger on ``target`` (a locator; at ``height`` of its box, from the top), held on the touch
    screen until ``until`` shows (the page's long press took effect), then lifted."""
    # Scrolled to and measured in one step of the page (see _BOX_JS).
    box = target.evaluate("(el) => { el.scrollIntoView({block: 'nearest', inline: 'nearest'}); "
                          "return (" + _BOX_JS + ")(el); }")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * height
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    try:
        page.wait_for_selector(until)
    finally:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()


# -- a whole game by clicking -------------------------------------------------------------------------
def choose_click(page, step: int) -> str:
    """Pick what to click for this decision, by looking only at the page (like a person would)."""
    if page.locator("#chooser").count():
        return "#chooser [data-action] >> nth=0"
    if page.locator("#deck.reveal").count():
        return "#deck.reveal"             # after a When Played ability: one click reveals the next card
    if page.locator("#deck.clickable").count():
        decay = int(page.locator("#players .player.me").get_attribute("data-decay"))
        if decay <= 1 or page.locator("#buttons [data-action=pass]").count() == 0 or step % 3 == 0:
            return "#deck"
        return "#buttons [data-action=pass]"
    supply = page.locator("#supply .clickable")
    if supply.count():
        return f"#supply .clickable >> nth={supply.count() - 1 - step % min(2, supply.count())}"
    if page.locator("#my-token.clickable").count():
        return "#my-token"
    for sel in ("#private [data-action]", "#field .sleeve-target", ".card-acts [data-action]",
                "#players .vale-face.clickable", "#buttons [data-action]:not(#finish)", "#finish"):
        if page.locator(sel).count():
            return sel + " >> nth=0"
    raise AssertionError("it is my decision but nothing is clickable: " + page.inner_text("#app")[:2000])


def play_game_by_clicking(page, shot_dir: Path | None = None, shot_prefix: str = "table",
                          limit: int = 3000) -> dict:
    """Play the page's seat to the end of the game only by clicking what the page offers
    (:func:`choose_click`): the two-click push, the commons, choosers, Finish Turn, and once an undo
    of a Fertile Soil purchase.  On a phone (the tabs shown) every click first opens the tab that
    holds its target, Undo and Finish Turn are clicked in the sticky bar (checked to be on screen
    without scrolling), and after every few turns the players and log tabs are looked at (no
    sideways scrolling, the log's newest turn first).  Returns counts of what was done: clicks,
    pushes, finishes (End Harvest), turn_ends (Finish Turn), undos, tabs (opened, by name),
    bar_clicks, elapsed (s)."""
    phone = phone_tabs_shown(page)
    start = time.monotonic()
    stats = {"clicks": 0, "pushes": 0, "finishes": 0, "turn_ends": 0, "undos": 0, "tabs": {}, "bar_clicks": 0}

    def show(target: str) -> None:
        if not phone:
            return
        tab = tab_of(page, target)
        if tab is None:                       # the sticky bar (or a dialog): always at hand
            if target.startswith(("#finish", "#undo", "#buttons")):
                assert page.locator(f"#actionbar {target.split(' >> ')[0]}").count(), target
                assert in_viewport(page, target), f"{target} is not on screen in the sticky bar"
                stats["bar_clicks"] += 1
            return
        open_tab(page, tab)
        stats["tabs"][tab] = stats["tabs"].get(tab, 0) + 1

    def look_around() -> None:
        for tab in ("players", "log"):
            open_tab(page, tab)
            stats["tabs"][tab] = stats["tabs"].get(tab, 0) + 1
            width, inner = no_horizontal_scroll(page)
            assert width <= inner, f"the {tab} tab scrolls sideways: {width} > {inner}"
        turns = page.locator("#log > li.log-turn")
        assert turns.count() >= 1
        numbers = [int(x) for x in turns.evaluate_all("els => els.map((e) => e.dataset.turn)")]
        assert numbers == sorted(numbers, reverse=True)          # the newest turn first

    shot_taken = False
    for step in range(limit):
        page.wait_for_function(MY_TURN)
        if page.evaluate("document.body.dataset.over") == "yes":
            break
        before = seq(page)
        target = choose_click(page, step)
        show(target)
        if target == "#deck":
            # Two-click push: the first click only arms the deck; nothing is sent.  (Whether it is
            # still armed is not asserted here: it disarms after 6 s, which a loaded machine can take
            # between two steps; push_deck arms it again first if so, and test_table.py checks arming.)
            page.click("#deck")
            assert seq(page) == before
            push_deck(page)                     # (armed: the second click pushes)
            stats["pushes"] += 1
        else:
            turn_end = False
            if target.startswith("#finish") and "Finish Turn" in page.inner_text("#finish"):
                stats["turn_ends"] += 1                 # (with the engine's finish_turn option)
                turn_end = True
            elif target.startswith("#finish"):
                stats["finishes"] += 1
                if shot_dir is not None and not shot_taken and stats["finishes"] == 3:
                    screenshot(page, shot_dir / f"{shot_prefix}-harvest.png", full_page=not phone)
                    shot_taken = True
            label = page.locator(target).first.get_attribute("data-action") or ""
            page.click(target)
            if label.startswith("buy soil") and stats["undos"] == 0:
                # Undo within the turn: the purchase is taken back.
                wait_seq_change(page, before)
                if page.locator("#undo").count():
                    after_buy = seq(page)
                    show("#undo")
                    page.click("#undo")
                    wait_seq_change(page, after_buy)
                    stats["undos"] += 1
                continue
            if turn_end and phone and stats["turn_ends"] % 4 == 1:
                wait_seq_change(page, before)
                look_around()
                stats["clicks"] += 1
                continue
        stats["clicks"] += 1
        if page.locator("#chooser").count() == 0:
            wait_seq_change(page, before)
    else:
        raise AssertionError(f"the game did not end within {limit} decisions")
    stats["elapsed"] = time.monotonic() - start
    return stats
