"""More of the table in Chromium, for what a Mystic Vale player meets besides a plain turn:

* a legendary advancement (Twilight Garden) is drawn as one piece over its slots with a marker that
  explains itself (tooltip, zoom, the symbols legend), in the commons and on a card;
* the "since your last turn" summary folds each other player's turn, Prep reveals included, into
  one line; the log groups turns, the newest first, and marks what is new until the player acts;
* a bot that searches (ismcts with a thinking time) is shown as thinking while it thinks;
* another player's spoil gets the big banner on my screen (the seed is found by playing the game
  in the engine exactly as the server plays it, bot seeds included);
* a leader that has been face up is shown to the other players, also after it left the field;
* Undo in the phone's sticky bar takes back a purchase;
* the running score estimate on the table equals the engine's scoring of the position.
"""

from __future__ import annotations

import json
import re

import pytest

import mysticvale as mv
from browser_helpers import (MY_TURN, create_game, http_json, in_viewport, long_press, no_playback, open_seat, open_tab,
                             phone_page, play_api, screenshot, seat_state, seq, use_settings, wait_for,
                             wait_seq_change)
from mysticvale.bots import SeatView
from mysticvale.engine.scoring import breakdown
from mysticvale.server.card_catalogue import catalogue_text
from mysticvale.server.sessions import bot_seed, build_bot

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")


def _first(prefixes):
    """A policy: the first legal action starting with the first prefix that has one."""
    def choose(legal):
        for p in prefixes:
            for a in legal:
                if a.startswith(p):
                    return a
        return legal[0]
    return choose


#: The quiet policy of my seat where another player is watched: never push, buy nothing.
QUIET = _first(["choose", "pass", "finish", "sleeve", "keep", "skip"])


def _act(server: str, game: dict, seat: int, action: str, at: int) -> dict:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return http_json("POST", f"{server}/api/games/{game['id']}/actions", {"token": token, "action": action, "seq": at})


def _wait_seq_at_least(page, n: int) -> None:
    try:
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {n}")
    except Exception as exc:
        got = page.evaluate("(() => { const T = window.mysticvaleClient.table(); return { seq: T.seq, live: T.wsOpen, "
                            "busy: T.busy, playing: window.mysticvaleClient.playing(), shown: document.body.dataset.seq }; })()")
        raise AssertionError(f"the page did not reach version {n}: {got}") from exc


def _name(page, seat: int) -> str:
    """The name the table gives a seat (without "(you)")."""
    return page.inner_text(f"#players .player[data-seat='{seat}'] .pname").replace("(you)", "").strip()


# -- legendary advancements ----------------------------------------------------------------------------
def _legendary_in_commons() -> tuple[int, str, str]:
    """(seed, commons place "3.k", label) of the first 2-player game of all sets dealing a legendary
    advancement into the commons (found in the engine: the server deals the same from its seed)."""
    for seed in range(200):
        o = mv.new_game(players=2, seed=seed, sets=SETS).observe(0)
        for row, cards in o["commons"].items():
            for i, c in enumerate(cards):
                if c and c["legendary"]:
                    return seed, f"{row}.{i + 1}", c["label"]
    raise AssertionError("no game of seeds 0-199 deals a legendary advancement into the commons")


_CARD_WITH = """async ([label, other]) => {
  const C = await import('/static/js/cards.js');
  const face = C.cardFace({ id: 9001, advancements: [other, label], covered: [] });
  const preview = C.cardFace({ id: 9002, advancements: [], covered: [] }, { preview: label });
  const info = (f) => ({ aria: f.querySelector('svg').getAttribute('aria-label'),
    marker: [...f.querySelectorAll('.marker-legendary title')].map((x) => x.textContent),
    pieces: f.querySelectorAll('.layer.legendary').length,
    band: Number(f.querySelector('.layer.legendary .band').getAttribute('height')),
    empty: f.querySelectorAll('.slot-empty').length });
  return [info(face), info(preview)];
}"""


def test_a_legendary_advancement_is_one_piece_with_a_marker_that_explains_itself(page, server, browser, shot_dir):
    seed, place, label = _legendary_in_commons()
    slots = " + ".join(label.split("@")[1].split("+"))
    cat = json.loads(catalogue_text(SETS)[0])
    name = cat["types"][cat["copies"][label]]["name"]
    game = create_game(server, seed=seed, sets=SETS)
    no_playback(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    open_seat(page, server, game)
    face = page.locator(f"#supply [data-commons='{place}']")
    face.wait_for()
    assert face.get_attribute("data-label") == label
    # one advancement over its slots: one band as high as the two slots, one gold frame
    assert face.locator(".layer.legendary").count() == 1
    assert float(face.locator(".layer.legendary .band").get_attribute("height")) > 80
    assert face.locator(".legendary-frame").count() == 1
    # the marker explains itself on hover (an SVG <title>), the text alternative says it too
    title = face.locator(".marker-legendary title").text_content()
    assert title.startswith("Legendary advancement") and f"{slots} slots" in title, title
    assert f"{name} (legendary)" in face.locator("svg.face-svg").get_attribute("aria-label")
    # no other advancement in the commons carries it
    others = page.locator("#supply [data-commons] .marker-legendary").count()
    assert others == sum(1 for row in seat_state(server, game, 0)["observation"]["commons"].values()
                         for c in row if c and c["legendary"])
    # the zoom's details explain it too
    face.hover()
    page.wait_for_selector("#zoom:not([hidden]) .face.zoomed")
    rows = page.locator("#zoom .zoom-text li").all_inner_texts()
    assert any(r.strip().startswith("Legendary advancement") and slots in r for r in rows), rows
    assert page.locator("#zoom .zoom-text li use[href='#i-legendary']").count() == 1
    screenshot(page, shot_dir / "legendary-zoom-desktop.png")
    page.mouse.move(5, 5)
    page.wait_for_selector("#zoom[hidden]", state="attached")
    # the symbols legend names and explains the marker
    page.click("#legend-btn")
    legend = page.inner_text("#legend dl.legend")
    assert "Legendary" in legend and "one advancement filling two slots" in legend
    assert page.locator("#legend dl.legend use[href='#i-legendary']").count() == 1
    page.click("#legend .close")
    # on a player's card (and in a sleeve preview) it is drawn the same: one piece, the marker
    free = next(s for s in ("top", "middle", "bottom") if s not in label.split("@")[1])
    card, preview = page.evaluate(_CARD_WITH, [label, f"Fertile Soil@{free}"])
    for c in (card, preview):
        assert c["pieces"] == 1 and c["band"] > 80 and len(c["marker"]) == 1 and slots in c["marker"][0], c
        assert f"{name} (legendary)" in c["aria"], c
    assert card["empty"] == 0 and preview["empty"] == 1     # the card is full; the blank keeps its free slot

    # At phone size a long press zooms it with the same explanation.
    with phone_page(browser, animations=False) as pg:
        open_seat(pg, server, game)
        open_tab(pg, "commons")
        long_press(pg, pg.locator(f"#supply [data-commons='{place}']"))
        rows = pg.locator("#zoom .zoom-text li").all_inner_texts()
        assert any(r.strip().startswith("Legendary advancement") for r in rows), rows
        screenshot(pg, shot_dir / "legendary-zoom-phone.png")


# -- since your last turn, the log -----------------------------------------------------------------------
def _turns(log: list[dict]) -> list[tuple[int | None, list[dict]]]:
    """The log's turns: (player, entries after the turn's head)."""
    out: list[tuple[int | None, list[dict]]] = [(None, [])]
    for e in log:
        if e["k"] == "turn":
            out.append((e["p"], []))
        else:
            out[-1][1].append(e)
    return out


def test_since_your_last_turn_folds_each_turn_and_the_log_marks_what_is_new(page, server, shot_dir):
    # Three players, two greedy bots; Player 2 starts, so my first turn has no "last turn" yet.
    game = create_game(server, seed=44, bots={"1": "greedy", "2": "greedy"}, players=3)
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    assert page.locator("#summary").count() == 0
    # My first turn, by clicking: pass, End Harvest, Finish Turn.
    for _ in range(6):
        page.wait_for_function(MY_TURN)
        before = seq(page)
        if page.locator("#buttons [data-action=pass]").count():
            page.click("#buttons [data-action=pass]")
        elif page.locator("#field .sleeve-target").count():
            page.click("#field .sleeve-target >> nth=0")
        else:
            done = page.inner_text("#finish") == "Finish Turn"
            page.click("#finish")
            if done:
                break
        wait_seq_change(page, before)
    # The bots play their turns; my second turn starts.
    page.wait_for_function(MY_TURN + " && window.mysticvaleClient.table().view.observation.turn_number > 3")
    page.wait_for_selector("#summary")
    log = page.evaluate("window.mysticvaleClient.table().log")
    turns = _turns(log)
    mine = [i for i, (p, _) in enumerate(turns) if p == 0]
    assert len(mine) == 2
    since = turns[mine[0] + 1:mine[1]]
    assert [p for p, _ in since] == [1, 2]

    # One line per other player, in turn order; each folds the Prep's reveals into one part.
    lines = page.locator("#summary li")
    assert lines.count() == 2
    assert [lines.nth(i).get_attribute("data-seat") for i in range(2)] == ["1", "2"]
    for i, (p, entries) in enumerate(since):
        text = lines.nth(i).inner_text()
        assert text.startswith(_name(page, p) + ":"), text
        end = next(j for j, e in enumerate(entries) if e["k"] in ("finish", "spoil"))
        prep = [e for e in entries[end:] if e["k"] == "reveal" and e["p"] == p]
        pushes = sum(e["k"] == "push" for e in entries)
        assert prep, "the bot's turn had no Prep reveals"
        assert f"Prep: {len(prep)} card" in text, (text, prep)
        assert "reveals" not in text                              # not an entry per reveal
        if pushes:
            assert f"played {pushes} card" in text, text
        for b in (e for e in entries if e["k"] == "buy"):
            assert b["a"]["name"] in text, text
    screenshot(page, shot_dir / "since-last-turn-desktop.png")

    # The log: one group per turn, the newest (mine, now) first, each turn's entries in order.
    groups = page.locator("#log > li.log-turn")
    numbers = [int(x) for x in groups.evaluate_all("els => els.map((e) => e.dataset.turn)")]
    assert numbers == sorted(numbers, reverse=True) and len(numbers) == len(turns)
    heads = groups.locator(".turn-head").all_inner_texts()
    assert len(heads) == len(numbers)
    assert re.search(r"Round 2: .*turn", heads[0]) and _name(page, 0) in heads[0], heads[0]
    for k, (p, _) in zip(range(1, 3), reversed(since)):
        assert _name(page, p) in heads[k], heads[k]
    for g in range(3):
        ids = [int(x) for x in groups.nth(g).locator(".turn-entries > li").evaluate_all("els => els.map((e) => e.dataset.i)")]
        assert ids == sorted(ids)
    # What the bots did since my last action is marked new; my own entries never are.
    # (My last action was Finish Turn: what came after it and was not mine is news.)
    my_finish = max(e["i"] for e in log if e["k"] == "finish_turn" and e["p"] == 0)
    news = sorted(e["i"] for e in log if e["k"] != "turn" and e["i"] > my_finish and e["p"] != 0)
    assert set(news) >= {e["i"] for _, entries in since for e in entries}
    new = page.locator("#log .turn-entries > li.new")
    # (a line may say several entries: the Prep's reveals are one line)
    said = new.evaluate_all("els => els.flatMap((e) => e.dataset.entries.split(' ').map(Number))")
    assert sorted(said) == news
    assert page.locator("#log .turn-entries > li.new.p0").count() == 0
    assert page.locator("#log .turn-entries > li.new .new-dot").count() == new.count()
    assert groups.nth(1).get_attribute("class").split().count("new") == 1      # the bots' turns
    assert "new" not in (groups.nth(3).get_attribute("class") or "").split()  # my first turn
    # Once I act, it is no longer news.
    before = seq(page)
    page.click("#buttons [data-action=pass]")
    wait_seq_change(page, before)
    page.wait_for_function("document.querySelectorAll('#log .turn-entries > li.new').length === 0")
    assert page.locator("#summary").count() == 0                  # the summary is read: acting closes it


# -- a bot thinking ----------------------------------------------------------------------------------------
def test_a_searching_bot_is_shown_thinking(page, server):
    seed = next(s for s in range(100) if mv.new_game(players=2, seed=s).observe(0)["first_player"] == 1)
    game = create_game(server, seed=seed, bots={"1": "ismcts:1.5"})
    no_playback(page)
    open_seat(page, server, game)
    # What the page shows, each time it changes (recorded in the page, with the time: sampling it
    # from here would be as slow as the machine is loaded).
    page.evaluate("""() => { window.__looks = [];
      const look = () => {
        const bot = document.querySelector("#players .player[data-seat='1'] .thinking");
        const prompt = document.querySelector('#prompt');
        const e = { seq: document.body.dataset.seq, thinking: !!bot, label: bot ? bot.textContent : null,
          prompt: prompt ? prompt.textContent : '', offered: document.querySelectorAll('[data-action]').length,
          meThinking: document.querySelectorAll('#players .player.me .thinking').length };
        const key = JSON.stringify(e), last = window.__looks[window.__looks.length - 1];
        if (!last || last.key !== key) window.__looks.push({ ...e, key, t: performance.now() });
      };
      new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      look(); }""")
    # While it thinks (one version for 0.8 s and more; it thinks 1.5 s a decision), its row and the
    # prompt say so, and nothing is offered to me.
    long_look = """() => { const L = window.__looks, now = performance.now();
      return L.find((e, i) => e.thinking && (i + 1 < L.length ? L[i + 1].t : now) - e.t >= 800); }"""
    page.wait_for_function(long_look)
    look = page.evaluate(long_look)
    assert look["label"] == "thinking…", look
    assert "is thinking" in look["prompt"], look
    assert look["meThinking"] == 0 and look["offered"] == 0, look
    # and it does move on: this was thinking, not a stuck game
    wait_seq_change(page, look["seq"])


# -- another player's spoil --------------------------------------------------------------------------------
def _engine_game_with_bot(seed: int, bot: str, mine, limit: int):
    """Play the game as the server plays it: my seat 0 by ``mine``, the bot in seat 1 seeded as the
    server seeds it (sessions.bot_seed of the record number).  Yields (record number, seat, action,
    events of the action)."""
    g = mv.new_game(players=2, seed=seed, finish_turn=True)
    for n in range(limit):
        if g.is_over():
            return
        seat = g.current_player
        if seat == 1:
            action = str(build_bot(bot, bot_seed(seed, 1, n)).act(SeatView(g, 1)))
        else:
            action = mine([str(a) for a in g.legal_actions()])
        before = len(g.state.events)
        g.apply_action(action)
        yield n, seat, action, g.state.events[before:]


def _seed_where_the_bot_spoils(bot: str = "greedy") -> tuple[int, int, int]:
    """(seed, record number, decay) of the first game in which the bot spoils after my seat has made
    a decision (so my page is open before it) and before I could spoil (I never push)."""
    for seed in range(1, 80):
        acted = False
        for n, seat, _, events in _engine_game_with_bot(seed, bot, QUIET, 120):
            acted = acted or seat == 0
            spoil = next((e for e in events if e.kind == "spoil"), None)
            if spoil is not None:
                if spoil.player == 1 and acted:
                    return seed, n, int(re.search(r"(\d+) decay", spoil.text).group(1))
                break
    raise AssertionError("no seed below 80 where the bot spoils early")


def test_another_players_spoil_shows_the_big_banner_on_my_screen(page, server, shot_dir):
    seed, at, decay = _seed_where_the_bot_spoils()
    game = create_game(server, seed=seed, bots={"1": "greedy"})
    use_settings(page, animations=True)          # the bot's turn played back step by step
    # Every banner shown, with whether it was on screen then.
    page.add_init_script("""window.__banners = []; window.__whose = [];
      new MutationObserver(() => {
        const w = document.querySelector('#whose');
        if (w && window.__whose[window.__whose.length - 1] !== w.textContent) window.__whose.push(w.textContent);
        const b = document.querySelector('#big-banner');
        if (!b || b.hidden) return;
        const last = window.__banners[window.__banners.length - 1];
        if (last && last.el === b.firstChild) return;
        const r = b.firstChild.getBoundingClientRect();
        window.__banners.push({ el: b.firstChild, text: b.innerText.trim(),
          inView: r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth });
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });""")
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    assert page.evaluate("window.__banners.length") == 0
    # My seat plays as in the engine's game (never pushing) until the server is past the spoil.
    for _ in range(400):
        st = seat_state(server, game, 0)
        if st["seq"] > at:
            break
        if st["legal_actions"]:
            _act(server, game, 0, QUIET(st["legal_actions"]), st["seq"])
        else:
            wait_for(lambda: seat_state(server, game, 0)["seq"] != st["seq"])      # the bot moves
    page.wait_for_function("window.__banners.length > 0")
    screenshot(page, shot_dir / "spoil-banner-other.png")
    banner = page.evaluate("({ text: window.__banners[0].text, inView: window.__banners[0].inView })")
    assert banner["text"] == f"{_name(page, 1)} spoiled with {decay} decay", banner
    assert banner["inView"], "the spoil banner was not on screen"
    assert f"spoils with {decay} decay" in page.inner_text("#log")
    # While the bot's turn was shown, the top bar said whose turn it was, naming the bot once
    # ("Greedy bot's turn", not "Greedy bot (bot)").
    whose = page.evaluate("window.__whose")
    assert f"{_name(page, 1)}'s turn" in whose and not [w for w in whose if "(bot)" in w], whose


# -- leaders seen ------------------------------------------------------------------------------------------
def _leader_of(card: dict, leaders: dict) -> str | None:
    for name, ld in leaders.items():
        if set(card.get("advancements", [])) & set(ld["start"] + ld["upgraded"]):
            return name
    return None


def test_a_leader_once_face_up_is_shown_to_the_other_players(page, server):
    sets = ("base", "twilight_garden")
    leaders = json.loads(catalogue_text(sets)[0])["leaders"]
    game = http_json("POST", server + "/api/games", {"players": 2, "sets": list(sets), "leaders": True,
                                                     "ruleset": "yucata", "bots": {"1": "random"}, "seed": 3})
    no_playback(page)
    open_seat(page, server, game)
    page.wait_for_function(MY_TURN)
    other = "#players .player[data-seat='1'] .leader-mini"

    def bots_leader(st) -> tuple[str | None, bool]:
        """(the bot's leader's name if I may know it, whether its card is in the bot's field)."""
        o = st["observation"]
        p = o["players"][1]
        seen = set(o["seen_leaders"])
        for c in p.get("owned", []):
            if c.get("unseen_leader") or c["id"] not in seen:
                continue
            name = _leader_of(c, leaders)
            if name:
                field = [x["id"] for x in p["field"]] + ([p["on_deck"]["id"]] if p["on_deck"] else [])
                return name, c["id"] in field
        return None, False

    name, in_field = bots_leader(seat_state(server, game, 0))
    assert name is None, "the bot's leader is face up before anything was played"
    assert page.locator(other).count() == 0
    stage = 0
    for _ in range(600):
        st = seat_state(server, game, 0)
        name, in_field = bots_leader(st)
        if name and stage == 0:
            # face up: shown on my screen as that leader
            _wait_seq_at_least(page, st["seq"])
            page.wait_for_function(f"[...document.querySelectorAll({other!r})].some((e) => e.textContent.includes({name!r}))")
            stage = 1
        elif name and stage == 1 and not in_field:
            # it left the field (discarded, shuffled in): still known, still shown
            _wait_seq_at_least(page, st["seq"])
            page.wait_for_function(f"[...document.querySelectorAll({other!r})].some((e) => e.textContent.includes({name!r}))")
            assert page.locator(other).count() == 1 and name in page.inner_text(other)
            stage = 2
            break
        if st["observation"]["over"]:
            break
        if st["legal_actions"]:
            _act(server, game, 0, QUIET(st["legal_actions"]), st["seq"])
        else:
            wait_for(lambda: seat_state(server, game, 0)["seq"] != st["seq"])      # the bot moves
    assert stage == 2, stage
    # my own leader is on my row all along
    assert page.locator("#players .player.me .leader-mini").count() == 1


# -- undo in the phone bar ---------------------------------------------------------------------------------
def test_undo_in_the_phone_bar_takes_back_a_purchase(browser, server, shot_dir):
    game = create_game(server, seed=47)
    play_api(server, game, 0, lambda st: _first(["pass"])(st["legal_actions"]),
             lambda s: s["observation"]["phase"] == "harvest")
    with phone_page(browser, animations=False) as pg:
        open_seat(pg, server, game)
        pg.wait_for_function(MY_TURN)
        mana = pg.inner_text("#actionbar .res-mana")
        buys = pg.inner_text("#actionbar .res-buys")
        assert "buys 0/2" in buys
        open_tab(pg, "commons")
        soil = "#supply .soil.clickable[data-soil=top]"
        left = pg.inner_text(soil)
        before = seq(pg)
        pg.click(soil)
        wait_seq_change(pg, before)
        assert pg.inner_text("#actionbar .res-mana") != mana and "buys 1/2" in pg.inner_text("#actionbar .res-buys")
        assert pg.locator("#actionbar #undo").count() == 1
        assert in_viewport(pg, "#actionbar #undo")              # in the sticky bar, on screen, no scrolling
        screenshot(pg, shot_dir / "phone-undo-bar.png")
        before = seq(pg)
        pg.click("#actionbar #undo")
        wait_seq_change(pg, before)
        assert pg.evaluate("document.body.dataset.phase") == "harvest"     # only the purchase is taken back
        assert pg.inner_text("#actionbar .res-mana") == mana
        assert pg.inner_text("#actionbar .res-buys") == buys
        assert pg.inner_text("#supply .soil[data-soil=top]") == left
        open_tab(pg, "log")
        assert "buys Fertile Soil" not in pg.inner_text("#log")


# -- the running score estimate ------------------------------------------------------------------------------
def _estimate(page, seat: int) -> int:
    text = page.inner_text(f"#players .player[data-seat='{seat}'] .estimate")
    return int(re.search(r"≈\s*([−-]?\d+)", text).group(1).replace("−", "-"))


def test_the_running_score_estimate_equals_the_engines_scoring(page, server):
    """Two people (both seats played through the API by a buying policy, so the engine can replay
    the game from its seed and the actions); at several points of the game each seat's estimate on
    my screen equals the engine's final scoring of the position."""
    seed = 51
    game = create_game(server, seed=seed, bots={}, sets=SETS)
    no_playback(page)
    open_seat(page, server, game)
    policy = _first(["vale", "buy 3", "buy 2", "buy 1", "choose", "pass", "finish", "sleeve", "keep", "skip"])
    actions: list[str] = []
    checked = []
    for _ in range(2000):
        st = None
        for seat in (0, 1):
            s = seat_state(server, game, seat)
            if s["legal_actions"] or s["observation"]["over"]:
                st, who = s, seat
                break
        assert st is not None
        o = st["observation"]
        if o["over"] or len(checked) >= 5:
            break
        if o["phase"] == "planting" and not o["pending"] and who == 0 and o["turn_number"] >= 4 * (len(checked) + 1):
            # a checkpoint: the engine's scoring of this very position
            g = mv.new_game(players=2, seed=seed, sets=SETS, finish_turn=True)
            for a in actions:
                g.apply_action(a)
            _wait_seq_at_least(page, st["seq"])
            page.wait_for_function(f"document.body.dataset.seq === '{st['seq']}'")
            got = [_estimate(page, q) for q in (0, 1)]
            want = [breakdown(g.state, q)["total"] for q in (0, 1)]
            assert got == want, (o["turn_number"], got, want)
            checked.append(got)
        action = policy(st["legal_actions"])
        _act(server, game, who, action, st["seq"])
        actions.append(action)
    assert len(checked) >= 3, checked
    assert any(v > 0 for c in checked for v in c), checked       # not only zeros
