"""The bot levels in the browser (issue 20): the lobby offers the four levels by strength with their
ratings and says what the chosen one is, in English and German; the bots themselves follow for
comparison; at the table a level is named as a player would say it ("Druid", and "Druid (bot) is
thinking…" on its turn, never "Druid bot (bot)")."""

from __future__ import annotations

import pytest

import mysticvale as mv
from browser_helpers import MY_TURN, create_game, no_playback, open_seat, play_api, screenshot
from mysticvale.bots.levels import levels

pytestmark = pytest.mark.browser

#: Every text the prompt shows, in order (recorded in the page as it changes).
PROMPTS = """window.__prompts = [];
  new MutationObserver(() => { const p = document.querySelector('#prompt');
    if (p && window.__prompts[window.__prompts.length - 1] !== p.textContent) window.__prompts.push(p.textContent); })
  .observe(document, { subtree: true, childList: true, characterData: true });"""


def _lobby(browser, server, locale, name, viewport):
    ctx = browser.new_context(viewport=viewport, locale=locale)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    pg.wait_for_selector("#name-panel")
    pg.fill("#person-name", name)
    pg.click("#name-btn")
    pg.wait_for_selector("#create-form select[name=seat-1] optgroup", state="attached")
    return ctx, pg, errors


@pytest.mark.parametrize("locale,group,other,option,about", [
    ("en-US", "Bots by strength", "The bots themselves (for comparison)", "Druid (bot) · rating {r}",
     "Druid, rating {r} (measured in bot games): Looks ahead"),
    ("de-DE", "Bots nach Stärke", "Die Bots selbst (zum Vergleich)", "Druide (Bot) · Wertung {r}",
     "Druide, Wertung {r} (gemessen in Bot-Partien): Plant voraus"),
])
def test_the_lobby_offers_the_levels_by_strength_with_ratings_and_says_what_each_is(
        browser, server, shot_dir, locale, group, other, option, about):
    ctx, pg, errors = _lobby(browser, server, locale, f"Lev{locale[:2]}", {"width": 1280, "height": 900})
    try:
        groups = pg.eval_on_selector("select[name=seat-1]", """s => [...s.querySelectorAll('optgroup')].map(g =>
            ({ label: g.label, values: [...g.children].map(o => o.value), texts: [...g.children].map(o => o.textContent) }))""")
        assert [g["label"] for g in groups] == [group, other]
        assert groups[0]["values"] == [lv.name for lv in levels()]
        assert set(groups[1]["values"]) == {"greedy", "ismcts", "random"}
        druid = next(lv for lv in levels() if lv.name == "druid")
        assert groups[0]["texts"][2] == option.format(r=druid.rating)
        # a friend's seat defaults to the Wanderer; its description is shown under it
        assert pg.eval_on_selector("select[name=seat-1]", "s => s.value") == "wanderer"
        pg.select_option("select[name=seat-1]", "druid")
        assert pg.inner_text("#seat-about-1").startswith(about.format(r=druid.rating))
        # the think time belongs to the bot itself (ismcts) only, and its line says what it is
        assert pg.is_hidden("select[name=think-1]")
        pg.select_option("select[name=seat-1]", "ismcts")
        assert pg.is_visible("select[name=think-1]") and pg.inner_text("#seat-about-1")
        pg.select_option("select[name=seat-1]", "seedling")
        screenshot(pg, shot_dir / f"lobby-levels-{locale}.png")
        # the table's default name says the level as a player would
        placeholder = pg.get_attribute("#table-name", "placeholder")
        assert ("Seedling" if locale == "en-US" else "Setzling") in placeholder and "bot" not in placeholder.lower()
    finally:
        ctx.close()
    assert not errors, errors


def test_a_level_is_named_as_a_player_would_say_it_at_the_table(page, server, shot_dir):
    seed = next(s for s in range(100) if mv.new_game(players=2, seed=s).observe(0)["first_player"] == 0)
    game = create_game(server, seed=seed, bots={"1": "druid"})
    # my first turn up to Finish Turn, through the API
    play_api(server, game, 0, lambda st: next((a for a in st["legal_actions"] if a.startswith(("pass", "finish"))),
                                              st["legal_actions"][0]),
             until=lambda st: (st["observation"].get("pending") or {}).get("kind") == "finish_turn")
    page.add_init_script(PROMPTS)
    no_playback(page)
    open_seat(page, server, game)
    assert page.inner_text("#players .player[data-seat='1'] .pname").strip() == "Druid"
    assert page.locator("#players .player[data-seat='1'] .bot-badge").count() == 1
    # Finish Turn from the page: the answer to its own action shows the Druid to move
    page.click("[data-action]:has-text('Finish Turn')")
    page.wait_for_function("window.__prompts.some(p => p.includes('is thinking'))")
    thinking = [p for p in page.evaluate("window.__prompts") if "thinking" in p]
    assert thinking and set(thinking) == {"Druid (bot) is thinking…"}, thinking
    page.wait_for_function(MY_TURN)        # and it moved on: my turn again
    screenshot(page, shot_dir / "table-druid.png")
    assert "(bot)" not in page.inner_text("#players")       # the badge says it there
