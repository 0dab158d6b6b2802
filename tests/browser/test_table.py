"""The table as a Mystic Vale player meets it, in Chromium: the two-click push without holes, automatic
reveal, other players' turns played back step by step (and at once with animations off), the spoil
banner, the sleeve preview, zoom, the end screen with rematch, and the phone layout."""

from __future__ import annotations

import re
import statistics

import pytest

from browser_helpers import (MY_TURN, boxes, count_sent_changes, create_game, http_json, long_press, no_horizontal_scroll,
                             no_playback, open_seat, play_api, push_deck, screenshot, sent_changes, seq, use_settings,
                             wait_seq_change)

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")


def _first(prefixes):
    def choose(st):
        for p in prefixes:
            for a in st["legal_actions"]:
                if a.startswith(p):
                    return a
        return st["legal_actions"][0]
    return choose


# -- the two-click push ----------------------------------------------------------------------------
def test_two_click_push_has_no_holes(page, server, browser):
    game = create_game(server, seed=44)
    token = game["seats"][0]["token"]
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    page.wait_for_selector("#deck.clickable")
    # Push is offered nowhere but on the deck, and one click only arms it.
    assert page.locator("[data-action=push]").count() == 0
    before = seq(page)
    count_sent_changes(page)
    page.click("#deck")
    page.wait_for_selector("#deck.armed")
    assert sent_changes(page) == 0 and seq(page) == before
    assert "click again" in page.inner_text("#deck")
    # The game moves on between the two clicks (another tab pushes): the second click only arms.
    http_json("POST", f"{server}/api/games/{game['id']}/actions",
              {"token": token, "action": "push", "seq": int(before)})
    wait_seq_change(page, before)
    moved = seq(page)
    if page.locator("#deck.clickable").count():
        page.click("#deck")
        page.wait_for_selector("#deck.armed")
        assert sent_changes(page) == 0 and seq(page) == moved
        # A click while the push is on its way is neither lost nor a push: it arms the deck for
        # the next card once the answer is there.
        pushes = page.inner_text("#log").count("Player 1 pushes")
        turns = page.inner_text("#log").count("Player 1's turn")
        # (the page's actions are held on their way from here on, on the socket or by POST, until
        # the test lets them go)
        page.evaluate("""() => { window.__held = []; window.__release = () => window.__held.splice(0).forEach((go) => go());
          const f = window.fetch; window.fetch = (url, opts) => String(url).includes('/actions')
            ? new Promise((done) => window.__held.push(() => done(f(url, opts)))) : f(url, opts);
          const send = WebSocket.prototype.send;
          WebSocket.prototype.send = function (data) {
            if (String(data).includes('"type":"action"')) { window.__held.push(() => send.call(this, data)); return; }
            return send.call(this, data); }; }""")
        push_deck(page)                           # the second click: pushes (held on its way)
        page.wait_for_function("window.__held.length === 1 && document.body.classList.contains('busy')")
        page.click("#deck", force=True)           # a third click while it is on its way
        assert page.evaluate("document.body.classList.contains('busy')")
        assert page.evaluate("window.__held.length") == 1             # nothing more was sent
        page.evaluate("window.__release()")
        wait_seq_change(page, moved)
        # The third click arms the deck once the answer is there (if the Planting goes on), and
        # sends nothing.
        page.wait_for_function("!document.body.classList.contains('busy') && "
                               "(!!document.querySelector('#deck.armed') || !document.querySelector('#deck.clickable'))")
        assert page.evaluate("window.__held.length") == 0
        assert page.inner_text("#log").count("Player 1 pushes") == pushes + 1    # one push, not two
        if page.inner_text("#log").count("Player 1's turn") == turns and page.locator("#deck.clickable").count():
            assert page.locator("#deck.armed").count() == 1      # still this Planting: armed for the next card


def test_automatic_reveal_never_takes_a_deliberate_click(page, server):
    game = create_game(server, seed=42)
    use_settings(page, animations=True, autoReveal=False, autoRevealLimit=9)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    page.wait_for_selector("#deck.clickable")
    before = seq(page)
    count_sent_changes(page)
    page.click("#deck")                           # the player starts a push by hand ...
    page.check("#auto-reveal")                    # ... and switches automatic reveal on meanwhile
    # automatic reveal waits: the deck is armed by hand, so no automatic push is even scheduled
    # (js/table.js maybeAutoReveal), and nothing was sent
    assert page.evaluate("window.mysticvaleClient.table().autoTimer") is None
    assert sent_changes(page) == 0 and seq(page) == before
    assert page.locator("#deck.armed").count() == 1
    page.click("#deck")                           # the deliberate second click pushes
    assert sent_changes(page) == 1                # (and is counted: the counts of nothing sent above mean it)
    wait_seq_change(page, before)
    # From here automatic reveal plays on by itself (decay below 9), never arming the deck.
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {int(before) + 2}")
    assert page.locator("#deck.armed").count() == 0


def test_automatic_reveal_works_at_the_start_of_a_turn(page, server):
    # A game where the bot has the star: our first turn starts after its turn, played back step by step.
    for seed in range(43, 80):
        game = create_game(server, seed=seed, bots={"1": "greedy"})
        if http_json("GET", f"{server}/api/games/{game['id']}/state")["observation"]["first_player"] == 1:
            break
    use_settings(page, animations=True, autoReveal=True, autoRevealLimit=9)
    open_seat(page, server, game)
    page.wait_for_function("document.querySelector('#log') && /Player 1 pushes/.test(document.querySelector('#log').innerText)")
    kinds = page.evaluate("window.mysticvaleClient.table().log.map((e) => [e.k, e.p])")
    first_push = kinds.index(["push", 0])
    assert ["turn", 1] in kinds[:first_push] and ["turn", 0] in kinds[:first_push]       # after the bot's turn


# -- playback ----------------------------------------------------------------------------------------
_RECORD = """() => {
  window.__shown = [];
  window.__prompts = [];
  new MutationObserver(() => {
    const s = Number(document.body.dataset.seq);
    const last = window.__shown[window.__shown.length - 1];
    if (!last || last[0] !== s) window.__shown.push([s, performance.now(), window.mysticvaleClient.table().lastBy]);
    if (document.body.dataset.playing === 'yes') window.__prompts.push(document.querySelector('#prompt').innerText);
    // cards moving: animations of elements that moved (requestAnimationFrame: after they started)
    requestAnimationFrame(() => { window.__moving = Math.max(window.__moving || 0,
      document.getAnimations().filter((a) => a.effect && a.effect.target && a.effect.target.closest('[data-flip], .ghost-fly')).length); });
  }).observe(document.body, { attributes: true, attributeFilter: ["data-seq", "data-playing"] });
}"""


#: When each version came over the socket (``window.__arrived``: seq -> performance.now()).
_ARRIVALS = """(() => {
  window.__arrived = {};
  const slot = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', { configurable: true,
    get() { return slot.get.call(this); },
    set(handler) { slot.set.call(this, (ev) => {
      try { const m = JSON.parse(ev.data); if (m.seq !== undefined && !(m.seq in window.__arrived)) window.__arrived[m.seq] = performance.now(); }
      catch (e) { /* not JSON: the page says so */ }
      return handler.call(this, ev); }); } });
})();"""


@pytest.mark.parametrize("animations", [True, False])
def test_other_players_turns_play_back_one_step_at_a_time(page, server, animations, shot_dir):
    game = create_game(server, seed=44, bots={"1": "greedy", "2": "greedy"}, players=3)
    use_settings(page, animations=animations)
    page.add_init_script(_ARRIVALS)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    page.evaluate(_RECORD)
    # My turn, as the page offers it: pass the Planting, end the Harvest (sleeving if asked) and the
    # turn; the bots' turns follow.
    for _ in range(8):
        if page.evaluate("document.body.dataset.myturn") != "yes":
            break
        before = seq(page)
        if page.locator("#buttons [data-action=pass]").count():
            page.click("#buttons [data-action=pass]")
        elif page.locator("#field .sleeve-target").count():
            page.click("#field .sleeve-target >> nth=0")
        else:
            # End Harvest, then Finish Turn.  After Finish Turn the turn is over, however fast the bots
            # then play theirs (without playback my next turn may already be on screen).
            ending = page.locator("#finish").inner_text().strip() == "Finish Turn"
            page.click("#finish")
            wait_seq_change(page, before)
            if ending:
                break
            continue
        wait_seq_change(page, before)
    else:
        raise AssertionError("my turn did not end")
    if animations:
        page.wait_for_selector("body[data-playing=yes]")
        page.wait_for_timeout(250)                # (the screenshot: a step in the middle of its move)
        screenshot(page, shot_dir / "playback-desktop.png")
    page.wait_for_function(MY_TURN + " && document.body.dataset.playing === 'no'")
    if animations:
        prompts = page.evaluate("window.__prompts")
        assert prompts and all("step by step" in p for p in prompts), prompts
        assert page.evaluate("window.__moving") > 0            # the cards moved to where they went
    else:
        assert not page.evaluate("window.__moving")
    shown = page.evaluate("window.__shown")
    arrived = {int(k): v for k, v in page.evaluate("window.__arrived").items()}
    seqs = [s for s, _, _ in shown]
    assert seqs == sorted(seqs)
    steps = [(b[1] - a[1], b[0] - a[0]) for a, b in zip(shown, shown[1:])]
    # the time between two versions both made by bots, as they came on screen
    bot_steps = [b[1] - a[1] for a, b in zip(shown, shown[1:]) if a[2] in (1, 2) and b[2] in (1, 2)]
    if animations:
        # every version shown, one after the other, 0.4 s apart (or later, when a bot thinks longer)
        assert all(ds == 1 for _, ds in steps), steps
        assert len(bot_steps) >= 3 and min(bot_steps) >= 380 and statistics.median(bot_steps) >= 390, bot_steps
    else:
        # at once: each bot's version is on screen as soon as the page has it (no 0.4 s steps), however
        # fast or slow the server made them
        late = [t - arrived[s] for s, t, by in shown if by in (1, 2) and s in arrived and t - arrived[s] >= 350]
        assert len(bot_steps) >= 3 and len(late) <= len(bot_steps) // 3, (late, bot_steps)


def test_versions_taken_together_are_still_shown_one_step_at_a_time(page, server):
    """An answer over HTTP (a reconnect, a slow socket) brings the player's own version and the
    bots' next ones in one go: the player's own is shown at once and stays STEP_MS before the
    first bot step moves the cards, and each bot step is drawn in its own moment, STEP_MS apart
    (before, the first bot step was drawn in the same moment as the player's own version)."""
    use_settings(page, animations=True)
    page.goto(server + "/")
    got = page.evaluate("""async () => {
      const { Playback, STEP_MS } = await import('/static/js/playback.js');
      const drawn = [];
      let done;
      const finished = new Promise((resolve) => { done = resolve; });
      const p = new Playback({ apply: () => {}, mySeat: () => 0,
        draw: ({ animate, msgs }) => drawn.push([performance.now(), animate, msgs.map((m) => m.seq)]),
        idle: () => { if (!p.playing && drawn.some(([, , seqs]) => seqs.includes(4))) done(); } });
      [[1, 0], [2, 1], [3, 1], [4, 2]].forEach(([seq, by]) => p.push({ type: 'delta', seq, by }));
      await finished;
      return { drawn, step: STEP_MS };
    }""")
    drawn, step = got["drawn"], got["step"]
    assert [(animate, seqs) for _, animate, seqs in drawn] == [(False, [1]), (True, [2]), (True, [3]), (True, [4])]
    gaps = [b[0] - a[0] for a, b in zip(drawn, drawn[1:])]
    assert min(gaps) >= step - 10, gaps          # (a timer may fire a little late, never early)


def test_spoil_banner_and_the_log_in_the_games_words(page, server, shot_dir):
    game = create_game(server, seed=45)
    no_playback(page)
    open_seat(page, server, game)
    page.evaluate("""() => { window.__banners = [];
      new MutationObserver(() => { const b = document.querySelector('#big-banner');
        if (b && !b.hidden) window.__banners.push(b.innerText); })
        .observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] }); }""")
    for _ in range(40):                          # push every time until we spoil
        page.wait_for_function(MY_TURN)
        if page.evaluate("window.__banners.length"):
            break
        before = seq(page)
        if page.locator("#deck.clickable").count():
            push_deck(page)
        elif page.locator("#finish").count():
            page.click("#finish")
        elif page.locator("#buttons [data-action=pass]").count():
            page.click("#buttons [data-action=pass]")
        else:
            page.click("#field .sleeve-target >> nth=0")
        wait_seq_change(page, before)
    page.wait_for_function("window.__banners.length > 0")
    text = page.evaluate("window.__banners[0]")
    assert re.fullmatch(r"You spoiled with \d+ decay", text.strip()), text
    n = int(re.search(r"\d+", text).group())
    assert n >= 4
    screenshot(page, shot_dir / "spoil-banner.png")
    log = page.inner_text("#log")
    assert f"Player 1 spoils with {n} decay" in log
    assert not re.search(r"#\d|@(top|middle|bottom)", log)        # card names, not notation


# -- sleeve preview, zoom ----------------------------------------------------------------------------
def test_sleeve_preview_zoom_and_the_numbers_in_view(page, server, shot_dir):
    game = create_game(server, seed=47, sets=SETS)
    # Our Harvest: buy two Fertile Soils of one slot, then end the Harvest: where to sleeve is asked.
    st = play_api(server, game, 0, _first(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    assert st["observation"]["phase"] == "harvest"
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    # the sticky bar: mana left, buys left, End Harvest
    bar = page.inner_text("#actionbar")
    assert "buys 0/2 · vales 0/2" in bar and "End Harvest" in bar
    # the field: the mana left; the buys are the bar's, and spoiling no longer matters in the Harvest
    field = page.inner_text("#field")
    assert re.search(r"\d+ mana left", field) and "0/2" not in field and "spoils at" not in field
    # zoom: hovering a commons card shows it large with its text
    page.hover("#supply [data-commons='1.1']")
    page.wait_for_selector("#zoom:not([hidden]) .face.zoomed")
    assert page.locator("#zoom .zoom-text li").count() >= 1
    screenshot(page, shot_dir / "zoom-desktop.png")
    page.mouse.move(5, 5)
    page.wait_for_selector("#zoom[hidden]", state="attached")
    for _ in range(2):
        soil = page.locator("#supply .soil.clickable[data-soil=top]")
        if not soil.count():
            break
        before = seq(page)
        soil.click()
        wait_seq_change(page, before)
    before = seq(page)
    page.click("#finish")
    wait_seq_change(page, before)
    if page.locator("#field .sleeve-target").count() == 0:
        pytest.skip("only one card could take the advancement: sleeved without asking")
    # each target drawn with the new advancement in its slot; taken slots cannot be chosen
    assert page.locator("#field .sleeve-target .layer.ghost").count() == page.locator("#field .sleeve-target").count()
    blocked = page.locator("#field .sleeve-blocked")
    if blocked.count():
        assert "top slot taken" in blocked.first.inner_text()
        assert blocked.first.get_attribute("data-action") is None
    assert "Choose the card to sleeve Fertile Soil on (top slot)" in page.inner_text("#field")
    screenshot(page, shot_dir / "sleeve-preview-desktop.png", full_page=True)
    target = page.locator("#field .sleeve-target").first
    card = target.get_attribute("data-card")
    before = seq(page)
    target.click()
    wait_seq_change(page, before)
    page.wait_for_function(f"""() => {{ const v = window.mysticvaleClient.table().view.observation;
        const all = v.players[0].field.concat(v.players[0].discard || [], v.players[0].deck || []);
        const c = all.find((x) => x.id === {card});
        return c && c.advancements.includes('Fertile Soil@top'); }}""")


def test_long_press_zooms_on_a_phone_without_buying(browser, server, shot_dir):
    game = create_game(server, seed=47)
    play_api(server, game, 0, _first(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        pg = ctx.new_page()
        pg.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
        open_seat(pg, server, game)
        pg.wait_for_function(MY_TURN)
        pg.click("#tabs [data-tab=commons]")
        before = seq(pg)
        count_sent_changes(pg)
        long_press(pg, pg.locator("#supply .soil.clickable").first, height=1 / 3)
        screenshot(pg, shot_dir / "zoom-phone.png")
        pg.click("#zoom")
        pg.wait_for_selector("#zoom[hidden]", state="attached")
        # the long press bought nothing (read after the next input: a click the touch could have
        # caused would have come before it)
        assert sent_changes(pg) == 0 and seq(pg) == before
    finally:
        ctx.close()


# -- the end ---------------------------------------------------------------------------------------
def test_end_screen_is_labelled_reopens_and_starts_a_rematch(page, server, shot_dir):
    game = create_game(server, seed=48)
    st = play_api(server, game, 0, _first(["push", "buy 3", "buy 2", "vale", "buy", "finish"]), lambda s: False,
                  limit=5000)
    assert st["observation"]["over"]
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_selector("#end table.scores")
    rows = page.locator("#end tbody th").all_inner_texts()
    assert all(r.strip() for r in rows)
    assert any("Tie-break" in r and "level-3 advancements + level-2 vales" in r for r in rows)
    screenshot(page, shot_dir / "end-screen-desktop.png")
    page.click("#end .close")
    page.wait_for_selector("#end", state="detached")
    page.click("#scores-btn")                                   # reopened from the top bar
    page.wait_for_selector("#end table.scores")
    page.click("#rematch")
    # the rematch's own token for this seat (issue 22: a new one), read and gone from the address
    page.wait_for_url(re.compile(r"/games/(?!" + re.escape(game["id"]) + r")[^#?/]+$"))
    page.wait_for_selector("#field")
    page.wait_for_function(MY_TURN)
    assert page.locator("#players .player.me").get_attribute("data-seat") == "0"
    assert "Random bot" in page.inner_text("#players")
    assert page.evaluate("document.body.dataset.over") == "no"


# -- phone -------------------------------------------------------------------------------------------
def test_phone_harvest_needs_no_long_scroll(browser, server, shot_dir):
    game = create_game(server, seed=49, sets=SETS, players=3, bots={"1": "greedy", "2": "greedy"})
    play_api(server, game, 0, _first(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        pg = ctx.new_page()
        pg.add_init_script("localStorage.setItem('mysticvale.settings', JSON.stringify({animations: false}))")
        open_seat(pg, server, game)
        pg.wait_for_function(MY_TURN)
        bar, = boxes(pg, "#actionbar")
        assert bar["y"] + bar["height"] <= 844 + 1 and bar["y"] > 600          # at the bottom, in view
        text = pg.inner_text("#actionbar")
        assert "buys 0/2" in text and "End Harvest" in text
        assert pg.locator("#actionbar #resources .res-mana").count() == 1
        for tab in ("field", "commons", "players", "log"):
            pg.click(f"#tabs [data-tab={tab}]")
            pg.wait_for_selector(f".table[data-tab={tab}]")
            width, inner = no_horizontal_scroll(pg)
            assert width <= inner, f"the {tab} tab scrolls sideways: {width} > {inner}"
            visible = pg.evaluate("[...document.querySelectorAll('section[data-tab]')].filter(s => s.offsetParent).map(s => s.dataset.tab)")
            assert set(visible) == {tab}, visible
            screenshot(pg, shot_dir / f"phone-harvest-{tab}.png")
        # the commons tab holds every buy within a short scroll
        pg.click("#tabs [data-tab=commons]")
        height = pg.evaluate("document.documentElement.scrollHeight")
        assert height < 844 * 2.6, height
        before = seq(pg)
        pg.click("#finish")                     # End Harvest from the sticky bar
        wait_seq_change(pg, before)
    finally:
        ctx.close()


# -- Finish Turn ---------------------------------------------------------------------------------------
def test_finish_turn_ends_the_turn_and_end_harvest_can_be_undone_while_sleeving(page, server, shot_dir):
    """yucata's turn order (file 000): End Harvest, the sleeve, the Prep, then Finish Turn.  While the
    player chooses where to sleeve nothing is revealed yet, so End Harvest can be taken back; the
    last sleeve is followed by the replenished commons and the Prep, which no undo goes back past."""
    game = create_game(server, seed=47, sets=SETS)
    play_api(server, game, 0, _first(["pass"]), lambda s: s["observation"]["phase"] == "harvest")
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    assert page.inner_text("#finish") == "End Harvest"
    before = seq(page)
    page.click("#supply .soil.clickable[data-soil=top]")
    wait_seq_change(page, before)
    before = seq(page)
    page.click("#finish")                                    # End Harvest
    wait_seq_change(page, before)
    page.wait_for_function(MY_TURN)
    page.wait_for_selector("#field .sleeve-target")          # where to sleeve: End Harvest can be undone
    assert page.locator("#undo").count() == 1
    before = seq(page)
    page.click("#undo")
    wait_seq_change(page, before)
    page.wait_for_selector("#finish")
    assert page.inner_text("#finish") == "End Harvest"
    before = seq(page)
    page.click("#finish")
    wait_seq_change(page, before)
    page.wait_for_selector("#field .sleeve-target")
    before = seq(page)
    page.click("#field .sleeve-target >> nth=0")
    wait_seq_change(page, before)
    page.wait_for_function(MY_TURN)
    # The Prep ran: Finish Turn ends the turn; what the Prep revealed cannot be taken back.
    page.wait_for_selector("#finish")
    assert page.inner_text("#finish") == "Finish Turn"
    assert "Press Finish Turn" in page.inner_text("#prompt")
    assert page.locator("#undo").count() == 0
    screenshot(page, shot_dir / "finish-turn-desktop.png")
    assert "sleeves Fertile Soil (top)" in page.inner_text("#log")
    before = seq(page)
    page.click("#finish")                                    # Finish Turn
    wait_seq_change(page, before)
    assert "Player 1 finishes the turn" in page.inner_text("#log")
