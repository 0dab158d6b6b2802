"""Card faces one reads at the table (issue 21 item 3): at the default card size an ability's text
is at least 11 CSS px on a 1366x900 desktop and 10 px on a 390x844 phone (measured: the rendered
text's font size times the face's scale), and no line of it runs out of its slot or under the
cost disc, a VP shield, the level or a marker.  The card-size setting (small, normal, large) is
offered in the settings, remembered on the device, and the table keeps its layout at every size;
a tap on a face that offers no action opens its zoom on a phone."""

from __future__ import annotations

import pytest

from browser_helpers import PHONE, create_game, no_horizontal_scroll, play_api, screenshot, seat_url, use_settings

pytestmark = pytest.mark.browser

SETS = ("base", "vale_of_magic", "twilight_garden")
DESKTOP = {"width": 1366, "height": 900}

#: Puts one field-size card (a sleeve with the layer) per advancement type with an ability text
#: into the field, as the table draws its field cards, then measures every ability text on the
#: page: its rendered size in CSS px and whether a line of it leaves its box or meets an obstacle.
_MEASURE = """async (gallery) => {
  const C = await import('/static/js/cards.js');
  const { catalogue } = await import('/static/js/catalogue.js');
  const cat = catalogue();
  if (gallery) {
    const row = document.querySelector('#field .field-cards');
    const seen = new Set();
    for (const [label, name] of Object.entries(cat.copies)) {
      const ty = cat.types[name];
      if (seen.has(name) || !ty.text || !(ty.abilities || []).length || ty.kind !== 'advancement') continue;
      seen.add(name);
      const slot = document.createElement('div');
      slot.className = 'card-slot gallery';
      slot.append(C.cardFace({ id: 9000 + seen.size, advancements: [label], covered: [] }, { flip: false }));
      row.append(slot);
    }
  }
  const out = { texts: [], misfits: [], faces: 0 };
  const inside = (r, box, tol = 0.5) => r.left >= box.left - tol && r.right <= box.right + tol && r.top >= box.top - tol && r.bottom <= box.bottom + tol;
  const meets = (a, b, tol = 0.5) => a.left < b.right - tol && b.left < a.right - tol && a.top < b.bottom - tol && b.top < a.bottom - tol;
  for (const face of document.querySelectorAll('#field .face, #supply .face')) {
    const abs = face.querySelectorAll('.ab');
    if (!abs.length) continue;
    out.faces++;
    const where = `${face.closest('#field') ? 'field' : 'commons'}: ${face.querySelector('svg').getAttribute('aria-label').slice(0, 50)}`;
    const obstacles = [...face.querySelectorAll('.marker, .endvp, .negvp, .cost, .lvl')].map((e) => e.getBoundingClientRect());
    for (const ab of abs) {
      const box = ab.getBoundingClientRect();
      const scale = box.width / ab.offsetWidth;            // the face's scale (and the text's 1/10)
      const abt = ab.querySelector('.abt') || ab;
      const px = parseFloat(getComputedStyle(abt).fontSize) * scale;
      const band = ab.closest('.layer, .vale-svg').getBoundingClientRect();
      out.texts.push({ where, px, text: abt.textContent, width: face.getBoundingClientRect().width });
      const walk = document.createTreeWalker(ab, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (!r.width) continue;
          if (!inside(r, box) || !inside(r, band)) out.misfits.push(`${where}: "${n.textContent.slice(0, 30)}" runs out of its box`);
          else if (obstacles.some((o) => meets(r, o))) out.misfits.push(`${where}: "${n.textContent.slice(0, 30)}" runs under a badge`);
        }
      }
      for (const icon of ab.querySelectorAll('svg')) {
        const r = icon.getBoundingClientRect();
        if (obstacles.some((o) => meets(r, o))) out.misfits.push(`${where}: an icon of its text runs under a badge`);
      }
    }
  }
  out.misfits = [...new Set(out.misfits)];
  return out;
}"""


@pytest.fixture(scope="module")
def harvest_game(server):
    """A game of all three sets at seat 0's Harvest (its commons hold abilities with texts)."""
    game = create_game(server, seed=5, sets=SETS)
    play_api(server, game, 0, lambda s: "pass" if "pass" in s["legal_actions"] else s["legal_actions"][0],
             lambda s: s["observation"]["phase"] == "harvest")
    return game


def _open(browser, server, game, viewport, lang="en", **settings):
    phone = viewport["width"] < 700
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    use_settings(page, animations=False, language=lang, languageAsked=True, **settings)
    page.add_init_script("localStorage.setItem('mysticvale.tour', 'true')")
    page.goto(seat_url(server, game, 0))
    page.wait_for_selector("#supply .adv-face", state="attached")
    page.wait_for_function("document.body.dataset.myturn === 'yes'")
    return ctx, page, errors


def _tab(page, tab):
    if page.evaluate("!!document.querySelector('#tabs') && !!document.querySelector('#tabs').offsetParent"):
        page.click(f"#tabs [data-tab={tab}]")
        page.wait_for_selector(f".table[data-tab={tab}]")


@pytest.mark.parametrize("size,viewport,least", [("desktop", DESKTOP, 11.0), ("phone", PHONE, 10.0)])
def test_ability_text_is_readable_at_the_table_and_clear_of_every_badge(browser, server, harvest_game, shot_dir,
                                                                        size, viewport, least):
    ctx, page, errors = _open(browser, server, harvest_game, viewport)
    try:
        for tab in ("commons", "field"):
            _tab(page, tab)
            out = page.evaluate(_MEASURE, tab == "field")
            where = [x["where"] for x in out["texts"]]
            assert any(w.startswith(tab) for w in where), where
            small = [f'{x["where"]}: {x["px"]:.1f} px' for x in out["texts"] if x["px"] < least]
            assert not small, small[:10]
            assert not out["misfits"], out["misfits"][:10]
            # faces lead with the trigger icon and say a few words (more than a word or two)
            assert all(len(x["text"].rstrip("…").split()) >= 2 for x in out["texts"]), \
                [x for x in out["texts"] if len(x["text"].rstrip("…").split()) < 2][:5]
            if tab == "field":
                assert len([w for w in where if w.startswith("field")]) >= 30
                screenshot(page, shot_dir / f"faces-field-{size}.png", full_page=True)
            else:
                screenshot(page, shot_dir / f"faces-commons-{size}.png", full_page=True)
        assert no_horizontal_scroll(page)[0] <= viewport["width"]
    finally:
        ctx.close()
    assert not errors, errors


def _boxes_apart(page, selector):
    """Pairs of elements (``selector``) whose boxes overlap: none when the layout holds."""
    return page.evaluate("""(sel) => {
      const els = [...document.querySelectorAll(sel)].filter((e) => e.offsetParent);
      const rs = els.map((e) => e.getBoundingClientRect());
      const bad = [];
      for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
        const a = rs[i], b = rs[j];
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) bad.push([i, j]);
      }
      return [els.length, bad];
    }""", selector)


@pytest.mark.parametrize("size,viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_the_card_size_setting_is_offered_remembered_and_keeps_the_layout(browser, server, harvest_game, shot_dir,
                                                                          size, viewport):
    ctx, page, errors = _open(browser, server, harvest_game, viewport)
    try:
        widths = {}
        for choice in ("small", "normal", "large"):
            page.click("#settings-btn")
            page.wait_for_selector("#set-cardSize")
            page.select_option("#set-cardSize", choice)
            page.wait_for_function(f"document.documentElement.dataset.cards === {choice!r}")
            page.keyboard.press("Escape")
            page.wait_for_selector("#set-cardSize", state="detached")
            for tab, sel in (("field", "#field .card-slot"), ("commons", "#supply .row-cards > *")):
                _tab(page, tab)
                n, overlapping = _boxes_apart(page, sel)
                assert n >= 8 and not overlapping, (choice, tab, overlapping)
                screenshot(page, shot_dir / f"cardsize-{choice}-{tab}-{size}.png", full_page=True)
            assert no_horizontal_scroll(page)[0] <= viewport["width"], choice
            _tab(page, "field")
            widths[choice] = page.evaluate("document.querySelector('#field .card-slot .face').getBoundingClientRect().width")
        assert widths["small"] < widths["normal"] < widths["large"], widths
        # remembered on this device: a new page of the same browser opens at the chosen size
        again = ctx.new_page()
        again.goto(seat_url(server, harvest_game, 0))
        again.wait_for_selector("#supply .adv-face", state="attached")
        assert again.evaluate("document.documentElement.dataset.cards") == "large"
    finally:
        ctx.close()
    assert not errors, errors


def test_a_tap_on_a_phone_opens_the_zoom_of_a_card_without_an_action(browser, server, harvest_game, shot_dir):
    """On a phone a tap on a face that offers nothing to do (a vale one cannot pay for, a level-3
    advancement one cannot afford) zooms it; a tap on the zoom closes it; a tap on a face that
    offers an action still does it (nothing zooms)."""
    ctx, page, errors = _open(browser, server, harvest_game, PHONE)
    try:
        _tab(page, "commons")
        idle = page.locator("#supply .vale-face:not(.clickable)").first
        idle.scroll_into_view_if_needed()
        idle.tap()
        page.wait_for_selector("#zoom.touch:not([hidden]) .zoom-text li")
        screenshot(page, shot_dir / "faces-tap-zoom-phone.png")
        page.tap("#zoom")
        page.wait_for_selector("#zoom", state="hidden")
        buyable = page.locator("#supply .clickable").first
        buyable.scroll_into_view_if_needed()
        before = page.evaluate("document.body.dataset.seq")
        buyable.tap()
        # the tap acts as a click does (a buy offers its sleeve choice or sends the buy), no zoom
        page.wait_for_function("(s) => document.querySelector('.overlay') || document.body.dataset.seq !== s", arg=before)
        assert page.locator("#zoom:not([hidden])").count() == 0
    finally:
        ctx.close()
    assert not errors, errors
